/*
 * What the report module offers the other modules of the library beyond render.h and report.h:
 * a report line's failure in the terminal's words, a value as a report shows it, and a file
 * written whole (the compare page, compare/page.c). Library-internal: never installed.
 */
#ifndef ASSAY_REPORT_LIB_H
#define ASSAY_REPORT_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/common.h"
#include "assay/value.h"

/*
 * Appends the first line of why report line `line` did not pass, in the terminal's words
 * (explain.c: "output: root[0]['e']: expected 2, got 3"); nothing for a line that passed.
 */
void assay_report__why(assay_buf *out, const assay_value *line);

/*
 * Appends what a report shows of `v`: a string's bytes, a cut value's head, null as nothing,
 * anything else as JSON (`pretty`: indented). At most `cap` bytes, ending on a whole UTF-8
 * character. Returns the size of the whole text when it was cut (also when the line carried it
 * cut), else 0.
 */
size_t assay_report__text(assay_buf *out, const assay_value *v, size_t cap, bool pretty);

/*
 * Writes `len` bytes to `path` ("-": standard output) as the reports are written (out.c): a
 * file appears whole or not at all; a device, FIFO or socket is written into.
 * @return 0; ASSAY_EIO (with `err`)
 */
int assay_report__write_whole(const char *path, const void *data, size_t len, assay_err *err);

#endif
