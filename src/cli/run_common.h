/* What `assay run` and `assay run-case` share: their options, loading and running. */
#ifndef ASSAY_CLI_RUN_COMMON_H
#define ASSAY_CLI_RUN_COMMON_H

#include "assay/report.h"
#include "assay/run.h"
#include "assay/suite.h"

struct run_args {
	const char *suite_dir;
	const char *entry;
	const char *submission;
	const char *checkpoint;
	assay_strvec groups;         /* --group GLOB (repeatable) */
	assay_strvec cases;          /* --case GLOB (repeatable) */
	assay_strvec case_names;     /* exact checkpoint/group/id: --last-failed */
	assay_strvec hide;           /* more of assay's outputs cases must not read (--repro,
					--format paths), absolute */
	bool strict;                 /* --strict: warnings are errors */
	const char *output;
	const char *work_dir;
	const char *color;
	const char *sandbox;         /* --sandbox on|off|required, or NULL: the suite's */
	const char *network;         /* --network on|off, or NULL: the suite's */
	assay_strvec pass_env;       /* --pass-env NAME (repeatable, globs) */
	const char *plugins;         /* --plugin PATH[:PATH...]: shared-object verifier plug-ins */
	const char *python;          /* --python PATH: the interpreter of Python verifiers */
	bool keep;
	bool full;
	bool quiet;
	bool verbose;
	size_t stdout_cap;
	size_t stderr_cap;
	size_t scratch_size;         /* --scratch-size: the working folders' tmpfs, bytes (0: half
					the memory) */
	size_t scratch_inodes;       /* --scratch-inodes: its files and folders (0: 1,000,000) */
	size_t max_failures;
	size_t jobs;                 /* -j N: cases at once (0: the CPUs assay may run on) */
	bool exitfirst;              /* -x: start no case after the first failure */
	size_t value_cap;
	double kill_grace;
	bool resume;
	struct assay_store *store;   /* resume: the results store holding finished cases */
	double earlier_s;            /* resume: seconds the run's earlier invocations took */
};

/* Initial values of the lists in struct run_args. */
#define RUN_ARGS_LISTS .pass_env = ASSAY_STRVEC_INIT, .groups = ASSAY_STRVEC_INIT, \
		       .cases = ASSAY_STRVEC_INIT, .case_names = ASSAY_STRVEC_INIT, \
		       .hide = ASSAY_STRVEC_INIT

/* The options both commands take (NULL-terminated table entries filled for `a`). */
#define RUN_COMMON_OPTS(a) RUN_COMMON_OPTS_E(a, 'e')
/* The same with `entry_letter` as --entry's short name (0: none; run-case's -e is
 * --environment, as in verification.md's run-case). */
#define RUN_COMMON_OPTS_E(a, entry_letter)                                                      \
	{ "entry", entry_letter, CLI_OPT_STRING, &(a).entry, "CMD",                            \
	  "command to run instead of adapter.command (shell-quoted)" },                       \
	{ "submission", 's', CLI_OPT_STRING, &(a).submission, "DIR",                           \
	  "submission folder copied into every working folder" },                             \
	{ "checkpoint", 'c', CLI_OPT_STRING, &(a).checkpoint, "NAME", "run only this checkpoint" }, \
	{ "group", 'g', CLI_OPT_LIST, &(a).groups, "GLOB",                                     \
	  "run only groups matching GLOB (a name or checkpoint/group; repeatable)" },          \
	{ "case", 0, CLI_OPT_LIST, &(a).cases, "GLOB",                                          \
	  "run only cases matching GLOB (an id or checkpoint/group/id; repeatable)" },         \
	{ "strict", 0, CLI_OPT_FLAG, &(a).strict, NULL,                                         \
	  "make every warning about the suite an error (unknown keys, ...)" },                  \
	{ "keep", 'k', CLI_OPT_FLAG, &(a).keep, NULL, "keep the working folders" },            \
	{ "work-dir", 0, CLI_OPT_STRING, &(a).work_dir, "DIR",                                 \
	  "make working folders under DIR (default $TMPDIR)" },                               \
	{ "scratch-size", 0, CLI_OPT_SIZE, &(a).scratch_size, "BYTES",                         \
	  "bytes the working folders' tmpfs holds (default: half the memory)" },              \
	{ "scratch-inodes", 0, CLI_OPT_COUNT, &(a).scratch_inodes, "N",                        \
	  "files and folders the working folders' tmpfs holds (default 1000000)" },           \
	{ "stdout-cap", 0, CLI_OPT_SIZE, &(a).stdout_cap, "BYTES",                             \
	  "keep at most BYTES of stdout and of each file (default 64M)" },                    \
	{ "stderr-cap", 0, CLI_OPT_SIZE, &(a).stderr_cap, "BYTES",                             \
	  "keep at most BYTES of stderr (default 64M)" },                                     \
	{ "kill-grace", 0, CLI_OPT_SECONDS, &(a).kill_grace, "SECONDS",                        \
	  "wait between SIGTERM and SIGKILL on timeout (default 1)" },                        \
	{ "sandbox", 0, CLI_OPT_STRING, &(a).sandbox, "MODE",                                   \
	  "on, off or required (default: the suite's adapter.sandbox, else on)" },              \
	{ "network", 0, CLI_OPT_STRING, &(a).network, "on|off",                                 \
	  "let cases use the network (default: the suite's adapter.network, else off)" },      \
	{ "plugin", 0, CLI_OPT_STRING, &(a).plugins, "PATH",                                    \
	  "load verifier plug-ins (shared objects; several separated by ':')" },               \
	{ "python", 0, CLI_OPT_STRING, &(a).python, "PATH",                                     \
	  "Python for Python verifiers (default: $ASSAY_PYTHON, else python3)" },               \
	{ "pass-env", 0, CLI_OPT_LIST, &(a).pass_env, "NAME",                                   \
	  "also give cases this variable of assay's environment (a glob; repeatable)" },       \
	{ "jobs", 'j', CLI_OPT_COUNT, &(a).jobs, "N",                                          \
	  "run N cases at once (default, and 0: the CPUs assay may run on)" }

/* Loads the suite (printing warnings and errors). Returns 0 or an exit code. From here to the
 * end of run_common_run, SIGINT, SIGTERM and SIGHUP (unless ignored) ask the run to stop. */
int run_common_load(assay_suite **out, const struct run_args *a);

/* The submission folders suite.yaml names (adapter.submission, a checkpoint's submission) for
 * the cases selected: each must be a folder, or the suite does not load (exit 3) unless
 * --submission replaces them. run_common_load checks them (without --submission); check-suite
 * lists it. Returns 0, or ASSAY_EINVALID with `err` set at the path's place in suite.yaml. */
int run_common_check_submissions(const assay_suite *suite, assay_err *err);

/* The command the cases run: --entry (`entry`, or NULL) must split as a shell's words, and
 * there must be one (adapter.command, else --entry) for an adapter that needs it. Checked by
 * run_common_load before anything is made (the run would find it only after opening the
 * results folder), and by check-suite. Returns 0, or the exit code (CLI_EXIT_USAGE for
 * --entry's, CLI_EXIT_LOAD for the suite's) with `err` set (unsaid). */
int run_common_check_command(const assay_suite *suite, const char *entry, assay_err *err);

/* Has a signal asked the run to stop (since run_common_load)? */
bool run_common_stopping(void);

/*
 * Reads an environment file of the shape SlopCodeBench uses (verification.md's run-case `-e`;
 * run_env.c): `type: local|docker`, `environment.env` (set in assay's environment and passed
 * to cases), `setup.eval_commands` (run in each case's folder before it), `commands.command`
 * and `entry_file` (the entry; its `{entry_file}` is `entry_name`, NULL when not given).
 * `*entry_out` receives the entry command (shell-quoted text,
 * malloc'd; NULL when the file names none). Prints its errors; returns 0 or an exit code.
 */
int run_env_load(const char *path, const char *entry_name, char **entry_out,
		 assay_strvec *pass_env);

/* Frees the lists of `a`. */
void run_args_release(struct run_args *a);

/* Runs the loaded suite with `sinks`; returns the exit code (0 all passed, 1 failures, ...). */
/*
 * The run's working folders on a tmpfs (src/cli/scratch.c): unless --keep, --work-dir,
 * ASSAY_SCRATCH=off or `memory` (the suite sets limits.memory: files on a tmpfs would count
 * against it), puts the process in a mount namespace of its own (with root; without root only
 * when `sandbox` is on, in a user namespace of its own too) and sets opts->scratch_bytes and
 * scratch_inodes. Says (unless -q) when --scratch-size or --scratch-inodes then do nothing.
 * Process-wide; leaves everything as it was when a step fails.
 */
void cli_scratch(assay_run_opts *opts, const struct run_args *a, bool sandbox, bool memory);

/*
 * The CPUs of the harness (src/cli/cpus.c): when `jobs` (cases at once) is below the CPUs
 * assay may run on and ASSAY_PIN is not off, moves the calling thread (and so the threads and
 * case servers it starts) off the first `jobs` of those CPUs, and has every program the library
 * starts get all of them back before its exec. cli_cpus_restore() undoes it. Process-wide;
 * call both from the main thread while no other runs. A step that fails leaves things as they
 * were.
 */
void cli_cpus_keep_off(size_t jobs);
void cli_cpus_restore(void);

/* Whether environment variable `name` turns a feature off: off, 0, false or no (any case). */
bool cli_env_off(const char *name);

/*
 * The file the cases' program runs as, when that is not the one a shell's PATH finds (malloc'd),
 * else NULL: as root with the sandbox (--sandbox, else the suite's) a case runs as nobody, whose
 * search of PATH skips what it cannot reach, so a program named without a folder (--entry's
 * first word, else adapter.command's) may be another file of that name (the start-up warning
 * names it). NULL too when nobody finds none (every case fails to start). For the terminal's
 * reproduce lines (assay_term_opts.program).
 */
char *run_common_program_ran(const assay_suite *suite, const struct run_args *a);

int run_common_run(const assay_suite *suite, const struct run_args *a, assay_sink *sinks,
		   size_t nsinks);

#endif
