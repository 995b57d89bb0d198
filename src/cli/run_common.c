/*
 * Loading and running shared by `assay run` and `assay run-case`: warnings go to stderr,
 * suite errors exit 3 with the file position and the offending line, SIGINT/SIGTERM stop the
 * run after the current case so that every finished case is reported.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

static volatile int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void print_warning(void *payload, const char *msg)
{
	(void)payload;
	fprintf(stderr, "assay: warning: %s\n", msg);
}

int run_common_load(assay_suite **out, const struct run_args *a)
{
	struct run_args *m = (struct run_args *)a;
	assay_suite_filter filter = { a->checkpoint, NULL, NULL };
	assay_err err = ASSAY_ERR_INIT;

	m->group_globs[0] = a->group;
	m->case_globs[0] = a->kase;
	if (a->group)
		filter.group_globs = m->group_globs;
	if (a->kase)
		filter.case_globs = m->case_globs;

	if (assay_suite_load(out, a->suite_dir, &filter, a->quiet ? NULL : print_warning, NULL,
			     &err))
		return cli_report_err(CLI_EXIT_LOAD, &err);
	if (!(*out)->ncases && !a->quiet)
		fprintf(stderr, "assay: warning: no case matches\n");
	return 0;
}

/*
 * --sandbox and --network over the suite's settings; then, with the sandbox on, the kernel is
 * asked once which layers it grants: a refused layer is a warning (cases run without it), or an
 * error when the sandbox is required. Returns 0 or an exit code.
 */
static int sandbox_options(assay_run_opts *opts, const assay_suite *suite,
			   const struct run_args *a)
{
	assay_sandbox_report rep;
	assay_err err = ASSAY_ERR_INIT;
	int mode;

	if (a->sandbox) {
		if (!strcmp(a->sandbox, "on"))
			opts->sandbox = ASSAY_SANDBOX_ON;
		else if (!strcmp(a->sandbox, "off"))
			opts->sandbox = ASSAY_SANDBOX_OFF;
		else if (!strcmp(a->sandbox, "required"))
			opts->sandbox = ASSAY_SANDBOX_REQUIRED;
		else
			return cli_error(CLI_EXIT_USAGE, "--sandbox takes on, off or required");
	}
	if (a->network) {
		if (strcmp(a->network, "on") && strcmp(a->network, "off"))
			return cli_error(CLI_EXIT_USAGE, "--network takes on or off");
		opts->network = !strcmp(a->network, "on");
	}
	mode = opts->sandbox >= 0 ? opts->sandbox : (int)suite->sandbox;
	if (mode == ASSAY_SANDBOX_OFF)
		return 0;
	if (assay_sandbox_probe(&rep, &err))
		return cli_report_err(CLI_EXIT_INTERNAL, &err);
	for (unsigned i = 0; i < ASSAY_SANDBOX_NLAYERS; i++) {
		unsigned bit = 1u << i;

		if (!(rep.refused & bit))
			continue;
		if (mode == ASSAY_SANDBOX_REQUIRED)
			return cli_error(CLI_EXIT_INTERNAL,
					 "the sandbox is required, but this system refuses its "
					 "%s layer (%s): no case was run",
					 assay_sandbox_layer_name(bit), strerror(rep.refused_errno[i]));
		if (!a->quiet)
			fprintf(stderr, "assay: warning: sandbox: %s unavailable (%s); cases run "
					"without it\n", assay_sandbox_layer_name(bit),
				strerror(rep.refused_errno[i]));
	}
	return 0;
}

int run_common_run(const assay_suite *suite, const struct run_args *a, assay_sink *sinks,
		   size_t nsinks)
{
	assay_run_opts opts = ASSAY_RUN_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_tally total = { 0 };
	char *submission = a->submission ? assay_path_absolute(a->submission) : NULL;
	struct sigaction sa = { 0 }, old_int, old_term;
	const char *hide[2] = { NULL, NULL };
	int rc;

	opts.entry = a->entry;
	opts.submission = submission;
	opts.work_root = a->work_dir;
	opts.keep = a->keep;
	opts.out_cap = a->stdout_cap;
	opts.err_cap = a->stderr_cap;
	opts.kill_grace_s = a->kill_grace;
	opts.sinks = sinks;
	opts.nsinks = nsinks;
	opts.stop = &stop_requested;
	if (a->store) {
		opts.previous = assay_store_previous;
		opts.previous_payload = a->store;
	}
	opts.warn = a->quiet ? NULL : print_warning;
	opts.pass_env = (const char *const *)a->pass_env.v;
	hide[0] = a->output ? assay_path_absolute(a->output) : NULL;
	opts.hide_paths = hide;
	if ((rc = sandbox_options(&opts, suite, a))) {
		free(submission);
		free((char *)hide[0]);
		return rc;
	}

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = assay_run_suite(suite, &opts, &total, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(submission);
	free((char *)hide[0]);

	if (rc == ASSAY_EINVALID || rc == ASSAY_ENOTFOUND)
		return cli_report_err(CLI_EXIT_USAGE, &err);
	if (rc)
		return cli_report_err(CLI_EXIT_INTERNAL, &err);
	/* An interrupted run has fewer cases than the suite: it did not pass. */
	return total.passed == total.total && total.total == suite->ncases ? CLI_EXIT_OK
									   : CLI_EXIT_FAILED;
}
