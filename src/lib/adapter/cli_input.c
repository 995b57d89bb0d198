/*
 * The cli adapter's own case keys (suite-format.md, "A case (cli adapter)"): arguments, stdin
 * and input_files, read into typed data in the case's arena.
 *
 * Key decisions:
 * - arguments: a list of strings (numbers and booleans as written) appended to the command as
 *   exact argv; a string was already split with shell quoting (prepare_case, before the loader
 *   substituted {{static:}} in it).
 * - input_files lists merge by path with the inherited ones (merge_lists in cli_run.c).
 * - stdin: a string as is; a number or boolean as written; a mapping or list as one line of
 *   JSON (structured standard input).
 * - input_files: `content` per `file_type`: text as is, binary from base64 (invalid base64 is a
 *   load error, not a silently empty file), json/jsonl/yaml/csv/tsv serialised when structured
 *   (a string content is always written as it is). csv/tsv rows end in "\n" and quote fields as
 *   RFC 4180 does; a structured `yaml` content is written as JSON text, which YAML reads.
 */
#include <string.h>

#include "adapter/cli_int.h"
#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "util/base64.h"
#include "util/banned.h"

static const char *const file_types[] = { "text", "binary", "json", "jsonl",
					  "yaml", "csv",    "tsv",  NULL };

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static const char *scalar_text(const assay_value *v, char *scratch, size_t size)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
		return v->u.s;
	case ASSAY_V_INT:
	case ASSAY_V_REAL: {
		assay_buf b = ASSAY_BUF_INIT;

		assay_json_write(&b, v, 0);
		if (b.len >= size)
			assay_buf_setlen(&b, size - 1);
		memcpy(scratch, b.ptr, b.len + 1);
		assay_buf_release(&b);
		return scratch;
	}
	case ASSAY_V_BOOL:
		return v->u.b ? "true" : "false";
	default:
		return NULL;
	}
}

static void add_field(assay_buf *out, const assay_value *v, char delim)
{
	char scratch[64];
	assay_buf dumped = ASSAY_BUF_INIT;
	const char *s = scalar_text(v, scratch, sizeof(scratch));
	size_t len;

	if (!s) {
		if (v->kind != ASSAY_V_NULL)
			assay_json_write(&dumped, v, 0);
		s = dumped.ptr;
		len = dumped.len;
	} else {
		len = v->kind == ASSAY_V_STRING ? v->len : strlen(s);
	}
	if (memchr(s, delim, len) || memchr(s, '"', len) || memchr(s, '\r', len) ||
	    memchr(s, '\n', len)) {
		assay_buf_addch(out, '"');
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '"')
				assay_buf_addch(out, '"');
			assay_buf_addch(out, s[i]);
		}
		assay_buf_addch(out, '"');
	} else {
		assay_buf_add(out, s, len);
	}
	assay_buf_release(&dumped);
}

static int add_table(assay_buf *out, const assay_value *rows, char delim,
		     const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *header = NULL;

	if (rows->kind != ASSAY_V_ARRAY)
		return assay_case_error_at(ctx, rows, err,
					   "csv/tsv content must be a string or a list of rows");
	for (uint32_t i = 0; i < rows->len; i++) {
		const assay_value *row = &rows->u.items[i];

		if (row->kind == ASSAY_V_OBJECT) {
			if (!header) {
				header = row;
				for (uint32_t j = 0; j < row->len; j++) {
					if (j)
						assay_buf_addch(out, delim);
					add_field(out, &row->u.members[j].key, delim);
				}
				assay_buf_addch(out, '\n');
			}
			for (uint32_t j = 0; j < header->len; j++) {
				const assay_value *k = &header->u.members[j].key;
				const assay_value *cell = assay_object_getn(row, k->u.s, k->len);
				assay_value null = assay_value_null();

				if (j)
					assay_buf_addch(out, delim);
				add_field(out, cell ? cell : &null, delim);
			}
		} else if (row->kind == ASSAY_V_ARRAY) {
			for (uint32_t j = 0; j < row->len; j++) {
				if (j)
					assay_buf_addch(out, delim);
				add_field(out, &row->u.items[j], delim);
			}
		} else {
			return assay_case_error_at(ctx, rows, err,
						   "a csv/tsv row must be a list or a mapping");
		}
		assay_buf_addch(out, '\n');
	}
	return 0;
}

static int content_bytes(assay_buf *out, const assay_member *cm, const char *file_type,
			 const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *content = &cm->value;
	char scratch[64];

	if (!strcmp(file_type, "binary")) {
		if (content->kind != ASSAY_V_STRING)
			return assay_case_error_at(ctx, &cm->key, err,
						   "binary content must be a base64 string");
		if (assay_base64_decode(out, content->u.s, content->len))
			return assay_case_error_at(ctx, content, err,
						   "binary content is not valid base64");
		return 0;
	}
	if (content->kind == ASSAY_V_STRING) {
		assay_buf_add(out, content->u.s, content->len);
		return 0;
	}
	if (!strcmp(file_type, "text")) {
		const char *s = scalar_text(content, scratch, sizeof(scratch));

		if (content->kind == ASSAY_V_NULL)
			return 0;
		if (!s)
			return assay_case_error_at(ctx, content, err,
						   "text content must be a string; use file_type "
						   "json or yaml for structured content");
		assay_buf_adds(out, s);
		return 0;
	}
	if (!strcmp(file_type, "json")) {
		assay_json_write(out, content, 0);
		return 0;
	}
	if (!strcmp(file_type, "yaml")) {
		assay_json_write(out, content, ASSAY_JSON_PRETTY);
		assay_buf_addch(out, '\n');
		return 0;
	}
	if (!strcmp(file_type, "jsonl")) {
		if (content->kind != ASSAY_V_ARRAY)
			return assay_case_error_at(ctx, assay_member_anchor(cm), err,
						   "jsonl content must be a string or a list");
		for (uint32_t i = 0; i < content->len; i++) {
			assay_json_write(out, &content->u.items[i], 0);
			assay_buf_addch(out, '\n');
		}
		return 0;
	}
	if (!strcmp(file_type, "csv"))
		return add_table(out, content, ',', ctx, err);
	return add_table(out, content, '\t', ctx, err);
}

static int load_input_files(struct cli_case *cc, const assay_member *im,
			    const assay_case_load_ctx *ctx, assay_err *err)
{
	assay_arena *a = ctx->kase->arena;
	const assay_value *v = im ? &im->value : NULL;
	int rc;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_ARRAY)
		return assay_case_error_at(ctx, assay_member_anchor(im), err,
					   "input_files must be a list of {path, content, "
					   "file_type}");
	cc->input_files = assay_arena_alloc(a, (v->len ? v->len : 1) * sizeof(assay_input_file));
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = &v->u.items[i];
		const assay_value *path = assay_object_get(item, "path");
		const assay_value *type = assay_object_get(item, "file_type");
		const assay_member *content = NULL;
		const char *ftype = "text";
		assay_buf b = ASSAY_BUF_INIT;

		if (item->kind != ASSAY_V_OBJECT)
			return assay_case_error_at(ctx, v, err,
						   "input_files[%u] must be a mapping", i);
		for (uint32_t j = 0; j < item->len; j++)
			if (assay_value_is_str(&item->u.members[j].key, "content"))
				content = &item->u.members[j];
		if (!path || path->kind != ASSAY_V_STRING || memchr(path->u.s, '\0', path->len) ||
		    !assay_path_is_contained(path->u.s))
			return assay_case_error_at(ctx, path && path->kind == ASSAY_V_STRING ? path
											    : item,
						   err,
						   "input_files[%u].path must be a relative path "
						   "inside the working folder", i);
		if (type && type->kind != ASSAY_V_NULL) {
			if (type->kind != ASSAY_V_STRING)
				return assay_case_error_at(ctx, item, err,
							   "file_type must be a string");
			ftype = type->u.s;
			if (!in_list(file_types, ftype))
				return assay_case_error_at(
					ctx, type, err,
					"unknown file_type '%s' (text, binary, json, jsonl, yaml, "
					"csv, tsv)", ftype);
		}
		if (content && (rc = content_bytes(&b, content, ftype, ctx, err))) {
			assay_buf_release(&b);
			return rc;
		}
		assay_input_file *f = &cc->input_files[cc->ninput_files++];
		f->path = path->u.s;
		f->content = assay_arena_strndup(a, b.ptr, b.len);
		f->len = b.len;
		assay_buf_release(&b);
	}
	return 0;
}

static int load_stdin(struct cli_case *cc, const assay_member *sm, const assay_case_load_ctx *ctx,
		      assay_err *err)
{
	assay_arena *a = ctx->kase->arena;
	const assay_value *v = sm ? &sm->value : NULL;
	char scratch[64];
	assay_buf b = ASSAY_BUF_INIT;
	const char *s;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind == ASSAY_V_STRING) {
		cc->stdin_data = v->u.s;
		cc->stdin_len = v->len;
		return 0;
	}
	if (v->kind == ASSAY_V_ARRAY || v->kind == ASSAY_V_OBJECT) {
		/* Structured standard input is given as JSON text, one line. */
		assay_json_write(&b, v, 0);
		assay_buf_addch(&b, '\n');
	} else if ((s = scalar_text(v, scratch, sizeof(scratch)))) {
		assay_buf_adds(&b, s);
	} else {
		return assay_case_error_at(ctx, &sm->key, err, "stdin must be a string");
	}
	cc->stdin_data = assay_arena_strndup(a, b.ptr, b.len);
	cc->stdin_len = b.len;
	assay_buf_release(&b);
	return 0;
}

static int load_arguments(struct cli_case *cc, const assay_member *am,
			  const assay_case_load_ctx *ctx, assay_err *err)
{
	assay_arena *a = ctx->kase->arena;
	const assay_value *v = am ? &am->value : NULL;
	char scratch[64];

	cc->argv = assay_arena_alloc(a, ((v && v->kind == ASSAY_V_ARRAY ? v->len : 0) + 1) *
					       sizeof(char *));
	cc->argc = 0;
	cc->argv[0] = NULL;
	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_ARRAY)
		return assay_case_error_at(ctx, assay_member_anchor(am), err,
					   "arguments must be a list of strings or a string");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = &v->u.items[i];
		const char *s = item->kind == ASSAY_V_DATETIME
					? NULL
					: scalar_text(item, scratch, sizeof(scratch));

		if (!s)
			return assay_case_error_at(ctx, v, err, "arguments[%u] must be a string", i);
		if (item->kind == ASSAY_V_STRING && memchr(s, '\0', item->len))
			return assay_case_error_at(ctx, item, err,
						   "arguments[%u] holds a NUL byte", i);
		cc->argv[cc->argc++] = item->kind == ASSAY_V_STRING
					       ? s
					       : assay_arena_strndup(a, s, strlen(s));
	}
	cc->argv[cc->argc] = NULL;
	return 0;
}

int assay_cli__prepare_case(assay_value *def, const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_member *m = assay_object_member(def, "arguments");
	assay_arena *a = ctx->kase->arena;
	assay_strvec words = ASSAY_STRVEC_INIT;
	assay_value list = assay_value_array();
	assay_err e = ASSAY_ERR_INIT;

	if (!m || m->value.kind != ASSAY_V_STRING)
		return 0;
	if (assay_shell_split(&words, m->value.u.s, &e)) {
		assay_strvec_clear(&words);
		return assay_case_error_at(ctx, &m->value, err, "arguments: %s", e.msg);
	}
	for (size_t i = 0; i < words.nr; i++)
		assay_array_push(a, &list, assay_value_strz(a, words.v[i]));
	assay_strvec_clear(&words);
	assay_object_set(a, def, "arguments", list);
	return 0;
}

int assay_cli__load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			 assay_err *err)
{
	struct cli_case *cc = assay_arena_alloc(c->arena, sizeof(*cc));
	int rc;

	memset(cc, 0, sizeof(*cc));
	if ((rc = load_arguments(cc, assay_object_member(def, "arguments"), ctx, err)) ||
	    (rc = load_stdin(cc, assay_object_member(def, "stdin"), ctx, err)) ||
	    (rc = load_input_files(cc, assay_object_member(def, "input_files"), ctx, err)))
		return rc;
	c->adapter_data = cc;
	return 0;
}

void assay_cli__case_inputs(const assay_case *c, assay_case_inputs *out)
{
	const struct cli_case *cc = c->adapter_data;

	*out = (assay_case_inputs){ 0 };
	if (!cc)
		return;
	out->argv = cc->argv;
	out->argc = cc->argc;
	out->stdin_data = cc->stdin_data;
	out->stdin_len = cc->stdin_len;
	out->files = cc->input_files;
	out->nfiles = cc->ninput_files;
}
