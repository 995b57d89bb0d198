/*
 * Base64 decoding (RFC 4648, standard alphabet) for `binary` input files. White space is
 * skipped; padding is optional; any other character is an error.
 */
#include "util/base64.h"
#include "util/banned.h"

static int value_of(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

int assay_base64_decode(assay_buf *out, const char *s, size_t len)
{
	unsigned acc = 0;
	int bits = 0;
	bool padding = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=') {
			padding = true;
			continue;
		}
		int v = value_of(c);
		if (v < 0 || padding)
			return ASSAY_EINVALID;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			assay_buf_addch(out, (char)((acc >> bits) & 0xff));
		}
	}
	return bits >= 6 ? ASSAY_EINVALID : 0;
}
