/*
 * assay-test-parquet: writes Parquet files with assay's writer for tests/cli/t5101-parquet.sh,
 * which reads them back with independent readers (DuckDB; pyarrow when present).
 *
 * Usage: assay-test-parquet DIR
 * For each file NAME it writes DIR/NAME.parquet and DIR/NAME.expected: the values it appended,
 * one line per row, in the canonical text form that tests/parquet/dump.mjs prints for what a
 * reader read back, so that `cmp` compares every value. The form (both sides must agree):
 *   first line "#" and the column names with their DuckDB types, tab-separated
 *   null; strings as JSON.stringify writes them; integers in decimal; doubles as "d:" and the
 *   16 hex digits of their bits ("nan" for any NaN); booleans true/false; timestamps "t:" and
 *   microseconds; lists "[{name=value,...},...]"; columns tab-separated.
 *
 * Key decision: values that are not valid UTF-8 are written on purpose, and their expected
 * text is spelled out by hand (the repair is U+FFFD per bad sequence), not computed with the
 * code under test.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/parquet.h"
#include "../../src/lib/util/banned.h"

static FILE *expected;

static void die(const char *what, const assay_err *err)
{
	char msg[1200];

	fprintf(stderr, "assay-test-parquet: %s: %s\n", what,
		err ? assay_err_format(err, msg, sizeof(msg)) : "failed");
	exit(1);
}

/* Strings given as not-UTF-8 bytes and what a reader must find instead. */
static const struct {
	const char *in;
	size_t len;
	const char *want;
} repairs[] = {
	{ "bad\xff", 4, "bad\xef\xbf\xbd" },
	{ "\xc3(", 2, "\xef\xbf\xbd(" },
	{ "trunc\xe2\x82", 7, "trunc\xef\xbf\xbd" },
	{ "\xed\xa0\x80x", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx" },
};

static void put_json_string(const char *s, size_t len)
{
	for (size_t r = 0; r < sizeof(repairs) / sizeof(repairs[0]); r++) {
		if (len == repairs[r].len && !memcmp(s, repairs[r].in, len)) {
			s = repairs[r].want;
			len = strlen(s);
			break;
		}
	}
	fputc('"', expected);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", expected); break;
		case '\\': fputs("\\\\", expected); break;
		case '\b': fputs("\\b", expected); break;
		case '\f': fputs("\\f", expected); break;
		case '\n': fputs("\\n", expected); break;
		case '\r': fputs("\\r", expected); break;
		case '\t': fputs("\\t", expected); break;
		default:
			if (c < 0x20)
				fprintf(expected, "\\u%04x", c);
			else
				fputc(c, expected);
		}
	}
	fputc('"', expected);
}

static void put_value(const assay_pq_column *c, const assay_pq_value *v)
{
	if (v->is_null) {
		fputs("null", expected);
		return;
	}
	switch (c->type) {
	case ASSAY_PQ_STRING:
		put_json_string(v->u.str.ptr, v->u.str.len);
		break;
	case ASSAY_PQ_DOUBLE: {
		uint64_t bits;
		memcpy(&bits, &v->u.f64, 8);
		if (isnan(v->u.f64))
			fputs("nan", expected);
		else
			fprintf(expected, "d:%016" PRIx64, bits);
		break;
	}
	case ASSAY_PQ_INT64:
		fprintf(expected, "%" PRId64, v->u.i64);
		break;
	case ASSAY_PQ_TIMESTAMP:
		fprintf(expected, "t:%" PRId64, v->u.i64);
		break;
	case ASSAY_PQ_BOOL:
		fputs(v->u.b ? "true" : "false", expected);
		break;
	case ASSAY_PQ_LIST:
		fputc('[', expected);
		for (size_t k = 0; k < v->u.list.count; k++) {
			fputs(k ? ",{" : "{", expected);
			for (size_t f = 0; f < c->nfields; f++) {
				fprintf(expected, "%s%s=", f ? "," : "", c->fields[f].name);
				put_value(&c->fields[f], &v->u.list.items[k * c->nfields + f]);
			}
			fputc('}', expected);
		}
		fputc(']', expected);
		break;
	}
}

static const char *duck_type(assay_pq_type t)
{
	switch (t) {
	case ASSAY_PQ_STRING: return "VARCHAR";
	case ASSAY_PQ_DOUBLE: return "DOUBLE";
	case ASSAY_PQ_INT64: return "BIGINT";
	case ASSAY_PQ_BOOL: return "BOOLEAN";
	case ASSAY_PQ_TIMESTAMP: return "TIMESTAMP WITH TIME ZONE";
	case ASSAY_PQ_LIST: return "LIST";
	}
	return "?";
}

struct file {
	assay_pq_writer *w;
	const assay_pq_column *cols;
	size_t ncols;
};

static void begin(struct file *f, const char *dir, const char *name, const assay_pq_column *cols,
		  size_t ncols, const assay_pq_options *opts)
{
	char path[4096];
	assay_err err = ASSAY_ERR_INIT;

	snprintf(path, sizeof(path), "%s/%s.expected", dir, name);
	expected = fopen(path, "w");
	if (!expected)
		die(path, NULL);
	fputc('#', expected);
	for (size_t i = 0; i < ncols; i++) {
		fprintf(expected, "%s%s:", i ? "\t" : "", cols[i].name);
		if (cols[i].type != ASSAY_PQ_LIST) {
			fputs(duck_type(cols[i].type), expected);
			continue;
		}
		fputs("STRUCT(", expected);
		for (size_t k = 0; k < cols[i].nfields; k++)
			fprintf(expected, "%s\"%s\" %s", k ? ", " : "", cols[i].fields[k].name,
				duck_type(cols[i].fields[k].type));
		fputs(")[]", expected);
	}
	fputc('\n', expected);
	snprintf(path, sizeof(path), "%s/%s.parquet", dir, name);
	if (assay_pq_writer_open(&f->w, path, cols, ncols, opts, &err))
		die(path, &err);
	f->cols = cols;
	f->ncols = ncols;
}

static void row(struct file *f, const assay_pq_value *vals)
{
	assay_err err = ASSAY_ERR_INIT;

	if (assay_pq_writer_append(f->w, vals, &err))
		die("append", &err);
	for (size_t i = 0; i < f->ncols; i++) {
		if (i)
			fputc('\t', expected);
		put_value(&f->cols[i], &vals[i]);
	}
	fputc('\n', expected);
}

static void end(struct file *f)
{
	assay_err err = ASSAY_ERR_INIT;

	if (assay_pq_writer_finish(f->w, &err))
		die("finish", &err);
	assay_pq_writer_free(f->w);
	if (fclose(expected))
		die("writing the expected values", NULL);
}

/* Every flat type, REQUIRED and OPTIONAL, with edge values, nulls, unicode, empty strings,
 * repaired bytes; small row groups and pages so there are several of each. */
static void all_types(const char *dir, const char *name, assay_pq_codec codec)
{
	static const assay_pq_column cols[] = {
		{ "s", ASSAY_PQ_STRING, false }, { "s_opt", ASSAY_PQ_STRING, true },
		{ "d", ASSAY_PQ_DOUBLE, false }, { "d_opt", ASSAY_PQ_DOUBLE, true },
		{ "i", ASSAY_PQ_INT64, false },  { "i_opt", ASSAY_PQ_INT64, true },
		{ "b", ASSAY_PQ_BOOL, false },   { "b_opt", ASSAY_PQ_BOOL, true },
		{ "t", ASSAY_PQ_TIMESTAMP, false }, { "t_opt", ASSAY_PQ_TIMESTAMP, true },
	};
	static const char *const strings[] = {
		"", "plain", "é ü ß", "日本語のテキスト", "emoji 🎉🚀", "tab\there\nnewline \"q\" \\",
		"\x01\x1f control", "\xef\xbf\xbd already a replacement",
	};
	static const double doubles[] = { 0.0, -0.0, 1.5, -2.25, 1e308, -1e-308, 4.9e-324,
					  INFINITY, -INFINITY, NAN, 0.1, 123456789.123456789 };
	static const int64_t ints[] = { 0, 1, -1, INT64_MAX, INT64_MIN, 1234567890123LL,
					-987654321, 42 };
	static const int64_t stamps[] = { 0, 1, -1, 1700000000123456LL, -2208988800000000LL,
					  253402300799999999LL, 1000000 };
	struct file f;
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;

	o.codec = codec;
	o.row_group_rows = 7;
	o.page_bytes = 64;
	begin(&f, dir, name, cols, 10, &o);
	const size_t nrep = sizeof(repairs) / sizeof(repairs[0]);
	for (size_t r = 0; r < 40; r++) {
		assay_pq_value v[10];
		const char *s = strings[r % 8];
		v[0] = r % 9 < nrep && r >= 30 ? assay_pq_strn(repairs[r % 9].in, repairs[r % 9].len)
					       : assay_pq_str(s);
		v[1] = r % 3 == 1 ? assay_pq_null() : assay_pq_str(strings[(r * 5) % 8]);
		v[2] = assay_pq_f64(doubles[r % 12]);
		v[3] = r % 4 == 2 ? assay_pq_null() : assay_pq_f64(doubles[(r * 7) % 12]);
		v[4] = assay_pq_i64(ints[r % 8]);
		v[5] = r % 5 == 0 ? assay_pq_null() : assay_pq_i64(ints[(r * 3) % 8]);
		v[6] = assay_pq_bool(r % 3 == 0);
		v[7] = r % 2 ? assay_pq_null() : assay_pq_bool(r % 4 == 0);
		v[8] = assay_pq_i64(stamps[r % 7]);
		v[9] = r % 6 == 3 ? assay_pq_null() : assay_pq_i64(stamps[(r * 2) % 7]);
		row(&f, v);
	}
	end(&f);
}

/* 100,000 rows in row groups of 30,000 and the default page size. */
static void big(const char *dir)
{
	static const assay_pq_column cols[] = {
		{ "id", ASSAY_PQ_STRING, false },  { "group", ASSAY_PQ_STRING, true },
		{ "duration", ASSAY_PQ_DOUBLE, true }, { "n", ASSAY_PQ_INT64, false },
		{ "passed", ASSAY_PQ_BOOL, false }, { "timestamp", ASSAY_PQ_TIMESTAMP, true },
	};
	static const char *const groups[] = { "core", "errors", "functionality", "regression",
					       "ünïcödé", "", "日本" };
	struct file f;
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;

	o.row_group_rows = 30000;
	begin(&f, dir, "big", cols, 6, &o);
	for (int64_t i = 0; i < 100000; i++) {
		char id[64];
		assay_pq_value v[6];
		snprintf(id, sizeof(id), "case-%06" PRId64 "%s", i, i % 11 ? "" : "-ñ");
		v[0] = assay_pq_str(id);
		v[1] = i % 5 == 4 ? assay_pq_null() : assay_pq_str(groups[i % 7]);
		v[2] = i % 13 == 0 ? assay_pq_null() : assay_pq_f64((double)i * 0.25 - 1000.0);
		v[3] = assay_pq_i64(i * i * 1000003 - 5000000000LL);
		v[4] = assay_pq_bool(i % 3 != 0);
		v[5] = i % 17 == 0 ? assay_pq_null()
				   : assay_pq_i64(1733788800000000LL + i * 1000003);
		row(&f, v);
	}
	end(&f);
}

/* SlopCodeBench's reports.parquet shape (docs/internals/parquet.md): every column OPTIONAL as
 * pyarrow infers them, results and case lists of structs. */
static void reports(const char *dir)
{
	static const assay_pq_column result_fields[] = {
		{ "attribute", ASSAY_PQ_STRING, true }, { "actual", ASSAY_PQ_STRING, true },
		{ "expected", ASSAY_PQ_STRING, true },  { "diff", ASSAY_PQ_STRING, true },
		{ "is_correct", ASSAY_PQ_BOOL, true },  { "weight", ASSAY_PQ_DOUBLE, true },
	};
	static const assay_pq_column case_fields[] = {
		{ "attribute", ASSAY_PQ_STRING, true }, { "value", ASSAY_PQ_STRING, true },
	};
	static const assay_pq_column cols[] = {
		{ "problem", ASSAY_PQ_STRING, true },  { "checkpoint", ASSAY_PQ_STRING, true },
		{ "version", ASSAY_PQ_INT64, true },   { "problem_version", ASSAY_PQ_INT64, true },
		{ "id", ASSAY_PQ_STRING, true },       { "group", ASSAY_PQ_STRING, true },
		{ "type", ASSAY_PQ_STRING, true },     { "timestamp", ASSAY_PQ_STRING, true },
		{ "duration", ASSAY_PQ_DOUBLE, true },
		{ "results", ASSAY_PQ_LIST, true, result_fields, 6 },
		{ "case", ASSAY_PQ_LIST, true, case_fields, 2 },
		{ "original_checkpoint", ASSAY_PQ_STRING, true },
		{ "original_group", ASSAY_PQ_STRING, true },
	};
	struct file f;
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;

	o.zstd_level = 10;
	o.row_group_rows = 3;
	begin(&f, dir, "reports", cols, 13, &o);
	for (int r = 0; r < 8; r++) {
		char id[32], actual[64];
		assay_pq_value res[3 * 6], cs[3 * 2], v[13];
		snprintf(id, sizeof(id), "case_%d", r);
		snprintf(actual, sizeof(actual), "{\"greeting\": \"Hello %d\"}", r);
		assay_pq_value out[6] = {
			assay_pq_str("output"), assay_pq_str(actual),
			assay_pq_str("{\"greeting\": \"Hello 0\"}"),
			r ? assay_pq_str("{\"values_changed\": {}}") : assay_pq_str("{}"),
			assay_pq_bool(r == 0), assay_pq_f64(0.9) };
		assay_pq_value status[6] = {
			assay_pq_str("status_code"), assay_pq_str("0"), assay_pq_str("0"),
			assay_pq_str("{}"), assay_pq_bool(true), assay_pq_f64(0.1) };
		assay_pq_value unverified[6] = {
			assay_pq_str("stderr"), assay_pq_str("wärning\n"), assay_pq_null(),
			assay_pq_null(), assay_pq_null(), assay_pq_f64(0.0) };
		memcpy(res, out, sizeof(out));
		memcpy(res + 6, status, sizeof(status));
		memcpy(res + 12, unverified, sizeof(unverified));
		cs[0] = assay_pq_str("arguments");
		cs[1] = assay_pq_str("[\"greet\", \"--name\", \"Ada\"]");
		cs[2] = assay_pq_str("stdin");
		cs[3] = r % 2 ? assay_pq_null() : assay_pq_str("");
		cs[4] = assay_pq_str("type");
		cs[5] = assay_pq_str("cli");
		v[0] = assay_pq_str("my-suite");
		v[1] = assay_pq_str(r < 5 ? "checkpoint_1" : "checkpoint_2");
		v[2] = assay_pq_i64(1);
		v[3] = assay_pq_i64(2);
		v[4] = assay_pq_str(id);
		v[5] = assay_pq_str(r % 2 ? "errors" : "core");
		v[6] = assay_pq_str(r % 2 ? "Error" : "Core");
		v[7] = assay_pq_str("2025-12-10T09:30:00.123456");
		v[8] = assay_pq_f64(0.001 * r);
		/* row 3: no results at all (null); row 4: an empty list; others 1 to 3 items */
		v[9] = r == 3 ? assay_pq_null() : assay_pq_list(res, r == 4 ? 0 : (size_t)(r % 3) + 1);
		v[10] = r == 6 ? assay_pq_list(NULL, 0) : assay_pq_list(cs, 3);
		v[11] = r >= 5 ? assay_pq_str("checkpoint_1") : assay_pq_null();
		v[12] = r >= 5 ? assay_pq_str(r % 2 ? "errors" : "core") : assay_pq_null();
		row(&f, v);
	}
	end(&f);
}

static void empty(const char *dir)
{
	static const assay_pq_column cols[] = {
		{ "a", ASSAY_PQ_STRING, true }, { "b", ASSAY_PQ_INT64, false },
	};
	struct file f;

	begin(&f, dir, "empty", cols, 2, NULL);
	end(&f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: assay-test-parquet DIR\n", stderr);
		return 2;
	}
	all_types(argv[1], "all_types", ASSAY_PQ_ZSTD);
	all_types(argv[1], "all_types_plain", ASSAY_PQ_UNCOMPRESSED);
	big(argv[1]);
	reports(argv[1]);
	empty(argv[1]);
	return 0;
}
