/*
 * YAML documents as jansson values, built straight from libyaml's event stream
 * (yaml_parser_parse), with the 1-based start position of every node.
 *
 * Key decisions:
 * - One pass over the events with an explicit stack of open collections (no recursion, so deep
 *   input cannot overflow the C stack; nesting past MAX_DEPTH is refused because jansson frees
 *   and dumps recursively). Pending mapping keys and collection anchors live in one byte stack
 *   (`keys`), so a key costs no allocation of its own.
 * - Scalars are resolved in scalar.c, as PyYAML does (see there).
 * - A key is a scalar's text, except that a key resolving to null is "null": JSON has no other
 *   keys, and `~`, `null` and an empty key must not become three different names. Other
 *   non-string keys keep their source text (`0x1F: a` has the key "0x1F", `True: a` "True").
 * - An anchor is registered when its node is complete, so an alias inside the node it names is
 *   refused ("recursive alias") instead of building a cycle jansson cannot free. A redefined
 *   anchor names the newer node from there on (YAML's rule; PyYAML refuses instead). Aliased
 *   nodes are shared, not copied: the document is a DAG, and an alias has its anchor's mark.
 * - Merge keys: `<<` collects mappings; when the mapping ends its content becomes the merged
 *   keys (in a list the first mapping wins; of two `<<` keys the later), then its explicit
 *   keys, which win over all: PyYAML's values and key order. A merged key is never a duplicate.
 * - Marks: {node, line, column} appended as nodes are made, sorted by address at the end and
 *   looked up by binary search. Nodes dropped while loading (merge sources, anchored keys) are
 *   kept alive in `dead` until the end so no address is reused; if there were any, marks of
 *   nodes that did not make it into the document are then removed.
 * - libyaml's errors keep its wording, "problem (context at line L, column C)", at the problem's
 *   position; but where the problem is the end of the input (an unclosed quote or bracket) or a
 *   key without its ':', the position is the construct left open, which is where the fix goes.
 *   Reader errors (bad UTF-8, control characters) carry only a byte offset, turned into a line
 *   and column by counting (exact for UTF-8 input).
 *
 * Refuses: more than one document; complex keys; duplicate keys (PyYAML keeps the last);
 * recursive aliases; nesting deeper than MAX_DEPTH; documents that aliases expand past
 * MAX_EXPANDED nodes; unknown tags' meaning (they are ignored).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/yaml.h"
#include "yaml/yaml_int.h"
#include "util/banned.h"

#define MAX_DEPTH 1000
/* Nodes a document may expand to through aliases: far above any real suite or case. */
#define MAX_EXPANDED 1000000

struct mark {
	const json_t *node;
	int line;
	int column;
};

struct assay_yaml_marks {
	struct mark *v;
	size_t n, alloc;
};

struct frame {
	json_t *node;         /* the array or object being filled */
	yaml_mark_t start;
	size_t base;          /* length of `keys` when the collection began; its anchor is there */
	size_t expanded_start; /* loader.expanded before this collection */
	size_t anchor_len;    /* 0: no anchor */
	bool is_map;
	bool have_key;        /* mappings: a key is pending */
	bool key_is_merge;
	size_t key_off, key_len;
	json_t *merges;       /* mappings: objects to merge in, in the order they apply, or NULL */
};

struct loader {
	yaml_parser_t parser;
	const char *path;
	assay_err *err;
	int rc;
	struct frame *stack;
	size_t depth, alloc;
	assay_buf keys;
	json_t *anchors;      /* anchor name -> node */
	json_t *anchor_sizes; /* anchor name -> nodes it expands to */
	size_t expanded;      /* nodes so far, counting every alias as what it expands to */
	json_t *anchor_keys;  /* anchor name -> its text as a key (scalars only) */
	json_t *dead;         /* nodes dropped while loading, held until the end */
	assay_yaml_marks *marks;
	json_t *root;
	int documents;
};

static int clamp(size_t v)
{
	return v >= INT_MAX ? INT_MAX : (int)v + 1;
}

static int fail_at(struct loader *l, yaml_mark_t m, const char *fmt, ...) ASSAY_PRINTF(3, 4);

static int fail_at(struct loader *l, yaml_mark_t m, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->path, clamp(m.line), clamp(m.column), "%s",
			      msg);
	return l->rc;
}

/* ---- marks ---- */

static void mark_add(struct loader *l, const json_t *node, yaml_mark_t m)
{
	assay_yaml_marks *mk = l->marks;

	if (!mk)
		return;
	if (mk->n == mk->alloc) {
		mk->alloc = mk->alloc ? mk->alloc * 2 : 64;
		mk->v = assay_xrealloc(mk->v, mk->alloc * sizeof(*mk->v));
	}
	mk->v[mk->n++] = (struct mark){ node, clamp(m.line), clamp(m.column) };
}

static int mark_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct mark *)a)->node;
	uintptr_t y = (uintptr_t)((const struct mark *)b)->node;

	return x < y ? -1 : x > y;
}

static struct mark *mark_find(const assay_yaml_marks *mk, const json_t *node)
{
	size_t lo = 0, hi = mk->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)mk->v[mid].node < (uintptr_t)node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < mk->n && mk->v[lo].node == node ? &mk->v[lo] : NULL;
}

/*
 * Keeps only the marks of nodes reachable from `root`. A kept mark is flagged by negating its
 * line; a node already flagged is not walked again, so shared subtrees cost nothing extra.
 */
static void marks_prune(assay_yaml_marks *mk, json_t *root)
{
	size_t n = 0, alloc = 64;
	json_t **todo = assay_xmalloc(alloc * sizeof(*todo));

	todo[n++] = root;
	while (n) {
		json_t *v = todo[--n];
		struct mark *m = mark_find(mk, v);
		if (!m || m->line < 0)
			continue;
		m->line = -m->line;
		size_t count = json_is_array(v) ? json_array_size(v) : json_object_size(v);
		if (n + count > alloc) {
			while (n + count > alloc)
				alloc *= 2;
			todo = assay_xrealloc(todo, alloc * sizeof(*todo));
		}
		if (json_is_array(v)) {
			for (size_t i = 0; i < count; i++)
				todo[n++] = json_array_get(v, i);
		} else if (json_is_object(v)) {
			const char *key;
			json_t *child;
			json_object_foreach(v, key, child)
				todo[n++] = child;
		}
	}
	free(todo);
	size_t j = 0;
	for (size_t i = 0; i < mk->n; i++) {
		if (mk->v[i].line < 0) {
			mk->v[j] = mk->v[i];
			mk->v[j++].line = -mk->v[i].line;
		}
	}
	mk->n = j;
}

bool assay_yaml_mark(const assay_yaml_marks *marks, const json_t *node, int *line, int *column)
{
	const struct mark *m = marks && node ? mark_find(marks, node) : NULL;

	if (!m)
		return false;
	if (line)
		*line = m->line;
	if (column)
		*column = m->column;
	return true;
}

void assay_yaml_marks_free(assay_yaml_marks *marks)
{
	if (!marks)
		return;
	free(marks->v);
	free(marks);
}

/* ---- anchors ---- */

static void anchor_set(struct loader *l, const char *name, json_t *node, const char *key,
		       size_t key_len, size_t size)
{
	json_object_set(l->anchors, name, node);
	json_object_set_new(l->anchor_sizes, name, json_integer((json_int_t)size));
	if (key)
		json_object_set_new(l->anchor_keys, name, json_stringn(key, key_len));
	else
		json_object_del(l->anchor_keys, name);
}

/* An alias's node, or NULL after reporting the error. */
static json_t *alias_node(struct loader *l, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	json_t *v = json_object_get(l->anchors, name);

	if (v)
		return v;
	for (size_t i = 0; i < l->depth; i++) {
		struct frame *f = &l->stack[i];
		if (f->anchor_len == strlen(name) &&
		    !memcmp(l->keys.ptr + f->base, name, f->anchor_len)) {
			fail_at(l, ev->start_mark, "recursive alias '%s'", name);
			return NULL;
		}
	}
	fail_at(l, ev->start_mark, "unknown alias '%s'", name);
	return NULL;
}

/* ---- building ---- */

static struct frame *top(struct loader *l)
{
	return l->depth ? &l->stack[l->depth - 1] : NULL;
}

static void key_done(struct loader *l, struct frame *f)
{
	assay_buf_setlen(&l->keys, f->key_off);
	f->have_key = false;
	f->key_is_merge = false;
}

/* `<<: v`: v must be a mapping or a list of mappings. Takes `v`. */
static int add_merge(struct loader *l, struct frame *f, json_t *v, yaml_mark_t at)
{
	bool ok = json_is_object(v);

	if (json_is_array(v)) {
		ok = true;
		for (size_t i = 0; i < json_array_size(v); i++)
			ok = ok && json_is_object(json_array_get(v, i));
	}
	if (!ok) {
		json_decref(v);
		return fail_at(l, at, "expected a mapping or list of mappings for merging");
	}
	if (!f->merges)
		f->merges = json_array();
	if (json_is_object(v)) {
		json_array_append_new(f->merges, v);
		return 0;
	}
	/* the first mapping of the list wins, so it is applied last */
	for (size_t i = json_array_size(v); i-- > 0;)
		json_array_append(f->merges, json_array_get(v, i));
	json_array_append_new(l->dead, v);
	return 0;
}

/* Puts a finished node where it belongs. Takes `v`. */
static int add_value(struct loader *l, json_t *v, yaml_mark_t at)
{
	struct frame *f = top(l);
	int rc = 0;

	if (!f) {
		l->root = v;
		return 0;
	}
	if (!f->is_map) {
		json_array_append_new(f->node, v);
		return 0;
	}
	if (f->key_is_merge)
		rc = add_merge(l, f, v, at);
	else if (json_object_setn_new(f->node, l->keys.ptr + f->key_off, f->key_len, v))
		rc = fail_at(l, at, "mapping key is not valid UTF-8");
	key_done(l, f);
	return rc;
}

/* Copies `src`'s members into `dst`, keys with NUL included. */
static void object_update(json_t *dst, json_t *src)
{
	const char *key;
	size_t len;
	json_t *v;

	json_object_keylen_foreach(src, key, len, v)
		json_object_setn_nocheck(dst, key, len, v);
}

static void apply_merges(struct loader *l, struct frame *f)
{
	json_t *explicit = json_object();

	object_update(explicit, f->node);
	json_object_clear(f->node);
	for (size_t i = 0; i < json_array_size(f->merges); i++)
		object_update(f->node, json_array_get(f->merges, i));
	object_update(f->node, explicit);
	json_decref(explicit);
	json_array_append_new(l->dead, f->merges);
	f->merges = NULL;
}

static int key_scalar(struct loader *l, struct frame *f, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length;
	const char *anchor = (const char *)ev->data.scalar.anchor;
	char msg[256];
	int kind = assay_yaml__classify((const char *)ev->data.scalar.tag,
					ev->data.scalar.plain_implicit,
					ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE, s, n, msg,
					sizeof(msg));

	if (kind < 0)
		return fail_at(l, ev->start_mark, "%s", msg);
	if (anchor) {
		json_t *v = assay_yaml__value(kind, s, n);
		if (!v)
			return fail_at(l, ev->start_mark, "scalar is not valid UTF-8");
		if (kind != YAML_KIND_NULL && kind != YAML_KIND_TRUE && kind != YAML_KIND_FALSE)
			mark_add(l, v, ev->start_mark);
		json_array_append_new(l->dead, v);
		anchor_set(l, anchor, v, kind == YAML_KIND_NULL ? "null" : s,
			   kind == YAML_KIND_NULL ? 4 : n, 1);
	}
	if (kind == YAML_KIND_MERGE) {
		f->key_is_merge = true;
		n = 0;
	} else if (kind == YAML_KIND_NULL) {
		s = "null";
		n = 4;
	}
	if (!f->key_is_merge && json_object_getn(f->node, s, n)) {
		char snip[80];
		assay_yaml__snippet(snip, sizeof(snip), s, n);
		return fail_at(l, ev->start_mark, "duplicate key '%s'", snip);
	}
	f->key_off = l->keys.len;
	f->key_len = n;
	assay_buf_add(&l->keys, s, n);
	f->have_key = true;
	return 0;
}

static int key_alias(struct loader *l, struct frame *f, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;

	if (!alias_node(l, ev))
		return l->rc;
	json_t *k = json_object_get(l->anchor_keys, name);
	if (!k)
		return fail_at(l, ev->start_mark, "mapping keys must be scalars");
	const char *s = json_string_value(k);
	size_t n = json_string_length(k);
	if (json_object_getn(f->node, s, n)) {
		char snip[80];
		assay_yaml__snippet(snip, sizeof(snip), s, n);
		return fail_at(l, ev->start_mark, "duplicate key '%s'", snip);
	}
	f->key_off = l->keys.len;
	f->key_len = n;
	assay_buf_add(&l->keys, s, n);
	f->have_key = true;
	return 0;
}

static int value_scalar(struct loader *l, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t n = ev->data.scalar.length;
	const char *anchor = (const char *)ev->data.scalar.anchor;
	char msg[256];
	int kind = assay_yaml__classify((const char *)ev->data.scalar.tag,
					ev->data.scalar.plain_implicit,
					ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE, s, n, msg,
					sizeof(msg));

	if (kind < 0)
		return fail_at(l, ev->start_mark, "%s", msg);
	json_t *v = assay_yaml__value(kind, s, n);
	if (!v)
		return fail_at(l, ev->start_mark, "scalar is not valid UTF-8");
	if (kind != YAML_KIND_NULL && kind != YAML_KIND_TRUE && kind != YAML_KIND_FALSE)
		mark_add(l, v, ev->start_mark);
	if (anchor)
		anchor_set(l, anchor, v, kind == YAML_KIND_NULL ? "null" : s,
			   kind == YAML_KIND_NULL ? 4 : n, 1);
	return add_value(l, v, ev->start_mark);
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

	if (check_collection_tag(l, ev, is_map))
		return l->rc;
	if (l->depth >= MAX_DEPTH)
		return fail_at(l, ev->start_mark, "nesting deeper than %d levels", MAX_DEPTH);
	if (l->depth == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		l->stack = assay_xrealloc(l->stack, l->alloc * sizeof(*l->stack));
	}
	struct frame *f = &l->stack[l->depth++];
	*f = (struct frame){ 0 };
	f->node = is_map ? json_object() : json_array();
	f->is_map = is_map;
	f->start = ev->start_mark;
	f->base = l->keys.len;
	f->expanded_start = l->expanded - 1; /* the collection itself was counted */
	if (anchor) {
		f->anchor_len = strlen(anchor);
		assay_buf_add(&l->keys, anchor, f->anchor_len);
	}
	return 0;
}

static int end_collection(struct loader *l)
{
	struct frame *f = top(l);
	json_t *v = f->node;
	yaml_mark_t start = f->start;

	if (f->merges)
		apply_merges(l, f);
	mark_add(l, v, start);
	if (f->anchor_len) {
		char *name = assay_xstrndup(l->keys.ptr + f->base, f->anchor_len);
		anchor_set(l, name, v, NULL, 0, l->expanded - f->expanded_start);
		free(name);
	}
	assay_buf_setlen(&l->keys, f->base);
	l->depth--;
	return add_value(l, v, start);
}

/*
 * Counts what the document expands to, aliases included, and refuses it past MAX_EXPANDED:
 * a few lines of nested aliases ("billion laughs") would otherwise make a report of gigabytes.
 */
static int count_nodes(struct loader *l, const yaml_event_t *ev)
{
	size_t n = 1;

	if (ev->type == YAML_ALIAS_EVENT) {
		const json_t *size = json_object_get(l->anchor_sizes,
						     (const char *)ev->data.alias.anchor);
		if (size)
			n = (size_t)json_integer_value(size);
	} else if (ev->type != YAML_SCALAR_EVENT && ev->type != YAML_SEQUENCE_START_EVENT &&
		   ev->type != YAML_MAPPING_START_EVENT) {
		return 0;
	}
	l->expanded += n;
	if (l->expanded > MAX_EXPANDED)
		return fail_at(l, ev->start_mark,
			       "aliases expand the document past %d nodes", MAX_EXPANDED);
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
		return key ? key_scalar(l, f, ev) : value_scalar(l, ev);
	case YAML_ALIAS_EVENT:
		if (key)
			return key_alias(l, f, ev);
		json_t *v = alias_node(l, ev);
		return v ? add_value(l, json_incref(v), ev->start_mark) : l->rc;
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

/* ---- libyaml errors ---- */

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
		l->rc = assay_err_set(l->err, ASSAY_ERROR, l->path, 0, 0,
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
			l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->path, line, col,
					      "%s (0x%02X)", problem, (unsigned)p->problem_value);
		else
			l->rc = assay_err_set(l->err, ASSAY_EPARSE, l->path, line, col, "%s",
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

/* ---- the loader ---- */

static void loader_release(struct loader *l)
{
	for (size_t i = 0; i < l->depth; i++) {
		json_decref(l->stack[i].node);
		json_decref(l->stack[i].merges);
	}
	free(l->stack);
	assay_buf_release(&l->keys);
	json_decref(l->anchors);
	json_decref(l->anchor_sizes);
	json_decref(l->anchor_keys);
	json_decref(l->dead);
	json_decref(l->root);
	assay_yaml_marks_free(l->marks);
	yaml_parser_delete(&l->parser);
}

int assay_yaml_parse(json_t **out, assay_yaml_marks **marks_out, const char *text, size_t len,
		     const char *path, assay_err *err)
{
	struct loader l = { .path = path, .err = err, .keys = ASSAY_BUF_INIT };
	bool done = false;

	*out = NULL;
	if (marks_out)
		*marks_out = NULL;
	if (!yaml_parser_initialize(&l.parser))
		return assay_err_set(err, ASSAY_ERROR, path, 0, 0, "cannot set up the YAML parser");
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)(text ? text : ""),
				     text ? len : 0);
	l.anchors = json_object();
	l.anchor_sizes = json_object();
	l.anchor_keys = json_object();
	l.dead = json_array();
	if (marks_out)
		l.marks = assay_xcalloc(1, sizeof(*l.marks));

	while (!done && !l.rc) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&l.parser, &ev)) {
			libyaml_error(&l, text, len);
			break;
		}
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (l.documents++)
				fail_at(&l, ev.start_mark, "more than one document");
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			node_event(&l, &ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	if (l.rc) {
		int rc = l.rc;
		loader_release(&l);
		return rc;
	}
	if (!l.root)
		l.root = json_null();
	if (l.marks) {
		if (l.marks->n > 1)
			qsort(l.marks->v, l.marks->n, sizeof(*l.marks->v), mark_cmp);
		if (json_array_size(l.dead))
			marks_prune(l.marks, l.root);
		*marks_out = l.marks;
		l.marks = NULL;
	}
	*out = l.root;
	l.root = NULL;
	loader_release(&l);
	return 0;
}
