/*
 * assay-bench-diff: times assay's structural diff (parse + compare + report) on documents made
 * in memory, for the figures of issue #6 that a whole `assay run` would blur with process
 * start-up: a 10,000-item array with one change, a 1 MB pair under ignore_order, and 100,000
 * levels of nesting. Prints one line per scenario: name, median seconds over the runs, and
 * what the diff found. Benchmarks only; no test depends on its timings.
 *
 * usage: assay-bench-diff [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/buf.h"
#include "assay/diff.h"
#include "assay/json.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Parses both texts, diffs them with `options` (JSON text), writes the report; seconds. */
static double once(const assay_buf *e, const assay_buf *a, const char *options, char *summary,
		   size_t size)
{
	assay_arena *ar = assay_arena_new(0);
	assay_value ev, av, ov, diff;
	assay_diff_opts o;
	assay_diff_info info;
	assay_buf out = ASSAY_BUF_INIT;
	assay_json_opts jo = ASSAY_JSON_OPTS_INIT;
	double t0 = now(), t;

	jo.borrow = true;
	if (assay_json_parse(&ev, ar, e->ptr, e->len, &jo, NULL) ||
	    assay_json_parse(&av, ar, a->ptr, a->len, &jo, NULL) ||
	    assay_json_parse(&ov, ar, options, strlen(options), NULL, NULL) ||
	    assay_diff_opts_parse(&o, ar, &ov, NULL)) {
		fprintf(stderr, "assay-bench-diff: bad input\n");
		exit(2);
	}
	assay_diff(&diff, ar, &ev, &av, &o, 0, &info);
	assay_json_write(&out, &diff, 0);
	t = now() - t0;
	snprintf(summary, size, "%zu differences, report %zu bytes", info.count, out.len);
	assay_buf_release(&out);
	assay_arena_free(ar);
	return t;
}

static void scenario(const char *name, const assay_buf *e, const assay_buf *a,
		     const char *options, int runs)
{
	double *t = malloc((size_t)runs * sizeof(*t));
	char summary[200] = "";

	for (int i = 0; i < runs; i++)
		t[i] = once(e, a, options, summary, sizeof(summary));
	qsort(t, (size_t)runs, sizeof(*t), cmp_double);
	printf("%-34s %10.4f s   %s\n", name, t[runs / 2], summary);
	free(t);
}

/* A 10,000-item array of numbers, the second with one item changed. */
static void array_one_change(int runs)
{
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;

	assay_buf_addch(&e, '[');
	assay_buf_addch(&a, '[');
	for (int i = 0; i < 10000; i++) {
		assay_buf_addf(&e, "%s%d", i ? "," : "", i);
		assay_buf_addf(&a, "%s%d", i ? "," : "", i == 5000 ? -1 : i);
	}
	assay_buf_addch(&e, ']');
	assay_buf_addch(&a, ']');
	scenario("array 10,000 items, one change", &e, &a, "{}", runs);
	assay_buf_release(&e);
	assay_buf_release(&a);
}

/* About 1 MB of records; the second shuffled, with 1% of records changed. */
static void unordered_1mb(int runs)
{
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;
	int n = 9000, *perm = malloc((size_t)n * sizeof(*perm));
	unsigned seed = 12345;

	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)((seed = seed * 1103515245u + 12345u) % (unsigned)(i + 1));
		int x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	assay_buf_addch(&e, '[');
	assay_buf_addch(&a, '[');
	for (int i = 0; i < n; i++) {
		int k = perm[i];

		assay_buf_addf(&e, "%s{\"id\": %d, \"name\": \"user-%06d\", \"tags\": [\"a\", \"b\"], "
			       "\"score\": %d.5, \"nested\": {\"level\": %d}}",
			       i ? ", " : "", i, i, i % 997, i % 10);
		assay_buf_addf(&a, "%s{\"id\": %d, \"name\": \"user-%06d\", \"tags\": [\"b\", \"a\"], "
			       "\"score\": %d.5, \"nested\": {\"level\": %d}}",
			       i ? ", " : "", k, k, k % 997 + (k % 100 == 0), k % 10);
	}
	assay_buf_addch(&e, ']');
	assay_buf_addch(&a, ']');
	free(perm);
	scenario("1 MB pair, ignore_order", &e, &a, "{\"ignore_order\": true}", runs);
	assay_buf_release(&e);
	assay_buf_release(&a);
}

/* 100,000 levels of nesting, the readers' limit: [[[...1...]]] vs itself and vs
 * {"k": [{"k": [...1...]}]} (50,000 objects and 50,000 arrays). */
static void deep(int runs)
{
	assay_buf e = ASSAY_BUF_INIT, a = ASSAY_BUF_INIT;
	int depth = 100000;

	for (int i = 0; i < depth; i++)
		assay_buf_addch(&e, '[');
	for (int i = 0; i < depth / 2; i++)
		assay_buf_adds(&a, "{\"k\": [");
	assay_buf_addch(&e, '1');
	assay_buf_addch(&a, '1');
	for (int i = 0; i < depth; i++)
		assay_buf_addch(&e, ']');
	for (int i = 0; i < depth / 2; i++)
		assay_buf_adds(&a, "]}");
	scenario("100,000-deep vs itself", &e, &e, "{}", runs);
	scenario("100,000-deep vs another shape", &e, &a, "{}", runs);
	assay_buf_release(&e);
	assay_buf_release(&a);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5;

	if (runs < 1)
		runs = 1;
	array_one_change(runs);
	unordered_1mb(runs);
	deep(runs > 3 ? 3 : runs);
	return 0;
}
