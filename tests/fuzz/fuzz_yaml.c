/*
 * Fuzz target: the YAML loader. Any input, with every option combination, under a small memory
 * limit; whatever loads must write out as JSON that parses back to an equal value.
 */
#include <stdint.h>
#include <stdlib.h>

#include "assay/json.h"
#include "assay/yaml.h"
#include "fuzz.h"

int assay_fuzz_yaml(const uint8_t *data, size_t size)
{
	for (int mode = 0; mode < 8; mode++) {
		assay_arena *a = assay_arena_new(16u << 20);
		assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
		assay_value v, back;
		assay_buf out = ASSAY_BUF_INIT;

		o.positions = mode & 1;
		o.multi_document = mode & 2;
		o.timestamps = mode & 4;
		if (!assay_yaml_parse(&v, a, (const char *)data, size, &o, NULL)) {
			assay_json_write(&out, &v, 0);
			if (assay_json_parse(&back, a, out.ptr, out.len, NULL, NULL))
				abort();
		}
		assay_buf_release(&out);
		assay_arena_free(a);
	}
	return 0;
}

#ifdef ASSAY_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_yaml(data, size);
}
#endif
