/*
 * Tests of assay_udiff: fixed cases with the expected text written out, the same and 300 random
 * pairs held against the real `diff -u` (GNU diffutils), and the over-budget fallback checked by
 * applying its output to the first text.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/udiff.h"
#include "util/hash.h"
#include "util/banned.h"

static char *udiff_n(const char *a, size_t alen, const char *b, size_t blen, int context)
{
	assay_buf out = ASSAY_BUF_INIT;

	assay_udiff(&out, a, alen, b, blen, "expected", "actual", context);
	return assay_buf_detach(&out, NULL);
}

static char *udiff(const char *a, const char *b)
{
	return udiff_n(a, strlen(a), b, strlen(b), 3);
}

static void write_temp(char *path, const char *data, size_t len)
{
	int fd = mkstemp(path);
	cr_assert(fd >= 0, "mkstemp failed");
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* What `diff -a -U<context> --label expected --label actual` prints for the two texts. */
static char *real_diff(const char *a, size_t alen, const char *b, size_t blen, int context)
{
	char pa[] = "/tmp/assay-udiff-XXXXXX", pb[] = "/tmp/assay-udiff-XXXXXX";
	char cmd[256];
	assay_buf out = ASSAY_BUF_INIT;
	char chunk[4096];
	size_t n;

	write_temp(pa, a, alen);
	write_temp(pb, b, blen);
	snprintf(cmd, sizeof(cmd), "diff -a -U%d --label expected --label actual %s %s", context,
		 pa, pb);
	FILE *p = popen(cmd, "r");
	cr_assert(p, "cannot run diff");
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		assay_buf_add(&out, chunk, n);
	int status = pclose(p);
	cr_assert(status != -1 && WEXITSTATUS(status) <= 1, "diff failed");
	unlink(pa);
	unlink(pb);
	return assay_buf_detach(&out, NULL);
}

static void check_against_diff(const char *a, size_t alen, const char *b, size_t blen, int ctx)
{
	char *ours = udiff_n(a, alen, b, blen, ctx);
	char *theirs = real_diff(a, alen, b, blen, ctx);
	cr_expect_str_eq(ours, theirs, "a:\n%.*s\nb:\n%.*s\nours:\n%s\ndiff -u:\n%s", (int)alen, a,
			 (int)blen, b, ours, theirs);
	free(ours);
	free(theirs);
}

static void check(const char *a, const char *b, const char *expected)
{
	char *got = udiff(a, b);
	cr_expect_str_eq(got, expected, "a: '%s'\nb: '%s'\ngot:\n%s\nwant:\n%s", a, b, got,
			 expected);
	free(got);
	check_against_diff(a, strlen(a), b, strlen(b), 3);
}

Test(udiff, identical_texts_give_nothing)
{
	char *got = udiff("a\nb\n", "a\nb\n");
	cr_assert_str_eq(got, "");
	free(got);
	got = udiff("", "");
	cr_assert_str_eq(got, "");
	free(got);
	got = udiff("no newline", "no newline");
	cr_assert_str_eq(got, "");
	free(got);
}

Test(udiff, insert_delete_change_at_start)
{
	check("b\nc\nd\n", "a\nb\nc\nd\n",
	      "--- expected\n+++ actual\n@@ -1,3 +1,4 @@\n+a\n b\n c\n d\n");
	check("a\nb\nc\nd\n", "b\nc\nd\n",
	      "--- expected\n+++ actual\n@@ -1,4 +1,3 @@\n-a\n b\n c\n d\n");
	check("a\nb\nc\nd\ne\n", "x\nb\nc\nd\ne\n",
	      "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n-a\n+x\n b\n c\n d\n");
}

Test(udiff, insert_delete_change_in_the_middle)
{
	check("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nnew\n5\n6\n7\n8\n",
	      "--- expected\n+++ actual\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n");
	check("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n5\n6\n7\n8\n",
	      "--- expected\n+++ actual\n@@ -1,7 +1,6 @@\n 1\n 2\n 3\n-4\n 5\n 6\n 7\n");
	check("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n",
	      "--- expected\n+++ actual\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

Test(udiff, insert_delete_change_at_end)
{
	check("a\nb\nc\nd\n", "a\nb\nc\nd\ne\n",
	      "--- expected\n+++ actual\n@@ -2,3 +2,4 @@\n b\n c\n d\n+e\n");
	check("a\nb\nc\nd\ne\n", "a\nb\nc\nd\n",
	      "--- expected\n+++ actual\n@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n");
	check("a\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n",
	      "--- expected\n+++ actual\n@@ -2,4 +2,4 @@\n b\n c\n d\n-e\n+E\n");
}

Test(udiff, single_lines_without_newline)
{
	check("hello", "world",
	      "--- expected\n+++ actual\n@@ -1 +1 @@\n-hello\n\\ No newline at end of file\n"
	      "+world\n\\ No newline at end of file\n");
	check("42\n", "43\n", "--- expected\n+++ actual\n@@ -1 +1 @@\n-42\n+43\n");
}

Test(udiff, missing_newline_on_one_side)
{
	check("a\nb", "a\nb\n",
	      "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
	      "+b\n");
	check("a\nb\n", "a\nb",
	      "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n"
	      "\\ No newline at end of file\n");
	check("x", "x\n",
	      "--- expected\n+++ actual\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
}

Test(udiff, missing_newline_in_context)
{
	check("a\nb\nc", "a\nB\nc",
	      "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	      "\\ No newline at end of file\n");
}

Test(udiff, empty_sides)
{
	check("", "a\nb\n", "--- expected\n+++ actual\n@@ -0,0 +1,2 @@\n+a\n+b\n");
	check("a\n", "", "--- expected\n+++ actual\n@@ -1 +0,0 @@\n-a\n");
	check("", "x",
	      "--- expected\n+++ actual\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n");
}

Test(udiff, nearby_hunks_merge_and_far_ones_do_not)
{
	/* Changes at lines 3 and 10: 6 unchanged lines between (= 2 * context) merge. */
	check("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n",
	      "1\n2\nX\n4\n5\n6\n7\n8\n9\nY\n11\n12\n13\n",
	      "--- expected\n+++ actual\n@@ -1,13 +1,13 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n 7\n 8\n"
	      " 9\n-10\n+Y\n 11\n 12\n 13\n");
	/* Lines 3 and 11: 7 between, two hunks. */
	check("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n",
	      "1\n2\nX\n4\n5\n6\n7\n8\n9\n10\nY\n12\n13\n14\n",
	      "--- expected\n+++ actual\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n"
	      "@@ -8,7 +8,7 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n 13\n 14\n");
}

Test(udiff, context_zero_and_one)
{
	const char *a = "1\n2\n3\n4\n5\n", *b = "1\n2\n3\nnew\n4\n5\n";
	char *got = udiff_n(a, strlen(a), b, strlen(b), 0);
	cr_assert_str_eq(got, "--- expected\n+++ actual\n@@ -3,0 +4 @@\n+new\n");
	free(got);
	check_against_diff(a, strlen(a), b, strlen(b), 0);
	check_against_diff(a, strlen(a), b, strlen(b), 1);
	check_against_diff("1\n2\n3\n", 6, "1\n3\n", 4, 0);
}

Test(udiff, runs_slide_like_diff)
{
	/* Ambiguous placements: diff puts an inserted duplicate last, and lines up changes. */
	check_against_diff("a\na\na\n", 6, "a\na\na\na\n", 8, 3);
	check_against_diff("x\na\nb\na\nb\ny\n", 12, "x\na\nb\ny\n", 8, 3);
	check_against_diff("a\nb\nc\n", 6, "c\nb\na\n", 6, 3);
	check_against_diff("{\n}\n{\n}\n", 8, "{\n}\n{\n}\n{\n}\n", 12, 3);
}

Test(udiff, lines_set_aside_like_diff)
{
	/* A run of lines found only in a, with a line frequent in b ("X") inside it: diff sets
	 * aside the X lines that are deep in the run (8 lines or more in), not the others. */
	assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT;
	const char *pattern = "uuXuuXuuXuuXuuuuuuuuuuu";
	for (int i = 0; pattern[i]; i++) {
		if (pattern[i] == 'X')
			assay_buf_adds(&a, "X\n");
		else
			assay_buf_addf(&a, "u%d\n", i);
	}
	assay_buf_adds(&b, "start\n");
	for (int i = 0; i < 8; i++)
		assay_buf_adds(&b, "X\nv\n");
	check_against_diff(a.ptr, a.len, b.ptr, b.len, 3);
	assay_buf_release(&a);
	assay_buf_release(&b);
}

Test(udiff, bytes_are_copied_as_they_are)
{
	const char a[] = "a\0b\n\xff\xfe\n", b[] = "a\0c\n\xff\xfe\n";
	char *got = udiff_n(a, sizeof(a) - 1, b, sizeof(b) - 1, 3);
	const char want[] = "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n-a\0b\n+a\0c\n \xff\xfe\n";
	cr_assert(!memcmp(got, want, sizeof(want)), "NUL and invalid bytes kept");
	free(got);
	check_against_diff(a, sizeof(a) - 1, b, sizeof(b) - 1, 3);
}

Test(udiff, long_common_ends_are_numbered_right)
{
	assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT;
	for (int i = 0; i < 200; i++) {
		assay_buf_addf(&a, "line %d\n", i);
		assay_buf_addf(&b, "line %d\n", i == 120 ? -1 : i);
		if (i == 50)
			assay_buf_adds(&b, "extra\n");
	}
	check_against_diff(a.ptr, a.len, b.ptr, b.len, 3);
	assay_buf_release(&a);
	assay_buf_release(&b);
	/* A repeated line added after a long run of the same line. */
	assay_buf_init(&a, 0, 0);
	assay_buf_init(&b, 0, 0);
	for (int i = 0; i < 100; i++)
		assay_buf_adds(&a, "x\n");
	for (int i = 0; i < 101; i++)
		assay_buf_adds(&b, "x\n");
	check_against_diff(a.ptr, a.len, b.ptr, b.len, 3);
	assay_buf_release(&a);
	assay_buf_release(&b);
}

/* A small, seeded PRNG (xorshift64*), so failures reproduce. */
static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % n;
}

static const char *const words[] = {
	"a", "b", "c", "d", "e", "f", "", "  ", "{", "}", "the quick brown fox", "a",
};

static void random_text(assay_buf *t, int nlines, int alphabet, int unique_from)
{
	for (int i = 0; i < nlines; i++) {
		int w = (int)rnd((uint32_t)alphabet);
		if (unique_from && rnd(6) == 0)
			assay_buf_addf(t, "only %d %d\n", unique_from, (int)rnd(1000));
		else
			assay_buf_addf(t, "%s\n", words[w]);
	}
	if (t->len && rnd(4) == 0)
		assay_buf_setlen(t, t->len - 1); /* no newline at the end */
}

/* Runs of lines found only on this side, sprinkled with lines frequent on both: what makes diff
 * set lines aside provisionally. */
static void junk_text(assay_buf *t, int nlines, int side)
{
	for (int i = 0; i < nlines; i++) {
		uint32_t r = rnd(10);
		if (r < 5)
			assay_buf_addf(t, "only %d %d\n", side, i);
		else if (r < 8)
			assay_buf_adds(t, "X\n");
		else
			assay_buf_addf(t, "%s\n", words[rnd(4)]);
	}
}

/* b made from a by a few edits. */
static void mutate(assay_buf *b, const assay_buf *a, int alphabet)
{
	const char *p = a->ptr, *end = a->ptr + a->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		uint32_t r = rnd(10);
		if (r == 1) /* insert before */
			assay_buf_addf(b, "%s\n", words[rnd((uint32_t)alphabet)]);
		if (r == 2) /* change */
			assay_buf_addf(b, "changed %d\n", (int)rnd(3));
		else if (r != 0) /* keep (0: delete) */
			assay_buf_add(b, p, len);
		p += len;
	}
	if (rnd(5) == 0)
		assay_buf_addf(b, "%s\n", words[rnd((uint32_t)alphabet)]);
	if (b->len && b->ptr[b->len - 1] == '\n' && rnd(5) == 0)
		assay_buf_setlen(b, b->len - 1);
}

Test(udiff, random_pairs_match_gnu_diff)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	for (int seed = 1; seed <= 300; seed++) {
		assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT;
		rng_state = 0x9E3779B97F4A7C15u * (uint64_t)seed;
		int alphabet = 2 + (int)rnd(10);
		int kind = seed % 4;
		int na = (int)rnd(seed % 5 == 0 ? 60 : 16);
		if (kind == 3) {
			junk_text(&a, 10 + (int)rnd(60), 1);
			junk_text(&b, 10 + (int)rnd(60), 2);
		} else {
			random_text(&a, na, alphabet, kind == 2 ? 1 : 0);
		}
		if (kind == 0)
			mutate(&b, &a, alphabet);
		else if (kind != 3)
			random_text(&b, (int)rnd(seed % 5 == 0 ? 60 : 16), alphabet,
				    kind == 2 ? 2 : 0);
		int ctx = seed % 7 == 0 ? (int)rnd(5) : 3;
		check_against_diff(a.ptr, a.len, b.ptr, b.len, ctx);
		assay_buf_release(&a);
		assay_buf_release(&b);
	}
}

/*
 * Applying a unified diff, to check scripts that are not diff's own (the fallback): every
 * context and removed line must match `a`, and the result must be `b`.
 */
struct dline {
	char mark;
	const char *p;
	size_t len; /* with its '\n', unless "\ No newline" followed */
};

struct lines {
	const char **p;
	size_t *len;
	size_t n;
};

static void split(struct lines *l, const char *t, size_t len)
{
	const char *end = t + len;

	l->p = calloc(len + 1, sizeof(*l->p));
	l->len = calloc(len + 1, sizeof(*l->len));
	l->n = 0;
	while (t < end) {
		const char *nl = memchr(t, '\n', (size_t)(end - t));
		size_t n = nl ? (size_t)(nl - t) + 1 : (size_t)(end - t);
		l->p[l->n] = t;
		l->len[l->n++] = n;
		t += n;
	}
}

static void apply(assay_buf *res, const char *a, size_t alen, const char *d, size_t dlen)
{
	struct lines al;
	size_t nd = 0, ai = 0;
	struct dline *dl = calloc(dlen + 1, sizeof(*dl));
	const char *p = d, *end = d + dlen;

	split(&al, a, alen);
	if (!dlen) /* no differences */
		p = end;
	/* Split the diff, skipping the two header lines. */
	for (int skip = 0; skip < 2 && p < end; skip++)
		p = (const char *)memchr(p, '\n', (size_t)(end - p)) + 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		cr_assert(nl, "diff line without newline");
		if (*p == '\\') {
			cr_assert(nd > 0);
			dl[nd - 1].len--;
		} else {
			dl[nd++] = (struct dline){ *p, p + 1, (size_t)(nl - p) };
		}
		p = nl + 1;
	}
	for (size_t k = 0; k < nd;) {
		long s0, c0 = 1, s1, c1 = 1;
		const char *h = dl[k].p - 1;
		cr_assert_eq(dl[k].mark, '@');
		if (sscanf(h, "@@ -%ld,%ld +%ld,%ld @@", &s0, &c0, &s1, &c1) != 4) {
			c0 = c1 = 1;
			if (sscanf(h, "@@ -%ld,%ld +%ld @@", &s0, &c0, &s1) != 3) {
				c0 = 1;
				if (sscanf(h, "@@ -%ld +%ld,%ld @@", &s0, &s1, &c1) != 3) {
					c1 = 1;
					cr_assert_eq(sscanf(h, "@@ -%ld +%ld @@", &s0, &s1), 2);
				}
			}
		}
		size_t start = (size_t)(c0 ? s0 - 1 : s0);
		cr_assert(start >= ai && start <= al.n, "hunk out of order");
		while (ai < start) {
			assay_buf_add(res, al.p[ai], al.len[ai]);
			ai++;
		}
		long n0 = 0, n1 = 0;
		for (k++; k < nd && dl[k].mark != '@'; k++) {
			struct dline *x = &dl[k];
			if (x->mark == ' ' || x->mark == '-') {
				cr_assert(ai < al.n, "hunk runs past the end");
				cr_assert(x->len == al.len[ai] && !memcmp(x->p, al.p[ai], x->len),
					  "line %zu does not match", ai + 1);
				if (x->mark == ' ')
					assay_buf_add(res, x->p, x->len);
				ai++;
				n0++;
				n1 += x->mark == ' ';
			} else {
				cr_assert_eq(x->mark, '+');
				assay_buf_add(res, x->p, x->len);
				n1++;
			}
		}
		cr_assert_eq(n0, c0);
		cr_assert_eq(n1, c1);
	}
	while (ai < al.n) {
		assay_buf_add(res, al.p[ai], al.len[ai]);
		ai++;
	}
	free(al.p);
	free(al.len);
	free(dl);
}

static size_t count_changed_lines(const char *d)
{
	size_t n = 0;
	for (const char *p = d; *p; p = strchr(p, '\n') + 1) {
		if ((*p == '+' && p[1] != '+') || (*p == '-' && p[1] != '-'))
			n++;
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}

Test(udiff, applying_the_diff_gives_the_actual_text)
{
	for (int seed = 1; seed <= 100; seed++) {
		assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT, res = ASSAY_BUF_INIT;
		rng_state = 0xD1B54A32D192ED03u * (uint64_t)seed;
		int alphabet = 2 + (int)rnd(10);
		random_text(&a, (int)rnd(40), alphabet, seed % 2);
		if (seed % 2)
			mutate(&b, &a, alphabet);
		else
			random_text(&b, (int)rnd(40), alphabet, 0);
		char *d = udiff_n(a.ptr, a.len, b.ptr, b.len, (int)rnd(4));
		apply(&res, a.ptr, a.len, d, strlen(d));
		cr_assert(res.len == b.len && !memcmp(res.ptr, b.ptr, b.len), "seed %d", seed);
		free(d);
		assay_buf_release(&a);
		assay_buf_release(&b);
		assay_buf_release(&res);
	}
}

/*
 * Two texts far apart (random lines over a small alphabet, thousands of edits) cost more than
 * the budget: the result is not minimal (longer than diff's), but it is still a correct diff.
 */
Test(udiff, over_budget_fallback_is_correct)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT, res = ASSAY_BUF_INIT;

	rng_state = 12345;
	for (int i = 0; i < 6000; i++)
		assay_buf_addf(&a, "%u\n", rnd(40));
	for (int i = 0; i < 6000; i++)
		assay_buf_addf(&b, "%u\n", rnd(40));
	char *d = udiff_n(a.ptr, a.len, b.ptr, b.len, 3);
	apply(&res, a.ptr, a.len, d, strlen(d));
	cr_assert(res.len == b.len && !memcmp(res.ptr, b.ptr, b.len), "fallback diff applies");

	/* diff finds a minimal script here (under its own cut-off): ours must be longer, which
	 * shows the fallback ran. */
	char *theirs = real_diff(a.ptr, a.len, b.ptr, b.len, 3);
	size_t ours_n = count_changed_lines(d), theirs_n = count_changed_lines(theirs);
	cr_assert_gt(ours_n, theirs_n, "fallback used: %zu vs %zu changed lines", ours_n, theirs_n);
	free(theirs);
	free(d);
	assay_buf_release(&a);
	assay_buf_release(&b);
	assay_buf_release(&res);
}

/* The budget keeps huge, very different texts fast: no timing assert, just a finite run. */
Test(udiff, huge_different_texts_finish)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT, res = ASSAY_BUF_INIT;

	rng_state = 777;
	for (int i = 0; i < 100000; i++)
		assay_buf_addf(&a, "%u\n", rnd(1000));
	for (int i = 0; i < 100000; i++)
		assay_buf_addf(&b, "%u\n", rnd(1000));
	char *d = udiff_n(a.ptr, a.len, b.ptr, b.len, 3);
	apply(&res, a.ptr, a.len, d, strlen(d));
	cr_assert(res.len == b.len && !memcmp(res.ptr, b.ptr, b.len));
	free(d);
	assay_buf_release(&a);
	assay_buf_release(&b);
	assay_buf_release(&res);
}

/*
 * Lines made to collide under the unkeyed hash the line table used before util/hash.h (a 64-bit
 * FNV variant over 8-byte words, folded as h ^ h >> 32): each line is 8 bytes and '\n', the
 * hash inverted so that it ends as i << 24, so every line fell into the same slot of any table
 * of up to 2^24 slots and every new line walked past all the lines before it (250,000 such
 * lines, 2.25 MB, took 101 s). With the keyed table each line takes a few probes.
 */
static void old_line_hash_flood(assay_buf *out, size_t n)
{
	const uint64_t p = 0x100000001b3u;
	uint64_t pinv = p;

	for (int k = 0; k < 6; k++)
		pinv *= 2 - p * pinv; /* Newton's step: p * pinv == 1 modulo 2^64 */
	for (uint64_t i = 1; n; i++) {
		uint64_t f = i << 24, x = f ^ (f >> 32);
		uint64_t hm = (x * pinv) ^ '\n', y = hm, w;
		unsigned char b[8];

		for (int k = 0; k < 64 / 29 + 1; k++) /* undo h ^= h >> 29 */
			y = hm ^ (y >> 29);
		w = (y * pinv) ^ (0xcbf29ce484222325u ^ 9);
		memcpy(b, &w, 8);
		if (memchr(b, '\n', 8))
			continue;
		assay_buf_add(out, b, 8);
		assay_buf_addch(out, '\n');
		n--;
	}
}

Test(udiff, lines_made_to_collide_cost_linear_work)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	enum { N = 1 << 16 };
	assay_buf b = ASSAY_BUF_INIT, out = ASSAY_BUF_INIT;
	uint64_t before;

	old_line_hash_flood(&b, N);
	/* expected: the first and the last of them with a line between; actual: all of them */
	assay_buf a = ASSAY_BUF_INIT;
	assay_buf_add(&a, b.ptr, 9);
	assay_buf_adds(&a, "between\n");
	assay_buf_add(&a, b.ptr + b.len - 9, 9);
	before = assay_htab_probes();
	assay_udiff(&out, a.ptr, a.len, b.ptr, b.len, "expected", "actual", 3);
	uint64_t probes = assay_htab_probes() - before;
	cr_expect_gt(probes, 0, "the lines went through the keyed table (util/hash.h)");
	cr_expect_lt(probes, 16u * N, "%llu probes for %d lines", (unsigned long long)probes, N);
	/* and the diff is right: the applied diff gives the actual text */
	assay_buf res = ASSAY_BUF_INIT;
	apply(&res, a.ptr, a.len, out.ptr, out.len);
	cr_expect(res.len == b.len && !memcmp(res.ptr, b.ptr, b.len), "the diff applies");
	assay_buf_release(&res);
	assay_buf_release(&a);
	assay_buf_release(&b);
	assay_buf_release(&out);
}

/* The verification budget's time stops a line diff as it stops the readers. */
Test(udiff, stops_at_its_deadline)
{
	assay_buf a = ASSAY_BUF_INIT, b = ASSAY_BUF_INIT, out = ASSAY_BUF_INIT;

	for (int i = 0; i < 20000; i++) {
		assay_buf_addf(&a, "%d\n", i);
		assay_buf_addf(&b, "%d\n", i * 7);
	}
	/* CLOCK_MONOTONIC 1.0: the machine's first second, long past */
	cr_expect_eq(assay_udiff_until(&out, a.ptr, a.len, b.ptr, b.len, "e", "a", 3, 1.0),
		     ASSAY_ETOOBIG);
	cr_expect_eq(out.len, 0, "nothing half made is left");
	cr_expect_eq(assay_udiff_until(&out, a.ptr, a.len, b.ptr, b.len, "e", "a", 3, 0), 0);
	cr_expect_gt(out.len, 0);
	assay_buf_release(&a);
	assay_buf_release(&b);
	assay_buf_release(&out);
}
