/*
 * The assay program: finds the command in a table (git's commands[], libgit2's cli_cmds[]) and
 * runs it; checks that standard output was written and closed without error. It ignores SIGPIPE,
 * so a reader that goes away (`assay ... | head`) is an EPIPE on write rather than a killed harness
 * (the library never changes process-wide state itself), and makes itself non-dumpable, so no
 * program under test running as the same user can ptrace it or read its memory. It keeps
 * glibc's heap from shrinking and growing again case after case (heap_keep()).
 */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <stdbool.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "cmd.h"
#include "exit.h"
#include "util/banned.h"

/* Is standard output a pipe whose reader has gone? */
static bool reader_gone(void)
{
	struct pollfd p = { STDOUT_FILENO, POLLOUT, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * glibc gives the top of its heap back to the kernel once 128 KiB of it is free (more after a
 * big block is freed), and asks for it again a case later: a run's per-case allocations moved
 * the break up and down dozens to thousands of times in 4,000 cases, each page touched again a
 * page fault. So the program keeps what it had: the top given back only past 16 MiB free,
 * grown 4 MiB at a time; blocks of 4 MiB and more (a big capture, a big document) are mapped
 * apart, as before, and go back to the kernel when freed, so a case that printed tens of MB
 * leaves no more behind than before. Setting the first two would freeze glibc's sliding mmap
 * threshold at 128 KiB: it is set too, first, and where glibc refuses it (a 32-bit one, whose
 * most is 512 KiB) nothing is changed. bench/main_cpu.sh: about a tenth of the main process's
 * CPU per case on a machine whose page faults are dear (docs/decisions.md). Not when the user
 * tunes glibc's malloc (GLIBC_TUNABLES): theirs stands.
 */
static void heap_keep(void)
{
#ifdef M_TRIM_THRESHOLD
	const char *t = getenv("GLIBC_TUNABLES");

	if ((t && strstr(t, "glibc.malloc.")) || !mallopt(M_MMAP_THRESHOLD, 4 << 20))
		return;
	mallopt(M_TRIM_THRESHOLD, 16 << 20);
	mallopt(M_TOP_PAD, 4 << 20);
#endif
}

static const cli_cmd commands[] = {
	{ "run", cmd_run, "Run a suite against a submission and write reports" },
	{ "run-case", cmd_run_case, "Run cases and show their verdicts (text, or a JSON array)" },
	{ "show", cmd_show, "Print one case's whole report from a results folder" },
	{ "check-suite", cmd_check_suite, "List every problem of a suite; --mutate: find checks that cannot fail" },
	{ "skill", cmd_skill, "Evaluate an agent skill: workspaces, runs, grades, comparisons" },
	{ "report", cmd_report, "Render a results folder as JSON, JUnit, TAP, Markdown, HTML, Parquet" },
	{ "compare", cmd_compare, "Compare two runs: flips, deltas, and whether B is worse" },
	{ "merge", cmd_merge, "Merge the results of a sharded run's shards (run --shard I/N) into one" },
	{ "version", cmd_version, "Print the version" },
};

static void usage(FILE *f)
{
	fputs("usage: assay <command> [options]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'assay help <command>' (or 'assay <command> --help') describes a command;\n"
	      "'man assay' describes them all.\n", f);
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("assay %s\n", ASSAY_VERSION);
	return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		for (size_t i = 0; argc > 2 && i < sizeof(commands) / sizeof(*commands); i++) {
			char *help[] = { argv[2], "--help", NULL };

			if (!strcmp(argv[2], commands[i].name))
				return commands[i].fn(2, help);
		}
		if (argc > 2) {
			fprintf(stderr, "assay: error: unknown command '%s'\n\n", argv[2]);
			usage(stderr);
			return CLI_EXIT_USAGE;
		}
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc, argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(*commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* Process-wide state is the program's to change, not the library's. */
		signal(SIGPIPE, SIG_IGN);
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		heap_keep();
		rc = commands[i].fn(argc - 1, argv + 1);
		errno = 0;
		if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
			/* A reader that closed the pipe (`| head`) wanted no more: not an error.
			 * (SIGPIPE is ignored above, so the write says EPIPE; an earlier write may
			 * have said it, so a pipe with no reader is asked too.) */
			if (errno == EPIPE || reader_gone())
				return rc;
			fprintf(stderr, "assay: error: writing standard output failed: %s\n",
				strerror(errno));
			return CLI_EXIT_INTERNAL;
		}
		return rc;
	}
	fprintf(stderr, "assay: error: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
