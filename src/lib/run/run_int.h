/*
 * Internals of the run module (src/lib/run), shared by its files. Never installed.
 */
#ifndef ASSAY_RUN_INT_H
#define ASSAY_RUN_INT_H

#include "assay/adapter.h"
#include "assay/run.h"

/* What every case of a run may do, and the lists it borrows (sandbox.c). */
struct assay_run__sandbox {
	assay_sandbox sb;
	assay_strvec read;  /* static assets, adapter.read_paths, folders of the command's files */
	assay_strvec hide;  /* the suite, the caller's hide_paths */
};

/* Fills `out` for `suite` run with `opts` and argv prefix `command`. */
void assay_run__sandbox_make(struct assay_run__sandbox *out, const assay_suite *suite,
			     const assay_run_opts *opts, const assay_strvec *command);
void assay_run__sandbox_release(struct assay_run__sandbox *s);

/*
 * With root and the sandbox on (`sb` enabled), the program runs as an unprivileged uid
 * (proc.h assay_sandbox.uid): lets it through the run's own folders on the way to `path`, by
 * adding search permission for others (o+x) to every folder from `top` (the run's root) down to
 * `path`'s parent that lacks it. Folders are opened without following links; one that is a
 * link, not a folder or outside `top` is left alone. Does nothing without root.
 */
void assay_run__sandbox_reach(const assay_sandbox *sb, const char *top, const char *path);

#endif
