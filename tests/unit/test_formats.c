/*
 * The TOML and INI readers against Python's own (tests/formats/gen_corpus.py made the corpus
 * in tests/fixtures/formats with tomllib and configparser): every text Python reads must read
 * to the same value, member order included, and every text Python refuses must be refused.
 * Cases marked "assay": "error" are documented divergences (toml.h), which must be refused.
 * Plus the readers' own promises: messages and positions, the key-depth bound, the arena limit.
 */
#include <criterion/criterion.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "assay/fs.h"
#include "assay/ini.h"
#include "assay/json.h"
#include "assay/toml.h"

/* `v` with every datetime made {"$datetime": kind, "text": text}, as the fixtures encode them. */
static assay_value encode(assay_arena *a, const assay_value *v)
{
	static const char *const kinds[] = { "offset", "local", "date", "time" };
	assay_value out;

	switch (v->kind) {
	case ASSAY_V_DATETIME:
		out = assay_value_object();
		assay_object_set(a, &out, "$datetime",
				 assay_value_strz(a, kinds[assay_value_datetime_kind(v)]));
		assay_object_set(a, &out, "text", assay_value_string(a, v->u.s, v->len));
		return out;
	case ASSAY_V_ARRAY:
		out = assay_value_array();
		for (uint32_t i = 0; i < v->len; i++)
			assay_array_push(a, &out, encode(a, &v->u.items[i]));
		return out;
	case ASSAY_V_OBJECT:
		out = assay_value_object();
		for (uint32_t i = 0; i < v->len; i++)
			assay_object_append(a, &out, v->u.members[i].key,
					    encode(a, &v->u.members[i].value));
		return out;
	default:
		return *v;
	}
}

static char *text_of(const assay_value *v)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_json_write(&b, v, 0);
	return assay_buf_detach(&b, NULL);
}

typedef int (*reader_fn)(assay_value *out, assay_arena *a, const char *text, size_t len,
			 bool lower, assay_err *err);

static int read_toml(assay_value *out, assay_arena *a, const char *text, size_t len, bool lower,
		     assay_err *err)
{
	(void)lower;
	return assay_toml_parse(out, a, text, len, NULL, err);
}

static int read_ini(assay_value *out, assay_arena *a, const char *text, size_t len, bool lower,
		    assay_err *err)
{
	assay_ini_opts o = ASSAY_INI_OPTS_INIT;

	o.lower_keys = lower;
	return assay_ini_parse(out, a, text, len, &o, err);
}

/* Checks one expectation of a case: `want` (Python's value) or an error; counts mismatches. */
static int check(const char *what, const assay_value *c, const char *value_key,
		 const char *error_key, reader_fn fn, bool lower, assay_arena *a)
{
	const assay_value *text = assay_object_get(c, "text");
	const assay_value *name = assay_object_get(c, "name");
	const assay_value *want = assay_object_get(c, value_key);
	const assay_value *marked = assay_object_get(c, "assay");
	bool refuse = !want || (marked && assay_value_is_str(marked, "error"));
	assay_value got;
	assay_err e = ASSAY_ERR_INIT;
	int rc = fn(&got, a, text->u.s, text->len, lower, &e);

	(void)error_key;
	if (refuse) {
		if (rc == ASSAY_EPARSE && e.line > 0)
			return 0;
		char *g = rc ? NULL : text_of(&got);
		fprintf(stderr, "%s %s: Python refuses (%s), assay reads %s (rc %d)\n", what,
			name->u.s,
			assay_object_get(c, error_key) ? assay_object_get(c, error_key)->u.s
						       : "documented divergence",
			g ? g : "an error without a line", rc);
		free(g);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "%s %s: Python reads it, assay refuses: %d:%d: %s\n", what,
			name->u.s, e.line, e.column, e.msg);
		return 1;
	}
	assay_value enc = encode(a, &got);
	char *g = text_of(&enc), *w = text_of(want);
	int bad = strcmp(g, w) != 0;
	if (bad)
		fprintf(stderr, "%s %s:\n  python %s\n  assay  %s\n", what, name->u.s, w, g);
	free(g);
	free(w);
	return bad;
}

static size_t replay(const char *file, int *bad_out, bool ini)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_value cases;
	int bad = 0;

	cr_assert_eq(assay_fs_read(&b, file, 0, NULL), 0, "cannot read %s", file);
	cr_assert_eq(assay_json_parse_lines(&cases, a, b.ptr, b.len, false, NULL, NULL), 0);
	for (uint32_t i = 0; i < cases.len; i++) {
		const assay_value *c = &cases.u.items[i];

		if (ini) {
			bad += check("ini", c, "value", "error", read_ini, false, a);
			bad += check("ini lower_keys", c, "lower", "lower_error", read_ini, true, a);
		} else {
			bad += check("toml", c, "value", "error", read_toml, false, a);
		}
	}
	assay_arena_free(a);
	assay_buf_release(&b);
	*bad_out = bad;
	return cases.len;
}

Test(formats, toml_reads_as_tomllib)
{
	int bad;
	size_t n = replay(ASSAY_FIXTURES "/formats/toml.jsonl", &bad, false);

	cr_assert_gt(n, 800);
	cr_assert_eq(bad, 0, "%d of %zu TOML cases differ from tomllib (listed above)", bad, n);
}

Test(formats, ini_reads_as_configparser)
{
	int bad;
	size_t n = replay(ASSAY_FIXTURES "/formats/ini.jsonl", &bad, true);

	cr_assert_gt(n, 600);
	cr_assert_eq(bad, 0, "%d INI readings differ from configparser (listed above)", bad);
}

/* ---- the readers' own promises ------------------------------------------------------------ */

static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_buf_adds(&b, head);
	for (size_t i = 0; i < n; i++)
		assay_buf_adds(&b, unit);
	assay_buf_adds(&b, tail);
	return assay_buf_detach(&b, NULL);
}

Test(formats, toml_bounds_what_toml_plus_plus_would_recurse_on)
{
	assay_arena *a = assay_arena_new(0);
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	char *deep_key = repeat("x = 1\n[", "a.", 200, "a]\n");
	char *nested = repeat("x = ", "{k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k = ",
			      250, "1");

	cr_assert_eq(assay_toml_parse(&v, a, deep_key, strlen(deep_key), "out", &e), ASSAY_EPARSE);
	cr_assert_str_eq(e.msg, "a key of more than 128 parts");
	cr_assert_eq(e.line, 2);
	cr_assert_eq(e.column, 257); /* the 128th dot: 129 parts */
	cr_assert_str_eq(e.path, "out");
	/* 250 inline tables of 30-part keys: 7,500 levels, read on the reader's own stack */
	char *closed = repeat(nested, "}", 250, "\n");
	cr_assert_eq(assay_toml_parse(&v, a, closed, strlen(closed), NULL, NULL), 0);
	cr_assert_geq(assay_value_depth(&v), 7500);
	free(deep_key);
	free(nested);
	free(closed);
	assay_arena_free(a);
}

Test(formats, toml_refuses_texts_past_its_size_bound_and_the_arena_limit)
{
	assay_arena *a = assay_arena_new(0), *small = assay_arena_new(64 * 1024);
	size_t n = ASSAY_TOML_MAX_TEXT + 1;
	char *big = malloc(n);
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	char *many;

	memset(big, '#', n);
	cr_assert_eq(assay_toml_parse(&v, a, big, n, NULL, &e), ASSAY_ETOOBIG);
	cr_assert(strstr(e.msg, "is more than the 12 MiB assay reads"), "%s", e.msg);
	many = repeat("x = [", "1, ", 100000, "1]\n");
	cr_assert_eq(assay_toml_parse(&v, small, many, strlen(many), NULL, NULL), ASSAY_ETOOBIG);
	free(many);
	free(big);
	assay_arena_free(a);
	assay_arena_free(small);
}

Test(formats, ini_messages_positions_and_the_arena_limit)
{
	static const struct {
		const char *text, *msg;
		int line, col;
	} cases[] = {
		{ "k = v\n", "file contains no section headers", 1, 1 },
		{ "[a]\n[b]\n  [a]\n", "section 'a' already exists", 3, 3 },
		{ "[a]\nk = 1\nk: 2\n", "option 'k' in section 'a' already exists", 3, 1 },
		{ "[a]\njunk\n[a]\n", "section 'a' already exists", 3, 1 },
		{ "[a]\njunk\nmore\n", "not a section, option or continuation line: 'junk'", 2, 1 },
		{ "[a]\n  = v\n", "an option needs a name", 2, 3 },
		{ "[a]\nk = \xff\n", "not valid UTF-8", 2, 5 },
	};
	assay_arena *a = assay_arena_new(0), *small = assay_arena_new(256 * 1024);
	assay_value v;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assay_err e = ASSAY_ERR_INIT;

		cr_assert_eq(assay_ini_parse(&v, a, cases[i].text, strlen(cases[i].text), NULL, &e),
			     ASSAY_EPARSE, "%s", cases[i].text);
		cr_assert_str_eq(e.msg, cases[i].msg);
		cr_assert_eq(e.line, cases[i].line, "%s: line %d", cases[i].msg, e.line);
		cr_assert_eq(e.column, cases[i].col, "%s: column %d", cases[i].msg, e.column);
	}
	assay_buf b = ASSAY_BUF_INIT;
	assay_buf_adds(&b, "[s]\n");
	for (int i = 0; i < 200000; i++)
		assay_buf_addf(&b, "k%d = v\n", i);
	assay_err e = ASSAY_ERR_INIT;
	cr_assert_eq(assay_ini_parse(&v, small, b.ptr, b.len, NULL, &e), ASSAY_ETOOBIG);
	cr_assert_eq(assay_ini_parse(&v, a, b.ptr, b.len, NULL, NULL), 0);
	cr_assert_eq(assay_object_get(&v, "s")->len, 200000);
	assay_buf_release(&b);
	assay_arena_free(a);
	assay_arena_free(small);
}

Test(formats, toml_datetime_of_a_case_file_string)
{
	assay_arena *a = assay_arena_new(0);
	assay_value v;

	cr_assert(assay_toml_datetime(&v, a, "1979-05-27 07:32:00.5Z", 22));
	cr_assert_eq(assay_value_datetime_kind(&v), ASSAY_DT_OFFSET);
	cr_assert_eq(v.len, strlen("1979-05-27T07:32:00.500000+00:00"));
	cr_assert(assay_toml_datetime(&v, a, "07:32:00", 8));
	cr_assert_eq(assay_value_datetime_kind(&v), ASSAY_DT_TIME);
	cr_assert_not(assay_toml_datetime(&v, a, "1979-05-27\n[x]", 14));
	cr_assert_not(assay_toml_datetime(&v, a, "not a date", 10));
	cr_assert_not(assay_toml_datetime(&v, a, "2023-02-29", 10));
	assay_arena_free(a);
}

/* Peak resident memory of this test's process so far, bytes (each test runs in its own). */
static size_t peak_rss(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (size_t)ru.ru_maxrss * 1024;
}

/*
 * The INI reader stops near its arena's limit (hostile review F8): "[s]" and 8 M lines "%x="
 * stopped at 768 MiB against a 512 MiB budget (900 MB resident), as the options' arrays
 * doubled in the arena and the values were built a whole section at a time. Here at 64 MiB:
 * what the process holds at its peak stays within a quarter of the limit above it.
 */
Test(formats, ini_stops_near_the_arena_limit)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	const size_t limit = 64u << 20;
	assay_buf b = ASSAY_BUF_INIT;
	assay_arena *small = assay_arena_new(limit);
	assay_err e = ASSAY_ERR_INIT;
	assay_value v;

	assay_buf_adds(&b, "[s]\n");
	for (int i = 0; i < 6000000; i++)
		assay_buf_addf(&b, "%x=\n", i);
	size_t before = peak_rss();
	cr_assert_eq(assay_ini_parse(&v, small, b.ptr, b.len, NULL, &e), ASSAY_ETOOBIG);
	size_t grew = peak_rss() - before;
#ifndef __SANITIZE_ADDRESS__ /* (ASan's redzones and quarantine are resident too) */
	cr_expect_lt(grew, limit + limit / 4, "the reader took %zu MiB against %zu MiB",
		     grew >> 20, limit >> 20);
#else
	(void)grew;
#endif
	cr_expect_lt(assay_arena_used(small), limit + limit / 4, "%zu bytes",
		     assay_arena_used(small));
	assay_arena_free(small);
	/* the same text under a limit it fits: read whole */
	assay_buf_reset(&b);
	assay_buf_adds(&b, "[s]\n");
	for (int i = 0; i < 100000; i++)
		assay_buf_addf(&b, "%x=\n", i);
	small = assay_arena_new(limit);
	cr_assert_eq(assay_ini_parse(&v, small, b.ptr, b.len, NULL, &e), 0, "%s", e.msg);
	cr_expect_eq(assay_object_get(&v, "s")->len, 100000);
	assay_arena_free(small);
	assay_buf_release(&b);
}
