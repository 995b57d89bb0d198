/*
 * deepdiff parity: every fixture of tests/fixtures/parity (made by tests/parity/gen_corpus.py
 * with python3-deepdiff 6.2.2) must come out of assay_diff() exactly as deepdiff wrote it:
 * the same categories, paths and values, in the same order. The fixture's "options" are
 * assay's option names; where a fixture sets no tolerance, deepdiff ran with its default
 * (12 decimal places), which assay spells significant_digits: 12.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/diff.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "json/json_int.h"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **fixtures(size_t *n)
{
	DIR *d = opendir(ASSAY_FIXTURES "/parity");
	struct dirent *e;
	char **v = NULL;
	size_t nr = 0;

	cr_assert_not_null(d, "no fixtures folder");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		v = realloc(v, (nr + 1) * sizeof(*v));
		v[nr++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(v, nr, sizeof(*v), name_cmp);
	*n = nr;
	return v;
}

/* The fixture's actual, written and parsed again like its expected (json_int.h): whatever
 * the two have in common shares storage, as in the json verifier. */
static const assay_value *actual_like_expected(assay_arena *a, const assay_value *fx)
{
	assay_buf t = ASSAY_BUF_INIT;
	assay_value *v = assay_arena_alloc(a, sizeof(*v));
	const char *copy;

	assay_json_write(&t, assay_object_get(fx, "actual"), 0);
	copy = assay_arena_strndup(a, t.ptr, t.len);
	cr_assert_eq(assay_json__parse_like(v, a, copy, t.len, NULL, assay_object_get(fx, "expected"),
					    NULL), 0);
	assay_buf_release(&t);
	return v;
}

/* Runs one fixture (its actual sharing the expected's storage when `shared`); returns NULL
 * when it matches, else a description of the mismatch. */
static char *run_fixture(const char *name, bool shared)
{
	char *path = assay_xasprintf(ASSAY_FIXTURES "/parity/%s", name);
	assay_buf text = ASSAY_BUF_INIT, got = ASSAY_BUF_INIT, want = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_value fx, opts, diff;
	assay_diff_opts o;
	assay_err err = ASSAY_ERR_INIT;
	char *problem = NULL;

	if (assay_fs_read(&text, path, 0, &err) ||
	    assay_json_parse(&fx, a, text.ptr, text.len, NULL, &err)) {
		problem = assay_xasprintf("cannot read: %s", err.msg);
		goto out;
	}
	opts = *assay_object_get(&fx, "options");
	if (!assay_object_get(&opts, "abs_tol") && !assay_object_get(&opts, "significant_digits"))
		assay_object_set(a, &opts, "significant_digits", assay_value_int(12));
	if (assay_diff_opts_parse(&o, a, &opts, &err)) {
		problem = assay_xasprintf("options refused: %s", err.msg);
		goto out;
	}
	assay_diff(&diff, a, assay_object_get(&fx, "expected"),
		   shared ? actual_like_expected(a, &fx) : assay_object_get(&fx, "actual"), &o, 0,
		   NULL);
	assay_json_write(&got, &diff, 0);
	assay_json_write(&want, assay_object_get(&fx, "diff"), 0);
	if (got.len != want.len || memcmp(got.ptr, want.ptr, got.len))
		problem = assay_xasprintf("\n  want %s\n  got  %s", want.ptr, got.ptr);
out:
	free(path);
	assay_buf_release(&text);
	assay_buf_release(&got);
	assay_buf_release(&want);
	assay_arena_free(a);
	return problem;
}

static void check_every_fixture(bool shared)
{
	size_t n, bad = 0;
	char **names = fixtures(&n);

	cr_assert_geq(n, 400, "the corpus has %zu fixtures", n);
	for (size_t i = 0; i < n; i++) {
		char *problem = run_fixture(names[i], shared);

		if (problem) {
			if (bad < 25)
				cr_log_error("%s: %s", names[i], problem);
			bad++;
			free(problem);
		}
		free(names[i]);
	}
	free(names);
	cr_expect_eq(bad, 0, "%zu of %zu fixtures differ from deepdiff%s", bad, n,
		     shared ? " (actual sharing the expected's storage)" : "");
}

Test(parity, every_fixture_matches_deepdiff)
{
	check_every_fixture(false);
}

/* The json verifier parses an actual output like its expected value: the same reports. */
Test(parity, every_fixture_matches_deepdiff_with_shared_storage)
{
	check_every_fixture(true);
}

/* The harness itself can fail: a fixture with a wrong diff is noticed. */
Test(parity, a_wrong_expectation_is_caught)
{
	assay_arena *a = assay_arena_new(0);
	assay_value e = assay_value_int(1), x = assay_value_int(2), diff;
	assay_buf got = ASSAY_BUF_INIT;

	assay_diff(&diff, a, &e, &x, NULL, 0, NULL);
	assay_json_write(&got, &diff, 0);
	cr_assert_str_eq(got.ptr, "{\"values_changed\": {\"root\": {\"new_value\": 2, \"old_value\": 1}}}");
	cr_assert_str_neq(got.ptr, "{}");
	assay_buf_release(&got);
	assay_arena_free(a);
}
