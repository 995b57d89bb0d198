/*
 * CSV/TSV text -> values (csv.h states the rules).
 *
 * Key decisions:
 * - One pass over the bytes with a field buffer; an unquoted field is made straight from the
 *   text, a quoted one only when it holds a doubled quote.
 * - Line and column are counted as the text goes, through quoted fields too, so an error
 *   points where an editor shows it; columns count UTF-8 characters.
 * - The arena's limit is checked after each record and every 4096 fields of one; the
 *   budget's time (assay_arena_check) every 1024 records and every 4096 fields of one.
 */
#include <string.h>

#include "assay/buf.h"
#include "assay/csv.h"
#include "util/banned.h"

struct pos {
	size_t line;
	size_t line_start; /* offset of the line's first byte */
};

static int col_of(const char *text, const struct pos *p, size_t at)
{
	int c = 1;

	for (size_t i = p->line_start; i < at; i++)
		c += ((unsigned char)text[i] & 0xc0) != 0x80;
	return c;
}

/* Moves past a line end at text[i] (CR, LF or CRLF); returns the new offset. */
static size_t newline(const char *text, size_t len, size_t i, struct pos *p)
{
	if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
		i++;
	p->line++;
	p->line_start = i + 1;
	return i + 1;
}

static void show_char(char out[8], unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		out[1] = '\0';
	} else {
		memcpy(out, "\\x00", 5);
		out[2] = hex[c >> 4];
		out[3] = hex[c & 15];
	}
}

/* The budget stopped the parse: its memory, or its time (assay_arena_check). */
static int too_big(assay_arena *a, const char *src, assay_err *err)
{
	return assay_err_set(err, ASSAY_ETOOBIG, src, 0, 0, "%s",
			     assay_arena_expired(a) ? "the text could not be read in the time allowed"
						    : "the text is larger than the memory allowed "
						      "for it");
}

int assay_csv_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
		    const assay_csv_opts *opts, assay_err *err)
{
	static const assay_csv_opts defaults = ASSAY_CSV_OPTS_INIT;
	const assay_csv_opts *o = opts ? opts : &defaults;
	const char *src = o->source;
	char d = o->delimiter, q = o->quote;
	assay_value rows = assay_value_array(), row = assay_value_array();
	assay_buf field = ASSAY_BUF_INIT;
	struct pos p = { 1, 0 };
	size_t i = 0;
	int rc = 0;

	*out = assay_value_null();
	if (d == '\r' || d == '\n' || d == q || !d || !q || q == '\r' || q == '\n')
		return assay_err_set(err, ASSAY_EINVALID, src, 0, 0,
				     "the delimiter and the quote must be two different characters, "
				     "neither a line end");
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = p.line_start = 3;
	while (i < len) {
		/* a record: skip an empty line */
		if (!row.len && (text[i] == '\n' || text[i] == '\r')) {
			i = newline(text, len, i, &p);
			continue;
		}
		/* a field */
		if (text[i] == q) {
			size_t open = i, oline = p.line, ostart = p.line_start;
			bool closed = false;

			assay_buf_reset(&field);
			for (i++; i < len; i++) {
				if (text[i] == q) {
					if (i + 1 < len && text[i + 1] == q) {
						assay_buf_addch(&field, q);
						i++;
						continue;
					}
					closed = true;
					i++;
					break;
				}
				if (text[i] == '\r' || text[i] == '\n') {
					size_t from = i;
					i = newline(text, len, i, &p) - 1;
					assay_buf_add(&field, text + from, i + 1 - from);
					continue;
				}
				assay_buf_addch(&field, text[i]);
			}
			if (!closed) {
				struct pos op = { oline, ostart };
				rc = assay_err_set(err, ASSAY_EPARSE, src, (int)p.line,
						   col_of(text, &p, len),
						   "a quoted field is never closed (it opens at line "
						   "%zu, column %d)",
						   oline, col_of(text, &op, open));
				goto out;
			}
			if (i < len && text[i] != d && text[i] != '\r' && text[i] != '\n') {
				char c[8];

				show_char(c, (unsigned char)text[i]);
				rc = assay_err_set(err, ASSAY_EPARSE, src, (int)p.line,
						   col_of(text, &p, i),
						   "'%s' after the closing quote of a field (expected "
						   "the delimiter or the end of the record)", c);
				goto out;
			}
			assay_array_push(a, &row, assay_value_string(a, field.ptr, field.len));
		} else {
			size_t s = i;

			while (i < len && text[i] != d && text[i] != '\r' && text[i] != '\n')
				i++;
			assay_array_push(a, &row, assay_value_string(a, text + s, i - s));
		}
		/* after a field: a delimiter (another field follows, maybe empty), or the end */
		if (row.len % 4096 == 0 && assay_arena_check(a)) {
			rc = too_big(a, src, err);
			goto out;
		}
		if (i < len && text[i] == d) {
			i++;
			if (i == len || text[i] == '\r' || text[i] == '\n')
				assay_array_push(a, &row, assay_value_string(a, "", 0));
			else
				continue;
		}
		assay_array_push(a, &rows, row);
		row = assay_value_array();
		if (i < len)
			i = newline(text, len, i, &p);
		if (rows.len % 1024 == 0 ? assay_arena_check(a) : assay_arena_over(a)) {
			rc = too_big(a, src, err);
			goto out;
		}
	}
	*out = rows;
out:
	assay_buf_release(&field);
	return rc;
}
