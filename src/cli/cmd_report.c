/*
 * assay report PATH --format F[:FILE]...: renders a results folder (its store, DIR/assay.db) or
 * a reports.jsonl file in any report format, by the code that writes them during a run, so the
 * bytes are the same. One format goes to -o FILE or standard output; several need a path each
 * (F:FILE). A report file appears whole or not at all: on any error nothing is changed.
 */
#include <stdio.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/render.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "report_args.h"
#include "util/banned.h"

static const char usage[] =
	"assay report DIR|FILE.jsonl|FILE.parquet --format F[:PATH] [-o FILE] [options]";

int cmd_report(int argc, char **argv)
{
	struct report_args ra = { .nformats = 0 };
	const char *output = NULL;
	const cli_opt opts[] = {
		REPORT_COMMON_OPTS(ra),
		{ "junit-max-bytes", 0, CLI_OPT_SIZE, &ra.junit_max_bytes, "BYTES",
		  "keep a JUnit report under BYTES (default 30,000,000 less room to close)" },
		{ "output", 'o', CLI_OPT_STRING, &output, "FILE",
		  "write the (one) report to FILE instead of standard output" },
		{ NULL },
	};
	const char *words[1];
	size_t n = 0;
	assay_renderer *rs[REPORT_MAX_FORMATS];
	assay_store *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc = report_args_take(&argc, argv, &ra);

	if (rc || (rc = cli_parse_words(argc, argv, opts, usage, words, 1)) != CLI_GO)
		return rc;
	if (!ra.nformats)
		return cli_usage_error(usage, opts, "give a report format with --format");
	if (output && ra.nformats > 1)
		return cli_error(CLI_EXIT_USAGE, "-o names one report: with several formats give "
						 "each its path (--format F:PATH)");
	/* the input first: a bad one changes nothing, not even an output file */
	bool jsonl = !assay_fs_is_dir(words[0]);

	if (!jsonl && (rc = assay_store_open(&s, words[0], 0, &err)))
		return cli_fail(rc, &err, ASSAY_ENOTFOUND, ASSAY_EINVALID, 0);
	if (jsonl && !assay_fs_exists(words[0])) {
		rc = cli_error(CLI_EXIT_USAGE, "%s: no such results folder or reports file", words[0]);
		goto out;
	}
	if ((rc = report_args_open(&ra, NULL, output, jsonl ? NULL : words[0], rs, &n)))
		goto out;
	rc = jsonl ? assay_render_jsonl(words[0], rs, n, &err) : assay_render_store(s, rs, n, &err);
	if (rc)
		rc = cli_fail(rc, &err, ASSAY_EPARSE, ASSAY_ENOTFOUND, 0);
out:
	for (size_t i = 0; i < n; i++)
		assay_renderer_free(rs[i]);
	assay_store_close(s);
	return rc;
}
