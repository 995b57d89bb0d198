/*
 * Unit tests of `assay skill check` (src/lib/skill/check.c) and of the score arithmetic
 * (grade.c): every rule of the five files, with path:line:col, and the derived fields.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/skill.h"

static char *tmpdir(void)
{
	char *d = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&d, NULL, "assay-test-check-", NULL), 0);
	return d;
}

/* Checks `text` as a file named `name`; returns the diagnostics joined by '\n'. */
static char *check(const char *name, const char *text, assay_skill_file_kind kind,
		   size_t *errors)
{
	char *dir = tmpdir(), *path = assay_path_join(dir, name);
	assay_skill_diags d = ASSAY_SKILL_DIAGS_INIT;
	assay_buf out = ASSAY_BUF_INIT;

	cr_assert_eq(assay_fs_write(path, text, strlen(text), 0644, NULL), 0);
	cr_assert_eq(assay_skill_check_file(&d, path, kind, NULL, NULL), 0);
	for (size_t i = 0; i < d.nr; i++)
		assay_buf_addf(&out, "%d:%d: %s: %s\n", d.v[i].line, d.v[i].col,
			       d.v[i].severity == ASSAY_SKILL_ERROR ? "error" : "warning",
			       d.v[i].msg);
	*errors = d.errors;
	assay_skill_diags_clear(&d);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
	free(path);
	return assay_buf_detach(&out, NULL);
}

#define EXPECT_HAS(text, needle) cr_expect(strstr((text), (needle)) != NULL, \
					   "no '%s' in:\n%s", (needle), (text))

static const char good_evals[] =
	"{\"version\": \"1.0\", \"skill\": \"/s\", \"cases\": [\n"
	" {\"id\": \"case-01\", \"prompt\": \"p\", \"files\": [], \"expectations\": [\n"
	"  {\"criterion\": \"a\", \"description\": \"Has a title line\", \"required\": true},\n"
	"  {\"criterion\": \"b\", \"description\": \"Under 10 lines\", \"required\": false}]}]}\n";

Test(check, a_good_evals_file_has_no_problem)
{
	size_t e;
	char *out = check("evals.json", good_evals, ASSAY_SKILL_FILE_AUTO, &e);
	cr_expect_eq(e, 0, "%s", out);
	cr_expect_str_eq(out, "");
	free(out);
}

Test(check, evals_rules_with_positions)
{
	size_t e;
	char *out = check("evals.json",
			  "{\"version\": \"1.0\", \"skill\": \"/s\", \"cases\": [\n"
			  " {\"id\": \"Case_1\", \"prompt\": \"p\", \"expectations\": [\n"
			  "  {\"criterion\": \"a\", \"description\": \"Looks appropriate\", "
			  "\"required\": false}]},\n"
			  " {\"id\": \"Case_1\", \"prompt\": \"\", \"expectations\": []}]}\n",
			  ASSAY_SKILL_FILE_EVALS, &e);
	EXPECT_HAS(out, "2:9: error: case 'Case_1': id must be kebab-case");
	EXPECT_HAS(out, "4:9: error: case 'Case_1': id is not unique");
	EXPECT_HAS(out, "warning: case 'Case_1' expectations[0]: description is vague "
			"('appropriate')");
	EXPECT_HAS(out, "2:50: error: case 'Case_1': needs at least one expectation with "
			"\"required\": true");
	EXPECT_HAS(out, "'prompt' must not be empty");
	free(out);
}

Test(check, history_rules)
{
	size_t e;
	char *out = check("history.json",
			  "{\"versions\": [{\"version\": 1, \"timestamp\": \"2026-02-22T20:00:00+00:00\","
			  " \"description\": \"b\", \"git_hash\": \"xyz\", \"path\": \"v0/skill\","
			  " \"average_score\": 3.25}], \"current_version\": 2}",
			  ASSAY_SKILL_FILE_AUTO, &e);
	EXPECT_HAS(out, "current_version 2 names no version");
	EXPECT_HAS(out, "versions[0]: version must be 0");
	EXPECT_HAS(out, "timestamp must be ISO 8601 UTC");
	EXPECT_HAS(out, "git_hash must be a commit hash");
	EXPECT_HAS(out, "average_score' must have one decimal");
	cr_expect_eq(e, 5, "%s", out);
	free(out);
}

static const char good_grading[] =
	"{\"case_id\": \"case-01\", \"version\": 0, \"run\": 1, \"overall_score\": 3.5,"
	" \"required_score\": 4.0, \"results\": ["
	"{\"criterion\": \"a\", \"score\": 4, \"passed\": true, \"reasoning\": \"r\"},"
	"{\"criterion\": \"b\", \"score\": 3, \"passed\": true, \"reasoning\": \"r\"}],"
	" \"overall\": \"pass\", \"convention_compliance\": {"
	"\"frontmatter\": {\"passed\": true, \"details\": \"d\"},"
	"\"description_field\": {\"passed\": false, \"details\": \"d\"},"
	"\"token_efficiency\": {\"passed\": true, \"details\": \"d\"},"
	"\"progressive_disclosure\": {\"passed\": true, \"details\": \"d\"},"
	"\"type_alignment\": {\"passed\": null, \"details\": \"d\"}},"
	" \"claims\": [{\"claim\": \"c\", \"verified\": false, \"evidence\": \"e\"}],"
	" \"user_notes_summary\": \"\", \"eval_feedback\": \"\", \"execution_metrics\": {}}";

Test(check, a_good_grading_file_has_no_problem)
{
	size_t e;
	char *out = check("case-01_v0_run1.json", good_grading, ASSAY_SKILL_FILE_AUTO, &e);
	cr_expect_str_eq(out, "");
	free(out);
}

Test(check, grading_derived_fields_are_recomputed)
{
	size_t e;
	char text[4096];
	snprintf(text, sizeof(text), "%s", good_grading);
	/* passed independent of score, a wrong mean, a sixth convention key */
	char *p = strstr(text, "\"score\": 3, \"passed\": true");
	memcpy(p, "\"score\": 2, \"passed\": true", 26);
	p = strstr(text, "\"type_alignment\"");
	memcpy(p, "\"type_alignmenX\"", 16);
	char *out = check("case-01_v0_run1.json", text, ASSAY_SKILL_FILE_GRADING, &e);
	EXPECT_HAS(out, "results[1]: passed must be false (derived: score >= 3)");
	EXPECT_HAS(out, "overall_score must be 3.0 (the mean of all scores)");
	EXPECT_HAS(out, "convention_compliance: 'type_alignment' is missing");
	EXPECT_HAS(out, "'type_alignmenX' is not one of the five convention keys");
	free(out);
	out = check("case-02_v0_run1.json", good_grading, ASSAY_SKILL_FILE_GRADING, &e);
	EXPECT_HAS(out, "the file name says case-02, version 0, run 1");
	free(out);
}

Test(check, comparison_and_analysis_rules)
{
	size_t e;
	char *out = check("c.json", "{\"eval_prompt\": \"p\", \"winner\": \"TIE\", \"reasoning\": "
			  "\"r\", \"scores\": {\"description_quality\": {\"A\": 0, \"B\": 11}}}",
			  ASSAY_SKILL_FILE_AUTO, &e);
	EXPECT_HAS(out, "winner must be \"A\" or \"B\"");
	EXPECT_HAS(out, "scores.description_quality.A must be an integer 1-10");
	EXPECT_HAS(out, "scores.description_quality.B must be an integer 1-10");
	EXPECT_HAS(out, "scores: 'content_value' is missing");
	free(out);
	out = check("a.json", "{\"winner_version\": \"v1\", \"loser_version\": \"v1\", "
		    "\"strengths\": [], \"weaknesses\": [3], \"suggestions\": [{\"area\": \"d\", "
		    "\"before\": \"\", \"after\": \"x\"}]}", ASSAY_SKILL_FILE_AUTO, &e);
	EXPECT_HAS(out, "winner and loser are the same version");
	EXPECT_HAS(out, "weaknesses[0] must be a string");
	EXPECT_HAS(out, "suggestions[0]: 'before' must not be empty");
	EXPECT_HAS(out, "suggestions[0]: 'reasoning' is missing");
	free(out);
}

Test(check, malformed_json_gives_line_and_column)
{
	size_t e;
	char *out = check("x.json", "{\"cases\": [\n  {\"id\": 1,}\n]}", ASSAY_SKILL_FILE_AUTO, &e);
	EXPECT_HAS(out, "2:12: error: Expecting property name enclosed in double quotes");
	cr_expect_eq(e, 1);
	free(out);
}

Test(grade, round1_is_pythons)
{
	cr_expect_eq(assay_skill_round1(2.25), 2.2);
	cr_expect_eq(assay_skill_round1(2.35), 2.4);
	cr_expect_eq(assay_skill_round1(3.0 + 1.0 / 3), 3.3);
	cr_expect_eq(assay_skill_round1(4.45), 4.5); /* 4.45 is 4.4500000000000001776 */
}

Test(grade, derived_fields_never_come_from_the_judge)
{
	assay_arena *a = assay_arena_new(0);
	assay_value ecase, answer;
	const char *c = "{\"id\": \"case-01\", \"expectations\": ["
			"{\"criterion\": \"a\", \"required\": true},"
			"{\"criterion\": \"b\", \"required\": true},"
			"{\"criterion\": \"c\", \"required\": false}]}";
	/* The judge claims a pass and a perfect mean: both are ignored. */
	const char *ans = "{\"results\": [{\"criterion\": \"c\", \"score\": 5, \"passed\": false},"
			  "{\"criterion\": \"a\", \"score\": 2, \"passed\": true, \"reasoning\": "
			  "\"x\"}, {\"criterion\": \"b\", \"score\": 4}], \"overall\": \"pass\", "
			  "\"overall_score\": 5}";
	cr_assert_eq(assay_json_parse(&ecase, a, c, strlen(c), NULL, NULL), 0);
	cr_assert_eq(assay_json_parse(&answer, a, ans, strlen(ans), NULL, NULL), 0);
	assay_value g = assay_skill_grading_build(a, &ecase, 2, 3, &answer, NULL, NULL);
	assay_buf b = ASSAY_BUF_INIT;
	assay_json_write(&b, &g, 0);
	cr_expect_str_eq(b.ptr,
		"{\"case_id\": \"case-01\", \"version\": 2, \"run\": 3, \"overall_score\": 3.7, "
		"\"required_score\": 3.0, \"results\": [{\"criterion\": \"a\", \"score\": 2, "
		"\"passed\": false, \"reasoning\": \"x\"}, {\"criterion\": \"b\", \"score\": 4, "
		"\"passed\": true, \"reasoning\": \"\"}, {\"criterion\": \"c\", \"score\": 5, "
		"\"passed\": true, \"reasoning\": \"\"}], \"overall\": \"fail\", "
		"\"convention_compliance\": {}, \"claims\": [], \"user_notes_summary\": \"\", "
		"\"eval_feedback\": \"\", \"execution_metrics\": {}}");
	assay_buf_release(&b);
	assay_arena_free(a);
}

Test(compare, labels_are_seeded_and_balanced)
{
	int first = 0;
	char id[32];
	for (int i = 0; i < 2000; i++) {
		snprintf(id, sizeof(id), "case-%d", i);
		bool x = assay_skill_first_is_a(7, id, 1 + i % 3);
		cr_assert_eq(x, assay_skill_first_is_a(7, id, 1 + i % 3), "same seed, same draw");
		first += x;
	}
	cr_expect(first > 900 && first < 1100, "%d of 2000 draws put the first version as A",
		  first);
	int differ = 0;
	for (int i = 0; i < 64; i++) {
		snprintf(id, sizeof(id), "c%d", i);
		differ += assay_skill_first_is_a(1, id, 1) != assay_skill_first_is_a(2, id, 1);
	}
	cr_expect(differ > 10, "another seed draws other labels (%d of 64 differ)", differ);
}

Test(compare, wilson_interval)
{
	double lo, hi;
	assay_skill_wilson(8, 10, 1.959963984540054, &lo, &hi);
	cr_expect(fabs(lo - 0.4902) < 1e-4 && fabs(hi - 0.9433) < 1e-4, "[%f, %f]", lo, hi);
	assay_skill_wilson(6, 6, 1.959963984540054, &lo, &hi);
	cr_expect(fabs(lo - 0.6097) < 1e-4 && hi == 1.0, "[%f, %f]", lo, hi);
	assay_skill_wilson(0, 0, 1.96, &lo, &hi);
	cr_expect(lo == 0 && hi == 1);
}

Test(compare, newcombe_difference_interval)
{
	double d, lo, hi;
	/* Newcombe (1998), Table II example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339. */
	assay_skill_delta_ci(56, 70, 48, 80, 1.959963984540054, &d, &lo, &hi);
	cr_expect(fabs(d - 0.2) < 1e-9, "%f", d);
	cr_expect(fabs(lo - 0.0524) < 1e-4 && fabs(hi - 0.3339) < 1e-4, "[%f, %f]", lo, hi);
	/* example (e): 0/10 - 0/20: -0.1611 to 0.2775 */
	assay_skill_delta_ci(0, 10, 0, 20, 1.959963984540054, &d, &lo, &hi);
	cr_expect(d == 0 && fabs(lo + 0.1611) < 1e-4 && fabs(hi - 0.2775) < 1e-4, "[%f, %f]",
		  lo, hi);
}
