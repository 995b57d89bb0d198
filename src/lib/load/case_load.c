/*
 * One case: from the merged mapping (defaults <- case_defaults <- case file) to an assay_case
 * ready to run (suite-format.md, "A case (cli adapter)"). Every value is checked here, once, so
 * the runner never meets a wrongly shaped case; problems name the file, line and column of the
 * value. Unknown keys are warnings (later versions may add keys); unknown expected attributes
 * are errors (they could never be verified).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/verify.h"
#include "load/load_int.h"
#include "util/banned.h"

static const char *const case_keys[] = {
	"arguments", "stdin", "input_files", "env", "timeout", "expected", "verify",
	/* api adapter keys, accepted here so that one suite may carry both */
	"method", "path", "headers", "query", "body", "retries", NULL,
};

static const char *const expected_keys[] = {
	"status_code", "output", "stderr", "files", "execution_time", "max_rss", "headers", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void warn_at(const struct case_ctx *ctx, const json_t *node, const char *fmt,
		    const char *arg)
{
	if (!ctx->warn)
		return;
	char *msg = assay_load__node_msg(ctx->ds, node, fmt, arg);
	ctx->warn(ctx->payload, msg);
	free(msg);
}

int assay_load__argv(assay_strvec *out, const json_t *v, const char *what,
		     const struct docset *ds, assay_err *err)
{
	char scratch[64];
	size_t i;
	json_t *item;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		assay_err e = ASSAY_ERR_INIT;
		int rc = assay_shell_split(out, json_string_value(v), &e);
		return rc ? assay_load__node_err(ds, v, err, rc, "%s: %s", what, e.msg) : 0;
	}
	if (!json_is_array(v))
		return assay_load__node_err(ds, v, err, ASSAY_EINVALID,
					    "%s must be a list of strings or a string", what);
	json_array_foreach(v, i, item) {
		const char *s = assay_load__scalar_text(item, scratch, sizeof(scratch));
		if (!s)
			return assay_load__node_err(ds, item, err, ASSAY_EINVALID,
						    "%s[%zu] must be a string", what, i);
		if (json_is_string(item) && memchr(s, '\0', json_string_length(item)))
			return assay_load__node_err(ds, item, err, ASSAY_EINVALID,
						    "%s[%zu] holds a NUL byte", what, i);
		assay_strvec_push(out, s);
	}
	return 0;
}

static int load_stdin(assay_case *c, const json_t *v, const struct case_ctx *ctx, assay_err *err)
{
	char scratch[64];
	assay_buf b = ASSAY_BUF_INIT;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v) && !assay_json_is_bignum(v)) {
		assay_buf_add(&b, json_string_value(v), json_string_length(v));
	} else if (json_is_array(v) || json_is_object(v)) {
		/* Structured standard input is given as JSON text, one line. */
		assay_json_dump(&b, v, 0);
		assay_buf_addch(&b, '\n');
	} else {
		const char *s = assay_load__scalar_text(v, scratch, sizeof(scratch));
		if (!s)
			return assay_load__node_err(ctx->ds, v, err, ASSAY_EINVALID,
						    "stdin must be a string");
		assay_buf_adds(&b, s);
	}
	c->stdin_data = assay_buf_detach(&b, &c->stdin_len);
	return 0;
}

/* Adds "K=V" (or "K" to unset, for null) entries from mapping `v` to `env`. */
static int load_env(assay_strvec *env, const json_t *v, const struct docset *ds, assay_err *err)
{
	char scratch[64];
	const char *key;
	json_t *value;

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return assay_load__node_err(ds, v, err, ASSAY_EINVALID,
					    "env must be a mapping of names to strings");
	json_object_foreach((json_t *)v, key, value) {
		if (!*key || strchr(key, '='))
			return assay_load__node_err(ds, value, err, ASSAY_EINVALID,
						    "invalid environment variable name '%s'", key);
		if (json_is_null(value)) {
			assay_strvec_push(env, key);
			continue;
		}
		const char *s = assay_load__scalar_text(value, scratch, sizeof(scratch));
		if (!s)
			return assay_load__node_err(ds, value, err, ASSAY_EINVALID,
						    "env %s must be a string", key);
		assay_strvec_pushf(env, "%s=%s", key, s);
	}
	return 0;
}

static int load_input_files(assay_case *c, const json_t *v, const struct case_ctx *ctx,
			    assay_err *err)
{
	size_t i;
	json_t *item;
	int rc = 0;

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_array(v))
		return assay_load__node_err(ctx->ds, v, err, ASSAY_EINVALID,
					    "input_files must be a list of {path, content, "
					    "file_type}");
	c->input_files = assay_xcalloc(json_array_size(v), sizeof(*c->input_files));
	json_array_foreach(v, i, item) {
		const json_t *path = json_object_get(item, "path");
		const json_t *type = json_object_get(item, "file_type");
		const json_t *content = json_object_get(item, "content");
		const char *ftype = "text";

		if (!json_is_object(item))
			return assay_load__node_err(ctx->ds, item, err, ASSAY_EINVALID,
						    "input_files[%zu] must be a mapping", i);
		if (!json_is_string(path) || !assay_path_is_contained(json_string_value(path)))
			return assay_load__node_err(ctx->ds, path ? path : item, err,
						    ASSAY_EINVALID,
						    "input_files[%zu].path must be a relative path "
						    "inside the working folder", i);
		if (type && !json_is_null(type)) {
			if (!json_is_string(type))
				return assay_load__node_err(ctx->ds, type, err, ASSAY_EINVALID,
							    "file_type must be a string");
			ftype = json_string_value(type);
			if (!in_list((const char *const[]){ "text", "binary", "json", "jsonl",
							    "yaml", "csv", "tsv", NULL },
				     ftype))
				return assay_load__node_err(
					ctx->ds, type, err, ASSAY_EINVALID,
					"unknown file_type '%s' (text, binary, json, jsonl, yaml, "
					"csv, tsv)", ftype);
		}
		assay_buf b = ASSAY_BUF_INIT;
		if (content)
			rc = assay_load__input_content(&b, content, ftype, ctx->ds, err);
		if (rc) {
			assay_buf_release(&b);
			return rc;
		}
		assay_input_file *f = &c->input_files[c->ninput_files++];
		f->path = assay_xstrdup(json_string_value(path));
		f->content = assay_buf_detach(&b, &f->len);
	}
	return 0;
}

static int load_timeout(double *out, const json_t *v, const struct docset *ds, assay_err *err)
{
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
		return assay_load__node_err(ds, v, err, ASSAY_EINVALID,
					    "timeout must be a number of seconds > 0");
	*out = json_number_value(v);
	return 0;
}

static int load_expected(assay_case *c, const json_t *v, const struct case_ctx *ctx,
			 assay_err *err)
{
	const char *key;
	json_t *value;

	if (!v || json_is_null(v)) {
		c->expected = json_object();
		return 0;
	}
	if (!json_is_object(v))
		return assay_load__node_err(ctx->ds, v, err, ASSAY_EINVALID,
					    "expected must be a mapping of attributes");
	c->expected = json_object();
	json_object_foreach((json_t *)v, key, value) {
		if (!in_list(expected_keys, key) ||
		    (!strcmp(key, "headers") && ctx->adapter != ASSAY_ADAPTER_API))
			return assay_load__node_err(
				ctx->ds, value, err, ASSAY_EINVALID,
				"unknown expected attribute '%s' (status_code, output, stderr, "
				"files, execution_time, max_rss)", key);
		if (!strcmp(key, "status_code")) {
			const char *s = json_string_value(value);
			if (!json_is_integer(value) && !(s && !strcmp(s, "nonzero")))
				return assay_load__node_err(ctx->ds, value, err, ASSAY_EINVALID,
							    "expected status_code must be an "
							    "integer or 'nonzero'");
		} else if (!strcmp(key, "execution_time") &&
			   (!json_is_number(value) || json_number_value(value) < 0)) {
			return assay_load__node_err(ctx->ds, value, err, ASSAY_EINVALID,
						    "expected execution_time must be a number of "
						    "seconds");
		} else if (!strcmp(key, "max_rss") &&
			   (!json_is_integer(value) || json_integer_value(value) < 0)) {
			return assay_load__node_err(ctx->ds, value, err, ASSAY_EINVALID,
						    "expected max_rss must be a number of bytes");
		} else if (!strcmp(key, "files")) {
			const char *path;
			json_t *content;
			if (!json_is_object(value))
				return assay_load__node_err(ctx->ds, value, err, ASSAY_EINVALID,
							    "expected files must be a mapping of "
							    "path to content");
			json_object_foreach(value, path, content) {
				if (!assay_path_is_contained(path))
					return assay_load__node_err(
						ctx->ds, content, err, ASSAY_EINVALID,
						"expected file '%s' must be a relative path inside "
						"the working folder", path);
				char *attr = assay_xasprintf("files-%s", path);
				json_object_set(c->expected, attr, content);
				free(attr);
			}
			continue;
		}
		json_object_set(c->expected, key, value);
	}
	return 0;
}

static int add_verify_entry(assay_case *c, const char *attr, const json_t *entry,
			    const struct case_ctx *ctx, assay_err *err)
{
	if (json_is_string(entry)) {
		json_object_set_new(c->verify, attr,
				    json_pack("{s:O}", "verifier", (json_t *)entry));
		return 0;
	}
	if (!json_is_object(entry))
		return assay_load__node_err(ctx->ds, entry, err, ASSAY_EINVALID,
					    "verify.%s must be a mapping {verifier, weight, ...}",
					    attr);
	const json_t *name = json_object_get(entry, "verifier");
	if (name && !json_is_string(name))
		return assay_load__node_err(ctx->ds, name, err, ASSAY_EINVALID,
					    "verify.%s.verifier must be a string", attr);
	json_object_set(c->verify, attr, (json_t *)entry);
	return 0;
}

static int load_verify(assay_case *c, const json_t *v, const struct case_ctx *ctx,
		       assay_err *err)
{
	const char *key;
	json_t *value;
	int rc;

	c->verify = json_object();
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return assay_load__node_err(ctx->ds, v, err, ASSAY_EINVALID,
					    "verify must be a mapping of attribute to verifier");
	json_object_foreach((json_t *)v, key, value) {
		if (!strcmp(key, "files") && json_is_object(value) &&
		    !json_object_get(value, "verifier")) {
			const char *path;
			json_t *entry;
			json_object_foreach(value, path, entry) {
				char *attr = assay_xasprintf("files-%s", path);
				rc = add_verify_entry(c, attr, entry, ctx, err);
				free(attr);
				if (rc)
					return rc;
			}
			continue;
		}
		rc = add_verify_entry(c, key, value, ctx, err);
		if (rc)
			return rc;
	}
	/* `verify: {files: {verifier: ...}}` applies to every expected file without its own. */
	const json_t *all_files = json_object_get(c->verify, "files");
	json_object_foreach(c->expected, key, value) {
		if (all_files && !strncmp(key, "files-", 6) && !json_object_get(c->verify, key))
			json_object_set(c->verify, key, (json_t *)all_files);
	}
	json_object_del(c->verify, "files");
	/* Only what the case file itself says: suite-wide defaults may well not apply. */
	const json_t *own = json_object_get(ctx->own, "verify");
	json_object_foreach(c->verify, key, value) {
		if (!json_object_get(c->expected, key)) {
			if (json_object_get(own, key))
				warn_at(ctx, value, "verify.%s is ignored: no expected value for it",
					key);
			continue;
		}
		assay_err e = ASSAY_ERR_INIT;
		if ((rc = assay_verify_check(NULL, NULL, value, key, &e))) {
			const json_t *at = json_object_get(value, "verifier");
			return assay_load__node_err(ctx->ds, at ? at : value, err, rc, "verify.%s: %s",
						    key, e.msg);
		}
	}
	return 0;
}

int assay_load__case(assay_case *c, json_t *def, const struct case_ctx *ctx, assay_err *err)
{
	const char *key;
	json_t *value;
	int rc;

	if (!json_is_object(def))
		return assay_load__node_err(ctx->ds, def, err, ASSAY_EINVALID,
					    "a case must be a mapping");
	json_object_foreach(def, key, value) {
		if (!in_list(case_keys, key) && json_object_get(ctx->own, key))
			warn_at(ctx, value, "unknown case key '%s' (ignored)", key);
	}
	c->timeout = ctx->timeout;
	assay_strvec_pushv(&c->env, (const char *const *)ctx->base_env->v);
	if ((rc = assay_load__argv(&c->arguments, json_object_get(def, "arguments"), "arguments",
				   ctx->ds, err)) ||
	    (rc = load_stdin(c, json_object_get(def, "stdin"), ctx, err)) ||
	    (rc = load_input_files(c, json_object_get(def, "input_files"), ctx, err)) ||
	    (rc = load_env(&c->env, json_object_get(def, "env"), ctx->ds, err)) ||
	    (rc = load_timeout(&c->timeout, json_object_get(def, "timeout"), ctx->ds, err)) ||
	    (rc = load_expected(c, json_object_get(def, "expected"), ctx, err)) ||
	    (rc = load_verify(c, json_object_get(def, "verify"), ctx, err)))
		return rc;
	if (!json_object_size(c->expected))
		return assay_load__node_err(ctx->ds, def, err, ASSAY_EINVALID,
					    "the case expects nothing: give it expected attributes "
					    "(status_code, output, ...)");
	c->definition = json_incref(def);
	return 0;
}

int assay_load__env(assay_strvec *env, const json_t *v, const struct docset *ds, assay_err *err)
{
	return load_env(env, v, ds, err);
}

int assay_load__timeout(double *out, const json_t *v, const struct docset *ds, assay_err *err)
{
	return load_timeout(out, v, ds, err);
}
