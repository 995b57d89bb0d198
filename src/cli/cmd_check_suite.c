/*
 * assay check-suite SUITE [--mutate]: a self-test of a suite (issue #7 section 4).
 *
 * Without --mutate nothing runs: every problem of the suite is listed at once, one per line,
 * located "path:line:col" where known, and the exit status is 3 when there is any error (0
 * with warnings only). The library's loader stops at the first problem of suite.yaml and reads
 * case files one at a time, so this command
 * - loads suite.yaml as a whole, then, when that fails, checkpoint by checkpoint and group by
 *   group (the loader's filters), so that independent problems are each found once;
 * - loads every case of every group that loaded (assay_case_load_all), collecting all its
 *   errors, not only the first, and its warnings;
 * - checks every verify entry of every case the way verifying would, on a stand-in actual
 *   value (the expected one: its text, its JSON text when structured, the status code), so
 *   that refusals found only when a verifier runs (a regex that does not compile, a delimiter
 *   of two characters, a JSON Schema keyword assay does not implement) are found now.
 *   Plug-ins (programs of the command verifier, shared objects) are not called.
 * - Under strictness (--strict, `strict: true`) every warning is listed as an error, and each
 *   problem once: the loader's "W (an error under strict)" repeats W and is dropped.
 *
 * With --mutate the suite runs once (through the run API, with the options `assay run` and
 * `assay run-case` share: selection, --entry, --submission, --strict, --keep, --work-dir, caps,
 * --kill-grace, --sandbox, --network, --plugin, --pass-env; it writes no results folder, so
 * -o, --resume, --format and the other options of results and reports are refused by name),
 * and each case that passes is verified again against wrong results made from its own: for
 * each expected attribute, empty output, the last line dropped, a digit changed, another
 * status code, an expected file missing. A mutant that still passes means a check that cannot
 * tell: the case is listed with the attribute and the mutant. Mutants change the actual
 * result (the program's output), never the expected values: a `contains` check is not faulted
 * for passing an empty expected text, and a `regex: .*` is caught by the empty output
 * (docs/decisions.md). Exit status: 0 every mutant was caught, 1 some survived or some case
 * does not pass as is, 3 the suite could not be loaded.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/plugin.h"
#include "assay/run.h"
#include "assay/verify.h"
#include "assay/yaml.h"
#include "cmd.h"
#include "exit.h"
#include "plugins.h"
#include "run_common.h"
#include "util/banned.h"

static const char usage[] = "assay check-suite SUITE [--mutate] [options]";

/* ---- problems, deduplicated -------------------------------------------------------------- */

struct problems {
	assay_strvec errors;
	assay_strvec warnings;
	size_t cases;
};

static bool seen(const assay_strvec *v, const char *msg)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], msg))
			return true;
	return false;
}

static void add(assay_strvec *v, const char *msg)
{
	if (!seen(v, msg))
		assay_strvec_push(v, msg);
}

static void on_warning(void *payload, const char *msg)
{
	add(&((struct problems *)payload)->warnings, msg);
}

static void on_error(void *payload, const char *msg)
{
	add(&((struct problems *)payload)->errors, msg);
}

static void add_err(struct problems *p, const assay_err *err)
{
	char msg[1200];

	add(&p->errors, assay_err_format(err, msg, sizeof(msg)));
}

/* ---- suite.yaml, piece by piece ---------------------------------------------------------- */

/* fnmatch() pattern matching exactly `name`. */
static char *exact_glob(const char *name)
{
	assay_buf b = ASSAY_BUF_INIT;

	for (const char *c = name; *c; c++) {
		if (strchr("*?[\\", *c))
			assay_buf_addch(&b, '\\');
		assay_buf_addch(&b, *c);
	}
	return assay_buf_detach(&b, NULL);
}

/* suite.yaml as a value (for the names of its checkpoints and groups), or false. */
static bool read_raw(assay_value *out, assay_arena *a, const char *dir)
{
	static const char *const names[] = { "suite.yaml", "suite.yml", "suite.json" };

	for (size_t i = 0; i < 3; i++) {
		char *p = assay_path_join(dir, names[i]);
		assay_buf b = ASSAY_BUF_INIT;
		bool ok = !assay_fs_read(&b, p, 0, NULL) &&
			  !(i == 2 ? assay_json_parse(out, a, b.ptr, b.len, NULL, NULL)
				   : assay_yaml_parse(out, a, b.ptr, b.len, NULL, NULL));

		assay_buf_release(&b);
		free(p);
		if (ok)
			return out->kind == ASSAY_V_OBJECT;
	}
	return false;
}

/* Loads with `filter`; a suite, or NULL with its error recorded. */
static assay_suite *try_load(struct problems *p, const char *dir, const assay_suite_filter *f)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	if (assay_suite_load(&s, dir, f, on_warning, p, &err)) {
		add_err(p, &err);
		return NULL;
	}
	return s;
}

/*
 * Every suite that loads: the whole, or when it fails, each checkpoint, or each group of a
 * checkpoint that fails. Returns how many are in `out` (at most `max`).
 */
static size_t load_pieces(struct problems *p, const struct run_args *a, assay_suite **out,
			  size_t max)
{
	assay_suite_filter f = { a->checkpoint, NULL, NULL };
	assay_arena *ar;
	assay_value raw;
	size_t n = 0;

	f.group_globs = a->groups.nr ? (const char *const *)a->groups.v : NULL;
	f.case_globs = a->cases.nr ? (const char *const *)a->cases.v : NULL;
	f.strict = a->strict;
	if ((out[0] = try_load(p, a->suite_dir, &f)))
		return 1;
	if (a->checkpoint || a->groups.nr)
		return 0; /* the user narrowed it: that is what failed */
	ar = assay_arena_new(0);
	const assay_value *cps = read_raw(&raw, ar, a->suite_dir)
					 ? assay_object_get(&raw, "checkpoints")
					 : NULL;
	for (uint32_t i = 0; cps && cps->kind == ASSAY_V_OBJECT && i < cps->len && n < max; i++) {
		const assay_member *cm = &cps->u.members[i];
		const assay_value *gs = assay_object_get(&cm->value, "groups");
		assay_suite_filter cf = { cm->key.u.s, NULL, f.case_globs };

		if ((out[n] = try_load(p, a->suite_dir, &cf))) {
			n++;
			continue;
		}
		for (uint32_t j = 0; gs && gs->kind == ASSAY_V_OBJECT && j < gs->len && n < max;
		     j++) {
			char *glob = exact_glob(gs->u.members[j].key.u.s);
			const char *one[2] = { glob, NULL };
			assay_suite_filter gf = { cm->key.u.s, one, f.case_globs };

			if ((out[n] = try_load(p, a->suite_dir, &gf)))
				n++;
			free(glob);
		}
	}
	assay_arena_free(ar);
	return n;
}

/* ---- cases -------------------------------------------------------------------------------- */

/* Is `v` one of assay's own verifiers that run nothing (not a plug-in, not `command`)? */
static bool builtin(const assay_verifier *v)
{
	static const assay_verifier *const own[] = {
		&assay_verifier_exact,	     &assay_verifier_text,	 &assay_verifier_contains,
		&assay_verifier_regex,	     &assay_verifier_json,	 &assay_verifier_jsonl,
		&assay_verifier_yaml,	     &assay_verifier_toml,	 &assay_verifier_ini,
		&assay_verifier_csv,	     &assay_verifier_tsv,	 &assay_verifier_numeric,
		&assay_verifier_json_fields, &assay_verifier_json_keys, &assay_verifier_json_schema,
		&assay_verifier_file,	     &assay_verifier_flexible,
	};

	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++)
		if (v == own[i])
			return true;
	return false;
}

/* A resource limit: a run checks it without a verifier unless one is named (case_report.c). */
static bool is_limit(const char *name)
{
	return !strcmp(name, "execution_time") || !strcmp(name, "max_rss") ||
	       !strcmp(name, "cpu_time");
}

/*
 * Runs the verifier of each expected attribute of `c` (its verify entry's, else the default
 * one, as a run does) on a stand-in actual value (the expected text, or the expected status
 * code), to find what a verifier refuses only when it runs: every such attribute is an error.
 */

static void try_verifiers(struct problems *p, const assay_suite *s, const assay_group *g,
			  const assay_case *c)
{
	static const assay_value none = { .kind = ASSAY_V_OBJECT };

	for (uint32_t i = 0; c->expected.kind == ASSAY_V_OBJECT && i < c->expected.len; i++) {
		const assay_member *m = &c->expected.u.members[i];
		const assay_value *entry = assay_object_get(&c->verify, m->key.u.s);
		/* no verify entry: the default verifier, as a run verifies it (case_report.c) */
		const assay_value *opts = entry ? entry : &none;
		const assay_verifier *v = NULL;
		assay_arena *a;
		assay_buf text = ASSAY_BUF_INIT;
		assay_actual ac = { ASSAY_ACTUAL_BYTES, "", 0, false, 0, 0 };
		assay_verification out = ASSAY_VERIFICATION_INIT;
		assay_err err = ASSAY_ERR_INIT;
		const char *t;
		size_t tl;

		if (assay_verify_check(&v, NULL, opts, m->key.u.s, NULL) || !builtin(v))
			continue;
		/* a case its adapter refused has not had its defaults set (an api case's headers
		 * get the json verifier): only its own verify entries are tried */
		if (c->error && !entry)
			continue;
		/* what a run checks without a verifier: a resource limit, a file expected absent */
		if ((is_limit(m->key.u.s) && !assay_object_get(opts, "verifier")) ||
		    (assay_expected_is_absent(&m->value) && assay_file_attribute_path(m->key.u.s)))
			continue;
		if (m->value.kind == ASSAY_V_INT) {
			ac.kind = ASSAY_ACTUAL_INT;
			ac.integer = m->value.u.i;
		} else if (!assay_verify_expected_text(&t, &tl, &m->value, &text, NULL, NULL)) {
			ac.bytes = t;
			ac.len = tl;
		} else {
			/* a structured value: as JSON text (what json and yaml verifiers read) */
			assay_buf_reset(&text);
			assay_json_write(&text, &m->value, 0);
			ac.bytes = text.ptr;
			ac.len = text.len;
		}
		a = assay_arena_new(ASSAY_VERIFY_MEMORY_DEFAULT);
		assay_verify_call call = { g->name, c->id, m->key.u.s, &m->value, &ac, opts, a,
					   assay_now() + 10 };
		if (assay_verify_attribute(&out, &call, &err) == ASSAY_EINVALID) {
			char where[700];
			const assay_value *at = assay_object_get(opts, "verifier");
			char *msg = NULL;

			if (!entry) {
				/* the default verifier refuses the expected value: located there */
				if (!assay_case_locate(c, s, &m->value, where, sizeof(where)) &&
				    !assay_case_locate(c, s, &c->expected, where, sizeof(where)))
					snprintf(where, sizeof(where), "%s", c->file);
				msg = assay_xasprintf("%s: expected.%s: %s (a run fails the case)", where,
						      m->key.u.s, err.msg);
			} else if (!assay_case_locate(c, s, at ? at : opts, where, sizeof(where)) &&
				   !assay_case_locate(c, s, &c->verify, where, sizeof(where))) {
				snprintf(where, sizeof(where), "%s", c->file);
			}
			if (msg) {
				/* (the default verifier's, made above) */
			} else if (strncmp(where, c->file, strlen(c->file))) {
				/* an entry of `defaults` or `case_defaults`: name the case too, at
				 * its expected value */
				char mine[700];

				if (!assay_case_locate(c, s, &m->value, mine, sizeof(mine)) ||
				    strncmp(mine, c->file, strlen(c->file)))
					snprintf(mine, sizeof(mine), "%s", c->file);
				msg = assay_xasprintf("%s: verify.%s: %s (the verify entry is "
						      "inherited from %s)", mine, m->key.u.s,
						      err.msg, where);
			} else {
				msg = assay_xasprintf("%s: verify.%s: %s", where, m->key.u.s,
						      err.msg);
			}
			add(&p->errors, msg);
			free(msg);
		}
		assay_arena_free(a);
		assay_buf_release(&text);
	}
}

static void check_cases(struct problems *p, const assay_suite *s)
{
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		const assay_checkpoint *cp = &s->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			const assay_group *g = &cp->groups[j];

			for (size_t k = 0; k < g->ncases; k++) {
				assay_case *c = NULL;
				assay_case_load_in in = {
					.suite = s, .cp = cp, .g = g, .index = k,
					.warn = on_warning, .payload = p,
					.errors = on_error, .epayload = p,
				};

				/* every error of the case, not only its first */
				assay_case_load_all(&c, &in);
				p->cases++;
				if (c->error)
					add(&p->errors, c->error); /* (said once) */
				/* every error of the case at once: what was loaded of it is
				 * verified too */
				try_verifiers(p, s, g, c);
				assay_case_free(c);
			}
		}
	}
}

/* Is warning `w` error `e` as a load that is not strict words it: "(ignored; did you mean
 * ...)" or "... (ignored)" where the error has "(did you mean ...)" or nothing? */
static bool same_but_ignored(const char *e, const char *w)
{
	static const char *const cuts[] = { "ignored; ", " (ignored)" };
	const char *at;

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(cuts[i]);

		if ((at = strstr(w, cuts[i])) && !strncmp(e, w, (size_t)(at - w)) &&
		    !strcmp(e + (at - w), at + n))
			return true;
	}
	return false;
}

/*
 * Under strictness a warning is an error, and the loader's error for it ("W (an error under
 * strict...)") repeats a warning already listed: each problem is printed once, as an error.
 */
static void strict_problems(struct problems *p)
{
	assay_strvec errors = ASSAY_STRVEC_INIT;
	static const char mark[] = " (an error under strict";

	for (size_t i = 0; i < p->errors.nr; i++) {
		const char *e = p->errors.v[i], *at = strstr(e, mark);
		bool repeat = false;

		for (size_t j = 0; at && j < p->warnings.nr && !repeat; j++)
			repeat = strlen(p->warnings.v[j]) == (size_t)(at - e) &&
				 !strncmp(p->warnings.v[j], e, (size_t)(at - e));
		if (!repeat)
			add(&errors, e);
	}
	for (size_t i = 0; i < p->warnings.nr; i++) {
		/* the strict load's own error for it, worded without "ignored" */
		bool said = false;

		for (size_t j = 0; j < errors.nr && !said; j++)
			said = same_but_ignored(errors.v[j], p->warnings.v[i]);
		if (!said)
			add(&errors, p->warnings.v[i]);
	}
	assay_strvec_clear(&p->errors);
	assay_strvec_clear(&p->warnings);
	p->errors = errors;
}

static int check(const struct run_args *a)
{
	struct problems p = { ASSAY_STRVEC_INIT, ASSAY_STRVEC_INIT, 0 };
	assay_suite *pieces[256];
	bool strict = a->strict;
	size_t n;

	if (a->plugins && cli_load_plugins(a->plugins))
		return CLI_EXIT_LOAD;
	n = load_pieces(&p, a, pieces, sizeof(pieces) / sizeof(*pieces));
	for (size_t i = 0; i < n; i++) {
		strict |= pieces[i]->strict;
		check_cases(&p, pieces[i]);
		assay_err err = ASSAY_ERR_INIT;

		if (!a->submission && run_common_check_submissions(pieces[i], &err))
			add_err(&p, &err);
		assay_err_clear(&err);
		if (i == 0 && run_common_check_command(pieces[i], a->entry, &err))
			add_err(&p, &err);
		assay_err_clear(&err);
		if (n == 1 && !pieces[i]->ncases) {
			/* run refuses a suite that tests nothing (run_common_load) */
			char *msg = assay_xasprintf("%s: the suite has no cases: `assay run` refuses "
						    "it; a group's cases go in <checkpoint path>/"
						    "<group>/ (suite-format.md, \"Layout\")",
						    pieces[i]->file);
			add(&p.errors, msg);
			free(msg);
		}
		assay_suite_free(pieces[i]);
	}
	for (size_t i = 0; i < p.errors.nr; i++)
		strict |= strstr(p.errors.v[i], " (an error under strict") != NULL;
	if (strict)
		strict_problems(&p);
	for (size_t i = 0; i < p.errors.nr; i++)
		printf("error: %s\n", p.errors.v[i]);
	for (size_t i = 0; !a->quiet && i < p.warnings.nr; i++)
		printf("warning: %s\n", p.warnings.v[i]);
	printf("%zu case%s checked: %zu error%s, %zu warning%s\n", p.cases, p.cases == 1 ? "" : "s",
	       p.errors.nr, p.errors.nr == 1 ? "" : "s", p.warnings.nr,
	       p.warnings.nr == 1 ? "" : "s");
	int rc = p.errors.nr ? CLI_EXIT_LOAD : CLI_EXIT_OK;
	assay_strvec_clear(&p.errors);
	assay_strvec_clear(&p.warnings);
	return rc;
}

/* ---- --mutate ----------------------------------------------------------------------------- */

struct mutate {
	size_t cases, passing, failing, mutants, survived;
	assay_strvec lines; /* one per surviving mutant, and per case failing as is */
	const assay_suite *suite;
};

/* One wrong result: `r` with attribute `i` given `ac`. Returns whether the case still passes. */
static bool still_passes(struct mutate *m, const assay_case_report *rep, size_t i,
			 assay_actual ac)
{
	assay_case_result mut = *rep->result;
	assay_attribute *attrs = assay_xmalloc((mut.nattrs ? mut.nattrs : 1) * sizeof(*attrs));
	assay_arena *a = assay_arena_new(ASSAY_VERIFY_MEMORY_DEFAULT);
	assay_verdict verdict;
	assay_value report;

	memcpy(attrs, rep->result->attrs, mut.nattrs * sizeof(*attrs));
	attrs[i].actual = ac;
	mut.attrs = attrs;
	assay_case_report_build(&report, &verdict, a, m->suite, rep->group, rep->kase, &mut,
				ASSAY_VERIFY_SECONDS_DEFAULT, assay_now());
	assay_arena_free(a);
	free(attrs);
	m->mutants++;
	return verdict.passed;
}

static void survivor(struct mutate *m, const assay_case_report *rep, const char *attr,
		     const char *what)
{
	char *line = assay_xasprintf("%s/%s/%s: %s still passes with %s", rep->checkpoint->name,
				     rep->group->name, rep->id, attr, what);

	assay_strvec_push(&m->lines, line);
	free(line);
	m->survived++;
}

/* The text without its last non-empty line (into `b`), or false when it has no line. */
static bool drop_last_line(assay_buf *b, const char *s, size_t n)
{
	size_t end = n;

	while (end && s[end - 1] == '\n')
		end--;
	if (!end)
		return false;
	size_t start = end;
	while (start && s[start - 1] != '\n')
		start--;
	assay_buf_reset(b);
	assay_buf_add(b, s, start);
	assay_buf_add(b, s + end, n - end);
	return true;
}

/* The text with its first digit changed (into `b`), or false when it has none. */
static bool change_digit(assay_buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= '0' && s[i] <= '9') {
			assay_buf_reset(b);
			assay_buf_add(b, s, n);
			b->ptr[i] = (char)('0' + (s[i] - '0' + 1) % 10);
			return true;
		}
	return false;
}

static void mutate_case(struct mutate *m, const assay_case_report *rep)
{
	const assay_case *c = rep->kase;
	const assay_case_result *r = rep->result;
	assay_buf b = ASSAY_BUF_INIT;

	for (size_t i = 0; i < r->nattrs; i++) {
		const assay_attribute *at = &r->attrs[i];
		const assay_actual *ac = &at->actual;
		bool file = assay_file_attribute_path(at->name) != NULL;

		if (!assay_object_get(&c->expected, at->name))
			continue;
		if (ac->kind == ASSAY_ACTUAL_INT && !strcmp(at->name, "status_code")) {
			assay_actual x = *ac;
			x.integer = ac->integer ? 0 : 1;
			if (still_passes(m, rep, i, x))
				survivor(m, rep, at->name, x.integer ? "status code 1" : "status code 0");
			continue;
		}
		if (ac->kind != ASSAY_ACTUAL_BYTES)
			continue;
		if (ac->len && still_passes(m, rep, i, (assay_actual){ ASSAY_ACTUAL_BYTES, "", 0,
								       false, 0, 0 }))
			survivor(m, rep, at->name, "empty output");
		if (drop_last_line(&b, ac->bytes, ac->len) &&
		    still_passes(m, rep, i, (assay_actual){ ASSAY_ACTUAL_BYTES, b.ptr, b.len, false,
							    0, 0 }))
			survivor(m, rep, at->name, "its last line dropped");
		if (change_digit(&b, ac->bytes, ac->len) &&
		    still_passes(m, rep, i, (assay_actual){ ASSAY_ACTUAL_BYTES, b.ptr, b.len, false,
							    0, 0 }))
			survivor(m, rep, at->name, "a digit changed");
		if (file && still_passes(m, rep, i, (assay_actual){ ASSAY_ACTUAL_MISSING, NULL, 0,
								    false, 0, 0 }))
			survivor(m, rep, at->name, "the file missing");
	}
	assay_buf_release(&b);
}

static int mutate_on_case(void *payload, const assay_case_report *rep, assay_err *err)
{
	struct mutate *m = payload;

	(void)err;
	m->cases++;
	if (!rep->kase || !rep->result || rep->error || !rep->passed) {
		char *line = assay_xasprintf("%s/%s/%s: fails as is%s%s (no mutant tried)",
					     rep->checkpoint->name, rep->group->name, rep->id,
					     rep->error ? ": " : "", rep->error ? rep->error : "");
		assay_strvec_push(&m->lines, line);
		free(line);
		m->failing++;
		return 0;
	}
	m->passing++;
	mutate_case(m, rep);
	return 0;
}

static int mutate(struct run_args *a)
{
	struct mutate m = { 0 };
	assay_suite *suite = NULL;
	assay_sink sink = { 0 };
	int rc;

	m.lines = (assay_strvec)ASSAY_STRVEC_INIT;
	if ((rc = run_common_load(&suite, a)))
		return rc;
	m.suite = suite;
	sink.payload = &m;
	sink.on_case = mutate_on_case;
	rc = run_common_run(suite, a, &sink, 1);
	if (rc <= CLI_EXIT_FAILED) {
		for (size_t i = 0; i < m.lines.nr; i++)
			printf("%s\n", m.lines.v[i]);
		printf("%zu case%s: %zu passed and %s mutated, %zu failed as is; %zu mutant%s, "
		       "%zu survived\n",
		       m.cases, m.cases == 1 ? "" : "s", m.passing, m.passing == 1 ? "was" : "were",
		       m.failing, m.mutants, m.mutants == 1 ? "" : "s", m.survived);
		rc = m.survived || m.failing ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	}
	assay_strvec_clear(&m.lines);
	assay_suite_free(suite);
	return rc;
}

/*
 * The options of `assay run` that check-suite does not take, because it writes no results
 * folder and no report (its answer is its listing): said so, rather than "unknown option".
 */
static int run_only_option(int argc, char **argv)
{
	static const char *const only[] = { "-o", "--output", "--resume", "-r", "--last-failed",
					    "--accept", "-y", "--yes", "--format", "-f", "--repro",
					    "--pass-policy", "--text-cap", "--max-failures",
					    "--value-cap", "--color", "-x", "--exitfirst", NULL };

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n = strcspn(argv[i], "=");

		for (size_t j = 0; only[j]; j++)
			if (strlen(only[j]) == n && !strncmp(argv[i], only[j], n))
				return cli_error(CLI_EXIT_USAGE,
						 "check-suite writes no results folder or report: "
						 "'%s' is an option of assay run only (check-suite "
						 "takes the options that choose and run cases: see "
						 "assay check-suite --help)", only[j]);
	}
	return 0;
}

int cmd_check_suite(int argc, char **argv)
{
	struct run_args a = { .kill_grace = 1.0, RUN_ARGS_LISTS };
	bool do_mutate = false;
	const cli_opt opts[] = {
		{ "mutate", 'm', CLI_OPT_FLAG, &do_mutate, NULL,
		  "run the suite, then verify each passing case against wrong results made from "
		  "its own, and list the checks that still pass" },
		RUN_COMMON_OPTS(a),
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "list errors only, no warnings" },
		{ NULL },
	};
	const char *words[1];
	int rc;

	if ((rc = run_only_option(argc, argv)))
		return rc;
	rc = cli_parse_words(argc, argv, opts, usage, words, 1);
	if (rc == CLI_GO) {
		a.suite_dir = words[0];
		rc = do_mutate ? mutate(&a) : check(&a);
	}
	assay_plugins_shutdown();
	run_args_release(&a);
	return rc;
}
