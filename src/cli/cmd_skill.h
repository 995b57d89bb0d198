/* The subcommands of `assay skill` (cmd_skill*.c). */
#ifndef ASSAY_CLI_CMD_SKILL_H
#define ASSAY_CLI_CMD_SKILL_H

#include <stdlib.h>

#include "assay/common.h"

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

#endif
