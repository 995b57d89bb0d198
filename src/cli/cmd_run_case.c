/*
 * assay run-case SUITE: runs the chosen cases and prints the JSON array of verification.md's
 * "Testing Your Verifier": {id, group, score, passed} per case, `results` for failing ones,
 * every attribute in full with --full. Nothing is written to disk.
 */
#include <stdio.h>

#include "assay/json.h"
#include "assay/report.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

static const char usage[] = "assay run-case SUITE [--case GLOB] [--group GLOB] [--full] [options]";

int cmd_run_case(int argc, char **argv)
{
	struct run_args a = { .kill_grace = 1.0, .pass_env = ASSAY_STRVEC_INIT };
	const cli_opt opts[] = {
		RUN_COMMON_OPTS(a),
		{ "full", 'f', CLI_OPT_FLAG, &a.full, NULL,
		  "show every attribute of every case in full" },
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "print no warnings" },
		{ NULL },
	};
	const char *words[1];
	size_t nwords;
	assay_suite *suite = NULL;
	assay_sink sink;
	int rc = cli_parse(argc, argv, opts, usage, words, 1, &nwords);

	if (rc || nwords != 1) {
		assay_strvec_clear(&a.pass_env);
		if (!rc)
			cli_usage(stderr, usage, opts);
		return rc < 0 ? CLI_EXIT_OK : rc ? rc : CLI_EXIT_USAGE;
	}
	a.suite_dir = words[0];
	if ((rc = run_common_load(&suite, &a))) {
		assay_strvec_clear(&a.pass_env);
		return rc;
	}
	assay_sink_array_new(&sink, a.full);
	rc = run_common_run(suite, &a, &sink, 1);
	if (rc <= CLI_EXIT_FAILED) {
		assay_buf out = ASSAY_BUF_INIT;
		assay_json_write(&out, assay_sink_array_result(&sink), ASSAY_JSON_PRETTY);
		assay_buf_addch(&out, '\n');
		fwrite(out.ptr, 1, out.len, stdout);
		assay_buf_release(&out);
	}
	sink.free(sink.payload);
	assay_suite_free(suite);
	assay_strvec_clear(&a.pass_env);
	return rc;
}
