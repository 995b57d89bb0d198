/*
 * A reader of the Parquet files assay writes (assay/parquet.h: assay_pq_read): the footer and
 * page headers in the Thrift compact protocol, version 1 data pages of PLAIN values with
 * RLE/bit-packed hybrid levels, uncompressed or zstd, flat columns of BOOLEAN, INT32, INT64,
 * DOUBLE and BYTE_ARRAY, and top-level LISTs of structs of such columns in the three-level
 * layout. Rows come out as values: one object per row, column name -> value.
 *
 * Key decisions:
 * - The file is untrusted: every length and offset is checked against what holds it, Thrift
 *   nesting is bounded, levels and values must agree in number, and anything outside the subset
 *   (dictionary pages, other encodings, nested lists, another codec) is refused with a message
 *   saying what was found, never guessed at.
 * - One row group at a time is decoded, in an arena freed before the next: memory follows the
 *   largest row group, not the file.
 * - Thrift structs are decoded generically into value objects keyed by field id ("1", "2", ...),
 *   which the few fields used are then read from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "assay/fs.h"
#include "assay/parquet.h"
#include "assay/value.h"
#include "parquet/parquet_int.h"
#include "parquet/thrift_compact.h"
#include "util/banned.h"

#define MAX_FILE ((size_t)4 << 30)

struct rd {
	const unsigned char *p, *end;
	int depth;
	const char *why;
};

/* ---- Thrift compact, decoded generically ------------------------------------------------- */

static bool varint(struct rd *r, uint64_t *out)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end)
			return false;
		unsigned char b = *r->p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return true;
		}
	}
	return false;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static bool tc_value(struct rd *r, assay_arena *a, int type, assay_value *out);

static bool tc_struct(struct rd *r, assay_arena *a, assay_value *out)
{
	int16_t last = 0;

	if (++r->depth > ASSAY_TC_MAX_DEPTH) {
		r->why = "Thrift structures nested too deeply";
		return false;
	}
	*out = assay_value_object();
	for (;;) {
		if (r->p >= r->end)
			return false;
		unsigned char h = *r->p++;
		int type = h & 0x0f, delta = h >> 4;
		int16_t id;
		assay_value v;
		char key[8];

		if (!h)
			break;
		if (delta) {
			id = (int16_t)(last + delta);
		} else {
			uint64_t z;

			if (!varint(r, &z))
				return false;
			id = (int16_t)unzigzag(z);
		}
		last = id;
		if (type == ASSAY_TC_BOOL_TRUE || type == ASSAY_TC_BOOL_FALSE)
			v = assay_value_bool(type == ASSAY_TC_BOOL_TRUE);
		else if (!tc_value(r, a, type, &v))
			return false;
		snprintf(key, sizeof(key), "%d", id);
		assay_object_set(a, out, key, v);
	}
	r->depth--;
	return true;
}

static bool tc_value(struct rd *r, assay_arena *a, int type, assay_value *out)
{
	uint64_t u;

	switch (type) {
	case ASSAY_TC_BYTE:
		if (r->p >= r->end)
			return false;
		*out = assay_value_int((signed char)*r->p++);
		return true;
	case ASSAY_TC_I16:
	case ASSAY_TC_I32:
	case ASSAY_TC_I64:
		if (!varint(r, &u))
			return false;
		*out = assay_value_int(unzigzag(u));
		return true;
	case ASSAY_TC_DOUBLE: {
		double d;

		if (r->end - r->p < 8)
			return false;
		memcpy(&d, r->p, 8);
		r->p += 8;
		*out = assay_value_real(d);
		return true;
	}
	case ASSAY_TC_BINARY:
		if (!varint(r, &u) || u > (uint64_t)(r->end - r->p))
			return false;
		*out = assay_value_string(a, (const char *)r->p, (size_t)u);
		r->p += u;
		return true;
	case ASSAY_TC_LIST:
	case ASSAY_TC_SET: {
		unsigned char h;
		uint64_t n;
		int et;

		if (r->p >= r->end)
			return false;
		h = *r->p++;
		n = h >> 4;
		et = h & 0x0f;
		if (n == 15 && !varint(r, &n))
			return false;
		if (n > (uint64_t)(r->end - r->p)) /* every element takes a byte at least */
			return false;
		*out = assay_value_array();
		if (++r->depth > ASSAY_TC_MAX_DEPTH) {
			r->why = "Thrift structures nested too deeply";
			return false;
		}
		for (uint64_t i = 0; i < n; i++) {
			assay_value v;

			if (et == ASSAY_TC_BOOL_TRUE || et == ASSAY_TC_BOOL_FALSE) {
				if (r->p >= r->end)
					return false;
				v = assay_value_bool(*r->p++ == 1);
			} else if (!tc_value(r, a, et, &v)) {
				return false;
			}
			assay_array_push(a, out, v);
		}
		r->depth--;
		return true;
	}
	case ASSAY_TC_STRUCT:
		return tc_struct(r, a, out);
	default:
		r->why = "a Thrift type assay does not write (a map, or an unknown type)";
		return false;
	}
}

static int64_t field_int(const assay_value *o, const char *id, int64_t dflt)
{
	const assay_value *v = assay_object_get(o, id);

	return v && v->kind == ASSAY_V_INT ? v->u.i : dflt;
}

/* ---- the schema ---------------------------------------------------------------------------- */

struct leaf {
	const char *name;       /* the leaf's own name (a struct member's, for list fields) */
	int type;               /* physical type */
	int max_def, max_rep;
	bool optional;
	/* decoded column chunk of the current row group */
	uint8_t *def, *rep;
	assay_value *vals;
	size_t n, nvals, cap, vcap;
};

struct column {
	const char *name;
	bool list;              /* a LIST of structs */
	bool optional;          /* the column itself */
	bool elem_optional;     /* list: the struct element */
	size_t first, nleaves;  /* its leaves */
};

struct file {
	const char *path;
	const unsigned char *data;
	size_t size;
	struct column *cols;
	size_t ncols;
	struct leaf *leaves;
	size_t nleaves;
	assay_err *err;
};

static int bad(struct file *f, const char *fmt, const char *what)
{
	return assay_err_set(f->err, ASSAY_EPARSE, f->path, 0, 0,
			     "not a Parquet file as assay writes them: %s%s", fmt, what ? what : "");
}

static const char *elem_name(const assay_value *e)
{
	const assay_value *n = assay_object_get(e, "4");

	return n && n->kind == ASSAY_V_STRING ? n->u.s : NULL;
}

static bool add_leaf(struct file *f, const assay_value *e, int def, int rep)
{
	int rep_kind = (int)field_int(e, "3", PQ_REQUIRED);
	int type = (int)field_int(e, "1", -1);

	if (type != PQ_BOOLEAN && type != PQ_INT32 && type != PQ_INT64 && type != PQ_DOUBLE &&
	    type != PQ_BYTE_ARRAY)
		return false;
	f->leaves = assay_xrealloc(f->leaves, (f->nleaves + 1) * sizeof(*f->leaves));
	struct leaf *l = &f->leaves[f->nleaves++];

	memset(l, 0, sizeof(*l));
	l->name = elem_name(e);
	l->type = type;
	l->optional = rep_kind == PQ_OPTIONAL;
	l->max_def = def + (l->optional ? 1 : 0);
	l->max_rep = rep;
	return l->name != NULL;
}

static int read_schema(struct file *f, const assay_value *schema)
{
	uint32_t i = 1, n;

	if (!schema || schema->kind != ASSAY_V_ARRAY || schema->len < 2)
		return bad(f, "no schema", NULL);
	n = schema->len;
	while (i < n) {
		const assay_value *e = &schema->u.items[i];
		int64_t children = field_int(e, "5", -1);
		bool optional = field_int(e, "3", PQ_REQUIRED) == PQ_OPTIONAL;

		if (field_int(e, "3", PQ_REQUIRED) == PQ_REPEATED || !elem_name(e))
			return bad(f, "a top-level column that is repeated or unnamed", NULL);
		f->cols = assay_xrealloc(f->cols, (f->ncols + 1) * sizeof(*f->cols));
		struct column *c = &f->cols[f->ncols++];

		memset(c, 0, sizeof(*c));
		c->name = elem_name(e);
		c->optional = optional;
		c->first = f->nleaves;
		if (children < 0) {
			if (!add_leaf(f, e, 0, 0))
				return bad(f, "column ", c->name);
			c->nleaves = 1;
			i++;
			continue;
		}
		/* <name> (LIST) { repeated group list { [optional] group element { leaves } } } */
		const assay_value *lg = i + 1 < n ? &schema->u.items[i + 1] : NULL;
		const assay_value *el = i + 2 < n ? &schema->u.items[i + 2] : NULL;
		int64_t nf = el ? field_int(el, "5", -1) : -1;

		if (children != 1 || !lg || field_int(lg, "3", -1) != PQ_REPEATED ||
		    field_int(lg, "5", -1) != 1 || !el || nf < 1 || i + 3 + (uint64_t)nf > n)
			return bad(f, "a nested column other than a list of structs: ", c->name);
		c->list = true;
		c->elem_optional = field_int(el, "3", PQ_REQUIRED) == PQ_OPTIONAL;
		int def = (optional ? 1 : 0) + 1 + (c->elem_optional ? 1 : 0);
		for (int64_t k = 0; k < nf; k++)
			if (field_int(&schema->u.items[i + 3 + k], "5", -1) >= 0 ||
			    !add_leaf(f, &schema->u.items[i + 3 + k], def, 1))
				return bad(f, "a list member that is not a flat column: ", c->name);
		c->nleaves = (size_t)nf;
		i += 3 + (uint32_t)nf;
	}
	return 0;
}

/* ---- pages ----------------------------------------------------------------------------------- */

static int bit_width(int max)
{
	int w = 0;

	while (max) {
		w++;
		max >>= 1;
	}
	return w;
}

/* RLE/bit-packed hybrid: `n` levels of `w` bits from [p, end). */
static bool rle_decode(const unsigned char *p, const unsigned char *end, int w, uint8_t *out,
		       size_t n)
{
	struct rd r = { p, end, 0, NULL };
	size_t got = 0;

	while (got < n) {
		uint64_t h;

		if (!varint(&r, &h))
			return false;
		if (h & 1) {
			uint64_t groups = h >> 1, bytes = groups * (uint64_t)w;

			if (bytes > (uint64_t)(r.end - r.p))
				return false;
			for (uint64_t i = 0; i < groups * 8 && got < n; i++) {
				uint64_t bit = i * (uint64_t)w, v = 0;

				for (int b = 0; b < w; b++, bit++)
					v |= (uint64_t)((r.p[bit >> 3] >> (bit & 7)) & 1) << b;
				out[got++] = (uint8_t)v;
			}
			r.p += bytes;
		} else {
			uint64_t count = h >> 1, v = 0;
			int nb = (w + 7) / 8;

			if ((size_t)(r.end - r.p) < (size_t)nb)
				return false;
			for (int b = 0; b < nb; b++)
				v |= (uint64_t)r.p[b] << (8 * b);
			r.p += nb;
			if (v > 255 || count > n - got)
				return false;
			memset(out + got, (int)v, (size_t)count);
			got += (size_t)count;
		}
	}
	return true;
}

static bool levels(const unsigned char **p, const unsigned char *end, int max, uint8_t *out,
		   size_t n)
{
	uint32_t len;

	if (end - *p < 4)
		return false;
	memcpy(&len, *p, 4); /* little-endian hosts: assay's targets */
	*p += 4;
	if (len > (size_t)(end - *p) || !rle_decode(*p, *p + len, bit_width(max), out, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if (out[i] > max)
			return false;
	*p += len;
	return true;
}

static bool plain(struct leaf *l, assay_arena *a, const unsigned char **p,
		  const unsigned char *end, size_t count)
{
	size_t nb = 0;

	for (size_t i = 0; i < count; i++) {
		assay_value v;

		switch (l->type) {
		case PQ_BOOLEAN:
			if ((size_t)(end - *p) < nb / 8 + 1)
				return false;
			v = assay_value_bool(((*p)[nb / 8] >> (nb % 8)) & 1);
			nb++;
			break;
		case PQ_INT32: {
			int32_t x;

			if (end - *p < 4)
				return false;
			memcpy(&x, *p, 4);
			*p += 4;
			v = assay_value_int(x);
			break;
		}
		case PQ_INT64: {
			int64_t x;

			if (end - *p < 8)
				return false;
			memcpy(&x, *p, 8);
			*p += 8;
			v = assay_value_int(x);
			break;
		}
		case PQ_DOUBLE: {
			double x;

			if (end - *p < 8)
				return false;
			memcpy(&x, *p, 8);
			*p += 8;
			v = assay_value_real(x);
			break;
		}
		default: {
			uint32_t len;

			if (end - *p < 4)
				return false;
			memcpy(&len, *p, 4);
			*p += 4;
			if (len > (size_t)(end - *p))
				return false;
			v = assay_value_string(a, (const char *)*p, len);
			*p += len;
			break;
		}
		}
		if (l->nvals == l->vcap) {
			l->vcap = l->vcap ? l->vcap * 2 : 64;
			l->vals = assay_xrealloc(l->vals, l->vcap * sizeof(*l->vals));
		}
		l->vals[l->nvals++] = v;
	}
	if (l->type == PQ_BOOLEAN)
		*p += (nb + 7) / 8;
	return true;
}

static void grow_levels(struct leaf *l, size_t more)
{
	if (l->n + more <= l->cap)
		return;
	while (l->cap < l->n + more)
		l->cap = l->cap ? l->cap * 2 : 256;
	l->def = assay_xrealloc(l->def, l->cap);
	l->rep = assay_xrealloc(l->rep, l->cap);
}

/* Decodes one column chunk (its pages from `off`, `size` bytes) into the leaf. */
static int read_chunk(struct file *f, struct leaf *l, assay_arena *a, int codec, uint64_t off,
		      uint64_t size, int64_t num_values, assay_buf *scratch)
{
	struct rd r;

	if (off > f->size || size > f->size - off)
		return bad(f, "a column chunk outside the file", NULL);
	r = (struct rd){ f->data + off, f->data + off + size, 0, NULL };
	l->n = l->nvals = 0;
	while (r.p < r.end) {
		assay_value h;
		const assay_value *dp;
		int64_t csize, usize, n;
		const unsigned char *body, *bend;

		if (!tc_struct(&r, a, &h))
			return bad(f, r.why ? r.why : "a page header cut short", NULL);
		if (field_int(&h, "1", -1) != PQ_PAGE_DATA)
			return bad(f, "a page other than a version 1 data page (a dictionary?)", NULL);
		csize = field_int(&h, "3", -1);
		usize = field_int(&h, "2", -1);
		dp = assay_object_get(&h, "5");
		n = field_int(dp, "1", -1);
		if (csize < 0 || usize < 0 || n < 0 || csize > r.end - r.p)
			return bad(f, "a data page whose sizes do not fit", NULL);
		if (field_int(dp, "2", -1) != PQ_ENC_PLAIN)
			return bad(f, "values not PLAIN-encoded", NULL);
		body = r.p;
		bend = r.p + csize;
		r.p += csize;
		if (codec == PQ_CODEC_ZSTD) {
			/* a page never holds more than its writer's limit, 1.5 GiB */
			if (usize > ((int64_t)3 << 29))
				return bad(f, "a page too large", NULL);
			assay_buf_reset(scratch);
			assay_buf_grow(scratch, (size_t)usize + 1);
			size_t got = ZSTD_decompress(scratch->ptr, (size_t)usize, body,
						     (size_t)csize);
			if (ZSTD_isError(got) || got != (size_t)usize)
				return bad(f, "a zstd page that does not decompress to its size",
					   NULL);
			body = (const unsigned char *)scratch->ptr;
			bend = body + usize;
		} else if (codec != PQ_CODEC_UNCOMPRESSED) {
			return bad(f, "a codec other than zstd or none", NULL);
		}
		if ((uint64_t)n > (uint64_t)(bend - body) * 8 + 8)
			return bad(f, "more level entries than a page can hold", NULL);
		grow_levels(l, (size_t)n);
		if (l->max_rep ? !levels(&body, bend, l->max_rep, l->rep + l->n, (size_t)n)
			       : (memset(l->rep + l->n, 0, (size_t)n), false))
			return bad(f, "repetition levels that do not decode", NULL);
		if (l->max_def ? !levels(&body, bend, l->max_def, l->def + l->n, (size_t)n)
			       : (memset(l->def + l->n, 0, (size_t)n), false))
			return bad(f, "definition levels that do not decode", NULL);
		size_t present = 0;
		for (int64_t i = 0; i < n; i++)
			present += l->def[l->n + (size_t)i] == l->max_def;
		if (!plain(l, a, &body, bend, present))
			return bad(f, "values cut short", NULL);
		l->n += (size_t)n;
	}
	if ((int64_t)l->n != num_values)
		return bad(f, "a column chunk whose pages do not hold its values", NULL);
	return 0;
}

/* ---- rows ------------------------------------------------------------------------------------ */

/* Builds the rows of a row group from its decoded leaves and hands them to `fn`. */
static int emit_rows(struct file *f, assay_arena *a, int64_t nrows,
		     int (*fn)(void *, const assay_value *, assay_err *), void *payload)
{
	size_t *pos = assay_xcalloc(f->nleaves, sizeof(*pos));  /* level entry */
	size_t *vpos = assay_xcalloc(f->nleaves, sizeof(*vpos)); /* value */
	int rc = 0;

	for (int64_t row = 0; row < nrows && !rc; row++) {
		assay_value o = assay_value_object();

		for (size_t c = 0; c < f->ncols; c++) {
			const struct column *col = &f->cols[c];
			struct leaf *l0 = &f->leaves[col->first];
			assay_value v = assay_value_null();

			if (!col->list) {
				if (pos[col->first] >= l0->n)
					goto short_;
				if (l0->def[pos[col->first]++] == l0->max_def)
					v = l0->vals[vpos[col->first]++];
				assay_object_set(a, &o, col->name, v);
				continue;
			}
			int base = col->optional ? 1 : 0;
			bool first = true;

			for (;;) {
				size_t e = pos[col->first];

				if (e >= l0->n)
					break;
				if (!first && l0->rep[e] == 0)
					break;
				if (first && l0->rep[e] != 0)
					goto short_;
				int d = l0->def[e];

				if (first && d < base) {
					v = assay_value_null();
				} else if (first && d == base) {
					v = assay_value_array();
				} else {
					assay_value item = assay_value_null();

					if (first)
						v = assay_value_array();
					if (d > base + 1 || !col->elem_optional) {
						item = assay_value_object();
						for (size_t k = 0; k < col->nleaves; k++) {
							size_t li = col->first + k;
							struct leaf *l = &f->leaves[li];
							assay_value fv = assay_value_null();

							if (pos[li] >= l->n)
								goto short_;
							if (l->def[pos[li]] == l->max_def)
								fv = l->vals[vpos[li]++];
							assay_object_set(a, &item, l->name, fv);
						}
					}
					assay_array_push(a, &v, item);
				}
				/* every leaf of the list moves on by one entry, each on the same
				 * row and item as the first (their levels above the member agree) */
				for (size_t k = 0; k < col->nleaves; k++) {
					size_t li = col->first + k;
					const struct leaf *l = &f->leaves[li];
					int above = l->max_def - (l->optional ? 1 : 0);

					if (pos[li] >= l->n || l->rep[pos[li]] != l0->rep[e] ||
					    (l->def[pos[li]] < above || d < above
						     ? l->def[pos[li]] != d
						     : false))
						goto short_;
					pos[li]++;
				}
				first = false;
			}
			if (first)
				goto short_;
			assay_object_set(a, &o, col->name, v);
		}
		rc = fn(payload, &o, f->err);
	}
	free(pos);
	free(vpos);
	return rc;
short_:
	free(pos);
	free(vpos);
	return bad(f, "columns whose levels do not make whole rows", NULL);
}

int assay_pq_read(const char *path, int (*fn)(void *payload, const assay_value *row,
					      assay_err *err),
		  void *payload, uint64_t *nrows, assay_err *err)
{
	assay_buf file = ASSAY_BUF_INIT, scratch = ASSAY_BUF_INIT;
	struct file f = { path, NULL, 0, NULL, 0, NULL, 0, err };
	assay_arena *meta = assay_arena_new(0);
	assay_value fm;
	const assay_value *groups;
	uint32_t flen;
	int rc;

	if (nrows)
		*nrows = 0;
	if ((rc = assay_fs_read(&file, path, MAX_FILE, err)))
		goto out;
	f.data = (const unsigned char *)file.ptr;
	f.size = file.len;
	if (f.size < 12 || memcmp(f.data, "PAR1", 4) || memcmp(f.data + f.size - 4, "PAR1", 4)) {
		rc = bad(&f, "no PAR1 magic at both ends", NULL);
		goto out;
	}
	memcpy(&flen, f.data + f.size - 8, 4);
	if (flen > f.size - 12) {
		rc = bad(&f, "a footer longer than the file", NULL);
		goto out;
	}
	struct rd r = { f.data + f.size - 8 - flen, f.data + f.size - 8, 0, NULL };
	if (!tc_struct(&r, meta, &fm)) {
		rc = bad(&f, r.why ? r.why : "a footer that does not decode", NULL);
		goto out;
	}
	if ((rc = read_schema(&f, assay_object_get(&fm, "2"))))
		goto out;
	if (nrows)
		*nrows = (uint64_t)field_int(&fm, "3", 0);
	groups = assay_object_get(&fm, "4");
	for (uint32_t g = 0; groups && groups->kind == ASSAY_V_ARRAY && g < groups->len; g++) {
		const assay_value *rg = &groups->u.items[g];
		const assay_value *chunks = assay_object_get(rg, "1");
		assay_arena *a = assay_arena_new(0);

		if (!chunks || chunks->kind != ASSAY_V_ARRAY || chunks->len != f.nleaves) {
			rc = bad(&f, "a row group whose columns are not the schema's", NULL);
		} else {
			for (size_t i = 0; i < f.nleaves && !rc; i++) {
				const assay_value *md = assay_object_get(&chunks->u.items[i], "3");
				int64_t off = field_int(md, "9", -1), sz = field_int(md, "7", -1);

				if (field_int(md, "1", -1) != f.leaves[i].type || off < 0 || sz < 0)
					rc = bad(&f, "a column chunk that does not match the schema",
						 NULL);
				else
					rc = read_chunk(&f, &f.leaves[i], a,
							(int)field_int(md, "4", -1), (uint64_t)off,
							(uint64_t)sz, field_int(md, "5", -1),
							&scratch);
			}
			if (!rc)
				rc = emit_rows(&f, a, field_int(rg, "3", 0), fn, payload);
		}
		assay_arena_free(a);
		if (rc)
			break;
	}
out:
	for (size_t i = 0; i < f.nleaves; i++) {
		free(f.leaves[i].def);
		free(f.leaves[i].rep);
		free(f.leaves[i].vals);
	}
	free(f.leaves);
	free(f.cols);
	assay_arena_free(meta);
	assay_buf_release(&file);
	assay_buf_release(&scratch);
	return rc;
}
