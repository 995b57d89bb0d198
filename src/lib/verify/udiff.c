/*
 * Unified diffs of two texts, byte for byte what GNU diff -u (diffutils 3.x) prints for them when
 * given --label, so that a failed attribute's diff reads like the diff everyone knows and the
 * tests can hold it against the real tool.
 *
 * Key decisions:
 * - The same choice as GNU diff, not just some minimal script. Two texts usually have many
 *   minimal edit scripts, and which one is printed depends on the details of the algorithm, so
 *   this file follows diff's pipeline step by step:
 *     1. the identical ends of the texts are set aside, keeping `context` lines of them (diff's
 *        "horizon") so that changes can still slide into them;
 *     2. the remaining lines are hashed into equivalence classes; a line that occurs nowhere on
 *        the other side is a change for sure and is set aside, and a line that occurs very often
 *        there is set aside too when it sits inside a run of such lines (diff's provisional
 *        discards, which keep runs of junk lines from attracting spurious matches);
 *     3. the rest is matched by the divide and conquer of Myers' paper, section 4.2 (search
 *        from both ends at once, split at the middle snake, recurse);
 *     4. runs of changes are slid over equal lines to join their neighbours, as low as they can
 *        go, or up to where they line up with a change of the other side;
 *     5. hunks are cut where more than 2 * context unchanged lines separate two changes.
 *   The code is written from those descriptions; no diffutils code is copied.
 * - Lines end at '\n' and keep it. A last line without '\n' is a line of its own kind: it equals
 *   only the other text's last line without '\n' (so "a" and "a\n" differ), and printing it adds
 *   "\n\\ No newline at end of file\n", as diff does.
 * - Work is bounded. The searches of step 3 share a budget of ASSAY_UDIFF_MAX_COST steps (one
 *   per diagonal visited and per line compared). When it runs out, the search in progress
 *   returns the furthest point it reached, and every sub-problem left is answered as "remove all
 *   of these lines, add all of those" after trimming its equal ends: correct, not minimal.
 *   Below the budget the script is minimal, except where step 2's provisional discards cost
 *   minimality, as they do in diff. diff's own "too expensive" cut-off (after 4096 edit steps of
 *   one search) is not copied: texts that far apart are past our budget anyway.
 * - Lines are put in classes through util/hash.h's table and keyed hash (SipHash under a
 *   per-process key), so no text can be made of lines that collide: with the unkeyed FNV
 *   table used before, 250,000 chosen lines (2.25 MB) took 101 s.
 * - The verification budget's time: assay_udiff_until() reads the clock every 4096 lines
 *   classed and every 65,536 search steps, and past the deadline gives up, leaving `out` as
 *   it was (the verifiers then fail the attribute with that reason).
 * - A capped `out` (assay_buf max) stops the printing once the cap is reached; the caller cuts
 *   and marks the text (the verifiers cut at 64 KiB).
 *
 * Refuses: binary detection (bytes are copied as they are, NULs included), diff's options (-w,
 * -B, -i ...; the text verifier normalises before calling), timestamps in the header, function
 * names in hunk headers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assay/model.h"
#include "assay/udiff.h"
#include "util/hash.h"
#include "util/banned.h"

/* A line number or a diagonal number (which can be negative). */
typedef ptrdiff_t lnum;

struct side {
	const char *text;
	size_t len;
	bool incomplete;      /* the last line has no '\n' */
	lnum nlines;
	size_t *start;        /* nlines + 1 line starts; start[nlines] == len */
	char *flags;          /* nlines + 2 change flags ... */
	char *changed;        /* ... seen from index 1: changed[-1] and changed[nlines] stay 0 */

	/* The lines the comparison looks at: [first, first + n). */
	lnum first;
	lnum n;
	lnum *equivs;         /* equivalence class of each of those lines (from 1) */
	lnum *kept;           /* classes of the lines left after discarding ... */
	lnum *realindex;      /* ... and their index among the n */
	lnum nkept;
};

struct search {
	const lnum *xv;       /* kept classes of a */
	const lnum *yv;       /* kept classes of b */
	lnum *fd;             /* furthest x per diagonal, forward search */
	lnum *bd;             /* furthest x per diagonal, backward search */
	struct side *x;
	struct side *y;
	long long budget;
	double deadline;      /* CLOCK_MONOTONIC seconds, 0: none */
	long long unchecked;  /* steps since the clock was last read */
	bool expired;         /* the deadline passed: the budget was set to 0 */
};

struct change {
	lnum line0;           /* first line of a involved (0-based, all lines counted) */
	lnum line1;           /* first line of b involved */
	lnum deleted;
	lnum inserted;
};

/*
 * Lines
 */

static void split_lines(struct side *s, const char *text, size_t len)
{
	lnum n = 0;
	const char *p = text, *end = text + len;

	s->text = text;
	s->len = len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	s->incomplete = len && text[len - 1] != '\n';
	if (s->incomplete)
		n++;
	s->nlines = n;
	s->start = assay_xmalloc(((size_t)n + 1) * sizeof(*s->start));
	size_t off = 0;
	for (lnum i = 0; i < n; i++) {
		s->start[i] = off;
		const char *nl = memchr(text + off, '\n', len - off);
		off = nl ? (size_t)(nl - text) + 1 : len;
	}
	s->start[n] = len;
	s->flags = assay_xcalloc((size_t)n + 2, 1);
	s->changed = s->flags + 1;
}

static const char *line_ptr(const struct side *s, lnum i)
{
	return s->text + s->start[i];
}

static size_t line_len(const struct side *s, lnum i)
{
	return s->start[i + 1] - s->start[i];
}

/* The byte at `i` of the text as diff reads it: with a '\n' after an incomplete last line. */
static unsigned char vbyte(const struct side *s, size_t i)
{
	return i < s->len ? (unsigned char)s->text[i] : '\n';
}

static size_t vlen(const struct side *s)
{
	return s->len + s->incomplete;
}

/* The index of the line starting at byte `off` (a line start, or the end of the text). */
static lnum line_at(const struct side *s, size_t off)
{
	lnum lo = 0, hi = s->nlines;

	if (off >= s->len)
		return s->nlines;
	while (lo < hi) {
		lnum mid = lo + (hi - lo) / 2;
		if (s->start[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Step 1: the identical ends. Works on bytes, as diff does, which matters for where the kept
 * horizon begins and ends.
 */
static void trim_identical_ends(struct side *a, struct side *b, lnum horizon)
{
	size_t n0 = vlen(a), n1 = vlen(b);
	size_t lim = n0 < n1 ? n0 : n1;
	size_t k = 0;

	while (k < lim && vbyte(a, k) == vbyte(b, k))
		k++;
	/* A '\n' that one side only pretends to have is not part of the common prefix. */
	if ((a->len < k) != (b->len < k))
		k--;
	/* Back to the start of the line, then `horizon` lines further back. */
	size_t p = k;
	lnum hor = horizon;
	while (p && (vbyte(a, p - 1) != '\n' || hor-- > 0))
		p--;

	size_t s0 = n0, s1 = n1;
	if (a->incomplete == b->incomplete) {
		/* The suffix may not reach into the prefix on either side. */
		size_t stop = p + (n0 < n1 ? 0 : n0 - n1);
		while (s0 != stop) {
			s0--;
			s1--;
			if (vbyte(a, s0) != vbyte(b, s1)) {
				s0++;
				s1++;
				break;
			}
		}
		/* Keep the rest of a partly equal line, then `horizon` whole lines. */
		size_t from = s0;
		bool at_line_start = (s0 == 0 || vbyte(a, s0 - 1) == '\n') &&
				     (s1 == 0 || vbyte(b, s1 - 1) == '\n');
		lnum keep = horizon + !at_line_start;
		while (keep-- > 0 && s0 != n0)
			while (vbyte(a, s0++) != '\n')
				;
		s1 += s0 - from;
	}

	a->first = line_at(a, p);
	b->first = line_at(b, p);
	a->n = line_at(a, s0) - a->first;
	b->n = line_at(b, s1) - b->first;
}

/*
 * Step 2: equivalence classes and discards.
 */

/* True once `deadline` (0: none) has passed. */
static bool past(double deadline)
{
	return deadline > 0 && assay_now() > deadline;
}

/* Gives every looked-at line of both sides a class number (from 1); returns the count + 1, or
 * 0 when the deadline passed. */
static lnum classify(struct side *sd[2], double deadline)
{
	size_t total = (size_t)sd[0]->n + (size_t)sd[1]->n;
	assay_htab tab = ASSAY_HTAB_INIT;
	struct { const char *p; size_t len; } *cls = assay_xmalloc((total + 1) * sizeof(*cls));
	lnum ncls = 1;

	assay_htab_reserve(&tab, total);
	for (int f = 0; f < 2; f++) {
		struct side *s = sd[f];
		s->equivs = assay_xmalloc(((size_t)s->n + 1) * sizeof(*s->equivs));
		for (lnum i = 0; i < s->n; i++) {
			const char *p = line_ptr(s, s->first + i);
			size_t len = line_len(s, s->first + i);
			uint64_t h = assay_hash(p, len);
			assay_htab_it it;
			size_t c;

			if (!(i & 4095) && past(deadline)) {
				ncls = 0;
				goto out;
			}
			for (c = assay_htab_first(&tab, h, &it); c != ASSAY_HTAB_END;
			     c = assay_htab_next(&tab, &it))
				if (cls[c].len == len && !memcmp(cls[c].p, p, len))
					break;
			if (c == ASSAY_HTAB_END) {
				c = (size_t)ncls++;
				cls[c].p = p;
				cls[c].len = len;
				assay_htab_add(&tab, h, c);
			}
			s->equivs[i] = (lnum)c;
		}
	}
out:
	assay_htab_release(&tab);
	free(cls);
	return ncls;
}

/*
 * Within a run of discardable lines (1 = matches nothing, 2 = matches many), keeps the
 * provisional ones (2) only where they are well inside the run: not at its ends, not forming a
 * long stretch of their own, not where they would be a large share of the run.
 */
static void settle_provisional(char *d, lnum n)
{
	for (lnum i = 0; i < n; i++) {
		if (d[i] == 2)
			d[i] = 0;
		if (d[i] != 1)
			continue;

		lnum j = i, prov = 0;
		while (j < n && d[j]) {
			prov += d[j] == 2;
			j++;
		}
		while (j > i && d[j - 1] == 2) {
			d[--j] = 0;
			prov--;
		}
		lnum len = j - i;

		if (prov * 4 > len) {
			for (lnum k = i; k < j; k++)
				if (d[k] == 2)
					d[k] = 0;
			i = j - 1;
			continue;
		}

		/* Stretches of `minimum` provisionals or more (about sqrt(len / 4)) go. */
		lnum minimum = 1;
		for (lnum t = len >> 2; (t >>= 2) > 0;)
			minimum <<= 1;
		minimum++;
		for (lnum k = i; k < j;) {
			if (d[k] != 2) {
				k++;
				continue;
			}
			lnum e = k;
			while (e < j && d[e] == 2)
				e++;
			if (e - k >= minimum)
				memset(d + k, 0, (size_t)(e - k));
			k = e;
		}

		/* From each end, drop provisionals until three definite discards in a row, or a
		 * definite one at least 8 lines in. */
		for (int dir = 0; dir < 2; dir++) {
			lnum consec = 0;
			for (lnum k = 0; k < len; k++) {
				char *c = dir ? &d[j - 1 - k] : &d[i + k];
				if (k >= 8 && *c == 1)
					break;
				if (*c == 2) {
					*c = 0;
					consec = 0;
				} else if (*c == 0) {
					consec = 0;
				} else if (++consec == 3) {
					break;
				}
			}
		}
		i = j - 1;
	}
}

static void discard_lines(struct side *sd[2], lnum ncls)
{
	lnum *count[2];
	char *disc[2];

	for (int f = 0; f < 2; f++) {
		count[f] = assay_xcalloc((size_t)ncls, sizeof(lnum));
		for (lnum i = 0; i < sd[f]->n; i++)
			count[f][sd[f]->equivs[i]]++;
	}
	for (int f = 0; f < 2; f++) {
		struct side *s = sd[f];
		const lnum *other = count[1 - f];
		lnum many = 5;

		/* "Many" grows with about the square root of the number of lines. */
		for (lnum t = s->n / 64; (t >>= 2) > 0;)
			many *= 2;
		disc[f] = assay_xcalloc((size_t)s->n + 1, 1);
		for (lnum i = 0; i < s->n; i++) {
			lnum m = other[s->equivs[i]];
			disc[f][i] = m == 0 ? 1 : m > many ? 2 : 0;
		}
	}
	for (int f = 0; f < 2; f++) {
		struct side *s = sd[f];
		settle_provisional(disc[f], s->n);
		s->kept = assay_xmalloc(((size_t)s->n + 1) * sizeof(*s->kept));
		s->realindex = assay_xmalloc(((size_t)s->n + 1) * sizeof(*s->realindex));
		s->nkept = 0;
		for (lnum i = 0; i < s->n; i++) {
			if (disc[f][i]) {
				s->changed[s->first + i] = 1;
			} else {
				s->kept[s->nkept] = s->equivs[i];
				s->realindex[s->nkept++] = i;
			}
		}
		free(disc[f]);
		free(count[f]);
	}
}

/*
 * Step 3: Myers' middle-snake divide and conquer on the kept lines.
 */

struct split {
	lnum x;
	lnum y;
};

/* Spends the search budget; true when it is gone (or the deadline passed). */
static bool spend(struct search *s, long long steps)
{
	s->budget -= steps;
	s->unchecked += steps;
	if (s->unchecked >= 65536) {
		s->unchecked = 0;
		if (past(s->deadline)) {
			s->expired = true;
			s->budget = 0;
		}
	}
	return s->budget <= 0;
}

/*
 * Finds where a shortest edit script of x[xoff, xlim) into y[yoff, ylim) crosses its middle,
 * searching forward from the top-left corner and backward from the bottom-right one until the
 * two meet. The ends must not match (compare() trims them). Past the budget, returns the point
 * either search has pushed furthest.
 */
static struct split middle_snake(struct search *s, lnum xoff, lnum xlim, lnum yoff, lnum ylim)
{
	lnum *fd = s->fd, *bd = s->bd;
	const lnum *xv = s->xv, *yv = s->yv;
	const lnum dmin = xoff - ylim, dmax = xlim - yoff;
	const lnum fmid = xoff - yoff, bmid = xlim - ylim;
	lnum fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	const bool odd = (fmid - bmid) & 1;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (;;) {
		long long steps = 0;

		/* One more edit on every forward diagonal, then follow the snake. The diagonals
		 * just outside the range get sentinels that lose every comparison. */
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			fmin++;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			fmax--;
		for (lnum d = fmax; d >= fmin; d -= 2) {
			lnum lo = fd[d - 1], hi = fd[d + 1];
			lnum x = lo >= hi ? lo + 1 : hi;
			lnum x0 = x, y = x - d;
			while (x < xlim && y < ylim && xv[x] == yv[y])
				x++, y++;
			steps += 1 + (x - x0);
			fd[d] = x;
			if (odd && bmin <= d && d <= bmax && bd[d] <= x) {
				spend(s, steps);
				return (struct split){ x, y };
			}
		}

		if (bmin > dmin)
			bd[--bmin - 1] = PTRDIFF_MAX;
		else
			bmin++;
		if (bmax < dmax)
			bd[++bmax + 1] = PTRDIFF_MAX;
		else
			bmax--;
		for (lnum d = bmax; d >= bmin; d -= 2) {
			lnum lo = bd[d - 1], hi = bd[d + 1];
			lnum x = lo < hi ? lo : hi - 1;
			lnum x0 = x, y = x - d;
			while (x > xoff && y > yoff && xv[x - 1] == yv[y - 1])
				x--, y--;
			steps += 1 + (x0 - x);
			bd[d] = x;
			if (!odd && fmin <= d && d <= fmax && x <= fd[d]) {
				spend(s, steps);
				return (struct split){ x, y };
			}
		}

		if (!spend(s, steps))
			continue;

		/* Out of budget: take the point closest to the far corner in either search. */
		lnum fbest = -1, fx = xoff;
		for (lnum d = fmax; d >= fmin; d -= 2) {
			lnum x = fd[d] < xlim ? fd[d] : xlim;
			lnum y = x - d;
			if (y > ylim)
				x = ylim + d, y = ylim;
			if (x + y > fbest)
				fbest = x + y, fx = x;
		}
		lnum bbest = PTRDIFF_MAX, bx = xlim;
		for (lnum d = bmax; d >= bmin; d -= 2) {
			lnum x = bd[d] > xoff ? bd[d] : xoff;
			lnum y = x - d;
			if (y < yoff)
				x = yoff + d, y = yoff;
			if (x + y < bbest)
				bbest = x + y, bx = x;
		}
		if ((xlim + ylim) - bbest < fbest - (xoff + yoff))
			return (struct split){ fx, fbest - fx };
		return (struct split){ bx, bbest - bx };
	}
}

static void mark_x(struct search *s, lnum i)
{
	s->x->changed[s->x->first + s->x->realindex[i]] = 1;
}

static void mark_y(struct search *s, lnum i)
{
	s->y->changed[s->y->first + s->y->realindex[i]] = 1;
}

/* Marks the changed lines of x[xoff, xlim) against y[yoff, ylim). Recursion depth is about
 * log2 of the edit distance: each split halves it. */
static void compare(struct search *s, lnum xoff, lnum xlim, lnum yoff, lnum ylim)
{
	const lnum *xv = s->xv, *yv = s->yv;

	while (xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff])
		xoff++, yoff++;
	while (xoff < xlim && yoff < ylim && xv[xlim - 1] == yv[ylim - 1])
		xlim--, ylim--;

	if (xoff == xlim || yoff == ylim || s->budget <= 0) {
		while (xoff < xlim)
			mark_x(s, xoff++);
		while (yoff < ylim)
			mark_y(s, yoff++);
		return;
	}
	struct split mid = middle_snake(s, xoff, xlim, yoff, ylim);
	compare(s, xoff, mid.x, yoff, mid.y);
	compare(s, mid.x, xlim, mid.y, ylim);
}

/*
 * Step 4: slide runs of changes over equal lines, on one side at a time. A run [lo, hi) can move
 * up one line when the line above it equals its last line (and down when the line below equals
 * its first): the script stays correct and as short. `j` follows the line of the other side that
 * lines up with line `hi`, so we can tell when the run's end meets a change over there.
 */
struct run {
	char *chg;            /* this side's change flags (index -1 and n readable, and 0) */
	const char *other;    /* the other side's */
	const lnum *eq;       /* this side's classes */
	lnum n;
	lnum lo;
	lnum hi;
	lnum j;
};

/* One line up; with `absorb`, takes in a run it comes to touch. */
static void run_up(struct run *r, bool absorb)
{
	r->chg[--r->lo] = 1;
	r->chg[--r->hi] = 0;
	while (absorb && r->chg[r->lo - 1])
		r->lo--;
	do
		r->j--;
	while (r->other[r->j]);
}

/* One line down, taking in a run it comes to touch; true if its end then meets a change of the
 * other side. */
static bool run_down(struct run *r)
{
	bool meets = false;

	r->chg[r->lo++] = 0;
	r->chg[r->hi++] = 1;
	while (r->chg[r->hi])
		r->hi++;
	while (r->other[++r->j])
		meets = true;
	return meets;
}

static void slide_runs(char *chg, const char *other, const lnum *eq, lnum n)
{
	struct run r = { chg, other, eq, n, 0, 0, 0 };
	lnum i = 0;

	for (;;) {
		/* To the next run; j steps over the other side's changes and one matched line per
		 * unchanged line here. */
		for (; i < n && !chg[i]; i++)
			while (other[r.j++])
				;
		if (i == n)
			break;
		r.lo = i;
		r.hi = i + 1;
		while (chg[r.hi])
			r.hi++;
		while (other[r.j])
			r.j++;

		/* Up as far as it goes, then down as far as it goes, joining runs on the way,
		 * until a pass joins nothing. `aligned` is the lowest end position at which the
		 * run meets a change of the other side (n if none). */
		lnum len, aligned;
		do {
			len = r.hi - r.lo;
			while (r.lo > 0 && eq[r.lo - 1] == eq[r.hi - 1])
				run_up(&r, true);
			aligned = other[r.j - 1] ? r.hi : n;
			while (r.hi != n && eq[r.lo] == eq[r.hi])
				if (run_down(&r))
					aligned = r.hi;
		} while (len != r.hi - r.lo);

		/* Low is the default; but lined up with a change of the other side reads better. */
		while (aligned < r.hi)
			run_up(&r, false);
		i = r.hi;
	}
}

/*
 * Step 5: output.
 */

static bool full(const assay_buf *out)
{
	return out->max && out->len >= out->max;
}

static void print_line(assay_buf *out, char mark, const struct side *s, lnum i)
{
	assay_buf_addch(out, mark);
	assay_buf_add(out, line_ptr(s, i), line_len(s, i));
	if (i == s->nlines - 1 && s->incomplete)
		assay_buf_adds(out, "\n\\ No newline at end of file\n");
}

/* A hunk header range: "l,n", "l" when n is 1, and for no lines the line before them, ",0". */
static void print_range(assay_buf *out, lnum first, lnum last)
{
	lnum a = first + 1, b = last + 1;

	if (b < a)
		assay_buf_addf(out, "%td,0", b);
	else if (b == a)
		assay_buf_addf(out, "%td", b);
	else
		assay_buf_addf(out, "%td,%td", a, b - a + 1);
}

static size_t build_script(struct change **out, const struct side *a, const struct side *b)
{
	size_t n = 0, alloc = 16;
	struct change *ch = assay_xmalloc(alloc * sizeof(*ch));
	lnum i0 = 0, i1 = 0;

	while (i0 < a->nlines || i1 < b->nlines) {
		if ((i0 < a->nlines && a->changed[i0]) || (i1 < b->nlines && b->changed[i1])) {
			struct change c = { i0, i1, 0, 0 };
			while (i0 < a->nlines && a->changed[i0])
				i0++;
			while (i1 < b->nlines && b->changed[i1])
				i1++;
			c.deleted = i0 - c.line0;
			c.inserted = i1 - c.line1;
			if (n == alloc) {
				alloc *= 2;
				ch = assay_xrealloc(ch, alloc * sizeof(*ch));
			}
			ch[n++] = c;
		}
		i0++;
		i1++;
	}
	*out = ch;
	return n;
}

static void print_hunks(assay_buf *out, const struct side *a, const struct side *b,
			const struct change *ch, size_t nch, lnum context)
{
	for (size_t h = 0; h < nch && !full(out);) {
		size_t e = h;
		while (e + 1 < nch &&
		       ch[e + 1].line0 - (ch[e].line0 + ch[e].deleted) < 2 * context + 1)
			e++;

		lnum first0 = ch[h].line0 - context, first1 = ch[h].line1 - context;
		lnum last0 = ch[e].line0 + ch[e].deleted - 1 + context;
		lnum last1 = ch[e].line1 + ch[e].inserted - 1 + context;
		if (first0 < 0)
			first0 = 0;
		if (first1 < 0)
			first1 = 0;
		if (last0 > a->nlines - 1)
			last0 = a->nlines - 1;
		if (last1 > b->nlines - 1)
			last1 = b->nlines - 1;

		assay_buf_adds(out, "@@ -");
		print_range(out, first0, last0);
		assay_buf_adds(out, " +");
		print_range(out, first1, last1);
		assay_buf_adds(out, " @@\n");

		lnum i = first0, j = first1;
		size_t next = h;
		while ((i <= last0 || j <= last1) && !full(out)) {
			if (next > e || i < ch[next].line0) {
				print_line(out, ' ', a, i++);
				j++;
				continue;
			}
			for (lnum k = 0; k < ch[next].deleted; k++)
				print_line(out, '-', a, i++);
			for (lnum k = 0; k < ch[next].inserted; k++)
				print_line(out, '+', b, j++);
			next++;
		}
		h = e + 1;
	}
}

static void side_release(struct side *s)
{
	free(s->start);
	free(s->flags);
	free(s->equivs);
	free(s->kept);
	free(s->realindex);
}

void assay_udiff(assay_buf *out, const char *a, size_t alen, const char *b, size_t blen,
		 const char *a_label, const char *b_label, int context)
{
	assay_udiff_until(out, a, alen, b, blen, a_label, b_label, context, 0);
}

int assay_udiff_until(assay_buf *out, const char *a, size_t alen, const char *b, size_t blen,
		      const char *a_label, const char *b_label, int context, double deadline)
{
	struct side sa = { 0 }, sb = { 0 };
	struct side *sd[2] = { &sa, &sb };
	struct change *ch = NULL;
	int rc = 0;

	if (alen == blen && (alen == 0 || !memcmp(a, b, alen)))
		return 0;
	if (past(deadline))
		return ASSAY_ETOOBIG;
	if (context < 0)
		context = 0;
	split_lines(&sa, alen ? a : "", alen);
	split_lines(&sb, blen ? b : "", blen);
	trim_identical_ends(&sa, &sb, context);

	lnum ncls = classify(sd, deadline);
	if (!ncls) {
		rc = ASSAY_ETOOBIG;
		goto out;
	}
	discard_lines(sd, ncls);

	/* Diagonals run from -(nkept of b) - 1 to nkept of a + 1. */
	size_t ndiag = (size_t)sa.nkept + (size_t)sb.nkept + 3;
	lnum *diag = assay_xmalloc(2 * ndiag * sizeof(*diag));
	struct search s = {
		.xv = sa.kept,
		.yv = sb.kept,
		.fd = diag + sb.nkept + 1,
		.bd = diag + ndiag + sb.nkept + 1,
		.x = &sa,
		.y = &sb,
		.budget = ASSAY_UDIFF_MAX_COST,
		.deadline = deadline,
	};
	compare(&s, 0, sa.nkept, 0, sb.nkept);
	free(diag);
	if (s.expired || past(deadline)) {
		rc = ASSAY_ETOOBIG;
		goto out;
	}

	slide_runs(sa.changed + sa.first, sb.changed + sb.first, sa.equivs, sa.n);
	slide_runs(sb.changed + sb.first, sa.changed + sa.first, sb.equivs, sb.n);

	size_t nch = build_script(&ch, &sa, &sb);
	if (nch) {
		assay_buf_addf(out, "--- %s\n+++ %s\n", a_label ? a_label : "",
			       b_label ? b_label : "");
		print_hunks(out, &sa, &sb, ch, nch, context);
	}
out:
	free(ch);
	side_release(&sa);
	side_release(&sb);
	return rc;
}
