/*
 * Verification time per MB of the document verifiers (issue #7): the same records written as
 * JSON (the baseline), YAML, TOML, INI and CSV, each verified against itself (the actual text
 * parsed, the expected text parsed, compared) by the verifier of its format, as a run does.
 * Prints MB/s and each format's time relative to json measured in the same run, best of
 * ROUNDS rounds, formats interleaved so that a busy machine slows them alike.
 * Usage: assay-bench-verify [MEGABYTES] [ROUNDS]     (default 8 MB, 5 rounds)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/buf.h"
#include "assay/verify.h"

enum { JSON, YAML, TOML, INI, CSV, NFORMATS };
static const char *const names[NFORMATS] = { "json", "yaml", "toml", "ini", "csv" };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Record i: a name, a count, a price, a flag, a date; as each format writes it. */
static void record(assay_buf *b, int f, long i)
{
	const char *flag = i % 3 ? "true" : "false";
	double price = (double)(i % 9973) / 7.0;

	switch (f) {
	case JSON:
		assay_buf_addf(b, "%s\"item%ld\": {\"name\": \"widget %ld\", \"count\": %ld, "
				  "\"price\": %.6f, \"active\": %s, \"tags\": [\"a\", \"b%ld\"]}",
			       i ? ", " : "{", i, i, i % 1000, price, flag, i % 17);
		break;
	case YAML:
		assay_buf_addf(b, "item%ld:\n  name: widget %ld\n  count: %ld\n  price: %.6f\n"
				  "  active: %s\n  tags: [a, b%ld]\n",
			       i, i, i % 1000, price, flag, i % 17);
		break;
	case TOML:
		assay_buf_addf(b, "[item%ld]\nname = \"widget %ld\"\ncount = %ld\nprice = %.6f\n"
				  "active = %s\ntags = [\"a\", \"b%ld\"]\n",
			       i, i, i % 1000, price, flag, i % 17);
		break;
	case INI:
		assay_buf_addf(b, "[item%ld]\nname = widget %ld\ncount = %ld\nprice = %.6f\n"
				  "active = %s\ntags = a, b%ld\n",
			       i, i, i % 1000, price, flag, i % 17);
		break;
	case CSV:
		if (!i)
			assay_buf_adds(b, "key,name,count,price,active,tags\n");
		assay_buf_addf(b, "item%ld,widget %ld,%ld,%.6f,%s,\"a, b%ld\"\n", i, i, i % 1000,
			       price, flag, i % 17);
		break;
	}
}

int main(int argc, char **argv)
{
	double mb = argc > 1 ? strtod(argv[1], NULL) : 8;
	int rounds = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
	assay_buf doc[NFORMATS];
	double best[NFORMATS];

	for (int f = 0; f < NFORMATS; f++) {
		doc[f] = (assay_buf)ASSAY_BUF_INIT;
		for (long i = 0; doc[f].len < (size_t)(mb * 1e6); i++)
			record(&doc[f], f, i);
		if (f == JSON)
			assay_buf_addch(&doc[f], '}');
		best[f] = 1e30;
	}
	for (int r = 0; r < rounds; r++) {
		for (int f = 0; f < NFORMATS; f++) {
			assay_arena *a = assay_arena_new(0);
			assay_value expected = assay_value_string(a, doc[f].ptr, doc[f].len);
			assay_value opts = assay_value_object();
			assay_actual ac = { ASSAY_ACTUAL_BYTES, doc[f].ptr, doc[f].len, false, 0, 0 };
			assay_verification v = ASSAY_VERIFICATION_INIT;
			assay_err err = ASSAY_ERR_INIT;

			assay_object_set(a, &opts, "verifier", assay_value_strz(a, names[f]));
			assay_verify_call call = { "g", "c", "output", &expected, &ac, &opts, a, 0 };
			double t0 = now();
			int rc = assay_verify_attribute(&v, &call, &err);
			double t = now() - t0;

			if (rc || !v.is_correct) {
				fprintf(stderr, "%s: the document does not verify against itself: %s\n",
					names[f], err.msg);
				return 1;
			}
			if (t < best[f])
				best[f] = t;
			assay_arena_free(a);
		}
	}
	double json_per_mb = best[JSON] / ((double)doc[JSON].len / 1e6);

	printf("%-5s %10s %10s %10s %8s\n", "", "MB", "best s", "MB/s", "vs json");
	for (int f = 0; f < NFORMATS; f++) {
		double m = (double)doc[f].len / 1e6;

		printf("%-5s %10.2f %10.3f %10.1f %7.2fx\n", names[f], m, best[f], m / best[f],
		       (best[f] / m) / json_per_mb);
		assay_buf_release(&doc[f]);
	}
	printf("(time per MB relative to json; each verifies a document against itself: both "
	       "texts parsed and compared; best of %d rounds)\n", rounds);
	return 0;
}
