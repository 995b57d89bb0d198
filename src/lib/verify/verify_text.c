/*
 * The text verifiers: exact, text, contains and regex (suite-format.md, "Verifiers (built in)").
 *
 * Key decisions:
 * - exact compares bytes for text attributes and integers for status_code. Two attributes are
 *   limits rather than values: execution_time (seconds) and max_rss (bytes) pass when the
 *   actual value is at most the expected one. status_code also takes "nonzero" (any status but
 *   0) and a string of digits (YAML users quote numbers).
 * - A failed text comparison is reported as the unified diff of the two texts (assay_udiff,
 *   labels "expected" and "actual", 3 lines of context); for `text` it is the diff of the
 *   normalised texts, since that is what was compared. The diff is made valid UTF-8 (invalid
 *   bytes become U+FFFD), capped at 64 KiB at a line end, and says so when the actual output
 *   had been cut at its capture cap (the diff may then only show the cut).
 * - text normalises in a fixed order: ignore_trailing_newline (one "\n" or "\r\n"), strip, then
 *   collapse_whitespace, then ignore_case. Whitespace and case are ASCII only: " \t\n\r\f\v",
 *   A-Z. Unicode spaces and case pairs such as É/é are left as they are.
 * - regex uses PCRE2 with UTF, UCP (so \w, \d, \s and \b are Unicode-aware, as in Python's re
 *   on str) and MATCH_INVALID_UTF, so output that is not UTF-8 can still be matched and never
 *   makes matching fail. full = anchored at both ends (like re.fullmatch), prefix = at the start
 *   (re.match), search = anywhere (re.search). Patterns are compiled per call, without JIT: for
 *   one match of a small subject, JIT compilation costs more than it saves.
 * - An attribute whose value is a number (status_code, execution_time) is matched by text,
 *   contains and regex as its decimal text, so `regex: "^[12]$"` works on status_code.
 *
 * Refuses: Unicode case folding and normalisation (NFC), locale-dependent anything, caching of
 * compiled patterns (not needed yet), regex timeouts beyond PCRE2's default match limits.
 */
#define _GNU_SOURCE /* memmem (glibc declares it only then) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "assay/json.h"
#include "assay/udiff.h"
#include "assay/verify.h"
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

static void pass(assay_verification *out)
{
	json_decref(out->diff);
	out->diff = NULL;
	out->is_correct = true;
}

/* Fails with `msg` as the diff (made valid UTF-8), plus the truncation note if needed. */
static void fail(assay_verification *out, assay_buf *msg, bool truncated)
{
	if (truncated) {
		if (msg->len && msg->ptr[msg->len - 1] != '\n')
			assay_buf_addch(msg, '\n');
		assay_buf_adds(msg, TRUNCATED_NOTE);
	}
	json_decref(out->diff);
	out->diff = assay_json_string_lossy(msg->ptr, msg->len);
	out->is_correct = false;
}

static void failf(assay_verification *out, bool truncated, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);

static void failf(assay_verification *out, bool truncated, const char *fmt, ...)
{
	assay_buf msg = ASSAY_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	assay_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	fail(out, &msg, truncated);
	assay_buf_release(&msg);
}

static void fail_missing(assay_verification *out)
{
	failf(out, false, "file was not produced");
}

/* Fails with the unified diff of `e` (expected) and `a` (actual), capped at DIFF_CAP. */
static void fail_with_diff(assay_verification *out, const char *e, size_t elen, const char *a,
			   size_t alen, bool truncated)
{
	assay_buf d;

	assay_buf_init(&d, 0, DIFF_CAP + 1);
	assay_udiff(&d, e, elen, a, alen, "expected", "actual", 3);
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
	fail(out, &d, truncated);
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

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

static void add_folded(assay_buf *b, const char *p, size_t len)
{
	assay_buf_grow(b, len);
	for (size_t i = 0; i < len; i++)
		b->ptr[b->len + i] = (char)fold((unsigned char)p[i]);
	assay_buf_setlen(b, b->len + len);
}

/*
 * exact
 */

static bool is_maximum(const char *attribute)
{
	return attribute && (!strcmp(attribute, "execution_time") || !strcmp(attribute, "max_rss"));
}

/* "-12", "0", "42": optional minus, then digits only. */
static bool parse_integer(const char *s, long long *out)
{
	const char *p = s + (*s == '-');
	char *end;

	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* A number given as expected: integer, real, big number, or (leniently) a numeric string. */
static bool expected_number(const json_t *e, double *out)
{
	const char *lit = assay_json_bignum_literal(e);
	char *end;

	if (json_is_integer(e)) {
		*out = (double)json_integer_value(e);
		return true;
	}
	if (json_is_real(e)) {
		*out = json_real_value(e);
		return true;
	}
	if (!lit && json_is_string(e))
		lit = json_string_value(e);
	if (!lit || !*lit)
		return false;
	*out = strtod(lit, &end);
	return *end == '\0';
}

static int exact_int(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const json_t *e = call->expected;
	long long got = call->actual->integer;
	bool max = is_maximum(call->attribute);
	const char *attr = call->attribute ? call->attribute : "value";
	long long want;
	double wantd;

	if (!max && json_is_string(e) && !strcmp(json_string_value(e), "nonzero")) {
		if (got != 0)
			pass(out);
		else
			failf(out, false, "expected nonzero, got %lld", got);
		return 0;
	}
	if (json_is_integer(e) ||
	    (json_is_string(e) && !assay_json_is_bignum(e) &&
	     parse_integer(json_string_value(e), &want))) {
		if (json_is_integer(e))
			want = json_integer_value(e);
		if (max ? got <= want : got == want)
			pass(out);
		else
			failf(out, false, "expected %s%lld, got %lld", max ? "at most " : "", want,
			      got);
		return 0;
	}
	if ((json_is_real(e) || assay_json_is_bignum(e)) && expected_number(e, &wantd)) {
		double g = (double)got;
		if (max ? g <= wantd : g == wantd) {
			pass(out);
		} else {
			assay_buf msg = ASSAY_BUF_INIT;
			assay_buf_addf(&msg, "expected %s", max ? "at most " : "");
			add_real(&msg, wantd);
			assay_buf_addf(&msg, ", got %lld", got);
			fail(out, &msg, false);
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

	if (!expected_number(call->expected, &want))
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
	fail(out, &msg, false);
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
		fail_missing(out);
	else if (a->len == elen && (!elen || !memcmp(a->bytes, e, elen)))
		pass(out);
	else
		fail_with_diff(out, e, elen, a->bytes ? a->bytes : "", a->bytes ? a->len : 0,
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

static void normalise(assay_buf *out, const char *p, size_t len, const struct text_opts *o)
{
	if (o->ignore_trailing_newline) {
		if (len >= 2 && p[len - 2] == '\r' && p[len - 1] == '\n')
			len -= 2;
		else if (len >= 1 && p[len - 1] == '\n')
			len--;
	}
	if (o->strip) {
		while (len && is_space((unsigned char)*p))
			p++, len--;
		while (len && is_space((unsigned char)p[len - 1]))
			len--;
	}
	assay_buf_grow(out, len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];
		if (o->collapse_whitespace && is_space(c)) {
			while (i + 1 < len && is_space((unsigned char)p[i + 1]))
				i++;
			c = ' ';
		}
		if (o->ignore_case)
			c = fold(c);
		out->ptr[out->len++] = (char)c;
	}
	assay_buf_setlen(out, out->len);
}

static int verify_text(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const json_t *opt = call->options;
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
		fail_missing(out);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);
	normalise(&en, e, elen, &o);
	normalise(&an, a, alen, &o);
	if (en.len == an.len && !memcmp(en.ptr, an.ptr, en.len))
		pass(out);
	else
		fail_with_diff(out, en.ptr, en.len, an.ptr, an.len, call->actual->truncated);
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
		fail_missing(out);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);

	const char *es = e, *as = a; /* what is searched: folded copies with ignore_case */
	if (icase) {
		add_folded(&ef, e, elen);
		add_folded(&af, a, alen);
		es = ef.ptr;
		as = af.ptr;
	}
	if (find(as, alen, es, elen)) {
		pass(out);
		goto out;
	}

	/* Show where the longest start of the expected text occurs, if any does: usually the
	 * place where the output went wrong. Folding keeps offsets, so they apply to `a`. */
	size_t lo = 0, hi = elen;
	const char *at = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		const char *f = find(as, alen, es, mid);
		if (f) {
			lo = mid;
			at = f;
		} else {
			hi = mid - 1;
		}
	}
	assay_buf msg = ASSAY_BUF_INIT;
	assay_buf_adds(&msg, "expected text not found in actual\nexpected: ");
	add_excerpt(&msg, e, elen);
	if (at) {
		size_t off = (size_t)(at - as);
		assay_buf_addf(&msg,
			       "\nactual from byte %zu (where the first %zu bytes of expected are "
			       "found): ", off, lo);
		add_excerpt(&msg, a + off, alen - off);
	} else {
		assay_buf_adds(&msg, "\nactual: ");
		add_excerpt(&msg, a, alen);
	}
	assay_buf_addch(&msg, '\n');
	fail(out, &msg, call->actual->truncated);
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

static int flag_letters(uint32_t *opts, const char *s, assay_err *err)
{
	for (; *s; s++) {
		switch (*s) {
		case 'i': *opts |= PCRE2_CASELESS; break;
		case 'm': *opts |= PCRE2_MULTILINE; break;
		case 's': *opts |= PCRE2_DOTALL; break;
		case 'x': *opts |= PCRE2_EXTENDED; break;
		default:
			if ((unsigned char)*s > 0x20 && (unsigned char)*s < 0x7f)
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "unknown regex flag '%c' (use i, m, s, x)",
						     *s);
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "unknown regex flag byte 0x%02x (use i, m, s, x)",
					     (unsigned char)*s);
		}
	}
	return 0;
}

static int parse_flags(uint32_t *opts, const json_t *flags, assay_err *err)
{
	static const char shape[] = "option 'flags' must be a string of letters or a list of "
				    "letters (i, m, s, x)";
	size_t i;
	json_t *v;
	int rc;

	if (!flags)
		return 0;
	if (json_is_string(flags) && !assay_json_is_bignum(flags))
		return flag_letters(opts, json_string_value(flags), err);
	if (!json_is_array(flags))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", shape);
	json_array_foreach(flags, i, v) {
		if (!json_is_string(v) || assay_json_is_bignum(v))
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", shape);
		if ((rc = flag_letters(opts, json_string_value(v), err)))
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
	if ((rc = parse_flags(&opts, json_object_get(call->options, "flags"), err)))
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
		fail_missing(out);
		goto out;
	}
	actual_text(&a, &alen, call->actual, &ascratch);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	code = pcre2_match(re, (PCRE2_SPTR)a, alen, 0, 0, md, NULL);
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
		fail(out, &msg, call->actual->truncated);
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
