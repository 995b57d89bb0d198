/*
 * The table of report formats, the one place a format is listed: --format's names are looked
 * up here, and the names help and errors list come from here (assay_format_names). A format
 * is render_<name>.c defining `const struct assay_report__format assay_report__<name>`
 * (report_int.h) and one line below; docs/architecture.md, "Adding a report format".
 *
 * Decisions: the order is the order names are listed in. The first seven keep the positions
 * of render.h's ASSAY_FORMAT_ constants (test_report checks each constant names its format);
 * a format added later is found by name and has no constant. A format may take a second name
 * (`alias`, "md"), accepted but not listed.
 */
#include <string.h>

#include "report/report_int.h"
#include "util/banned.h"

/* Each format's symbol, in the order help and errors list them. */
#define REPORT_FORMATS(X) \
	X(json)           \
	X(jsonl)          \
	X(junit)          \
	X(tap)            \
	X(markdown)       \
	X(html)           \
	X(parquet)

#define DECLARE(f) extern const struct assay_report__format assay_report__##f;
REPORT_FORMATS(DECLARE)
#undef DECLARE

#define ENTRY(f) &assay_report__##f,
static const struct assay_report__format *const formats[] = { REPORT_FORMATS(ENTRY) };
#undef ENTRY

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

_Static_assert(ASSAY_FORMAT_PARQUET < NFORMATS, "render.h's constants index this table");

const struct assay_report__format *assay_report__format_at(assay_format f)
{
	return (unsigned)f < NFORMATS ? formats[f] : NULL;
}

size_t assay_format_count(void)
{
	return NFORMATS;
}

void assay_format_names(assay_buf *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		assay_buf_addf(out, "%s%s", i ? ", " : "", formats[i]->name);
}

int assay_format_find(assay_format *out, const char *name, assay_err *err)
{
	assay_buf names = ASSAY_BUF_INIT;

	for (size_t f = 0; f < NFORMATS; f++) {
		if (!strcmp(name, formats[f]->name) ||
		    (formats[f]->alias && !strcmp(name, formats[f]->alias))) {
			*out = (assay_format)f;
			return 0;
		}
	}
	assay_format_names(&names);
	assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0, "unknown report format '%.64s%s' (%s)",
		      name, strlen(name) > 64 ? "..." : "", names.ptr);
	assay_buf_release(&names);
	return ASSAY_ENOTFOUND;
}

const char *assay_format_name(assay_format f)
{
	return (unsigned)f < NFORMATS ? formats[f]->name : "?";
}

const char *assay_format_file(assay_format f)
{
	return (unsigned)f < NFORMATS ? formats[f]->file : "?";
}
