/*
 * Report formats, pass policies and repro bundles on the command line (report_args.h): the
 * repeatable --format option, its renderers, and the sinks `assay run` adds for them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "cmd.h"
#include "exit.h"
#include "report_args.h"
#include "run_common.h"
#include "util/banned.h"

const char *report_args_format_help(void)
{
	static char *help; /* kept for the program's life */

	if (!help) {
		assay_buf b = ASSAY_BUF_INIT;

		assay_buf_adds(&b, "also write a report: ");
		assay_format_names(&b);
		assay_buf_adds(&b, " (repeatable)");
		help = assay_buf_detach(&b, NULL);
	}
	return help;
}

int report_args_take(int *argc, char **argv, struct report_args *ra)
{
	int out = 1;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *value = NULL;

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--format") || !strcmp(a, "-f")) {
			if (i + 1 >= *argc)
				return cli_error(CLI_EXIT_USAGE, "option '%s' needs a value", a);
			value = argv[++i];
		} else if (!strncmp(a, "--format=", 9)) {
			value = a + 9;
		} else if (!strncmp(a, "-f", 2)) {
			value = a + 2;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		if (ra->nformats == REPORT_MAX_FORMATS)
			return cli_error(CLI_EXIT_USAGE, "at most %d --format options",
					 REPORT_MAX_FORMATS);
		ra->formats[ra->nformats++] = value;
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

int report_args_check_run(const struct report_args *ra, const char *dir)
{
	for (size_t i = 0; i < ra->nformats; i++) {
		const char *spec = ra->formats[i], *colon = strchr(spec, ':');
		char *name = assay_xstrndup(spec, colon ? (size_t)(colon - spec) : strlen(spec));
		assay_err err = ASSAY_ERR_INIT;
		assay_format f;
		int rc = 0;

		if (assay_format_find(&f, name, &err))
			rc = cli_report_err(CLI_EXIT_USAGE, &err);
		else if (colon && !colon[1])
			rc = cli_error(CLI_EXIT_USAGE, "--format %s: the path after ':' is empty", spec);
		else if (!colon && f == ASSAY_FORMAT_JSONL)
			rc = cli_error(CLI_EXIT_USAGE, "--format jsonl needs a path in assay run (%s/"
						       "reports.jsonl holds these lines already)", dir);
		free(name);
		if (rc)
			return rc;
	}
	return 0;
}

int report_args_open(const struct report_args *ra, const char *dir, const char *output,
		     const char *results, assay_renderer **rs, size_t *n)
{
	assay_render_opts o = ASSAY_RENDER_OPTS_INIT;
	bool stdout_taken = false;
	int rc = 0;

	*n = 0;
	o.text_cap = ra->text_cap;
	o.junit_max_bytes = ra->junit_max_bytes;
	o.results = results;
	for (size_t i = 0; i < ra->nformats; i++) {
		const char *spec = ra->formats[i], *colon = strchr(spec, ':');
		char *name = assay_xstrndup(spec, colon ? (size_t)(colon - spec) : strlen(spec));
		char *path = NULL;
		assay_format f;
		assay_err err = ASSAY_ERR_INIT;

		if (assay_format_find(&f, name, &err)) {
			rc = cli_report_err(CLI_EXIT_USAGE, &err);
		} else if (colon && !colon[1]) {
			rc = cli_error(CLI_EXIT_USAGE, "--format %s: the path after ':' is empty", spec);
		} else {
			path = colon ? assay_xstrdup(colon + 1)
			       : dir ? assay_path_join(dir, assay_format_file(f))
				     : assay_xstrdup(output ? output : "-");
			if (!strcmp(path, "-") && stdout_taken)
				rc = cli_error(CLI_EXIT_USAGE, "only one report can go to standard "
							       "output: give the others a path "
							       "(--format F:PATH)");
			else if (dir && !colon && f == ASSAY_FORMAT_JSONL)
				rc = cli_error(CLI_EXIT_USAGE, "--format jsonl needs a path in assay "
							       "run (%s/reports.jsonl holds these "
							       "lines already)", dir);
			else if ((rc = assay_renderer_open(&rs[*n], f, path, &o, &err)))
				rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
			else
				(*n)++;
			stdout_taken = stdout_taken || !strcmp(path, "-");
		}
		free(name);
		free(path);
		if (rc) {
			while (*n)
				assay_renderer_free(rs[--*n]);
			return rc;
		}
	}
	return 0;
}

/* The assay program as the re-run command of a bundle should name it. */
static char *self_path(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return assay_xstrdup("assay");
	buf[n] = '\0';
	return assay_xstrdup(buf);
}

int report_run_sinks(struct report_args *ra, const struct run_args *a, assay_store *store,
		     assay_sink *sinks, size_t *n)
{
	assay_err err = ASSAY_ERR_INIT;
	int rc = 0;

	if (ra->pass_policy) {
		assay_pass_policy p;

		if (assay_pass_policy_find(&p, ra->pass_policy, &err))
			return cli_report_err(CLI_EXIT_USAGE, &err);
		assay_sink_policy_new(&sinks[(*n)++], p, &ra->policy_passed);
	}
	if (ra->nformats) {
		assay_renderer *rs[REPORT_MAX_FORMATS];
		size_t nrs;
		assay_arena *m = assay_arena_new(0);
		assay_value info;

		if ((rc = report_args_open(ra, a->output, NULL, a->output, rs, &nrs)))
			goto out_formats;
		if (assay_store_run_info(store, &info, m, NULL))
			info = assay_value_null();
		assay_sink_render_new(&sinks[(*n)++],
				      &(assay_sink_render_in){
					      .rs = rs, .n = nrs,
					      .run = info.kind == ASSAY_V_OBJECT ? &info : NULL,
					      .value_cap = a->value_cap, .store = store },
				      NULL);
out_formats:
		assay_arena_free(m);
		if (rc)
			return rc;
	}
	if (ra->repro) {
		char *self = self_path();
		char *suite = assay_path_absolute(a->suite_dir);
		char *submission = a->submission ? assay_path_absolute(a->submission) : NULL;
		assay_repro_opts o = { ra->repro, self, suite, a->entry, submission,
				       a->stdout_cap, a->stderr_cap, a->kill_grace, a->value_cap,
				       a->sandbox, a->network,
				       (const char *const *)a->pass_env.v };

		if (assay_sink_repro_new(&sinks[*n], &o, &err))
			rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
		else
			(*n)++;
		free(self);
		free(suite);
		free(submission);
	}
	return rc;
}

int report_run_exit(const struct report_args *ra, int rc)
{
	if (!ra->pass_policy || rc > CLI_EXIT_FAILED)
		return rc;
	return ra->policy_passed ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
