/* SHA-256 of bytes, as 64 lower-case hex digits (util, never installed), at once or in pieces. */
#ifndef ASSAY_UTIL_SHA256_H
#define ASSAY_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

typedef struct sha256_ctx assay_sha256_ctx;

void assay_sha256_hex(char out[65], const void *data, size_t len);
void assay_sha256_begin(assay_sha256_ctx *ctx);
void assay_sha256_add(assay_sha256_ctx *ctx, const void *data, size_t len);
void assay_sha256_end(assay_sha256_ctx *ctx, char out[65]);

#endif
