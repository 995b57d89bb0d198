/*
 * assay skill <subcommand>: skill evaluation workspaces (docs/skills.md). This file holds the
 * dispatcher, `init` and `snapshot`; cmd_skill_check.c holds `check` and `lint`,
 * cmd_skill_run.c `run`, `improve`, `compare` and `report`, cmd_skill_package.c `package`,
 * cmd_skill_benchmark.c `benchmark`, cmd_skill_triggers.c `triggers`,
 * cmd_skill_review.c `review`.
 *
 * Exit status: 0 done (and, for check, lint and run, nothing failed); 1 a check or lint error,
 * a failed run, a grading error, runs skipped by the budget, a failed judgement; 2 usage (also a
 * version the workspace does not have, a snapshot with nothing changed: ASSAY_ENOMATCH); 3 the
 * skill, workspace, config.json, history.json or evals.json could not be loaded; 4 I/O or
 * processes failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

int cli_skill_exit(int rc, const assay_err *err)
{
	if (!rc)
		return CLI_EXIT_OK;
	cli_report_err(0, err);
	if (rc == ASSAY_ENOMATCH) /* a version or name the workspace does not have */
		return CLI_EXIT_USAGE;
	return rc == ASSAY_ENOTFOUND || rc == ASSAY_EPARSE || rc == ASSAY_EINVALID
		       ? CLI_EXIT_LOAD : CLI_EXIT_INTERNAL;
}

bool cli_skill_version(const char *s, long max, int *out)
{
	char *end;
	long v = strtol(s[0] == 'v' ? s + 1 : s, &end, 10);

	if (*end || end == s || v < 0 || v > max)
		return false;
	*out = (int)v;
	return true;
}

int cli_skill_profile(assay_skill_profile *out, const char *name)
{
	if (assay_skill_profile_parse(out, name))
		return cli_error(CLI_EXIT_USAGE, "unknown profile '%s' (agentskills, claude-code or "
						 "writing-skills)", name);
	return 0;
}

static int cmd_init(int argc, char **argv)
{
	static const char usage[] = "assay skill init SKILL_DIR [--workspace DIR]";
	const char *ws = NULL, *words[1];
	const cli_opt opts[] = {
		{ "workspace", 'w', CLI_OPT_STRING, &ws, "DIR",
		  "the workspace (default: SKILL_DIR's parent/<name>-workspace)" },
		{ NULL },
	};
	assay_skill_init_report r;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	rc = assay_skill_init(&r, words[0], ws, &err);
	if (!rc) {
		printf("workspace: %s\n", r.workspace);
		const struct { bool made; const char *what; } made[] = {
			{ r.evals, "evals/evals.json (in the skill)" }, { r.config, "config.json" },
			{ r.snapshot, "v0/skill" }, { r.grading, "grading/" },
			{ r.history, "history.json" }, { r.prompts, "prompts/" },
		};
		bool any = false;
		for (size_t i = 0; i < sizeof(made) / sizeof(*made); i++)
			if (made[i].made) {
				printf("created: %s\n", made[i].what);
				any = true;
			}
		if (!any)
			puts("nothing to do: the workspace is complete");
	}
	free(r.workspace);
	return cli_skill_exit(rc, &err);
}

static int cmd_snapshot(int argc, char **argv)
{
	static const char usage[] = "assay skill snapshot WORKSPACE --description TEXT [--force]";
	const char *desc = NULL, *words[1];
	bool force = false;
	const cli_opt opts[] = {
		{ "description", 'd', CLI_OPT_STRING, &desc, "TEXT", "what the new version changes" },
		{ "force", 'f', CLI_OPT_FLAG, &force, NULL,
		  "make the version even when the skill did not change since the current one" },
		{ NULL },
	};
	int version = 0;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	rc = assay_skill_snapshot(words[0], desc, force, &version, &err);
	if (!rc)
		printf("v%d/skill: snapshot made; current_version is %d\n", version, version);
	return cli_skill_exit(rc, &err);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} subcommands[] = {
	{ "init", cmd_init, "create the eval file, workspace, history and v0 snapshot" },
	{ "snapshot", cmd_snapshot, "copy the skill to the next version and record it" },
	{ "check", cli_skill_check, "validate a workspace or one of its files" },
	{ "lint", cli_skill_lint, "run the deterministic convention checks on a skill" },
	{ "run", cli_skill_run, "run the executor and the grader for each case" },
	{ "improve", cli_skill_improve, "the improve loop: run, compare, analyse, improver, snapshot" },
	{ "compare", cli_skill_compare, "blind comparison of two versions, then the analysis" },
	{ "report", cli_skill_report, "pass rates, score ranges, flaky criteria, warnings" },
	{ "review", cli_skill_review, "one HTML page to read every run and leave feedback" },
	{ "triggers", cli_skill_triggers, "does the skill get loaded when it should? (trigger evals)" },
	{ "benchmark", cli_skill_benchmark, "benchmark.json for skill-creator's viewer" },
	{ "package", cli_skill_package, "write the .skill archive after a lint that passes" },
};

static void usage(FILE *f)
{
	fputs("usage: assay skill <subcommand> [options]\n\nsubcommands:\n", f);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(*subcommands); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fputs("\n'assay skill <subcommand> --help' describes one; docs/skills.md walks through "
	      "them.\n", f);
}

int cmd_skill(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(*subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "assay: error: unknown skill subcommand '%s'\n\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
