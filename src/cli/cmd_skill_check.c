/*
 * assay skill check WORKSPACE|FILE and assay skill lint SKILL_DIR: every problem of the five
 * files as path:line:col, and the deterministic convention checks as a table or JSON.
 */
#include <stdio.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

static const char *const severities[] = { "info", "warning", "error" };

int cli_skill_check(int argc, char **argv)
{
	static const char usage[] = "assay skill check WORKSPACE|FILE [--kind KIND] [--quiet]";
	const char *kind = NULL, *words[1];
	bool quiet = false;
	const cli_opt opts[] = {
		{ "kind", 'k', CLI_OPT_STRING, &kind, "KIND",
		  "evals, history, grading, comparison or analysis (default: from the content)" },
		{ "quiet", 'q', CLI_OPT_FLAG, &quiet, NULL, "print errors only" },
		{ NULL },
	};
	static const char *const kinds[] = { "auto", "evals", "history", "grading", "comparison",
					     "analysis", NULL };
	assay_skill_file_kind k = ASSAY_SKILL_FILE_AUTO;
	assay_skill_diags d = ASSAY_SKILL_DIAGS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	for (int i = 0; kind && kinds[i]; i++)
		if (!strcmp(kind, kinds[i]))
			k = (assay_skill_file_kind)i, kind = NULL;
	if (kind)
		return cli_error(CLI_EXIT_USAGE, "unknown kind '%s'", kind);
	if (!assay_fs_exists(words[0]))
		return cli_error(CLI_EXIT_LOAD, "'%s' does not exist", words[0]);
	rc = assay_fs_is_dir(words[0]) ? assay_skill_check_workspace(&d, words[0], &err)
				       : assay_skill_check_file(&d, words[0], k, NULL, &err);
	for (size_t i = 0; i < d.nr; i++) {
		const assay_skill_diag *g = &d.v[i];
		if (quiet && g->severity != ASSAY_SKILL_ERROR)
			continue;
		if (g->line > 0)
			printf("%s:%d:%d: %s: %s\n", g->path, g->line, g->col,
			       severities[g->severity], g->msg);
		else
			printf("%s: %s: %s\n", g->path, severities[g->severity], g->msg);
	}
	fprintf(stderr, "%zu error%s, %zu warning%s\n", d.errors, d.errors == 1 ? "" : "s",
		d.warnings, d.warnings == 1 ? "" : "s");
	if (!rc)
		rc = d.errors ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	else
		rc = cli_skill_exit(rc, &err);
	assay_skill_diags_clear(&d);
	return rc;
}

int cli_skill_lint(int argc, char **argv)
{
	static const char usage[] =
		"assay skill lint SKILL_DIR [--profile agentskills|claude-code|writing-skills] "
		"[--json]";
	const char *profile = "agentskills", *name_dir = NULL, *type = NULL, *budget = NULL;
	const char *words[1];
	bool json = false, all = false;
	const cli_opt opts[] = {
		{ "profile", 'p', CLI_OPT_STRING, &profile, "NAME",
		  "agentskills (default), claude-code or writing-skills" },
		{ "json", 0, CLI_OPT_FLAG, &json, NULL, "print the result as JSON" },
		{ "all", 'a', CLI_OPT_FLAG, &all, NULL, "list passed and info checks too" },
		{ "name", 0, CLI_OPT_STRING, &name_dir, "DIR",
		  "the folder name the skill's name must equal (default: SKILL_DIR's)" },
		{ "type", 0, CLI_OPT_STRING, &type, "TYPE",
		  "discipline, technique, reference, toolbox, knowledge or pattern" },
		{ "budget-class", 0, CLI_OPT_STRING, &budget, "CLASS",
		  "getting-started, frequently-loaded or other (word budget)" },
		{ NULL },
	};
	assay_skill_lint_opts lo = ASSAY_SKILL_LINT_OPTS_INIT;
	assay_skill_lint l;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	if ((rc = cli_parse_words(argc, argv, opts, usage, words, 1)) != CLI_GO ||
	    (rc = cli_skill_profile(&lo.profile, profile)))
		return rc;
	lo.name_dir = name_dir;
	lo.skill_type = type;
	lo.budget_class = budget;
	if ((rc = assay_skill_lint_run(&l, words[0], &lo, &err)))
		return cli_skill_exit(rc, &err);
	assay_arena *a = assay_arena_new(0);
	if (json) {
		assay_buf b = ASSAY_BUF_INIT;
		assay_value v = assay_skill_lint_value(&l, a);
		assay_json_write(&b, &v, ASSAY_JSON_PRETTY);
		assay_buf_addch(&b, '\n');
		fwrite(b.ptr, 1, b.len, stdout);
		assay_buf_release(&b);
	} else {
		assay_value cc = assay_skill_lint_compliance(&l, "", a);
		printf("%-24s %-6s %s\n", "KEY", "PASSED", "DETAILS");
		for (int k = 0; k < ASSAY_SKILL_NKEYS; k++) {
			const assay_value *e = assay_object_get(&cc, assay_skill_convention_keys[k]);
			const assay_value *p = assay_object_get(e, "passed");
			const char *d = assay_object_get(e, "details")->u.s;
			printf("%-24s %-6s %s\n", assay_skill_convention_keys[k],
			       p->kind == ASSAY_V_NULL ? "-" : p->u.b ? "yes" : "no", d);
		}
		putchar('\n');
		const char *file = l.skill_md ? l.skill_md : l.skill_dir;
		for (size_t i = 0; i < l.nr; i++) {
			const assay_skill_lint_check *c = &l.checks[i];
			if (!all && (c->passed != 0 || c->severity == ASSAY_SKILL_INFO))
				continue;
			const char *st = c->passed > 0 ? "ok" : c->passed < 0 ? "n/a"
								  : severities[c->severity];
			if (c->line)
				printf("%-7s %-4s %s:%d: %s\n", st, c->id, file, c->line, c->message);
			else
				printf("%-7s %-4s %s\n", st, c->id, c->message);
		}
		printf("%zu error%s, %zu warning%s (profile %s)\n", l.errors,
		       l.errors == 1 ? "" : "s", l.warnings, l.warnings == 1 ? "" : "s",
		       assay_skill_profile_name(l.profile));
	}
	rc = l.errors ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	assay_arena_free(a);
	assay_skill_lint_release(&l);
	return rc;
}
