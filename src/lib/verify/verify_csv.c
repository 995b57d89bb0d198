/*
 * The csv and tsv verifiers: both texts read as RFC 4180 records (include/assay/csv.h), then
 * compared on the json verifier's path, so the diff names rows and columns in deepdiff's
 * vocabulary: root[2][1] is field 1 of record 2 (both from 0), and with `header: true`
 * root[2]['price'] is column "price" of data row 2 (the row after the header is row 0).
 * Spec: suite-format.md "Verifiers (built in)"; issue #7 ("csv (and tsv): RFC 4180 (quoted
 * fields, embedded newlines, CRLF), options header, ignore_order, delimiter, numeric cells
 * compared with abs_tol/rel_tol when asked; the diff names rows and columns").
 *
 * Key decisions:
 * - Cells are strings. `numeric: true` (the default when abs_tol or rel_tol is given) makes
 *   every cell that reads as a decimal number (`-12`, `3.50`, `1e-3`, spaces around allowed)
 *   a number on both sides, so `3.5` equals `3.50` and the tolerances apply; other cells stay
 *   strings.
 * - `header: true` reads the first record as column names and every other record as a mapping
 *   of them, as pandas' records and csv.DictReader do: the order of columns does not matter, a
 *   missing cell is null, cells past the header go under "(extra)". A name given twice is
 *   suffixed ".1", ".2" as pandas does. The set of columns is compared on its own as well (so
 *   two files without data rows still differ by their header): a difference adds "columns"
 *   {"missing", "extra"} to the diff and fails the attribute.
 * - Expected may be CSV text, a list of records (lists of cells) or, with header, a list of
 *   mappings; cells written as numbers or booleans in the case file are their text unless
 *   numeric (YAML turns `- [a, 1]` into a number that the CSV file holds as "1").
 * - ignore_order compares the rows as a multiset (the json option), so row order can be free.
 */
#include <string.h>

#include "verify/verify_int.h"
#include "util/banned.h"

struct csv_opts {
	bool header;
	bool numeric;
};

/* A decimal number (int or real) read from a cell, or false. */
static bool cell_number(assay_value *out, assay_arena *a, const char *s, size_t n)
{
	size_t i = 0, e = n, digits = 0;
	bool real = false;

	while (i < e && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	size_t start = i;
	if (i < e && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < e && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < e && s[i] == '.') {
		real = true;
		for (i++; i < e && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	}
	if (!digits)
		return false;
	if (i < e && (s[i] == 'e' || s[i] == 'E')) {
		size_t k = i + 1, ed = 0;

		if (k < e && (s[k] == '+' || s[k] == '-'))
			k++;
		for (; k < e && s[k] >= '0' && s[k] <= '9'; k++)
			ed++;
		if (!ed)
			return false;
		real = true;
		i = k;
	}
	if (i != e)
		return false;
	if (!real) {
		const char *p = s + start;
		size_t len = e - start;

		if (*p == '+') {
			p++;
			len--;
		}
		return assay_value_integer_text(out, a, p, len) == 0;
	}
	const char *p = s + start;
	size_t len = e - start;
	bool neg = *p == '-';
	if (*p == '+' || *p == '-') {
		p++;
		len--;
	}
	double d = assay_parse_double(p, len);
	*out = assay_value_real(neg ? -d : d);
	return true;
}

/* A cell as compared: a string, or a number when numeric. */
static assay_value cell(assay_arena *a, const assay_value *v, const struct csv_opts *o)
{
	assay_buf scratch = ASSAY_BUF_INIT;
	assay_value out = *v, num;
	const char *s;
	size_t n;

	if (v->kind == ASSAY_V_NULL)
		return assay_value_string(a, "", 0);
	if (o->numeric && assay_value_is_number(v))
		return *v;
	if (!assay_verify_expected_text(&s, &n, v, &scratch, NULL, NULL)) {
		if (o->numeric && cell_number(&num, a, s, n))
			out = num;
		else if (v->kind != ASSAY_V_STRING)
			out = assay_value_string(a, s, n);
	}
	assay_buf_release(&scratch);
	return out;
}

/* The header's names, a repeated name suffixed ".1", ".2" (pandas). */
static assay_value column_names(assay_arena *a, const assay_value *row)
{
	assay_value names = assay_value_array();

	for (uint32_t i = 0; i < row->len; i++) {
		assay_value c = row->u.items[i];
		assay_value name = c.kind == ASSAY_V_STRING ? c : cell(a, &c, &(struct csv_opts){ 0 });
		int dup = 0;

		for (uint32_t j = 0; j < i; j++)
			if (assay_value_equal(&row->u.items[j], &c))
				dup++;
		if (dup)
			name = assay_value_stringf(a, "%.*s.%d", (int)name.len, name.u.s, dup);
		assay_array_push(a, &names, name);
	}
	return names;
}

/* A record as compared: a list of cells, or with names a mapping. */
static assay_value record(assay_arena *a, const assay_value *row, const assay_value *names,
			  const struct csv_opts *o)
{
	assay_value out;

	if (row->kind == ASSAY_V_OBJECT) {
		out = assay_value_object();
		for (uint32_t i = 0; i < row->len; i++)
			assay_object_append(a, &out, row->u.members[i].key,
					    cell(a, &row->u.members[i].value, o));
		return out;
	}
	if (row->kind != ASSAY_V_ARRAY)
		return cell(a, row, o);
	if (!names) {
		out = assay_value_array();
		for (uint32_t i = 0; i < row->len; i++)
			assay_array_push(a, &out, cell(a, &row->u.items[i], o));
		return out;
	}
	out = assay_value_object();
	assay_value extra = assay_value_array();
	for (uint32_t i = 0; i < row->len; i++) {
		if (i < names->len)
			assay_object_append(a, &out, names->u.items[i],
					    cell(a, &row->u.items[i], o));
		else
			assay_array_push(a, &extra, cell(a, &row->u.items[i], o));
	}
	for (uint32_t i = row->len; i < names->len; i++)
		assay_object_append(a, &out, names->u.items[i], assay_value_null());
	if (extra.len)
		assay_object_set(a, &out, "(extra)", extra);
	return out;
}

/*
 * The records of `rows` as compared; with header, `*columns` receives the column names (from
 * the first record, or from the keys of mappings).
 */
static assay_value records(assay_arena *a, const assay_value *rows, const struct csv_opts *o,
			   assay_value *columns)
{
	assay_value out = assay_value_array(), names = assay_value_array();
	uint32_t first = 0;

	if (rows->kind != ASSAY_V_ARRAY)
		return *rows;
	if (o->header && rows->len && rows->u.items[0].kind == ASSAY_V_ARRAY) {
		names = column_names(a, &rows->u.items[0]);
		first = 1;
	}
	for (uint32_t i = first; i < rows->len; i++) {
		const assay_value *r = &rows->u.items[i];

		/* records written as mappings: the columns are their keys, first seen first */
		for (uint32_t k = 0; o->header && !first && r->kind == ASSAY_V_OBJECT && k < r->len;
		     k++) {
			bool seen = false;

			for (uint32_t j = 0; j < names.len && !seen; j++)
				seen = assay_value_equal(&names.u.items[j], &r->u.members[k].key);
			if (!seen)
				assay_array_push(a, &names, r->u.members[k].key);
		}
		assay_array_push(a, &out, record(a, r, o->header ? &names : NULL, o));
	}
	*columns = names;
	return out;
}

/* Names in `x` that are not in `y`, as a list. */
static assay_value missing_from(assay_arena *a, const assay_value *x, const assay_value *y)
{
	assay_value out = assay_value_array();

	for (uint32_t i = 0; i < x->len; i++) {
		bool found = false;

		for (uint32_t j = 0; j < y->len && !found; j++)
			found = assay_value_equal(&x->u.items[i], &y->u.items[j]);
		if (!found)
			assay_array_push(a, &out, x->u.items[i]);
	}
	return out;
}

static int verify_table(assay_verification *out, const assay_verify_call *call,
			assay_verify__format f, assay_err *err)
{
	assay_arena *a = call->arena;
	struct csv_opts o = { false, false };
	assay_diff_opts opts;
	assay_value ex_rows, ac_rows, expected, actual, ex_cols, ac_cols;
	int rc;

	o.numeric = assay_object_get(call->options, "abs_tol") ||
		    assay_object_get(call->options, "rel_tol");
	if ((rc = assay_diff_opts_parse(&opts, a, call->options, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "header", &o.header, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "numeric", &o.numeric, err)) ||
	    (rc = assay_verify__parse_expected(&ex_rows, call, f, err)))
		return rc;
	if (ex_rows.kind != ASSAY_V_ARRAY)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be %s text or a list of records",
				     assay_verify__attr(call), assay_verify__format_name(f));
	if (!assay_verify__parse_actual(&ac_rows, out, call, f, &rc, err))
		return rc;
	if (ac_rows.kind != ASSAY_V_ARRAY) {
		/* a status code or a time: one record of one cell */
		assay_value row = assay_value_array_of(a, &ac_rows, 1);
		ac_rows = assay_value_array_of(a, &row, 1);
	}
	expected = records(a, &ex_rows, &o, &ex_cols);
	actual = records(a, &ac_rows, &o, &ac_cols);
	if ((rc = assay_verify__compare(out, call, &opts, &expected, &actual, err)) || !o.header ||
	    out->diff.kind != ASSAY_V_OBJECT)
		return rc;
	assay_value missing = missing_from(a, &ex_cols, &ac_cols);
	assay_value extra = missing_from(a, &ac_cols, &ex_cols);
	if (missing.len || extra.len) {
		assay_value cols = assay_value_object();

		assay_object_set(a, &cols, "missing", missing);
		assay_object_set(a, &cols, "extra", extra);
		assay_object_set(a, &out->diff, "columns", cols);
		out->is_correct = false;
		if (out->partial > 0)
			out->partial = 0;
	}
	return 0;
}

static int verify_csv(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify_table(out, call, ASSAY_FMT_CSV, err);
}

static int verify_tsv(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	return verify_table(out, call, ASSAY_FMT_TSV, err);
}

static const char *const csv_options[] = { ASSAY_VERIFY__STRUCTURAL_OPTIONS, "header",
					   "delimiter", "numeric", NULL };

const assay_verifier assay_verifier_csv = { "csv", verify_csv, csv_options };
const assay_verifier assay_verifier_tsv = { "tsv", verify_tsv, csv_options };
