/*
 * The Parquet writer (assay/parquet.h): the schema, rows into leaf columns (Dremel's definition
 * and repetition levels), row groups written as they fill, the footer, and the file itself.
 *
 * Key decisions:
 * - A row is checked whole before any of it is kept, so a refused row changes nothing.
 * - Data pages end only between rows, so a list never straddles two pages.
 * - A row group is written once it has row_group_rows rows or its buffered pages reach
 *   row_group_bytes; its footer entry (RowGroup) is encoded at once and kept as bytes, so
 *   memory holds one row group plus a few hundred bytes per row group written.
 * - With a path, the file is written to `path`.tmp.<pid>.<n> (created with O_EXCL) and renamed
 *   into place after an fsync, then the folder is fsync'd: a reader sees no file or a whole
 *   one. assay_fs_write_atomic() does the same for a buffer that is whole in memory; a file
 *   written in row groups needs it as a stream, which fs.h does not offer, so it is done here.
 * - After a failed write the writer is broken: every call returns the first error again.
 * Refuses to: write nested lists, maps, or structs outside lists; to seek (the output may be a
 *   pipe).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "assay/json.h"
#include "json/json_lib.h"
#include "parquet/parquet_int.h"
#include "util/fs_int.h"
#include "util/banned.h"

#define DEFAULT_ROW_GROUP_ROWS 65536
#define DEFAULT_ROW_GROUP_BYTES ((size_t)64 << 20)
#define DEFAULT_PAGE_BYTES ((size_t)1 << 20)
#define DEFAULT_ZSTD_LEVEL 3
/* Most a leaf's page may hold before it is written: page sizes are 32-bit numbers, and a
 * compressed page may be a little larger than its input. */
#define PAGE_LIMIT ((size_t)3 << 29)

struct assay_pq_writer {
	int fd;
	char *name;              /* the file as errors name it: `path`, or open_fd's name */
	char *path;              /* open(): the target; NULL for open_fd() */
	char *tmp;               /* open(): the temp file while it exists */
	assay_pq_options opts;

	assay_pq_column *cols;   /* deep copy of the schema */
	size_t ncols;
	size_t *first_leaf;      /* per column: its first leaf */
	struct assay_pq__elem *schema;
	size_t nschema;
	struct assay_pq__leaf *leaves;
	size_t nleaves;
	size_t *row_bytes;       /* per leaf: scratch for append()'s size check */

	struct assay_pq__codec codec;
	uint64_t rows;           /* rows appended */
	size_t group_rows;       /* rows in the row group being filled */
	assay_buf row_groups;    /* RowGroup encodings of the row groups written */
	size_t nrow_groups;
	int64_t offset;          /* bytes written */
	int broken;              /* the first error that broke the writer, or 0 */
	bool finished;
};

/* ---- schema ---- */

static bool flat_type(assay_pq_type t)
{
	return t == ASSAY_PQ_STRING || t == ASSAY_PQ_DOUBLE || t == ASSAY_PQ_INT64 ||
	       t == ASSAY_PQ_BOOL || t == ASSAY_PQ_TIMESTAMP;
}

static int check_names(const assay_pq_column *cols, size_t n, const char *where, assay_err *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *name = cols[i].name;
		if (!name || !*name || !assay_pq__utf8_valid(name, strlen(name)))
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "%s %zu: a name must be non-empty UTF-8", where, i + 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(cols[j].name, name))
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "%s '%s' is named twice", where, name);
	}
	return 0;
}

static int check_schema(const assay_pq_column *cols, size_t n, assay_err *err)
{
	if (!cols || n == 0)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "a schema needs a column");
	int rc = check_names(cols, n, "column", err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (flat_type(cols[i].type))
			continue;
		if (cols[i].type != ASSAY_PQ_LIST)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "column '%s' has an unknown type %d", cols[i].name,
					     (int)cols[i].type);
		if (!cols[i].fields || cols[i].nfields == 0)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "list column '%s' has no fields", cols[i].name);
		rc = check_names(cols[i].fields, cols[i].nfields, "field", err);
		if (rc)
			return rc;
		for (size_t f = 0; f < cols[i].nfields; f++)
			if (!flat_type(cols[i].fields[f].type))
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "field '%s' of list column '%s' must be a "
						     "string, double, int64, bool or timestamp",
						     cols[i].fields[f].name, cols[i].name);
	}
	return 0;
}

static int check_options(const assay_pq_options *o, assay_err *err)
{
	if (o->version != ASSAY_PQ_OPTIONS_VERSION)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "unknown parquet options version %d", o->version);
	if (o->codec != ASSAY_PQ_ZSTD && o->codec != ASSAY_PQ_UNCOMPRESSED)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "unknown codec %d",
				     (int)o->codec);
	if (o->zstd_level < 0 || o->zstd_level > ZSTD_maxCLevel())
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "zstd level %d is not between 1 and %d", o->zstd_level,
				     ZSTD_maxCLevel());
	return 0;
}

static void copy_column(assay_pq_column *dst, const assay_pq_column *src)
{
	*dst = *src;
	dst->name = assay_xstrdup(src->name);
	dst->fields = NULL;
	dst->nfields = 0;
	if (src->type != ASSAY_PQ_LIST)
		return;
	assay_pq_column *f = assay_xcalloc(src->nfields, sizeof(*f));
	for (size_t i = 0; i < src->nfields; i++) {
		f[i] = src->fields[i];
		f[i].name = assay_xstrdup(src->fields[i].name);
		f[i].fields = NULL;
		f[i].nfields = 0;
	}
	dst->fields = f;
	dst->nfields = src->nfields;
}

static struct assay_pq__elem leaf_elem(const assay_pq_column *c)
{
	struct assay_pq__elem e = { c->name, -1, c->optional ? PQ_OPTIONAL : PQ_REQUIRED, 0, -1,
				    PQ_LT_NONE };

	switch (c->type) {
	case ASSAY_PQ_STRING:
		e.type = PQ_BYTE_ARRAY;
		e.converted = PQ_CT_UTF8;
		e.logical = PQ_LT_STRING;
		break;
	case ASSAY_PQ_DOUBLE:
		e.type = PQ_DOUBLE;
		break;
	case ASSAY_PQ_INT64:
		e.type = PQ_INT64;
		break;
	case ASSAY_PQ_BOOL:
		e.type = PQ_BOOLEAN;
		break;
	case ASSAY_PQ_TIMESTAMP:
		e.type = PQ_INT64;
		e.converted = PQ_CT_TIMESTAMP_MICROS;
		e.logical = PQ_LT_TIMESTAMP_US_UTC;
		break;
	case ASSAY_PQ_LIST:
		ASSAY_BUG("a list is not a leaf");
	}
	return e;
}

/* The flattened schema and the leaves, from the copied columns. */
static void build_schema(assay_pq_writer *w)
{
	size_t nschema = 1, nleaves = 0;

	for (size_t i = 0; i < w->ncols; i++) {
		bool list = w->cols[i].type == ASSAY_PQ_LIST;
		nschema += list ? 3 + w->cols[i].nfields : 1;
		nleaves += list ? w->cols[i].nfields : 1;
	}
	w->schema = assay_xcalloc(nschema, sizeof(*w->schema));
	w->leaves = assay_xcalloc(nleaves, sizeof(*w->leaves));
	w->row_bytes = assay_xcalloc(nleaves, sizeof(*w->row_bytes));
	w->first_leaf = assay_xcalloc(w->ncols, sizeof(*w->first_leaf));
	w->schema[0] = (struct assay_pq__elem){ "schema", -1, -1, (int)w->ncols, -1, PQ_LT_NONE };
	w->nschema = 1;
	bool stats = !w->opts.no_statistics;
	for (size_t i = 0; i < w->ncols; i++) {
		const assay_pq_column *c = &w->cols[i];
		w->first_leaf[i] = w->nleaves;
		if (c->type != ASSAY_PQ_LIST) {
			struct assay_pq__leaf *l = &w->leaves[w->nleaves++];
			w->schema[w->nschema++] = leaf_elem(c);
			assay_pq__leaf_init(l, c->type, c->optional, 0, stats);
			l->path[0] = c->name;
			l->npath = 1;
			continue;
		}
		/* LogicalTypes.md, "Lists": <name> (LIST) { repeated group list { element } }. */
		w->schema[w->nschema++] = (struct assay_pq__elem){
			c->name, -1, c->optional ? PQ_OPTIONAL : PQ_REQUIRED, 1, PQ_CT_LIST,
			PQ_LT_LIST };
		w->schema[w->nschema++] = (struct assay_pq__elem){ "list", -1, PQ_REPEATED, 1, -1,
								   PQ_LT_NONE };
		w->schema[w->nschema++] = (struct assay_pq__elem){
			"element", -1, PQ_OPTIONAL, (int)c->nfields, -1, PQ_LT_NONE };
		for (size_t f = 0; f < c->nfields; f++) {
			const assay_pq_column *fc = &c->fields[f];
			struct assay_pq__leaf *l = &w->leaves[w->nleaves++];
			w->schema[w->nschema++] = leaf_elem(fc);
			/* levels: the list (if optional), its repeated group, the optional element,
			 * the field (if optional) */
			int max_def = c->optional + 2 + fc->optional;
			assay_pq__leaf_init(l, fc->type, max_def, 1, false);
			l->path[0] = c->name;
			l->path[1] = "list";
			l->path[2] = "element";
			l->path[3] = fc->name;
			l->npath = 4;
		}
	}
}

/* ---- output ---- */

static int io_error(assay_pq_writer *w, const char *path, const char *what, assay_err *err)
{
	int rc = assay_err_set(err, ASSAY_EIO, path, 0, 0, "cannot %s: %s", what, strerror(errno));
	if (!w->broken)
		w->broken = rc;
	return rc;
}

static int out_write(assay_pq_writer *w, const void *data, size_t len, assay_err *err)
{
	if (assay_fs__write_all(w->fd, data, len))
		return io_error(w, w->name, "write", err);
	w->offset += len;
	return 0;
}

static int broken(const assay_pq_writer *w, assay_err *err)
{
	return assay_err_set(err, w->broken, w->name, 0, 0,
			     "the parquet writer failed earlier and cannot go on");
}

static int fail(assay_pq_writer *w, int rc)
{
	if (!w->broken)
		w->broken = rc;
	return rc;
}

/* Writes the buffered row group and encodes its footer entry. */
static int flush_row_group(assay_pq_writer *w, assay_err *err)
{
	int codec = w->codec.codec;
	struct assay_pq__chunk_meta *meta = NULL;
	int rc = 0;

	if (!w->group_rows)
		return 0;
	for (size_t i = 0; i < w->nleaves; i++) {
		rc = assay_pq__leaf_flush_page(&w->leaves[i], &w->codec, err);
		if (rc)
			return fail(w, rc);
	}
	meta = assay_xcalloc(w->nleaves, sizeof(*meta));
	for (size_t i = 0; i < w->nleaves; i++) {
		struct assay_pq__leaf *l = &w->leaves[i];
		assay_pq__leaf_meta(l, &meta[i], codec, w->offset);
		rc = out_write(w, l->chunk.ptr, l->chunk.len, err);
		if (rc)
			goto out;
	}
	/* RowGroup.ordinal is an i16: past that many row groups it is left out (-1). */
	int16_t ordinal = w->nrow_groups < INT16_MAX ? (int16_t)w->nrow_groups : -1;
	assay_pq__row_group(&w->row_groups, meta, w->nleaves, (int64_t)w->group_rows, ordinal);
	w->nrow_groups++;
	w->group_rows = 0;
	for (size_t i = 0; i < w->nleaves; i++)
		assay_pq__leaf_chunk_reset(&w->leaves[i]);
out:
	free(meta);
	return rc;
}

static size_t group_bytes(const assay_pq_writer *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nleaves; i++)
		n += w->leaves[i].chunk.len + assay_pq__leaf_page_size(&w->leaves[i]);
	return n;
}

/* ---- rows ---- */

/* What `v` adds to a page of a leaf of type `t` (value and one byte of levels), or refuses. */
static int value_size(const assay_pq_column *c, const assay_pq_value *v, const char *col,
		      size_t *size, assay_err *err)
{
	if (v->is_null) {
		if (!c->optional)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "'%s' is REQUIRED but the value is null", col);
		*size += 1;
		return 0;
	}
	if (c->type != ASSAY_PQ_STRING) {
		*size += 9;
		return 0;
	}
	if (!v->u.str.ptr && v->u.str.len)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "'%s': a string of %zu bytes has no bytes", col, v->u.str.len);
	size_t len = v->u.str.len;
	/* A repaired string may be up to three times longer (a bad byte becomes U+FFFD). */
	if (len > ASSAY_PQ_MAX_STRING ||
	    (len > ASSAY_PQ_MAX_STRING / 3 && !assay_pq__utf8_valid(v->u.str.ptr, len)))
		return assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0,
				     "'%s': a string of %zu bytes is longer than %zu", col, len,
				     ASSAY_PQ_MAX_STRING);
	*size += 5 + 3 * len;
	return 0;
}

/* Checks `row` whole and sizes what it adds to each leaf (w->row_bytes). */
static int check_row(assay_pq_writer *w, const assay_pq_value *row, assay_err *err)
{
	for (size_t i = 0; i < w->ncols; i++) {
		const assay_pq_column *c = &w->cols[i];
		const assay_pq_value *v = &row[i];
		size_t first = w->first_leaf[i];
		int rc;

		if (c->type != ASSAY_PQ_LIST) {
			w->row_bytes[first] = 0;
			rc = value_size(c, v, c->name, &w->row_bytes[first], err);
			if (rc)
				return rc;
			continue;
		}
		for (size_t f = 0; f < c->nfields; f++)
			w->row_bytes[first + f] = 1;
		if (v->is_null) {
			if (!c->optional)
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "'%s' is REQUIRED but the value is null",
						     c->name);
			continue;
		}
		if (v->u.list.count && !v->u.list.items)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "'%s': a list of %zu items has no items", c->name,
					     v->u.list.count);
		for (size_t k = 0; k < v->u.list.count; k++) {
			for (size_t f = 0; f < c->nfields; f++) {
				const assay_pq_value *x = &v->u.list.items[k * c->nfields + f];
				rc = value_size(&c->fields[f], x, c->fields[f].name,
						&w->row_bytes[first + f], err);
				if (rc)
					return rc;
			}
		}
	}
	for (size_t i = 0; i < w->nleaves; i++)
		if (w->row_bytes[i] > PAGE_LIMIT)
			return assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0,
					     "a row holds more than %zu bytes for column '%s'",
					     PAGE_LIMIT, w->leaves[i].path[0]);
	return 0;
}

/* Adds a present value, repairing a string that is not UTF-8. */
static void add_value(struct assay_pq__leaf *l, int rep, int def, const assay_pq_value *v)
{
	if (l->type != ASSAY_PQ_STRING || assay_pq__utf8_valid(v->u.str.ptr, v->u.str.len)) {
		assay_pq__leaf_add(l, rep, def, v);
		return;
	}
	/* assay's one rule for bytes that are not UTF-8 is the JSON writer's (Python's
	 * "replace"): the string goes through it and back */
	assay_buf text = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_value fixed_v;

	assay_json__write_string(&text, v->u.str.ptr, v->u.str.len, false);
	if (assay_json_parse(&fixed_v, a, text.ptr, text.len, NULL, NULL))
		ASSAY_BUG("the JSON writer wrote a string its parser refuses");
	assay_pq_value fixed = assay_pq_strn(fixed_v.u.s, fixed_v.len);
	assay_pq__leaf_add(l, rep, def, &fixed);
	assay_arena_free(a);
	assay_buf_release(&text);
}

static void add_row(assay_pq_writer *w, const assay_pq_value *row)
{
	for (size_t i = 0; i < w->ncols; i++) {
		const assay_pq_column *c = &w->cols[i];
		const assay_pq_value *v = &row[i];
		struct assay_pq__leaf *l = &w->leaves[w->first_leaf[i]];

		if (c->type != ASSAY_PQ_LIST) {
			if (v->is_null)
				assay_pq__leaf_add(l, 0, 0, NULL);
			else
				add_value(l, 0, l->max_def, v);
			continue;
		}
		int base = c->optional;
		for (size_t f = 0; f < c->nfields; f++, l++) {
			if (v->is_null) {
				assay_pq__leaf_add(l, 0, 0, NULL);
				continue;
			}
			if (v->u.list.count == 0) {
				assay_pq__leaf_add(l, 0, base, NULL);
				continue;
			}
			for (size_t k = 0; k < v->u.list.count; k++) {
				const assay_pq_value *x = &v->u.list.items[k * c->nfields + f];
				int rep = k ? 1 : 0;
				if (x->is_null)
					assay_pq__leaf_add(l, rep, base + 2, NULL);
				else
					add_value(l, rep, l->max_def, x);
			}
		}
	}
}

int assay_pq_writer_append(assay_pq_writer *w, const assay_pq_value *row, assay_err *err)
{
	int rc;

	if (w->broken || w->finished)
		return w->broken ? broken(w, err) : assay_err_set(err, ASSAY_EIO, w->name, 0, 0,
								  "the parquet file is finished");
	rc = check_row(w, row, err);
	if (rc)
		return rc;
	/* A page that this row would push past what a page may hold is written first. */
	for (size_t i = 0; i < w->nleaves; i++) {
		struct assay_pq__leaf *l = &w->leaves[i];
		if (assay_pq__leaf_page_size(l) + w->row_bytes[i] > PAGE_LIMIT ||
		    l->entries + w->row_bytes[i] > INT32_MAX) {
			rc = assay_pq__leaf_flush_page(l, &w->codec, err);
			if (rc)
				return fail(w, rc);
		}
	}
	add_row(w, row);
	w->rows++;
	w->group_rows++;
	for (size_t i = 0; i < w->nleaves; i++) {
		if (assay_pq__leaf_page_size(&w->leaves[i]) < w->opts.page_bytes)
			continue;
		rc = assay_pq__leaf_flush_page(&w->leaves[i], &w->codec, err);
		if (rc)
			return fail(w, rc);
	}
	if (w->group_rows >= w->opts.row_group_rows || group_bytes(w) >= w->opts.row_group_bytes)
		return flush_row_group(w, err);
	return 0;
}

uint64_t assay_pq_writer_rows(const assay_pq_writer *w)
{
	return w->rows;
}

/* ---- life cycle ---- */

static int writer_new(assay_pq_writer **out, const assay_pq_column *cols, size_t n,
		      const assay_pq_options *opts, assay_err *err)
{
	assay_pq_options o = ASSAY_PQ_OPTIONS_INIT;
	int rc;

	*out = NULL;
	if (opts)
		o = *opts;
	rc = check_options(&o, err);
	if (rc)
		return rc;
	rc = check_schema(cols, n, err);
	if (rc)
		return rc;
	if (!o.zstd_level)
		o.zstd_level = DEFAULT_ZSTD_LEVEL;
	if (!o.row_group_rows)
		o.row_group_rows = DEFAULT_ROW_GROUP_ROWS;
	if (!o.row_group_bytes)
		o.row_group_bytes = DEFAULT_ROW_GROUP_BYTES;
	if (!o.page_bytes)
		o.page_bytes = DEFAULT_PAGE_BYTES;
	if (!o.file_mode)
		o.file_mode = 0644;

	assay_pq_writer *w = assay_xcalloc(1, sizeof(*w));
	w->fd = -1;
	w->opts = o;
	w->row_groups = (assay_buf)ASSAY_BUF_INIT;
	w->codec.page = (assay_buf)ASSAY_BUF_INIT;
	w->codec.zpage = (assay_buf)ASSAY_BUF_INIT;
	w->codec.codec = o.codec == ASSAY_PQ_ZSTD ? PQ_CODEC_ZSTD : PQ_CODEC_UNCOMPRESSED;
	w->codec.level = o.zstd_level;
	if (w->codec.codec == PQ_CODEC_ZSTD) {
		w->codec.zctx = ZSTD_createCCtx();
		if (!w->codec.zctx)
			ASSAY_BUG("ZSTD_createCCtx failed (out of memory)");
	}
	w->cols = assay_xcalloc(n, sizeof(*w->cols));
	w->ncols = n;
	for (size_t i = 0; i < n; i++)
		copy_column(&w->cols[i], &cols[i]);
	build_schema(w);
	*out = w;
	return 0;
}

static const char magic[4] = { 'P', 'A', 'R', '1' };

int assay_pq_writer_open(assay_pq_writer **out, const char *path, const assay_pq_column *cols,
			 size_t ncols, const assay_pq_options *opts, assay_err *err)
{
	assay_pq_writer *w;
	int rc;

	*out = NULL;
	rc = writer_new(&w, cols, ncols, opts, err);
	if (rc)
		return rc;
	w->path = assay_xstrdup(path);
	w->name = assay_xstrdup(path);
	for (int n = 0; w->fd < 0; n++) {
		free(w->tmp);
		w->tmp = assay_xasprintf("%s.tmp.%ld.%d", path, (long)getpid(), n);
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			     w->opts.file_mode);
		if (w->fd < 0 && (errno != EEXIST || n == 99)) {
			rc = io_error(w, w->tmp, "create", err);
			free(w->tmp);
			w->tmp = NULL;
			assay_pq_writer_free(w);
			return rc;
		}
	}
	rc = out_write(w, magic, sizeof(magic), err);
	if (rc) {
		assay_pq_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

int assay_pq_writer_open_fd(assay_pq_writer **out, int fd, const char *name,
			    const assay_pq_column *cols, size_t ncols,
			    const assay_pq_options *opts, assay_err *err)
{
	assay_pq_writer *w;
	int rc;

	*out = NULL;
	rc = writer_new(&w, cols, ncols, opts, err);
	if (rc)
		return rc;
	w->fd = fd;
	w->name = assay_xstrdup(name ? name : "<parquet>");
	rc = out_write(w, magic, sizeof(magic), err);
	if (rc) {
		assay_pq_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

static int sync_folder(assay_pq_writer *w, assay_err *err)
{
	char *dir = assay_xstrdup(w->path);
	char *slash = strrchr(dir, '/');
	int rc = 0;

	if (!slash) {
		free(dir);
		dir = assay_xstrdup(".");
	} else {
		slash[slash == dir] = '\0'; /* "/x" → "/" */
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		rc = io_error(w, dir, "sync the folder", err);
	if (fd >= 0)
		close(fd);
	free(dir);
	return rc;
}

int assay_pq_writer_finish(assay_pq_writer *w, assay_err *err)
{
	assay_buf footer = ASSAY_BUF_INIT;
	unsigned char tail[8];
	int rc;

	if (w->broken)
		return broken(w, err);
	if (w->finished)
		return assay_err_set(err, ASSAY_EIO, w->name, 0, 0, "the parquet file is finished");
	rc = flush_row_group(w, err);
	if (rc)
		goto out;
	{ /* after the flush: it adds the last row group */
		struct assay_pq__file_meta meta = {
			.schema = w->schema, .nschema = w->nschema, .nleaves = w->nleaves,
			.num_rows = (int64_t)w->rows, .row_groups = &w->row_groups,
			.nrow_groups = w->nrow_groups, .created_by = "assay version " ASSAY_VERSION
		};

		assay_pq__file_metadata(&footer, &meta);
	}
	if (footer.len > UINT32_MAX) {
		rc = fail(w, assay_err_set(err, ASSAY_ETOOBIG, w->name, 0, 0,
					   "the footer would be larger than 4 GiB"));
		goto out;
	}
	for (int i = 0; i < 4; i++)
		tail[i] = (unsigned char)(footer.len >> (8 * i));
	memcpy(tail + 4, magic, 4);
	rc = out_write(w, footer.ptr, footer.len, err);
	if (!rc)
		rc = out_write(w, tail, sizeof(tail), err);
	if (rc || !w->tmp)
		goto out;
	if (fsync(w->fd)) {
		rc = io_error(w, w->tmp, "sync", err);
		goto out;
	}
	int fd = w->fd;
	w->fd = -1;
	if (close(fd)) {
		rc = io_error(w, w->tmp, "write", err);
		goto out;
	}
	if (rename(w->tmp, w->path)) {
		rc = io_error(w, w->path, "rename into place", err);
		goto out;
	}
	free(w->tmp);
	w->tmp = NULL;
	rc = sync_folder(w, err);
out:
	if (rc && w->tmp) {
		if (w->fd >= 0)
			close(w->fd);
		w->fd = -1;
		unlink(w->tmp);
		free(w->tmp);
		w->tmp = NULL;
	}
	assay_buf_release(&footer);
	w->finished = true;
	return rc;
}

void assay_pq_writer_free(assay_pq_writer *w)
{
	if (!w)
		return;
	if (w->tmp) {
		if (w->fd >= 0)
			close(w->fd);
		unlink(w->tmp);
		free(w->tmp);
	}
	for (size_t i = 0; i < w->ncols; i++) {
		for (size_t f = 0; f < w->cols[i].nfields; f++)
			free((char *)w->cols[i].fields[f].name);
		free((void *)w->cols[i].fields);
		free((char *)w->cols[i].name);
	}
	free(w->cols);
	for (size_t i = 0; i < w->nleaves; i++)
		assay_pq__leaf_release(&w->leaves[i]);
	free(w->leaves);
	free(w->schema);
	free(w->row_bytes);
	free(w->first_leaf);
	ZSTD_freeCCtx(w->codec.zctx);
	assay_buf_release(&w->codec.page);
	assay_buf_release(&w->codec.zpage);
	assay_buf_release(&w->row_groups);
	free(w->name);
	free(w->path);
	free(w);
}
