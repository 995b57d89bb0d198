/**
 * @file value.h
 * assay's value model: the JSON, YAML and TOML values that suites, verifiers, diffs and reports
 * share. Spec: docs/architecture.md ("How memory is spent": values in arenas);
 * docs/decisions.md ("Loading": numbers of any size, a kind of their own, so no string can pass
 * for a number).
 *
 * A value is a small struct (16 bytes) passed and stored by value. Scalars hold their data in
 * the struct; strings, big integers and containers point to memory in an *arena*, which owns it
 * and frees it all at once. Values are never freed one by one.
 *
 * Kinds: null, bool, int (64-bit), bigint (an integer outside int64, kept exactly as decimal
 * text), real (a double, as Python's float: NaN and infinities included), string (bytes, usually
 * UTF-8, may hold NUL), array, object (members in insertion order), datetime (a TOML/YAML date
 * or time, kept as its text, with its sub-kind). A bigint is its own kind: no string, whatever
 * it holds, reads as a number.
 *
 * Ownership:
 * - Everything a value points to lives in an arena (or, for values made with
 *   assay_value_string_ref(), in memory the caller keeps alive). A value copied by struct
 *   assignment shares that memory: it is valid as long as the arena that holds its data.
 * - A container may hold values whose data lives in other arenas (a report that embeds a parsed
 *   document without copying it). The container is then valid only while all of them live.
 *   assay_value_copy() makes a deep copy in one arena when that is not wanted.
 * - Functions taking `const assay_value *` borrow it for the call.
 *
 * Source positions: a parser asked to record them (assay_json_opts.positions, the YAML
 * loader) keeps, in the arena, the 1-based line and column where each string, bigint, datetime
 * and container starts, keyed by the value's data pointer; assay_arena_position() finds them. A
 * struct copy of such a value keeps its position (it shares the data); a deep copy does not.
 * Booleans, numbers and null carry no data pointer and so no position: messages about them
 * point at the member key or container that holds them.
 */
#ifndef ASSAY_VALUE_H
#define ASSAY_VALUE_H

#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kind of a value. Numbering is part of the ABI. */
typedef enum assay_kind {
	ASSAY_V_NULL = 0,
	ASSAY_V_BOOL = 1,
	ASSAY_V_INT = 2,      /**< `u.i`: int64 */
	ASSAY_V_BIGINT = 3,   /**< `u.s`/`len`: decimal digits, '-' if negative, no leading zeros */
	ASSAY_V_REAL = 4,     /**< `u.d`: a double */
	ASSAY_V_STRING = 5,   /**< `u.s`/`len`: bytes; NUL-terminated when made in an arena,
				   not when borrowed (assay_value_string_ref, a parser's borrow) */
	ASSAY_V_ARRAY = 6,    /**< `u.items`/`len` */
	ASSAY_V_OBJECT = 7,   /**< `u.members`/`len`, insertion order */
	ASSAY_V_DATETIME = 8, /**< `u.s`/`len`: RFC 3339 text; assay_value_datetime_kind() */
} assay_kind;

/** Sub-kinds of ASSAY_V_DATETIME (TOML's four, which YAML's timestamps map onto). */
typedef enum assay_datetime_kind {
	ASSAY_DT_OFFSET = 0,  /**< date, time and UTC offset: 1979-05-27T07:32:00Z */
	ASSAY_DT_LOCAL = 1,   /**< date and time: 1979-05-27T07:32:00 */
	ASSAY_DT_DATE = 2,    /**< 1979-05-27 */
	ASSAY_DT_TIME = 3,    /**< 07:32:00 */
} assay_datetime_kind;

typedef struct assay_value assay_value;
typedef struct assay_member assay_member;

/**
 * A value (16 bytes). Read the fields directly; change them only through the functions below.
 * `flags` and `spare` are private.
 */
struct assay_value {
	uint8_t kind;    /**< assay_kind */
	uint8_t flags;   /**< private: growth state, datetime sub-kind */
	uint16_t spare;  /**< private, 0 */
	uint32_t len;    /**< bytes (string, bigint, datetime) or items (array) or members (object) */
	union {
		bool b;
		int64_t i;
		double d;
		const char *s;
		assay_value *items;
		assay_member *members;
	} u;
};

/** An object member: a string key and a value (32 bytes). */
struct assay_member {
	assay_value key;
	assay_value value;
};

/*
 * Arenas
 */

/** How deep assay's readers (JSON, YAML) let a document nest: deeper is a parse error. Python
 *  reads no more than about 1000 levels; past this, depth is an attack on memory, not data. */
#define ASSAY_MAX_DEPTH 100000

/** Memory that values live in; freed all at once (opaque). */
typedef struct assay_arena assay_arena;

/**
 * A new, empty arena.
 * @param limit soft limit in bytes (0: none). Allocations never fail because of it, but once
 *              the arena holds more than `limit` bytes assay_arena_over() says so: parsers check
 *              it and stop with ASSAY_ETOOBIG, so one hostile document cannot exhaust memory.
 * @return the arena (free with assay_arena_free); never NULL
 */
ASSAY_EXTERN assay_arena *assay_arena_new(size_t limit);

/** Frees the arena and every value whose data lives in it. NULL is allowed. */
ASSAY_EXTERN void assay_arena_free(assay_arena *a);

/** `size` bytes, 8-byte aligned, valid until the arena is freed. Never NULL. */
ASSAY_EXTERN void *assay_arena_alloc(assay_arena *a, size_t size);

/** A NUL-terminated copy of `len` bytes of `s` in the arena (not aligned). */
ASSAY_EXTERN char *assay_arena_strndup(assay_arena *a, const char *s, size_t len);

/** Bytes allocated from the arena so far plus the bytes charged to it (assay_arena_charge):
 *  what assay_arena_over() compares with its limit. */
ASSAY_EXTERN size_t assay_arena_used(const assay_arena *a);

/** The arena's limit in bytes, as given to assay_arena_new (0: none). */
ASSAY_EXTERN size_t assay_arena_limit(const assay_arena *a);

/** True once the arena holds (with what is charged to it) more than its limit. */
ASSAY_EXTERN bool assay_arena_over(const assay_arena *a);

/**
 * Counts `bytes` of memory held outside the arena against its limit, until they are
 * uncharged: a parser's own stacks, tables and buffers (and a library's, such as libyaml's),
 * so that the limit bounds everything a parse holds, not only the values it made.
 */
ASSAY_EXTERN void assay_arena_charge(assay_arena *a, size_t bytes);

/** Takes back `bytes` charged with assay_arena_charge() (never more than was charged). */
ASSAY_EXTERN void assay_arena_uncharge(assay_arena *a, size_t bytes);

/**
 * Sets the time part of the budget: after `deadline` (CLOCK_MONOTONIC seconds, as
 * assay_now(); 0: none) assay_arena_check() stops parsers. The verifiers set it to the
 * call's deadline for the call (verify.h).
 * @return the deadline it replaces, to put back
 */
ASSAY_EXTERN double assay_arena_set_deadline(assay_arena *a, double deadline);

/**
 * What parsers ask every few thousand steps: ASSAY_ETOOBIG when the arena is over its limit
 * (assay_arena_over) or its deadline has passed (assay_arena_expired then says so), else 0.
 * Reads the clock only when a deadline is set.
 */
ASSAY_EXTERN int assay_arena_check(assay_arena *a);

/** True once assay_arena_check() found the deadline passed. */
ASSAY_EXTERN bool assay_arena_expired(const assay_arena *a);

/** A source position: 1-based line and column (in characters). */
typedef struct assay_pos {
	uint32_t line;
	uint32_t col;
} assay_pos;

/** Positions an arena records at most (later ones are not recorded). */
#define ASSAY_ARENA_MAX_POSITIONS 65536u

/**
 * Records that the value whose data is `v`'s (a string, bigint, datetime or container made in
 * or borrowed by `a`) starts at `pos`. Parsers call it; values without data are ignored.
 */
ASSAY_EXTERN void assay_arena_set_position(assay_arena *a, const assay_value *v, assay_pos pos);

/**
 * The position recorded in `a` for `v` (see the file comment).
 * @return true and fills `out` if known; false for values without data or never recorded
 */
ASSAY_EXTERN bool assay_arena_position(const assay_arena *a, const assay_value *v,
				       assay_pos *out);

/*
 * Making values
 */

/** null, a boolean, an integer, a real (any double, NaN and infinities included). */
ASSAY_EXTERN assay_value assay_value_null(void);
ASSAY_EXTERN assay_value assay_value_bool(bool b);
ASSAY_EXTERN assay_value assay_value_int(int64_t i);
ASSAY_EXTERN assay_value assay_value_real(double d);

/** A string: `len` bytes of `s` copied into `a` (NUL bytes allowed). */
ASSAY_EXTERN assay_value assay_value_string(assay_arena *a, const char *s, size_t len);
/** A string copied from a NUL-terminated `s`. */
ASSAY_EXTERN assay_value assay_value_strz(assay_arena *a, const char *s);
/** A string that borrows `len` bytes at `s`: they must outlive every use of the value. */
ASSAY_EXTERN assay_value assay_value_string_ref(const char *s, size_t len);
/** A string from printf-style arguments, in `a`. */
ASSAY_EXTERN assay_value assay_value_stringf(assay_arena *a, const char *fmt, ...)
	ASSAY_PRINTF(2, 3);

/**
 * An integer from decimal text (an optional sign, then digits; leading zeros allowed): an int
 * when it fits in 64 bits, else a bigint with its digits normalised into `a`.
 * @return 0, or ASSAY_EINVALID if `text` is not an optional sign followed by digits
 */
ASSAY_EXTERN int assay_value_integer_text(assay_value *out, assay_arena *a, const char *text,
					  size_t len);

/** A datetime of sub-kind `dk` whose RFC 3339 text (`len` bytes, copied) is not checked. */
ASSAY_EXTERN assay_value assay_value_datetime(assay_arena *a, assay_datetime_kind dk,
					      const char *text, size_t len);

/** An empty array or object, ready to grow with the functions below. */
ASSAY_EXTERN assay_value assay_value_array(void);
ASSAY_EXTERN assay_value assay_value_object(void);

/**
 * An array of `n` items copied from `items` (a fixed array; may still grow with push).
 */
ASSAY_EXTERN assay_value assay_value_array_of(assay_arena *a, const assay_value *items,
					      size_t n);

/** Appends `item` to the array `arr` (its storage grows in `a`). */
ASSAY_EXTERN void assay_array_push(assay_arena *a, assay_value *arr, assay_value item);

/**
 * Sets member `key` (`klen` bytes, copied) of object `obj` to `v`: replaces the value of an
 * existing member in place (keeping its position in the order), else appends one. Linear in the
 * number of members: for building small objects (reports, options), not for big documents.
 * @return the stored value (valid until `obj` changes again)
 */
ASSAY_EXTERN assay_value *assay_object_setn(assay_arena *a, assay_value *obj, const char *key,
					    size_t klen, assay_value v);
/** assay_object_setn() with a NUL-terminated key. */
ASSAY_EXTERN assay_value *assay_object_set(assay_arena *a, assay_value *obj, const char *key,
					   assay_value v);
/**
 * Appends member (`key`, `v`) to `obj` without looking for an existing one: the caller knows
 * the key is new. `key` must be a string value (its data is not copied).
 */
ASSAY_EXTERN void assay_object_append(assay_arena *a, assay_value *obj, assay_value key,
				      assay_value v);
/** Removes member `key` from `obj` (keeping the others' order). @return true if it was there */
ASSAY_EXTERN bool assay_object_deln(assay_value *obj, const char *key, size_t klen);

/*
 * Reading values
 */

/** The member `key` (`klen` bytes) of `obj`, or NULL (also when `obj` is not an object). */
ASSAY_EXTERN const assay_value *assay_object_getn(const assay_value *obj, const char *key,
						  size_t klen);
/** assay_object_getn() with a NUL-terminated key. */
ASSAY_EXTERN const assay_value *assay_object_get(const assay_value *obj, const char *key);
/** The member `key` (NUL-terminated) of `obj`, key and value, or NULL. */
ASSAY_EXTERN const assay_member *assay_object_member(const assay_value *obj, const char *key);
/**
 * What a message about member `m` should point at: its value when that can carry a source
 * position (a string, bigint, datetime or container), else its key.
 */
ASSAY_EXTERN const assay_value *assay_member_anchor(const assay_member *m);
/** Item `i` of an array, or NULL when out of range or not an array. */
ASSAY_EXTERN const assay_value *assay_array_get(const assay_value *arr, size_t i);

/** The sub-kind of a datetime (meaningless for other kinds). */
ASSAY_EXTERN assay_datetime_kind assay_value_datetime_kind(const assay_value *v);

/** True for int, bigint and real (not bool). */
ASSAY_EXTERN bool assay_value_is_number(const assay_value *v);
/** int or bigint. */
ASSAY_EXTERN bool assay_value_is_integer(const assay_value *v);
/** A number as a double (a bigint rounded; NaN for other kinds). */
ASSAY_EXTERN double assay_value_number(const assay_value *v);
/** True if `v` is a string equal to the NUL-terminated `s`. */
ASSAY_EXTERN bool assay_value_is_str(const assay_value *v, const char *s);

/**
 * Python's type name of a value, as deepdiff reports it: NoneType, bool, int, float, str, list,
 * dict; datetime, date, time for datetimes (offset and local date-times are both "datetime").
 */
ASSAY_EXTERN const char *assay_value_type_name(const assay_value *v);
/** A short English name of a kind for messages: "null", "a boolean", "a string", ... */
ASSAY_EXTERN const char *assay_kind_name(assay_kind k);

/**
 * Exact equality: same kind (int and bigint compare as integers; int 1 and real 1.0 are NOT
 * equal here), same bytes, same items in order, same members in any order. NaN equals NaN (so
 * a value equals its copy). Iterative: any depth. For verification use the diff engine.
 */
ASSAY_EXTERN bool assay_value_equal(const assay_value *x, const assay_value *y);

/** A deep copy of `v` whose data all lives in `a` (positions are not copied). Any depth. */
ASSAY_EXTERN assay_value assay_value_copy(assay_arena *a, const assay_value *v);

/**
 * The deepest nesting of containers in `v` (a scalar is 0, [] is 1, [[1]] is 2). Iterative.
 */
ASSAY_EXTERN size_t assay_value_depth(const assay_value *v);

/*
 * Numbers as Python writes them
 */

/** Room for any number assay_format_double() writes, with its NUL. */
#define ASSAY_DOUBLE_BUFSIZE 32

/**
 * Writes `d` as Python's repr(float) does: the shortest digits that read back to the same
 * double; positional notation for decimal exponents -4 <= e < 16 ("0.0001", "1e+16",
 * "1.5e-05"), always with a '.' or an exponent ("1.0"); "nan", "inf", "-inf" as Python
 * (callers writing JSON use NaN/Infinity instead). @return the length written into `buf`
 * (ASSAY_DOUBLE_BUFSIZE bytes)
 */
ASSAY_EXTERN size_t assay_format_double(char buf[ASSAY_DOUBLE_BUFSIZE], double d);

/**
 * Reads a decimal floating-point literal as Python's float() does (correctly rounded,
 * independent of the locale; overflow gives an infinity, underflow 0 or a subnormal).
 * `text` holds `len` bytes of a valid literal (digits, optional '.', optional exponent).
 */
ASSAY_EXTERN double assay_parse_double(const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif
