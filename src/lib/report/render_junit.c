/*
 * JUnit XML (render.h), valid against the Ant JUnit schema CI systems read (Windy Road's
 * JUnit.xsd, tests/fixtures/junit): <testsuites>, a <testsuite> per checkpoint and group, a
 * <testcase> per case, with <failure> when a check said no and <error> when the program broke
 * (timed out, killed by a signal, could not start) or assay could not load or verify the case.
 *
 * Key decisions:
 * - The schema allows no output inside a testcase: a failing case's attributes (expected,
 *   actual, diff) go in its <failure>/<error> text, and its standard output and error in its
 *   testsuite's <system-out>/<system-err>, under a line naming the case. Passing cases add none.
 *   Each value is cut at text_cap bytes and says how long it was.
 * - A testsuite's counts come first in the file, so its testcases and outputs are spooled to
 *   temp files until the group ends: memory stays flat.
 * - The file stays under junit_max_bytes (GitLab refuses reports over 30 MB): every case gets
 *   its testcase element, and the text of failures and outputs is written only while the bytes
 *   so far plus a reserve for the cases still to come (their average bare size) fit; past that,
 *   a failure says where its details are (`assay show`).
 * - Timestamps are the first case's, without fraction or zone (the schema's pattern); times are
 *   seconds as decimals ("0.012345"), never in exponent form.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_int.h"
#include "util/banned.h"

#define MESSAGE_CAP 256

struct junit {
	FILE *cases, *out, *err;   /* spools of the testsuite being written */
	uint64_t spooled;          /* bytes in them */
	char *cp, *group, *type;   /* the testsuite being written, NULL before the first */
	char timestamp[20];
	size_t tests, failures, errors, suites, seen, total;
	double time;
	uint64_t bare_sum;         /* bytes of testcase elements without their text */
	bool over;                 /* the size limit was reached: no more text */
	const char *host, *suite;
	assay_arena *a;            /* host, suite */
	assay_buf b, text;
};

static void fmt_time(char buf[48], double s)
{
	snprintf(buf, 48, "%.6f", isfinite(s) && s > 0 && s < 1e12 ? s : 0.0);
}

static void attr(assay_buf *b, const char *name, const char *v)
{
	assay_buf_addf(b, " %s=\"", name);
	assay_report__xml(b, v, strlen(v), true);
	assay_buf_addch(b, '"');
}

static void property(assay_buf *b, const char *name, const char *v)
{
	assay_buf_adds(b, "      <property");
	attr(b, "name", name);
	attr(b, "value", v);
	assay_buf_adds(b, "/>\n");
}

/* Writes the testsuite spooled so far, if any. */
static void flush_suite(struct assay_renderer *r)
{
	struct junit *j = r->state;
	assay_buf *b = &j->b;
	char t[48];

	if (!j->cp)
		return;
	assay_buf_reset(b);
	assay_buf_adds(b, "  <testsuite");
	assay_buf_addf(b, " name=\"");
	assay_report__xml(b, j->cp, strlen(j->cp), true);
	assay_buf_addch(b, '.');
	assay_report__xml(b, j->group, strlen(j->group), true);
	assay_buf_addch(b, '"');
	attr(b, "package", j->suite);
	assay_buf_addf(b, " id=\"%zu\"", j->suites++);
	attr(b, "timestamp", j->timestamp);
	attr(b, "hostname", j->host);
	fmt_time(t, j->time);
	assay_buf_addf(b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"%s\">\n",
		       j->tests, j->failures, j->errors, t);
	assay_buf_adds(b, "    <properties>\n");
	property(b, "suite", j->suite);
	property(b, "checkpoint", j->cp);
	property(b, "group", j->group);
	property(b, "type", j->type);
	assay_buf_adds(b, "    </properties>\n");
	assay_report__out_add(&r->out, b->ptr, b->len);
	assay_report__out_spool(&r->out, j->cases);
	assay_report__out_adds(&r->out, "    <system-out>");
	assay_report__out_spool(&r->out, j->out);
	assay_report__out_adds(&r->out, "</system-out>\n    <system-err>");
	assay_report__out_spool(&r->out, j->err);
	assay_report__out_adds(&r->out, "</system-err>\n  </testsuite>\n");
	j->spooled = 0;
	free(j->cp), free(j->group), free(j->type);
	j->cp = j->group = j->type = NULL;
}

static void spool(struct junit *j, FILE *f, const assay_buf *b)
{
	fwrite(b->ptr, 1, b->len, f);
	j->spooled += b->len;
}

/* The schema's timestamp: YYYY-MM-DDTHH:MM:SS. */
static void timestamp_of(char out[20], const char *ts)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	for (int i = 0; i < 19; i++) {
		char want = shape[i], got = ts[i];

		if (!got || (want == 'd' ? got < '0' || got > '9' : got != want)) {
			memcpy(out, "1970-01-01T00:00:00", 20);
			return;
		}
	}
	memcpy(out, ts, 19);
	out[19] = '\0';
}

/* Bytes the text of failures and outputs may still take. */
static uint64_t room(struct assay_renderer *r, size_t bare)
{
	struct junit *j = r->state;
	uint64_t used = r->out.written + j->spooled + bare;
	uint64_t avg = j->seen ? j->bare_sum / j->seen : bare;
	uint64_t left = j->total > j->seen ? j->total - j->seen : 0;
	/* the cases still to come, a fifth more, and closing elements of testsuites */
	uint64_t reserve = left * (avg + avg / 5) + 4096 + 1024 * (j->suites + 1);

	return used + reserve < r->o.junit_max_bytes ? r->o.junit_max_bytes - used - reserve : 0;
}

/* Appends one value's text with a header line, as the report shows it. */
static void add_value(struct assay_renderer *r, assay_buf *out, const char *label,
		      const assay_value *v, bool pretty)
{
	struct junit *j = r->state;
	size_t whole;

	assay_buf_reset(&j->text);
	whole = assay_report__text(&j->text, v, r->o.text_cap, pretty);
	assay_buf_adds(out, label);
	assay_buf_adds(out, ":\n");
	assay_report__xml(out, j->text.ptr ? j->text.ptr : "", j->text.len, false);
	if (j->text.len && j->text.ptr[j->text.len - 1] != '\n')
		assay_buf_addch(out, '\n');
	if (whole)
		assay_buf_addf(out, "[cut: %zu bytes in all]\n", whole);
}

/* The text of a failure: each verified attribute that is not correct. */
static void failure_text(struct assay_renderer *r, const struct assay_report__case *c,
			 assay_buf *out)
{
	assay_buf words = ASSAY_BUF_INIT, tail = ASSAY_BUF_INIT;

	/* the terminal's words first (explain.c), then the raw values */
	assay_report__explain(&words, &tail, c);
	assay_report__xml(out, words.ptr, words.len, false);
	assay_buf_addch(out, '\n');
	if (tail.len) {
		assay_report__xml(out, tail.ptr, tail.len, false);
		assay_buf_addch(out, '\n');
	}
	assay_buf_reset(&words);
	assay_report__repro(&words, r->run_arena ? &r->run : NULL, c);
	if (words.len) {
		assay_buf_adds(out, "reproduce: ");
		assay_report__xml(out, words.ptr, words.len, false);
		assay_buf_addch(out, '\n');
	}
	assay_buf_release(&words), assay_buf_release(&tail);
	for (uint32_t i = 0; c->results && i < c->results->len; i++) {
		const assay_member *m = &c->results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		assay_buf_adds(out, "=== ");
		assay_report__xml(out, m->key.u.s, m->key.len, false);
		assay_buf_adds(out, " ===\n");
		/* the diff first: a long expected value would hide it */
		add_value(r, out, "diff", assay_object_get(&m->value, "diff"), true);
		add_value(r, out, "expected", assay_object_get(&m->value, "expected"), true);
		add_value(r, out, "actual", assay_object_get(&m->value, "actual"), true);
	}
}

static void case_output(struct assay_renderer *r, const struct assay_report__case *c,
			const char *attribute, assay_buf *out)
{
	const assay_value *v = assay_object_get(assay_object_get(c->results, attribute), "actual");

	if (!v || v->kind == ASSAY_V_NULL || (v->kind == ASSAY_V_STRING && !v->len))
		return;
	assay_buf_adds(out, "--- ");
	assay_report__xml(out, c->checkpoint, strlen(c->checkpoint), false);
	assay_buf_addch(out, '/');
	assay_report__xml(out, c->group, strlen(c->group), false);
	assay_buf_addch(out, '/');
	assay_report__xml(out, c->id, strlen(c->id), false);
	assay_buf_adds(out, " ---\n");
	add_value(r, out, attribute, v, false);
}

static int junit_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct junit *j = r->state;
	assay_buf el = ASSAY_BUF_INIT, rich = ASSAY_BUF_INIT, out = ASSAY_BUF_INIT,
		  errb = ASSAY_BUF_INIT, reason = ASSAY_BUF_INIT;
	char t[48];

	(void)err;
	if (!j->cp || strcmp(j->cp, c->checkpoint) || strcmp(j->group, c->group)) {
		flush_suite(r);
		j->cp = assay_xstrdup(c->checkpoint);
		j->group = assay_xstrdup(c->group);
		j->type = assay_xstrdup(c->type);
		j->tests = j->failures = j->errors = 0;
		j->time = 0;
		timestamp_of(j->timestamp, c->timestamp);
	}
	j->tests++;
	j->time += isfinite(c->duration) && c->duration > 0 ? c->duration : 0;
	fmt_time(t, c->duration);
	assay_buf_adds(&el, "    <testcase");
	attr(&el, "name", c->id);
	assay_buf_adds(&el, " classname=\"");
	assay_report__xml(&el, c->checkpoint, strlen(c->checkpoint), true);
	assay_buf_addch(&el, '.');
	assay_report__xml(&el, c->group, strlen(c->group), true);
	assay_buf_addf(&el, "\" time=\"%s\"", t);
	if (c->outcome == ASSAY_OUTCOME_PASS) {
		assay_buf_adds(&el, "/>\n");
		j->seen++, j->bare_sum += el.len;
		spool(j, j->cases, &el);
		goto out;
	}
	bool error = c->outcome == ASSAY_OUTCOME_ERROR;
	const char *tag = error ? "error" : "failure";

	j->failures += !error;
	j->errors += error;
	assay_report__first_line(&reason, c);
	if (reason.len > MESSAGE_CAP)
		assay_buf_setlen(&reason, MESSAGE_CAP); /* xml() repairs a cut character */
	assay_buf_addf(&el, "><%s", tag);
	attr(&el, "message", reason.ptr);
	attr(&el, "type", error ? (c->error ? "error" : c->status) : "failure");
	assay_buf_addch(&el, '>');
	size_t bare = el.len + strlen(tag) + 20; /* </tag></testcase> */

	if (!j->over) {
		failure_text(r, c, &rich);
		case_output(r, c, "output", &out);
		case_output(r, c, "stderr", &errb);
		uint64_t left = room(r, bare);

		if (rich.len + out.len + errb.len > left) {
			j->over = true;
			assay_buf_reset(&rich), assay_buf_reset(&out), assay_buf_reset(&errb);
		}
	}
	if (j->over)
		assay_buf_addf(&rich, "(details left out: the report reached its size limit; "
				      "assay show%s%s CASE prints them)\n",
			       r->o.results ? " " : "", r->o.results ? r->o.results : "");
	assay_buf_add(&el, rich.ptr ? rich.ptr : "", rich.len);
	assay_buf_addf(&el, "</%s></testcase>\n", tag);
	j->seen++, j->bare_sum += bare;
	spool(j, j->cases, &el);
	if (out.len)
		spool(j, j->out, &out);
	if (errb.len)
		spool(j, j->err, &errb);
out:
	assay_buf_release(&el), assay_buf_release(&rich), assay_buf_release(&out);
	assay_buf_release(&errb), assay_buf_release(&reason);
	return 0;
}

static int junit_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		       assay_err *err)
{
	struct junit *j = r->state;
	const char *host = assay_report__str(run, "host", "");

	j->a = assay_arena_new(0);
	j->host = assay_value_strz(j->a, *host ? host : "localhost").u.s;
	j->suite = assay_value_strz(j->a, assay_report__suite(run)).u.s;
	j->total = total;
	j->b = j->text = (assay_buf)ASSAY_BUF_INIT;
	if (!(j->cases = assay_report__spool(err)) || !(j->out = assay_report__spool(err)) ||
	    !(j->err = assay_report__spool(err)))
		return ASSAY_EIO;
	assay_report__out_adds(&r->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
	return 0;
}

static int junit_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct junit *j = r->state;
	int64_t unrun = assay_report__unrun(summary);

	(void)err;
	flush_suite(r);
	/* case files a suite mistake left unrun: an error CI shows, not a silent green */
	if (unrun) {
		assay_buf *b = &j->b;

		assay_buf_reset(b);
		assay_buf_addf(b, "  <testsuite name=\"assay.unrun-case-files\" id=\"%zu\" tests=\"1\" "
				  "failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
				  "    <testcase name=\"case files that never ran\" "
				  "classname=\"assay.unrun-case-files\" time=\"0\">\n"
				  "      <error message=\"%lld case file%s never ran: no group or checkpoint "
				  "of the suite names %s folder (summary.json's unrun_case_files)\" "
				  "type=\"unrun_case_files\"/>\n    </testcase>\n  </testsuite>\n",
			       j->suites++, (long long)unrun, unrun == 1 ? "" : "s",
			       unrun == 1 ? "its" : "their");
		assay_report__out_add(&r->out, b->ptr, b->len);
	}
	assay_report__out_adds(&r->out, "</testsuites>\n");
	return 0;
}

static void junit_release(struct assay_renderer *r)
{
	struct junit *j = r->state;

	if (j->cases)
		fclose(j->cases);
	if (j->out)
		fclose(j->out);
	if (j->err)
		fclose(j->err);
	free(j->cp), free(j->group), free(j->type);
	assay_buf_release(&j->b);
	assay_buf_release(&j->text);
	assay_arena_free(j->a);
}

const struct assay_report__format assay_report__junit = {
	"junit", "junit.xml", false, sizeof(struct junit),
	junit_begin, junit_case, junit_end, junit_release,
};
