/* The subcommands of `assay skill` (cmd_skill*.c). */
#ifndef ASSAY_CLI_CMD_SKILL_H
#define ASSAY_CLI_CMD_SKILL_H

#include <stdlib.h>

#include <stdbool.h>

#include "assay/common.h"
#include "assay/skill.h"

int cli_skill_check(int argc, char **argv);
int cli_skill_lint(int argc, char **argv);
int cli_skill_run(int argc, char **argv);
int cli_skill_compare(int argc, char **argv);
int cli_skill_report(int argc, char **argv);
int cli_skill_package(int argc, char **argv);
int cli_skill_benchmark(int argc, char **argv);
int cli_skill_improve(int argc, char **argv);
int cli_skill_triggers(int argc, char **argv);
int cli_skill_review(int argc, char **argv);
/* Maps a library error to an exit status (printing it): 3 load problems, 4 the rest. */
int cli_skill_exit(int rc, const assay_err *err);
/* A version as the command line names it ("3" or "v3", from 0 to `max`) into *out; false when
 * `s` is not one. */
bool cli_skill_version(const char *s, long max, int *out);
/* --profile NAME into *out: 0, or CLI_EXIT_USAGE after saying NAME is unknown. */
int cli_skill_profile(assay_skill_profile *out, const char *name);

#endif
