/*
 * assay run-case SUITE: runs the chosen cases and shows their verdicts. On a terminal (or with
 * --format text) as a person reads them: a line per case, and each failing case explained
 * (the terminal report of `assay run`). Otherwise (or with --format json) the JSON array of
 * verification.md's "Testing Your Verifier": {id, checkpoint, group, score, passed} per case,
 * `results` for failing ones, every attribute in full with --full. Nothing is written to disk.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/report.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

static const char usage[] = "assay run-case SUITE [--case GLOB] [--group GLOB] [--full] [options]";

int cmd_run_case(int argc, char **argv)
{
	struct run_args a = { .kill_grace = 1.0, RUN_ARGS_LISTS };
	const char *format = "auto", *color = "auto";
	const cli_opt opts[] = {
		RUN_COMMON_OPTS(a),
		{ "full", 'f', CLI_OPT_FLAG, &a.full, NULL,
		  "show every attribute of every case in full (json)" },
		{ "format", 0, CLI_OPT_STRING, &format, "FORMAT",
		  "text (the default on a terminal) or json (the default otherwise)" },
		{ "color", 0, CLI_OPT_STRING, &color, "WHEN",
		  "auto (on a terminal, unless NO_COLOR is set), always or never (text)" },
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "print no warnings but that case files never run" },
		{ NULL },
	};
	const char *words[1];
	size_t nwords;
	assay_suite *suite = NULL;
	assay_sink sink;
	bool text;
	int rc = cli_parse(argc, argv, opts, usage, words, 1, &nwords);

	if (rc || nwords != 1) {
		run_args_release(&a);
		if (!rc)
			cli_usage(stderr, usage, opts);
		return rc < 0 ? CLI_EXIT_OK : rc ? rc : CLI_EXIT_USAGE;
	}
	if (strcmp(format, "auto") && strcmp(format, "text") && strcmp(format, "json")) {
		run_args_release(&a);
		return cli_error(CLI_EXIT_USAGE, "--format takes text or json");
	}
	if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
		run_args_release(&a);
		return cli_error(CLI_EXIT_USAGE, "--color takes auto, always or never");
	}
	text = !strcmp(format, "text") || (!strcmp(format, "auto") && !a.full &&
					    isatty(STDOUT_FILENO));
	a.suite_dir = words[0];
	if ((rc = run_common_load(&suite, &a))) {
		run_args_release(&a);
		return rc;
	}
	if (text) {
		const char *no = getenv("NO_COLOR");
		bool colored = !strcmp(color, "always") ||
			       (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(no && *no));
		assay_term_opts t = { NULL, false, stdout, colored, SIZE_MAX, 1, a.entry, false };
		assay_sink_terminal_new(&sink, &t);
	} else {
		assay_sink_array_new(&sink, a.full);
	}
	rc = run_common_run(suite, &a, &sink, 1);
	if (rc <= CLI_EXIT_FAILED && !text) {
		assay_buf out = ASSAY_BUF_INIT;
		assay_json_write(&out, assay_sink_array_result(&sink), ASSAY_JSON_PRETTY);
		assay_buf_addch(&out, '\n');
		fwrite(out.ptr, 1, out.len, stdout);
		assay_buf_release(&out);
	}
	sink.free(sink.payload);
	assay_suite_free(suite);
	run_args_release(&a);
	return rc;
}
