/*
 * The document verifiers yaml, toml, ini (verify_formats.c) and csv, tsv (verify_csv.c), and
 * the CSV reader under them (src/lib/csv): pass, fail and the diff's content for each; the
 * json options on their path; expected values written in the case file; actual output that
 * does not parse; refusals.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "assay/csv.h"
#include "assay/json.h"
#include "assay/verify.h"
#include "assay/yaml.h"
#include "verify_call.h"

static assay_arena *A;

static void setup(void)
{
	A = assay_arena_new(0);
}

static void teardown(void)
{
	assay_arena_free(A);
}

TestSuite(formats_verify, .init = setup, .fini = teardown);
TestSuite(csv_reader, .init = setup, .fini = teardown);

#define res vres

/* A value written as YAML, the way a case file gives it. */
static assay_value y(const char *text)
{
	return vt_yaml(A, text);
}

static struct res run_on(const assay_value *expected, const assay_actual *ac, const char *options)
{
	return vt_call(A, "output", expected, ac, options);
}

static struct res run(const assay_value *expected, const char *actual, const char *options)
{
	assay_actual ac = vt_text(actual);

	return run_on(expected, &ac, options);
}

static void pass(const assay_value *expected, const char *actual, const char *options)
{
	struct res r = run(expected, actual, options);

	cr_assert_eq(r.rc, 0, "%s: refused: %s", options, r.err.msg);
	cr_assert(r.v.is_correct, "%s: fails on %s: %s", options, actual, r.diff);
	free(r.diff);
}

/* Fails with exactly `diff` (JSON text of the diff). */
static void fail(const assay_value *expected, const char *actual, const char *options,
		 const char *diff)
{
	struct res r = run(expected, actual, options);

	cr_assert_eq(r.rc, 0, "%s: refused: %s", options, r.err.msg);
	cr_assert_not(r.v.is_correct, "%s: passes on %s", options, actual);
	cr_assert_str_eq(r.diff, diff);
	free(r.diff);
}

static void refused(const assay_value *expected, const char *actual, const char *options,
		    const char *msg)
{
	struct res r = run(expected, actual, options);

	cr_assert_eq(r.rc, ASSAY_EINVALID, "%s: rc %d", options, r.rc);
	cr_assert(strstr(r.err.msg, msg), "%s: %s", options, r.err.msg);
	free(r.diff);
}

/* ---- yaml ------------------------------------------------------------------------------ */

Test(formats_verify, yaml_pass_fail_and_diff)
{
	assay_value ex = y("{name: web, replicas: 3, ports: [80, 443]}");

	pass(&ex, "name: web\nports:\n  - 80\n  - 443\nreplicas: 3\n", "{verifier: yaml}");
	pass(&ex, "{name: web, replicas: 3.0000001, ports: [80, 443]}", "{verifier: yaml}");
	fail(&ex, "name: web\nreplicas: 2\nports: [443, 80]\n", "{verifier: yaml}",
	     "{\"values_changed\": {\"root['replicas']\": {\"new_value\": 2, \"old_value\": 3}, "
	     "\"root['ports'][0]\": {\"new_value\": 443, \"old_value\": 80}, \"root['ports'][1]\": "
	     "{\"new_value\": 80, \"old_value\": 443}}}");
	pass(&ex, "name: web\nreplicas: 3\nports: [443, 80]\n",
	     "{verifier: yaml, ignore_order: true}");
	/* YAML 1.1 as PyYAML reads it: yes is true, 010 is 8 */
	ex = y("{on: true, n: 8}");
	pass(&ex, "on: yes\nn: 010\n", "{verifier: yaml}");
}

Test(formats_verify, yaml_dates_written_in_the_case_are_dates)
{
	/* the case loader keeps timestamps as text; the actual YAML's are dates */
	assay_value ex = y("{day: 2024-01-31, at: 2001-12-14 21:59:43.10 -5, quoted: '2024-01-31x'}");

	pass(&ex, "day: 2024-01-31\nat: 2001-12-15T02:59:43.1Z\nquoted: 2024-01-31x\n",
	     "{verifier: yaml}");
	fail(&ex, "day: 2024-02-01\nat: 2001-12-14 21:59:43.10 -5\nquoted: 2024-01-31x\n",
	     "{verifier: yaml}",
	     "{\"values_changed\": {\"root['day']\": {\"new_value\": \"2024-02-01\", "
	     "\"old_value\": \"2024-01-31\"}}}");
}

Test(formats_verify, yaml_multi_document)
{
	assay_value ex = y("[{a: 1}, {b: 2}]");
	struct res r = run(&ex, "a: 1\n---\nb: 2\n", "{verifier: yaml}");

	cr_assert_eq(r.rc, 0);
	cr_assert_not(r.v.is_correct);
	cr_assert(strstr(r.diff, "output is not valid YAML: line 2, column 1: "), "%s", r.diff);
	free(r.diff);
	pass(&ex, "a: 1\n---\nb: 2\n", "{verifier: yaml, multi_document: true}");
	ex = assay_value_strz(A, "a: 1\n---\nb: 3\n");
	fail(&ex, "a: 1\n---\nb: 2\n", "{verifier: yaml, multi_document: true}",
	     "{\"values_changed\": {\"root[1]['b']\": {\"new_value\": 2, \"old_value\": 3}}}");
}

Test(formats_verify, yaml_expected_text_and_bad_input)
{
	assay_value ex = assay_value_strz(A, "a: [1, 2]\n");

	pass(&ex, "a:\n- 1\n- 2\n", "{verifier: yaml}");
	fail(&ex, "a: [1, 2\n", "{verifier: yaml}",
	     "\"output is not valid YAML: line 1, column 4: did not find expected ',' or ']' "
	     "(while parsing a flow sequence)\"");
	ex = assay_value_strz(A, "a: [1\n");
	refused(&ex, "a: 1", "{verifier: yaml}", "expected.output is not valid YAML: line 1, column 4");
}

/* ---- toml ------------------------------------------------------------------------------ */

Test(formats_verify, toml_pass_fail_and_diff)
{
	assay_value ex = y("{title: Example, owner: {name: Tom, dob: 1979-05-27T07:32:00-08:00}, "
			   "database: {ports: [8000, 8001], enabled: true}}");

	pass(&ex,
	     "title = \"Example\"\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n"
	     "[database]\nports = [ 8000, 8001 ]\nenabled = true\n",
	     "{verifier: toml}");
	fail(&ex,
	     "title = \"Example\"\n[owner]\nname = \"Tom\"\ndob = \"1979-05-27T07:32:00-08:00\"\n"
	     "[database]\nports = [8000]\nenabled = true\n",
	     "{verifier: toml}",
	     "{\"type_changes\": {\"root['owner']['dob']\": {\"old_type\": \"datetime\", "
	     "\"new_type\": \"str\", \"old_value\": \"1979-05-27T15:32:00+00:00\", \"new_value\": "
	     "\"1979-05-27T07:32:00-08:00\"}}, \"iterable_item_removed\": "
	     "{\"root['database']['ports'][1]\": 8001}}");
}

Test(formats_verify, toml_times_written_in_the_case)
{
	/* YAML reads 07:32:00 as a sexagesimal integer: the author quotes it */
	assay_value ex = y("{t: '07:32:00', d: 1979-05-27, z: 1979-05-27T07:32:00Z}");

	pass(&ex, "t = 07:32:00\nd = 1979-05-27\nz = 1979-05-27 07:32:00+00:00\n",
	     "{verifier: toml}");
}

Test(formats_verify, toml_bad_input_and_options)
{
	assay_value ex = y("{a: 1.0}");

	fail(&ex, "a = 1\na = 2\n", "{verifier: toml}",
	     "\"output is not valid TOML: line 2, column 5: Error while parsing key-value pair: "
	     "cannot redefine existing integer 'a'\"");
	pass(&ex, "a = 1.05", "{verifier: toml, abs_tol: 0.1}");
	pass(&ex, "a = 1.05\nb = 2", "{verifier: toml, abs_tol: 0.1, ignore_extra_keys: true}");
	fail(&ex, "a = 1.05\nb = 2", "{verifier: toml, abs_tol: 0.1, weights: {\"root['b']\": 2}}",
	     "{\"dictionary_item_added\": [\"root['b']\"]}");
	refused(&ex, "a = 1", "{verifier: toml, ignore_ordr: true}",
		"unknown option 'ignore_ordr' for verifier 'toml'");
}

/* ---- ini ------------------------------------------------------------------------------- */

Test(formats_verify, ini_pass_fail_and_diff)
{
	assay_value ex = y("{server: {host: example.org, port: 8080, debug: true}}");

	pass(&ex, "[server]\nhost = example.org\nport: 8080\ndebug = true\n", "{verifier: ini}");
	fail(&ex, "[server]\nHost = example.org\nport = 8081\ndebug = true\n", "{verifier: ini}",
	     "{\"dictionary_item_added\": [\"root['server']['Host']\"], \"dictionary_item_removed\": "
	     "[\"root['server']['host']\"], \"values_changed\": {\"root['server']['port']\": "
	     "{\"new_value\": \"8081\", \"old_value\": \"8080\"}}}");
	pass(&ex, "[server]\nHost = example.org\nPORT = 8080\ndebug = true\n",
	     "{verifier: ini, lower_keys: true}");
}

Test(formats_verify, ini_default_section_and_continuations)
{
	assay_value ex = assay_value_strz(A, "[DEFAULT]\nuser = root\n[a]\nmotd = hello\n  world\n");

	pass(&ex, "[DEFAULT]\nuser=root\n\n[a]\nmotd = hello\n    world\n", "{verifier: ini}");
	fail(&ex, "[DEFAULT]\nuser=admin\n[a]\nmotd = hello world\n", "{verifier: ini}",
	     "{\"values_changed\": {\"root['DEFAULT']['user']\": {\"new_value\": \"admin\", "
	     "\"old_value\": \"root\"}, \"root['a']['motd']\": {\"new_value\": \"hello world\", "
	     "\"old_value\": \"hello\\nworld\", \"diff\": \"--- \\n+++ \\n@@ -1,2 +1 @@\\n-hello\\n-world"
	     "\\n+hello world\"}, \"root['a']['user']\": {\"new_value\": \"admin\", "
	     "\"old_value\": \"root\"}}}");
	fail(&ex, "user = root\n", "{verifier: ini}",
	     "\"output is not valid INI: line 1, column 1: file contains no section headers\"");
}

/* ---- csv / tsv -------------------------------------------------------------------------- */

Test(formats_verify, csv_pass_fail_and_diff_name_rows_and_columns)
{
	assay_value ex = assay_value_strz(A, "name,price\r\nwidget,3.50\r\n\"gadget, big\",10\r\n");

	pass(&ex, "name,price\nwidget,3.50\n\"gadget, big\",10\n", "{verifier: csv}");
	fail(&ex, "name,price\nwidget,3.5\n\"gadget, big\",10\n", "{verifier: csv}",
	     "{\"values_changed\": {\"root[1][1]\": {\"new_value\": \"3.5\", \"old_value\": "
	     "\"3.50\"}}}");
	pass(&ex, "name,price\nwidget,3.5\n\"gadget, big\",10.0000001\n",
	     "{verifier: csv, abs_tol: 0.001}");
	fail(&ex, "name,price\nwidget,3.5\ngadget big,10\n", "{verifier: csv, header: true}",
	     "{\"values_changed\": {\"root[0]['price']\": {\"new_value\": \"3.5\", \"old_value\": "
	     "\"3.50\"}, \"root[1]['name']\": {\"new_value\": \"gadget big\", \"old_value\": "
	     "\"gadget, big\"}}}");
	pass(&ex, "price,name\n10,\"gadget, big\"\n3.50,widget\n",
	     "{verifier: csv, header: true, ignore_order: true}");
}

Test(formats_verify, csv_header_columns_and_structured_expected)
{
	assay_value ex = y("[{name: widget, qty: 3}, {name: gadget, qty: 10}]");

	pass(&ex, "name,qty\nwidget,3\ngadget,10\n", "{verifier: csv, header: true}");
	fail(&ex, "name,count\nwidget,3\ngadget,10\n", "{verifier: csv, header: true}",
	     "{\"dictionary_item_added\": [\"root[0]['count']\", \"root[1]['count']\"], "
	     "\"dictionary_item_removed\": [\"root[0]['qty']\", \"root[1]['qty']\"], \"columns\": "
	     "{\"missing\": [\"qty\"], \"extra\": [\"count\"]}}");
	ex = y("[[name, qty]]");
	fail(&ex, "name,count\n", "{verifier: csv, header: true}",
	     "{\"columns\": {\"missing\": [\"qty\"], \"extra\": [\"count\"]}}");
	ex = y("[[a, 1], [b, 2.5]]");
	pass(&ex, "a,1\nb,2.5\n", "{verifier: csv}");
	pass(&ex, "a,1.0\nb,2.50\n", "{verifier: csv, numeric: true}");
}

Test(formats_verify, csv_bad_input_and_tsv)
{
	assay_value ex = y("[[a, b]]");

	fail(&ex, "a,\"b\nc", "{verifier: csv}",
	     "\"output is not valid CSV: line 2, column 2: a quoted field is never closed (it "
	     "opens at line 1, column 3)\"");
	fail(&ex, "a,\"b\"x\n", "{verifier: csv}",
	     "\"output is not valid CSV: line 1, column 6: 'x' after the closing quote of a field "
	     "(expected the delimiter or the end of the record)\"");
	pass(&ex, "a\tb\n", "{verifier: tsv}");
	pass(&ex, "a;b\n", "{verifier: csv, delimiter: ';'}");
	refused(&ex, "a;b", "{verifier: csv, delimiter: ';;'}", "option 'delimiter' must be one");
	ex = y("{a: b}");
	refused(&ex, "a", "{verifier: csv}", "expected.output must be CSV text or a list");
}

Test(formats_verify, a_missing_file_and_a_status_code)
{
	assay_value ex = y("{a: 1}");
	assay_actual missing = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0 };
	struct res r = run_on(&ex, &missing, "{verifier: toml}");

	cr_assert_not(r.v.is_correct);
	/* attribute "output": a missing output is an api request without an answer */
	cr_assert_str_eq(r.diff, "\"no value: nothing ran, or no answer was received\"");
	free(r.diff);
}

/* ---- the CSV reader --------------------------------------------------------------------- */

static char *csv(const char *text, char delim)
{
	assay_csv_opts o = ASSAY_CSV_OPTS_INIT;
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	assay_buf b = ASSAY_BUF_INIT;

	o.delimiter = delim;
	if (assay_csv_parse(&v, A, text, strlen(text), &o, &e))
		return assay_xasprintf("error %d:%d: %s", e.line, e.column, e.msg);
	assay_json_write(&b, &v, 0);
	return assay_buf_detach(&b, NULL);
}

Test(csv_reader, rfc4180)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "[]" },
		{ "a", "[[\"a\"]]" },
		{ "a,b\r\nc,d\r\n", "[[\"a\", \"b\"], [\"c\", \"d\"]]" },
		{ "a,b\rc,d", "[[\"a\", \"b\"], [\"c\", \"d\"]]" },
		{ "a,,\n", "[[\"a\", \"\", \"\"]]" },
		{ ",\n", "[[\"\", \"\"]]" },
		{ "\n\na\n\n", "[[\"a\"]]" },
		{ "\"a,b\",\"c\"\"d\"\n", "[[\"a,b\", \"c\\\"d\"]]" },
		{ "\"line\r\nbreak\",x\n", "[[\"line\\r\\nbreak\", \"x\"]]" },
		{ "\"\"\n", "[[\"\"]]" },
		{ "5'11\",x\n", "[[\"5'11\\\"\", \"x\"]]" },
		{ " \"a\" ,b\n", "[[\" \\\"a\\\" \", \"b\"]]" },
		{ "\xef\xbb\xbf" "a,b\n", "[[\"a\", \"b\"]]" },
		{ "a,b\nc\n", "[[\"a\", \"b\"], [\"c\"]]" },
		{ "\"a\"\"", "error 1:5: a quoted field is never closed (it opens at line 1, "
			     "column 1)" },
		{ "x,\"a\" b", "error 1:6: ' ' after the closing quote of a field (expected the "
			       "delimiter or the end of the record)" },
		{ "\"é\"\x01", "error 1:4: '\\x01' after the closing quote of a field (expected "
			       "the delimiter or the end of the record)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = csv(cases[i].in, ',');

		cr_assert_str_eq(got, cases[i].out, "input %zu", i);
		free(got);
	}
	char *t = csv("a\t\"b\tc\"\n", '\t');
	cr_assert_str_eq(t, "[[\"a\", \"b\\tc\"]]");
	free(t);
}

Test(csv_reader, refuses_unusable_delimiters_and_stops_at_the_arena_limit)
{
	assay_csv_opts o = ASSAY_CSV_OPTS_INIT;
	assay_arena *small = assay_arena_new(4096);
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	size_t n = 200000;
	char *big = malloc(n + 1);

	o.delimiter = '"';
	cr_assert_eq(assay_csv_parse(&v, A, "a", 1, &o, &e), ASSAY_EINVALID);
	for (size_t i = 0; i < n; i++)
		big[i] = i % 2 ? '\n' : 'x';
	big[n] = '\0';
	cr_assert_eq(assay_csv_parse(&v, small, big, n, NULL, NULL), ASSAY_ETOOBIG);
	assay_arena_free(small);
	free(big);
}

/*
 * The budget's time binds the readers, not only the diff (issue 18, item 7): with a deadline
 * long past, a big document whose only flaw is at its very end is not read to that flaw. Each
 * reader stops at the budget, so the attribute fails with the budget's reason (before, each
 * read the whole text and reported the flaw: the parse was unbudgeted time).
 */
Test(formats_verify, readers_stop_at_the_budgets_time)
{
	static const struct {
		const char *verifier, *item, *tail;
	} f[] = {
		{ "json", "1, ", "]]" },       { "yaml", "- a\n", "- [\n" },
		{ "toml", "k%d = 1\n", "=\n" }, { "ini", "k%d = 1\n", "[s]\n[s]\n" },
		{ "csv", "a,b\n", "\"\n" },
	};
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		assay_buf text = ASSAY_BUF_INIT;
		assay_value expected = y(strcmp(f[k].verifier, "csv") ? "{}" : "[]"), opts;
		char verifier[64];

		if (!strcmp(f[k].verifier, "json"))
			assay_buf_addch(&text, '[');
		if (!strcmp(f[k].verifier, "ini"))
			assay_buf_adds(&text, "[top]\n");
		for (int i = 0; i < 200000; i++)
			assay_buf_addf(&text, f[k].item, i);
		assay_buf_adds(&text, f[k].tail);
		snprintf(verifier, sizeof(verifier), "{verifier: %s}", f[k].verifier);
		opts = y(verifier);
		assay_actual ac = { ASSAY_ACTUAL_BYTES, text.ptr, text.len, false, 0, 0 };
		/* CLOCK_MONOTONIC 1.0: the machine's first second, long past */
		assay_verify_call call = { "g", "c", "output", &expected, &ac, &opts, A, 1.0 };
		assay_verification v = ASSAY_VERIFICATION_INIT;
		assay_err e = ASSAY_ERR_INIT;
		assay_buf d = ASSAY_BUF_INIT;

		cr_assert_eq(assay_verify_attribute(&v, &call, &e), 0, "%s: %s", f[k].verifier,
			     e.msg);
		assay_json_write(&d, &v.diff, 0);
		cr_expect_not(v.is_correct);
		cr_expect(v.budget, "%s: %s", f[k].verifier, d.ptr);
		cr_expect(strstr(d.ptr, "verification budget (time)"), "%s: %s", f[k].verifier,
			  d.ptr);
		/* and without a deadline the flaw is found */
		call.deadline = 0;
		v = (assay_verification)ASSAY_VERIFICATION_INIT;
		assay_buf_reset(&d);
		cr_assert_eq(assay_verify_attribute(&v, &call, &e), 0);
		assay_json_write(&d, &v.diff, 0);
		cr_expect(strstr(d.ptr, "is not valid"), "%s: %s", f[k].verifier, d.ptr);
		assay_buf_release(&d);
		assay_buf_release(&text);
	}
}
