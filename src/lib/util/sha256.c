/*
 * SHA-256 through GNU Nettle (Debian's nettle-dev), for content-addressed blobs: a value's
 * name is the hex digest of its bytes.
 */
#include <nettle/sha2.h>

#include "util/sha256.h"
#include "util/banned.h"

void assay_sha256_hex(char out[65], const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
}
