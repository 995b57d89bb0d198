/*
 * assay run SUITE: runs every case, writes DIR/reports.jsonl as cases finish and
 * DIR/summary.json at the end, shows progress on a terminal and a summary table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/report.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

static const char usage[] = "assay run SUITE [options]";

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .output = "assay-results", .color = "auto", .max_failures = 10,
			      .kill_grace = 1.0 };
	const cli_opt opts[] = {
		RUN_COMMON_OPTS(a),
		{ "output", 'o', CLI_OPT_STRING, &a.output, "DIR",
		  "write reports.jsonl and summary.json into DIR (default assay-results)" },
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "print no progress or summary" },
		{ "verbose", 'v', CLI_OPT_FLAG, &a.verbose, NULL, "print a line per case" },
		{ "color", 0, CLI_OPT_STRING, &a.color, "WHEN", "auto, always or never" },
		{ "max-failures", 0, CLI_OPT_COUNT, &a.max_failures, "N",
		  "list at most N failing cases with their diffs (default 10; 0: none)" },
		{ "value-cap", 0, CLI_OPT_SIZE, &a.value_cap, "BYTES",
		  "report lines carry values up to BYTES; longer ones go to DIR/blobs "
		  "(default 64K)" },
		{ "resume", 'r', CLI_OPT_FLAG, &a.resume, NULL,
		  "continue an interrupted run: keep the cases already in DIR/reports.jsonl" },
		{ NULL },
	};
	const char *words[1];
	size_t nwords;
	assay_suite *suite = NULL;
	assay_sink sinks[2];
	size_t nsinks = 0;
	assay_err err = ASSAY_ERR_INIT;
	assay_arena *prev_arena = NULL;
	assay_value previous = assay_value_null();
	int rc = cli_parse(argc, argv, opts, usage, words, 1, &nwords);

	if (rc)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (nwords != 1) {
		cli_usage(stderr, usage, opts);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(a.color, "auto") && strcmp(a.color, "always") && strcmp(a.color, "never"))
		return cli_error(CLI_EXIT_USAGE, "--color takes auto, always or never");
	a.suite_dir = words[0];
	if ((rc = run_common_load(&suite, &a)))
		return rc;
	if (a.resume) {
		size_t keep_len;

		prev_arena = assay_arena_new(0);
		if (assay_reports_load(&previous, prev_arena, &keep_len, a.output, &err) ||
		    assay_sink_jsonl_resume(&sinks[nsinks], a.output, keep_len, a.value_cap, &err)) {
			rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
			goto out;
		}
		a.previous = &previous;
		if (!a.quiet)
			fprintf(stderr, "assay: resuming: %u case%s already done\n", previous.len,
				previous.len == 1 ? "" : "s");
	} else if (assay_sink_jsonl_new(&sinks[nsinks], a.output, a.value_cap, &err)) {
		rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
		goto out;
	}
	nsinks++;
	if (!a.quiet) {
		bool tty = isatty(STDERR_FILENO);
		assay_term_opts t = { stderr, tty, stdout,
				      !strcmp(a.color, "always") ||
					      (!strcmp(a.color, "auto") && isatty(STDOUT_FILENO) &&
					       !getenv("NO_COLOR")),
				      a.max_failures, a.verbose };
		assay_sink_terminal_new(&sinks[nsinks++], &t);
	}
	rc = run_common_run(suite, &a, sinks, nsinks);
	if (rc <= CLI_EXIT_FAILED && !a.quiet)
		printf("reports: %s/reports.jsonl, %s/summary.json\n", a.output, a.output);
out:
	for (size_t i = 0; i < nsinks; i++)
		sinks[i].free(sinks[i].payload);
	assay_suite_free(suite);
	assay_arena_free(prev_arena);
	return rc;
}
