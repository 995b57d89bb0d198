/*
 * YAML streams as values (yaml.h: assay_yaml_parse), built in an arena straight from libyaml's
 * event stream (yaml_parser_parse), with the 1-based start position of every node that has data.
 *
 * Key decisions:
 * - One pass over the events, no recursion: open collections are an explicit frame stack and
 *   finished values wait on a value stack (a mapping's as key, value, key, value...) until their
 *   collection ends, when they move into the arena as one block of exactly its size. Depth costs
 *   memory, never C stack.
 * - Scalars are resolved in scalar.c, as PyYAML does (see there).
 * - A key is a string: a scalar's text, except that a key resolving to null is "null" (JSON has
 *   no other keys, and `~`, `null` and an empty key must not become three different names).
 *   Other non-string keys keep their source text (`0x1F: a` has the key "0x1F", `True: a`
 *   "True"); they are still converted, so a key PyYAML could not construct is an error too.
 * - Duplicate keys are refused at the second one, found by a linear scan in small mappings and
 *   by a hash index of the mapping's keys past INDEX_FROM keys (a big mapping stays linear).
 * - An anchor is registered when its node is complete, so an alias inside the node it names is
 *   refused ("recursive alias") instead of building a cycle. A redefined anchor names the newer
 *   node from there on (YAML's rule; PyYAML refuses instead). Anchors are forgotten at each new
 *   document (YAML's rule). An alias is a struct copy of the anchored value: it shares its data,
 *   so the document is a DAG and an alias has its anchor's position.
 * - Merge keys: `<<` collects mappings (in a list the first mapping wins, so a list is pushed in
 *   reverse; of two `<<` keys the later wins); when the mapping ends, the merged members come
 *   first and its explicit members after, a later key taking the value but keeping the first
 *   one's place: PyYAML's values and key order. A merged key is never a duplicate.
 * - Positions (on request) are recorded in the arena's table for strings, bigints, datetimes,
 *   collections and keys, from libyaml's marks (0-based, in characters, so +1). An empty string
 *   has an arena byte of its own anyway; an empty collection gets one, to be keyed by. The
 *   array of a multi-document stream starts where the stream does (1:1).
 * - Limits: aliases may add at most MAX_EXPANDED nodes to the stream (each alias counting as
 *   the nodes it names, aliases inside them included), so a few lines cannot make a report of
 *   gigabytes, while the nodes actually written are bounded by the arena; flow collections nest at
 *   most MAX_FLOW_DEPTH deep, because libyaml 0.2.5 walks every open flow level for each token
 *   (a 100,000-deep `[[[...]]]` takes it 35 s, tokens at depth d cost ~2 ns * d each); block
 *   nesting stops at ASSAY_MAX_DEPTH (100,000) levels, counted as events are pulled, before
 *   libyaml's stacks grow further (a 60 MB `- - - ... x` is 30 million levels). Our stacks
 *   and libyaml's are charged to the arena after every event (account()), and the arena's
 *   limit is checked after every event: past it, ASSAY_ETOOBIG; every 1024 events
 *   assay_arena_check() also stops the parse at the budget's time.
 * - libyaml's errors keep its wording, "problem (context at line L, column C)", at the problem's
 *   position; but where the problem is the end of the input (an unclosed quote or bracket) or a
 *   key without its ':', the position is the construct left open, which is where the fix goes.
 *   Reader errors (bad UTF-8, control characters) carry only a byte offset, turned into a line
 *   and column by counting (exact for UTF-8 input).
 *
 * Refuses: a second document unless asked for several; complex keys; duplicate keys (PyYAML
 * keeps the last); recursive aliases; flow nesting past MAX_FLOW_DEPTH; streams that aliases
 * expand past MAX_EXPANDED nodes; unknown tags' meaning (they are ignored).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "assay/buf.h"
#include "assay/yaml.h"
#include "yaml/yaml_int.h"
#include "util/hash.h"
#include "util/banned.h"

/* Nodes the aliases of a stream may stand for in all: far above any real suite or case. */
#define MAX_EXPANDED 1000000
/* Flow collections inside flow collections (see the file comment). */
#define MAX_FLOW_DEPTH 1000
/* Keys of a mapping past which duplicates are found through a hash index. */
#define INDEX_FROM 8

_Static_assert(sizeof(assay_member) == 2 * sizeof(assay_value),
	       "a mapping's members are moved from the value stack as key/value pairs");

struct frame {
	yaml_mark_t start;
	size_t base;          /* its first slot on the value stack */
	size_t merge_base;    /* its first merge source on the merge stack */
	size_t expanded_start; /* loader.expanded before this collection */
	size_t name_off;      /* its anchor's name in loader.names */
	size_t name_len;      /* 0: no anchor */
	assay_htab index;     /* mappings past INDEX_FROM keys: member numbers by key */
	bool is_map;
	bool flow;
	bool have_key;        /* mappings: a key is pending (on the value stack unless a merge) */
	bool key_is_merge;
};

struct anchor {
	char *name;
	assay_value value;
	assay_value key;      /* the value as a mapping key; kind null for collections */
	size_t size;          /* nodes it expands to */
};

struct loader {
	yaml_parser_t parser;
	assay_arena *a;
	const assay_yaml_opts *o;
	assay_err *err;
	int rc;

	struct frame *fs;
	size_t fn, fcap;
	size_t flow_depth;
	assay_value *vs;      /* finished values waiting for their collection (or the stream) */
	size_t vn, vcap;
	assay_value *ms;      /* merge sources of the open mappings */
	size_t mn, mcap;
	assay_buf names;      /* the anchor names of the open collections */

	struct anchor *anchors; /* the document's anchors, found through anchor_index */
	size_t nanchors, anchors_cap;
	assay_htab anchor_index;
	size_t expanded;      /* nodes so far, counting every alias as what it expands to */
	size_t aliased;       /* of which aliases stand for */
	size_t documents;
	yaml_mark_t stream_start;
	size_t charged;       /* bytes of our stacks and libyaml's charged to the arena */
};

/*
 * The memory the parse holds outside the arena: our stacks, and libyaml's (its indentation,
 * state, mark and simple key stacks and its token queue, read from the public parser struct),
 * charged to the arena (assay_arena_charge) so that its limit, the verification budget, bounds
 * them too. Called after every event: between two events libyaml's stacks grow by a few
 * entries at most, since a block level or a flow level is an event of its own.
 */
static void account(struct loader *l)
{
	const yaml_parser_t *p = &l->parser;
	size_t now = l->fcap * sizeof(*l->fs) + l->vcap * sizeof(*l->vs) +
		     l->mcap * sizeof(*l->ms) + l->names.len + l->anchors_cap * sizeof(*l->anchors) +
		     assay_htab_bytes(&l->anchor_index);

	now += (size_t)(p->tokens.end - p->tokens.start) * sizeof(*p->tokens.start);
	now += (size_t)(p->indents.end - p->indents.start) * sizeof(*p->indents.start);
	now += (size_t)(p->simple_keys.end - p->simple_keys.start) *
	       sizeof(*p->simple_keys.start);
	now += (size_t)(p->states.end - p->states.start) * sizeof(*p->states.start);
	now += (size_t)(p->marks.end - p->marks.start) * sizeof(*p->marks.start);
	now += (size_t)(p->tag_directives.end - p->tag_directives.start) *
	       sizeof(*p->tag_directives.start);
	if (now != l->charged) {
		assay_arena_uncharge(l->a, l->charged);
		assay_arena_charge(l->a, now);
		l->charged = now;
	}
}

static uint32_t clamp32(size_t v)
{
	return v >= UINT32_MAX ? UINT32_MAX : (uint32_t)v + 1;
}

static int clamp(size_t v)
{
	return v >= INT_MAX ? INT_MAX : (int)v + 1;
}

static int fail_at(struct loader *l, yaml_mark_t m, const char *fmt, ...) ASSAY_PRINTF(3, 4);

static int fail_at(struct loader *l, yaml_mark_t m, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (l->rc)
		return l->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->o->source, clamp(m.line), clamp(m.column),
			      "%s", msg);
	return l->rc;
}

static int too_big(struct loader *l)
{
	if (l->rc)
		return l->rc;
	if (assay_arena_expired(l->a))
		l->rc = assay_err_set(l->err, ASSAY_ETOOBIG, l->o->source, 0, 0,
				      "the document could not be read in the time allowed");
	else
		l->rc = assay_err_set(l->err, ASSAY_ETOOBIG, l->o->source, 0, 0,
				      "the document needs more than %zu bytes of memory",
				      assay_arena_used(l->a));
	return l->rc;
}

static int check_arena(struct loader *l)
{
	return assay_arena_over(l->a) ? too_big(l) : 0;
}

/* Records that `v` starts at `m`, when positions are asked for. */
static void stamp(struct loader *l, assay_value *v, yaml_mark_t m)
{
	if (!l->o->positions)
		return;
	if ((v->kind == ASSAY_V_ARRAY || v->kind == ASSAY_V_OBJECT) && !v->len)
		v->u.items = assay_arena_alloc(l->a, 1); /* a pointer to key the position */
	assay_arena_set_position(l->a, v, (assay_pos){ clamp32(m.line), clamp32(m.column) });
}

static bool has_data(const assay_value *v)
{
	return v->kind == ASSAY_V_STRING || v->kind == ASSAY_V_BIGINT ||
	       v->kind == ASSAY_V_DATETIME;
}

/*
 * Stacks
 */

static void vpush(struct loader *l, assay_value v)
{
	if (l->vn == l->vcap) {
		l->vcap = l->vcap ? l->vcap * 2 : 256;
		l->vs = assay_xrealloc(l->vs, l->vcap * sizeof(*l->vs));
	}
	l->vs[l->vn++] = v;
}

static void mpush(struct loader *l, assay_value v)
{
	if (l->mn == l->mcap) {
		l->mcap = l->mcap ? l->mcap * 2 : 16;
		l->ms = assay_xrealloc(l->ms, l->mcap * sizeof(*l->ms));
	}
	l->ms[l->mn++] = v;
}

static struct frame *top(struct loader *l)
{
	return l->fn ? &l->fs[l->fn - 1] : NULL;
}

/*
 * Anchors
 */

static struct anchor *anchor_get(struct loader *l, const char *name)
{
	size_t len = strlen(name);
	assay_htab_it it;

	for (size_t i = assay_htab_first(&l->anchor_index, assay_hash(name, len), &it);
	     i != ASSAY_HTAB_END; i = assay_htab_next(&l->anchor_index, &it))
		if (!strcmp(l->anchors[i].name, name))
			return &l->anchors[i];
	return NULL;
}

static void anchor_set(struct loader *l, const char *name, assay_value v, assay_value key,
		       size_t size)
{
	struct anchor *e = anchor_get(l, name);

	if (!e) {
		if (l->nanchors == l->anchors_cap) {
			l->anchors_cap = l->anchors_cap ? l->anchors_cap * 2 : 16;
			l->anchors = assay_xrealloc(l->anchors,
						    l->anchors_cap * sizeof(*l->anchors));
		}
		assay_htab_add(&l->anchor_index, assay_hash(name, strlen(name)), l->nanchors);
		e = &l->anchors[l->nanchors++];
		e->name = assay_xstrdup(name);
	}
	e->value = v;
	e->key = key;
	e->size = size;
}

static void anchors_clear(struct loader *l)
{
	for (size_t i = 0; i < l->nanchors; i++)
		free(l->anchors[i].name);
	free(l->anchors);
	l->anchors = NULL;
	l->nanchors = l->anchors_cap = 0;
	assay_htab_release(&l->anchor_index);
}

/* An alias's anchor, or NULL after reporting the error. */
static struct anchor *alias_anchor(struct loader *l, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct anchor *e = anchor_get(l, name);
	size_t len = strlen(name);

	if (e)
		return e;
	for (size_t i = 0; i < l->fn; i++) {
		struct frame *f = &l->fs[i];

		if (f->name_len == len && !memcmp(l->names.ptr + f->name_off, name, len)) {
			fail_at(l, ev->start_mark, "recursive alias '%s'", name);
			return NULL;
		}
	}
	fail_at(l, ev->start_mark, "unknown alias '%s'", name);
	return NULL;
}

/*
 * Mapping keys
 */

static bool same_key(const assay_value *x, const assay_value *y)
{
	return x->len == y->len && (!x->len || !memcmp(x->u.s, y->u.s, x->len));
}

static uint64_t key_hash(const assay_value *k)
{
	return assay_hash(k->u.s, k->len);
}

/* True if the mapping `f` already has key `k` (its explicit keys only). */
static bool key_exists(struct loader *l, struct frame *f, const assay_value *k)
{
	size_t keys = (l->vn - f->base) / 2;
	assay_htab_it it;

	if (keys < INDEX_FROM) {
		for (size_t i = 0; i < keys; i++)
			if (same_key(&l->vs[f->base + 2 * i], k))
				return true;
		return false;
	}
	if (!f->index.len) {
		for (size_t i = 0; i < keys; i++)
			assay_htab_add(&f->index, key_hash(&l->vs[f->base + 2 * i]), i);
	}
	for (size_t i = assay_htab_first(&f->index, key_hash(k), &it); i != ASSAY_HTAB_END;
	     i = assay_htab_next(&f->index, &it))
		if (same_key(&l->vs[f->base + 2 * i], k))
			return true;
	return false;
}

/* Pushes key `k` of the mapping `f` (refused if it is there already). */
static int push_key(struct loader *l, struct frame *f, assay_value k, yaml_mark_t at)
{
	if (key_exists(l, f, &k)) {
		char snip[80];

		assay_yaml__snippet(snip, sizeof(snip), k.u.s, k.len);
		return fail_at(l, at, "duplicate key '%s'", snip);
	}
	vpush(l, k);
	if (f->index.len)
		assay_htab_add(&f->index, key_hash(&k), (l->vn - 1 - f->base) / 2);
	f->have_key = true;
	return 0;
}

/*
 * Building
 */

/* `<<: v`: v must be a mapping or a list of mappings. */
static int add_merge(struct loader *l, assay_value v, yaml_mark_t at)
{
	bool ok = v.kind == ASSAY_V_OBJECT;

	if (v.kind == ASSAY_V_ARRAY) {
		ok = true;
		for (uint32_t i = 0; i < v.len && ok; i++)
			ok = v.u.items[i].kind == ASSAY_V_OBJECT;
	}
	if (!ok)
		return fail_at(l, at, "expected a mapping or list of mappings for merging");
	if (v.kind == ASSAY_V_OBJECT) {
		mpush(l, v);
		return 0;
	}
	/* the first mapping of the list wins, so it is applied last */
	for (uint32_t i = v.len; i-- > 0;)
		mpush(l, v.u.items[i]);
	return 0;
}

/* Puts a finished node where it belongs: its collection, or the stream's list of documents. */
static int add_value(struct loader *l, assay_value v, yaml_mark_t at)
{
	struct frame *f = top(l);

	if (!f || !f->is_map) {
		vpush(l, v);
		return 0;
	}
	f->have_key = false;
	if (f->key_is_merge) {
		f->key_is_merge = false;
		return add_merge(l, v, at);
	}
	vpush(l, v);
	return 0;
}

/* The value of a scalar event, and its kind; 0 or the error. */
static int scalar(struct loader *l, const yaml_event_t *ev, assay_value *v, int *kind)
{
	struct assay_yaml__scalar sc = {
		.tag = (const char *)ev->data.scalar.tag,
		.implicit = ev->data.scalar.plain_implicit,
		.plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
		.s = (const char *)ev->data.scalar.value,
		.n = ev->data.scalar.length,
	};
	char msg[256];

	if (sc.n > UINT32_MAX)
		return too_big(l);
	*kind = assay_yaml__classify(&sc, l->o->timestamps, msg, sizeof(msg));
	if (*kind < 0 || assay_yaml__value(v, l->a, *kind, &sc, msg, sizeof(msg)))
		return fail_at(l, ev->start_mark, "%s", msg);
	return 0;
}

/* A scalar `v` of `kind` as a mapping key: itself if a string, else its text, null "null". */
static assay_value key_of(struct loader *l, const yaml_event_t *ev, assay_value v, int kind)
{
	assay_value k;

	if (v.kind == ASSAY_V_STRING)
		return v;
	if (kind == YAML_KIND_NULL)
		k = assay_value_string(l->a, "null", 4);
	else
		k = assay_value_string(l->a, (const char *)ev->data.scalar.value,
				       ev->data.scalar.length);
	stamp(l, &k, ev->start_mark);
	return k;
}

static int scalar_event(struct loader *l, struct frame *f, const yaml_event_t *ev, bool key)
{
	const char *anchor = (const char *)ev->data.scalar.anchor;
	assay_value v, k = { 0 };
	int kind = 0;

	if (scalar(l, ev, &v, &kind))
		return l->rc;
	/* a key's value is made (PyYAML constructs keys too) but kept only if anchored */
	if (has_data(&v) && (anchor || !key || v.kind == ASSAY_V_STRING))
		stamp(l, &v, ev->start_mark);
	if (anchor || key)
		k = key_of(l, ev, v, kind);
	if (anchor)
		anchor_set(l, anchor, v, k, 1);
	if (!key)
		return add_value(l, v, ev->start_mark);
	if (kind == YAML_KIND_MERGE) {
		f->key_is_merge = true;
		f->have_key = true;
		return 0;
	}
	return push_key(l, f, k, ev->start_mark);
}

static int alias_event(struct loader *l, struct frame *f, const yaml_event_t *ev, bool key)
{
	struct anchor *e = alias_anchor(l, ev);

	if (!e)
		return l->rc;
	if (!key)
		return add_value(l, e->value, ev->start_mark);
	if (e->key.kind != ASSAY_V_STRING)
		return fail_at(l, ev->start_mark, "mapping keys must be scalars");
	return push_key(l, f, e->key, ev->start_mark);
}

/* A collection tag that contradicts the collection, or a scalar tag on one. */
static int check_collection_tag(struct loader *l, const yaml_event_t *ev, bool is_map)
{
	static const char *const scalar_tags[] = { "str", "int", "float", "bool", "null", "binary",
						   "timestamp", "merge", "value", NULL };
	const char *tag = (const char *)(is_map ? ev->data.mapping_start.tag :
				       ev->data.sequence_start.tag);
	const char *prefix = "tag:yaml.org,2002:";
	size_t plen = strlen(prefix);

	if (!tag || strncmp(tag, prefix, plen))
		return 0;
	tag += plen;
	bool bad = (is_map && (!strcmp(tag, "seq") || !strcmp(tag, "omap") ||
			       !strcmp(tag, "pairs"))) ||
		   (!is_map && (!strcmp(tag, "map") || !strcmp(tag, "set")));
	for (const char *const *t = scalar_tags; *t && !bad; t++)
		bad = !strcmp(tag, *t);
	if (bad)
		return fail_at(l, ev->start_mark, "!!%s cannot tag a %s", tag,
			       is_map ? "mapping" : "sequence");
	return 0;
}

static int start_collection(struct loader *l, const yaml_event_t *ev, bool is_map)
{
	const char *anchor = (const char *)(is_map ? ev->data.mapping_start.anchor :
					  ev->data.sequence_start.anchor);
	bool flow = is_map ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE :
			     ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
	struct frame *f;

	if (check_collection_tag(l, ev, is_map))
		return l->rc;
	if (flow && l->flow_depth >= MAX_FLOW_DEPTH)
		return fail_at(l, ev->start_mark,
			       "flow collections nested deeper than %d levels", MAX_FLOW_DEPTH);
	if (l->fn >= ASSAY_MAX_DEPTH)
		return fail_at(l, ev->start_mark, "collections nested deeper than %d levels",
			       ASSAY_MAX_DEPTH);
	if (l->fn == l->fcap) {
		l->fcap = l->fcap ? l->fcap * 2 : 16;
		l->fs = assay_xrealloc(l->fs, l->fcap * sizeof(*l->fs));
	}
	f = &l->fs[l->fn++];
	*f = (struct frame){ 0 };
	f->is_map = is_map;
	f->flow = flow;
	f->start = ev->start_mark;
	f->base = l->vn;
	f->merge_base = l->mn;
	f->expanded_start = l->expanded - 1; /* the collection itself was counted */
	f->name_off = l->names.len;
	if (anchor) {
		f->name_len = strlen(anchor);
		assay_buf_add(&l->names, anchor, f->name_len);
	}
	l->flow_depth += flow;
	return 0;
}

/*
 * Python's dict: a key seen again keeps its first place and takes the later value. Returns the
 * number of members left (compacted in place).
 */
static size_t dedup_members(assay_member *m, size_t n)
{
	assay_htab seen = ASSAY_HTAB_INIT;
	size_t out = 0;
	bool *drop;

	if (n < 2)
		return n;
	drop = assay_xcalloc(n, sizeof(*drop));
	assay_htab_reserve(&seen, n);
	for (size_t j = 0; j < n; j++) {
		uint64_t h = key_hash(&m[j].key);
		assay_htab_it it;

		for (size_t i = assay_htab_first(&seen, h, &it); i != ASSAY_HTAB_END;
		     i = assay_htab_next(&seen, &it)) {
			if (same_key(&m[i].key, &m[j].key)) {
				m[i].value = m[j].value;
				drop[j] = true;
				break;
			}
		}
		if (!drop[j])
			assay_htab_add(&seen, h, j);
	}
	for (size_t j = 0; j < n; j++)
		if (!drop[j])
			m[out++] = m[j];
	assay_htab_release(&seen);
	free(drop);
	return out;
}

/* The members of mapping `f` with its merge sources: merged first, explicit ones win. */
static assay_value merged_mapping(struct loader *l, struct frame *f)
{
	size_t explicit = (l->vn - f->base) / 2, total = explicit, o = 0;
	assay_value v = { .kind = ASSAY_V_OBJECT };
	assay_member *m;

	for (size_t i = f->merge_base; i < l->mn; i++)
		total += l->ms[i].len;
	m = assay_xmalloc((total ? total : 1) * sizeof(*m));
	for (size_t i = f->merge_base; i < l->mn; i++) {
		if (l->ms[i].len)
			memcpy(m + o, l->ms[i].u.members, l->ms[i].len * sizeof(*m));
		o += l->ms[i].len;
	}
	if (explicit)
		memcpy(m + o, l->vs + f->base, explicit * sizeof(*m));
	total = dedup_members(m, total);
	if (total) {
		v.u.members = assay_arena_alloc(l->a, total * sizeof(*m));
		memcpy(v.u.members, m, total * sizeof(*m));
	}
	v.len = (uint32_t)total;
	free(m);
	return v;
}

static int end_collection(struct loader *l)
{
	struct frame *f = top(l);
	size_t n = l->vn - f->base;
	assay_value v = { .kind = f->is_map ? ASSAY_V_OBJECT : ASSAY_V_ARRAY };
	yaml_mark_t start = f->start;

	if (n / (f->is_map ? 2 : 1) > UINT32_MAX)
		return too_big(l);
	if (f->is_map && l->mn > f->merge_base) {
		v = merged_mapping(l, f);
	} else if (n) {
		v.u.items = assay_arena_alloc(l->a, n * sizeof(assay_value));
		memcpy(v.u.items, l->vs + f->base, n * sizeof(assay_value));
		v.len = (uint32_t)(f->is_map ? n / 2 : n);
	}
	stamp(l, &v, start);
	if (f->name_len) {
		char *name = assay_xstrndup(l->names.ptr + f->name_off, f->name_len);

		anchor_set(l, name, v, assay_value_null(), l->expanded - f->expanded_start);
		free(name);
	}
	assay_buf_setlen(&l->names, f->name_off);
	l->vn = f->base;
	l->mn = f->merge_base;
	l->flow_depth -= f->flow;
	assay_htab_release(&f->index);
	l->fn--;
	if (add_value(l, v, start))
		return l->rc;
	return check_arena(l);
}

/*
 * Counts what the stream expands to, aliases included (anchors record their size from it), and
 * refuses aliases that stand for more than MAX_EXPANDED nodes in all: a few lines of nested
 * aliases ("billion laughs") would otherwise make a report of gigabytes.
 */
static int count_nodes(struct loader *l, const yaml_event_t *ev)
{
	size_t n = 1;

	if (ev->type == YAML_ALIAS_EVENT) {
		const struct anchor *e = anchor_get(l, (const char *)ev->data.alias.anchor);

		if (e)
			n = e->size;
	} else if (ev->type != YAML_SCALAR_EVENT && ev->type != YAML_SEQUENCE_START_EVENT &&
		   ev->type != YAML_MAPPING_START_EVENT) {
		return 0;
	}
	l->expanded += n;
	if (ev->type == YAML_ALIAS_EVENT)
		l->aliased += n;
	if (l->aliased > MAX_EXPANDED)
		return fail_at(l, ev->start_mark, "aliases expand the %s past %d nodes",
			       l->o->multi_document ? "stream" : "document", MAX_EXPANDED);
	return 0;
}

static int node_event(struct loader *l, const yaml_event_t *ev)
{
	struct frame *f = top(l);
	bool key = f && f->is_map && !f->have_key;

	if (count_nodes(l, ev))
		return l->rc;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (scalar_event(l, f, ev, key))
			return l->rc;
		return check_arena(l);
	case YAML_ALIAS_EVENT:
		return alias_event(l, f, ev, key);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (key)
			return fail_at(l, ev->start_mark, "mapping keys must be scalars");
		return start_collection(l, ev, ev->type == YAML_MAPPING_START_EVENT);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return end_collection(l);
	default:
		return 0;
	}
}

/*
 * libyaml errors
 */

/* libyaml's reader reports a byte offset only: count lines and characters up to it. */
static void offset_position(const char *text, size_t len, size_t off, int *line, int *col)
{
	size_t ln = 1, c = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch == '\n' || (ch == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
			ln++;
			c = 1;
		} else if ((ch & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = ln >= INT_MAX ? INT_MAX : (int)ln;
	*col = c >= INT_MAX ? INT_MAX : (int)c;
}

/* The number of characters libyaml counts in UTF-8 `text` (a byte-order mark is not one). */
static size_t char_count(const char *text, size_t len)
{
	size_t n = 0;

	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		len -= 3;
	}
	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)text[i] & 0xC0) != 0x80;
	return n;
}

static int libyaml_error(struct loader *l, const char *text, size_t len)
{
	yaml_parser_t *p = &l->parser;
	const char *problem = p->problem ? p->problem : "cannot parse";
	int line, col;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		l->rc = assay_err_set(l->err, ASSAY_ERROR, l->o->source, 0, 0,
				      "out of memory while parsing YAML");
		return l->rc;
	case YAML_READER_ERROR: {
		size_t off = p->problem_offset;
		/* a bad continuation byte: the sequence it breaks starts at its lead byte */
		if (!strcmp(problem, "invalid trailing UTF-8 octet")) {
			for (size_t k = 1; k <= 3 && k <= off && off - k < len; k++) {
				if (((unsigned char)text[off - k] & 0xC0) == 0xC0) {
					off -= k;
					break;
				}
			}
		}
		offset_position(text, len, off, &line, &col);
		if (p->problem_value >= 0)
			l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->o->source, line, col,
					      "%s (0x%02X)", problem, (unsigned)p->problem_value);
		else
			l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->o->source, line, col, "%s",
					      problem);
		return l->rc;
	}
	default:
		break;
	}
	/*
	 * At the end of the input (an unclosed quote or bracket), the end says nothing: point at
	 * the construct left open instead; likewise at a key that lacks its ':'.
	 */
	if (p->context && (p->problem_mark.index >= char_count(text, len) ||
			   !strcmp(problem, "could not find expected ':'")))
		return fail_at(l, p->context_mark, "%s (%s)", problem, p->context);
	if (p->context && (p->context_mark.line != p->problem_mark.line ||
			   p->context_mark.column != p->problem_mark.column))
		return fail_at(l, p->problem_mark, "%s (%s at line %d, column %d)", problem,
			       p->context, clamp(p->context_mark.line),
			       clamp(p->context_mark.column));
	if (p->context)
		return fail_at(l, p->problem_mark, "%s (%s)", problem, p->context);
	return fail_at(l, p->problem_mark, "%s", problem);
}

/*
 * The stream
 */

static int stream_event(struct loader *l, const yaml_event_t *ev, bool *done)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (l->documents++ && !l->o->multi_document)
			return fail_at(l, ev->start_mark, "a second document in the stream");
		anchors_clear(l);
		return 0;
	case YAML_STREAM_START_EVENT:
		l->stream_start = ev->start_mark;
		return 0;
	case YAML_STREAM_END_EVENT:
		*done = true;
		return 0;
	default:
		return node_event(l, ev);
	}
}

static void loader_release(struct loader *l)
{
	for (size_t i = 0; i < l->fn; i++)
		assay_htab_release(&l->fs[i].index);
	free(l->fs);
	free(l->vs);
	free(l->ms);
	assay_buf_release(&l->names);
	anchors_clear(l);
	yaml_parser_delete(&l->parser);
}

int assay_yaml_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
		     const assay_yaml_opts *opts, assay_err *err)
{
	static const assay_yaml_opts defaults = ASSAY_YAML_OPTS_INIT;
	struct loader l = { .a = a, .err = err, .names = ASSAY_BUF_INIT };
	bool done = false;

	l.o = opts ? opts : &defaults;
	*out = assay_value_null();
	if (!text) {
		text = "";
		len = 0;
	}
	if (!yaml_parser_initialize(&l.parser))
		return assay_err_set(err, ASSAY_ERROR, l.o->source, 0, 0,
				     "cannot set up the YAML parser");
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)text, len);
	for (size_t events = 1; !done && !l.rc; events++) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&l.parser, &ev)) {
			libyaml_error(&l, text, len);
			break;
		}
		stream_event(&l, &ev, &done);
		yaml_event_delete(&ev);
		account(&l);
		if (events % 1024 == 0 ? assay_arena_check(a) : assay_arena_over(a))
			too_big(&l); /* the budget's time (checked now and then), or memory */
	}
	if (!l.rc) {
		if (l.o->multi_document && l.vn > UINT32_MAX) {
			too_big(&l);
		} else if (l.o->multi_document) {
			*out = assay_value_array_of(a, l.vs, l.vn);
			stamp(&l, out, l.stream_start);
		} else if (l.vn) {
			*out = l.vs[0];
		}
		check_arena(&l);
		if (l.rc)
			*out = assay_value_null();
	}
	loader_release(&l);
	assay_arena_uncharge(a, l.charged);
	return l.rc;
}
