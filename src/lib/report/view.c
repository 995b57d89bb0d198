/*
 * A report line as renderers read it (report_int.h): its names, verdict and outcome, the text
 * shown of a value (cut to a size, whole characters only), UTF-8 repair and XML escaping.
 *
 * Key decisions:
 * - Outcome: a case that passed is a pass; one whose program broke (timed out, killed by a
 *   signal, could not start) or that assay could not load or verify is an error; any other
 *   that did not pass is a failure (a check said no). JUnit and TAP keep the two apart.
 * - Bytes that are not UTF-8 are replaced as assay_json_write() replaces them (each maximal
 *   invalid subpart by one U+FFFD, Python's "replace"), so every format shows the same text.
 * - The text of a value is cut on a character boundary and says how long the whole was; a
 *   value the line already carries cut (a marker) shows its head the same way, so a report made
 *   during a run and one made later from the store read alike.
 */
#include <stdlib.h>
#include <string.h>

#include "json/json_lib.h"
#include "report/report_int.h"
#include "assay/report.h"
#include "util/banned.h"

const char *assay_report__str(const assay_value *obj, const char *key, const char *dflt)
{
	const assay_value *v = assay_object_get(obj, key);

	return v && v->kind == ASSAY_V_STRING ? v->u.s : dflt;
}

static double num(const assay_value *obj, const char *key)
{
	const assay_value *v = assay_object_get(obj, key);

	return assay_value_is_number(v) ? assay_value_number(v) : 0.0;
}

static int type_index(const char *type)
{
	for (int t = 0; t < 4; t++)
		if (!strcmp(type, assay_group_type_name((assay_group_type)t)))
			return t;
	return -1;
}

void assay_report__case_read(struct assay_report__case *c, const assay_value *line)
{
	const assay_value *passed = assay_report_get(line, "passed");
	const assay_value *results = assay_object_get(line, "results");
	const assay_value *ex = assay_report_get(line, "execution");
	const assay_value *cp = assay_report_get(line, "checkpoint");
	const assay_value *sc = assay_report_get(line, "score");
	const assay_value *er = assay_report_get(line, "error");

	*c = (struct assay_report__case){ .line = line };
	c->checkpoint = cp && cp->kind == ASSAY_V_STRING ? cp->u.s : "";
	c->group = assay_report__str(line, "group", "");
	c->id = assay_report__str(line, "id", "");
	c->type = assay_report__str(line, "type", "");
	c->timestamp = assay_report__str(line, "timestamp", "");
	c->duration = num(line, "duration");
	c->score = assay_value_is_number(sc) ? assay_value_number(sc) : 0.0;
	c->passed = passed && passed->kind == ASSAY_V_BOOL && passed->u.b;
	c->error = er && er->kind == ASSAY_V_STRING ? er->u.s : NULL;
	c->results = results && results->kind == ASSAY_V_OBJECT ? results : NULL;
	c->execution = ex && ex->kind == ASSAY_V_OBJECT ? ex : NULL;
	c->status = assay_report__str(c->execution, "status", NULL);
	c->type_index = type_index(c->type);
	if (c->passed)
		c->outcome = ASSAY_OUTCOME_PASS;
	else if (c->error || (c->status && strcmp(c->status, "exited")))
		c->outcome = ASSAY_OUTCOME_ERROR;
	else
		c->outcome = ASSAY_OUTCOME_FAIL;
}

const char *assay_report__outcome_name(enum assay_report__outcome o)
{
	static const char *const names[] = { "pass", "fail", "error" };

	return names[o];
}

void assay_report__reason(assay_buf *out, const struct assay_report__case *c)
{
	size_t wrong = 0;

	if (c->error) {
		assay_buf_adds(out, c->error);
		return;
	}
	if (c->status && !strcmp(c->status, "timed_out")) {
		assay_buf_adds(out, "timed out");
	} else if (c->status && !strcmp(c->status, "signaled")) {
		const assay_value *sig = assay_object_get(c->execution, "signal");

		assay_buf_addf(out, "killed by signal %lld",
			       assay_value_is_number(sig) ? (long long)assay_value_number(sig) : 0LL);
	} else if (c->status && !strcmp(c->status, "exec_failed")) {
		assay_buf_adds(out, "could not start: ");
		assay_buf_adds(out, assay_report__str(c->execution, "message", "?"));
		return;
	}
	for (uint32_t i = 0; c->results && i < c->results->len; i++) {
		const assay_member *m = &c->results->u.members[i];
		const assay_value *ok = assay_object_get(&m->value, "is_correct");

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		assay_buf_adds(out, wrong++ ? ", " : (out->len ? "; " : ""));
		assay_buf_add(out, m->key.u.s, m->key.len);
	}
	if (wrong)
		assay_buf_adds(out, " not correct");
	else if (!out->len)
		assay_buf_adds(out, "nothing was verified");
}

bool assay_report__is_cut(const assay_value *v)
{
	const assay_value *m;

	if (!v || v->kind != ASSAY_V_OBJECT || v->len != 1)
		return false;
	m = assay_object_get(v, "$assay_cut");
	return m && m->kind == ASSAY_V_OBJECT && assay_object_get(m, "head");
}

size_t assay_report__utf8_next(const unsigned char *p, size_t len, uint32_t *cp, bool *bad)
{
	unsigned char b = p[0], lo = 0x80, hi = 0xbf;
	size_t need;
	uint32_t c;

	*bad = false;
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		need = 1, c = b & 0x1f;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 2, c = b & 0x0f;
		lo = b == 0xe0 ? 0xa0 : 0x80;
		hi = b == 0xed ? 0x9f : 0xbf;
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 3, c = b & 0x07;
		lo = b == 0xf0 ? 0x90 : 0x80;
		hi = b == 0xf4 ? 0x8f : 0xbf;
	} else {
		*bad = true, *cp = 0xfffd;
		return 1;
	}
	for (size_t k = 1; k <= need; k++) {
		if (k >= len || p[k] < lo || p[k] > hi) {
			*bad = true, *cp = 0xfffd;
			return k; /* the maximal subpart: what was valid so far */
		}
		c = c << 6 | (p[k] & 0x3f);
		lo = 0x80, hi = 0xbf;
	}
	*cp = c;
	return need + 1;
}

const char *assay_report__utf8_clean(assay_arena *a, const char *s, size_t len, size_t *len_out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	uint32_t cp;
	bool bad = false;

	while (i < len && !bad)
		i += assay_report__utf8_next(p + i, len - i, &cp, &bad);
	*len_out = len;
	if (!bad)
		return s;
	/* assay's one rule for bytes that are not UTF-8 is the JSON writer's: there and back */
	assay_buf text = ASSAY_BUF_INIT;
	assay_value v;

	assay_json__write_string(&text, s, len, false);
	if (assay_json_parse(&v, a, text.ptr, text.len, NULL, NULL))
		ASSAY_BUG("the JSON writer wrote a string its parser refuses");
	assay_buf_release(&text);
	*len_out = v.len;
	return v.u.s;
}

/* The longest prefix of s (at most max bytes) that ends on a character boundary. */
static size_t char_prefix(const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t cp;
		bool bad;
		size_t n = assay_report__utf8_next(p + i, len - i, &cp, &bad);

		if (i + n > max)
			break;
		i += n;
	}
	return i;
}

size_t assay_report__text(assay_buf *out, const assay_value *v, size_t cap, bool pretty)
{
	const char *s;
	size_t len, whole = 0;
	assay_buf json = ASSAY_BUF_INIT;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (assay_report__is_cut(v)) {
		const assay_value *m = assay_object_get(v, "$assay_cut");
		const assay_value *head = assay_object_get(m, "head");
		const assay_value *bytes = assay_object_get(m, "bytes");

		s = head->kind == ASSAY_V_STRING ? head->u.s : "";
		len = head->kind == ASSAY_V_STRING ? head->len : 0;
		whole = assay_value_is_number(bytes) ? (size_t)assay_value_number(bytes) : len + 1;
	} else if (v->kind == ASSAY_V_STRING) {
		s = v->u.s, len = v->len;
	} else {
		assay_json_write(&json, v, pretty ? ASSAY_JSON_PRETTY : 0);
		s = json.ptr, len = json.len;
	}
	if (len > cap) {
		if (!whole)
			whole = len;
		len = char_prefix(s, len, cap);
	}
	assay_buf_add(out, s, len);
	assay_buf_release(&json);
	return whole;
}

static bool xml_char(uint32_t c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

void assay_report__xml(assay_buf *out, const char *s, size_t len, bool attribute)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;

	while (i < len) {
		uint32_t cp;
		bool bad;
		size_t n = assay_report__utf8_next(p + i, len - i, &cp, &bad);
		const char *rep = NULL;
		char esc[16];

		if (bad) {
			rep = "\xef\xbf\xbd";
		} else if (!xml_char(cp)) {
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
			rep = esc;
		} else {
			switch (cp) {
			case '&': rep = "&amp;"; break;
			case '<': rep = "&lt;"; break;
			case '>': rep = "&gt;"; break;
			case '"': rep = attribute ? "&quot;" : NULL; break;
			case '\t': rep = attribute ? "&#9;" : NULL; break;
			case '\n': rep = attribute ? "&#10;" : NULL; break;
			case '\r': rep = "&#13;"; break;
			}
		}
		if (rep) {
			assay_buf_add(out, s + run, i - run);
			assay_buf_adds(out, rep);
			run = i + n;
		}
		i += n;
	}
	assay_buf_add(out, s + run, len - run);
}
