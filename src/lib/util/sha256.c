/*
 * SHA-256 through GNU Nettle (Debian's nettle-dev), for content-addressed blobs: a value's
 * name is the hex digest of its bytes.
 */
#include "util/sha256.h"
#include "util/banned.h"

void assay_sha256_begin(assay_sha256_ctx *ctx)
{
	sha256_init(ctx);
}

void assay_sha256_add(assay_sha256_ctx *ctx, const void *data, size_t len)
{
	sha256_update(ctx, len, data);
}

void assay_sha256_end(assay_sha256_ctx *ctx, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_digest(ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}

void assay_sha256_hex(char out[65], const void *data, size_t len)
{
	assay_sha256_ctx ctx;

	assay_sha256_begin(&ctx);
	assay_sha256_add(&ctx, data, len);
	assay_sha256_end(&ctx, out);
}
