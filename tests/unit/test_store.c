/*
 * Unit tests of the results store (src/lib/store; store.h; issue #9 item 1): the folder's lock,
 * schema versions, batches of cases (each whole or not at all), blobs and cut values made whole, resume lookups
 * that honour the case file's hash, and markers no program can plant.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/store.h"

static char dir[] = "/tmp/assay-test-store-XXXXXX";
static assay_arena *A;
static assay_checkpoint CP = { .name = "checkpoint_1" };
static assay_group G = { .name = "core" };

static void setup(void)
{
	cr_assert(mkdtemp(dir));
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_fs_remove_tree(dir, NULL);
	strcpy(dir, "/tmp/assay-test-store-XXXXXX");
	assay_arena_free(A);
}

TestSuite(store, .init = setup, .fini = teardown);

static assay_value js(const char *text)
{
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_json_parse(&v, A, text, strlen(text), NULL, &err), 0, "%s: %s", text,
		     err.msg);
	return v;
}

static assay_store *open_w(void)
{
	assay_store *s;
	assay_err err = ASSAY_ERR_INIT;
	assay_value meta = js("{\"suite\": \"t\"}");

	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_store_begin_run(s, &meta, false, &err), 0, "%s", err.msg);
	return s;
}

/* Keeps case `id` at `index` with report line `json` (a text). */
static void put(assay_store *s, const char *id, size_t index, const char *json, size_t cap,
		const assay_case *kase)
{
	assay_value line = js(json);
	assay_case_report r = { .checkpoint = &CP, .group = &G, .id = id, .kase = kase,
				.json = &line, .index = index };
	assay_err err = ASSAY_ERR_INIT;
	const assay_value *p = assay_object_get(&line, "passed");

	r.passed = p && p->kind == ASSAY_V_BOOL && p->u.b;
	cr_assert_eq(assay_store_put_case(s, &r, cap, NULL, &err), 0, "%s", err.msg);
}

/* The stored line of `id` as JSON text ("" when absent). */
static char *stored(assay_store *s, const char *id, const char *case_file, bool expand)
{
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;
	assay_buf b = ASSAY_BUF_INIT;
	int rc = assay_store_previous(s, CP.name, G.name, id, case_file, A, &v, &err);

	cr_assert_geq(rc, 0, "%s", err.msg);
	if (rc == 0)
		return strdup("");
	if (expand)
		cr_assert_eq(assay_store_expand(s, &v, A, &err), 0, "%s", err.msg);
	assay_json_write(&b, &v, 0);
	assay_buf_addch(&b, '\0');
	return b.ptr;
}

static long long query(const char *sql)
{
	char *path = assay_path_join(dir, ASSAY_STORE_FILE);
	sqlite3 *db;
	sqlite3_stmt *st;
	long long n = -1;

	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	return n;
}

static void exec_sql(const char *sql)
{
	char *path = assay_path_join(dir, ASSAY_STORE_FILE);
	sqlite3 *db;

	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sql);
	sqlite3_close(db);
	free(path);
}

Test(store, a_folder_without_a_store_is_not_a_results_folder)
{
	assay_store *s = (assay_store *)1;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_store_open(&s, dir, 0, &err), ASSAY_ENOTFOUND);
	cr_assert_null(s);
	cr_expect(strstr(err.msg, "not a results folder"), "%s", err.msg);
	/* and reading created nothing */
	cr_expect_not(assay_fs_exists(dir) && assay_fs_exists("assay.db"));
}

Test(store, a_second_writer_is_refused_and_told_whose_folder_it_is)
{
	assay_store *s = open_w(), *t = NULL, *r = NULL;
	assay_err err = ASSAY_ERR_INIT;
	char pid[32];

	cr_assert_eq(assay_store_open(&t, dir, ASSAY_STORE_WRITE, &err), ASSAY_EBUSY);
	snprintf(pid, sizeof(pid), "pid %ld", (long)getpid());
	cr_expect(strstr(err.msg, pid), "%s", err.msg);
	/* readers are welcome meanwhile */
	cr_assert_eq(assay_store_open(&r, dir, 0, &err), 0, "%s", err.msg);
	assay_store_close(r);
	assay_store_close(s);
	/* and once the writer is gone, the next one gets in */
	cr_assert_eq(assay_store_open(&t, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
	assay_store_close(t);
}

Test(store, a_store_of_a_newer_assay_is_refused_untouched)
{
	assay_store *s = open_w();
	assay_err err = ASSAY_ERR_INIT;
	assay_buf before = ASSAY_BUF_INIT, after = ASSAY_BUF_INIT;
	char *path = assay_path_join(dir, ASSAY_STORE_FILE);

	assay_store_close(s);
	exec_sql("PRAGMA journal_mode=DELETE; UPDATE meta SET value = '99' WHERE key = 'schema'");
	cr_assert_eq(assay_fs_read(&before, path, 0, NULL), 0);
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "newer assay"), "%s", err.msg);
	cr_assert_eq(assay_store_open(&s, dir, 0, &err), ASSAY_EINVALID);
	cr_assert_eq(assay_fs_read(&after, path, 0, NULL), 0);
	cr_expect(before.len == after.len && !memcmp(before.ptr, after.ptr, before.len),
		  "the store changed");
	assay_buf_release(&before);
	assay_buf_release(&after);
	free(path);
}

Test(store, a_case_is_kept_whole_its_attributes_in_its_line)
{
	assay_store *s = open_w();
	size_t n = 0, passed = 0;
	assay_err err = ASSAY_ERR_INIT;
	char *got;

	put(s, "a", 1,
	    "{\"id\": \"a\", \"results\": {\"output\": {\"attribute\": \"output\", \"actual\": \"x\","
	    " \"expected\": \"x\", \"diff\": {}, \"is_correct\": true, \"weight\": 1.0},"
	    " \"status_code\": {\"attribute\": \"status_code\", \"actual\": 1, \"expected\": 0,"
	    " \"diff\": null, \"is_correct\": false, \"weight\": 0.5}}, \"passed\": false,"
	    " \"execution\": {\"status\": \"exited\", \"exit_code\": 1, \"max_rss\": 1024}}",
	    0, NULL);
	got = stored(s, "a", NULL, false);
	cr_expect(strstr(got, "\"status_code\": {\"attribute\": \"status_code\""), "%s", got);
	free(got);
	cr_assert_eq(assay_store_count(s, &n, &passed, &err), 0);
	cr_expect_eq(n, 1);
	cr_expect_eq(passed, 0);
	assay_store_close(s);
	/* the attributes are in the line, read with json_each (docs/reports.md, "The store") */
	cr_expect_eq(query("SELECT count(*) FROM cases, json_each(cases.line, '$.results')"), 2);
	cr_expect_eq(query("SELECT a.value ->> 'is_correct' FROM cases, json_each(cases.line,"
			   " '$.results') a WHERE a.key = 'status_code'"), 0);
	cr_expect_eq(query("SELECT count(*) FROM sqlite_master WHERE name = 'attributes'"), 0);
	cr_expect_eq(query("SELECT max_rss FROM cases WHERE id = 'a'"), 1024);
	cr_expect_eq(query("SELECT exit_code FROM cases WHERE id = 'a'"), 1);
}

/* a results folder from elsewhere, continued (--resume): a trigger would run with assay's own
 * writes, making a failed case pass; reading runs none */
Test(store, a_store_with_a_trigger_is_not_written)
{
	assay_store *s = open_w();
	assay_err err = ASSAY_ERR_INIT;

	assay_store_close(s);
	exec_sql("PRAGMA journal_mode=DELETE; CREATE TRIGGER pass AFTER INSERT ON cases BEGIN"
		 " UPDATE cases SET passed = 1 WHERE seq = new.seq; END");
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "it has a trigger (pass), which would run as assay writes"), "%s",
		  err.msg);
	cr_assert_eq(assay_store_open(&s, dir, 0, &err), 0, "%s", err.msg);
	assay_store_close(s);
}

Test(store, a_case_run_again_replaces_its_result)
{
	assay_store *s = open_w();

	put(s, "a", 1, "{\"id\": \"a\", \"results\": {\"o\": {\"weight\": 1}}, \"passed\": false}",
	    0, NULL);
	put(s, "a", 1, "{\"id\": \"a\", \"results\": {\"o\": {\"weight\": 1}}, \"passed\": true}",
	    0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 1);
	cr_expect_eq(query("SELECT passed FROM cases"), 1);
}

static char *line_with(size_t n);

Test(store, a_case_run_again_whose_new_row_fails_keeps_its_old_result_and_no_new_blob)
{
	assay_store *s = open_w();
	char *text = line_with(5000);
	assay_value line = js(text);
	assay_case_report r = { .checkpoint = &CP, .group = &G, .id = "a", .json = &line,
				.index = 1, .passed = true };
	assay_err err = ASSAY_ERR_INIT;

	put(s, "a", 1, "{\"id\": \"a\", \"results\": {}, \"passed\": false}", 0, NULL);
	cr_assert_eq(assay_store_flush(s, &err), 0, "%s", err.msg);
	/* the new row is refused after REPLACE has deleted the old one (a trigger made by
	 * another connection while the store is open: one there at open is refused) */
	exec_sql("CREATE TRIGGER refuse AFTER INSERT ON cases WHEN NEW.passed = 1"
		 " BEGIN SELECT RAISE(ABORT, 'refused'); END");
	cr_expect_eq(assay_store_put_case(s, &r, 1024, NULL, &err), ASSAY_ESTORE);
	put(s, "b", 2, "{\"id\": \"b\", \"results\": {}, \"passed\": false}", 0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM cases WHERE id = 'a' AND passed = 0"), 1);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 2);
	cr_expect_eq(query("SELECT count(*) FROM blobs"), 0);
	cr_expect_eq(query("SELECT count(*) FROM blob_chunks"), 0);
	free(text);
}

Test(store, cases_are_committed_in_batches_and_a_kill_loses_only_the_open_one)
{
	pid_t pid = fork();
	int status;

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		assay_store *s = open_w();
		assay_err err = ASSAY_ERR_INIT;

		put(s, "a", 1, "{\"id\": \"a\", \"results\": {}, \"passed\": true}", 0, NULL);
		/* not committed yet: another connection does not see it */
		if (query("SELECT count(*) FROM cases") != 0 || assay_store_flush(s, &err) ||
		    query("SELECT count(*) FROM cases") != 1)
			_exit(3);
		put(s, "b", 2, "{\"id\": \"b\", \"results\": {}, \"passed\": true}", 0, NULL);
		_exit(0); /* as if killed: no flush, no close */
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 1);
	cr_expect_eq(query("SELECT count(*) FROM cases WHERE id = 'a'"), 1);
}

Test(store, a_case_that_cannot_be_stored_leaves_the_rest_of_its_batch_whole)
{
	assay_store *s = open_w();
	assay_value line = js("{\"id\": \"x\", \"results\": {}, \"passed\": true}");
	assay_case_report r = { .checkpoint = &CP, .group = &G, .id = NULL, .json = &line,
				.index = 2 };
	assay_err err = ASSAY_ERR_INIT;

	put(s, "a", 1, "{\"id\": \"a\", \"results\": {\"o\": {\"weight\": 1}}, \"passed\": true}",
	    0, NULL);
	/* no id: the NOT NULL constraint refuses the row, after its line was written */
	cr_expect_eq(assay_store_put_case(s, &r, 0, NULL, &err), ASSAY_ESTORE);
	put(s, "c", 3, "{\"id\": \"c\", \"results\": {}, \"passed\": false}", 0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 2);
	cr_expect_eq(query("SELECT count(*) FROM cases WHERE id IN ('a', 'c')"), 2);
}

Test(store, a_case_that_cannot_be_stored_takes_its_blobs_with_it)
{
	assay_store *s = open_w();
	char *text = line_with(5000);
	assay_value line = js(text);
	assay_case_report r = { .checkpoint = &CP, .group = &G, .id = NULL, .json = &line,
				.index = 2 };
	assay_err err = ASSAY_ERR_INIT;

	/* its value was cut into a blob, then the NOT NULL constraint refused its row */
	cr_expect_eq(assay_store_put_case(s, &r, 1024, NULL, &err), ASSAY_ESTORE);
	put(s, "c", 3, "{\"id\": \"c\", \"results\": {}, \"passed\": false}", 0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 1);
	cr_expect_eq(query("SELECT count(*) FROM blobs"), 0);
	cr_expect_eq(query("SELECT count(*) FROM blob_chunks"), 0);
	/* and the same value in a case that is kept is kept whole */
	s = open_w();
	put(s, "a", 1, text, 1024, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM blobs"), 1);
	cr_expect_eq(query("SELECT count(*) FROM blob_chunks"), 1);
	free(text);
}

/* A store as an assay of schema 2 left it: case "a" and its attribute row. */
static void make_schema_2(void)
{
	assay_store *s = open_w();

	put(s, "a", 1, "{\"id\": \"a\", \"results\": {}, \"passed\": true}", 0, NULL);
	assay_store_close(s);
	exec_sql("PRAGMA journal_mode=DELETE; UPDATE meta SET value = '2' WHERE key = 'schema';"
		 " CREATE TABLE attributes (case_seq INTEGER NOT NULL REFERENCES cases(seq) ON DELETE"
		 " CASCADE, name TEXT NOT NULL, PRIMARY KEY (case_seq, name));"
		 " INSERT INTO attributes VALUES (1, 'output')");
}

Test(store, a_store_of_schema_2_loses_its_attribute_rows_when_written_and_nothing_else)
{
	assay_store *s;
	assay_err err = ASSAY_ERR_INIT;

	make_schema_2();
	/* read: as it is */
	cr_assert_eq(assay_store_open(&s, dir, 0, &err), 0, "%s", err.msg);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM attributes"), 1);
	/* written (a resumed run): the rows go, the cases stay */
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_store_begin_run(s, &(assay_value){ .kind = ASSAY_V_NULL }, true, &err),
		     0, "%s", err.msg);
	put(s, "b", 2, "{\"id\": \"b\", \"results\": {}, \"passed\": true}", 0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM sqlite_master WHERE name = 'attributes'"), 0);
	cr_expect_eq(query("SELECT value FROM meta WHERE key = 'schema'"), 3);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 2);
}

Test(store, a_store_of_schema_2_opened_for_writing_is_unchanged_until_a_run_begins)
{
	assay_store *s;
	assay_err err = ASSAY_ERR_INIT;

	make_schema_2();
	/* opened, then refused before it begins (`run --resume` of another suite): the assay that
	 * wrote it can still read it */
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
	assay_store_close(s);
	cr_expect_eq(query("SELECT value FROM meta WHERE key = 'schema'"), 2);
	cr_expect_eq(query("SELECT count(*) FROM attributes"), 1);
	/* a new run into it: schema 3, its old cases gone */
	s = open_w();
	put(s, "b", 1, "{\"id\": \"b\", \"results\": {}, \"passed\": true}", 0, NULL);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM sqlite_master WHERE name = 'attributes'"), 0);
	cr_expect_eq(query("SELECT value FROM meta WHERE key = 'schema'"), 3);
	cr_expect_eq(query("SELECT count(*) FROM cases WHERE id = 'b'"), 1);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 1);
}

Test(store, a_long_value_is_cut_into_a_blob_kept_once_and_made_whole_again)
{
	assay_store *s = open_w();
	assay_buf text = ASSAY_BUF_INIT;
	char *got, *want;
	size_t big = 200000;

	assay_buf_adds(&text, "{\"id\": \"a\", \"stdout\": \"");
	for (size_t i = 0; i < big; i++)
		assay_buf_addch(&text, (char)('a' + i % 26));
	assay_buf_adds(&text, "\", \"copy\": \"");
	for (size_t i = 0; i < big; i++)
		assay_buf_addch(&text, (char)('a' + i % 26));
	assay_buf_adds(&text, "\", \"passed\": true}");
	assay_buf_addch(&text, '\0');
	put(s, "a", 1, text.ptr, 1024, NULL);
	put(s, "b", 2, text.ptr, 1024, NULL); /* the same value again: the same blob */

	got = stored(s, "a", NULL, false);
	cr_expect(strstr(got, "\"$assay_cut\": {\"kind\": \"string\", \"bytes\": 200000"), "%.300s",
		  got);
	cr_expect_lt(strlen(got), 4096);
	free(got);
	got = stored(s, "a", NULL, true);
	want = text.ptr;
	cr_expect_str_eq(got, want);
	free(got);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM blobs"), 1);
	cr_expect_eq(query("SELECT bytes FROM blobs"), (long long)big);
	assay_buf_release(&text);
}

/* A report line holding one string of `n` bytes; a string the caller frees. */
static char *line_with(size_t n)
{
	assay_buf text = ASSAY_BUF_INIT;

	assay_buf_adds(&text, "{\"id\": \"a\", \"stdout\": \"");
	for (size_t i = 0; i < n; i++)
		assay_buf_addch(&text, (char)('a' + i % 26));
	assay_buf_adds(&text, "\", \"passed\": true}");
	assay_buf_addch(&text, '\0');
	return text.ptr;
}

/* The path of the one blob file of the store (there must be exactly one). */
static char *the_blob_file(void)
{
	char *blobs = assay_path_join(dir, "blobs"), *found = NULL;
	DIR *d = opendir(blobs);
	struct dirent *de;

	cr_assert(d, "no blobs/ folder");
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			cr_assert_null(found, "more than one blob file");
			found = assay_path_join(blobs, de->d_name);
		}
	closedir(d);
	free(blobs);
	cr_assert(found, "no blob file");
	return found;
}

Test(store, a_blob_bigger_than_a_chunk_is_a_file_written_once_and_a_new_run_removes_it)
{
	assay_store *s = open_w();
	char *text = line_with(3u << 20), *got, *file;
	struct stat st;

	put(s, "a", 1, text, 1024, NULL);
	put(s, "b", 2, text, 1024, NULL); /* the same value: the same file */
	got = stored(s, "a", NULL, true);
	cr_expect_str_eq(got, text);
	free(got);
	assay_store_close(s);
	cr_expect_eq(query("SELECT count(*) FROM blob_chunks"), 0);
	cr_expect_eq(query("SELECT bytes FROM blobs"), 3 << 20);
	file = the_blob_file(); /* one file, no temporary left */
	cr_assert_eq(stat(file, &st), 0);
	cr_expect_eq(st.st_size, 3 << 20);
	s = open_w(); /* a new run */
	assay_store_close(s);
	cr_expect_neq(stat(file, &st), 0, "a new run keeps the last run's blob file");
	free(file);
	free(text);
}

/* A store with one blob file that `spoil` then changes; reading the case must fail with
 * ASSAY_EINVALID or ASSAY_EIO and not hang or read anything else. */
static void spoiled(void (*spoil)(const char *file))
{
	assay_store *s = open_w(), *r;
	char *text = line_with(2u << 20), *file;
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	put(s, "a", 1, text, 1024, NULL);
	assay_store_close(s);
	file = the_blob_file();
	spoil(file);
	cr_assert_eq(assay_store_open(&r, dir, 0, &err), 0, "%s", err.msg);
	rc = assay_store_previous(r, CP.name, G.name, "a", NULL, A, &v, &err);
	cr_assert_eq(rc, 1, "%s", err.msg);
	rc = assay_store_expand(r, &v, A, &err);
	cr_expect(rc == ASSAY_EINVALID || rc == ASSAY_EIO, "rc %d: %s", rc, err.msg);
	assay_store_close(r);
	free(file);
	free(text);
}

static void to_link(const char *file)
{
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(symlink("/etc/passwd", file), 0);
}

static void to_fifo(const char *file)
{
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(mkfifo(file, 0644), 0);
}

static void cut_short(const char *file)
{
	cr_assert_eq(truncate(file, 1000), 0);
}

static void overwrite(const char *file)
{
	FILE *f = fopen(file, "r+");

	cr_assert(f);
	fputs("forged", f);
	fclose(f);
}

static void folder_to_link(const char *file)
{
	char *blobs = assay_path_join(dir, "blobs"), *moved = assay_path_join(dir, "elsewhere");

	(void)file;
	cr_assert_eq(rename(blobs, moved), 0);
	cr_assert_eq(symlink(moved, blobs), 0);
	free(blobs);
	free(moved);
}

Test(store, a_blob_file_made_a_link_is_refused) { spoiled(to_link); }
Test(store, a_blob_file_made_a_fifo_is_refused_without_waiting) { spoiled(to_fifo); }
Test(store, a_blob_file_cut_short_is_refused) { spoiled(cut_short); }
Test(store, a_blob_file_changed_is_refused) { spoiled(overwrite); }
Test(store, a_blobs_folder_made_a_link_is_refused) { spoiled(folder_to_link); }

Test(store, a_marker_naming_no_blob_file_cannot_reach_outside)
{
	assay_store *s = open_w();
	char *got;
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	/* a record without chunks names a file: a name that is not 64 hex digits names none */
	exec_sql("INSERT INTO blobs VALUES ('../../../../etc/passwd', 'string', 10)");
	put(s, "a", 1, "{\"id\": \"a\", \"passed\": true}", 0, NULL);
	assay_store_close(s);
	exec_sql("UPDATE cases SET line = '{\"id\": \"a\", \"actual\": {\"$assay_cut\": {\"kind\": "
		 "\"string\", \"bytes\": 10, \"sha256\": \"../../../../etc/passwd\", \"head\": "
		 "\"\"}}, \"passed\": true}'");
	cr_assert_eq(assay_store_open(&s, dir, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_store_previous(s, CP.name, G.name, "a", NULL, A, &v, &err), 1);
	cr_expect_neq(assay_store_expand(s, &v, A, &err), 0);
	got = err.msg;
	cr_expect_null(strstr(got, "root:"), "%s", got);
	assay_store_close(s);
}

Test(store, a_killed_writers_temporary_blob_is_removed_when_the_store_is_opened_to_write)
{
	assay_store *s = open_w();
	char *text = line_with(2u << 20), *tmp = assay_path_join(dir, "blobs/.tmp-1-1");
	assay_err err = ASSAY_ERR_INIT;
	FILE *f;

	put(s, "a", 1, text, 1024, NULL);
	assay_store_close(s);
	cr_assert(f = fopen(tmp, "w"));
	fputs("half a blob", f);
	fclose(f);
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
	assay_store_close(s);
	cr_expect_neq(access(tmp, F_OK), 0, "the temporary file is still there");
	free(the_blob_file()); /* the kept blob is */
	free(tmp);
	free(text);
}

static void no_folder(const char *file)
{
	char *blobs = assay_path_join(dir, "blobs");

	(void)file;
	cr_assert_eq(assay_fs_remove_tree(blobs, NULL), 0);
	free(blobs);
}

Test(store, a_folder_copied_without_blobs_says_so)
{
	assay_store *s = open_w(), *r;
	char *text = line_with(2u << 20);
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	put(s, "a", 1, text, 1024, NULL);
	assay_store_close(s);
	no_folder(NULL);
	cr_assert_eq(assay_store_open(&r, dir, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_store_previous(r, CP.name, G.name, "a", NULL, A, &v, &err), 1);
	cr_expect_eq(assay_store_expand(r, &v, A, &err), ASSAY_EINVALID);
	cr_expect(strstr(err.msg, "copy a results folder whole"), "%s", err.msg);
	assay_store_close(r);
	free(text);
}

Test(store, a_marker_in_the_data_is_data)
{
	/* a program that prints a marker naming a kept blob must not have it expanded */
	assay_store *s = open_w();
	assay_buf text = ASSAY_BUF_INIT;
	char sha[65];
	char *got;

	assay_buf_adds(&text, "{\"id\": \"a\", \"expected\": \"");
	for (int i = 0; i < 5000; i++)
		assay_buf_addch(&text, 'E');
	assay_buf_adds(&text, "\", \"passed\": true}");
	assay_buf_addch(&text, '\0');
	put(s, "a", 1, text.ptr, 1024, NULL);
	assay_store_close(s);
	s = NULL;
	{
		assay_store *r;
		assay_err err = ASSAY_ERR_INIT;
		char *path = assay_path_join(dir, ASSAY_STORE_FILE);
		sqlite3 *db;
		sqlite3_stmt *st;

		cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
		cr_assert_eq(sqlite3_prepare_v2(db, "SELECT sha256 FROM blobs", -1, &st, NULL),
			     SQLITE_OK);
		cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
		snprintf(sha, sizeof(sha), "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
		sqlite3_close(db);
		free(path);
		cr_assert_eq(assay_store_open(&r, dir, ASSAY_STORE_WRITE, &err), 0, "%s", err.msg);
		s = r;
	}
	assay_buf_reset(&text);
	assay_buf_addf(&text, "{\"id\": \"b\", \"actual\": {\"$assay_cut\": {\"kind\": \"string\", "
			      "\"bytes\": 5000, \"sha256\": \"%s\", \"head\": \"\"}}, "
			      "\"more\": {\"$$assay_x\": 1}, \"passed\": true}", sha);
	assay_buf_addch(&text, '\0');
	put(s, "b", 2, text.ptr, 1024, NULL);
	got = stored(s, "b", NULL, false);
	cr_expect(strstr(got, "{\"$$assay_cut\": {\"kind\""), "%s", got);
	cr_expect(strstr(got, "{\"$$$assay_x\": 1}"), "%s", got);
	free(got);
	got = stored(s, "b", NULL, true);
	cr_expect_str_eq(got, text.ptr);
	free(got);
	assay_store_close(s);
	assay_buf_release(&text);
}

Test(store, resume_replays_a_result_only_while_its_case_file_is_unchanged)
{
	assay_store *s = open_w();
	char *file = assay_path_join(dir, "case.yaml");
	assay_case kase = { .id = "a", .file = file };
	char *got;

	cr_assert_eq(assay_fs_write(file, "expected: {output: x}\n", 22, 0644, NULL), 0);
	put(s, "a", 1, "{\"id\": \"a\", \"passed\": true}", 0, &kase);
	got = stored(s, "a", file, false);
	cr_expect_str_eq(got, "{\"id\": \"a\", \"passed\": true}");
	free(got);
	cr_assert_eq(assay_fs_write(file, "expected: {output: y}\n", 22, 0644, NULL), 0);
	got = stored(s, "a", file, false);
	cr_expect_str_eq(got, "", "a result of the old case file was replayed");
	free(got);
	/* a case never run has none */
	got = stored(s, "zzz", NULL, false);
	cr_expect_str_eq(got, "");
	free(got);
	assay_store_close(s);
	free(file);
}

Test(store, a_row_changed_by_hand_stops_the_resume)
{
	assay_store *s = open_w();
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	put(s, "a", 1, "{\"id\": \"a\", \"passed\": true}", 0, NULL);
	assay_store_close(s);
	exec_sql("UPDATE cases SET line = '{\"id\": \"a\", \"pass' WHERE id = 'a'");
	cr_assert_eq(assay_store_open(&s, dir, ASSAY_STORE_WRITE, &err), 0);
	cr_expect_eq(assay_store_previous(s, CP.name, G.name, "a", NULL, A, &v, &err),
		     ASSAY_EPARSE);
	cr_expect(strstr(err.msg, "changed by hand"), "%s", err.msg);
	assay_store_close(s);
}

static int collect(void *payload, const assay_value *line, assay_err *err)
{
	assay_buf *b = payload;
	const assay_value *id = assay_object_get(line, "id");

	(void)err;
	assay_buf_add(b, id->u.s, id->len);
	return 0;
}

Test(store, cases_are_read_in_run_order_whatever_order_they_finished_in)
{
	assay_store *s = open_w();
	assay_buf ids = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;

	put(s, "c", 3, "{\"id\": \"c\"}", 0, NULL);
	put(s, "a", 1, "{\"id\": \"a\"}", 0, NULL);
	put(s, "b", 2, "{\"id\": \"b\"}", 0, NULL);
	cr_assert_eq(assay_store_each_case(s, collect, &ids, &err), 0, "%s", err.msg);
	assay_buf_addch(&ids, '\0');
	cr_expect_str_eq(ids.ptr, "abc");
	assay_buf_release(&ids);
	assay_store_close(s);
}

Test(store, a_new_run_forgets_the_last_and_a_resumed_one_keeps_it)
{
	assay_store *s = open_w();
	assay_value meta = js("{\"suite\": \"t\"}"), info, summary = js("{\"totals\": {}}");
	assay_err err = ASSAY_ERR_INIT;
	size_t n;

	put(s, "a", 1, "{\"id\": \"a\"}", 0, NULL);
	cr_assert_eq(assay_store_end_run(s, &summary, true, &err), 0);
	cr_assert_eq(assay_store_run_info(s, &info, A, &err), 0, "%s", err.msg);
	cr_expect(assay_value_is_str(assay_object_get(&info, "suite"), "t"));
	cr_expect_eq(assay_object_get(&info, "interrupted")->kind, ASSAY_V_BOOL);
	cr_expect(assay_object_get(&info, "interrupted")->u.b);
	cr_assert_eq(assay_store_begin_run(s, &meta, true, &err), 0);
	cr_assert_eq(assay_store_count(s, &n, NULL, &err), 0);
	cr_expect_eq(n, 1);
	cr_assert_eq(assay_store_run_info(s, &info, A, &err), 0);
	cr_expect_eq(assay_object_get(&info, "interrupted")->kind, ASSAY_V_NULL);
	cr_expect_eq(assay_object_get(&info, "resumes")->u.i, 1);
	cr_assert_eq(assay_store_begin_run(s, &meta, false, &err), 0);
	cr_assert_eq(assay_store_count(s, &n, NULL, &err), 0);
	cr_expect_eq(n, 0);
	assay_store_close(s);
}

Test(store, the_store_and_lock_are_closed_to_programs_run_meanwhile)
{
	/* every descriptor of the store is close-on-exec: a case started while it is open
	 * inherits none */
	assay_store *s = open_w();
	char cmd[256], out[4096] = "";
	FILE *p;

	put(s, "a", 1, "{\"id\": \"a\"}", 0, NULL);
	snprintf(cmd, sizeof(cmd), "ls -l /proc/self/fd/ 2>/dev/null | grep -c '%s' || true", dir);
	p = popen(cmd, "r");
	cr_assert(p);
	cr_assert(fgets(out, sizeof(out), p));
	pclose(p);
	cr_expect_str_eq(out, "0\n", "a child sees %s", out);
	assay_store_close(s);
}

static size_t file_size(const char *name)
{
	char *path = assay_path_join(dir, name);
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s", path);
	free(path);
	return (size_t)st.st_size;
}

/* The results folder's sink appends a case's line to reports.jsonl once the store has
 * committed it, its batch's lines in one write: never a line of a case the store may lose. */
Test(store, reports_jsonl_gets_a_line_once_its_case_is_committed)
{
	assay_store *s = open_w();
	assay_sink k;
	assay_err err = ASSAY_ERR_INIT;
	assay_value line = js("{\"id\": \"a\", \"results\": {}, \"passed\": true}");
	assay_case_report r = { .checkpoint = &CP, .group = &G, .id = "a", .json = &line,
				.index = 1, .passed = true };

	cr_assert_eq(assay_sink_store_new(&k, s, dir, 0, false, &err), 0, "%s", err.msg);
	cr_assert_eq(k.on_begin(k.payload, NULL, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(k.on_case(k.payload, &r, &err), 0, "%s", err.msg);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 0, "the batch is still open");
	cr_expect_eq(file_size("reports.jsonl"), 0, "a line of a case not yet committed");
	cr_assert_eq(k.flush(k.payload, &err), 0, "%s", err.msg);
	cr_expect_eq(query("SELECT count(*) FROM cases"), 1);
	cr_expect_eq(file_size("reports.jsonl"), strlen("{\"id\": \"a\", \"results\": {}, \"passed\": true}\n"));
	k.free(k.payload);
	assay_store_close(s);
}

/* Lines beyond what may wait in memory (a megabyte) go to reports.jsonl at once, their batch
 * committed first: a full disk that loses the batch must not leave lines of cases the store
 * never had (a run that failed so on a 2 MB tmpfs had 148 of them in reports.jsonl, none in
 * the store). */
Test(store, reports_jsonl_lines_past_the_memory_bound_are_committed_first)
{
	assay_store *s = open_w();
	assay_sink k;
	assay_err err = ASSAY_ERR_INIT;
	size_t big = 700 * 1024, lines = 0, bytes;
	char *text = malloc(big + 64);

	cr_assert_eq(assay_sink_store_new(&k, s, dir, SIZE_MAX, false, &err), 0, "%s", err.msg);
	cr_assert_eq(k.on_begin(k.payload, NULL, 2, &err), 0, "%s", err.msg);
	for (size_t i = 1; i <= 2; i++) {
		char id[8];
		int n = snprintf(text, 64, "{\"id\": \"a%zu\", \"out\": \"", i);

		memset(text + n, 'x', big);
		strcpy(text + n + big, "\"}");
		snprintf(id, sizeof(id), "a%zu", i);
		assay_value line = js(text);
		assay_case_report r = { .checkpoint = &CP, .group = &G, .id = id, .json = &line,
					.index = i, .passed = true };
		cr_assert_eq(k.on_case(k.payload, &r, &err), 0, "%s", err.msg);
	}
	bytes = file_size("reports.jsonl");
	lines = bytes / (big + 20); /* each line is a little more than `big` */
	cr_expect_gt(bytes, 0, "more than a megabyte waits");
	cr_expect_eq(query("SELECT count(*) FROM cases"), (long long)lines,
		     "%zu lines in reports.jsonl, of cases the store has not committed", lines);
	k.free(k.payload);
	assay_store_close(s);
	free(text);
}
