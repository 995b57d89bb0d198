/* Exit codes of the assay command (suite-format.md; never renumber). */
#ifndef ASSAY_CLI_EXIT_H
#define ASSAY_CLI_EXIT_H

enum cli_exit {
	CLI_EXIT_OK = 0,       /* every case passed */
	CLI_EXIT_FAILED = 1,   /* some case failed (or could not be loaded or run) */
	CLI_EXIT_USAGE = 2,    /* the command line was wrong */
	CLI_EXIT_LOAD = 3,     /* the suite could not be loaded */
	CLI_EXIT_INTERNAL = 4, /* assay itself failed (I/O, processes, a bug) */
	CLI_EXIT_INTERRUPTED = 5, /* a signal (SIGINT, SIGTERM, SIGHUP) stopped the run: not every
				     case ran; --resume completes it */
};

#endif
