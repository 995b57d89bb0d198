/*
 * Fuzz targets: the TOML, INI and CSV readers, which read what a submission writes. Any input,
 * under a small memory limit; whatever reads must write out as JSON that parses back, and a
 * reader must never report a failure without saying where (except at the memory limit).
 */
#include <stdint.h>
#include <stdlib.h>

#include "assay/csv.h"
#include "assay/ini.h"
#include "assay/json.h"
#include "assay/toml.h"
#include "fuzz.h"

static void round_trip(assay_arena *a, const assay_value *v)
{
	assay_buf out = ASSAY_BUF_INIT;
	assay_value back;

	assay_json_write(&out, v, 0);
	if (assay_json_parse(&back, a, out.ptr, out.len, NULL, NULL))
		abort();
	assay_buf_release(&out);
}

/* A parse failure must be located, unless it is the memory limit. */
static void located(int rc, const assay_err *e)
{
	if (rc && rc != ASSAY_ETOOBIG && e->line <= 0)
		abort();
}

int assay_fuzz_toml(const uint8_t *data, size_t size)
{
	assay_arena *a = assay_arena_new(16u << 20);
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	int rc = assay_toml_parse(&v, a, (const char *)data, size, NULL, &e);

	if (rc == ASSAY_EPARSE)
		located(rc, &e);
	else if (!rc)
		round_trip(a, &v);
	assay_arena_free(a);
	return 0;
}

int assay_fuzz_ini(const uint8_t *data, size_t size)
{
	for (int lower = 0; lower < 2; lower++) {
		assay_arena *a = assay_arena_new(16u << 20);
		assay_ini_opts o = ASSAY_INI_OPTS_INIT;
		assay_value v;
		assay_err e = ASSAY_ERR_INIT;
		int rc;

		o.lower_keys = lower;
		rc = assay_ini_parse(&v, a, (const char *)data, size, &o, &e);
		located(rc, &e);
		if (!rc)
			round_trip(a, &v);
		assay_arena_free(a);
	}
	return 0;
}

int assay_fuzz_csv(const uint8_t *data, size_t size)
{
	static const char delims[] = { ',', '\t', ';' };

	for (int i = 0; i < 3; i++) {
		assay_arena *a = assay_arena_new(16u << 20);
		assay_csv_opts o = ASSAY_CSV_OPTS_INIT;
		assay_value v;
		assay_err e = ASSAY_ERR_INIT;
		int rc;

		o.delimiter = delims[i];
		rc = assay_csv_parse(&v, a, (const char *)data, size, &o, &e);
		located(rc, &e);
		if (!rc)
			round_trip(a, &v);
		assay_arena_free(a);
	}
	return 0;
}

#ifdef ASSAY_LIBFUZZER
#if defined(FUZZ_TOML)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_toml(data, size);
}
#elif defined(FUZZ_INI)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_ini(data, size);
}
#elif defined(FUZZ_CSV)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return assay_fuzz_csv(data, size);
}
#endif
#endif
