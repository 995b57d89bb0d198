/*
 * The text verifiers: exact, text, contains and regex (suite-format.md, "Verifiers (built in)").
 *
 * Key decisions:
 * - exact compares bytes for text attributes and integers for status_code. Two attributes are
 *   limits rather than values: execution_time (seconds) and max_rss (bytes) pass when the
 *   actual value is at most the expected one. status_code also takes "nonzero" (any status but
 *   0) and a string of digits (YAML users quote numbers). An integer expected value may be a
 *   bigint (beyond int64): it is compared exactly, so it equals no status and bounds every
 *   max_rss from above (or below, when negative).
 * - A failed text comparison is reported as the unified diff of the two texts (assay_udiff,
 *   labels "expected" and "actual", 3 lines of context); for `text` it is the diff of the
 *   normalised texts, since that is what was compared. The diff is capped at 64 KiB at a line
 *   end, says so when the actual output had been cut at its capture cap (the diff may then only
 *   show the cut), and is made in the call's arena.
 * - Every diff is made valid UTF-8 as it is copied into the arena, as Python's
 *   bytes.decode(errors="replace") does (one U+FFFD per maximal invalid subsequence, so three
 *   for an encoded surrogate). The JSON writer would replace them in reports anyway, but the
 *   terminal listing prints a diff's bytes as they are, and a stray byte such as 0x9b is a
 *   control sequence (CSI) to an 8-bit terminal. The diff reads the same everywhere, as before.
 * - text normalises in a fixed order: ignore_trailing_newline (one "\n" or "\r\n"), strip, then
 *   collapse_whitespace, then ignore_case, as Python's str would: white space is str.isspace()
 *   (Unicode: U+00A0, U+2003, U+3000, \x1c-\x1f, ... too), so strip is str.strip() and
 *   collapse_whitespace turns each run of it into one space (ends are kept as one space each
 *   unless strip is on too); ignore_case compares str.casefold() (full Unicode folding: É/é,
 *   ß/SS, ﬁ/FI, Σ/σ/ς). contains' ignore_case folds both texts the same way, so the expected
 *   text is found when expected.casefold() in actual.casefold(). See pytext.c, which also says
 *   what happens to bytes that are not UTF-8 (kept, never folded, never white space).
 * - regex uses PCRE2 with UTF, UCP (so \w, \d, \s and \b are Unicode-aware, as in Python's re
 *   on str) and MATCH_INVALID_UTF, so output that is not UTF-8 can still be matched and never
 *   makes matching fail. full = anchored at both ends (like re.fullmatch), prefix = at the start
 *   (re.match), search = anywhere (re.search). Patterns are compiled per call, without JIT: for
 *   one match of a small subject, JIT compilation costs more than it saves.
 * - No match crosses an invalid sequence, and PCRE2 (10.42) matches each valid run between
 *   invalid sequences as if it were the whole subject: it would let `full` and `prefix` pass on
 *   a run after an invalid byte ("OK" on "\xffOK") or stop at one ("\w+" on "ab\xffcd"). So a
 *   full or prefix match is checked to start at 0, and a full one to end at the end. Only \z
 *   and \Z inside a prefix or search pattern still see the end of a run as the end.
 * - An attribute whose value is a number (status_code, execution_time) is matched by text,
 *   contains and regex as its decimal text (reals as the shortest %g text that reads back), so
 *   `regex: "^[12]$"` works on status_code.
 * - Options that are absent or null keep their defaults (verify.c).
 * - The verification budget: the diff stops at the call's deadline (the attribute then fails
 *   with that reason, `budget` set); it is also bounded in work (ASSAY_UDIFF_MAX_COST) and in
 *   size (64 KiB in the arena). The rest does not consult the budget, being bounded on its
 *   own: a match by PCRE2's match and heap limits (tenths of a second), normalising and
 *   folding are linear in the captured output, whose size the capture cap bounds.
 *
 * Refuses: normalisation (NFC: "e" + U+0301 is not "é", as in Python), locale-dependent
 * anything, caching of compiled patterns (not needed yet), regex timeouts beyond PCRE2's default
 * match limits.
 */
#define _GNU_SOURCE /* memmem (glibc declares it only then) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "assay/buf.h"
#include "assay/udiff.h"
#include "assay/verify.h"
#include "value/pytext_int.h"
#include "verify/verify_int.h"
#include "util/utf8.h"
#include "util/banned.h"

#define DIFF_CAP (64 * 1024)
#define EXCERPT 200

static const char *const exact_options[] = { NULL };
static const char *const text_options[] = {
	"strip", "ignore_case", "collapse_whitespace", "ignore_trailing_newline", NULL,
};
static const char *const contains_options[] = { "ignore_case", NULL };
static const char *const regex_options[] = { "match", "flags", NULL };

static const char TRUNCATED_NOTE[] = "(actual output was truncated at its cap)\n";

/*
 * Shared pieces
 */

/* A string value in `a` holding `len` bytes of `s` with invalid UTF-8 replaced by U+FFFD. */
static assay_value utf8_value(assay_arena *a, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	assay_buf b = ASSAY_BUF_INIT;
	size_t i = 0, start = 0;

	while (i < len) {
		size_t bad = 0, n = assay_utf8_seq(p + i, len - i, &bad);

		if (n) {
			i += n;
			continue;
		}
		assay_buf_add(&b, s + start, i - start);
		assay_buf_adds(&b, "\xef\xbf\xbd");
		i += bad;
		start = i;
	}
	if (!start)
		return assay_value_string(a, s, len);
	assay_buf_add(&b, s + start, len - start);
	assay_value v = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	return v;
}

static void pass(assay_verification *out)
{
	out->diff = assay_value_null();
	out->is_correct = true;
}

/* Fails with `msg` as the diff, plus the truncation note if needed. */
static void fail(assay_verification *out, const assay_verify_call *call, assay_buf *msg,
		 bool truncated)
{
	if (truncated) {
		if (msg->len && msg->ptr[msg->len - 1] != '\n')
			assay_buf_addch(msg, '\n');
		assay_buf_adds(msg, TRUNCATED_NOTE);
	}
	out->diff = utf8_value(call->arena, msg->ptr, msg->len);
	out->is_correct = false;
}

static void failf(assay_verification *out, const assay_verify_call *call, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);

static void failf(assay_verification *out, const assay_verify_call *call, const char *fmt, ...)
{
	assay_buf msg = ASSAY_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	assay_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	fail(out, call, &msg, false);
	assay_buf_release(&msg);
}

static void fail_missing(assay_verification *out, const assay_verify_call *call)
{
	failf(out, call, "%s", assay_verify__missing(call));
}

/* Fails with the unified diff of `e` (expected) and `a` (actual), capped at DIFF_CAP. */
static void fail_with_diff(assay_verification *out, const assay_verify_call *call, const char *e,
			   size_t elen, const char *a, size_t alen, bool truncated)
{
	assay_buf d;
	struct assay_verify__texts t = { .e = e, .elen = elen, .a = a, .alen = alen,
					 .la = "expected", .lb = "actual" };

	assay_buf_init(&d, 0, DIFF_CAP + 1);
	if (!assay_verify__udiff(out, call, &d, &t)) {
		assay_buf_release(&d);
		return;
	}
	d.max = 0;
	if (d.len > DIFF_CAP) {
		/* Cut after a whole line if one ends near the cap; else inside the line, so that
		 * a huge line still shows how it starts. */
		const char *nl = NULL;
		for (size_t i = DIFF_CAP; i-- > DIFF_CAP - 1024 && !nl;)
			if (d.ptr[i] == '\n')
				nl = d.ptr + i;
		size_t keep = nl ? (size_t)(nl - d.ptr) + 1 : DIFF_CAP;
		/* Cut on a character boundary when the cut is inside a line. */
		while (!nl && keep && ((unsigned char)d.ptr[keep] & 0xC0) == 0x80)
			keep--;
		assay_buf_setlen(&d, keep);
		assay_buf_adds(&d, nl ? "... (diff truncated)\n" : "\n... (diff truncated)\n");
	}
	fail(out, call, &d, truncated);
	assay_buf_release(&d);
}

/* Shortest text that reads back as the same double. */
static void add_real(assay_buf *b, double v)
{
	char tmp[64];

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	assay_buf_adds(b, tmp);
}

/* The actual value as text: bytes as they are, numbers in decimal. Not for MISSING. */
static void actual_text(const char **p, size_t *len, const assay_actual *a, assay_buf *scratch)
{
	switch (a->kind) {
	case ASSAY_ACTUAL_INT:
		assay_buf_reset(scratch);
		assay_buf_addf(scratch, "%lld", a->integer);
		*p = scratch->ptr;
		*len = scratch->len;
		return;
	case ASSAY_ACTUAL_REAL:
		assay_buf_reset(scratch);
		add_real(scratch, a->real);
		*p = scratch->ptr;
		*len = scratch->len;
		return;
	default:
		*p = a->bytes ? a->bytes : "";
		*len = a->bytes ? a->len : 0;
		return;
	}
}

/*
 * exact
 */

static bool is_maximum(const char *attribute)
{
	return attribute && (!strcmp(attribute, "execution_time") || !strcmp(attribute, "max_rss"));
}

/*
 * An integer given as expected: an int, a bigint, or a string of an optional minus and digits
 * (YAML users quote numbers; a long one becomes a bigint in `a`).
 */
static bool expected_integer(assay_value *out, const assay_value *e, assay_arena *a)
{
	size_t i;

	if (e->kind == ASSAY_V_INT || e->kind == ASSAY_V_BIGINT) {
		*out = *e;
		return true;
	}
	if (e->kind != ASSAY_V_STRING)
		return false;
	i = e->len && e->u.s[0] == '-';
	if (i == e->len)
		return false;
	for (; i < e->len; i++)
		if (e->u.s[i] < '0' || e->u.s[i] > '9')
			return false;
	return assay_value_integer_text(out, a, e->u.s, e->len) == 0;
}

/* <0, 0, >0 as got is below, equal to or above `want` (an int or a bigint, exactly). */
static int compare_integer(long long got, const assay_value *want)
{
	if (want->kind == ASSAY_V_INT)
		return (got > want->u.i) - (got < want->u.i);
	/* A bigint lies beyond int64, on the side of its sign. */
	return want->u.s[0] == '-' ? 1 : -1;
}

/* A number given as expected: int, bigint, real, or (leniently) a numeric string. */
static bool expected_number(const assay_value *e, double *out)
{
	if (assay_value_is_number(e)) {
		*out = assay_value_number(e);
		return true;
	}
	if (e->kind != ASSAY_V_STRING || !e->len)
		return false;
	assay_buf text = ASSAY_BUF_INIT;
	char *end;
	assay_buf_add(&text, e->u.s, e->len);
	*out = strtod(text.ptr, &end);
	bool ok = end == text.ptr + text.len;
	assay_buf_release(&text);
	return ok;
}

static int exact_int(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const assay_value *e = call->expected;
	long long got = call->actual->integer;
	bool max = is_maximum(call->attribute);
	const char *attr = call->attribute ? call->attribute : "value";
	assay_value want;
	double wantd;

	if (!e)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     attr);
	if (!max && assay_value_is_str(e, "nonzero")) {
		if (got != 0)
			pass(out);
		else
			failf(out, call, "expected nonzero, got %lld", got);
		return 0;
	}
	if (expected_integer(&want, e, call->arena)) {
		int c = compare_integer(got, &want);
		if (max ? c <= 0 : c == 0) {
			pass(out);
		} else {
			assay_buf msg = ASSAY_BUF_INIT;
			assay_buf_addf(&msg, "expected %s", max ? "at most " : "");
			if (want.kind == ASSAY_V_INT)
				assay_buf_addf(&msg, "%" PRId64, want.u.i);
			else
				assay_buf_add(&msg, want.u.s, want.len);
			assay_buf_addf(&msg, ", got %lld", got);
			fail(out, call, &msg, false);
			assay_buf_release(&msg);
		}
		return 0;
	}
	if (e->kind == ASSAY_V_REAL && expected_number(e, &wantd)) {
		double g = (double)got;
		if (max ? g <= wantd : g == wantd) {
			pass(out);
		} else {
			assay_buf msg = ASSAY_BUF_INIT;
			assay_buf_addf(&msg, "expected %s", max ? "at most " : "");
			add_real(&msg, wantd);
			assay_buf_addf(&msg, ", got %lld", got);
			fail(out, call, &msg, false);
			assay_buf_release(&msg);
		}
		return 0;
	}
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s must be an integer%s",
			     attr, max ? "" : " or \"nonzero\"");
}

static int exact_real(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	double got = call->actual->real, want;
	bool max = is_maximum(call->attribute);

	if (!call->expected || !expected_number(call->expected, &want))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected %s must be a number",
				     call->attribute ? call->attribute : "value");
	if (max ? got <= want : got == want) {
		pass(out);
		return 0;
	}
	assay_buf msg = ASSAY_BUF_INIT;
	assay_buf_addf(&msg, "expected %s", max ? "at most " : "");
	add_real(&msg, want);
	assay_buf_adds(&msg, ", got ");
	add_real(&msg, got);
	fail(out, call, &msg, false);
	assay_buf_release(&msg);
	return 0;
}

static int verify_exact(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const assay_actual *a = call->actual;
	assay_buf scratch = ASSAY_BUF_INIT;
	const char *e;
	size_t elen;
	int rc;

	if (a->kind == ASSAY_ACTUAL_INT)
		return exact_int(out, call, err);
	if (a->kind == ASSAY_ACTUAL_REAL)
		return exact_real(out, call, err);

	rc = assay_verify_expected_text(&e, &elen, call->expected, &scratch, call->attribute, err);
	if (rc)
		goto out;
	if (a->kind == ASSAY_ACTUAL_MISSING)
		fail_missing(out, call);
	else if (a->len == elen && (!elen || !memcmp(a->bytes, e, elen)))
		pass(out);
	else
		fail_with_diff(out, call, e, elen, a->bytes ? a->bytes : "", a->bytes ? a->len : 0,
			       a->truncated);
out:
	assay_buf_release(&scratch);
	return rc;
}

/*
 * text
 */

struct text_opts {
	bool strip;
	bool ignore_case;
	bool collapse_whitespace;
	bool ignore_trailing_newline;
};

/* Appends `len` bytes at `p` with each run of white space replaced by one space. */
static void add_collapsed(assay_buf *out, const char *p, size_t len)
{
	size_t i = 0, from = 0, n;

	assay_buf_grow(out, len);
	while (i < len) {
		if (!(n = assay_pytext__space(p + i, len - i))) {
			i++;
			continue;
		}
		assay_buf_add(out, p + from, i - from);
		assay_buf_addch(out, ' ');
		do
			i += n;
		while ((n = assay_pytext__space(p + i, len - i)));
		from = i;
	}
	assay_buf_add(out, p + from, len - from);
}

static void normalise(assay_buf *out, const char *p, size_t len, const struct text_opts *o)
{
	assay_buf spaced = ASSAY_BUF_INIT; /* before folding, with ignore_case */
	assay_buf *dst = o->ignore_case ? &spaced : out;
	size_t n;

	if (o->ignore_trailing_newline) {
		if (len >= 2 && p[len - 2] == '\r' && p[len - 1] == '\n')
			len -= 2;
		else if (len >= 1 && p[len - 1] == '\n')
			len--;
	}
	if (o->strip) {
		while ((n = assay_pytext__space(p, len)))
			p += n, len -= n;
		while ((n = assay_pytext__space_before(p, len)))
			len -= n;
	}
	if (o->collapse_whitespace)
		add_collapsed(dst, p, len);
	else
		assay_buf_add(dst, p, len);
	if (o->ignore_case)
		assay_pytext__casefold(out, spaced.ptr, spaced.len);
	assay_buf_release(&spaced);
}

static int verify_text(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const assay_value *opt = call->options;
	struct text_opts o = { false, false, false, false };
	assay_buf escratch = ASSAY_BUF_INIT, ascratch = ASSAY_BUF_INIT;
	assay_buf en = ASSAY_BUF_INIT, an = ASSAY_BUF_INIT;
	const char *e, *a;
	size_t elen, alen;
	int rc;

	if ((rc = assay_verify_opt_bool(opt, "strip", &o.strip, err)) ||
	    (rc = assay_verify_opt_bool(opt, "ignore_case", &o.ignore_case, err)) ||
	    (rc = assay_verify_opt_bool(opt, "collapse_whitespace", &o.collapse_whitespace, err)) ||
	    (rc = assay_verify_opt_bool(opt, "ignore_trailing_newline",
					&o.ignore_trailing_newline, err)))
		return rc;
	rc = assay_verify_expected_text(&e, &elen, call->expected, &escratch, call->attribute,
					err);
	if (rc)
		goto out;
	if (call->actual->kind == ASSAY_ACTUAL_MISSING) {
		fail_missing(out, call);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);
	normalise(&en, e, elen, &o);
	normalise(&an, a, alen, &o);
	if (en.len == an.len && !memcmp(en.ptr, an.ptr, en.len))
		pass(out);
	else
		fail_with_diff(out, call, en.ptr, en.len, an.ptr, an.len, call->actual->truncated);
out:
	assay_buf_release(&escratch);
	assay_buf_release(&ascratch);
	assay_buf_release(&en);
	assay_buf_release(&an);
	return rc;
}

/*
 * contains
 */

/* Appends up to EXCERPT bytes of `p` in double quotes, with C escapes for control bytes. */
static void add_excerpt(assay_buf *b, const char *p, size_t len)
{
	size_t n = len > EXCERPT ? EXCERPT : len;

	/* Do not cut a UTF-8 character in two. */
	while (n < len && n && ((unsigned char)p[n] & 0xC0) == 0x80)
		n--;
	assay_buf_addch(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		switch (c) {
		case '\n': assay_buf_adds(b, "\\n"); break;
		case '\t': assay_buf_adds(b, "\\t"); break;
		case '\r': assay_buf_adds(b, "\\r"); break;
		case '"': assay_buf_adds(b, "\\\""); break;
		case '\\': assay_buf_adds(b, "\\\\"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				assay_buf_addf(b, "\\x%02x", c);
			else
				assay_buf_addch(b, (char)c);
		}
	}
	assay_buf_addch(b, '"');
	if (n < len)
		assay_buf_addf(b, "... (%zu bytes)", len);
}

static const char *find(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
	if (!nlen)
		return hay;
	return memmem(hay, hlen, needle, nlen);
}

static int verify_contains(assay_verification *out, const assay_verify_call *call,
			   assay_err *err)
{
	bool icase = false;
	assay_buf escratch = ASSAY_BUF_INIT, ascratch = ASSAY_BUF_INIT;
	assay_buf ef = ASSAY_BUF_INIT, af = ASSAY_BUF_INIT;
	const char *e, *a;
	size_t elen, alen;
	int rc;

	if ((rc = assay_verify_opt_bool(call->options, "ignore_case", &icase, err)))
		return rc;
	rc = assay_verify_expected_text(&e, &elen, call->expected, &escratch, call->attribute,
					err);
	if (rc)
		goto out;
	if (call->actual->kind == ASSAY_ACTUAL_MISSING) {
		fail_missing(out, call);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);

	/* What is searched: casefolded copies with ignore_case. */
	const char *es = e, *as = a;
	size_t eslen = elen, aslen = alen;
	if (icase) {
		assay_pytext__casefold(&ef, e, elen);
		assay_pytext__casefold(&af, a, alen);
		es = ef.ptr, eslen = ef.len;
		as = af.ptr, aslen = af.len;
	}
	if (find(as, aslen, es, eslen)) {
		pass(out);
		goto out;
	}

	/* Show where the longest start of the expected text occurs, if any does: usually the
	 * place where the output went wrong. */
	size_t lo = 0, hi = eslen;
	const char *at = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		const char *f = find(as, aslen, es, mid);
		if (f) {
			lo = mid;
			at = f;
		} else {
			hi = mid - 1;
		}
	}
	size_t off = at ? (size_t)(at - as) : 0, found = lo;
	if (at && icase) {
		/* Offsets in the folded texts, back to the texts as given: the bytes of expected
		 * whose folds were found whole, and the character where the match starts. */
		off = assay_pytext__fold_origin(a, alen, off);
		found = assay_pytext__fold_origin(e, elen, lo);
	}
	assay_buf msg = ASSAY_BUF_INIT;
	assay_buf_adds(&msg, "expected text not found in actual\nexpected: ");
	add_excerpt(&msg, e, elen);
	if (at && found) {
		assay_buf_addf(&msg,
			       "\nactual from byte %zu (where the first %zu bytes of expected are "
			       "found): ", off, found);
		add_excerpt(&msg, a + off, alen - off);
	} else {
		assay_buf_adds(&msg, "\nactual: ");
		add_excerpt(&msg, a, alen);
	}
	assay_buf_addch(&msg, '\n');
	fail(out, call, &msg, call->actual->truncated);
	assay_buf_release(&msg);
out:
	assay_buf_release(&escratch);
	assay_buf_release(&ascratch);
	assay_buf_release(&ef);
	assay_buf_release(&af);
	return rc;
}

/*
 * regex
 */

static int flag_letters(uint32_t *opts, const char *s, size_t len, assay_err *err)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case 'i': *opts |= PCRE2_CASELESS; break;
		case 'm': *opts |= PCRE2_MULTILINE; break;
		case 's': *opts |= PCRE2_DOTALL; break;
		case 'x': *opts |= PCRE2_EXTENDED; break;
		default:
			if ((unsigned char)s[i] > 0x20 && (unsigned char)s[i] < 0x7f)
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "unknown regex flag '%c' (use i, m, s, x)",
						     s[i]);
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "unknown regex flag byte 0x%02x (use i, m, s, x)",
					     (unsigned char)s[i]);
		}
	}
	return 0;
}

static int parse_flags(uint32_t *opts, const assay_value *flags, assay_err *err)
{
	static const char shape[] = "option 'flags' must be a string of letters or a list of "
				    "letters (i, m, s, x)";
	int rc;

	if (!flags || flags->kind == ASSAY_V_NULL)
		return 0;
	if (flags->kind == ASSAY_V_STRING)
		return flag_letters(opts, flags->u.s, flags->len, err);
	if (flags->kind != ASSAY_V_ARRAY)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", shape);
	for (uint32_t i = 0; i < flags->len; i++) {
		const assay_value *v = &flags->u.items[i];
		if (v->kind != ASSAY_V_STRING)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", shape);
		if ((rc = flag_letters(opts, v->u.s, v->len, err)))
			return rc;
	}
	return 0;
}

static int verify_regex(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const char *mode = "full";
	uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
	assay_buf pscratch = ASSAY_BUF_INIT, ascratch = ASSAY_BUF_INIT;
	pcre2_code *re = NULL;
	pcre2_match_data *md = NULL;
	const char *pat, *a;
	size_t plen, alen;
	int rc;

	if ((rc = assay_verify_opt_string(call->options, "match", &mode, err)))
		return rc;
	if (!strcmp(mode, "full"))
		opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	else if (!strcmp(mode, "prefix"))
		opts |= PCRE2_ANCHORED;
	else if (strcmp(mode, "search"))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option 'match' must be full, prefix or search (got '%s')",
				     mode);
	if ((rc = parse_flags(&opts, assay_object_get(call->options, "flags"), err)))
		return rc;
	rc = assay_verify_expected_text(&pat, &plen, call->expected, &pscratch, call->attribute,
					err);
	if (rc)
		goto out;

	int code;
	PCRE2_SIZE erroff;
	re = pcre2_compile((PCRE2_SPTR)pat, plen, opts, &code, &erroff, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof(msg));
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				   "regex does not compile at offset %zu: %s", (size_t)erroff,
				   (const char *)msg);
		goto out;
	}
	if (call->actual->kind == ASSAY_ACTUAL_MISSING) {
		fail_missing(out, call);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	code = pcre2_match(re, (PCRE2_SPTR)a, alen, 0, 0, md, NULL);
	if (code >= 0 && (opts & PCRE2_ANCHORED)) {
		/* With MATCH_INVALID_UTF, PCRE2 (10.42) tries each valid run after an invalid
		 * sequence as a subject of its own, anchors included: check that the match
		 * really starts at 0 (wherever \K put it) and, for full, ends at the end. */
		if (pcre2_get_startchar(md) != 0 ||
		    ((opts & PCRE2_ENDANCHORED) && pcre2_get_ovector_pointer(md)[1] != alen))
			code = PCRE2_ERROR_NOMATCH;
	}
	if (code >= 0) {
		pass(out);
	} else {
		assay_buf msg = ASSAY_BUF_INIT;
		if (code == PCRE2_ERROR_NOMATCH) {
			assay_buf_addf(&msg, "pattern did not match (%s): ", mode);
		} else {
			PCRE2_UCHAR why[256];
			pcre2_get_error_message(code, why, sizeof(why));
			assay_buf_addf(&msg, "pattern could not be matched (%s: %s): ", mode,
				       (const char *)why);
		}
		assay_buf_add(&msg, pat, plen);
		/* the trailing-newline trap: a full match that takes the text but not its last
		 * newline (programs end their output with one; `^\d+$` does not match "42\n") */
		size_t keep = alen;
		if (code == PCRE2_ERROR_NOMATCH && (opts & PCRE2_ENDANCHORED) && keep &&
		    a[keep - 1] == '\n') {
			keep -= 1 + (keep > 1 && a[keep - 2] == '\r');
			if (pcre2_match(re, (PCRE2_SPTR)a, keep, 0, 0, md, NULL) >= 0 &&
			    pcre2_get_startchar(md) == 0 && pcre2_get_ovector_pointer(md)[1] == keep)
				assay_buf_adds(&msg, "\nthe pattern matches the output without its "
						     "trailing newline: end the pattern with \\n? (or "
						     "\\s*), or use match: prefix");
		}
		fail(out, call, &msg, call->actual->truncated);
		assay_buf_release(&msg);
	}
out:
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	assay_buf_release(&pscratch);
	assay_buf_release(&ascratch);
	return rc;
}

const assay_verifier assay_verifier_exact = { "exact", verify_exact, exact_options };
const assay_verifier assay_verifier_text = { "text", verify_text, text_options };
const assay_verifier assay_verifier_contains = { "contains", verify_contains, contains_options };
const assay_verifier assay_verifier_regex = { "regex", verify_regex, regex_options };
