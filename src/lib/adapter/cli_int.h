/*
 * Internals of the cli adapter (src/lib/adapter/cli_*.c). Never installed.
 */
#ifndef ASSAY_CLI_INT_H
#define ASSAY_CLI_INT_H

#include "assay/adapter.h"

/* What the cli adapter reads of a case (its adapter_data), all in the case's arena. */
struct cli_case {
	const char **argv;              /* the case's arguments, NULL-terminated */
	size_t argc;
	const char *stdin_data;         /* NULL: empty standard input */
	size_t stdin_len;
	assay_input_file *input_files;
	size_t ninput_files;
};

/* assay_adapter.load_case of the cli adapter (cli_input.c). */
int assay_cli__load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			 assay_err *err);

/* assay_adapter.prepare_case of the cli adapter: a shell-quoted `arguments` string becomes a
 * list before {{static:}} substitution (cli_input.c). */
int assay_cli__prepare_case(assay_value *def, const assay_case_load_ctx *ctx, assay_err *err);

/* assay_adapter.case_inputs of the cli adapter (cli_input.c). */
void assay_cli__case_inputs(const assay_case *c, assay_case_inputs *out);

/* assay_adapter.load_suite of the cli adapter: adapter.tracked_files (cli_suite.c). */
int assay_cli__load_suite(assay_suite *s, const assay_value *config, assay_err *err);

/* assay_adapter.repro_inputs of the cli adapter: `arguments` and `stdin` (cli_suite.c). */
bool assay_cli__repro_inputs(const assay_value *def, const assay_value **args,
			     const assay_value **stdin_value);

#endif
