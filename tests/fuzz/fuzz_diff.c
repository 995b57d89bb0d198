/*
 * Fuzz target: the structural diff. The input is "<options byte><expected JSON>\x00<actual
 * JSON>": both documents are parsed and compared with the options the first byte picks
 * (ignore_order, significant digits, tolerances, string case, exclusions, max_diffs). Checks:
 * nothing crashes; a document compared with itself has no difference; the report writes out as
 * valid JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/diff.h"
#include "assay/json.h"
#include "fuzz.h"

static void options(assay_diff_opts *o, uint8_t b)
{
	static const char *excl[] = { "a", "root[0]" };
	static const char *rx[] = { "\\[1\\]" };

	*o = (assay_diff_opts)ASSAY_DIFF_OPTS_INIT;
	o->ignore_order = b & 1;
	if (b & 2)
		o->significant_digits = 3;
	if (b & 4)
		o->abs_tol = 0.5;
	o->ignore_string_case = b & 8;
	if (b & 16) {
		o->exclude_paths = excl;
		o->nexclude_paths = 2;
	}
	if (b & 32) {
		o->exclude_regex_paths = rx;
		o->nexclude_regex_paths = 1;
	}
	if (b & 64)
		o->max_diffs = 5;
	o->ignore_extra_keys = b & 128;
}

int assay_fuzz_diff(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1, *sep;
	assay_arena *a;
	assay_value e, x, d;
	assay_diff_opts o;
	assay_diff_info info;
	assay_buf out = ASSAY_BUF_INIT;

	if (size < 2)
		return 0;
	sep = memchr(text, '\0', size - 1);
	if (!sep)
		return 0;
	a = assay_arena_new(16u << 20);
	options(&o, data[0]);
	if (!assay_json_parse(&e, a, text, (size_t)(sep - text), NULL, NULL) &&
	    !assay_json_parse(&x, a, sep + 1, size - 1 - (size_t)(sep - text) - 1, NULL, NULL)) {
		assay_diff(&d, a, &e, &x, &o, 0, &info);
		assay_json_write(&out, &d, 0);
		if (assay_json_parse(&d, a, out.ptr, out.len, NULL, NULL))
			abort();
		assay_diff(&d, a, &e, &e, &o, 0, &info);
		if (info.count && !info.truncated)
			abort(); /* a document equals itself */
	}
	assay_buf_release(&out);
	assay_arena_free(a);
	return 0;
}

#ifdef ASSAY_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_diff(data, size);
}
#endif
