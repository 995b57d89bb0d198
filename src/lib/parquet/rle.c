/*
 * The RLE/bit-packed hybrid encoding of definition and repetition levels (parquet-format
 * Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)").
 *
 * Key decisions: a value repeated 8 times or more becomes an RLE run (header count << 1, then
 * the value in ceil(bit_width / 8) bytes); everything else goes into bit-packed runs (header
 * groups << 1 | 1, then groups * bit_width bytes, values packed from the least significant bit).
 * A bit-packed run always holds whole groups of 8 values: in the middle of the data it is
 * extended into the following run to a multiple of 8, and only the last one is padded with
 * zeros, which readers ignore because the page header counts the values. Bit-packed runs hold
 * at most 63 groups, so every header fits in one byte as parquet-mr's readers expect.
 * Refuses to: handle bit widths above 8 (levels here never pass 4).
 */
#include "parquet/parquet_int.h"
#include "parquet/thrift_compact.h"
#include "util/banned.h"

#define MAX_GROUPS 63

int assay_pq__bit_width(int max_level)
{
	int w = 0;

	while (max_level >> w)
		w++;
	return w;
}

/* Length of the run of equal values starting at i, counting no further than `cap`. */
static size_t run_at(const uint8_t *v, size_t n, size_t i, size_t cap)
{
	size_t j = i + 1;

	while (j < n && j - i < cap && v[j] == v[i])
		j++;
	return j - i;
}

static void bit_packed(assay_buf *out, const uint8_t *v, size_t count, int bw)
{
	size_t groups = (count + 7) / 8;
	unsigned char bytes[8];

	assay_tc__varint(out, (uint64_t)groups << 1 | 1);
	for (size_t g = 0; g < groups; g++) {
		/* Eight values of bw bits are exactly bw bytes. */
		uint64_t acc = 0;
		for (size_t k = 0; k < 8; k++) {
			size_t i = g * 8 + k;
			uint64_t x = i < count ? v[i] : 0;
			acc |= x << (k * (size_t)bw);
		}
		for (int b = 0; b < bw; b++)
			bytes[b] = (unsigned char)(acc >> (8 * b));
		(void)assay_buf_add(out, bytes, (size_t)bw);
	}
}

void assay_pq__rle_encode(assay_buf *out, const uint8_t *v, size_t n, int bw)
{
	size_t i = 0;

	ASSAY_ASSERT(bw >= 1 && bw <= 8);
	while (i < n) {
		size_t r = run_at(v, n, i, SIZE_MAX);
		if (r >= 8) {
			assay_tc__varint(out, (uint64_t)r << 1);
			(void)assay_buf_addch(out, (char)v[i]);
			i += r;
			continue;
		}
		/* Whole groups of literals until one starts a run of 8 or the cap is hit. */
		size_t j = i;
		do
			j += 8;
		while (j < n && (j - i) / 8 < MAX_GROUPS && run_at(v, n, j, 8) < 8);
		size_t count = (j < n ? j : n) - i;
		bit_packed(out, v + i, count, bw);
		i += count;
	}
}
