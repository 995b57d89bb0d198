/*
 * The bytes of an input file from its `content` and `file_type` (suite-format.md, input_files):
 * text as is, binary from base64, structured types serialised. A string content is always
 * written as it is, whatever the type. Decisions: csv/tsv rows end in "\n" and quote fields as
 * RFC 4180 does; a structured `yaml` content is written as JSON text, which YAML parsers read.
 */
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "load/load_int.h"
#include "util/base64.h"
#include "util/banned.h"

static void add_field(assay_buf *out, const json_t *v, char delim)
{
	char scratch[64];
	const char *s = assay_load__scalar_text(v, scratch, sizeof(scratch));
	assay_buf dumped = ASSAY_BUF_INIT;

	if (!s) {
		if (json_is_null(v)) {
			s = "";
		} else {
			assay_json_dump(&dumped, v, 0);
			s = dumped.ptr;
		}
	}
	if (strchr(s, delim) || strpbrk(s, "\"\r\n")) {
		assay_buf_addch(out, '"');
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				assay_buf_addch(out, '"');
			assay_buf_addch(out, *p);
		}
		assay_buf_addch(out, '"');
	} else {
		assay_buf_adds(out, s);
	}
	assay_buf_release(&dumped);
}

static int add_table(assay_buf *out, const json_t *rows, char delim, const struct docset *ds,
		     assay_err *err)
{
	size_t i, j;
	json_t *row, *cell;
	const json_t *header = NULL;

	if (!json_is_array(rows))
		return assay_load__node_err(ds, rows, err, ASSAY_EINVALID,
					    "csv/tsv content must be a string or a list of rows");
	json_array_foreach(rows, i, row) {
		if (json_is_object(row)) {
			const char *key;
			json_t *v;
			if (!header) {
				header = row;
				j = 0;
				json_object_foreach((json_t *)row, key, v) {
					if (j++)
						assay_buf_addch(out, delim);
					json_t *k = json_string(key);
					add_field(out, k, delim);
					json_decref(k);
				}
				assay_buf_addch(out, '\n');
			}
			j = 0;
			json_object_foreach((json_t *)header, key, v) {
				if (j++)
					assay_buf_addch(out, delim);
				json_t *cellv = json_object_get(row, key);
				add_field(out, cellv ? cellv : json_null(), delim);
			}
		} else if (json_is_array(row)) {
			json_array_foreach(row, j, cell) {
				if (j)
					assay_buf_addch(out, delim);
				add_field(out, cell, delim);
			}
		} else {
			return assay_load__node_err(ds, row, err, ASSAY_EINVALID,
						    "a csv/tsv row must be a list or a mapping");
		}
		assay_buf_addch(out, '\n');
	}
	return 0;
}

int assay_load__input_content(assay_buf *out, const json_t *content, const char *file_type,
			      const struct docset *ds, assay_err *err)
{
	char scratch[64];

	if (!strcmp(file_type, "binary")) {
		if (!json_is_string(content))
			return assay_load__node_err(ds, content, err, ASSAY_EINVALID,
						    "binary content must be a base64 string");
		if (assay_base64_decode(out, json_string_value(content),
					json_string_length(content)))
			return assay_load__node_err(ds, content, err, ASSAY_EINVALID,
						    "binary content is not valid base64");
		return 0;
	}
	if (json_is_string(content) && !assay_json_is_bignum(content)) {
		assay_buf_add(out, json_string_value(content), json_string_length(content));
		return 0;
	}
	if (!strcmp(file_type, "text")) {
		const char *s = assay_load__scalar_text(content, scratch, sizeof(scratch));
		if (json_is_null(content))
			return 0;
		if (!s)
			return assay_load__node_err(ds, content, err, ASSAY_EINVALID,
						    "text content must be a string; use file_type "
						    "json or yaml for structured content");
		assay_buf_adds(out, s);
		return 0;
	}
	if (!strcmp(file_type, "json")) {
		assay_json_dump(out, content, 0);
		return 0;
	}
	if (!strcmp(file_type, "yaml")) {
		assay_json_dump(out, content, ASSAY_JSON_PRETTY);
		assay_buf_addch(out, '\n');
		return 0;
	}
	if (!strcmp(file_type, "jsonl")) {
		size_t i;
		json_t *item;
		if (!json_is_array(content))
			return assay_load__node_err(ds, content, err, ASSAY_EINVALID,
						    "jsonl content must be a string or a list");
		json_array_foreach(content, i, item) {
			assay_json_dump(out, item, 0);
			assay_buf_addch(out, '\n');
		}
		return 0;
	}
	if (!strcmp(file_type, "csv"))
		return add_table(out, content, ',', ds, err);
	if (!strcmp(file_type, "tsv"))
		return add_table(out, content, '\t', ds, err);
	return assay_load__node_err(ds, content, err, ASSAY_EINVALID,
				    "unknown file_type '%s' (text, binary, json, jsonl, yaml, csv, "
				    "tsv)", file_type);
}
