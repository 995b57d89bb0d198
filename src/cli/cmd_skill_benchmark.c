/*
 * assay skill benchmark WORKSPACE [--version N]: benchmarks/<time>/benchmark.json for the
 * ecosystem's viewer (issue 20 item 3). Exit 0 written; 2 usage or a version without graded
 * runs; 3 the workspace could not be loaded; 4 the file could not be written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

int cli_skill_benchmark(int argc, char **argv)
{
	static const char usage[] = "assay skill benchmark WORKSPACE [--version N]";
	const char *version = NULL, *words[1];
	const cli_opt opts[] = {
		{ "version", 0, CLI_OPT_STRING, &version, "N", "the version (default: current)" },
		{ NULL },
	};
	assay_skill_benchmark_result r;
	assay_err err = ASSAY_ERR_INIT;
	int v = -1, rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	if (version && !cli_skill_version(version, 1000000, &v))
		return cli_error(CLI_EXIT_USAGE, "bad --version '%s'", version);
	if ((rc = assay_skill_benchmark(&r, words[0], v, &err)))
		return cli_skill_exit(rc, &err);
	printf("%s\n", r.path);
	printf("v%d with the skill: %zu run%s, expectation pass rate %.1f%%\n", r.version,
	       r.with_skill_runs, r.with_skill_runs == 1 ? "" : "s", 100 * r.pass_rate_with);
	if (r.without_skill_runs)
		printf("without the skill: %zu run%s, expectation pass rate %.1f%%\n",
		       r.without_skill_runs, r.without_skill_runs == 1 ? "" : "s",
		       100 * r.pass_rate_without);
	else
		printf("without the skill: no run (assay skill run --baseline)\n");
	free(r.path);
	return CLI_EXIT_OK;
}
