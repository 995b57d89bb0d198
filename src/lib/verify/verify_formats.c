/*
 * The document verifiers yaml, toml and ini: the actual text parsed by the format's reader,
 * then compared on the json verifier's path (assay_verify__compare), so every json option and
 * deepdiff's vocabulary apply. Also the readers' dispatch that csv/tsv and the json_* verifiers
 * share. Spec: suite-format.md "Verifiers (built in)"; issue #7 section 1.
 *
 * Key decisions:
 * - Each format is read as Python's standard reader reads it: YAML as PyYAML's safe_load
 *   (timestamps become dates; a second document is an error unless multi_document: true,
 *   which compares the list of documents), TOML as tomllib, INI as configparser (include/assay
 *   toml.h, ini.h, yaml.h say exactly how).
 * - Expected: a string is text of the format, parsed the same way (a string that does not
 *   parse is a suite bug: a refusal naming expected.<attribute>); anything else is the value
 *   as the case file wrote it, with two corrections so that a case written in YAML means what
 *   its author meant: the case loader leaves timestamps as text, so for yaml and toml a string
 *   that reads as a YAML timestamp (yaml) or a TOML date or time (toml) becomes that datetime;
 *   and INI values are text, so for ini a number or boolean in a section becomes its text
 *   (`port: 8080` is "8080", `debug: true` is "true", null is "").
 * - Offset date-times compare as instants, as Python's == compares aware datetimes
 *   (2001-12-14T21:59:43-05:00 equals 2001-12-15T02:59:43+00:00): on both sides they are
 *   written in UTC before the comparison, so the diff shows them in UTC. Local date-times,
 *   dates and times compare as written (a local date-time never equals an offset one).
 * - Actual that does not parse fails the attribute with the reader's message and position
 *   ("output is not valid TOML: line 3, column 7: ..."), never an error of assay; a file that
 *   was not produced fails with "file was not produced"; past the memory budget, with that
 *   reason (budget set). Empty text is a document (YAML: null, TOML and INI: {}, CSV: []), so
 *   it is compared, not refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/csv.h"
#include "assay/ini.h"
#include "assay/json.h"
#include "assay/toml.h"
#include "assay/yaml.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define MAX_NORMALISE_DEPTH 1000

static const char *const names[] = { "JSON", "YAML", "TOML", "INI", "CSV", "TSV" };

const char *assay_verify__format_name(assay_verify__format f)
{
	return names[f];
}

int assay_verify__opt_format(const assay_value *options, assay_verify__format *out,
			     assay_err *err)
{
	static const char *const lower[] = { "json", "yaml", "toml", "ini" };
	const char *s = NULL;
	int rc = assay_verify_opt_string(options, "format", &s, err);

	*out = ASSAY_FMT_JSON;
	if (rc || !s)
		return rc;
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, lower[i])) {
			*out = (assay_verify__format)i;
			return 0;
		}
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "option 'format' must be json, yaml, toml or ini (got '%s')", s);
}

/* The delimiter option: one byte ("," ";" "|"), or "\t" / "tab". */
static int opt_delimiter(const assay_value *options, assay_verify__format f, char *out,
			 assay_err *err)
{
	const char *s = NULL;
	int rc = assay_verify_opt_string(options, "delimiter", &s, err);

	*out = f == ASSAY_FMT_TSV ? '\t' : ',';
	if (rc || !s)
		return rc;
	if (!strcmp(s, "tab") || !strcmp(s, "\\t")) {
		*out = '\t';
		return 0;
	}
	if (strlen(s) != 1 || *s == '"' || *s == '\r' || *s == '\n')
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option 'delimiter' must be one character other than a quote "
				     "or a line end (or \"tab\"), got '%s'", s);
	*out = *s;
	return 0;
}

/* Parses text of format `f` with the call's options. */
static int parse(assay_value *v, const assay_verify_call *call, assay_verify__format f,
		 const char *text, size_t len, bool borrow, assay_err *err)
{
	assay_arena *a = call->arena;
	int rc;

	switch (f) {
	case ASSAY_FMT_JSON: {
		assay_json_opts o = ASSAY_JSON_OPTS_INIT;
		o.borrow = borrow;
		return assay_json_parse(v, a, text, len, &o, err);
	}
	case ASSAY_FMT_YAML: {
		assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
		o.timestamps = true;
		if ((rc = assay_verify_opt_bool(call->options, "multi_document",
						&o.multi_document, err)))
			return rc;
		return assay_yaml_parse(v, a, text, len, &o, err);
	}
	case ASSAY_FMT_TOML:
		return assay_toml_parse(v, a, text, len, NULL, err);
	case ASSAY_FMT_INI: {
		assay_ini_opts o = ASSAY_INI_OPTS_INIT;
		if ((rc = assay_verify_opt_bool(call->options, "lower_keys", &o.lower_keys, err)))
			return rc;
		return assay_ini_parse(v, a, text, len, &o, err);
	}
	case ASSAY_FMT_CSV:
	case ASSAY_FMT_TSV: {
		assay_csv_opts o = ASSAY_CSV_OPTS_INIT;
		if ((rc = opt_delimiter(call->options, f, &o.delimiter, err)))
			return rc;
		return assay_csv_parse(v, a, text, len, &o, err);
	}
	}
	return ASSAY_EINVALID;
}

bool assay_verify__parse_actual(assay_value *v, assay_verification *out,
				const assay_verify_call *call, assay_verify__format f, int *rc,
				assay_err *err)
{
	const assay_actual *ac = call->actual;
	assay_arena *a = call->arena;
	assay_err pe = ASSAY_ERR_INIT;

	*rc = 0;
	switch (ac ? ac->kind : ASSAY_ACTUAL_MISSING) {
	case ASSAY_ACTUAL_MISSING:
		assay_verify__fail(out, assay_value_strz(a, assay_verify__missing(call)));
		return false;
	case ASSAY_ACTUAL_INT:
		*v = assay_value_int(ac->integer);
		return true;
	case ASSAY_ACTUAL_REAL:
		*v = assay_value_real(ac->real);
		return true;
	case ASSAY_ACTUAL_BYTES:
		break;
	}
	int prc = parse(v, call, f, ac->bytes, ac->len, true, &pe);
	if (prc == ASSAY_EINVALID) {
		*rc = assay_err_set(err, prc, NULL, 0, 0, "%s", pe.msg);
		return false;
	}
	if (prc == ASSAY_ETOOBIG) {
		out->budget = true;
		if (assay_arena_expired(a))
			assay_verify__fail(out, assay_value_stringf(
							a, "%s could not be read within the "
							   "verification budget (time)",
							assay_verify__attr(call)));
		else if (assay_arena_over(a))
			assay_verify__fail(out, assay_value_stringf(
							a, "%s is too large to verify within the "
							   "verification budget (%zu MiB of memory)",
							assay_verify__attr(call), assay_arena_used(a) >> 20));
		else /* the reader's stacks, charged while it ran; or a reader's own bound */
			assay_verify__fail(out, assay_value_stringf(a, "%s: %s",
								    assay_verify__attr(call),
								    pe.msg));
		return false;
	}
	if (prc) {
		assay_verify__fail(
			out, assay_value_stringf(a, "%s is not valid %s: line %d, column %d: %s%s",
						 assay_verify__attr(call), names[f], pe.line,
						 pe.column, pe.msg,
						 ac->truncated ? " (actual output was truncated at "
								 "its cap)"
							       : ""));
		return false;
	}
	return true;
}

/* ---- date-times as instants ------------------------------------------------------------ */

static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, unsigned m, unsigned d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

static void civil_from_days(long z, long *y, unsigned *m, unsigned *d)
{
	z += 719468;
	long era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;

	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (long)yoe + era * 400 + (*m <= 2);
}

/*
 * An offset date-time ("YYYY-MM-DDTHH:MM:SS[.ffffff]+HH:MM", the text the readers make) as the
 * same instant in UTC ("...+00:00"); false when it is not one, already UTC, or would leave
 * Python's years 1-9999.
 */
static bool to_utc(assay_value *out, assay_arena *a, const assay_value *v)
{
	const char *s = v->u.s;
	size_t n = v->len;
	char buf[48];

	if (v->kind != ASSAY_V_DATETIME || assay_value_datetime_kind(v) != ASSAY_DT_OFFSET ||
	    n < 25 || n > 32 || (s[n - 6] != '+' && s[n - 6] != '-') || s[n - 3] != ':' ||
	    !memcmp(s + n - 6, "+00:00", 6))
		return false;
	int Y = digits(s, 4), M = digits(s + 5, 2), D = digits(s + 8, 2), h = digits(s + 11, 2),
	    mi = digits(s + 14, 2), oh = digits(s + n - 5, 2), om = digits(s + n - 2, 2);
	if (Y < 0 || M < 1 || D < 1 || h < 0 || mi < 0 || oh < 0 || om < 0)
		return false;
	long minutes = days_from_civil(Y, (unsigned)M, (unsigned)D) * 1440 + h * 60 + mi -
		       (s[n - 6] == '+' ? 1 : -1) * (oh * 60 + om);
	long day = minutes >= 0 ? minutes / 1440 : -((-minutes + 1439) / 1440), y;
	unsigned m, d;
	long rest = minutes - day * 1440;

	civil_from_days(day, &y, &m, &d);
	if (y < 1 || y > 9999)
		return false;
	int len = snprintf(buf, sizeof(buf), "%04ld-%02u-%02uT%02ld:%02ld%.*s+00:00", y, m, d,
			   rest / 60, rest % 60, (int)(n - 6 - 16), s + 16);
	*out = assay_value_datetime(a, ASSAY_DT_OFFSET, buf, (size_t)len);
	return true;
}

/* Every offset date-time of `v` (made in the call's arena) rewritten in UTC, in place, at any
 * depth (an explicit stack: a document's depth is the submission's choice). */
static void instants(assay_arena *a, assay_value *v)
{
	assay_value **stack = NULL;
	size_t n = 0, alloc = 0;

	if (v->kind != ASSAY_V_ARRAY && v->kind != ASSAY_V_OBJECT) {
		to_utc(v, a, v);
		return;
	}
	stack = assay_xmalloc(16 * sizeof(*stack));
	alloc = 16;
	stack[n++] = v;
	while (n) {
		assay_value *c = stack[--n];
		bool arr = c->kind == ASSAY_V_ARRAY;

		for (uint32_t i = 0; i < c->len; i++) {
			assay_value *item = arr ? &c->u.items[i] : &c->u.members[i].value;

			if (item->kind == ASSAY_V_DATETIME) {
				to_utc(item, a, item);
			} else if (item->kind == ASSAY_V_ARRAY || item->kind == ASSAY_V_OBJECT) {
				if (n == alloc) {
					alloc *= 2;
					stack = assay_xrealloc(stack, alloc * sizeof(*stack));
				}
				stack[n++] = item;
			}
		}
	}
	free(stack);
}

/* ---- expected values written in the case file ---------------------------------------- */

/* A string that reads as a datetime of format `f`, as that datetime. */
static bool as_datetime(assay_value *out, assay_arena *a, const assay_value *s,
			assay_verify__format f)
{
	if (s->len < 8 || s->len > 64 || s->u.s[0] < '0' || s->u.s[0] > '9')
		return false;
	if (f == ASSAY_FMT_TOML)
		return assay_toml_datetime(out, a, s->u.s, s->len);
	/* YAML: the text as a document of its own, read with PyYAML's timestamp rules */
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;
	assay_value v;

	o.timestamps = true;
	if (memchr(s->u.s, '\n', s->len) || assay_yaml_parse(&v, a, s->u.s, s->len, &o, NULL) ||
	    v.kind != ASSAY_V_DATETIME)
		return false;
	*out = v;
	return true;
}

/* A scalar as INI text: numbers and booleans as written, null as "". */
static assay_value as_text(assay_arena *a, const assay_value *v)
{
	assay_buf scratch = ASSAY_BUF_INIT;
	const char *s;
	size_t n;
	assay_value out = *v;

	if (v->kind == ASSAY_V_NULL)
		return assay_value_string(a, "", 0);
	if (!assay_verify_expected_text(&s, &n, v, &scratch, NULL, NULL) &&
	    v->kind != ASSAY_V_STRING)
		out = assay_value_string(a, s, n);
	assay_buf_release(&scratch);
	return out;
}

/*
 * `v` with the corrections described at the top for format `f` (yaml, toml: timestamps; ini:
 * scalars at the second level as text). Containers are copied only where something changed.
 */
static assay_value normalise(assay_arena *a, const assay_value *v, assay_verify__format f,
			     size_t depth)
{
	assay_value out = *v, dt;

	if (depth > MAX_NORMALISE_DEPTH)
		return out;
	if (v->kind == ASSAY_V_STRING && f != ASSAY_FMT_INI && as_datetime(&dt, a, v, f))
		return to_utc(&out, a, &dt) ? out : dt;
	if (v->kind == ASSAY_V_DATETIME && to_utc(&dt, a, v))
		return dt;
	if (f == ASSAY_FMT_INI && depth == 2 && v->kind != ASSAY_V_ARRAY &&
	    v->kind != ASSAY_V_OBJECT)
		return as_text(a, v);
	if (v->kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < v->len; i++) {
			assay_value n = normalise(a, &v->u.items[i], f, depth + 1);

			if (!memcmp(&n, &v->u.items[i], sizeof(n)))
				continue;
			if (out.u.items == v->u.items)
				out = assay_value_array_of(a, v->u.items, v->len);
			out.u.items[i] = n;
		}
	} else if (v->kind == ASSAY_V_OBJECT) {
		for (uint32_t i = 0; i < v->len; i++) {
			const assay_member *m = &v->u.members[i];
			assay_value n = normalise(a, &m->value, f, depth + 1);

			if (!memcmp(&n, &m->value, sizeof(n)))
				continue;
			if (out.u.members == v->u.members) {
				out = assay_value_object();
				for (uint32_t j = 0; j < v->len; j++)
					assay_object_append(a, &out, v->u.members[j].key,
							    v->u.members[j].value);
			}
			out.u.members[i].value = n;
		}
	}
	return out;
}

int assay_verify__parse_expected(assay_value *v, const assay_verify_call *call,
				 assay_verify__format f, assay_err *err)
{
	const assay_value *ex = call->expected;
	assay_err pe = ASSAY_ERR_INIT;
	int rc;

	if (!ex)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     assay_verify__attr(call));
	if (ex->kind == ASSAY_V_STRING) {
		if ((rc = parse(v, call, f, ex->u.s, ex->len, false, &pe)) == ASSAY_EINVALID)
			return assay_err_set(err, rc, NULL, 0, 0, "%s", pe.msg);
		if (rc)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "expected.%s is not valid %s: line %d, column %d: %s",
					     assay_verify__attr(call), names[f], pe.line, pe.column,
					     pe.msg);
		return 0;
	}
	*v = f == ASSAY_FMT_JSON ? *ex : normalise(call->arena, ex, f, 0);
	return 0;
}

/* ---- yaml, toml, ini -------------------------------------------------------------------- */

static int verify_document(assay_verification *out, const assay_verify_call *call,
			   assay_verify__format f, assay_err *err)
{
	assay_diff_opts opts;
	assay_value expected, actual;
	int rc;

	if ((rc = assay_diff_opts_parse(&opts, call->arena, call->options, err)) ||
	    (rc = assay_verify__parse_expected(&expected, call, f, err)))
		return rc;
	if (!assay_verify__parse_actual(&actual, out, call, f, &rc, err))
		return rc;
	if (call->expected->kind == ASSAY_V_STRING)
		instants(call->arena, &expected); /* parsed here: ours to rewrite */
	instants(call->arena, &actual);
	return assay_verify__compare(out, call, &opts, &expected, &actual, err);
}

static int verify_yaml(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify_document(out, call, ASSAY_FMT_YAML, err);
}

static int verify_toml(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify_document(out, call, ASSAY_FMT_TOML, err);
}

static int verify_ini(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify_document(out, call, ASSAY_FMT_INI, err);
}

static const char *const yaml_options[] = { ASSAY_VERIFY__STRUCTURAL_OPTIONS, "multi_document",
					    NULL };
static const char *const toml_options[] = { ASSAY_VERIFY__STRUCTURAL_OPTIONS, NULL };
static const char *const ini_options[] = { ASSAY_VERIFY__STRUCTURAL_OPTIONS, "lower_keys", NULL };

const assay_verifier assay_verifier_yaml = { "yaml", verify_yaml, yaml_options };
const assay_verifier assay_verifier_toml = { "toml", verify_toml, toml_options };
const assay_verifier assay_verifier_ini = { "ini", verify_ini, ini_options };
