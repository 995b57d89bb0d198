/* The commands of the assay program and the helpers they share. */
#ifndef ASSAY_CLI_CMD_H
#define ASSAY_CLI_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "assay/common.h"

typedef struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} cli_cmd;

int cmd_run(int argc, char **argv);
int cmd_run_case(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_check_suite(int argc, char **argv);
int cmd_skill(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* Option tables: each command declares its options with their help text. */
enum cli_opt_kind {
	CLI_OPT_FLAG,    /* bool */
	CLI_OPT_STRING,  /* const char * */
	CLI_OPT_SIZE,    /* size_t, bytes, with optional K/M/G suffix */
	CLI_OPT_SECONDS, /* double, seconds */
	CLI_OPT_COUNT,   /* size_t */
	CLI_OPT_LIST,    /* assay_strvec: every use adds one (a repeatable option) */
};

typedef struct cli_opt {
	const char *name;   /* long name without "--" */
	char letter;        /* short letter or 0 */
	enum cli_opt_kind kind;
	void *target;
	const char *arg;    /* name of the argument in help, e.g. "DIR" */
	const char *help;
} cli_opt;

void cli_usage(FILE *f, const char *usage, const cli_opt *opts);

/* What cli_parse_words() returns when the command goes on (never an exit status). */
#define CLI_GO (-1)

/*
 * Parses argv[1..] against `opts` (each option's value into its target) for a command of
 * exactly `want` plain words (into `words`). Returns CLI_GO when the command goes on, else the
 * exit status to return at once: CLI_EXIT_OK after --help (the usage on stdout),
 * CLI_EXIT_USAGE for a mistake or another number of words (the usage on stderr).
 */
int cli_parse_words(int argc, char **argv, const cli_opt *opts, const char *usage,
		    const char **words, size_t want);

/* The plain words of a command that takes `min` to `max` of them: into `v`, `n` of them. */
typedef struct cli_words {
	const char **v;
	size_t min, max;
	size_t n;        /* set by cli_parse_count() */
} cli_words;

/* cli_parse_words() for a command of `w->min` to `w->max` plain words. */
int cli_parse_count(int argc, char **argv, const cli_opt *opts, const char *usage,
		    cli_words *w);
/* A mistake on the command line: "assay: error: MSG" (unless NULL), a blank line and the usage
 * on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *usage, const cli_opt *opts, const char *msg);

/* "assay: error: ..." on stderr; returns `code`. */
int cli_error(int code, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* `path` relative to the current folder when it is under it (a pointer into `path`). */
const char *cli_short_path(const char *path);
/* Prints an assay_err, with the source line and a caret when it has a position; returns
 * `code`. */
int cli_report_err(int code, const assay_err *err);
/*
 * A library call failed with code `rc` (`err` says why): prints `err` as cli_report_err()
 * and returns the exit status, CLI_EXIT_USAGE when `rc` is one of the codes listed after `err`
 * (ended by 0: what the command line named is at fault), else CLI_EXIT_INTERNAL.
 */
int cli_fail(int rc, const assay_err *err, ...);

#endif
