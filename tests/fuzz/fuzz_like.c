/*
 * Fuzz target (hostile review 2): the actual parsed like its expected (shared storage) must be
 * the same value as a plain parse, and the structural diff of the shared pair must be byte for
 * byte the diff of the plain pair, under the options the first byte picks. Input as fuzz_diff:
 * "<options byte><expected JSON>\x00<actual JSON>". Both texts are copied into buffers of their
 * exact size so that ASan sees any read past them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/diff.h"
#include "assay/json.h"
#include "json/json_int.h"

static void options(assay_diff_opts *o, uint8_t b)
{
	static const char *excl[] = { "a", "root[0]" };
	static const char *rx[] = { "\\[1\\]" };

	*o = (assay_diff_opts)ASSAY_DIFF_OPTS_INIT;
	o->ignore_order = b & 1;
	if (b & 2)
		o->significant_digits = (b & 64) ? 0 : 3;
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
	o->ignore_extra_keys = b & 128;
	o->strict_types = (b & 0x44) == 0x44;
	o->exact_integers = (b & 0x48) == 0x48;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1, *sep;
	assay_arena *a;
	assay_value e, x, y, d1, d2;
	assay_diff_opts o;
	assay_diff_info i1, i2;
	assay_json_opts jo = ASSAY_JSON_OPTS_INIT;
	assay_buf b1 = ASSAY_BUF_INIT, b2 = ASSAY_BUF_INIT;

	if (size < 2)
		return 0;
	sep = memchr(text, '\0', size - 1);
	if (!sep)
		return 0;
	size_t el = (size_t)(sep - text), al = size - 1 - el - 1;
	char *et = malloc(el + 1), *at = malloc(al + 1);
	memcpy(et, text, el);
	memcpy(at, sep + 1, al);
	a = assay_arena_new(16u << 20);
	options(&o, data[0]);
	jo.borrow = true;
	if (!assay_json_parse(&e, a, et, el, NULL, NULL)) {
		int r1 = assay_json_parse(&x, a, at, al, &jo, NULL);
		int r2 = assay_json__parse_like(&y, a, at, al, &jo, &e, NULL);

		if (r1 != r2)
			abort();
		if (!r1) {
			if (!assay_value_equal(&x, &y))
				abort();
			assay_diff(&d1, a, &e, &x, &o, 0, &i1);
			assay_diff(&d2, a, &e, &y, &o, 0, &i2);
			assay_json_write(&b1, &d1, 0);
			assay_json_write(&b2, &d2, 0);
			if (b1.len != b2.len || memcmp(b1.ptr, b2.ptr, b1.len) || i1.count != i2.count ||
			    i1.score != i2.score)
				abort();
		}
	}
	assay_buf_release(&b1);
	assay_buf_release(&b2);
	assay_arena_free(a);
	free(et);
	free(at);
	return 0;
}
