/* SHA-256 of bytes, as 64 lower-case hex digits (util, never installed). */
#ifndef ASSAY_UTIL_SHA256_H
#define ASSAY_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

void assay_sha256_hex(char out[65], const void *data, size_t len);

#endif
