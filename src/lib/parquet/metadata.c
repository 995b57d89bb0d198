/*
 * Parquet's Thrift structures, serialised with the compact protocol: the data page header, the
 * row group (its column chunks and their metadata) and the footer's FileMetaData. Field ids and
 * enum values are parquet.thrift's (Apache parquet-format).
 *
 * Key decisions: every required field is written, and the optional ones readers rely on: the
 * logical type next to the legacy converted type (older readers only know the latter),
 * Statistics with min_value/max_value (never the deprecated min/max, whose sort order is
 * ambiguous) and a TYPE_ORDER column order per leaf, which tells readers those statistics use
 * the type's own ordering. ColumnChunk.file_offset is 0, as the format now asks of writers that
 * keep no ColumnMetaData outside the footer.
 * Refuses to: write anything else (no dictionary pages, page indexes or key-value metadata).
 */
#include <string.h>

#include "parquet/parquet_int.h"
#include "parquet/thrift_compact.h"
#include "util/banned.h"

void assay_pq__page_header(assay_buf *out, int32_t uncompressed, int32_t compressed,
			   int32_t num_values)
{
	assay_tc tc;

	assay_tc__init(&tc, out);
	assay_tc__field_i32(&tc, 1, PQ_PAGE_DATA);    /* type */
	assay_tc__field_i32(&tc, 2, uncompressed);    /* uncompressed_page_size */
	assay_tc__field_i32(&tc, 3, compressed);      /* compressed_page_size */
	assay_tc__struct_begin(&tc, 5);               /* data_page_header */
	assay_tc__field_i32(&tc, 1, num_values);      /* num_values, nulls included */
	assay_tc__field_i32(&tc, 2, PQ_ENC_PLAIN);    /* encoding */
	assay_tc__field_i32(&tc, 3, PQ_ENC_RLE);      /* definition_level_encoding */
	assay_tc__field_i32(&tc, 4, PQ_ENC_RLE);      /* repetition_level_encoding */
	assay_tc__struct_end(&tc);
	assay_tc__stop(&tc);
}

static void statistics(assay_tc *tc, const struct assay_pq__chunk_meta *c)
{
	assay_tc__struct_begin(tc, 12);              /* ColumnMetaData.statistics */
	assay_tc__field_i64(tc, 3, c->null_count);   /* null_count */
	if (c->min && c->max) {
		assay_tc__field_binary(tc, 5, c->max, c->max_len); /* max_value */
		assay_tc__field_binary(tc, 6, c->min, c->min_len); /* min_value */
	}
	assay_tc__struct_end(tc);
}

static void column_chunk(assay_tc *tc, const struct assay_pq__chunk_meta *c)
{
	assay_tc__elem_struct_begin(tc);              /* ColumnChunk */
	assay_tc__field_i64(tc, 2, 0);                /* file_offset (deprecated) */
	assay_tc__struct_begin(tc, 3);                /* meta_data */
	assay_tc__field_i32(tc, 1, c->type);
	assay_tc__list_begin(tc, 2, ASSAY_TC_I32, c->levels ? 2 : 1); /* encodings */
	assay_tc__elem_i32(tc, PQ_ENC_PLAIN);
	if (c->levels)
		assay_tc__elem_i32(tc, PQ_ENC_RLE);
	assay_tc__list_begin(tc, 3, ASSAY_TC_BINARY, (size_t)c->npath); /* path_in_schema */
	for (int i = 0; i < c->npath; i++)
		assay_tc__elem_binary(tc, c->path[i], strlen(c->path[i]));
	assay_tc__field_i32(tc, 4, c->codec);
	assay_tc__field_i64(tc, 5, c->num_values);
	assay_tc__field_i64(tc, 6, c->total_uncompressed);
	assay_tc__field_i64(tc, 7, c->total_compressed);
	assay_tc__field_i64(tc, 9, c->data_page_offset);
	if (c->stats)
		statistics(tc, c);
	assay_tc__struct_end(tc);                     /* meta_data */
	assay_tc__struct_end(tc);                     /* ColumnChunk */
}

void assay_pq__row_group(assay_buf *out, const struct assay_pq__chunk_meta *chunks,
			 size_t nchunks, int64_t num_rows, int16_t ordinal)
{
	assay_tc tc;
	int64_t uncompressed = 0, compressed = 0;

	for (size_t i = 0; i < nchunks; i++) {
		uncompressed += chunks[i].total_uncompressed;
		compressed += chunks[i].total_compressed;
	}
	assay_tc__init(&tc, out);
	assay_tc__list_begin(&tc, 1, ASSAY_TC_STRUCT, nchunks); /* columns */
	for (size_t i = 0; i < nchunks; i++)
		column_chunk(&tc, &chunks[i]);
	assay_tc__field_i64(&tc, 2, uncompressed);    /* total_byte_size */
	assay_tc__field_i64(&tc, 3, num_rows);
	assay_tc__field_i64(&tc, 5, nchunks ? chunks[0].data_page_offset : 0); /* file_offset */
	assay_tc__field_i64(&tc, 6, compressed);      /* total_compressed_size */
	if (ordinal >= 0)
		assay_tc__field_i16(&tc, 7, ordinal);
	assay_tc__stop(&tc);
}

static void logical_type(assay_tc *tc, enum pq_logical lt)
{
	assay_tc__struct_begin(tc, 10);               /* SchemaElement.logicalType (a union) */
	switch (lt) {
	case PQ_LT_STRING:
		assay_tc__struct_begin(tc, 1);        /* STRING: StringType {} */
		assay_tc__struct_end(tc);
		break;
	case PQ_LT_LIST:
		assay_tc__struct_begin(tc, 3);        /* LIST: ListType {} */
		assay_tc__struct_end(tc);
		break;
	case PQ_LT_TIMESTAMP_US_UTC:
		assay_tc__struct_begin(tc, 8);        /* TIMESTAMP: TimestampType */
		assay_tc__field_bool(tc, 1, true);    /* isAdjustedToUTC */
		assay_tc__struct_begin(tc, 2);        /* unit: TimeUnit (a union) */
		assay_tc__struct_begin(tc, 2);        /* MICROS: MicroSeconds {} */
		assay_tc__struct_end(tc);
		assay_tc__struct_end(tc);
		assay_tc__struct_end(tc);
		break;
	case PQ_LT_NONE:
		ASSAY_BUG("no logical type to write");
	}
	assay_tc__struct_end(tc);
}

static void schema_element(assay_tc *tc, const struct assay_pq__elem *e)
{
	assay_tc__elem_struct_begin(tc);
	if (e->type >= 0)
		assay_tc__field_i32(tc, 1, e->type);
	if (e->repetition >= 0)
		assay_tc__field_i32(tc, 3, e->repetition);
	assay_tc__field_binary(tc, 4, e->name, strlen(e->name));
	if (e->type < 0)
		assay_tc__field_i32(tc, 5, e->num_children);
	if (e->converted >= 0)
		assay_tc__field_i32(tc, 6, e->converted);
	if (e->logical != PQ_LT_NONE)
		logical_type(tc, e->logical);
	assay_tc__struct_end(tc);
}

void assay_pq__file_metadata(assay_buf *out, const struct assay_pq__file_meta *m)
{
	const struct assay_pq__elem *schema = m->schema;
	size_t nschema = m->nschema, nleaves = m->nleaves, nrow_groups = m->nrow_groups;
	int64_t num_rows = m->num_rows;
	const assay_buf *row_groups = m->row_groups;
	const char *created_by = m->created_by;
	assay_tc tc;

	assay_tc__init(&tc, out);
	assay_tc__field_i32(&tc, 1, 1);               /* version */
	assay_tc__list_begin(&tc, 2, ASSAY_TC_STRUCT, nschema);
	for (size_t i = 0; i < nschema; i++)
		schema_element(&tc, &schema[i]);
	assay_tc__field_i64(&tc, 3, num_rows);
	/* row_groups: each RowGroup was encoded as its row group was written. */
	assay_tc__list_begin(&tc, 4, ASSAY_TC_STRUCT, nrow_groups);
	(void)assay_buf_add(out, row_groups->ptr, row_groups->len);
	assay_tc__field_binary(&tc, 6, created_by, strlen(created_by));
	assay_tc__list_begin(&tc, 7, ASSAY_TC_STRUCT, nleaves); /* column_orders */
	for (size_t i = 0; i < nleaves; i++) {
		assay_tc__elem_struct_begin(&tc);     /* ColumnOrder (a union) */
		assay_tc__struct_begin(&tc, 1);       /* TYPE_ORDER: TypeDefinedOrder {} */
		assay_tc__struct_end(&tc);
		assay_tc__struct_end(&tc);
	}
	assay_tc__stop(&tc);
}
