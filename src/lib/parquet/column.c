/*
 * One leaf column of a Parquet file being written: values and levels of the data page being
 * filled, PLAIN encoding, page assembly and compression, and the column chunk's statistics.
 *
 * Key decisions: version 1 data pages laid out as the format says (repetition levels, then
 * definition levels, each as a 4-byte little-endian length and the RLE/bit-packed hybrid, then
 * the values), the whole page compressed; levels are left out where their maximum is 0.
 * Numbers are written little-endian byte by byte, whatever the host's order. Statistics follow
 * parquet.thrift's rules for min_value/max_value: NaN is never a bound, a zero minimum is
 * written as -0.0 and a zero maximum as +0.0; a chunk holding a NaN gets no double bounds at
 * all, because readers that order NaN above every number (DuckDB) would otherwise skip its rows.
 * Strings compare as unsigned bytes, and string bounds longer than STATS_MAX_STRING bytes are
 * left out rather than truncated (a truncated bound would need is_max_value_exact, which older
 * readers ignore).
 * Refuses to: encode dictionaries, write page-level statistics or checksums.
 */
#include <math.h>
#include <string.h>
#include <zstd.h>

#include "parquet/parquet_int.h"
#include "util/banned.h"

#define STATS_MAX_STRING 64

void assay_pq__leaf_init(struct assay_pq__leaf *l, assay_pq_type type, int max_def,
			 int max_rep, bool stats)
{
	memset(l, 0, sizeof(*l));
	l->type = type;
	l->max_def = max_def;
	l->max_rep = max_rep;
	l->stats = stats;
	l->values = (assay_buf)ASSAY_BUF_INIT;
	l->def = (assay_buf)ASSAY_BUF_INIT;
	l->rep = (assay_buf)ASSAY_BUF_INIT;
	l->chunk = (assay_buf)ASSAY_BUF_INIT;
	l->smin = (assay_buf)ASSAY_BUF_INIT;
	l->smax = (assay_buf)ASSAY_BUF_INIT;
}

void assay_pq__leaf_release(struct assay_pq__leaf *l)
{
	assay_buf_release(&l->values);
	assay_buf_release(&l->def);
	assay_buf_release(&l->rep);
	assay_buf_release(&l->chunk);
	assay_buf_release(&l->smin);
	assay_buf_release(&l->smax);
}

static void le(unsigned char *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void add_le(assay_buf *out, uint64_t v, int n)
{
	unsigned char b[8];

	le(b, v, n);
	(void)assay_buf_add(out, b, (size_t)n);
}

static uint64_t double_bits(double d)
{
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits));
	return bits;
}

/* Unsigned byte order, a prefix first. */
static int compare_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static void track(struct assay_pq__leaf *l, const assay_pq_value *v)
{
	switch (l->type) {
	case ASSAY_PQ_STRING: {
		const char *s = v->u.str.ptr ? v->u.str.ptr : "";
		size_t n = v->u.str.len;
		if (!l->has_minmax || compare_bytes(s, n, l->smin.ptr, l->smin.len) < 0) {
			assay_buf_reset(&l->smin);
			(void)assay_buf_add(&l->smin, s, n);
		}
		if (!l->has_minmax || compare_bytes(s, n, l->smax.ptr, l->smax.len) > 0) {
			assay_buf_reset(&l->smax);
			(void)assay_buf_add(&l->smax, s, n);
		}
		l->has_minmax = true;
		break;
	}
	case ASSAY_PQ_DOUBLE:
		if (isnan(v->u.f64)) {
			l->has_nan = true;
			break;
		}
		if (!l->has_minmax || v->u.f64 < l->dmin)
			l->dmin = v->u.f64;
		if (!l->has_minmax || v->u.f64 > l->dmax)
			l->dmax = v->u.f64;
		l->has_minmax = true;
		break;
	case ASSAY_PQ_BOOL:
	case ASSAY_PQ_INT64:
	case ASSAY_PQ_TIMESTAMP: {
		int64_t x = l->type == ASSAY_PQ_BOOL ? v->u.b : v->u.i64;
		if (!l->has_minmax || x < l->imin)
			l->imin = x;
		if (!l->has_minmax || x > l->imax)
			l->imax = x;
		l->has_minmax = true;
		break;
	}
	case ASSAY_PQ_LIST:
		ASSAY_BUG("a list is not a leaf");
	}
}

void assay_pq__leaf_add(struct assay_pq__leaf *l, int rep, int def, const assay_pq_value *v)
{
	if (l->max_rep)
		(void)assay_buf_addch(&l->rep, (char)rep);
	if (l->max_def)
		(void)assay_buf_addch(&l->def, (char)def);
	l->entries++;
	if (def < l->max_def) {
		l->nulls++;
		return;
	}
	switch (l->type) {
	case ASSAY_PQ_STRING:
		add_le(&l->values, v->u.str.len, 4);
		(void)assay_buf_add(&l->values, v->u.str.ptr, v->u.str.len);
		break;
	case ASSAY_PQ_DOUBLE:
		add_le(&l->values, double_bits(v->u.f64), 8);
		break;
	case ASSAY_PQ_INT64:
	case ASSAY_PQ_TIMESTAMP:
		add_le(&l->values, (uint64_t)v->u.i64, 8);
		break;
	case ASSAY_PQ_BOOL:
		if (l->nbools % 8 == 0)
			(void)assay_buf_addch(&l->values, 0);
		if (v->u.b)
			l->values.ptr[l->values.len - 1] |= (char)(1u << (l->nbools % 8));
		l->nbools++;
		break;
	case ASSAY_PQ_LIST:
		ASSAY_BUG("a list is not a leaf");
	}
	if (l->stats)
		track(l, v);
}

size_t assay_pq__leaf_page_size(const struct assay_pq__leaf *l)
{
	return l->values.len + l->def.len + l->rep.len;
}

static void add_levels(assay_buf *page, const assay_buf *levels, int max_level)
{
	size_t at = page->len;

	add_le(page, 0, 4); /* the length, filled in below */
	assay_pq__rle_encode(page, (const uint8_t *)levels->ptr, levels->len,
			     assay_pq__bit_width(max_level));
	le((unsigned char *)page->ptr + at, page->len - at - 4, 4);
}

int assay_pq__leaf_flush_page(struct assay_pq__leaf *l, struct assay_pq__codec *c,
			      assay_err *err)
{
	assay_buf *page = &c->page;
	const assay_buf *data = page;

	if (!l->entries)
		return 0;
	assay_buf_reset(page);
	if (l->max_rep)
		add_levels(page, &l->rep, l->max_rep);
	if (l->max_def)
		add_levels(page, &l->def, l->max_def);
	(void)assay_buf_add(page, l->values.ptr, l->values.len);
	if (c->codec == PQ_CODEC_ZSTD) {
		size_t bound = ZSTD_compressBound(page->len);
		assay_buf_reset(&c->zpage);
		assay_buf_grow(&c->zpage, bound);
		size_t n = ZSTD_compressCCtx(c->zctx, c->zpage.ptr, bound, page->ptr, page->len,
					     c->level);
		if (ZSTD_isError(n))
			return assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "zstd: %s",
					     ZSTD_getErrorName(n));
		assay_buf_setlen(&c->zpage, n);
		data = &c->zpage;
	}
	ASSAY_ASSERT(page->len <= INT32_MAX && data->len <= INT32_MAX);
	ASSAY_ASSERT(l->entries <= INT32_MAX);
	size_t before = l->chunk.len;
	assay_pq__page_header(&l->chunk, (int32_t)page->len, (int32_t)data->len,
			      (int32_t)l->entries);
	size_t header = l->chunk.len - before;
	(void)assay_buf_add(&l->chunk, data->ptr, data->len);
	l->chunk_uncompressed += (int64_t)(header + page->len);
	l->chunk_entries += (int64_t)l->entries;
	assay_buf_reset(&l->values);
	assay_buf_reset(&l->def);
	assay_buf_reset(&l->rep);
	l->entries = 0;
	l->nbools = 0;
	return 0;
}

void assay_pq__leaf_meta(struct assay_pq__leaf *l, struct assay_pq__chunk_meta *m,
			 int codec, int64_t offset)
{
	memset(m, 0, sizeof(*m));
	m->type = l->type == ASSAY_PQ_STRING ? PQ_BYTE_ARRAY
		: l->type == ASSAY_PQ_DOUBLE ? PQ_DOUBLE
		: l->type == ASSAY_PQ_BOOL ? PQ_BOOLEAN : PQ_INT64;
	memcpy(m->path, l->path, sizeof(m->path));
	m->npath = l->npath;
	m->codec = codec;
	m->levels = l->max_def || l->max_rep;
	m->num_values = l->chunk_entries;
	m->total_uncompressed = l->chunk_uncompressed;
	m->total_compressed = (int64_t)l->chunk.len;
	m->data_page_offset = offset;
	m->stats = l->stats;
	m->null_count = l->nulls;
	if (!l->stats || !l->has_minmax)
		return;
	switch (l->type) {
	case ASSAY_PQ_STRING:
		if (l->smin.len > STATS_MAX_STRING || l->smax.len > STATS_MAX_STRING)
			return;
		m->min = l->smin.ptr;
		m->min_len = l->smin.len;
		m->max = l->smax.ptr;
		m->max_len = l->smax.len;
		return;
	case ASSAY_PQ_DOUBLE: {
		if (l->has_nan)
			return;
		double lo = l->dmin == 0 ? -0.0 : l->dmin, hi = l->dmax == 0 ? 0.0 : l->dmax;
		le(l->minb, double_bits(lo), 8);
		le(l->maxb, double_bits(hi), 8);
		m->min_len = m->max_len = 8;
		break;
	}
	case ASSAY_PQ_BOOL:
		l->minb[0] = (unsigned char)l->imin;
		l->maxb[0] = (unsigned char)l->imax;
		m->min_len = m->max_len = 1;
		break;
	default:
		le(l->minb, (uint64_t)l->imin, 8);
		le(l->maxb, (uint64_t)l->imax, 8);
		m->min_len = m->max_len = 8;
		break;
	}
	m->min = l->minb;
	m->max = l->maxb;
}

void assay_pq__leaf_chunk_reset(struct assay_pq__leaf *l)
{
	assay_buf_reset(&l->chunk);
	l->chunk_entries = 0;
	l->chunk_uncompressed = 0;
	l->nulls = 0;
	l->has_minmax = false;
	l->has_nan = false;
	assay_buf_reset(&l->smin);
	assay_buf_reset(&l->smax);
}
