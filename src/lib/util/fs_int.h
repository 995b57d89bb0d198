/* File helpers the library's modules share beyond fs.h (util, never installed). */
#ifndef ASSAY_UTIL_FS_INT_H
#define ASSAY_UTIL_FS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/common.h"

/* Writes all `len` bytes of `data` to `fd`, again after a short write or EINTR.
 * @return 0, or -1 with errno set by write(2) (what was written before stays written) */
int assay_fs__write_all(int fd, const void *data, size_t len);

/* Opens the folder that holds the last component of `rel` beneath `root`, walking each
 * component without following a link (`create`: making missing folders, 0755), and points
 * `*leaf` at that last component in `rel`. @return the descriptor, or -1 with errno. */
int assay_fs__open_parent_beneath(const char *root, const char *rel, bool create,
				  const char **leaf);

/* Opens folder `rel` beneath `root` as assay_fs__open_parent_beneath() walks (no link
 * followed, nothing made), O_RDONLY | O_DIRECTORY | O_CLOEXEC: a descriptor to make and remove
 * entries by (mkdirat, unlinkat) with no path to resolve again. @return it, or -1 with errno. */
int assay_fs__open_dir_beneath(const char *root, const char *rel);

/* Removes everything inside the open folder `dfd` (which it closes), following no link;
 * `path` names it in errors. @return 0 or ASSAY_EIO (`err`). */
int assay_fs__remove_contents(int dfd, const char *path, assay_err *err);

#endif
