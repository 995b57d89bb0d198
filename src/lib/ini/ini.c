/*
 * INI text -> values, as Python's configparser reads it (ini.h states the rules).
 *
 * Key decisions:
 * - The reader follows RawConfigParser._read line for line: the same tests in the same order
 *   (blank or comment, continuation by indentation, section header, option), the same
 *   regular expressions written out as scans, configparser's strict mode (a section or a key
 *   given twice is an error) and its habit of collecting line errors and raising the first at
 *   the end, after an error it raises at once (a duplicate, a key before any section).
 * - White space is Python's (assay_pytext__space: str.isspace()), and indentation is counted
 *   in characters, as Python indexes a str.
 * - Keys are looked up in a hash table, so a hostile output of a million keys costs linear
 *   time; keys and values are gathered in one pool and made into arena values at the end.
 * - The caller's arena's limit (the verification budget) bounds everything the reader holds:
 *   its pool, option arrays and indexes are malloc'd and charged to the arena at their
 *   allocated sizes, and each is charged before it grows (a growth past the limit is refused,
 *   not made); the values are made in the arena, its limit checked every 4096 of them. Before,
 *   the arrays doubled inside the arena (every old copy kept) and a section's values were made
 *   whole before a check: "[s]" and 8 M options stopped at 768 MiB against 512 MiB.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unistr.h>

#include "assay/buf.h"
#include "assay/ini.h"
#include "value/pytext_int.h"
#include "util/hash.h"
#include "util/banned.h"

/* Keys and values live in one pool (offsets, as it grows): a continuation line always extends
 * the value of the option added last, which is at the pool's end. */
struct option {
	size_t koff, klen;
	size_t voff, vlen; /* the value's lines joined with '\n' */
	size_t section;    /* index into ini.sections */
};

struct section {
	const char *name;
	size_t len;
	size_t *options; /* indexes into ini.options, in order */
	size_t nopt, aopt;
};

struct ini {
	const assay_ini_opts *o;
	assay_arena *a;           /* the caller's: its limit bounds what the reader holds */
	struct section *sections; /* [0] is DEFAULT */
	size_t nsec, asec;
	struct option *options;
	size_t nopt, aopt;
	assay_htab opt_index; /* options by (section, key) */
	assay_htab sec_index; /* sections by name */
	size_t held;          /* bytes of the malloc'd arrays (sections, options, their indexes) */
	size_t charged;       /* bytes charged to the arena now */
	bool over;            /* a growth was refused: past the arena's limit */
	assay_buf pool;
};

/*
 * Charges what the reader holds (the pool, the arrays and the indexes at their allocated
 * sizes) plus `more` bytes it is about to allocate; false (and `over` set) when that passes
 * the arena's limit, and the caller then does not allocate them.
 */
static bool room(struct ini *p, size_t more)
{
	size_t now = p->pool.alloc + p->held + assay_htab_bytes(&p->opt_index) +
		     assay_htab_bytes(&p->sec_index) + more;

	assay_arena_uncharge(p->a, p->charged);
	assay_arena_charge(p->a, now);
	p->charged = now;
	if (assay_arena_over(p->a))
		p->over = true;
	return !p->over;
}

/* Room for one more entry in `t` (at most what its growth allocates, charged beforehand). */
static bool room_in_index(struct ini *p, const assay_htab *t)
{
	size_t cap = 16;

	if (t->slot && 2 * (t->len + 1) <= t->mask + 1)
		return !p->over;
	/* as assay_htab_reserve() grows it: the least power of two (>= 16) that keeps it at most
	 * half full; the old table and the new one are held at once while it moves */
	while (cap < 2 * (t->len + 1) + 2)
		cap *= 2;
	return room(p, cap * sizeof(*t->slot));
}

/* Room for `n` more bytes in the pool. */
static bool room_in_pool(struct ini *p, size_t n)
{
	size_t need = p->pool.len + n + 1;

	if (need <= p->pool.alloc)
		return !p->over;
	return room(p, 2 * (need > p->pool.alloc ? need : p->pool.alloc) + 64);
}

/* The capacity an array of `alloc` elements of `size` bytes (`n` used) needs for one more:
 * `alloc` when it has room, else a doubled one, charged (the caller reallocates); 0 past the
 * limit. */
static size_t grown(struct ini *p, size_t alloc, size_t n, size_t size, size_t first)
{
	size_t more = alloc ? alloc : first;

	if (n < alloc)
		return p->over ? 0 : alloc;
	if (!room(p, (alloc + more) * size)) /* old and new held at once while it moves */
		return 0;
	p->held += more * size;
	return alloc + more;
}

static const char *key_of(const struct ini *p, const struct option *o)
{
	return p->pool.ptr + o->koff;
}

/* The process's keyed hash (util/hash.h) of a key in its section. */
static uint64_t opt_hash(size_t section, const char *k, size_t n)
{
	return assay_hash_tweak(k, n, section);
}

/* True if `section` has option `k`. */
static bool opt_exists(struct ini *p, size_t section, const char *k, size_t n)
{
	assay_htab_it it;

	for (size_t i = assay_htab_first(&p->opt_index, opt_hash(section, k, n), &it);
	     i != ASSAY_HTAB_END; i = assay_htab_next(&p->opt_index, &it)) {
		const struct option *o = &p->options[i];

		if (o->section == section && o->klen == n && !memcmp(key_of(p, o), k, n))
			return true;
	}
	return false;
}

static bool sec_exists(struct ini *p, const char *name, size_t n)
{
	assay_htab_it it;

	for (size_t i = assay_htab_first(&p->sec_index, assay_hash(name, n), &it);
	     i != ASSAY_HTAB_END; i = assay_htab_next(&p->sec_index, &it)) {
		const struct section *sc = &p->sections[i];

		if (sc->len == n && !memcmp(sc->name, name, n))
			return true;
	}
	return false;
}

/* Adds a section; (size_t)-1 past the limit. */
static size_t add_section(struct ini *p, const char *name, size_t n)
{
	size_t c = grown(p, p->asec, p->nsec, sizeof(*p->sections), 8);

	if (!c || (p->nsec && !room_in_index(p, &p->sec_index)))
		return (size_t)-1;
	if (c != p->asec)
		p->sections = assay_xrealloc(p->sections, (p->asec = c) * sizeof(*p->sections));
	p->sections[p->nsec] = (struct section){ name, n, NULL, 0, 0 };
	if (p->nsec)
		assay_htab_add(&p->sec_index, assay_hash(name, n), p->nsec);
	return p->nsec++;
}

/* Adds option `key` (the last `n` bytes of the pool) to `section`; its value follows it.
 * NULL past the limit. */
static struct option *add_option(struct ini *p, size_t section, size_t n)
{
	struct section *s = &p->sections[section];
	size_t c;

	if (!(c = grown(p, p->aopt, p->nopt, sizeof(*p->options), 16)))
		return NULL;
	if (c != p->aopt)
		p->options = assay_xrealloc(p->options, (p->aopt = c) * sizeof(*p->options));
	if (!(c = grown(p, s->aopt, s->nopt, sizeof(*s->options), 8)))
		return NULL;
	if (c != s->aopt)
		s->options = assay_xrealloc(s->options, (s->aopt = c) * sizeof(*s->options));
	if (!room_in_index(p, &p->opt_index))
		return NULL;
	struct option *o = &p->options[p->nopt];
	*o = (struct option){ p->pool.len - n, n, p->pool.len, 0, section };
	assay_htab_add(&p->opt_index, opt_hash(section, p->pool.ptr + o->koff, n), p->nopt);
	s->options[s->nopt++] = p->nopt++;
	return o;
}


/* Characters (not bytes) in s[0..n): a column. */
static size_t chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static void strip(const char **s, const char **e)
{
	size_t k;

	while (*s < *e && (k = assay_pytext__space(*s, (size_t)(*e - *s))))
		*s += k;
	while (*e > *s && (k = assay_pytext__space_before(*s, (size_t)(*e - *s))))
		*e -= k;
}

/* An error at `at` (inside line `line`, which starts at `ls`), configparser's message. */
static int fail(const struct ini *p, assay_err *err, size_t line, const char *ls,
		const char *at, const char *fmt, const char *a, size_t alen, const char *b,
		size_t blen)
{
	return assay_err_set(err, ASSAY_EPARSE, p->o->source, (int)line,
			     (int)chars(ls, (size_t)(at - ls)) + 1, fmt, (int)alen, a, (int)blen, b);
}

/* Appends the key as configparser keeps it, optionxform(name), to the pool; its length (0
 * and `over` set past the limit). */
static size_t transform(struct ini *p, const char *k, size_t n)
{
	size_t len = 0;
	uint8_t *low = p->o->lower_keys
			       ? u8_tolower((const uint8_t *)k, n, NULL, NULL, NULL, &len)
			       : NULL;

	if (low) {
		if (room_in_pool(p, len))
			assay_buf_add(&p->pool, low, len);
		free(low);
		return p->over ? 0 : len;
	}
	if (!room_in_pool(p, n))
		return 0;
	assay_buf_add(&p->pool, k, n);
	return n;
}

/* Adds to the value of `o` (nothing past the limit: `over` is set). */
static void add_value(struct ini *p, struct option *o, const char *s, size_t n, bool newline)
{
	if (!room_in_pool(p, n + 1))
		return;
	if (newline)
		assay_buf_addch(&p->pool, '\n');
	assay_buf_add(&p->pool, s, n);
	o->vlen = p->pool.len - o->voff;
}

/* Index of the last ']' at or after s + 2 (a header needs one character), or NULL. */
static const char *header_end(const char *s, const char *e)
{
	for (const char *q = e; q-- > s + 1;)
		if (*q == ']')
			return q > s + 1 ? q : NULL;
	return NULL;
}

static int read_lines(struct ini *p, const char *text, size_t len, assay_err *err)
{
	const char *end = text + len, *ls = text;
	struct option *cur = NULL;   /* the option a continuation line adds to */
	long sect = -1;              /* the current section, -1 before the first header */
	size_t indent_level = 0, line = 0;
	assay_err first = ASSAY_ERR_INIT; /* the first line error, raised at the end */
	bool have_first = false;

	while (ls < end) {
		const char *le = memchr(ls, '\n', (size_t)(end - ls));

		if (p->over || line % 4096 == 0) {
			/* what the reader holds is charged to the arena (room()), and the arena
			 * carries the deadline */
			if (p->over || !room(p, 0) || assay_arena_check(p->a))
				return assay_err_set(err, ASSAY_ETOOBIG, p->o->source, (int)line, 0,
						     "%s", assay_arena_expired(p->a)
							     ? "the text could not be read in the "
							       "time allowed"
							     : "the text is larger than the memory "
							       "allowed for it");
		}
		const char *next = le ? le + 1 : end;
		const char *s = ls, *e = le ? le : end;

		line++;
		if (!le)
			le = end;
		strip(&s, &e);
		if (s == e || *s == '#' || *s == ';') {
			/* empty_lines_in_values: a blank line (not a comment) may belong to a value */
			if (s == e && cur)
				add_value(p, cur, "", 0, true);
			ls = next;
			continue;
		}
		size_t indent = chars(ls, (size_t)(s - ls));
		if (sect >= 0 && cur && indent > indent_level) {
			add_value(p, cur, s, (size_t)(e - s), true);
			ls = next;
			continue;
		}
		indent_level = indent;
		const char *close = *s == '[' ? header_end(s, e) : NULL;
		if (close) {
			const char *name = s + 1;
			size_t n = (size_t)(close - name);

			cur = NULL;
			if (n == 7 && !memcmp(name, "DEFAULT", 7)) {
				sect = 0;
			} else {
				if (sec_exists(p, name, n))
					return fail(p, err, line, ls, s,
						    "section '%.*s' already exists%.*s", name, n,
						    "", 0);
				size_t k = add_section(p, name, n);

				if (k == (size_t)-1)
					continue; /* past the limit: stops at the loop's top */
				sect = (long)k;
			}
			ls = next;
			continue;
		}
		if (sect < 0)
			return fail(p, err, line, ls, s, "file contains no section headers%.*s%.*s",
				    "", 0, "", 0);
		const char *d = s;
		while (d < e && *d != '=' && *d != ':')
			d++;
		if (d == e) {
			if (!have_first) {
				fail(p, &first, line, ls, s,
				     "not a section, option or continuation line: '%.*s'%.*s", s,
				     (size_t)(e - s), "", 0);
				have_first = true;
			}
			cur = NULL;
			ls = next;
			continue;
		}
		const char *ks = s, *ke = d, *vs = d + 1, *ve = e;
		strip(&ks, &ke);
		strip(&vs, &ve);
		if (ks == ke && !have_first) {
			fail(p, &first, line, ls, d, "an option needs a name%.*s%.*s", "", 0, "", 0);
			have_first = true;
		}
		size_t klen = transform(p, ks, (size_t)(ke - ks));
		if (p->over)
			continue;
		const char *key = p->pool.ptr + p->pool.len - klen;
		if (opt_exists(p, (size_t)sect, key, klen)) {
			const struct section *sc = &p->sections[sect];

			return fail(p, err, line, ls, ks,
				    "option '%.*s' in section '%.*s' already exists", key, klen,
				    sect ? sc->name : "DEFAULT", sect ? sc->len : 7);
		}
		if (!(cur = add_option(p, (size_t)sect, klen)))
			continue;
		add_value(p, cur, vs, (size_t)(ve - vs), false);
		if (ks == ke)
			cur = NULL; /* configparser continues no value of an unnamed option */
		ls = next;
	}
	if (have_first) {
		if (err && !err->code)
			*err = first;
		return ASSAY_EPARSE;
	}
	return 0;
}

static assay_value value_of(const struct ini *p, assay_arena *a, const struct option *o)
{
	const char *v = p->pool.ptr + o->voff;
	size_t n = o->vlen;

	while (n && v[n - 1] == '\n')
		n--;
	return assay_value_string(a, v, n);
}

/* The document, made in `a`; stops (incomplete) once assay_arena_check() says the limit or
 * the deadline has passed, checked every 4096 values. */
static assay_value build(struct ini *p, assay_arena *a, bool *stopped)
{
	assay_value doc = assay_value_object();
	const struct section *def = &p->sections[0];
	size_t steps = 0;

	for (size_t i = def->nopt ? 0 : 1; i < p->nsec; i++) {
		const struct section *s = &p->sections[i];
		assay_value obj = assay_value_object();

		for (size_t j = 0; j < s->nopt; j++) {
			const struct option *o = &p->options[s->options[j]];

			if (++steps % 4096 == 0 && assay_arena_check(a))
				return *stopped = true, doc;
			assay_object_append(a, &obj, assay_value_string(a, key_of(p, o), o->klen),
					    value_of(p, a, o));
		}
		for (size_t j = 0; i && j < def->nopt; j++) {
			const struct option *o = &p->options[def->options[j]];

			if (++steps % 4096 == 0 && assay_arena_check(a))
				return *stopped = true, doc;
			if (!opt_exists(p, i, key_of(p, o), o->klen))
				assay_object_append(a, &obj,
						    assay_value_string(a, key_of(p, o), o->klen),
						    value_of(p, a, o));
		}
		assay_object_append(a, &doc,
				    i ? assay_value_string(a, s->name, s->len)
				      : assay_value_strz(a, "DEFAULT"),
				    obj);
		if (++steps % 4096 == 0 && assay_arena_check(a))
			return *stopped = true, doc;
	}
	return doc;
}

int assay_ini_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
		    const assay_ini_opts *opts, assay_err *err)
{
	static const assay_ini_opts defaults = ASSAY_INI_OPTS_INIT;
	struct ini p = { .o = opts ? opts : &defaults, .a = a, .pool = ASSAY_BUF_INIT };
	const uint8_t *bad = u8_check((const uint8_t *)text, len);
	int rc;

	*out = assay_value_null();
	if (bad) {
		const char *b = (const char *)bad, *ls = text;
		size_t line = 1;

		for (const char *q = text; q < b; q++)
			if (*q == '\n') {
				line++;
				ls = q + 1;
			}
		return fail(&p, err, line, ls, b, "not valid UTF-8%.*s%.*s", "", 0, "", 0);
	}
	if (add_section(&p, "DEFAULT", 7) == (size_t)-1)
		rc = assay_err_set(err, ASSAY_ETOOBIG, p.o->source, 0, 0,
				   "the text is larger than the memory allowed for it");
	else
		rc = read_lines(&p, text, len, err);
	if (!rc) {
		bool stopped = false;

		*out = build(&p, a, &stopped);
		if (stopped || assay_arena_over(a)) {
			*out = assay_value_null();
			rc = assay_err_set(err, ASSAY_ETOOBIG, p.o->source, 0, 0, "%s",
					   assay_arena_expired(a)
						   ? "the document could not be made in the time "
						     "allowed"
						   : "the document is larger than the memory allowed "
						     "for it");
		}
	}
	assay_buf_release(&p.pool);
	assay_htab_release(&p.opt_index);
	assay_htab_release(&p.sec_index);
	for (size_t i = 0; i < p.nsec; i++)
		free(p.sections[i].options);
	free(p.sections);
	free(p.options);
	assay_arena_uncharge(a, p.charged);
	return rc;
}
