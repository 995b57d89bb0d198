/*
 * assay skill package SKILL_DIR: the .skill archive of a skill, after a lint that must pass
 * (issue 20 item 7). Exit 0 written; 1 the lint found errors (they are listed, nothing is
 * written); 2 usage; 3 no such folder; 4 the archive could not be written.
 */
#include <stdio.h>
#include <string.h>

#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

int cli_skill_package(int argc, char **argv)
{
	static const char usage[] = "assay skill package SKILL_DIR [-o DIR] [--profile NAME]";
	const char *profile = "agentskills", *outdir = NULL, *words[1];
	const cli_opt opts[] = {
		{ "output", 'o', CLI_OPT_STRING, &outdir, "DIR",
		  "where <name>.skill is written (default: the current folder)" },
		{ "profile", 'p', CLI_OPT_STRING, &profile, "NAME",
		  "the lint that must pass: agentskills (default), claude-code or writing-skills" },
		{ NULL },
	};
	assay_skill_lint_opts lo = ASSAY_SKILL_LINT_OPTS_INIT;
	assay_skill_package_result r;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	if ((rc = cli_parse_words(argc, argv, opts, usage, words, 1)) != CLI_GO ||
	    (rc = cli_skill_profile(&lo.profile, profile)))
		return rc;
	rc = assay_skill_package(&r, words[0], outdir, &lo, &err);
	if (rc) {
		assay_skill_package_release(&r);
		return cli_skill_exit(rc, &err);
	}
	if (r.lint.errors) {
		const char *file = r.lint.skill_md ? r.lint.skill_md : r.lint.skill_dir;
		for (size_t i = 0; i < r.lint.nr; i++) {
			const assay_skill_lint_check *c = &r.lint.checks[i];
			if (c->passed || c->severity != ASSAY_SKILL_ERROR)
				continue;
			if (c->line)
				fprintf(stderr, "error   %-4s %s:%d: %s\n", c->id, file, c->line,
					c->message);
			else
				fprintf(stderr, "error   %-4s %s\n", c->id, c->message);
		}
		fprintf(stderr, "assay: error: the lint found %zu error%s (profile %s): nothing "
			"packaged\n", r.lint.errors, r.lint.errors == 1 ? "" : "s",
			assay_skill_profile_name(r.lint.profile));
		assay_skill_package_release(&r);
		return CLI_EXIT_FAILED;
	}
	for (size_t i = 0; i < r.links.nr; i++)
		fprintf(stderr, "assay: warning: %s is a symbolic link: not packaged (links are "
			"never followed)\n", r.links.v[i]);
	printf("%s: %zu file%s, %zu bytes; lint passed (%zu warning%s, profile %s)\n", r.path,
	       r.files, r.files == 1 ? "" : "s", r.bytes, r.lint.warnings,
	       r.lint.warnings == 1 ? "" : "s", assay_skill_profile_name(r.lint.profile));
	assay_skill_package_release(&r);
	return CLI_EXIT_OK;
}
