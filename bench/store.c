/*
 * The results store's cost per case (issue 19, item 3: "the store's batch cost"), against its
 * physical limit: the same report lines appended to a one-column SQLite table, in the same
 * batches, with the same journal settings (WAL, synchronous=NORMAL), and nothing else.
 *
 * Each round puts N trivial cases' reports (the line `assay run` writes for `/bin/echo
 * hello-N` with `output` expected, its id and argument numbered) into a fresh store with
 * assay_store_put_case, committing every BATCH cases as a run does (a batch is 0.25 s of
 * cases: about 330 trivial ones), then appends the same lines, as text, to the bare table.
 * CPU time (getrusage: user + system) of this process per case; rounds alternate.
 *
 * Usage: assay-bench-store [N=20000] [ROUNDS=5] [BATCH=330] [DIR=$TMPDIR]
 * Prints each round and the medians: store us/case, bare us/case, their ratio.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/store.h"

static const char line_fmt[] =
	"{\"id\": \"e%zu\", \"group\": \"g\", \"type\": \"Functionality\", \"timestamp\": "
	"\"2026-11-30T02:55:38.700254Z\", \"duration\": 0.002710233995458111, \"results\": "
	"{\"status_code\": {\"attribute\": \"status_code\", \"actual\": 0, \"expected\": null, "
	"\"diff\": null, \"is_correct\": null, \"weight\": 0.0}, \"output\": {\"attribute\": "
	"\"output\", \"actual\": \"hello-%zu\\n\", \"expected\": \"hello-%zu\\n\", \"diff\": null, "
	"\"is_correct\": true, \"weight\": 1.0}, \"stderr\": {\"attribute\": \"stderr\", "
	"\"actual\": \"\", \"expected\": null, \"diff\": null, \"is_correct\": null, \"weight\": "
	"0.0}}, \"case\": {\"arguments\": [\"hello-%zu\"], \"expected\": {\"output\": "
	"\"hello-%zu\\n\"}, \"type\": \"cli\", \"checkpoint\": \"c\", \"score\": 1.0, \"passed\": "
	"true, \"execution\": {\"status\": \"exited\", \"exit_code\": 0, \"signal\": null, "
	"\"wall_time\": 0.001263145, \"cpu_time\": 0.001217, \"max_rss\": 1462272, "
	"\"stdout_truncated\": false, \"stderr_truncated\": false, \"limit\": null, \"sandbox\": "
	"[\"user-namespace\", \"pid-namespace\", \"landlock-fs\", \"landlock-net\", "
	"\"landlock-scope\", \"seccomp\", \"no-new-privs\"]}}, \"original_checkpoint\": null, "
	"\"original_group\": null}";

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "assay-bench-store: %s: %s\n", what, msg);
	exit(1);
}

/* The reports, parsed once (as the runner has them), and their texts. */
struct lines {
	size_t n;
	assay_arena *a;
	assay_value *v;
	char **text;
	char **ids;
};

static void make_lines(struct lines *l, size_t n)
{
	assay_err err = ASSAY_ERR_INIT;

	l->n = n;
	l->a = assay_arena_new(0);
	l->v = calloc(n, sizeof(*l->v));
	l->text = calloc(n, sizeof(*l->text));
	l->ids = calloc(n, sizeof(*l->ids));
	for (size_t i = 0; i < n; i++) {
		size_t k = i + 1;
		int len = snprintf(NULL, 0, line_fmt, k, k, k, k, k);

		l->text[i] = malloc((size_t)len + 1);
		snprintf(l->text[i], (size_t)len + 1, line_fmt, k, k, k, k, k);
		if (assay_json_parse(&l->v[i], l->a, l->text[i], (size_t)len, NULL, &err))
			die("parse", err.msg);
		l->ids[i] = malloc(24);
		snprintf(l->ids[i], 24, "e%zu", k);
	}
}

static double round_store(const struct lines *l, const char *dir, size_t batch)
{
	static assay_checkpoint cp = { .name = "c" };
	static assay_group g = { .name = "g" };
	assay_err err = ASSAY_ERR_INIT;
	assay_store *s;
	assay_arena *a = assay_arena_new(0);
	assay_value meta;
	double t0;

	assay_fs_remove_tree(dir, NULL);
	if (assay_json_parse(&meta, a, "{\"suite\": \"bench\"}", 18, NULL, &err) ||
	    assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err) ||
	    assay_store_begin_run(s, &meta, false, &err))
		die(dir, err.msg);
	t0 = cpu_s();
	for (size_t i = 0; i < l->n; i++) {
		assay_case_report r = { .checkpoint = &cp, .group = &g, .id = l->ids[i],
					.json = &l->v[i], .index = i, .passed = true,
					.score = 1.0 };

		if (assay_store_put_case(s, &r, 65536, NULL, &err))
			die("put", err.msg);
		if ((i + 1) % batch == 0 && assay_store_flush(s, &err))
			die("flush", err.msg);
	}
	if (assay_store_flush(s, &err))
		die("flush", err.msg);
	t0 = cpu_s() - t0;
	assay_store_close(s);
	assay_arena_free(a);
	return t0 / (double)l->n * 1e6;
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql, sqlite3_errmsg(db));
}

static double round_bare(const struct lines *l, const char *dir, size_t batch)
{
	char *path = assay_path_join(dir, "bare.db");
	sqlite3 *db;
	sqlite3_stmt *st;
	double t0;

	assay_fs_remove_tree(dir, NULL);
	assay_fs_mkdirs(dir, NULL);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die(path, "cannot open");
	exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
		 "CREATE TABLE cases (seq INTEGER PRIMARY KEY, line TEXT NOT NULL)");
	if (sqlite3_prepare_v2(db, "INSERT INTO cases (line) VALUES (?)", -1, &st, NULL))
		die("prepare", sqlite3_errmsg(db));
	t0 = cpu_s();
	exec(db, "BEGIN IMMEDIATE");
	for (size_t i = 0; i < l->n; i++) {
		sqlite3_bind_text(st, 1, l->text[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert", sqlite3_errmsg(db));
		sqlite3_reset(st);
		if ((i + 1) % batch == 0)
			exec(db, "COMMIT; BEGIN IMMEDIATE");
	}
	exec(db, "COMMIT");
	t0 = cpu_s() - t0;
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	return t0 / (double)l->n * 1e6;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	size_t batch = argc > 3 ? strtoul(argv[3], NULL, 10) : 330;
	const char *tmp = getenv("TMPDIR");
	char *dir = assay_path_join(argc > 4 ? argv[4] : tmp ? tmp : "/tmp", "assay-bench-store");
	double st[64], ba[64];
	struct lines l;

	if (!n || !batch || rounds < 1 || rounds > 64)
		die("usage", "assay-bench-store [N] [ROUNDS 1-64] [BATCH] [DIR]");
	make_lines(&l, n);
	for (int r = 0; r < rounds; r++) {
		st[r] = round_store(&l, dir, batch);
		ba[r] = round_bare(&l, dir, batch);
		printf("round %d: store %.2f us/case, bare %.2f us/case\n", r + 1, st[r], ba[r]);
	}
	qsort(st, (size_t)rounds, sizeof(double), cmp);
	qsort(ba, (size_t)rounds, sizeof(double), cmp);
	printf("median: store %.2f us/case, bare insert %.2f us/case, store/bare %.2f "
	       "(%zu cases, batches of %zu, %d rounds)\n",
	       st[rounds / 2], ba[rounds / 2], st[rounds / 2] / ba[rounds / 2], n, batch, rounds);
	assay_fs_remove_tree(dir, NULL);
	free(dir);
	return 0;
}
