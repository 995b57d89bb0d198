/*
 * Internals of the structural diff (src/lib/diff): the walk's context, results, difflib and
 * the helpers each file shares. Never installed.
 */
#ifndef ASSAY_DIFF_INT_H
#define ASSAY_DIFF_INT_H

#include <stdint.h>

#include "assay/buf.h"
#include "assay/diff.h"

/* ---- difflib.c ----------------------------------------------------------------------- */

/* A matching block: a[i:i+k] == b[j:j+k]. */
typedef struct assay_diff__block {
	size_t i, j, k;
} assay_diff__block;

/* An opcode: tag 'e'qual, 'r'eplace, 'd'elete, 'i'nsert over a[i1:i2], b[j1:j2]. */
typedef struct assay_diff__opcode {
	char tag;
	size_t i1, i2, j1, j2;
} assay_diff__opcode;

/* A line of text (no terminator). */
typedef struct assay_diff__line {
	const char *p;
	size_t len;
} assay_diff__line;

/* The two sequences assay_diff__matching_blocks() matches: borrowed for the call. */
struct assay_diff__seqs {
	const uint32_t *a; /* `la` class ids */
	size_t la;
	const uint32_t *b; /* `lb` class ids */
	size_t lb;
	uint32_t nclass; /* every id is below it */
	bool autojunk;	 /* difflib's autojunk heuristic */
};

/*
 * difflib.SequenceMatcher(None, s->a, s->b, s->autojunk).get_matching_blocks() over class ids
 * in [0, s->nclass); ends with the (la, lb, 0) sentinel; their count in *nr. Caller frees.
 */
assay_diff__block *assay_diff__matching_blocks(const struct assay_diff__seqs *s, size_t *nr);

/* get_opcodes() from matching blocks. Caller frees. */
assay_diff__opcode *assay_diff__opcodes(const assay_diff__block *blocks, size_t nblocks,
					size_t *nr);

/* '\n'.join(difflib.unified_diff(a, b, lineterm='')) appended to `out`. */
void assay_diff__unified_lines(assay_buf *out, const assay_diff__line *a, size_t la,
			       const assay_diff__line *b, size_t lb);

/* ---- hash.c ------------------------------------------------------------------------- */

/* SipHash-2-4 of `len` bytes at `data` with the 16-byte key `k` (also used by the json_schema
 * verifier's uniqueItems, src/lib/verify/verify_schema.c). */
uint64_t assay_diff__siphash(const uint8_t *k, const void *data, size_t len);

/* ---- text.c ------------------------------------------------------------------------- */

/* Python's str.splitlines() (keepends=False) of UTF-8 text: a malloc'd array. */
assay_diff__line *assay_diff__splitlines(const char *s, size_t len, size_t *nr);

/* Class ids for lines (equal bytes, equal id), ids in [0, return value). */
uint32_t assay_diff__classify_lines(const assay_diff__line *const *lines, size_t n,
				    uint32_t *ids);

/* Python's str.lower() of UTF-8 text (bytes that are not UTF-8 are kept), into `out`. */
void assay_diff__lower(assay_buf *out, const char *s, size_t len);

#endif

/* ---- number.c ------------------------------------------------------------------------ */

/* Python's numeric view of a value: bool, int, bigint and real are numbers (deepdiff with
 * ignore_numeric_type_changes puts bool in the same group, True == 1). */
bool assay_diff__is_num(const assay_value *v);

/* Python's x == y for two numbers (exact: 10**30 != 1e30; NaN != NaN). */
bool assay_diff__num_eq(const assay_value *x, const assay_value *y);

/* Numbers equal under the options: exact, the tolerances, or significant digits. */
bool assay_diff__num_close(const assay_diff_opts *o, const assay_value *x, const assay_value *y);

/* A canonical key of a number for hashing: equal numbers (by Python ==) get equal keys; NaN
 * gets none (returns false: every NaN is its own class). Appends to `out`. */
bool assay_diff__num_key(assay_buf *out, const assay_value *v);

/* deepdiff's number_to_string: "{:.Nf}" (or "{:.Ne}") of round(x, N), zero unsigned. */
void assay_diff__num_fixed(assay_buf *out, const assay_value *v, int digits, bool e_notation);

/* Is the integer `v` within +-2**53, where a double holds it exactly? */
bool assay_diff__exact_in_double(const assay_value *v);

/* float(x) of a number (bool 0/1; a bigint correctly rounded). */
double assay_diff__num_double(const assay_value *v);

/* ---- result.c ------------------------------------------------------------------------ */

enum assay_diff__cat {
	CAT_TYPE_CHANGES = 0,
	CAT_DICT_ADDED,
	CAT_DICT_REMOVED,
	CAT_VALUES_CHANGED,
	CAT_ITER_ADDED,
	CAT_ITER_REMOVED,
	CAT_ITER_MOVED,
	CAT_REPETITION,
	CAT_N
};

/* One reported difference (a deepdiff tree level). */
struct assay_diff__entry {
	uint8_t cat;
	const char *path;            /* in the report arena (may hold NUL: use path_len) */
	uint32_t path_len;
	uint32_t str_diff_len;
	const assay_value *old_v;    /* t1 side (NULL: not present) */
	const assay_value *new_v;    /* t2 side */
	const char *str_diff;        /* values_changed of strings: the unified diff, or NULL */
	assay_value extra;           /* repetition_change: old/new repeat and indexes */
	const char *old_lower;       /* ignore_string_case: the lowered strings deepdiff shows */
	const char *new_lower;
	size_t old_lower_len, new_lower_len;
};

/* A result: entries in report order (deepdiff's TreeResult). The entries' array is charged to
 * `charge` (the report's arena, NULL: none) while it is held, so that what a diff finds counts
 * against the verification budget as the report made of it does. */
struct assay_diff__result {
	struct assay_diff__entry *v;
	size_t nr, alloc;
	assay_arena *charge;
};

void assay_diff__result_add(struct assay_diff__result *r, const struct assay_diff__entry *e);
/* Appends src's entries to dst (deepdiff's `tree[k] |= levels`) and empties src. */
void assay_diff__result_merge(struct assay_diff__result *dst, struct assay_diff__result *src);
void assay_diff__result_release(struct assay_diff__result *r);
/* The report value, categories in deepdiff's TextResult order. Stops adding entries once `a`
 * is over its limit, and says so in `*cut` (the report is then incomplete). */
assay_value assay_diff__result_value(assay_arena *a, const struct assay_diff__result *r,
				     bool *cut);
/* deepdiff's mutual_add_removes_to_become_value_changes (report_repetition off). */
void assay_diff__mutual_to_changes(struct assay_diff__result *r);

/* ---- walk.c: the comparison's context ---------------------------------------------------- */

/* A compiled regular expression (a pcre2_code *) for a pattern. */
struct assay_diff__rx {
	struct assay_diff__rx *next;
	const char *pattern;
	size_t len;
	void *code;
};

/* CLOCK_MONOTONIC now, in seconds. */
double assay_diff__now(void);

struct assay_diff__ctx {
	const assay_diff_opts *o;
	assay_arena *a;               /* the report's arena */
	assay_buf path;               /* the current path, "root..." */
	struct assay_diff__rx *excl_rx; /* compiled exclude_regex_paths */
	size_t nexcl_rx;
	const char **excl;            /* exclude_paths, normalised (root-prefixed) */
	size_t *excl_len;
	size_t nexcl;
	struct assay_diff__rx *rx_cache; /* regex_paths patterns, compiled on first use */
	void *md;                     /* pcre2 match data */
	double deadline;              /* 0: none */
	uint64_t steps;               /* budget checks */
	uint64_t diff_count;          /* deepdiff's DIFF_COUNT (max_diffs counts these) */
	bool stop;                    /* max_diffs or the budget reached: unwind */
	size_t depth;                 /* recursion depth of the walk and hashing */
	size_t max_depth;             /* past it: stop and ask for a large stack */
	bool need_stack;              /* stopped for that */
	bool over_budget;
	bool truncated;
	bool probe;                   /* unordered.c's tolerance pass: stop at the first difference */
	uint8_t sip_key[16];          /* the hash key (hash.c) */
	assay_buf scratch;
	assay_buf hash_scratch;       /* hash.c's canonical texts */
};

/* deepdiff's _count_diff(): false once max_diffs is passed (then stop unwinds the walk). */
bool assay_diff__count(struct assay_diff__ctx *c);

/* Is the current path excluded (exclude_paths, exclude_regex_paths)? */
bool assay_diff__skip(struct assay_diff__ctx *c);

/* Path building: push returns the old length for pop. */
size_t assay_diff__push_index(struct assay_diff__ctx *c, size_t i);
size_t assay_diff__push_key(struct assay_diff__ctx *c, const char *key, size_t len);
void assay_diff__pop(struct assay_diff__ctx *c, size_t old);
/* Sets e->path/path_len to the current path, copied into the report arena. */
void assay_diff__set_path(struct assay_diff__ctx *c, struct assay_diff__entry *e);

/* Adds a difference to r (a probe stops the walk at the first; past the report arena's limit
 * the walk stops over budget; nothing is added once the walk is stopping). */
void assay_diff__add(struct assay_diff__ctx *c, struct assay_diff__result *r,
		     const struct assay_diff__entry *e);

/* Reports (e, a) at the current path in category `cat` (unless excluded). */
void assay_diff__report(struct assay_diff__ctx *c, struct assay_diff__result *r, int cat,
			const assay_value *e, const assay_value *a);

/* deepdiff's _diff(level): compares e and a at the current path, reporting into r. */
void assay_diff__walk(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
		      struct assay_diff__result *r);

/* ---- hash.c: DeepHash ----------------------------------------------------------------- */

/* An item's DeepHash (equal for items deepdiff's DeepHash makes equal) and its count of
 * nodes (DeepHash's `counts`, the rough length of distance.py). */
struct assay_diff__hash {
	uint64_t h[2];
	uint64_t count;
};

/* Hashes `v` found at the current path (exclusions apply below it). */
void assay_diff__hash(struct assay_diff__ctx *c, const assay_value *v,
		      struct assay_diff__hash *out);

/* ---- unordered.c ----------------------------------------------------------------------- */

/* deepdiff's _diff_iterable_with_deephash (ignore_order, report_repetition). */
void assay_diff__unordered(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
			   struct assay_diff__result *r);

/* deepdiff's rough distance of a report made by comparing `e` and `a`. */
double assay_diff__rough_distance(struct assay_diff__ctx *c, const assay_value *e,
				  const assay_value *a, const struct assay_diff__result *r);
