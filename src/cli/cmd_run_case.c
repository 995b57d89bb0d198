/*
 * assay run-case SUITE: runs the chosen cases and shows their verdicts. On a terminal (or with
 * --format text) as a person reads them: a line per case, and each failing case explained
 * (the terminal report of `assay run`). Otherwise (or with --format json) the JSON array of
 * verification.md's "Testing Your Verifier": {id, checkpoint, group, score, passed} per case,
 * `results` for failing ones, every attribute in full with --full (and format_result). Nothing
 * is written to disk.
 *
 * The contract's flags work as it shows them (issue #17 item 4): `-s SOLUTION -p PROBLEM -c 1
 * -e ENV.yaml`: -p names the suite (a folder, or a name under ./problems/), -c a checkpoint
 * by name or by number (N: the checkpoint named N if any, else checkpoint_N), -e an
 * environment file (run_env.c). --entry keeps its long name; its short -e is run's alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/report.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

static const char usage[] =
	"assay run-case [SUITE | -p PROBLEM] [-s SOLUTION] [-c CHECKPOINT] [-e ENV.yaml] "
	"[--case GLOB] [--group GLOB] [--full] [options]";

static bool all_digits(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int cmd_run_case(int argc, char **argv)
{
	struct run_args a = { .kill_grace = 1.0, RUN_ARGS_LISTS };
	const char *format = "auto", *color = "auto", *problem = NULL, *environment = NULL, *entry_name = NULL;
	char *suite_dir = NULL, *checkpoint = NULL, *env_entry = NULL;
	const cli_opt opts[] = {
		RUN_COMMON_OPTS_E(a, 0),
		{ "problem", 'p', CLI_OPT_STRING, &problem, "PROBLEM",
		  "the suite: its folder, or its name under ./problems/ (instead of SUITE)" },
		{ "environment", 'e', CLI_OPT_STRING, &environment, "ENV.yaml",
		  "an environment file (type: local|docker, environment.env, setup.eval_commands, "
		  "commands.command, entry_file)" },
		{ "entry-file", 0, CLI_OPT_STRING, &entry_name, "NAME",
		  "the problem's entry file, for {entry_file} in the environment's entry_file" },
		{ "full", 'f', CLI_OPT_FLAG, &a.full, NULL,
		  "show every attribute of every case in full, with format_result (json)" },
		{ "format", 0, CLI_OPT_STRING, &format, "FORMAT",
		  "text (the default on a terminal) or json (the default otherwise)" },
		{ "color", 0, CLI_OPT_STRING, &color, "WHEN",
		  "auto (on a terminal, unless NO_COLOR is set), always or never (text)" },
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "print no warnings but that case files never run" },
		{ NULL },
	};
	const char *words[1];
	assay_suite *suite = NULL;
	assay_sink sink;
	bool text;
	cli_words w = { words, 0, 1, 0 };
	int rc = cli_parse_count(argc, argv, opts, usage, &w);

	if (rc == CLI_GO && w.n + (problem != NULL) != 1)
		rc = cli_usage_error(usage, opts, NULL);
	if (rc != CLI_GO) {
		run_args_release(&a);
		return rc;
	}
	if (strcmp(format, "auto") && strcmp(format, "text") && strcmp(format, "json")) {
		run_args_release(&a);
		return cli_error(CLI_EXIT_USAGE, "--format takes text or json");
	}
	if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
		run_args_release(&a);
		return cli_error(CLI_EXIT_USAGE, "--color takes auto, always or never");
	}
	if (environment && a.entry) {
		run_args_release(&a);
		return cli_error(CLI_EXIT_USAGE, "--entry and -e/--environment both name the "
				 "program: give one");
	}
	if (environment && (rc = run_env_load(environment, entry_name, &env_entry, &a.pass_env))) {
		run_args_release(&a);
		return rc;
	}
	if (env_entry)
		a.entry = env_entry;
	if (problem)
		suite_dir = assay_fs_is_dir(problem) || strchr(problem, '/')
				    ? assay_xstrdup(problem)
				    : assay_xasprintf("problems/%s", problem);
	a.suite_dir = problem ? suite_dir : words[0];
	if (all_digits(a.checkpoint)) {
		/* -c N: a checkpoint named N if the suite has one, else checkpoint_N (the
		 * contract's `-c 1`); the probe loads only the suite's case references */
		assay_suite_filter f = { a.checkpoint, NULL, NULL, NULL, false };
		assay_suite *probe = NULL;
		assay_err e = ASSAY_ERR_INIT;

		if (assay_suite_load(&probe, a.suite_dir, &f, NULL, NULL, &e) == 0 &&
		    probe->ncases) {
			assay_suite_free(probe);
		} else {
			assay_suite_free(probe);
			checkpoint = assay_xasprintf("checkpoint_%s", a.checkpoint);
			a.checkpoint = checkpoint;
		}
	}
	text = !strcmp(format, "text") || (!strcmp(format, "auto") && !a.full &&
					    isatty(STDOUT_FILENO));
	if ((rc = run_common_load(&suite, &a)))
		goto out;
	if (text) {
		const char *no = getenv("NO_COLOR");
		bool colored = !strcmp(color, "always") ||
			       (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(no && *no));
		char *program = run_common_program_ran(suite, &a);
		assay_term_opts t = { NULL, false, stdout, colored, SIZE_MAX, 1, a.entry, false, NULL,
				      (const char *const *)a.pass_env.v, program, true };
		assay_sink_terminal_new(&sink, &t);
		free(program);
	} else {
		assay_sink_array_new(&sink, a.full);
	}
	rc = run_common_run(suite, &a, &sink, 1);
	/* interrupted (exit 5): the cases that ran, as the text output lists them */
	if ((rc <= CLI_EXIT_FAILED || rc == CLI_EXIT_INTERRUPTED) && !text) {
		assay_buf out = ASSAY_BUF_INIT;
		assay_json_write(&out, assay_sink_array_result(&sink), ASSAY_JSON_PRETTY);
		assay_buf_addch(&out, '\n');
		fwrite(out.ptr, 1, out.len, stdout);
		assay_buf_release(&out);
	}
	/* the array has no place for it (the contract's shape): the terminal report names it */
	const char *kept = text ? NULL : assay_sink_array_work_dir(&sink);

	if (kept)
		fprintf(stderr, "assay: working folders kept in %s\n", kept);
	sink.free(sink.payload);
	assay_suite_free(suite);
out:
	run_args_release(&a);
	free(suite_dir);
	free(checkpoint);
	free(env_entry);
	return rc;
}
