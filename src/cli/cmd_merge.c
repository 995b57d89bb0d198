/*
 * assay merge DIR... --suite SUITE -o OUT: the results folders of a sharded run's shards (`assay run --shard
 * I/N`) made into one results folder, as the unsharded run would have written it; then the
 * failures and the summary table, as `assay run` shows them. Exit status as `assay run`'s: 0
 * every case passed, 1 some did not; 2 for a wrong set of shards (one missing or given twice,
 * another suite, count or split, an unfinished shard) or a shard that does not hold what its
 * split and suite say (shard.h), or whose verdicts are not what verifying each case again from
 * --suite (required) makes, 4 when assay failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/plugin.h"
#include "assay/report.h"
#include "assay/shard.h"
#include "cmd.h"
#include "plugins.h"
#include "exit.h"
#include "util/banned.h"

static const char usage[] = "assay merge DIR... --suite SUITE -o OUT [options]";

#define MAX_SHARDS 4096

/* summary.json's unrun_case_files of the merged folder `dir` (case files the shards' suite
 * never ran: a suite mistake), 0 when it says none or cannot be read */
static int64_t unrun_case_files(const char *dir)
{
	char path[4096];
	assay_buf text = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_value v;
	int64_t n = 0;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!assay_fs_read(&text, path, (size_t)1 << 28, &err) &&
	    !assay_json_parse(&v, a, text.ptr, text.len, NULL, &err)) {
		const assay_value *u = assay_object_get(&v, "unrun_case_files");

		n = u && u->kind == ASSAY_V_INT ? u->u.i : 0;
	}
	assay_buf_release(&text);
	assay_arena_free(a);
	return n;
}

int cmd_merge(int argc, char **argv)
{
	const char *output = NULL, *color = "auto", *suite = NULL, *plugins = NULL;
	size_t value_cap = 0, max_failures = 10;
	bool quiet = false;
	const cli_opt opts[] = {
		{ "output", 'o', CLI_OPT_STRING, &output, "OUT",
		  "the merged results folder (made whole, then put in place; an existing results "
		  "folder is replaced)" },
		{ "value-cap", 0, CLI_OPT_SIZE, &value_cap, "BYTES",
		  "report lines carry values up to BYTES; longer ones are kept whole in "
		  "OUT/assay.db (default 64K)" },
		{ "suite", 0, CLI_OPT_STRING, &suite, "DIR",
		  "the suite the shards ran (required): every case is verified again from its case "
		  "file and the actual values its shard recorded; no shard's verdict is taken" },
		{ "plugin", 0, CLI_OPT_STRING, &plugins, "PATH",
		  "load verifier plug-ins (shared objects; several separated by ':') that the "
		  "suite's cases are verified with, as for the run" },
		{ "quiet", 'q', CLI_OPT_FLAG, &quiet, NULL, "print no failures or summary" },
		{ "color", 0, CLI_OPT_STRING, &color, "WHEN",
		  "auto (on a terminal, unless NO_COLOR is set), always or never" },
		{ "max-failures", 0, CLI_OPT_COUNT, &max_failures, "N",
		  "show at most N failing cases in detail (default 10); the others are named" },
		{ NULL },
	};
	static const char *words[MAX_SHARDS];
	assay_err err = ASSAY_ERR_INIT;
	assay_arena *a = NULL;
	assay_value args = assay_value_array();
	assay_sink term;
	assay_tally total = { 0 };
	cli_words w = { words, 1, MAX_SHARDS, 0 };
	int rc = cli_parse_count(argc, argv, opts, usage, &w);
	size_t nwords = w.n;

	if (rc != CLI_GO)
		return rc;
	if (!output)
		return cli_usage_error(usage, opts, "name the merged results folder with -o OUT");
	if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never"))
		return cli_error(CLI_EXIT_USAGE, "--color takes auto, always or never");
	for (size_t i = 0; i < nwords; i++)
		if (!strcmp(words[i], output))
			return cli_error(CLI_EXIT_USAGE, "-o %s is one of the shards: merge into "
							 "another folder", output);
	if (plugins && cli_load_plugins(plugins))
		return CLI_EXIT_USAGE;
	a = assay_arena_new(0);
	assay_array_push(a, &args, assay_value_strz(a, "assay"));
	for (int i = 0; i < argc; i++)
		assay_array_push(a, &args, assay_value_strz(a, argv[i]));
	if (!quiet) {
		const char *no = getenv("NO_COLOR");
		bool colour = !strcmp(color, "always") ||
			      (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(no && *no));
		assay_term_opts t = { NULL, false, stdout, colour, max_failures, 0, NULL, false,
				      "merging the shards of" };

		assay_sink_terminal_new(&term, &t);
	}
	assay_merge_opts mo = { words, nwords, output, value_cap, &args,
				quiet ? NULL : &term, quiet ? 0 : 1, suite };
	rc = assay_merge_shards(&mo, &total, &err);
	assay_plugins_shutdown(); /* a command verifier's processes, from re-verification */
	if (!quiet)
		term.free(term.payload);
	assay_arena_free(a);
	if (rc)
		return cli_fail(rc, &err, ASSAY_EINVALID, ASSAY_ENOTFOUND, ASSAY_EBUSY, 0);
	if (!quiet)
		printf("merged %zu shard%s: %s (reports.jsonl, summary.json, assay.db)\n", nwords,
		       nwords == 1 ? "" : "s", output);
	/* as `assay run`: case files a suite mistake left out did not pass either */
	return total.passed == total.total && !unrun_case_files(output) ? CLI_EXIT_OK
									 : CLI_EXIT_FAILED;
}
