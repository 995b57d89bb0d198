/*
 * Fuzz target: the JSON parser and writer. Any input: parse it (copying and borrowing, with and
 * without positions, as one document and as JSON Lines) under a small memory limit; whatever
 * parses must write out and parse back to an equal value (round trip), and never crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "fuzz.h"

int assay_fuzz_json(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;

	for (int mode = 0; mode < 4; mode++) {
		assay_arena *a = assay_arena_new(16u << 20);
		assay_json_opts o = ASSAY_JSON_OPTS_INIT;
		assay_value v, back;
		assay_buf out = ASSAY_BUF_INIT;

		o.borrow = mode & 1;
		o.positions = mode & 2;
		if (!assay_json_parse(&v, a, text, size, &o, NULL)) {
			assay_json_write(&out, &v, mode & 1 ? ASSAY_JSON_PRETTY : 0);
			if (assay_json_parse(&back, a, out.ptr, out.len, NULL, NULL))
				abort(); /* what assay writes, assay must read */
			if (!assay_value_equal(&v, &back))
				abort();
		}
		assay_buf_release(&out);
		(void)assay_json_parse_lines(&v, a, text, size, mode & 1, &o, NULL);
		assay_arena_free(a);
	}
	return 0;
}

#ifdef ASSAY_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_json(data, size);
}
#endif
