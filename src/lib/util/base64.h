/* Base64 decoding for binary input files (internal). */
#ifndef ASSAY_UTIL_BASE64_H
#define ASSAY_UTIL_BASE64_H

#include "assay/buf.h"

/**
 * Appends the bytes that `len` characters of base64 text `s` encode to `out` (standard or URL
 * alphabet; white space skipped; padding optional).
 * @return 0, or ASSAY_EINVALID for a character outside the alphabet or a dangling quantum
 */
int assay_base64_decode(assay_buf *out, const char *s, size_t len);

#endif
