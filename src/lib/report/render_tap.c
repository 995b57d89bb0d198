/*
 * TAP version 14 (render.h; testanything.org's TAP 14 specification): a test point per case,
 * "checkpoint/group/id" as its description, and for a case that did not pass a YAML
 * diagnostics block: message, severity (fail: a check said no; error: the program broke or
 * assay could not load or verify the case), where the case is, its score, and per attribute
 * that is not correct `got`, `expect` and `diff`. The plan comes last ("1..N"), as TAP allows,
 * so the stream needs no count in advance.
 *
 * Key decisions:
 * - The YAML is written by libyaml's emitter (the library assay already reads YAML with), so
 *   quoting and escaping are right whatever a program printed; each line is indented by two
 *   spaces as TAP 14 wants. Strings go double-quoted, or as literal blocks when they span
 *   lines; numbers and booleans plain. Each value is cut at text_cap bytes, and `cut` gives
 *   the size of the whole.
 * - A description escapes '\' and '#' with a backslash (TAP 14) and shows control characters
 *   as \xNN, so no case id can end a line or start a directive.
 */
#include <math.h>
#include <string.h>
#include <yaml.h>

#include "report/report_int.h"
#include "util/banned.h"

struct tap {
	size_t n, passed, failed, errors;
	assay_buf b, text;
	assay_arena *a;
};

/* libyaml's output: each line indented by two spaces. */
static int yaml_out(void *data, unsigned char *buffer, size_t size)
{
	assay_buf *b = data;

	for (size_t i = 0; i < size; i++) {
		if (!b->len || b->ptr[b->len - 1] == '\n')
			assay_buf_adds(b, "  ");
		assay_buf_addch(b, (char)buffer[i]);
	}
	return 1;
}

static void emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	/* every string passed is valid UTF-8 (utf8_clean): the emitter cannot refuse it */
	if (!yaml_emitter_emit(e, ev))
		ASSAY_BUG(e->problem ? e->problem : "libyaml refused an event");
}

static void scalar(yaml_emitter_t *e, const char *s, size_t len, yaml_scalar_style_t style)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)len, 1, 1,
					  style))
		ASSAY_BUG("libyaml refused a scalar");
	emit(e, &ev);
}

static void key(yaml_emitter_t *e, const char *k)
{
	scalar(e, k, strlen(k), YAML_PLAIN_SCALAR_STYLE);
}

/* A string scalar: double-quoted on one line, a literal block over several. */
static void string(struct tap *t, yaml_emitter_t *e, const char *s, size_t len)
{
	size_t n;
	const char *clean = assay_report__utf8_clean(t->a, s, len, &n);

	scalar(e, clean, n, memchr(clean, '\n', n) ? YAML_LITERAL_SCALAR_STYLE
						   : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

static void number(yaml_emitter_t *e, double d)
{
	char buf[ASSAY_DOUBLE_BUFSIZE];
	size_t n = isfinite(d) ? assay_format_double(buf, d) : 0;

	if (!n)
		n = (size_t)snprintf(buf, sizeof(buf), "%s", isnan(d) ? ".nan" : d > 0 ? ".inf" : "-.inf");
	scalar(e, buf, n, YAML_PLAIN_SCALAR_STYLE);
}

static void map_start(yaml_emitter_t *e)
{
	yaml_event_t ev;

	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	emit(e, &ev);
}

static void map_end(yaml_emitter_t *e)
{
	yaml_event_t ev;

	yaml_mapping_end_event_initialize(&ev);
	emit(e, &ev);
}

/* `name: value` as the report shows the value; its whole size into *whole when cut. */
static void value(struct assay_renderer *r, yaml_emitter_t *e, const char *name,
		  const assay_value *v, size_t *whole)
{
	struct tap *t = r->state;

	key(e, name);
	*whole = 0;
	if (!v || v->kind == ASSAY_V_NULL) {
		scalar(e, "~", 1, YAML_PLAIN_SCALAR_STYLE);
	} else if (v->kind == ASSAY_V_BOOL) {
		key(e, v->u.b ? "true" : "false");
	} else if (v->kind == ASSAY_V_INT || v->kind == ASSAY_V_REAL) {
		number(e, assay_value_number(v));
	} else {
		assay_buf_reset(&t->text);
		*whole = assay_report__text(&t->text, v, r->o.text_cap, true);
		string(t, e, t->text.ptr ? t->text.ptr : "", t->text.len);
	}
}

static void attributes(struct assay_renderer *r, yaml_emitter_t *e,
		       const struct assay_report__case *c)
{
	/* the diff first: a long expected value would hide it */
	static const char *const fields[][2] = { { "diff", "diff" }, { "got", "actual" },
						 { "expect", "expected" } };
	bool any = false;

	for (uint32_t i = 0; c->results && i < c->results->len; i++) {
		const assay_member *m = &c->results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");
		size_t whole[3];

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		if (!any)
			key(e, "attributes"), map_start(e), any = true;
		string(r->state, e, m->key.u.s, m->key.len);
		map_start(e);
		for (int f = 0; f < 3; f++)
			value(r, e, fields[f][0], assay_object_get(&m->value, fields[f][1]),
			      &whole[f]);
		if (whole[0] || whole[1] || whole[2]) {
			key(e, "cut");
			map_start(e);
			for (int f = 0; f < 3; f++) {
				char n[32];

				if (!whole[f])
					continue;
				key(e, fields[f][0]);
				scalar(e, n, (size_t)snprintf(n, sizeof(n), "%zu", whole[f]),
				       YAML_PLAIN_SCALAR_STYLE);
			}
			map_end(e);
		}
		map_end(e);
	}
	if (any)
		map_end(e);
}

static void diagnostics(struct assay_renderer *r, const struct assay_report__case *c)
{
	struct tap *t = r->state;
	yaml_emitter_t e;
	yaml_event_t ev;
	assay_buf reason = ASSAY_BUF_INIT, tail = ASSAY_BUF_INIT;

	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, yaml_out, &t->b);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_indent(&e, 2);
	yaml_emitter_set_width(&e, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	emit(&e, &ev);
	map_start(&e);
	assay_report__explain(&reason, &tail, c);
	key(&e, "message");
	string(t, &e, reason.ptr, reason.len);
	if (tail.len) {
		key(&e, "stderr");
		string(t, &e, tail.ptr, tail.len);
	}
	assay_buf_reset(&reason);
	assay_report__repro(&reason, r->run_arena ? &r->run : NULL, c);
	if (reason.len) {
		key(&e, "reproduce");
		string(t, &e, reason.ptr, reason.len);
	}
	key(&e, "severity");
	key(&e, c->outcome == ASSAY_OUTCOME_ERROR ? "error" : "fail");
	key(&e, "at");
	map_start(&e);
	key(&e, "checkpoint");
	string(t, &e, c->checkpoint, strlen(c->checkpoint));
	key(&e, "group");
	string(t, &e, c->group, strlen(c->group));
	key(&e, "id");
	string(t, &e, c->id, strlen(c->id));
	key(&e, "type");
	string(t, &e, c->type, strlen(c->type));
	map_end(&e);
	key(&e, "score");
	number(&e, c->score);
	key(&e, "duration");
	number(&e, c->duration);
	attributes(r, &e, c);
	map_end(&e);
	yaml_document_end_event_initialize(&ev, 0);
	emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(&e, &ev);
	yaml_emitter_flush(&e);
	yaml_emitter_delete(&e);
	assay_buf_release(&reason), assay_buf_release(&tail);
}

/* A description: '\' and '#' escaped, control characters as \xNN, UTF-8 repaired. */
static void description(struct tap *t, const char *s)
{
	size_t n;
	const char *clean = assay_report__utf8_clean(t->a, s, strlen(s), &n);

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)clean[i];

		if (ch == '\\' || ch == '#')
			assay_buf_addch(&t->b, '\\');
		if (ch < 0x20 || ch == 0x7f)
			assay_buf_addf(&t->b, "\\x%02x", ch);
		else
			assay_buf_addch(&t->b, (char)ch);
	}
}

static int tap_case(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err)
{
	struct tap *t = r->state;

	(void)err;
	assay_arena_free(t->a);
	t->a = assay_arena_new(0);
	assay_buf_reset(&t->b);
	assay_buf_addf(&t->b, "%sok %zu - ", c->outcome == ASSAY_OUTCOME_PASS ? "" : "not ", ++t->n);
	description(t, c->checkpoint);
	assay_buf_addch(&t->b, '/');
	description(t, c->group);
	assay_buf_addch(&t->b, '/');
	description(t, c->id);
	assay_buf_addch(&t->b, '\n');
	t->passed += c->outcome == ASSAY_OUTCOME_PASS;
	t->failed += c->outcome == ASSAY_OUTCOME_FAIL;
	t->errors += c->outcome == ASSAY_OUTCOME_ERROR;
	if (c->outcome != ASSAY_OUTCOME_PASS)
		diagnostics(r, c);
	assay_report__out_add(&r->out, t->b.ptr, t->b.len);
	return 0;
}

static int tap_begin(struct assay_renderer *r, const assay_value *run, size_t total,
		     assay_err *err)
{
	struct tap *t = r->state;

	(void)total, (void)err;
	t->b = t->text = (assay_buf)ASSAY_BUF_INIT;
	t->a = assay_arena_new(0);
	assay_report__out_adds(&r->out, "TAP version 14\n# assay: ");
	assay_buf_reset(&t->b);
	description(t, assay_report__suite(run));
	assay_report__out_add(&r->out, t->b.ptr, t->b.len);
	assay_report__out_adds(&r->out, "\n");
	return 0;
}

static int tap_end(struct assay_renderer *r, const assay_value *summary, assay_err *err)
{
	struct tap *t = r->state;
	const assay_value *interrupted = assay_object_get(summary, "interrupted");

	(void)err;
	assay_report__out_addf(&r->out, "1..%zu\n# cases: %zu; passed: %zu, failed: %zu, errors: %zu\n",
			       t->n, t->n, t->passed, t->failed, t->errors);
	if (!summary)
		assay_report__out_adds(&r->out, "# the run did not end: these are its finished cases\n");
	else if (interrupted && interrupted->kind == ASSAY_V_BOOL && interrupted->u.b)
		assay_report__out_adds(&r->out, "# the run was interrupted: not every case ran\n");
	if (assay_report__unrun(summary))
		assay_report__out_addf(&r->out,
				       "# %lld case file%s never ran: no group or checkpoint names %s "
				       "folder (summary.json's unrun_case_files)\n",
				       (long long)assay_report__unrun(summary),
				       assay_report__unrun(summary) == 1 ? "" : "s",
				       assay_report__unrun(summary) == 1 ? "its" : "their");
	return 0;
}

static void tap_release(struct assay_renderer *r)
{
	struct tap *t = r->state;

	assay_buf_release(&t->b);
	assay_buf_release(&t->text);
	assay_arena_free(t->a);
}

const struct assay_report__format assay_report__tap = {
	"tap", "report.tap", false, sizeof(struct tap), tap_begin, tap_case, tap_end, tap_release,
};
