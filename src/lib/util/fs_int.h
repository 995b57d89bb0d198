/* File helpers the library's modules share beyond fs.h (util, never installed). */
#ifndef ASSAY_UTIL_FS_INT_H
#define ASSAY_UTIL_FS_INT_H

#include <stddef.h>

/* Writes all `len` bytes of `data` to `fd`, again after a short write or EINTR.
 * @return 0, or -1 with errno set by write(2) (what was written before stays written) */
int assay_fs__write_all(int fd, const void *data, size_t len);

#endif
