/*
 * The json_fields and json_keys verifiers (verification.md, Advanced Example 1, as declarative
 * checks): fields picked out of the actual document by dot path, and the document's set of
 * keys. The document is JSON unless `format` says yaml, toml or ini.
 * Spec: issue #7 section 2 ("JSON field checks by dot path (fields: {user.name: "x"}) and the
 * key-set structure check").
 *
 * Key decisions:
 * - json_fields: expected is a mapping of dot path to value. A path is split at '.'; a part
 *   indexes a mapping by key, or a list by a decimal index (`items.0.id`), a step the example's
 *   _get_nested cannot take but a suite needs. A path that leads nowhere gives None, as in the
 *   example, so an expected null also passes when the field is absent; the message says
 *   "absent". Values in messages are written as the document writes them (null, not None). Values compare as the json verifier compares them (abs_tol, rel_tol,
 *   ignore_order, ignore_string_case, significant_digits), so 1 equals 1.0 as in Python.
 *   Each field is one of the example's results (weight 1): the attribute is correct when all
 *   are; the share that are is its partial credit (case.partial), never part of the score.
 *   Unlike the example's `==`, numbers compare as the json verifier compares them (within
 *   abs_tol, default 1e-6, and deepdiff's relative 1e-9): 0.30000000000000004 equals 0.3
 *   here and not there (docs/verification.md, "Contract -> assay").
 * - json_keys: expected names the keys (a list, or a mapping or document whose keys count);
 *   actual's keys must be the same set, as _verify_structure requires. `recursive: true`
 *   compares every key path through nested mappings (`a`, `a.b`); `allow_extra: true` lets
 *   actual have more. The diff is {"missing": [...], "extra": [...]} in expected's and
 *   actual's order.
 * - Diffs are null when correct, as for every text verifier.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define REPR_CAP 200

static const char *const fields_options[] = {
	"format", "abs_tol", "rel_tol", "ignore_order", "ignore_string_case",
	"significant_digits", "multi_document", "lower_keys", NULL,
};
static const char *const keys_options[] = {
	"format", "recursive", "allow_extra", "multi_document", "lower_keys", NULL,
};

/* Follows dot path `path` (`n` bytes) from `v`; NULL when it leads nowhere. */
static const assay_value *follow(const assay_value *v, const char *path, size_t n)
{
	size_t i = 0;

	if (!n)
		return v;
	while (v && i <= n) {
		const char *dot = memchr(path + i, '.', n - i);
		size_t len = (dot ? (size_t)(dot - path) : n) - i;
		const char *part = path + i;

		if (v->kind == ASSAY_V_OBJECT) {
			v = assay_object_getn(v, part, len);
		} else if (v->kind == ASSAY_V_ARRAY && len && len < 10) {
			size_t idx = 0;

			for (size_t k = 0; k < len && v; k++) {
				if (part[k] < '0' || part[k] > '9')
					v = NULL;
				idx = idx * 10 + (size_t)(part[k] - '0');
			}
			v = v ? assay_array_get(v, idx) : NULL;
		} else {
			return NULL;
		}
		if (!dot)
			return v;
		i += len + 1;
	}
	return NULL;
}

/* A value in a message: a string or number as Python's repr ('Bob', 1.5), anything else as
 * JSON (null, true, [1, 2]): the document's words, not Python's None and True. */
static assay_value repr_value(assay_arena *a, const assay_value *v)
{
	assay_buf b = ASSAY_BUF_INIT;

	if (v->kind == ASSAY_V_STRING || assay_value_is_number(v)) {
		assay_verify__repr(&b, v, REPR_CAP);
	} else {
		assay_json_write(&b, v, 0);
		if (b.len > REPR_CAP) {
			b.len = REPR_CAP;
			assay_buf_adds(&b, "...");
		}
	}
	assay_value s = assay_verify__text(a, b.ptr, b.len, 0);
	assay_buf_release(&b);
	return s;
}

static int verify_fields(assay_verification *out, const assay_verify_call *call,
			 assay_err *err)
{
	assay_arena *a = call->arena;
	const assay_value *ex = call->expected;
	assay_verify__format f;
	assay_diff_opts opts;
	assay_value doc, diff = assay_value_object();
	size_t good = 0;
	int rc;

	if ((rc = assay_verify__opt_format(call->options, &f, err)) ||
	    (rc = assay_diff_opts_parse(&opts, a, call->options, err)))
		return rc;
	if (!ex || ex->kind != ASSAY_V_OBJECT || !ex->len)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be a mapping of field paths (user.name) to "
				     "values", assay_verify__attr(call));
	if (!assay_verify__parse_actual(&doc, out, call, f, &rc, err))
		return rc;
	for (uint32_t i = 0; i < ex->len; i++) {
		const assay_member *m = &ex->u.members[i];
		const assay_value *got = follow(&doc, m->key.u.s, m->key.len);
		static const assay_value none = { .kind = ASSAY_V_NULL };
		assay_diff_info info;
		assay_value d;

		assay_diff(&d, a, &m->value, got ? got : &none, &opts, call->deadline, &info);
		if (info.over_budget) {
			out->budget = true;
			assay_verify__fail(out, assay_value_stringf(
							a, "%s could not be compared within the "
							   "verification budget",
							assay_verify__attr(call)));
			return 0;
		}
		if (!info.count) {
			good++;
			continue;
		}
		assay_value want = repr_value(a, &m->value);
		assay_value have = got ? repr_value(a, got) : assay_value_strz(a, "nothing (absent)");
		assay_object_append(a, &diff, m->key,
				    assay_value_stringf(a, "%.*s: expected %s, got %s",
							(int)m->key.len, m->key.u.s, want.u.s,
							have.u.s));
	}
	out->is_correct = good == ex->len;
	out->partial = (double)good / ex->len;
	out->diff = out->is_correct ? assay_value_null() : diff;
	return 0;
}

/* ---- json_keys -------------------------------------------------------------------------- */

/* Appends to `keys` the key paths of mapping `v` (below `prefix`, or at the top when NULL),
 * recursing when asked. */
static void key_paths(assay_arena *a, assay_value *keys, const assay_value *v,
		      const assay_value *prefix, bool recursive, size_t depth)
{
	if (v->kind != ASSAY_V_OBJECT || depth > 1000)
		return;
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *m = &v->u.members[i];
		assay_value path = prefix ? assay_value_stringf(a, "%.*s.%.*s", (int)prefix->len,
								prefix->u.s, (int)m->key.len,
								m->key.u.s)
					  : m->key;

		assay_array_push(a, keys, path);
		if (recursive)
			key_paths(a, keys, &m->value, &path, true, depth + 1);
	}
}

static bool has(const assay_value *list, const assay_value *s)
{
	for (uint32_t i = 0; i < list->len; i++)
		if (list->u.items[i].len == s->len &&
		    !memcmp(list->u.items[i].u.s, s->u.s, s->len))
			return true;
	return false;
}

static int verify_keys(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	assay_arena *a = call->arena;
	assay_verify__format f;
	bool recursive = false, allow_extra = false;
	assay_value ex, doc, want = assay_value_array(), have = assay_value_array();
	int rc;

	if ((rc = assay_verify__opt_format(call->options, &f, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "recursive", &recursive, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "allow_extra", &allow_extra, err)) ||
	    (rc = assay_verify__parse_expected(&ex, call, f, err)))
		return rc;
	if (ex.kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < ex.len; i++) {
			if (ex.u.items[i].kind != ASSAY_V_STRING)
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "expected.%s[%u] must be a key name",
						     assay_verify__attr(call), i);
			assay_array_push(a, &want, ex.u.items[i]);
		}
	} else if (ex.kind == ASSAY_V_OBJECT) {
		key_paths(a, &want, &ex, NULL, recursive, 0);
	} else {
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be a list of keys or a mapping",
				     assay_verify__attr(call));
	}
	if (!assay_verify__parse_actual(&doc, out, call, f, &rc, err))
		return rc;
	key_paths(a, &have, &doc, NULL, recursive, 0);

	assay_value missing = assay_value_array(), extra = assay_value_array();
	for (uint32_t i = 0; i < want.len; i++)
		if (!has(&have, &want.u.items[i]))
			assay_array_push(a, &missing, want.u.items[i]);
	for (uint32_t i = 0; !allow_extra && i < have.len; i++)
		if (!has(&want, &have.u.items[i]))
			assay_array_push(a, &extra, have.u.items[i]);
	out->is_correct = !missing.len && !extra.len;
	if (out->is_correct)
		return 0;
	out->diff = assay_value_object();
	assay_object_set(a, &out->diff, "missing", missing);
	assay_object_set(a, &out->diff, "extra", extra);
	if (doc.kind != ASSAY_V_OBJECT)
		assay_object_set(a, &out->diff, "note",
				 assay_value_stringf(a, "the actual document is %s, not a mapping",
						     assay_kind_name((assay_kind)doc.kind)));
	return 0;
}

const assay_verifier assay_verifier_json_fields = { "json_fields", verify_fields,
						    fields_options };
const assay_verifier assay_verifier_json_keys = { "json_keys", verify_keys, keys_options };
