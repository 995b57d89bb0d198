/*
 * Unit tests of the table of report formats (src/lib/report/formats.c): render.h's constants
 * name their formats, every listed name and the second names are found, the list help and
 * errors show is the table's, and a number past the table is no format.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "assay/render.h"

Test(report_formats, each_constant_names_its_format)
{
	static const struct { assay_format f; const char *name, *file; } want[] = {
		{ ASSAY_FORMAT_JSON, "json", "reports.json" },
		{ ASSAY_FORMAT_JSONL, "jsonl", "reports.jsonl" },
		{ ASSAY_FORMAT_JUNIT, "junit", "junit.xml" },
		{ ASSAY_FORMAT_TAP, "tap", "report.tap" },
		{ ASSAY_FORMAT_MARKDOWN, "markdown", "summary.md" },
		{ ASSAY_FORMAT_HTML, "html", "report.html" },
		{ ASSAY_FORMAT_PARQUET, "parquet", "reports.parquet" },
	};

	cr_assert_geq(assay_format_count(), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cr_expect_str_eq(assay_format_name(want[i].f), want[i].name);
		cr_expect_str_eq(assay_format_file(want[i].f), want[i].file);
	}
}

Test(report_formats, every_listed_name_is_found_and_the_list_is_the_table)
{
	assay_buf names = ASSAY_BUF_INIT, list = ASSAY_BUF_INIT;
	assay_format f;

	assay_format_names(&names);
	for (size_t i = 0; i < assay_format_count(); i++) {
		const char *name = assay_format_name((assay_format)i);

		assay_buf_addf(&list, "%s%s", i ? ", " : "", name);
		cr_assert_eq(assay_format_find(&f, name, NULL), 0, "%s", name);
		cr_expect_eq((size_t)f, i, "%s", name);
		for (size_t j = 0; j < i; j++)
			cr_expect_str_neq(assay_format_file((assay_format)j),
					  assay_format_file((assay_format)i), "one file each");
	}
	cr_expect_str_eq(names.ptr, list.ptr);
	cr_expect_str_eq(names.ptr, "json, jsonl, junit, tap, markdown, html, parquet");
	cr_assert_eq(assay_format_find(&f, "md", NULL), 0, "a second name");
	cr_expect_eq(f, ASSAY_FORMAT_MARKDOWN);
	assay_buf_release(&names);
	assay_buf_release(&list);
}

Test(report_formats, an_unknown_name_is_refused_listing_the_names)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_format f = ASSAY_FORMAT_HTML;

	cr_expect_eq(assay_format_find(&f, "xml", &err), ASSAY_ENOTFOUND);
	cr_expect_str_eq(err.msg, "unknown report format 'xml' (json, jsonl, junit, tap, markdown, "
				  "html, parquet)");
	cr_expect_eq(f, ASSAY_FORMAT_HTML, "out is left alone");
	cr_expect_eq(assay_format_find(&f, "JSON", NULL), ASSAY_ENOTFOUND, "names are exact");
	cr_expect_eq(assay_format_find(&f, "", NULL), ASSAY_ENOTFOUND);
}

Test(report_formats, a_number_past_the_table_is_no_format)
{
	assay_format past = (assay_format)assay_format_count();
	assay_renderer *r = (assay_renderer *)&past;
	assay_err err = ASSAY_ERR_INIT;

	cr_expect_str_eq(assay_format_name(past), "?");
	cr_expect_str_eq(assay_format_file(past), "?");
	cr_expect_eq(assay_renderer_open(&r, past, "-", NULL, &err), ASSAY_EINVALID);
	cr_expect_null(r);
	cr_expect_str_eq(err.msg, "unknown report format");
}
