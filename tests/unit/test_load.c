/*
 * Unit tests of the suite loader (src/lib/load): suite.yaml and the listing of cases
 * (assay_suite_load), one case loaded when it runs (assay_case_load), merging, substitution,
 * and located errors "path:line:col: message", whose positions come from the arena: a message
 * about a number or a boolean points at its member's key.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapter/cli_int.h"
#include "load/load_int.h"
#include "assay/adapter.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/suite.h"

#define SUITES ASSAY_FIXTURES "/suites"

/* Cases loaded by a test, freed after it. */
static assay_case *loaded[256];
static size_t nloaded;

static void free_loaded(void)
{
	for (size_t i = 0; i < nloaded; i++)
		assay_case_free(loaded[i]);
	nloaded = 0;
}

TestSuite(load, .fini = free_loaded);

static assay_suite *load_ok(const char *dir, const assay_suite_filter *filter)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_suite_load(&s, dir, filter, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "load %s: %d %s:%d:%d: %s", dir, rc, err.path, err.line, err.column,
		     err.msg);
	return s;
}

static size_t cp_index(const assay_suite *s, const char *name)
{
	for (size_t i = 0; i < s->ncheckpoints; i++)
		if (!strcmp(s->checkpoints[i].name, name))
			return i;
	cr_assert_fail("no checkpoint %s", name);
	return 0;
}

static const assay_group *group(const assay_suite *s, size_t cp, const char *name)
{
	for (size_t i = 0; i < s->checkpoints[cp].ngroups; i++)
		if (!strcmp(s->checkpoints[cp].groups[i].name, name))
			return &s->checkpoints[cp].groups[i];
	cr_assert_fail("no group %s", name);
	return NULL;
}

static size_t ref_index(const assay_group *g, const char *id)
{
	for (size_t i = 0; i < g->ncases; i++)
		if (!strcmp(g->cases[i].id, id))
			return i;
	cr_assert_fail("no case %s", id);
	return 0;
}

static const assay_case_ref *find_ref(const assay_group *g, const char *id)
{
	return &g->cases[ref_index(g, id)];
}

/* Case `index` of group `g` of checkpoint `cp`, loaded (freed after the test). */
static const assay_case *load_at(const assay_suite *s, size_t cp, const assay_group *g,
				 size_t index, assay_warn_fn warn, void *payload)
{
	assay_case *c = NULL;

	cr_assert_lt(nloaded, sizeof(loaded) / sizeof(*loaded));
	cr_assert_eq(assay_case_load(&c, s, &s->checkpoints[cp], g, index, warn, payload), 0);
	cr_assert_not_null(c);
	loaded[nloaded++] = c;
	return c;
}

static const assay_case *load_case(const assay_suite *s, size_t cp, const assay_group *g,
				   const char *id)
{
	return load_at(s, cp, g, ref_index(g, id), NULL, NULL);
}

/* A case that must load without error. */
static const assay_case *load_good(const assay_suite *s, size_t cp, const assay_group *g,
				   const char *id)
{
	const assay_case *c = load_case(s, cp, g, id);

	cr_assert_null(c->error, "case %s: %s", id, c->error);
	return c;
}

static void collect(void *payload, const char *msg)
{
	assay_buf *b = payload;
	assay_buf_adds(b, msg);
	assay_buf_addch(b, '\n');
}

static const struct cli_case *cli(const assay_case *c)
{
	cr_assert_not_null(c->adapter_data);
	return c->adapter_data;
}

/* ---- suites written by the test ---- */

static char *tmp_suite(void)
{
	char *dir = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-test-load-", NULL), 0);
	return dir;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = assay_path_join(dir, rel);
	cr_assert_eq(assay_fs_write(p, text, strlen(text), 0644, NULL), 0);
	free(p);
}

static void remove_suite(char *dir)
{
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(load, suite_settings_and_checkpoint_order)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	cr_assert_str_eq(s->name, "basic");
	cr_assert_eq(s->adapter_type, ASSAY_ADAPTER_CLI);
	cr_assert_eq(s->adapter, &assay_adapter_cli);
	cr_assert_eq(s->command.nr, 2);
	cr_assert_str_eq(s->command.v[0], "sh");
	cr_assert_str_eq(s->command.v[1], "prog.sh");
	cr_assert_float_eq(s->timeout, 5.0, 1e-9);
	cr_assert(s->submission[0] == '/');
	cr_assert(strstr(s->submission, "/suites/basic/submission"));
	cr_assert(strstr(s->file, "/suites/basic/suite.yaml"), "%s", s->file);
	cr_assert_eq(s->ncheckpoints, 2);
	cr_assert_str_eq(s->checkpoints[0].name, "checkpoint_1");
	cr_assert_str_eq(s->checkpoints[1].name, "checkpoint_2");
	/* every case of the fixture loads (the old test counted load errors: none) */
	for (size_t cp = 0; cp < s->ncheckpoints; cp++)
		for (size_t gi = 0; gi < s->checkpoints[cp].ngroups; gi++) {
			const assay_group *g = &s->checkpoints[cp].groups[gi];

			for (size_t i = 0; i < g->ncases; i++) {
				const assay_case *c = load_at(s, cp, g, i, NULL, NULL);

				cr_expect_null(c->error, "%s: %s", g->cases[i].id, c->error);
			}
		}
	assay_suite_free(s);
}

Test(load, cases_in_byte_order_with_folder_cases)
{
	static const char *const ids[] = { "argv-string", "echo", "env-case", "env-checkpoint",
					   "env-suite", "folder-case", "input-file", "json",
					   "no-stdin", "regex", "static", "stdin", "write-file" };
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_group *g = group(s, 0, "core");
	cr_assert_eq(g->type, ASSAY_GROUP_CORE);
	cr_assert(g->isolated);
	cr_assert_eq(g->ncases, sizeof(ids) / sizeof(*ids));
	cr_assert_eq(s->ncases, 13 + 1 + 1 + 13 + 1); /* cp1 core, errors; cp2 core, regressions */
	for (size_t i = 0; i < g->ncases; i++)
		cr_assert_str_eq(g->cases[i].id, ids[i]);
	const assay_case_ref *r = find_ref(g, "folder-case");
	cr_assert(strstr(r->file, "folder-case/case.yaml"));
	cr_assert(r->files_dir && strstr(r->files_dir, "folder-case/files"));
	cr_assert_null(r->problem);
	const assay_case *c = load_good(s, 0, g, "folder-case");
	cr_assert_str_eq(c->id, "folder-case");
	cr_assert(c->files_dir && strstr(c->files_dir, "folder-case/files"));
	cr_assert_null(find_ref(g, "echo")->files_dir);
	assay_suite_free(s);
}

Test(load, defaults_and_case_defaults_merge_under_the_case)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *echo = load_good(s, 0, group(s, 0, "core"), "echo");
	const assay_value *w = assay_object_get(assay_object_get(&echo->verify, "status_code"),
						"weight");
	cr_assert_not_null(w);
	cr_assert_eq(w->kind, ASSAY_V_REAL);
	cr_assert_float_eq(w->u.d, 0.5, 1e-12);

	const assay_case *fail = load_good(s, 0, group(s, 0, "errors"), "fail");
	const assay_value *sc = assay_object_get(&fail->expected, "status_code");
	cr_assert_not_null(sc);
	cr_assert_eq(sc->kind, ASSAY_V_INT);
	cr_assert_eq(sc->u.i, 2);
	cr_assert(assay_value_is_str(assay_object_get(&fail->expected, "stderr"), "error: bad"));
	/* the merged mapping is what reports show as "case" */
	cr_assert_not_null(assay_object_get(&fail->definition, "arguments"));
	cr_assert_not_null(assay_object_get(&fail->definition, "expected"));
	assay_suite_free(s);
}

/* The case file's SHA-256 comes with the case (the store keeps it, resume compares it). */
Test(load, a_case_carries_the_sha256_of_its_file)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *echo = load_good(s, 0, group(s, 0, "core"), "echo");
	char want[65];

	cr_assert_eq(assay_fs_sha256(echo->file, want, NULL), 0);
	cr_assert_str_eq(echo->sha256, want);
	assay_suite_free(s);
}

Test(load, env_timeout_stdin_and_arguments)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_group *g = group(s, 0, "core");
	const assay_case *c = load_good(s, 0, g, "env-case");
	cr_assert_eq(c->env.nr, 3);
	cr_assert_str_eq(c->env.v[0], "SUITE_VAR=from-adapter");
	cr_assert_str_eq(c->env.v[1], "CP_VAR=from-checkpoint");
	cr_assert_str_eq(c->env.v[2], "CASE_VAR=from-case");
	cr_assert_float_eq(c->timeout, 5.0, 1e-9);

	c = load_good(s, 0, g, "stdin");
	cr_assert_eq(cli(c)->stdin_len, 14);
	cr_assert_eq(memcmp(cli(c)->stdin_data, "line 1\nline 2\n", 14), 0);
	c = load_good(s, 0, g, "no-stdin");
	cr_assert_null(cli(c)->stdin_data);

	c = load_good(s, 0, g, "argv-string");
	cr_assert_eq(cli(c)->argc, 6);
	cr_assert_str_eq(cli(c)->argv[1], "a  b");
	cr_assert_str_eq(cli(c)->argv[2], "c \"d\"");
	cr_assert_str_eq(cli(c)->argv[3], "e f");
	cr_assert_str_eq(cli(c)->argv[4], "$HOME");
	cr_assert_str_eq(cli(c)->argv[5], "*");
	cr_assert_null(cli(c)->argv[6]);
	assay_suite_free(s);
}

Test(load, static_assets_become_absolute_paths)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = load_good(s, 0, group(s, 0, "core"), "static");
	cr_assert_eq(cli(c)->argc, 2);
	cr_assert(cli(c)->argv[1][0] == '/');
	cr_assert(strstr(cli(c)->argv[1], "/suites/basic/assets/data.txt"), "%s", cli(c)->argv[1]);
	assay_suite_free(s);
}

Test(load, input_files_are_serialised_by_type)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = load_good(s, 0, group(s, 0, "core"), "input-file");
	cr_assert_eq(cli(c)->ninput_files, 1);
	cr_assert_str_eq(cli(c)->input_files[0].path, "data/in.json");
	cr_assert_str_eq(cli(c)->input_files[0].content, "{\"k\": [1, 2]}");
	cr_assert_eq(cli(c)->input_files[0].len, 13);
	assay_suite_free(s);
}

Test(load, expected_files_become_files_attributes)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_case *c = load_good(s, 0, group(s, 0, "core"), "write-file");
	cr_assert(assay_value_is_str(assay_object_get(&c->expected, "files-out/result.txt"),
				     "written"));
	cr_assert_null(assay_object_get(&c->expected, "files"));
	assay_suite_free(s);
}

Test(load, regressions_list_and_hand_made_groups)
{
	assay_suite *s = load_ok(SUITES "/basic", NULL);
	const assay_checkpoint *cp = &s->checkpoints[1];
	cr_assert_eq(cp->ngroups, 3);
	const assay_group *again = group(s, 1, "again");
	cr_assert_eq(again->type, ASSAY_GROUP_REGRESSION);
	cr_assert_str_eq(again->original_checkpoint, "checkpoint_1");
	cr_assert_str_eq(again->original_group, "errors");
	cr_assert_eq(again->ncases, 1);
	const assay_group *reg = group(s, 1, "checkpoint_1_core");
	cr_assert_eq(reg->type, ASSAY_GROUP_REGRESSION);
	cr_assert_str_eq(reg->original_group, "core");
	cr_assert_eq(reg->ncases, group(s, 0, "core")->ncases);
	/* the cases of a regression group are loaded with their original group's settings
	 * (docs/decisions.md), case_defaults included: errors' expected status_code 2 */
	const assay_case *fail = load_good(s, 1, again, "fail");
	cr_assert_not_null(assay_object_get(&fail->expected, "status_code"));
	cr_assert_eq(assay_object_get(&fail->expected, "status_code")->u.i, 2);
	fail = load_good(s, 1, reg, "echo");
	cr_assert_eq(fail->expected.len, 2);
	assay_suite_free(s);
}

Test(load, hand_made_regression_groups_take_the_original_settings)
{
	char *dir = tmp_suite();
	assay_buf warnings = ASSAY_BUF_INIT;
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [sh], timeout: 9}\n"
			       "checkpoints:\n"
			       "  c1:\n    groups:\n      g: {isolated: false, timeout: 2, "
			       "case_order: [b], case_defaults: {expected: {stderr: ''}}}\n"
			       "  c2:\n    groups:\n      again: {original_checkpoint: c1, "
			       "original_group: g, timeout: 7}\n");
	put(dir, "c1/g/a.yaml", "expected: {status_code: 0}\n");
	put(dir, "c1/g/b.yaml", "expected: {status_code: 0}\n");
	cr_assert_eq(assay_suite_load(&s, dir, NULL, collect, &warnings, &err), 0, "%s", err.msg);
	const assay_group *again = group(s, cp_index(s, "c2"), "again");
	cr_expect_eq(again->type, ASSAY_GROUP_REGRESSION);
	cr_expect_not(again->isolated);
	cr_expect_float_eq(again->timeout, 2.0, 1e-9);
	cr_assert_eq(again->ncases, 2);
	cr_expect_str_eq(again->cases[0].id, "b");
	cr_expect(strstr(warnings.ptr, "suite.yaml:9:59: 'timeout' of a regression group is "
				       "ignored"),
		  "%s", warnings.ptr);
	const assay_case *c = load_good(s, cp_index(s, "c2"), again, "a");
	cr_expect_not_null(assay_object_get(&c->expected, "stderr"));
	assay_suite_free(s);
	assay_buf_release(&warnings);
	remove_suite(dir);
}

Test(load, filters_select_checkpoint_group_and_case)
{
	const char *const groups[] = { "checkpoint_1_*", NULL };
	const char *const cases[] = { "e*", NULL };
	assay_suite_filter f = { "checkpoint_2", groups, cases };
	assay_suite *s = load_ok(SUITES "/basic", &f);
	cr_assert_eq(s->ncheckpoints, 1);
	cr_assert_eq(s->checkpoints[0].ngroups, 1);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_str_eq(g->name, "checkpoint_1_core");
	cr_assert_eq(g->ncases, 4);
	cr_assert_eq(s->ncases, 4);
	assay_suite_free(s);

	/* a case glob also matches checkpoint/group/id */
	const char *const full[] = { "checkpoint_1/errors/*", NULL };
	assay_suite_filter f2 = { NULL, NULL, full };
	s = load_ok(SUITES "/basic", &f2);
	cr_assert_eq(s->ncases, 1);
	assay_suite_free(s);
}

Test(load, malformed_suite_yaml_names_line_and_column)
{
	assay_suite *s = (assay_suite *)1;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/broken-suite", NULL, NULL, NULL, &err),
		     ASSAY_EPARSE);
	cr_assert_null(s);
	cr_assert(strstr(err.path, "broken-suite/suite.yaml"));
	cr_assert_eq(err.line, 8, "%d:%d %s", err.line, err.column, err.msg);
	cr_assert_geq(err.column, 1); /* libyaml marks the end of the stream */
	cr_assert(strstr(err.msg, "did not find expected ',' or '}'"), "%s", err.msg);
}

Test(load, wrong_value_in_suite_yaml_names_its_position)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	char buf[1200];
	cr_assert_eq(assay_suite_load(&s, SUITES "/bad-type", NULL, NULL, NULL, &err),
		     ASSAY_EINVALID);
	/* "timeout: soon": a string has a position of its own */
	cr_assert_eq(err.line, 5);
	cr_assert_eq(err.column, 12);
	cr_assert_str_eq(err.msg, "timeout must be a number of seconds > 0");
	assay_err_format(&err, buf, sizeof(buf));
	cr_assert(strstr(buf, "/bad-type/suite.yaml:5:12: timeout must be a number of seconds > 0"),
		  "%s", buf);
}

Test(load, missing_suite_is_not_found)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/no-such-suite", NULL, NULL, NULL, &err),
		     ASSAY_ENOTFOUND);
	cr_assert_null(s);
	cr_assert_str_eq(err.msg, "no such suite folder");
}

Test(load, broken_cases_get_errors_and_the_rest_load)
{
	const char *const broken[] = { "broken", NULL };
	assay_suite_filter f = { NULL, broken, NULL };
	assay_suite *s = load_ok(SUITES "/failing", &f);
	const assay_group *g = &s->checkpoints[0].groups[0];
	size_t nerrors = 0;
	cr_assert_eq(g->ncases, 5);
	/* the suite loads whatever the case files hold: each is read when it runs */
	for (size_t i = 0; i < g->ncases; i++)
		nerrors += load_at(s, 0, g, i, NULL, NULL)->error != NULL;
	cr_assert_eq(nerrors, 3);
	const assay_case *c = load_case(s, 0, g, "bad-yaml");
	cr_assert(c->error && strstr(c->error, "/broken/bad-yaml.yaml:2:9: "), "%s", c->error);
	c = load_case(s, 0, g, "unknown-asset");
	cr_assert(c->error && strstr(c->error, "unknown-asset.yaml:1:13: unknown static asset "
					       "'nope'"),
		  "%s", c->error);
	c = load_case(s, 0, g, "nothing-expected");
	cr_assert(c->error && strstr(c->error, "nothing-expected.yaml:1:1: the case expects "
					       "nothing"),
		  "%s", c->error);
	/* a broken case keeps its id and file; what was read of its expectations is dropped */
	cr_assert_str_eq(c->id, "nothing-expected");
	cr_assert(strstr(c->file, "nothing-expected.yaml"));
	cr_assert_eq(c->expected.len, 0);
	cr_assert_eq(c->verify.len, 0);
	c = load_case(s, 0, g, "unknown-asset");
	cr_assert_eq(c->expected.len, 0);
	cr_assert_null(load_case(s, 0, g, "still-runs")->error);
	/* a regex that does not compile is the verifier's to find, when it runs */
	cr_assert_null(load_case(s, 0, g, "bad-regex")->error);
	assay_suite_free(s);
}

static const char suite_head[] = "name: t\nadapter: {type: cli, command: [sh]}\n";

Test(load, case_order_puts_listed_cases_first)
{
	char *dir = tmp_suite();
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [sh]}\ncheckpoints:\n"
			       "  c:\n    groups:\n      g: {case_order: [zeta, beta]}\n");
	put(dir, "c/g/alpha.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/beta.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/zeta.yaml", "expected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 3);
	cr_assert_str_eq(g->cases[0].id, "zeta");
	cr_assert_str_eq(g->cases[1].id, "beta");
	cr_assert_str_eq(g->cases[2].id, "alpha");
	cr_assert_eq(g->type, ASSAY_GROUP_FUNCTIONALITY);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, duplicate_case_ids_are_errors)
{
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/x/case.yaml", "expected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 2);
	cr_assert_null(g->cases[0].problem);
	cr_assert(g->cases[1].problem && strstr(g->cases[1].problem, "duplicate case id 'x'"));
	/* an id of its own: its result does not replace the first's */
	cr_assert_str_eq(g->cases[0].id, "x");
	cr_assert_str_eq(g->cases[1].id, "x~2");
	cr_assert_null(load_at(s, 0, g, 0, NULL, NULL)->error);
	const assay_case *c = load_at(s, 0, g, 1, NULL, NULL);
	cr_assert(c->error && strstr(c->error, "duplicate case id 'x'"), "%s", c->error);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, duplicate_ids_do_not_depend_on_the_selection)
{
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\n");
	put(dir, "c/g/x.yml", "expected: {status_code: 0}\n");
	put(dir, "c/g/x~2.yaml", "expected: {status_code: 0}\n");
	/* x.yml is x~3 in a whole run, so it is in one that selects x alone: a resumed run must
	 * not take one file's result for another's */
	const char *const x[] = { "x", NULL };
	assay_suite_filter f = { NULL, NULL, x };
	assay_suite *s = load_ok(dir, &f);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 1);
	cr_assert_str_eq(g->cases[0].id, "x");
	cr_assert_null(g->cases[0].problem);
	cr_assert_eq(g->ncases_found, 3);
	assay_suite_free(s);
	/* the duplicate is selected by the id it is reported under (--last-failed) */
	const char *const dup[] = { "c/g/x~3", NULL };
	assay_suite_filter f2 = { NULL, NULL, NULL, dup, false };
	s = load_ok(dir, &f2);
	g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 1);
	cr_assert_str_eq(g->cases[0].id, "x~3");
	cr_assert(g->cases[0].problem && strstr(g->cases[0].problem, "x.yml: duplicate case id"),
		  "%s", g->cases[0].problem);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, case_values_are_checked_with_positions)
{
	/* Positions come from the arena: a string, list or mapping is located where it is
	 * written; a number, boolean or null has none, so the message points at its member's
	 * key (jansson's positions pointed at every value: "timeout: -1" was 1:10) */
	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{ "arguments: {a: 1}\nexpected: {status_code: 0}\n", ":1:12: arguments must be" },
		{ "timeout: -1\nexpected: {status_code: 0}\n", ":1:1: timeout must be" },
		{ "timeout: true\nexpected: {status_code: 0}\n", ":1:1: timeout must be" },
		{ "timeout: '5'\nexpected: {status_code: 0}\n", ":1:10: timeout must be" },
		{ "expected: {status_code: maybe}\n", ":1:25: expected status_code must be" },
		{ "expected: {status_code: 1.5}\n", ":1:12: expected status_code must be" },
		{ "expected: {max_rss: -1}\n", ":1:12: expected max_rss must be" },
		{ "expected: {outptu: x}\n", ":1:12: unknown expected attribute 'outptu'" },
		{ "input_files: [{path: ../escape, content: x}]\nexpected: {status_code: 0}\n",
		  ":1:22: input_files[0].path must be a relative path" },
		{ "input_files: [{path: a, content: x, file_type: xml}]\n"
		  "expected: {status_code: 0}\n", ":1:48: unknown file_type 'xml'" },
		{ "input_files: [{path: a, content: '!', file_type: binary}]\n"
		  "expected: {status_code: 0}\n", ":1:34: binary content is not valid base64" },
		{ "expected: {files: {/etc/passwd: x}}\n", ":1:20: expected file '/etc/passwd'" },
		{ "env: {A=B: x}\nexpected: {status_code: 0}\n", ":1:7: invalid environment" },
		{ "env: {A: [x]}\nexpected: {status_code: 0}\n", ":1:7: env A must be a string" },
		{ "arguments: \"'open\"\nexpected: {status_code: 0}\n", ":1:12: arguments: unterminated" },
		{ "expected: {headers: {a: b}}\n", ":1:12: unknown expected attribute 'headers'" },
		{ "expected: {output: x}\nverify: {output: {verifier: nope}}\n",
		  ":2:29: verify.output: unknown verifier 'nope'" },
		{ "expected: {output: x}\nverify: {output: {verifier: text, strp: true}}\n",
		  ":2:29: verify.output: unknown option 'strp' for verifier 'text'" },
		{ "expected: {output: x}\nverify: {output: {weight: 0}}\n",
		  ":2:18: verify.output: weight must be a number > 0 (got 0)" },
		{ "expected: {output: x}\nverify: {output: {verifier: 5}}\n",
		  ":2:19: verify.output.verifier must be a string" },
		{ "- 1\n- 2\n", ":1:1: a case file must hold a mapping" },
		{ "{}\n", ":1:1: the case expects nothing" },
	};
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char name[32];
		snprintf(name, sizeof(name), "c/g/case%02zu.yaml", i);
		put(dir, name, bad[i].text);
	}
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, sizeof(bad) / sizeof(*bad));
	for (size_t i = 0; i < g->ncases; i++) {
		const assay_case *c = load_at(s, 0, g, i, NULL, NULL);
		char want[300];

		/* "path:line:col: message", the path being the case file's */
		snprintf(want, sizeof(want), "/c/g/case%02zu.yaml%s", i, bad[i].message);
		cr_expect(c->error && strstr(c->error, want), "case %zu: want '%s', got '%s'", i,
			  want, c->error ? c->error : "(no error)");
	}
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, warnings_for_unknown_keys_name_their_position)
{
	char *dir = tmp_suite();
	char text[256];
	assay_buf warnings = ASSAY_BUF_INIT;
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {tpye: Core}}}}\n",
		 suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\nargs: [a]\nverify: {stderr: text}\n");
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, dir, NULL, collect, &warnings, &err), 0);
	/* at the key (jansson's positions named its value, 3:38) */
	cr_assert(strstr(warnings.ptr, "suite.yaml:3:32: unknown key 'tpye' in group"), "%s",
		  warnings.ptr);
	/* case files are read when their case is loaded: their warnings come then */
	cr_assert_null(strstr(warnings.ptr, "x.yaml"), "%s", warnings.ptr);
	const assay_case *c = load_at(s, 0, &s->checkpoints[0].groups[0], 0, collect, &warnings);
	cr_assert_null(c->error, "%s", c->error);
	cr_assert(strstr(warnings.ptr, "/c/g/x.yaml:2:1: unknown case key 'args' (ignored)"), "%s",
		  warnings.ptr);
	cr_assert(strstr(warnings.ptr, "/c/g/x.yaml:3:10: verify.stderr is ignored: no expected "
				       "value for it"),
		  "%s", warnings.ptr);
	assay_suite_free(s);
	assay_buf_release(&warnings);
	remove_suite(dir);
}

Test(load, a_verify_entry_naming_a_verifier_replaces_the_inherited_one)
{
	char *dir = tmp_suite();
	assay_suite *s;
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [sh]}\n"
			       "defaults:\n  verify:\n    output: {verifier: json, ignore_order: "
			       "true, weight: 2}\n"
			       "checkpoints: {c: {groups: {g: {}}}}\n");
	put(dir, "c/g/a.yaml", "expected: {output: x}\nverify: {output: {verifier: contains}}\n");
	put(dir, "c/g/b.yaml", "expected: {output: '[1]'}\nverify: {output: {weight: 3}}\n");
	put(dir, "c/g/c.yaml", "expected: {output: x}\nverify: {output: text}\n");
	s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	/* a: contains, without json's ignore_order leaking in (it would be refused) */
	const assay_case *c = load_good(s, 0, g, "a");
	const assay_value *o = assay_object_get(&c->verify, "output");
	cr_assert(assay_value_is_str(assay_object_get(o, "verifier"), "contains"));
	cr_assert_null(assay_object_get(o, "ignore_order"));
	cr_assert_null(assay_object_get(o, "weight"));
	/* b: no verifier named, so the entries merge */
	c = load_good(s, 0, g, "b");
	o = assay_object_get(&c->verify, "output");
	cr_assert(assay_value_is_str(assay_object_get(o, "verifier"), "json"));
	cr_assert_eq(assay_object_get(o, "ignore_order")->kind, ASSAY_V_BOOL);
	cr_assert_eq(assay_object_get(o, "weight")->u.i, 3);
	/* c: a bare verifier name */
	c = load_good(s, 0, g, "c");
	o = assay_object_get(&c->verify, "output");
	cr_assert(assay_value_is_str(assay_object_get(o, "verifier"), "text"));
	cr_assert_eq(o->len, 1);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, case_locate_names_where_a_value_is_written)
{
	char *dir = tmp_suite();
	char where[600];
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [sh]}\n"
			       "defaults: {expected: {stderr: ''}}\n"
			       "checkpoints: {c: {groups: {g: {}}}}\n");
	put(dir, "c/g/a.yaml", "# a comment\nexpected:\n  output: \"hi\"\n  status_code: 0\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_case *c = load_good(s, 0, &s->checkpoints[0].groups[0], "a");
	/* a value of the case file, a value from suite.yaml's defaults */
	cr_assert(assay_case_locate(c, s, assay_object_get(&c->expected, "output"), where,
				    sizeof(where)));
	cr_assert(strstr(where, "/c/g/a.yaml:3:11"), "%s", where);
	cr_assert(assay_case_locate(c, s, assay_object_get(&c->expected, "stderr"), where,
				    sizeof(where)));
	cr_assert(strstr(where, "/suite.yaml:3:31"), "%s", where);
	/* a number has no position: the case file is named alone */
	cr_assert_not(assay_case_locate(c, s, assay_object_get(&c->expected, "status_code"), where,
					sizeof(where)));
	cr_assert(strstr(where, "/c/g/a.yaml") && !strstr(where, "a.yaml:"), "%s", where);
	assay_case_free(NULL);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(shell_split, quoting_rules)
{
	assay_strvec v = ASSAY_STRVEC_INIT;
	cr_assert_eq(assay_shell_split(&v, "a 'b c' \"d \\\"e\\\" \\$f\" g\\ h '' \"\" i\\\\j", NULL),
		     0);
	cr_assert_eq(v.nr, 7);
	cr_assert_str_eq(v.v[0], "a");
	cr_assert_str_eq(v.v[1], "b c");
	cr_assert_str_eq(v.v[2], "d \"e\" $f");
	cr_assert_str_eq(v.v[3], "g h");
	cr_assert_str_eq(v.v[4], "");
	cr_assert_str_eq(v.v[5], "");
	cr_assert_str_eq(v.v[6], "i\\j");
	cr_assert_null(v.v[7]);
	assay_strvec_clear(&v);
	cr_assert_eq(assay_shell_split(&v, "  ", NULL), 0);
	cr_assert_eq(v.nr, 0);
	cr_assert_eq(assay_shell_split(&v, "'open", NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_shell_split(&v, "\"open", NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_shell_split(&v, "end\\", NULL), ASSAY_EINVALID);
	assay_strvec_clear(&v);
}

Test(load, malformed_json_case_names_line_and_column)
{
	char *dir = tmp_suite();
	char text[256];
	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/ok.json", "{\"expected\": {\"status_code\": 0}}\n");
	put(dir, "c/g/bad.json", "{\"expected\":\n  {\"status_code\" 0}}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	cr_assert_eq(g->ncases, 2);
	cr_assert_null(load_case(s, 0, g, "ok")->error);
	const char *e = load_case(s, 0, g, "bad")->error;
	/* Python's message for the text: "Expecting ':' delimiter: line 2 column 18" */
	cr_assert(e && strstr(e, "/c/g/bad.json:2:18: Expecting ':' delimiter"), "%s",
		  e ? e : "(none)");
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, submissions_per_checkpoint_override_the_adapter)
{
	assay_suite *s = load_ok(SUITES "/workdir", NULL);
	cr_assert(strstr(s->submission, "/workdir/sub1"));
	cr_assert(strstr(s->checkpoints[0].submission, "/workdir/sub1"), "%s",
		  s->checkpoints[0].submission);
	cr_assert(strstr(s->checkpoints[1].submission, "/workdir/sub2"), "%s",
		  s->checkpoints[1].submission);
	const assay_group *shared = group(s, cp_index(s, "c1"), "shared");
	cr_assert_not(shared->isolated);
	cr_assert_eq(s->tracked_files.nr, 2);
	cr_assert_str_eq(s->tracked_files.v[1], "out/*.txt");
	assay_suite_free(s);
}

Test(load, a_string_of_arguments_is_split_before_assets_are_substituted)
{
	char *dir = tmp_suite();
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [cat]}\n"
			       "static_assets: {x: {path: my assets/x.txt}}\n"
			       "checkpoints: {c: {groups: {g: {}}}}\n");
	put(dir, "my assets/x.txt", "x\n");
	put(dir, "c/g/a.yaml", "arguments: \"-n {{static:x}}\"\nexpected: {status_code: 0}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_case *c = load_good(s, 0, &s->checkpoints[0].groups[0], "a");
	cr_assert_eq(cli(c)->argc, 2);
	cr_assert_str_eq(cli(c)->argv[0], "-n");
	cr_assert(strstr(cli(c)->argv[1], "/my assets/x.txt"), "%s", cli(c)->argv[1]);
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, static_placeholders_are_found_among_other_braces)
{
	char *dir = tmp_suite();
	put(dir, "suite.yaml", "name: t\nadapter: {type: cli, command: [cat]}\n"
			       "static_assets: {x: {path: x.txt}}\n"
			       "checkpoints: {c: {groups: {g: {}}}}\n");
	put(dir, "x.txt", "x\n");
	/* placeholders after other braces, in long and short strings, deep in expected; an
	 * opening without its "}}" is text */
	put(dir, "c/g/a.json", "{\"arguments\": [\"{a{{static:x}}}\", \"{{\", \"{{static:\"], "
			       "\"expected\": {\"output\": {\"k\": [\"{ {{static:x}}\", "
			       "\"{{static:x\", \"{}\", 7]}}}");
	/* the shortest placeholder names an asset too */
	put(dir, "c/g/b.json", "{\"arguments\": [\"{{static:}}\"], \"expected\": {\"status_code\": 0}}");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	const assay_case *c = load_good(s, 0, g, "a");
	const assay_value *k = assay_object_get(assay_object_get(&c->expected, "output"), "k");

	cr_assert_eq(cli(c)->argc, 3);
	cr_expect(!strncmp(cli(c)->argv[0], "{a/", 3) && strstr(cli(c)->argv[0], "/x.txt}"), "%s",
		  cli(c)->argv[0]);
	cr_expect_str_eq(cli(c)->argv[1], "{{");
	cr_expect_str_eq(cli(c)->argv[2], "{{static:");
	cr_assert(k && k->kind == ASSAY_V_ARRAY && k->len == 4);
	cr_expect(!strncmp(k->u.items[0].u.s, "{ /", 3) && strstr(k->u.items[0].u.s, "/x.txt"),
		  "%s", k->u.items[0].u.s);
	cr_expect(assay_value_is_str(&k->u.items[1], "{{static:x"));
	cr_expect(assay_value_is_str(&k->u.items[2], "{}"));
	c = load_case(s, 0, g, "b");
	cr_assert(c->error && strstr(c->error, "unknown static asset ''"), "%s",
		  c->error ? c->error : "(none)");
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, checkpoint_and_group_names_must_be_plain)
{
	static const char *const bad[] = { "'..'", "a/b", "/tmp/x", "'.'", "''" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *dir = tmp_suite();
		char text[256];
		assay_suite *s = NULL;
		assay_err err = ASSAY_ERR_INIT;
		snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {%s: {}}}}\n", suite_head,
			 bad[i]);
		put(dir, "suite.yaml", text);
		cr_expect_eq(assay_suite_load(&s, dir, NULL, NULL, NULL, &err), ASSAY_EINVALID,
			     "group %s", bad[i]);
		cr_expect(strstr(err.msg, "must be a plain name"), "%s", err.msg);
		cr_expect_eq(err.line, 3, "group %s: %d:%d", bad[i], err.line, err.column);
		assay_suite_free(s);
		assay_err_clear(&err);
		snprintf(text, sizeof(text), "%scheckpoints: {%s: {groups: {g: {}}}}\n", suite_head,
			 bad[i]);
		put(dir, "suite.yaml", text);
		cr_expect_eq(assay_suite_load(&s, dir, NULL, NULL, NULL, &err), ASSAY_EINVALID,
			     "checkpoint %s", bad[i]);
		assay_suite_free(s);
		remove_suite(dir);
	}
}

Test(load, suite_values_of_the_wrong_kind_point_at_their_key)
{
	/* numbers and booleans have no position: the member's key is named */
	static const struct {
		const char *suite;
		const char *message;
	} bad[] = {
		{ "checkpoints: {c: {groups: {g: {isolated: 1}}}}\n",
		  ":3:32: isolated must be true or false" },
		{ "checkpoints: {c: {timeout: 0, groups: {g: {}}}}\n",
		  ":3:19: timeout must be a number of seconds > 0" },
		{ "checkpoints: {c: {order: true, groups: {g: {}}}}\n",
		  ":3:19: checkpoint order must be an integer" },
		{ "checkpoints: {c: {groups: {g: {type: Cor}}}}\n",
		  ":3:38: group type must be Core, Functionality, Error or Regression" },
		{ "checkpoints: {c: {groups: {g: {case_order: 3}}}}\n",
		  ":3:32: case_order must be a list of case ids" },
		{ "checkpoints: {c: {groups: {}}}\n",
		  ":3:27: a checkpoint needs at least one group (its groups: is empty)" },
		{ "checkpoints: {c: {groups: [g]}}\n",
		  ":3:27: a checkpoint needs a mapping of groups" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *dir = tmp_suite();
		char text[300], msg[1200];
		assay_suite *s = NULL;
		assay_err err = ASSAY_ERR_INIT;

		snprintf(text, sizeof(text), "%s%s", suite_head, bad[i].suite);
		put(dir, "suite.yaml", text);
		cr_expect_eq(assay_suite_load(&s, dir, NULL, NULL, NULL, &err), ASSAY_EINVALID,
			     "%s", bad[i].suite);
		assay_err_format(&err, msg, sizeof(msg));
		cr_expect(strstr(msg, bad[i].message), "want '%s', got '%s'", bad[i].message, msg);
		cr_expect(strstr(msg, "/suite.yaml:"), "%s", msg);
		assay_suite_free(s);
		remove_suite(dir);
	}
}

Test(load, unknown_checkpoint_in_the_filter_is_an_error)
{
	assay_suite_filter f = { "nope", NULL, NULL };
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_suite_load(&s, SUITES "/basic", &f, NULL, NULL, &err), ASSAY_ENOMATCH);
	cr_assert_null(s);
	cr_assert_str_eq(err.msg, "no checkpoint named 'nope' (checkpoints: checkpoint_1, "
				  "checkpoint_2)");
}

/* ---- selection, strictness, absent files (issue #11) ---- */

Test(load, a_selection_matching_nothing_names_the_closest_cases)
{
	const char *typo[] = { "checkpoint_1/core/ecoh", NULL };
	assay_suite_filter f = { NULL, NULL, typo };
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_suite_load(&s, SUITES "/basic", &f, NULL, NULL, &err), ASSAY_ENOMATCH);
	cr_assert_null(s);
	cr_expect(strstr(err.msg, "no case matches 'checkpoint_1/core/ecoh' (closest: "
				  "checkpoint_1/core/echo, "), "%s", err.msg);
	/* a group pattern, and `checkpoint/group` */
	const char *groups[] = { "checkpoint_1/cor", NULL };
	assay_suite_filter g = { NULL, groups, NULL };
	assay_err err2 = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/basic", &g, NULL, NULL, &err2), ASSAY_ENOMATCH);
	cr_expect(strstr(err2.msg, "no group matches 'checkpoint_1/cor' (closest: "
				   "checkpoint_1/core"), "%s", err2.msg);
	/* patterns that each match, but nothing together */
	const char *errors[] = { "errors", NULL }, *echo[] = { "echo", NULL };
	assay_suite_filter h = { "checkpoint_1", errors, echo };
	assay_err err3 = ASSAY_ERR_INIT;
	cr_assert_eq(assay_suite_load(&s, SUITES "/basic", &h, NULL, NULL, &err3), ASSAY_ENOMATCH);
	cr_expect(strstr(err3.msg, "no case matches 'echo'"), "%s", err3.msg);
}

Test(load, group_and_case_patterns_take_the_listing_names_and_repeat)
{
	const char *groups[] = { "checkpoint_1/core", "checkpoint_2/ag*", NULL };
	const char *cases[] = { "checkpoint_1/core/echo", "json", "fail", "zzzz", NULL };
	assay_suite_filter f = { NULL, groups, cases };
	assay_buf warnings = ASSAY_BUF_INIT;
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_suite_load(&s, SUITES "/basic", &f, collect, &warnings, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(s->ncases, 3);
	/* one pattern matching nothing, while others do: a warning naming the closest */
	cr_expect(strstr(warnings.ptr, "no case matches 'zzzz' (closest: "), "%s", warnings.ptr);
	assay_suite_free(s);
	/* under strictness that warning is an error */
	f.strict = true;
	assay_err err2 = ASSAY_ERR_INIT;
	cr_expect_eq(assay_suite_load(&s, SUITES "/basic", &f, NULL, NULL, &err2), ASSAY_ENOMATCH);
	/* exact names (--last-failed) are not globs */
	const char *names[] = { "checkpoint_1/core/echo", "checkpoint_1/core/e*", NULL };
	assay_suite_filter n = { NULL, NULL, NULL, names };
	assay_buf_reset(&warnings);
	s = load_ok(SUITES "/basic", &n);
	cr_expect_eq(s->ncases, 1);
	assay_suite_free(s);
	assay_buf_release(&warnings);
}

Test(load, strictness_makes_every_warning_an_error)
{
	char *dir = tmp_suite();
	char text[256];
	assay_buf warnings = ASSAY_BUF_INIT;
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	assay_suite_filter strict = { .strict = true };

	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {tpye: Core, tmeout: 2}}}}\n",
		 suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {status_code: 0}\n");
	/* leniently: warnings naming the key meant */
	cr_assert_eq(assay_suite_load(&s, dir, NULL, collect, &warnings, &err), 0);
	cr_expect(strstr(warnings.ptr, "unknown key 'tpye' in group (ignored; did you mean "
				       "'type'?)"), "%s", warnings.ptr);
	assay_suite_free(s);
	/* strictly: every warning still delivered, then an error at the first */
	assay_buf_reset(&warnings);
	cr_assert_eq(assay_suite_load(&s, dir, &strict, collect, &warnings, &err), ASSAY_EINVALID);
	cr_expect(strstr(warnings.ptr, "'tpye'") && strstr(warnings.ptr, "'tmeout'"), "%s",
		  warnings.ptr);
	cr_expect_eq(err.line, 3);
	cr_expect(strstr(err.msg, "unknown key 'tpye' in group (did you mean 'type'?) (an error "
				  "under strict; 2 warnings in all)"), "%s", err.msg);
	/* `strict: true` in suite.yaml does the same */
	snprintf(text, sizeof(text), "%sstrict: true\ncheckpoints: {c: {groups: {g: {}}}}\n",
		 suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expect: {status_code: 0}\nexpected: {status_code: 1}\n");
	assay_buf_reset(&warnings);
	s = load_ok(dir, NULL);
	cr_expect(s->strict);
	/* ... and a case with a warning is an error of that case, after the warning */
	const assay_case *c = load_at(s, 0, &s->checkpoints[0].groups[0], 0, collect, &warnings);
	cr_assert_not_null(c->error);
	cr_expect(strstr(c->error, "x.yaml:1:1: unknown case key 'expect' (did you mean "
				   "'expected'?) (an error under strict)"), "%s", c->error);
	cr_expect(strstr(warnings.ptr, "unknown case key 'expect'"), "%s", warnings.ptr);
	assay_suite_free(s);
	assay_buf_release(&warnings);
	remove_suite(dir);
}

Test(load, a_file_expected_absent)
{
	char *dir = tmp_suite();
	char text[256];

	snprintf(text, sizeof(text), "%scheckpoints: {c: {groups: {g: {}}}}\n", suite_head);
	put(dir, "suite.yaml", text);
	put(dir, "c/g/x.yaml", "expected: {files: {out.txt: {absent: true}}}\n");
	put(dir, "c/g/y.yaml", "expected: {files: {out.txt: {absent: false}}}\n");
	put(dir, "c/g/z.yaml", "expected: {files: {out.txt: {absent: true, content: a}}}\n");
	assay_suite *s = load_ok(dir, NULL);
	const assay_group *g = &s->checkpoints[0].groups[0];
	const assay_case *x = load_good(s, 0, g, "x");
	cr_expect(assay_expected_is_absent(assay_object_get(&x->expected, "files-out.txt")));
	for (int i = 0; i < 2; i++) {
		const assay_case *c = load_case(s, 0, g, i ? "z" : "y");
		cr_assert_not_null(c->error);
		cr_expect(strstr(c->error, "write {absent: true} to expect that it is not produced"),
			  "%s", c->error);
	}
	assay_suite_free(s);
	remove_suite(dir);
}

Test(load, typos_name_the_word_meant)
{
	const char *const keys[] = { "expected", "arguments", "timeout", "stdin", NULL };

	cr_expect_str_eq(assay_load__closest("expect", keys), "expected");
	cr_expect_str_eq(assay_load__closest("timeuot", keys), "timeout");
	cr_expect_null(assay_load__closest("colour", keys));
	cr_expect_eq(assay_load__distance("ecpect", "expect"), 1);
	cr_expect_eq(assay_load__distance("", "abc"), 3);
}
