/*
 * Why an attribute failed, in lines a person acts on (issue #11, "failure output"): the reason in
 * one line where it fits, else a short rendering of the diff. The reports keep the diffs whole
 * (deepdiff's JSON, unified diffs); this is only how a terminal shows them.
 *
 * Key decisions:
 * - A structured diff (deepdiff's vocabulary, docs/internals/deepdiff-parity.md) becomes one
 *   line per change, naming which side is which: `root['id']: expected 2, got 1`,
 *   `root['x']: unexpected key`, `root['tags'][1]: missing item "b"`. deepdiff's old value is
 *   the expected one, its new value the actual one.
 * - A unified diff with one line removed and one added is said in one line (`line 2: expected
 *   "there", got "world"`), and so are two short texts whole; longer ones are shown without
 *   their ---/+++ header.
 * - Values are compact JSON cut to VALUE_WIDTH bytes; everything from the submission passes
 *   through assay_term__visible, so output under test cannot drive the terminal.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/report.h"
#include "assay/suite.h"
#include "report/term_int.h"
#include "util/banned.h"

#define VALUE_WIDTH 60
#define LINE_WIDTH 200
#define SHORT_TEXT 24

void assay_term__visible(assay_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			assay_buf_addf(out, "\\x%02x", c);
		} else if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
			   (unsigned char)s[i + 1] <= 0x9f) {
			assay_buf_addf(out, "\\u%04x", (unsigned char)s[++i]);
		} else {
			assay_buf_addch(out, (char)c);
		}
	}
}

/* `n` bytes of `s` cut to `width` on a character boundary, with "..." when cut. */
static void add_cut(assay_buf *out, const char *s, size_t n, size_t width)
{
	size_t keep = n;

	if (n > width) {
		keep = width - 3;
		while (keep && ((unsigned char)s[keep] & 0xC0) == 0x80)
			keep--;
	}
	assay_term__visible(out, s, keep);
	if (keep < n)
		assay_buf_adds(out, "...");
}

/* A string in double quotes with \n, \t, \", \\ and \xNN escapes (as the listing writes
 * control characters elsewhere), cut. */
static void add_quoted(assay_buf *out, const char *s, size_t n)
{
	assay_buf text = ASSAY_BUF_INIT;

	assay_buf_addch(&text, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			assay_buf_adds(&text, "\\n");
		else if (s[i] == '\t')
			assay_buf_adds(&text, "\\t");
		else if (s[i] == '"' || s[i] == '\\')
			assay_buf_addf(&text, "\\%c", s[i]);
		else
			assay_buf_addch(&text, s[i]);
	}
	assay_buf_addch(&text, '"');
	add_cut(out, text.ptr, text.len, VALUE_WIDTH);
	assay_buf_release(&text);
}

/* A value as compact JSON (a string quoted as add_quoted does), cut. */
static void add_value(assay_buf *out, const assay_value *v)
{
	assay_buf text = ASSAY_BUF_INIT;

	if (!v) {
		assay_buf_adds(out, "nothing");
		return;
	}
	if (v->kind == ASSAY_V_STRING) {
		add_quoted(out, v->u.s, v->len < 4 * VALUE_WIDTH ? v->len : 4 * VALUE_WIDTH);
		return;
	}
	/* only the head is shown: a capped buffer keeps a huge document from being copied */
	assay_buf_init(&text, 0, 4 * VALUE_WIDTH);
	assay_json_write(&text, v, 0);
	add_cut(out, text.ptr, text.len, VALUE_WIDTH);
	assay_buf_release(&text);
}

/* Past a unified diff's "---" and "+++" header lines, if any. */
static const char *skip_header(const char *d, const char *end)
{
	for (int i = 0; i < 2 && end - d >= 3 && !strncmp(d, i ? "+++" : "---", 3); i++) {
		const char *nl = memchr(d, '\n', (size_t)(end - d));

		d = nl ? nl + 1 : end;
	}
	return d;
}

/* ---- structured diffs ------------------------------------------------------------------ */

/*
 * The changes of a deepdiff report as "path: reason" lines (no indentation). Past `max` of them
 * they are only counted: `lines` then points at a scratch buffer, so a diff of a million
 * changes costs no more than its count.
 */
struct change_sink {
	assay_buf *lines;   /* where the current change goes */
	assay_buf *out;     /* the first `max` changes, one per line */
	assay_buf scratch;
	size_t n, max;
	const struct term_style *st;
};

static void next_line(struct change_sink *cs)
{
	if (cs->n++ >= cs->max) {
		cs->lines = &cs->scratch;
		assay_buf_reset(&cs->scratch);
	} else if (cs->n > 1) {
		assay_buf_addch(cs->lines, '\n');
	}
}

static void begin_change(struct change_sink *cs, const char *path, size_t len)
{
	next_line(cs);
	add_cut(cs->lines, path, len, LINE_WIDTH);
	assay_buf_adds(cs->lines, ": ");
}

/* A changed string with newlines carries deepdiff's own unified diff of the two. */
static void string_diff(struct change_sink *cs, const assay_value *diff)
{
	const char *end = diff->u.s + diff->len, *s = skip_header(diff->u.s, end);

	assay_buf_adds(cs->lines, "the texts differ" ASSAY_TERM__DIFF_HEAD);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *color = *s == '-' ? cs->st->red : *s == '+' ? cs->st->green : "";

		assay_buf_addf(cs->lines, "\n  %s", color);
		add_cut(cs->lines, s, n, LINE_WIDTH);
		assay_buf_adds(cs->lines, *color ? cs->st->reset : "");
		s += n + (nl != NULL);
	}
}

static void values_changed(struct change_sink *cs, const assay_value *cat)
{
	for (uint32_t i = 0; i < cat->len; i++) {
		const assay_member *m = &cat->u.members[i];
		const assay_value *d = assay_object_get(&m->value, "diff");

		begin_change(cs, m->key.u.s, m->key.len);
		if (d && d->kind == ASSAY_V_STRING) {
			string_diff(cs, d);
			continue;
		}
		assay_buf_adds(cs->lines, "expected ");
		add_value(cs->lines, assay_object_get(&m->value, "old_value"));
		assay_buf_adds(cs->lines, ", got ");
		add_value(cs->lines, assay_object_get(&m->value, "new_value"));
	}
}

static void type_changes(struct change_sink *cs, const assay_value *cat)
{
	for (uint32_t i = 0; i < cat->len; i++) {
		const assay_member *m = &cat->u.members[i];
		const assay_value *ot = assay_object_get(&m->value, "old_type");
		const assay_value *nt = assay_object_get(&m->value, "new_type");

		begin_change(cs, m->key.u.s, m->key.len);
		assay_buf_addf(cs->lines, "expected %s ",
			       ot && ot->kind == ASSAY_V_STRING ? ot->u.s : "?");
		add_value(cs->lines, assay_object_get(&m->value, "old_value"));
		assay_buf_addf(cs->lines, ", got %s ",
			       nt && nt->kind == ASSAY_V_STRING ? nt->u.s : "?");
		add_value(cs->lines, assay_object_get(&m->value, "new_value"));
	}
}

/* dictionary_item_added/removed: a list of paths. */
static void keys(struct change_sink *cs, const assay_value *cat, const char *reason)
{
	for (uint32_t i = 0; cat->kind == ASSAY_V_ARRAY && i < cat->len; i++) {
		const assay_value *p = &cat->u.items[i];

		if (p->kind != ASSAY_V_STRING)
			continue;
		begin_change(cs, p->u.s, p->len);
		assay_buf_adds(cs->lines, reason);
	}
}

/* iterable_item_added/removed: path -> the item. */
static void items(struct change_sink *cs, const assay_value *cat, const char *reason)
{
	for (uint32_t i = 0; cat->kind == ASSAY_V_OBJECT && i < cat->len; i++) {
		const assay_member *m = &cat->u.members[i];

		begin_change(cs, m->key.u.s, m->key.len);
		assay_buf_addf(cs->lines, "%s ", reason);
		add_value(cs->lines, &m->value);
	}
}

static void repetitions(struct change_sink *cs, const assay_value *cat)
{
	for (uint32_t i = 0; cat->kind == ASSAY_V_OBJECT && i < cat->len; i++) {
		const assay_member *m = &cat->u.members[i];

		begin_change(cs, m->key.u.s, m->key.len);
		add_value(cs->lines, assay_object_get(&m->value, "value"));
		assay_buf_addf(cs->lines, " expected %lld time(s), got %lld",
			       (long long)assay_value_number(assay_object_get(&m->value, "old_repeat")),
			       (long long)assay_value_number(assay_object_get(&m->value, "new_repeat")));
	}
}

/* The changes of a deepdiff report, the first `max` of them one per line; returns how many. */
/*
 * An entry of a verifier's diff that reports no difference: empty (json_keys' `missing: []`),
 * a check that passed ("✓ File exists": a verifier marks those with a check mark), or
 * numeric's `number_count` when the counts agree ("Expected 4 numbers, got 4"; the verifier
 * keeps it always, as verification.md's Example 3 does).
 */
static bool not_a_difference(const char *cat, const assay_value *v)
{
	static const char pre[] = "Expected ";
	const char *p, *got;
	size_t n;

	if (v->kind == ASSAY_V_NULL ||
	    ((v->kind == ASSAY_V_ARRAY || v->kind == ASSAY_V_OBJECT) && !v->len) ||
	    (v->kind == ASSAY_V_STRING && !strncmp(v->u.s, "\u2713", 3)))
		return true;
	if (strcmp(cat, "number_count") || v->kind != ASSAY_V_STRING ||
	    strncmp(v->u.s, pre, sizeof(pre) - 1))
		return false;
	/* "Expected N numbers, got N": the two Ns the same digits */
	p = v->u.s + sizeof(pre) - 1;
	n = strspn(p, "0123456789");
	got = strstr(p, " numbers, got ");
	return n && got == p + n && strlen(got + 14) == n && !strncmp(got + 14, p, n);
}

/* `s` starts with key `cat` and a colon, in any case, '_' as itself or a space (number_3:
 * "Number 3:"; json_fields' mean_price: "mean_price: expected ..."). */
static bool names_key(const char *s, const char *cat, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char a = s[i], b = cat[i];

		if (!a)
			return false;
		if (b == '_' && (a == '_' || a == ' '))
			continue;
		if ((a | 0x20) != (b | 0x20))
			return false;
	}
	return s[n] == ':';
}

/* numeric's "Expected N numbers, got M" said as a count: "expected 1 number, got 2". */
static bool number_count(assay_buf *out, const char *cat, const assay_value *v)
{
	static const char pre[] = "Expected ", mid[] = " numbers, got ";
	unsigned long long e, g;
	char *p;

	if (strcmp(cat, "number_count") || v->kind != ASSAY_V_STRING ||
	    strncmp(v->u.s, pre, sizeof(pre) - 1))
		return false;
	e = strtoull(v->u.s + sizeof(pre) - 1, &p, 10);
	if (p == v->u.s + sizeof(pre) - 1 || strncmp(p, mid, sizeof(mid) - 1))
		return false;
	p += sizeof(mid) - 1;
	if (*p < '0' || *p > '9')
		return false;
	g = strtoull(p, &p, 10);
	if (*p)
		return false;
	assay_buf_addf(out, "expected %llu number%s, got %llu", e, e == 1 ? "" : "s", g);
	return true;
}

/*
 * numeric's "number_<i>": "Number <i>: expected 2.0, got 2.5 (...)" said with its key, as the
 * docs and reports.jsonl name it, and which number that is: "number_0 (the 1st number):
 * expected 2.0, got 2.5 (...)". Indices count from 0, as verification.md's Example 3 does.
 */
static bool number_key(assay_buf *out, const char *cat, const assay_value *v)
{
	static const char pre[] = "number_";
	const char *digits = cat + sizeof(pre) - 1, *colon;
	unsigned long long i;
	char *end;

	if (strncmp(cat, pre, sizeof(pre) - 1) || *digits < '0' || *digits > '9' ||
	    v->kind != ASSAY_V_STRING || strncmp(v->u.s, "Number ", 7))
		return false;
	i = strtoull(digits, &end, 10);
	colon = strchr(v->u.s, ':');
	if (*end || !colon || colon[1] != ' ')
		return false;
	i++;
	assay_buf_addf(out, "%s (the %llu%s number): ", cat, i,
		       i % 100 >= 11 && i % 100 <= 13 ? "th"
		       : i % 10 == 1		       ? "st"
		       : i % 10 == 2		       ? "nd"
		       : i % 10 == 3		       ? "rd"
						       : "th");
	add_cut(out, colon + 2, v->len - (size_t)(colon + 2 - v->u.s), LINE_WIDTH);
	return true;
}

/* A verifier's own text of several lines: a heading, then each line indented (a newline is
 * never shown as \x0a). */
static void add_lines(assay_buf *out, const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		assay_buf_adds(out, "\n  ");
		add_cut(out, s, n, LINE_WIDTH);
		s += n + (nl != NULL);
	}
}

static size_t structured(assay_buf *lines, const assay_value *diff, const struct term_style *st,
			 size_t max)
{
	struct change_sink cs = { lines, lines, ASSAY_BUF_INIT, 0, max, st };

	for (uint32_t i = 0; i < diff->len; i++) {
		const char *cat = diff->u.members[i].key.u.s;
		const assay_value *v = &diff->u.members[i].value;

		if (!strcmp(cat, "values_changed") && v->kind == ASSAY_V_OBJECT) {
			values_changed(&cs, v);
		} else if (!strcmp(cat, "type_changes") && v->kind == ASSAY_V_OBJECT) {
			type_changes(&cs, v);
		} else if (!strcmp(cat, "dictionary_item_added")) {
			keys(&cs, v, "unexpected key");
		} else if (!strcmp(cat, "dictionary_item_removed")) {
			keys(&cs, v, "missing key");
		} else if (!strcmp(cat, "iterable_item_added")) {
			items(&cs, v, "unexpected item");
		} else if (!strcmp(cat, "iterable_item_removed")) {
			items(&cs, v, "missing item");
		} else if (!strcmp(cat, "repetition_change")) {
			repetitions(&cs, v);
		} else {
			/* assay_note, a verifier's own keys: as they are, except what is no
			 * difference (an empty list of missing keys, a count that is right) */
			size_t n = strlen(cat);

			if (not_a_difference(cat, v))
				continue;
			next_line(&cs);
			if (number_key(cs.lines, cat, v))
				continue;
			if (v->kind == ASSAY_V_STRING && v->len > n + 1 && names_key(v->u.s, cat, n))
				; /* "a.b: expected 1, got 2", "Number 3: ..." name their key */
			else if (!strcmp(cat, "number_count"))
				assay_buf_adds(cs.lines, "number count: ");
			else if (v->kind == ASSAY_V_STRING && memchr(v->u.s, '\n', v->len))
				assay_buf_addf(cs.lines, "%s:", cat); /* its lines follow */
			else
				assay_buf_addf(cs.lines, "%s: ", cat);
			if (number_count(cs.lines, cat, v))
				;
			else if (v->kind == ASSAY_V_STRING && memchr(v->u.s, '\n', v->len))
				add_lines(cs.lines, v->u.s, v->len);
			else if (v->kind == ASSAY_V_STRING)
				add_cut(cs.lines, v->u.s, v->len, LINE_WIDTH);
			else
				add_value(cs.lines, v);
		}
	}
	assay_buf_release(&cs.scratch);
	return cs.n;
}

/* ---- text diffs ------------------------------------------------------------------------- */

struct udiff_stats {
	size_t minus, plus;       /* lines removed (expected) and added (actual) */
	const char *minus_at, *plus_at; /* the first of each */
	size_t minus_len, plus_len;
	bool minus_nl, plus_nl;   /* each of those lines ended with a newline */
	long line;                /* the expected line number of the first removed line */
	bool hunk;                /* a "@@ -" line: a unified diff, not a verifier's sentence */
};

/* Counts the lines a unified diff removes and adds (assay_udiff's format). */
static void udiff_scan(struct udiff_stats *s, const char *d, size_t len)
{
	const char *end = d + len, *p = skip_header(d, end);
	long line = 0;
	char last = 0;

	memset(s, 0, sizeof(*s));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 3 && !strncmp(p, "@@ -", 4)) {
			line = strtol(p + 4, NULL, 10);
			s->hunk = true;
		} else if (*p == '\\') { /* "\ No newline at end of file" */
			if (last == '-' && s->minus == 1)
				s->minus_nl = false;
			if (last == '+' && s->plus == 1)
				s->plus_nl = false;
		} else if (*p == '-') {
			if (!s->minus++) {
				s->minus_at = p + 1;
				s->minus_len = n - 1;
				s->minus_nl = true;
				s->line = line;
			}
			line++;
		} else if (*p == '+') {
			if (!s->plus++) {
				s->plus_at = p + 1;
				s->plus_len = n - 1;
				s->plus_nl = true;
			}
		} else {
			line++;
		}
		last = *p;
		p += n + (nl != NULL);
	}
}

/* The whole text of `v` is one line (with or without its newline): a string without another
 * newline, or a scalar (`output: 6` is compared as the text "6"). */
static bool one_line(const assay_value *v)
{
	const char *nl;

	if (v && (v->kind == ASSAY_V_BOOL || v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT ||
		  v->kind == ASSAY_V_REAL))
		return true;
	if (!v || v->kind != ASSAY_V_STRING)
		return false;
	nl = memchr(v->u.s, '\n', v->len);
	return !nl || nl == v->u.s + v->len - 1;
}

/* A text short enough to be shown whole beside another on one line. */
static bool short_text(const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING && v->len <= SHORT_TEXT;
}

/* A line of a diff as a JSON string, with its newline when `nl` (so that a difference in the
 * last newline shows). */
static void add_line(assay_buf *out, const char *s, size_t n, bool nl)
{
	assay_buf line = ASSAY_BUF_INIT;

	assay_buf_add(&line, s, n);
	if (nl)
		assay_buf_addch(&line, '\n');
	add_quoted(out, line.ptr, line.len);
	assay_buf_release(&line);
}

/* Appends the lines of a unified diff without its header, coloured, at most `max` of them. */
static void udiff_lines(assay_buf *out, const char *d, size_t len, size_t max,
			const struct term_style *st)
{
	const char *end = d + len, *p = skip_header(d, end);
	size_t shown = 0, total = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		total++;
		if (shown < max) {
			const char *color = *p == '-' ? st->red
					    : *p == '+' ? st->green
					    : *p == '@' ? st->cyan
							: "";
			assay_buf_addf(out, "      %s", color);
			add_cut(out, p, n, LINE_WIDTH);
			assay_buf_addf(out, "%s\n", *color ? st->reset : "");
			shown++;
		}
		p += n + (nl != NULL);
	}
	if (total > shown)
		assay_buf_addf(out, "      ... %zu more lines (assay show DIR ID prints them)\n",
			       total - shown);
}

static void text_diff(assay_buf *out, const char *attr, const assay_value *result,
		      const assay_value *diff, const struct term_style *st, size_t max)
{
	const assay_value *actual = assay_object_get(result, "actual");
	const assay_value *expected = assay_object_get(result, "expected");
	struct udiff_stats s;

	udiff_scan(&s, diff->u.s, diff->len);
	if (!s.hunk && !s.minus && !s.plus) {
		/* no diff but the verifier's own words (contains: "expected text not found in
		 * actual", then both): they follow the attribute's name, not a diff's heading */
		const char *nl = memchr(diff->u.s, '\n', diff->len);
		size_t n = nl ? (size_t)(nl - diff->u.s) : diff->len;

		assay_buf_addf(out, "    %s%s%s: ", st->bold, attr, st->reset);
		add_cut(out, diff->u.s, n, LINE_WIDTH);
		assay_buf_addch(out, '\n');
		if (nl)
			udiff_lines(out, nl + 1, diff->len - n - 1, max, st);
		return;
	}
	if (actual && actual->kind == ASSAY_V_STRING && !actual->len) {
		assay_buf_addf(out, "    %s%s%s is empty", st->bold, attr, st->reset);
		if (one_line(expected) || short_text(expected)) {
			assay_buf_adds(out, ", expected ");
			add_value(out, expected);
			assay_buf_addch(out, '\n');
			return;
		}
		assay_buf_addf(out, ", expected %zu lines:\n", s.minus);
	} else if (short_text(expected) && short_text(actual) && (s.minus > 1 || s.plus > 1)) {
		/* both fit on a line whole: say them so */
		assay_buf_addf(out, "    %s%s%s: expected ", st->bold, attr, st->reset);
		add_value(out, expected);
		assay_buf_adds(out, ", got ");
		add_value(out, actual);
		assay_buf_addch(out, '\n');
		return;
	} else if (s.minus == 1 && s.plus == 1) {
		bool same = s.minus_len == s.plus_len &&
			    !memcmp(s.minus_at, s.plus_at, s.minus_len);

		assay_buf_addf(out, "    %s%s%s: ", st->bold, attr, st->reset);
		if (!(one_line(expected) && one_line(actual)))
			assay_buf_addf(out, "line %ld: ", s.line);
		assay_buf_adds(out, "expected ");
		add_line(out, s.minus_at, s.minus_len, same && s.minus_nl);
		assay_buf_adds(out, ", got ");
		add_line(out, s.plus_at, s.plus_len, same && s.plus_nl);
		assay_buf_addch(out, '\n');
		return;
	} else {
		assay_buf_addf(out, "    %s%s%s" ASSAY_TERM__DIFF_HEAD "\n", st->bold, attr,
			       st->reset);
	}
	udiff_lines(out, diff->u.s, diff->len, max, st);
}

/* ---- one attribute ---------------------------------------------------------------------- */

/* The marker of a value cut out of a stored line (json.h), or NULL: what a replayed case's
 * report holds for a long diff. */
static const assay_value *cut_marker(const assay_value *v)
{
	return v && v->kind == ASSAY_V_OBJECT && v->len == 1 ? assay_object_get(v, "$assay_cut")
							     : NULL;
}

/*
 * regex's "pattern did not match (MODE): PATTERN[\nhint]" said with the text it was matched
 * against: "- expected pattern" / "+ actual", then the verifier's hint (the trailing-newline
 * trap). False for any other diff.
 */
static bool regex_diff(assay_buf *out, const char *attr, const assay_value *result,
		       const assay_value *diff, const struct term_style *st)
{
	static const char *const heads[] = { "pattern did not match (",
					     "pattern could not be matched (" };
	const assay_value *actual = assay_object_get(result, "actual");
	const char *s, *end, *colon, *nl;
	int h;

	if (!diff || diff->kind != ASSAY_V_STRING)
		return false;
	for (h = 0; h < 2 && strncmp(diff->u.s, heads[h], strlen(heads[h])); h++)
		;
	if (h == 2)
		return false;
	s = diff->u.s;
	end = s + diff->len;
	nl = memchr(s, '\n', diff->len);
	colon = memmem(s, (size_t)((nl ? nl : end) - s), "): ", 3);
	if (!colon)
		return false;
	assay_buf_addf(out, "    %s%s%s: ", st->bold, attr, st->reset);
	assay_term__visible(out, s, (size_t)(colon + 1 - s));
	assay_buf_addf(out, "\n      %s- expected pattern: ", st->red);
	add_cut(out, colon + 3, (size_t)((nl ? nl : end) - colon - 3), LINE_WIDTH);
	assay_buf_addf(out, "%s\n      %s+ actual: ", st->reset, st->green);
	if (actual && actual->kind == ASSAY_V_STRING)
		add_quoted(out, actual->u.s, actual->len);
	else
		add_value(out, actual);
	assay_buf_addf(out, "%s\n", st->reset);
	for (s = nl ? nl + 1 : end; s < end;) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t n = e ? (size_t)(e - s) : (size_t)(end - s);

		if (n) {
			assay_buf_adds(out, "      ");
			add_cut(out, s, n, LINE_WIDTH);
			assay_buf_addch(out, '\n');
		}
		s += n + (e != NULL);
	}
	return true;
}

void assay_term__explain(assay_buf *out, const char *attr, const assay_value *result,
			 const struct term_style *st, size_t max_lines)
{
	const assay_value *diff = assay_object_get(result, "diff");
	const char *file = assay_file_attribute_path(attr);
	const assay_value *cut = cut_marker(diff), *bytes = assay_object_get(cut, "bytes");

	if (cut) {
		assay_buf_addf(out, "    %s%s%s: failed (a diff of %lld bytes, kept in the store: "
				    "assay show DIR ID prints it)\n", st->bold, attr, st->reset,
			       bytes && bytes->kind == ASSAY_V_INT ? (long long)bytes->u.i : 0LL);
	} else if (regex_diff(out, attr, result, diff, st)) {
		;
	} else if (diff && diff->kind == ASSAY_V_STRING && !memchr(diff->u.s, '\n', diff->len)) {
		/* "output is empty", "file was not produced", "expected 0, got 1" */
		bool named = !strncmp(diff->u.s, attr, strlen(attr)) ||
			     (file && strstr(diff->u.s, file));

		assay_buf_adds(out, "    ");
		if (!named)
			assay_buf_addf(out, "%s%s%s: ", st->bold, attr, st->reset);
		add_cut(out, diff->u.s, diff->len, LINE_WIDTH);
		assay_buf_addch(out, '\n');
	} else if (diff && diff->kind == ASSAY_V_STRING) {
		text_diff(out, attr, result, diff, st, max_lines);
	} else if (diff && diff->kind == ASSAY_V_OBJECT && diff->len) {
		assay_buf lines = ASSAY_BUF_INIT;
		size_t n = structured(&lines, diff, st, max_lines);

		assay_buf_addf(out, "    %s%s%s: ", st->bold, attr, st->reset);
		if (n == 1 && !memchr(lines.ptr, '\n', lines.len)) {
			assay_buf_add(out, lines.ptr, lines.len);
			assay_buf_addch(out, '\n');
		} else {
			const char *p = lines.ptr, *end = lines.ptr + lines.len;

			assay_buf_addf(out, "%zu difference%s\n", n, n == 1 ? "" : "s");
			while (p < end) {
				const char *nl = memchr(p, '\n', (size_t)(end - p));
				size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);

				assay_buf_adds(out, "      ");
				assay_buf_add(out, p, k);
				assay_buf_addch(out, '\n');
				p += k + (nl != NULL);
			}
			if (n > max_lines)
				assay_buf_addf(out, "      ... %zu more (assay show DIR ID prints the whole "
					       "diff)\n", n - max_lines);
		}
		assay_buf_release(&lines);
	} else {
		assay_buf_addf(out, "    %s%s%s: failed (", st->bold, attr, st->reset);
		add_value(out, diff);
		assay_buf_adds(out, ")\n");
	}
}

/* How the program ended, when that is news: timed out, a limit, a signal, not started. */
static void add_ending(assay_buf *out, const assay_value *execution, const struct term_style *st)
{
	const assay_value *msg = assay_object_get(execution, "message");
	const assay_value *sig = assay_object_get(execution, "signal");
	const assay_value *sv = assay_object_get(execution, "status");
	const char *status = sv && sv->kind == ASSAY_V_STRING ? sv->u.s : "";

	if (msg && msg->kind == ASSAY_V_STRING) {
		assay_buf_addf(out, "    %s", st->red);
		assay_term__visible(out, msg->u.s, msg->len);
		assay_buf_addf(out, "%s\n", st->reset);
	} else if (!strcmp(status, "signaled") && sig && sig->kind == ASSAY_V_INT) {
		const char *name = strsignal((int)sig->u.i);

		assay_buf_addf(out, "    %skilled by signal %lld (%s)%s\n", st->red,
			       (long long)sig->u.i, name ? name : "unknown", st->reset);
	} else if (!strcmp(status, "timed_out")) {
		/* a line without the run's message (written by hand, or by an older assay) */
		assay_buf_addf(out, "    %stimed out%s\n", st->red, st->reset);
	}
}

/* Whether attribute `attr`'s diff is "verifier error: MSG" where the case's error, shown
 * already, is "ATTR: MSG". */
static bool repeats_error(const char *error, const char *attr, const assay_value *result)
{
	static const char prefix[] = "verifier error: ";
	const assay_value *diff = assay_object_get(result, "diff");
	size_t n = strlen(attr);

	return error && diff && diff->kind == ASSAY_V_STRING &&
	       !strncmp(diff->u.s, prefix, sizeof(prefix) - 1) && !strncmp(error, attr, n) &&
	       error[n] == ':' && error[n + 1] == ' ' &&
	       !strcmp(error + n + 2, diff->u.s + sizeof(prefix) - 1);
}

/* Whether no attribute of `results` has a value: an api case whose request was never answered
 * (its server could not be prepared or started, or did not answer). A cli case that ran has a
 * status_code. */
static bool no_value_at_all(const assay_value *results)
{
	for (uint32_t i = 0; results && results->kind == ASSAY_V_OBJECT && i < results->len; i++) {
		const assay_value *actual = assay_object_get(&results->u.members[i].value, "actual");

		if (actual && actual->kind != ASSAY_V_NULL)
			return false;
	}
	return true;
}

bool assay_term__never_ran(const assay_value *json, const char *error)
{
	const assay_value *execution = assay_report_get(json, "execution");
	const assay_value *status = assay_object_get(execution, "status");

	if (!error)
		return false;
	if (!execution)
		return true;
	return status && status->kind == ASSAY_V_STRING && !strcmp(status->u.s, "exec_failed") &&
	       no_value_at_all(assay_object_get(json, "results"));
}

bool assay_term__unanswered(const assay_value *json)
{
	const assay_value *msg = assay_object_get(assay_report_get(json, "execution"), "message");
	const assay_value *kind = assay_object_get(assay_object_get(json, "case"), "type");

	return msg && msg->kind == ASSAY_V_STRING && kind && kind->kind == ASSAY_V_STRING &&
	       !strcmp(kind->u.s, "api") && no_value_at_all(assay_object_get(json, "results"));
}

void assay_term__reasons(assay_buf *out, const struct assay_term__reasons_in *in,
			 bool *stderr_shown)
{
	const assay_value *json = in->json;
	const char *error = in->error, *cwd = in->cwd;
	const struct term_style *st = in->st;
	size_t max_lines = in->max_lines;
	const assay_value *execution = assay_report_get(json, "execution");
	const assay_value *results = assay_object_get(json, "results");

	*stderr_shown = false;
	if (error) {
		/* a case file under the current folder is named relative to it */
		size_t n = cwd ? strlen(cwd) : 0;
		const char *e = n > 1 && !strncmp(error, cwd, n) && error[n] == '/'
					? error + n + 1
					: error;

		assay_buf_addf(out, "    %serror%s: ", st->red, st->reset);
		assay_term__visible(out, e, strlen(e));
		assay_buf_addch(out, '\n');
	}
	if (!execution || assay_term__never_ran(json, error))
		return; /* not run: every attribute carries the error again, or has no value */
	const assay_value *msg = assay_object_get(execution, "message");
	if (!error || !msg || msg->kind != ASSAY_V_STRING ||
	    strncmp(error, msg->u.s, msg->len)) /* else the error said it already */
		add_ending(out, execution, st);
	if (msg && msg->kind == ASSAY_V_STRING && no_value_at_all(results))
		return; /* the reason is said; each attribute would only say it has no value */
	/* a cut capture: its attributes are judged (allow_truncated) on the kept bytes only, or
	 * not at all, as each says below */
	for (int k = 0; k < 2; k++) {
		const assay_value *cut = assay_object_get(execution, k ? "stderr_truncated"
								       : "stdout_truncated");

		if (cut && cut->kind == ASSAY_V_BOOL && cut->u.b)
			assay_buf_addf(out, "    %s%s was cut at --%s-cap: only the bytes kept were "
					    "captured%s\n", st->red, k ? "stderr" : "output",
				       k ? "stderr" : "stdout", st->reset);
	}
	for (uint32_t i = 0; results && i < results->len; i++) {
		const assay_value *v = &results->u.members[i].value;
		const assay_value *ok = assay_object_get(v, "is_correct");
		const char *attr = results->u.members[i].key.u.s;

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b || repeats_error(error, attr, v))
			continue;
		assay_term__explain(out, attr, v, st, max_lines);
		*stderr_shown = *stderr_shown || !strcmp(attr, "stderr");
	}
}

void assay_term__tail(assay_buf *out, const char *what, const char *text, size_t len,
		      size_t max_lines, const struct term_style *st)
{
	size_t total = 0, start = 0, skip;
	const char *p;

	while (len && text[len - 1] == '\n')
		len--;
	if (!len)
		return;
	for (size_t i = 0; i < len; i++)
		total += text[i] == '\n';
	total++;
	skip = total > max_lines ? total - max_lines : 0;
	for (size_t i = 0, seen = 0; i < len && seen < skip; i++)
		if (text[i] == '\n' && ++seen == skip)
			start = i + 1;
	if (skip)
		assay_buf_addf(out, "    %s, last %zu of %zu lines:\n", what, max_lines, total);
	else
		assay_buf_addf(out, "    %s:\n", what);
	for (p = text + start; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);

		assay_buf_addf(out, "      %s|%s ", st->dim, st->reset);
		add_cut(out, p, n, LINE_WIDTH);
		assay_buf_addch(out, '\n');
		p += n + (nl != NULL);
	}
}
