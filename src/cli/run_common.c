/*
 * Loading and running shared by `assay run` and `assay run-case`: warnings go to stderr,
 * suite errors exit 3 with the file position and the offending line, SIGINT, SIGTERM and
 * SIGHUP (unless ignored) stop the run: the running cases are killed, every finished case is
 * reported. -j N runs N cases at once (default: the CPUs the process may run on, its affinity
 * mask).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/adapter.h"
#include "assay/fs.h"
#include "assay/plugin.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "plugins.h"
#include "run_common.h"
#include "util/banned.h"

static volatile int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static struct sigaction old_int, old_term, old_hup;
static bool signals_caught;

/* SIGINT, SIGTERM and SIGHUP (unless ignored: nohup) stop the run from the moment the suite
 * starts loading: one that comes before the run starts stops it before its first case
 * (interrupted, exit 5), rather than killing assay with its results folder half made. */
static void signals_catch(void)
{
	struct sigaction sa = { 0 };

	if (signals_caught)
		return;
	signals_caught = true;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, NULL, &old_hup);
	if (old_hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
}

bool run_common_stopping(void)
{
	return stop_requested != 0;
}

static void signals_restore(void)
{
	if (!signals_caught)
		return;
	signals_caught = false;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

/*
 * Prints a warning once: a case of a regression group is loaded again, with the same file
 * and the same warnings. Remembers the messages' hashes (FNV-1a) in an open-addressed set.
 */
static struct {
	uint64_t *slots;
	size_t n, alloc;
} seen;

static bool seen_before(const char *msg)
{
	uint64_t h = 1469598103934665603ull;

	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	h |= 1; /* 0 marks a free slot */
	if (2 * (seen.n + 1) > seen.alloc) {
		uint64_t *old = seen.slots;
		size_t oalloc = seen.alloc;

		seen.alloc = seen.alloc ? 2 * seen.alloc : 64;
		seen.slots = assay_xcalloc(seen.alloc, sizeof(*seen.slots));
		seen.n = 0;
		for (size_t i = 0; i < oalloc; i++) {
			if (!old[i])
				continue;
			size_t j = old[i] & (seen.alloc - 1);
			while (seen.slots[j])
				j = (j + 1) & (seen.alloc - 1);
			seen.slots[j] = old[i];
			seen.n++;
		}
		free(old);
	}
	for (size_t j = h & (seen.alloc - 1);; j = (j + 1) & (seen.alloc - 1)) {
		if (seen.slots[j] == h)
			return true;
		if (!seen.slots[j]) {
			seen.slots[j] = h;
			seen.n++;
			return false;
		}
	}
}

/* payload: NULL, or a bool that is true when the suite is strict (each warning is an error). */
static void print_warning(void *payload, const char *msg)
{
	const bool *strict = payload;

	if (!seen_before(msg))
		fprintf(stderr, "assay: %s: %s\n", strict && *strict ? "error" : "warning",
			cli_short_path(msg));
}

static void collect_warning(void *payload, const char *msg)
{
	assay_strvec_push(payload, msg);
}

/*
 * The suite's warnings, printed after it loaded: as errors under strictness, and without the
 * one that the load's error repeats ("W (an error under strict...)"), so each shows once.
 */
static void print_load_warnings(const assay_strvec *w, bool strict, const assay_err *err)
{
	const char *mark = err ? strstr(err->msg, " (an error under strict") : NULL;
	char where[1200] = "";

	strict = strict || mark;
	if (mark) {
		/* the error is located apart from its message: put them together as warned */
		assay_err e = *err;

		e.msg[mark - err->msg] = '\0';
		assay_err_format(&e, where, sizeof(where));
	}
	for (size_t i = 0; i < w->nr; i++)
		if (!mark || strcmp(w->v[i], where))
			print_warning(&strict, w->v[i]);
}

void run_args_release(struct run_args *a)
{
	assay_strvec_clear(&a->pass_env);
	assay_strvec_clear(&a->groups);
	assay_strvec_clear(&a->cases);
	assay_strvec_clear(&a->case_names);
	assay_strvec_clear(&a->hide);
	free(seen.slots);
	seen.slots = NULL;
	seen.n = seen.alloc = 0;
}

/*
 * One warning per group of which the selection (--case, --last-failed, run-case's globs) took
 * some cases only, when its cases depend on each other's state (`isolated: false`, or an
 * adapter with `serial_groups`: the api adapter's server per group): the cases kept run without
 * the ones that set that state up.
 */
static void warn_partial_groups(const assay_suite *s)
{
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		const assay_checkpoint *cp = &s->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			const assay_group *g = &cp->groups[j];
			if (!assay_group_shares_state(s, g) || !g->ncases || g->ncases >= g->ncases_found)
				continue;
			fprintf(stderr,
				"assay: warning: %s/%s: %zu of %zu cases selected; its cases depend "
				"on each other's state (%s): the others did not run (-g %s/%s "
				"runs it whole)\n",
				cp->name, g->name, g->ncases, g->ncases_found,
				g->isolated ? "one server per group" : "isolated: false", cp->name,
				g->name);
		}
	}
}

/*
 * The default -j: the CPUs this process may run on (its affinity mask, which taskset, cgroup
 * cpusets and Slurm's --cpus-per-task set), not every online CPU of the machine; the online
 * count when the mask cannot be read.
 */
static size_t usable_cpus(void)
{
	cpu_set_t set;
	long n;

	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (size_t)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

/* Python verifiers (verification.md "Verifier Protocol"): --python, and which Python they run
 * with, said once on stderr. */
static void say_python(const assay_suite *s, const struct run_args *a)
{
	const char *env = getenv("ASSAY_PYTHON");

	if (a->python)
		assay_python_set(a->python);
	for (size_t i = 0; i < s->ncheckpoints; i++)
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++)
			if (s->checkpoints[i].groups[j].verifier_python) {
				if (!a->quiet)
					fprintf(stderr, "assay: Python verifiers run with '%s' "
							"(%s)\n", assay_python_get(),
						a->python ? "--python"
						: env && *env ? "ASSAY_PYTHON"
						: "the default; choose with --python or "
						  "ASSAY_PYTHON");
				return;
			}
}

/* The sandbox a case of `assay run` gets, as far as its ids go: nobody's, when assay is root. */
static const assay_sandbox case_ids = { .enabled = true };

/* May nobody (uid and gid 65534, no other group: the ids of case_ids) search folder `dir` and
 * every folder above it? Asked of the kernel in a child that becomes nobody, so that ACLs and
 * every other rule count, not only the mode bits; of `dir` made absolute: access() checks no
 * folder above a relative path's start (the current folder's). The answer comes back through
 * a pipe, not the exit status: with SIGCHLD ignored (inherited through exec), the kernel reaps
 * the child and waitpid() has no status to give. The CLI may fork: the child runs no code but
 * this and _exit. A check that cannot be made says yes. */
static bool nobody_may_pass(const char *dir)
{
	char *abs = assay_path_absolute(dir), answer = 'y';
	int fds[2], status;
	pid_t pid = -1;

	if (!pipe2(fds, O_CLOEXEC)) {
		pid = fork();
		if (pid == 0) {
			char a = setgroups(0, NULL) || setgid(65534) || setuid(65534) ? 'y'
				 : access(abs, X_OK)				       ? 'n'
											       : 'y';

			_exit(write(fds[1], &a, 1) == 1 ? 0 : 1);
		}
		close(fds[1]);
		if (pid > 0)
			while (read(fds[0], &answer, 1) < 0 && errno == EINTR)
				;
		close(fds[0]);
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	free(abs);
	return answer != 'n';
}

/*
 * As root with the sandbox, a case runs as nobody, which must pass every folder above the run's
 * folders (docs/security.md): a --work-dir or TMPDIR made by `mktemp -d` (mode 700) made every
 * case fail to start with "cannot run PROGRAM: Permission denied", which names the program, not
 * the folder. Refuses the run (CLI_EXIT_USAGE, no case run) when the kernel says nobody cannot
 * pass (an ACL counts either way), naming the first folder whose mode bits close the way, or
 * the folder itself when none does (an ACL closes it).
 */
static int check_work_root(const char *work_dir)
{
	const char *root = work_dir ? work_dir : assay_fs_tmp_parent();
	char *closed, *closed_acl = NULL;
	const char *name;
	struct stat st;
	int rc;

	if (nobody_may_pass(root))
		return 0;
	closed = assay_sandbox_unreachable(&case_ids, root);
	if (!closed) { /* an ACL closes the way: the first folder on it nobody cannot pass */
		closed_acl = assay_path_absolute(root);
		for (char *slash = strchr(closed_acl + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			bool passes = nobody_may_pass(closed_acl);

			*slash = '/';
			if (!passes) {
				*slash = '\0';
				break;
			}
		}
	}
	name = closed ? closed : closed_acl;
	/* (one that does not resolve is no folder: --work-dir said so already) */
	if (stat(name, &st)) {
		free(closed);
		free(closed_acl);
		return 0;
	}
	if (closed)
		rc = cli_error(CLI_EXIT_USAGE,
			       "cases run as nobody (assay runs as root, with the sandbox), and nobody "
			       "cannot pass %s (mode %04o) on the way to the working folders (%s %s): "
			       "no case was run; `chmod o+x %s`, or give --work-dir a folder nobody "
			       "can reach",
			       name, (unsigned)(st.st_mode & 07777), work_dir ? "--work-dir" : "TMPDIR",
			       root, name);
	else
		rc = cli_error(CLI_EXIT_USAGE,
			       "cases run as nobody (assay runs as root, with the sandbox), and nobody "
			       "cannot pass %s (%s %s), whose mode bits let it but an ACL does not "
			       "(getfacl): no case was run; give --work-dir a folder nobody can reach",
			       name, work_dir ? "--work-dir" : "TMPDIR", root);
	free(closed);
	free(closed_acl);
	return rc;
}

/* Why `path`, given as a folder, is none. */
static const char *no_folder(const char *path)
{
	struct stat st;

	return stat(path, &st) ? "no such folder" : "not a folder";
}

/* The mapping of checkpoint `name` in suite.yaml, or NULL. */
static const assay_value *checkpoint_node(const assay_suite *suite, const char *name)
{
	const assay_member *cps = assay_object_member(&suite->raw, "checkpoints");
	const assay_member *cp = cps ? assay_object_member(&cps->value, name) : NULL;

	return cp ? &cp->value : NULL;
}

int run_common_check_submissions(const assay_suite *suite, assay_err *err)
{
	const assay_member *m = assay_object_member(&suite->adapter_config, "submission");

	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];
		const assay_value *node = checkpoint_node(suite, cp->name);
		const assay_member *own = node ? assay_object_member(node, "submission") : NULL;
		const assay_value *at = own ? &own->value : m ? &m->value : &suite->raw;
		size_t n = 0;

		for (size_t j = 0; j < cp->ngroups; j++)
			n += cp->groups[j].ncases;
		if (!n || !cp->submission || assay_fs_is_dir(cp->submission))
			continue;
		return assay_suite_error_at(suite, at, err,
					    "%s %s: %s (the folder each case's working folder starts "
					    "as a copy of; or give --submission)",
					    own ? "checkpoint submission" : "adapter.submission",
					    cp->submission, no_folder(cp->submission));
	}
	return 0;
}

int run_common_check_command(const assay_suite *suite, const char *entry, assay_err *err)
{
	assay_strvec words = ASSAY_STRVEC_INIT;
	int rc = 0;

	if (entry && assay_shell_split(&words, entry, err)) {
		char msg[1200];

		assay_err_format(err, msg, sizeof(msg));
		assay_err_clear(err); /* (assay_err_set keeps a first error) */
		assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "--entry: %s", msg);
		rc = CLI_EXIT_USAGE;
	} else if (!(entry ? words.nr : suite->command.nr) && suite->adapter->needs_command) {
		assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			      "no command to run: set adapter.command in suite.yaml or pass --entry");
		rc = entry ? CLI_EXIT_USAGE : CLI_EXIT_LOAD;
	}
	assay_strvec_clear(&words);
	return rc;
}

/*
 * What the command line and the suite name, checked before anything is made (the results
 * folder included): the command (run_common_check_command); --submission and --work-dir must
 * be folders (else the submission folders suite.yaml names: run_common_check_submissions); as
 * root with the sandbox on, nobody must be able to reach the working folders (check_work_root).
 * Returns 0 or an exit code.
 */
static int check_folders(const assay_suite *suite, const struct run_args *a)
{
	char *submission = a->submission ? assay_path_absolute(a->submission) : NULL;
	bool off = a->sandbox ? !strcmp(a->sandbox, "off") : suite->sandbox == ASSAY_SANDBOX_OFF;
	assay_err err = ASSAY_ERR_INIT;
	int rc = 0;

	if ((rc = run_common_check_command(suite, a->entry, &err)))
		rc = cli_report_err(rc, &err);
	else if (submission && !assay_fs_is_dir(submission))
		rc = cli_error(CLI_EXIT_USAGE, "--submission %s: %s", a->submission,
			       no_folder(submission));
	else if (!submission && run_common_check_submissions(suite, &err))
		rc = cli_report_err(CLI_EXIT_LOAD, &err);
	else if (a->work_dir && !assay_fs_is_dir(a->work_dir))
		rc = cli_error(CLI_EXIT_USAGE, "--work-dir %s: %s", a->work_dir,
			       no_folder(a->work_dir));
	else if (!a->work_dir && !assay_fs_is_dir(assay_fs_tmp_parent()))
		rc = cli_error(CLI_EXIT_USAGE, "TMPDIR %s: %s (the working folders go there "
						"without --work-dir)", assay_fs_tmp_parent(),
			       no_folder(assay_fs_tmp_parent()));
	else if (!off && geteuid() == 0)
		rc = check_work_root(a->work_dir);
	free(submission);
	return rc;
}

int run_common_load(assay_suite **out, const struct run_args *a)
{
	assay_suite_filter filter = { a->checkpoint, NULL, NULL, NULL, a->strict };
	assay_strvec warnings = ASSAY_STRVEC_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	signals_catch();
	if (a->groups.nr)
		filter.group_globs = (const char *const *)a->groups.v;
	if (a->cases.nr)
		filter.case_globs = (const char *const *)a->cases.v;
	if (a->case_names.nr)
		filter.case_names = (const char *const *)a->case_names.v;
	if (a->plugins && cli_load_plugins(a->plugins))
		return CLI_EXIT_LOAD;
	rc = assay_suite_load(out, a->suite_dir, &filter, collect_warning, &warnings, &err);
	if (a->quiet) {
		/* -q never hides a warning that changes what runs: case files left out of the run
		 * by a suite mistake (a misspelled group folder: "... never run"), a --group or
		 * --case pattern that matched nothing (select.c: "no case matches 'x'") */
		assay_strvec keep = ASSAY_STRVEC_INIT;

		for (size_t i = 0; i < warnings.nr; i++)
			if (strstr(warnings.v[i], " never run") ||
			    !strncmp(warnings.v[i], "no case ", 8) ||
			    !strncmp(warnings.v[i], "no group ", 9))
				assay_strvec_push(&keep, warnings.v[i]);
		assay_strvec_clear(&warnings);
		warnings = keep;
	}
	print_load_warnings(&warnings, a->strict || (!rc && (*out)->strict), rc ? &err : NULL);
	assay_strvec_clear(&warnings);
	if (rc == ASSAY_ENOMATCH)
		return cli_report_err(CLI_EXIT_USAGE, &err);
	if (rc)
		return cli_report_err(CLI_EXIT_LOAD, &err);
	if (!(*out)->ncases) {
		/* a run that tests nothing must not pass: a misspelled checkpoint path, say */
		assay_suite_free(*out);
		*out = NULL;
		return cli_error(CLI_EXIT_LOAD, "the suite has no cases: a group's cases go in "
						"<checkpoint path>/<group>/ (suite-format.md, \"Layout\")");
	}
	if ((rc = check_folders(*out, a))) {
		assay_suite_free(*out);
		*out = NULL;
		return rc;
	}
	if (!a->quiet)
		warn_partial_groups(*out);
	say_python(*out, a);
	return 0;
}

/*
 * limits.memory as a memory cgroup per case (docs/security.md, "Limits"): enabled here, unless
 * ASSAY_NO_CGROUP is set, and case cgroups left by an assay that was killed are removed. Said
 * at start, unless -q: the cgroups used, or why not when the suite (adapter, checkpoint or group)
 * sets limits.memory, and what was removed.
 */
/* Does a group of the suite set limits.memory (suite.yaml's, a checkpoint's or its own)? */
static bool sets_memory(const assay_suite *suite)
{
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		for (size_t j = 0; j < suite->checkpoints[i].ngroups; j++)
			if (suite->checkpoints[i].groups[j].limits.memory_bytes > 0)
				return true;
	return false;
}

static void memory_cgroups(const assay_suite *suite, const struct run_args *a)
{
	assay_cgroup_report rep;
	bool wanted = sets_memory(suite), on = false;
	const char *no = getenv("ASSAY_NO_CGROUP");
	int swept = 0;

	if (no && *no) {
		snprintf(rep.why, sizeof(rep.why), "ASSAY_NO_CGROUP is set");
	} else if ((on = assay_memory_cgroups_enable(&rep))) {
		swept = assay_memory_cgroups_sweep();
	}
	if (a->quiet)
		return;
	if (swept)
		fprintf(stderr, "assay: removed %d case memory cgroup%s left by an assay that is "
				"gone, in %s\n", swept, swept == 1 ? "" : "s", rep.base);
	if (wanted && on)
		fprintf(stderr, "assay: limits.memory: a memory cgroup (v%d) per case, in %s\n",
			rep.version, rep.base);
	else if (wanted)
		fprintf(stderr, "assay: warning: no memory cgroup per case (%s): limits.memory "
				"falls back to RLIMIT_DATA, which does not bound shared or memfd "
				"memory, and max_rss to per-process peaks\n", rep.why);
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
	memory_cgroups(suite, a);
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

/* The first `name` along assay's PATH that root may run and, with `as_nobody`, that nobody
 * may reach and run (malloc'd), or NULL. */
static char *path_search(const char *name, bool as_nobody)
{
	const char *path = getenv("PATH"), *p = path;
	char *found = NULL;

	while (p && *p && !found) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *dir = assay_xstrndup(p, n), *file = assay_path_join(dir, name), *closed = NULL;
		struct stat st;

		/* a relative folder would be one in the case's working folder, not made yet */
		if (dir[0] == '/' && !stat(file, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111) &&
		    !(as_nobody && (closed = assay_sandbox_unreachable(&case_ids, file))))
			found = assay_xstrdup(file);
		free(closed);
		free(file);
		free(dir);
		p = colon ? colon + 1 : NULL;
	}
	return found;
}

/* Does every group's env (the adapter's, then its checkpoint's) set or unset PATH? Then no
 * case searches assay's PATH (the supervisor searches the case's). */
static bool every_group_sets_path(const assay_suite *suite)
{
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		for (size_t j = 0; j < suite->checkpoints[i].ngroups; j++) {
			const assay_strvec *env = &suite->checkpoints[i].groups[j].env;
			bool sets = false;

			for (size_t k = 0; k < env->nr && !sets; k++)
				sets = !strncmp(env->v[k], "PATH", 4) &&
				       (env->v[k][4] == '=' || !env->v[k][4]);
			if (!sets)
				return false;
		}
	return true;
}

/* The word naming the cases' program (--entry's first, else adapter.command's), malloc'd, or
 * NULL when it has a folder (it is no search of PATH), there is none, or the suite's env sets
 * PATH for every group (what the cases search is not assay's PATH). */
static char *program_word(const assay_suite *suite, const struct run_args *a)
{
	assay_strvec argv = ASSAY_STRVEC_INIT;
	const char *name = NULL;
	char *word = NULL;

	if (every_group_sets_path(suite))
		return NULL;
	if (a->entry) {
		if (!assay_shell_split(&argv, a->entry, NULL) && argv.nr)
			name = argv.v[0];
	} else if (suite->command.nr) {
		name = suite->command.v[0];
	}
	if (name && *name && !strchr(name, '/'))
		word = assay_xstrdup(name);
	assay_strvec_clear(&argv);
	return word;
}

/* Do the cases run as nobody: assay runs as root, with the sandbox (--sandbox, else the
 * suite's)? */
static bool cases_as_nobody(const assay_suite *suite, const struct run_args *a)
{
	if (geteuid() != 0)
		return false;
	if (a->sandbox)
		return strcmp(a->sandbox, "off") != 0;
	return suite->sandbox != ASSAY_SANDBOX_OFF;
}

/* When cases run as nobody and their program is named without a folder: that word, what a
 * shell's PATH finds for it and, when that finds one, what nobody's search finds (each malloc'd
 * or NULL). Else all three NULL. */
static void program_searches(const assay_suite *suite, const struct run_args *a, char **name,
			     char **root_finds, char **nobody_finds)
{
	*name = cases_as_nobody(suite, a) ? program_word(suite, a) : NULL;
	*root_finds = *name ? path_search(*name, false) : NULL;
	*nobody_finds = *root_finds ? path_search(*name, true) : NULL;
}

char *run_common_program_ran(const assay_suite *suite, const struct run_args *a)
{
	char *name, *root_finds, *nobody_finds;

	program_searches(suite, a, &name, &root_finds, &nobody_finds);
	if (nobody_finds && !strcmp(nobody_finds, root_finds)) {
		free(nobody_finds);
		nobody_finds = NULL;
	}
	free(name);
	free(root_finds);
	return nobody_finds;
}

/*
 * As root with the sandbox, a case runs as nobody, whose search of PATH skips what it cannot
 * reach: a `python3` under /root (pyenv's shims, mode 0700 above) became /usr/bin/python3, a
 * program of another version with other modules, with no word said; or none at all. Says so,
 * once, for the program the cases run when it is named without a folder (the terminal's
 * reproduce lines name the one that ran: run_common_program_ran).
 */
static void warn_program_out_of_reach(const assay_suite *suite, const struct run_args *a)
{
	char *name, *root_finds, *nobody_finds;

	program_searches(suite, a, &name, &root_finds, &nobody_finds);
	if (root_finds && !nobody_finds)
		fprintf(stderr,
			"assay: warning: cases run as nobody (assay runs as root, with the sandbox), "
			"and nobody cannot reach %s, the `%s` on PATH, nor any other: every case "
			"would fail to start; put it where nobody can reach it, or --sandbox off\n",
			root_finds, name);
	else if (root_finds && strcmp(nobody_finds, root_finds))
		fprintf(stderr,
			"assay: warning: cases run as nobody (assay runs as root, with the sandbox), "
			"and nobody cannot reach %s, the `%s` on PATH: the cases run %s instead; put "
			"it where nobody can reach it, or --sandbox off\n",
			root_finds, name, nobody_finds);
	free(name);
	free(root_finds);
	free(nobody_finds);
}

int run_common_run(const assay_suite *suite, const struct run_args *a, assay_sink *sinks,
		   size_t nsinks)
{
	assay_run_opts opts = ASSAY_RUN_OPTS_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_tally total = { 0 };
	char *submission = a->submission ? assay_path_absolute(a->submission) : NULL;
	assay_strvec hide = ASSAY_STRVEC_INIT;
	int rc;

	opts.entry = a->entry;
	opts.submission = submission;
	opts.work_root = a->work_dir;
	opts.keep = a->keep;
	opts.no_case_servers = cli_env_off("ASSAY_CASE_SERVER");
	opts.out_cap = a->stdout_cap;
	opts.err_cap = a->stderr_cap;
	opts.kill_grace_s = a->kill_grace;
	opts.sinks = sinks;
	opts.nsinks = nsinks;
	opts.stop = &stop_requested;
	opts.fail_fast = a->exitfirst;
	opts.jobs = a->jobs;
	opts.earlier_s = a->earlier_s;
	if (!opts.jobs)
		opts.jobs = usable_cpus();
	if (a->store) {
		opts.previous = assay_store_previous;
		opts.previous_payload = a->store;
	}
	opts.warn = a->quiet ? NULL : print_warning;
	opts.warn_payload = (void *)&suite->strict; /* --strict or strict: true in suite.yaml */
	opts.pass_env = (const char *const *)a->pass_env.v;
	/* what assay writes holds expected values: the results folder, --repro, --format paths */
	if (a->output) {
		char *o = assay_path_absolute(a->output);

		assay_strvec_push(&hide, o);
		free(o);
	}
	assay_strvec_pushv(&hide, (const char *const *)a->hide.v);
	opts.hide_paths = (const char *const *)hide.v;
	rc = sandbox_options(&opts, suite, a);
	if (!rc && !a->quiet)
		warn_program_out_of_reach(suite, a); /* as root with the sandbox only */
	if (rc) {
		free(submission);
		assay_strvec_clear(&hide);
		return rc;
	}

	/* the folders of runs killed before they could remove them (SIGKILL, a crash) */
	assay_strvec gone = ASSAY_STRVEC_INIT;

	cli_scratch(&opts, a,
		    (opts.sandbox >= 0 ? opts.sandbox : (int)suite->sandbox) != ASSAY_SANDBOX_OFF,
		    sets_memory(suite));
	assay_run_sweep_roots(opts.work_root, &gone);
	for (size_t i = 0; i < gone.nr && !a->quiet; i++)
		fprintf(stderr, "assay: removed %s, the working folders of a run that was killed\n",
			gone.v[i]);
	assay_strvec_clear(&gone);

	signals_catch(); /* (already, from run_common_load) */
	cli_cpus_keep_off(opts.jobs);
	rc = assay_run_suite(suite, &opts, &total, &err);
	cli_cpus_restore();
	assay_plugins_shutdown();
	signals_restore();
	free(submission);
	assay_strvec_clear(&hide);

	/* what the command line gave (--entry) is a usage error (2); the rest is the suite's
	 * (adapter.command, adapter.submission, ...): it does not load, 3 */
	if (rc == ASSAY_EINVALID && a->entry)
		return cli_report_err(CLI_EXIT_USAGE, &err);
	if (rc == ASSAY_EINVALID || rc == ASSAY_ENOTFOUND)
		return cli_report_err(CLI_EXIT_LOAD, &err);
	if (rc)
		return cli_report_err(CLI_EXIT_INTERNAL, &err);
	/* An interrupted run has fewer cases than the suite: it did not pass, and says so apart
	 * from a failure, so that a batch system retries it (scale-out.md) */
	if (stop_requested && total.total < suite->ncases)
		return CLI_EXIT_INTERRUPTED;
	/* case files a suite mistake left out of the run did not pass either (issue 18.3) */
	return total.passed == total.total && total.total == suite->ncases &&
			       !suite->unrun_case_files
		       ? CLI_EXIT_OK
		       : CLI_EXIT_FAILED;
}
