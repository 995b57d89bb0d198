/*
 * What the sandbox's path reach offers the runner and the adapters (src/lib/proc/reach.c).
 * Library-internal: never installed.
 */
#ifndef ASSAY_PROC_REACH_H
#define ASSAY_PROC_REACH_H

#include <stdbool.h>

#include "assay/proc.h"

/* Is `path` the folder `dir` or below it (by name: both absolute, without "." or "..")? */
bool assay_proc__path_within(const char *dir, const char *path);

/*
 * With root and the sandbox on (`sb` enabled), the program runs as an unprivileged uid
 * (proc.h assay_sandbox.uid): lets it through the run's own folders on the way to `path`, by
 * adding search permission for others (o+x) to every folder from `top` (the run's root) down to
 * `path`'s parent that lacks it. Folders are opened without following links; one that is a
 * link, not a folder or outside `top` is left alone. Does nothing without root.
 */
void assay_proc__sandbox_reach(const assay_sandbox *sb, const char *top, const char *path);

/*
 * Will Landlock keep each case of a sandbox `sb` to its own folders (the kernel offers its file
 * system layer, and the ASSAY_SANDBOX_REFUSE test hook does not refuse it)? false with the
 * sandbox off. Then, with root, a folder nobody may make folders in (0733) can hold the cases'
 * own, which no case can make first.
 */
bool assay_proc__landlock_holds(const assay_sandbox *sb);

#endif
