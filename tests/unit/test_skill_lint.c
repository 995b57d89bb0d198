/*
 * Unit tests of `assay skill lint` (src/lib/skill/lint.c): the checks that fail on real
 * published skills and on broken ones, per profile; the Agent Skills specification's hard
 * rules as errors exactly (NFKC, Unicode lower case, code points); the compliance object.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/skill.h"

#define SKILLS ASSAY_FIXTURES "/skills"

/* The failed error and warning checks as "e:ID w:ID ..." in order, each once. */
static char *failed(const char *dir, assay_skill_profile p)
{
	assay_skill_lint l;
	assay_skill_lint_opts o = ASSAY_SKILL_LINT_OPTS_INIT;
	char buf[1024] = "";

	o.profile = p;
	cr_assert_eq(assay_skill_lint_run(&l, dir, &o, NULL), 0, "%s", dir);
	for (size_t i = 0; i < l.nr; i++) {
		const assay_skill_lint_check *c = &l.checks[i];
		char item[16];
		if (c->passed != 0 || c->severity == ASSAY_SKILL_INFO)
			continue;
		snprintf(item, sizeof(item), "%s%c:%s", buf[0] ? " " : "",
			 c->severity == ASSAY_SKILL_ERROR ? 'e' : 'w', c->id);
		if (!strstr(buf, item + (buf[0] ? 1 : 0)))
			strncat(buf, item, sizeof(buf) - strlen(buf) - 1);
	}
	size_t errors = 0;
	for (size_t i = 0; i < l.nr; i++)
		errors += l.checks[i].passed == 0 && l.checks[i].severity == ASSAY_SKILL_ERROR;
	cr_assert_eq(errors, l.errors);
	assay_skill_lint_release(&l);
	return strdup(buf);
}

static void expect(const char *dir, assay_skill_profile p, const char *want)
{
	char *got = failed(dir, p);
	cr_expect_str_eq(got, want, "%s (%s): got '%s', want '%s'", dir,
			 assay_skill_profile_name(p), got, want);
	free(got);
}

#define AS ASSAY_SKILL_PROFILE_AGENTSKILLS
#define CC ASSAY_SKILL_PROFILE_CLAUDE_CODE
#define WS ASSAY_SKILL_PROFILE_WRITING_SKILLS

Test(lint, published_skills_pass_the_specification)
{
	expect(SKILLS "/published/brand-guidelines", AS, "");
	expect(SKILLS "/published/verification-before-completion", AS, "");
	expect(SKILLS "/published/brand-guidelines", CC, "");
	/* The published template names itself template-skill in a folder named template. */
	expect(SKILLS "/published/template", AS, "e:NM4");
	expect(SKILLS "/published/template", CC, "w:NM4");
}

Test(lint, writing_skills_gates_apply_to_published_skills)
{
	expect(SKILLS "/published/verification-before-completion", WS, "w:DS6 e:BD3");
	expect(SKILLS "/published/brand-guidelines", WS, "w:DS5 e:BD3");
}

Test(lint, broken_frontmatter_is_an_error_in_every_profile)
{
	const char *dirs[] = { "no-frontmatter", "unclosed", "bad-yaml", "not-mapping", NULL };
	for (int p = 0; p < 3; p++)
		for (int i = 0; dirs[i]; i++) {
			char path[512];
			snprintf(path, sizeof(path), SKILLS "/broken/%s", dirs[i]);
			expect(path, (assay_skill_profile)p, "e:FM2");
		}
	expect(SKILLS "/broken/no-skill-md", AS, "e:FM1");
	expect(SKILLS "/broken/missing-description", AS, "e:FM3");
}

Test(lint, the_specifications_hard_rules_are_the_agentskills_errors)
{
	expect(SKILLS "/broken/bad-name", AS, "e:NM2 e:NM3 e:NM4");
	expect(SKILLS "/broken/bad-fields", AS, "e:FM5 e:FM6 e:FM7");
	expect(SKILLS "/broken/extra-keys", AS, "e:FM4");
	expect(SKILLS "/broken/long-description", AS, "w:FM9 e:DS1 w:DS3");
	/* Not rules of the specification: warnings there, errors on Claude's platform. */
	expect(SKILLS "/broken/claude-helper", AS, "w:FM8 w:NM5");
	expect(SKILLS "/broken/claude-helper", CC, "e:FM8 e:NM5");
	/* Claude Code's own keys are allowed there; unknown ones are warnings. */
	expect(SKILLS "/broken/extra-keys", CC, "w:FM4");
}

Test(lint, unicode_lowercase_letters_are_valid_names_only_in_the_specification)
{
	expect(SKILLS "/broken/na\xc3\xafve-skill", AS, "");
	expect(SKILLS "/broken/na\xc3\xafve-skill", CC, "e:NM2");
}

Test(lint, references_resolve_one_level_deep)
{
	expect(SKILLS "/broken/broken-refs", AS, "w:PD4 w:BD6 e:PD1 w:PD1 w:PD2");
}

/* The line of check `id` with severity `sev` that failed first, 0 when none. */
static int failed_line(const char *dir, const char *id, assay_skill_severity sev)
{
	assay_skill_lint l;
	assay_skill_lint_opts o = ASSAY_SKILL_LINT_OPTS_INIT;
	int line = 0;

	cr_assert_eq(assay_skill_lint_run(&l, dir, &o, NULL), 0, "%s", dir);
	for (size_t i = 0; i < l.nr && !line; i++)
		if (!strcmp(l.checks[i].id, id) && l.checks[i].passed == 0 &&
		    l.checks[i].severity == sev)
			line = l.checks[i].line;
	assay_skill_lint_release(&l);
	return line;
}

Test(lint, an_unresolved_link_is_reported_on_its_own_line)
{
	/* SKILL.md: the frontmatter is lines 1-4, the links are on line 8. */
	cr_expect_eq(failed_line(SKILLS "/broken/broken-refs", "PD1", ASSAY_SKILL_ERROR), 8);
	cr_expect_eq(failed_line(SKILLS "/broken/broken-refs", "PD1", ASSAY_SKILL_WARNING), 8);
}

/* A skill folder made for one test. */
static char *make_skill(const char *folder, const char *text)
{
	char *root = NULL, *dir, *md;

	cr_assert_eq(assay_fs_mkdtemp(&root, NULL, "assay-test-lint-", NULL), 0);
	dir = assay_path_join(root, folder);
	md = assay_path_join(dir, "SKILL.md");
	cr_assert_eq(assay_fs_write(md, text, strlen(text), 0644, NULL), 0);
	free(md);
	free(root);
	return dir;
}

/* Removes what make_skill() made (the temporary folder above `dir`) and frees `dir`. */
static void drop_skill(char *dir)
{
	char *slash = strrchr(dir, '/');

	*slash = '\0';
	assay_fs_remove_tree(dir, NULL);
	free(dir);
}

Test(lint, names_are_compared_after_nfkc)
{
	/* U+FF46 U+FF4F U+FF4F (fullwidth "foo") normalises to "foo". */
	char *dir = make_skill("foo", "---\nname: \xef\xbd\x86\xef\xbd\x8f\xef\xbd\x8f\n"
				      "description: Use when testing NFKC.\n---\n\nBody.\n");
	expect(dir, AS, "");
	drop_skill(dir);
}

Test(lint, lengths_count_code_points_not_bytes)
{
	char text[8192];
	char desc[4096] = "";
	for (int i = 0; i < 1024; i++)
		strcat(desc, "\xc3\xa9"); /* é: 2 bytes, 1 code point */
	snprintf(text, sizeof(text), "---\nname: cp\ndescription: %s\n---\n\nBody.\n", desc);
	char *dir = make_skill("cp", text);
	char *got = failed(dir, AS);
	cr_expect(!strstr(got, "DS1"), "1024 code points (2048 bytes) is within the limit: %s",
		  got);
	free(got);
	drop_skill(dir);
	strcat(desc, "\xc3\xa9");
	snprintf(text, sizeof(text), "---\nname: cp\ndescription: %s\n---\n\nBody.\n", desc);
	dir = make_skill("cp", text);
	got = failed(dir, AS);
	cr_expect(strstr(got, "e:DS1") != NULL, "1025 code points: %s", got);
	free(got);
	drop_skill(dir);
}

Test(lint, the_reference_validator_closes_the_frontmatter_at_the_next_dashes)
{
	/* skills-ref splits on "---": dashes inside a value close the frontmatter there. */
	char *dir = make_skill("dash", "---\nname: dash\ndescription: \"Use when x---y\"\n---\n\n"
				       "B.\n");
	char *got = failed(dir, AS);
	cr_expect_str_eq(got, "e:FM2", "%s", got);
	free(got);
	got = failed(dir, CC);
	cr_expect_str_eq(got, "", "a line of its own closes it elsewhere: %s", got);
	free(got);
	drop_skill(dir);
}

Test(lint, body_and_description_limits)
{
	char *dir = make_skill("empty-body", "---\nname: empty-body\ndescription: Use when "
					     "the body is missing.\n---\n\n  \n");
	expect(dir, AS, "e:BD1");
	drop_skill(dir);
	dir = make_skill("voice", "---\nname: voice\ndescription: I help you when you write.\n"
				  "---\n\nBody.\n");
	expect(dir, AS, "w:DS4");
	drop_skill(dir);
	dir = make_skill("multi", "---\nname: multi\ndescription: |\n  Use when\n  testing.\n"
				  "---\n\nBody.\n");
	expect(dir, WS, "e:DS2");
	expect(dir, AS, "");
	drop_skill(dir);
}

Test(lint, a_path_the_skill_asks_to_create_is_a_warning)
{
	/* skill-creator tells its reader to write `evals/evals.json`: not a file of its own. */
	char *dir = make_skill("creator", "---\nname: creator\ndescription: Use when creating "
				  "skills and their evals.\n---\n\nSave the cases to "
				  "`evals/evals.json` and see [the guide](references/guide.md).\n");
	expect(dir, AS, "e:PD1 w:PD1");
	char *ref = assay_path_join(dir, "references");
	cr_assert_eq(assay_fs_mkdirs(ref, NULL), 0);
	char *guide = assay_path_join(ref, "guide.md");
	cr_assert_eq(assay_fs_write(guide, "# Guide\n", 8, 0644, NULL), 0);
	expect(dir, AS, "w:PD1");
	free(guide);
	free(ref);
	drop_skill(dir);
}

Test(lint, section_order_reads_only_the_heading_line)
{
	/* "critical" further down the body is not part of the '## Important' heading. */
	char *dir = make_skill("ordered", "---\nname: ordered\ndescription: Use when ordering "
				  "sections of a skill.\n---\n\n## Important\n\nText.\n\n"
				  "## Critical\n\nMore.\n");
	expect(dir, WS, "w:PD6");
	drop_skill(dir);
}

Test(lint, type_alignment_needs_a_declared_type)
{
	char *dir = make_skill("typed", "---\nname: typed\ndescription: Use when typed.\n"
				  "metadata:\n  type: technique\n  version: \"1\"\n---\n\n"
				  "Steps:\n\n1. One.\n2. Two.\n");
	assay_skill_lint l;
	assay_skill_lint_opts o = ASSAY_SKILL_LINT_OPTS_INIT;
	assay_arena *a = assay_arena_new(0);

	cr_assert_eq(assay_skill_lint_run(&l, dir, &o, NULL), 0);
	assay_value cc = assay_skill_lint_compliance(&l, "x/SKILL.md", a);
	cr_assert_eq(cc.len, 5);
	for (int k = 0; k < ASSAY_SKILL_NKEYS; k++) {
		const assay_value *e = assay_object_get(&cc, assay_skill_convention_keys[k]);
		cr_assert_not_null(e);
		cr_assert(assay_value_is_str(assay_object_get(e, "passed"), "x") == false);
		cr_assert_eq(assay_object_get(e, "details")->kind, ASSAY_V_STRING);
		cr_assert_eq(strncmp(assay_object_get(e, "details")->u.s, "x/SKILL.md: ", 12), 0);
	}
	cr_assert(assay_object_get(assay_object_get(&cc, "type_alignment"), "passed")->u.b);
	assay_skill_lint_release(&l);
	o.skill_type = "knowledge";
	cr_assert_eq(assay_skill_lint_run(&l, dir, &o, NULL), 0);
	cc = assay_skill_lint_compliance(&l, NULL, a);
	/* Not decidable, and the contract types passed as a bool: it did not fail. */
	cr_assert_eq(assay_object_get(assay_object_get(&cc, "type_alignment"), "passed")->kind,
		     ASSAY_V_BOOL, "knowledge skills are not decidable, still a bool");
	cr_assert(assay_object_get(assay_object_get(&cc, "type_alignment"), "passed")->u.b);
	cr_assert(strstr(assay_object_get(assay_object_get(&cc, "type_alignment"), "details")->u.s,
			 "not decidable"));
	assay_skill_lint_release(&l);
	o.skill_type = "discipline";
	cr_assert_eq(assay_skill_lint_run(&l, dir, &o, NULL), 0);
	cc = assay_skill_lint_compliance(&l, NULL, a);
	cr_assert_not(assay_object_get(assay_object_get(&cc, "type_alignment"), "passed")->u.b);
	assay_skill_lint_release(&l);
	assay_arena_free(a);
	drop_skill(dir);
}

Test(lint, a_missing_folder_is_an_error)
{
	assay_skill_lint l;
	cr_assert_eq(assay_skill_lint_run(&l, "/nonexistent/skill", NULL, NULL), ASSAY_ENOTFOUND);
}
