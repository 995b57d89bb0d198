/*
 * assay_json_uncut() (json.h): a cut line made whole again. Every marker
 * {"$assay_cut": {"kind", "bytes", "sha256", "head"}} becomes its blob's value, and keys the
 * writer escaped ("$$assay_x") lose their extra '$'. A blob may itself hold markers (a
 * container cut after big strings inside it were), so what a blob gives is walked in turn.
 *
 * Refuses to: expand more than MAX_EXPAND markers (a store made by hand could name a blob
 * from inside itself), or trust a marker's fields beyond its kind and sha256.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_int.h"
#include "util/banned.h"

#define MAX_EXPAND 1000000

static bool is_hex64(const assay_value *v)
{
	if (!v || v->kind != ASSAY_V_STRING || v->len != 64)
		return false;
	for (uint32_t i = 0; i < 64; i++)
		if (!strchr("0123456789abcdef", v->u.s[i]) || !v->u.s[i])
			return false;
	return true;
}

/* The marker's body when `v` is a cut marker, else NULL. */
static const assay_value *marker_body(const assay_value *v)
{
	const assay_member *m;

	if (v->kind != ASSAY_V_OBJECT || v->len != 1)
		return NULL;
	m = &v->u.members[0];
	if (m->key.len != 10 || memcmp(m->key.u.s, "$assay_cut", 10) ||
	    m->value.kind != ASSAY_V_OBJECT)
		return NULL;
	return &m->value;
}

static int expand(assay_value *v, const assay_value *body, assay_arena *a,
		  assay_blob_fetch_fn fetch, void *payload, assay_buf *b, assay_err *err)
{
	const assay_value *kind = assay_object_get(body, "kind");
	const assay_value *sha = assay_object_get(body, "sha256");
	bool json = assay_value_is_str(kind, "json");
	int rc;

	if (!is_hex64(sha) || (!json && !assay_value_is_str(kind, "string")))
		return assay_err_set(err, ASSAY_EPARSE, NULL, 0, 0,
				     "a cut marker without a kind or sha256");
	assay_buf_reset(b);
	if ((rc = fetch(payload, sha->u.s, b, err)))
		return rc;
	if (!json) {
		*v = assay_value_string(a, b->len ? b->ptr : "", b->len);
		return 0;
	}
	if ((rc = assay_json_parse(v, a, b->ptr, b->len, NULL, err)))
		return rc == ASSAY_ETOOBIG ? rc
					   : assay_err_set(err, ASSAY_EPARSE, NULL, 0, 0,
							   "blob %.12s... is not JSON: %s",
							   sha->u.s, err->msg);
	return 0;
}

int assay_json_uncut(assay_value *v, assay_arena *a, assay_blob_fetch_fn fetch, void *payload,
		     assay_err *err)
{
	assay_value **st = assay_xmalloc(64 * sizeof(*st));
	size_t nr = 0, alloc = 64, expanded = 0;
	assay_buf b = ASSAY_BUF_INIT;
	int rc = 0;

	st[nr++] = v;
	while (nr && !rc) {
		assay_value *cur = st[--nr];
		const assay_value *body = marker_body(cur);

		if (body) {
			if (++expanded > MAX_EXPAND)
				rc = assay_err_set(err, ASSAY_EPARSE, NULL, 0, 0,
						   "more than %d cut markers", MAX_EXPAND);
			else if (!(rc = expand(cur, body, a, fetch, payload, &b, err)))
				st[nr++] = cur; /* what the blob held is walked in turn */
			continue;
		}
		if (cur->kind != ASSAY_V_ARRAY && cur->kind != ASSAY_V_OBJECT)
			continue;
		if (nr + cur->len > alloc) {
			while (nr + cur->len > alloc)
				alloc *= 2;
			st = assay_xrealloc(st, alloc * sizeof(*st));
		}
		for (uint32_t i = cur->len; i-- > 0;) {
			if (cur->kind == ASSAY_V_ARRAY) {
				st[nr++] = &cur->u.items[i];
				continue;
			}
			assay_member *m = &cur->u.members[i];

			if (m->key.len > 1 && m->key.u.s[1] == '$' &&
			    assay_json__marker_like(m->key.u.s, m->key.len)) {
				m->key.u.s++; /* the writer's extra '$' */
				m->key.len--;
			}
			st[nr++] = &m->value;
		}
	}
	free(st);
	assay_buf_release(&b);
	return rc;
}
