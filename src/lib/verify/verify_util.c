/*
 * Small pieces the verifiers of src/lib/verify share (verify_int.h): failing an attribute,
 * text made safe for a diff, the actual value as text, Python's repr() for messages.
 *
 * Key decisions:
 * - A diff holds valid UTF-8 only: each invalid sequence becomes U+FFFD, as Python's
 *   bytes.decode(errors="replace") does (libunistring's u8_mbtouc finds the sequences), so no
 *   byte of a submission's output reaches a terminal as a control sequence.
 * - repr() is Python's for what messages quote: strings in single quotes unless they hold one
 *   and no double quote, \n \r \t \\ and control characters escaped, numbers as Python writes
 *   them, True/False/None, lists and dicts; a datetime is quoted as its text.
 */
#include <inttypes.h>
#include <string.h>
#include <unistr.h>

#include "assay/buf.h"
#include "assay/suite.h"
#include "assay/udiff.h"
#include "verify/verify_int.h"
#include "util/banned.h"

const char *assay_verify__attr(const assay_verify_call *call)
{
	return call->attribute ? call->attribute : "output";
}

const char *assay_verify__missing(const assay_verify_call *call)
{
	if (!call->attribute || assay_file_attribute_path(call->attribute))
		return "file was not produced";
	return "no value: nothing ran, or no answer was received";
}

void assay_verify__fail(assay_verification *out, assay_value msg)
{
	out->diff = msg;
	out->is_correct = false;
}

bool assay_verify__udiff(assay_verification *out, const assay_verify_call *call, assay_buf *d,
			 const struct assay_verify__texts *t)
{
	if (!assay_udiff_until(d, t->e, t->elen, t->a, t->alen, t->la, t->lb, 3, call->deadline))
		return true;
	out->budget = true;
	assay_verify__fail(out, assay_value_stringf(call->arena,
						    "%s could not be diffed within the "
						    "verification budget (time)",
						    assay_verify__attr(call)));
	return false;
}

/* Appends s[0..len) to b as valid UTF-8; returns the bytes of `s` used (stops before `cap`
 * bytes of output when cap > 0). */
static size_t add_valid(assay_buf *b, const char *s, size_t len, size_t cap)
{
	size_t i = 0;

	while (i < len) {
		ucs4_t c;
		int n = u8_mbtouc(&c, (const uint8_t *)s + i, len - i);
		const char *add = s + i;
		size_t alen = (size_t)n;

		if (c == 0xfffd && !(n == 3 && !memcmp(s + i, "\xef\xbf\xbd", 3))) {
			add = "\xef\xbf\xbd";
			alen = 3;
		}
		if (cap && b->len + alen > cap)
			break;
		assay_buf_add(b, add, alen);
		i += (size_t)n;
	}
	return i;
}

assay_value assay_verify__text(assay_arena *a, const char *s, size_t len, size_t cap)
{
	assay_buf b = ASSAY_BUF_INIT;
	size_t used = add_valid(&b, s, len, cap);
	assay_value v;

	if (used < len)
		assay_buf_adds(&b, "...");
	v = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	return v;
}

const char *assay_verify__actual_text(const assay_actual *ac, assay_buf *scratch, size_t *len)
{
	char tmp[ASSAY_DOUBLE_BUFSIZE];

	switch (ac ? ac->kind : ASSAY_ACTUAL_MISSING) {
	case ASSAY_ACTUAL_BYTES:
		*len = ac->len;
		return ac->len ? ac->bytes : "";
	case ASSAY_ACTUAL_INT:
		assay_buf_reset(scratch);
		assay_buf_addf(scratch, "%lld", ac->integer);
		break;
	case ASSAY_ACTUAL_REAL:
		assay_buf_reset(scratch);
		assay_buf_add(scratch, tmp, assay_format_double(tmp, ac->real));
		break;
	case ASSAY_ACTUAL_MISSING:
	default:
		*len = 0;
		return NULL;
	}
	*len = scratch->len;
	return scratch->ptr;
}

static void repr_string(assay_buf *b, const char *s, size_t len, size_t cap)
{
	bool single = memchr(s, '\'', len) && !memchr(s, '"', len);
	char q = single ? '"' : '\'';
	size_t start = b->len;

	assay_buf_addch(b, q);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (cap && b->len - start > cap) {
			assay_buf_adds(b, "...");
			break;
		}
		if (c == '\\' || c == (unsigned char)q) {
			assay_buf_addch(b, '\\');
			assay_buf_addch(b, (char)c);
		} else if (c == '\n') {
			assay_buf_adds(b, "\\n");
		} else if (c == '\r') {
			assay_buf_adds(b, "\\r");
		} else if (c == '\t') {
			assay_buf_adds(b, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			assay_buf_addf(b, "\\x%02x", c);
		} else if (c < 0x80) {
			assay_buf_addch(b, (char)c);
		} else {
			ucs4_t uc;
			int n = u8_mbtouc(&uc, (const uint8_t *)s + i, len - i);

			add_valid(b, s + i, (size_t)n, 0);
			i += (size_t)n - 1;
		}
	}
	assay_buf_addch(b, q);
}

/* repr() of `v` at nesting `depth`; `start` is where the whole repr began (the cap counts from
 * there, and nesting past 100 levels is "...", so a deep document costs no deep stack). */
static void repr_at(assay_buf *b, const assay_value *v, size_t cap, size_t start, int depth)
{
	char tmp[ASSAY_DOUBLE_BUFSIZE];

	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL:
		assay_buf_adds(b, "None");
		return;
	case ASSAY_V_BOOL:
		assay_buf_adds(b, v->u.b ? "True" : "False");
		return;
	case ASSAY_V_INT:
		assay_buf_addf(b, "%" PRId64, v->u.i);
		return;
	case ASSAY_V_BIGINT:
		assay_buf_add(b, v->u.s, v->len);
		return;
	case ASSAY_V_REAL:
		assay_buf_add(b, tmp, assay_format_double(tmp, v->u.d));
		return;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME:
		repr_string(b, v->len ? v->u.s : "", v->len, cap);
		return;
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT: {
		bool obj = v->kind == ASSAY_V_OBJECT;

		assay_buf_addch(b, obj ? '{' : '[');
		for (uint32_t i = 0; i < v->len; i++) {
			if ((cap && b->len - start > cap) || depth >= 100) {
				assay_buf_adds(b, "...");
				break;
			}
			if (i)
				assay_buf_adds(b, ", ");
			if (obj) {
				repr_at(b, &v->u.members[i].key, cap, start, depth + 1);
				assay_buf_adds(b, ": ");
			}
			repr_at(b, obj ? &v->u.members[i].value : &v->u.items[i], cap, start,
				depth + 1);
		}
		assay_buf_addch(b, obj ? '}' : ']');
		return;
	}
	}
}

void assay_verify__repr(assay_buf *b, const assay_value *v, size_t cap)
{
	repr_at(b, v, cap, b->len, 0);
}
