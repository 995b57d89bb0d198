/*
 * Python's difflib.SequenceMatcher over sequences of class ids (equal ids = equal elements),
 * with its matching blocks, opcodes and grouped opcodes, and difflib.unified_diff over lines.
 * deepdiff aligns lists of scalars with SequenceMatcher(autojunk=False) and writes the "diff" of
 * multi-line strings with unified_diff (whose matcher has autojunk on), so both must be exactly
 * Python's, down to which of several equally long matches wins.
 *
 * Key decisions (each is CPython's Lib/difflib.py, read for this):
 * - find_longest_match: the longest block, earliest in a, then earliest in b; with autojunk,
 *   elements of b more frequent than 1% + 1 of a b of 200 or more elements are "popular": left
 *   out of the index, but a block may still be extended over them at both ends.
 * - get_matching_blocks: the longest match, then the same on each side of it, collected and
 *   sorted, adjacent blocks collapsed, ending with (la, lb, 0).
 * - The index is per class: positions of b grouped by id, ascending; the DP keeps two rows of
 *   lengths stamped with a generation number, so nothing is cleared between rows.
 *
 * Refuses to: take a junk predicate (deepdiff passes none).
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_int.h"
#include "util/banned.h"

struct matcher {
	const uint32_t *a, *b;
	size_t la, lb;
	size_t *off;     /* per class: start of its positions in b2j (nclass + 1) */
	size_t *b2j;     /* positions in b, grouped by class, ascending */
	bool *popular;   /* per class (autojunk), or NULL */
	size_t *len1, *len2;
	uint64_t *gen1, *gen2;
	uint64_t gen;
};

static void matcher_init(struct matcher *m, const uint32_t *a, size_t la, const uint32_t *b,
			 size_t lb, uint32_t nclass, bool autojunk)
{
	size_t *fill;

	memset(m, 0, sizeof(*m));
	m->a = a, m->la = la, m->b = b, m->lb = lb;
	m->off = assay_xcalloc((size_t)nclass + 1, sizeof(*m->off));
	m->b2j = assay_xmalloc((lb ? lb : 1) * sizeof(*m->b2j));
	for (size_t j = 0; j < lb; j++)
		m->off[b[j] + 1]++;
	if (autojunk && lb >= 200) {
		size_t ntest = lb / 100 + 1;

		m->popular = assay_xcalloc(nclass ? nclass : 1, sizeof(*m->popular));
		for (uint32_t k = 0; k < nclass; k++)
			m->popular[k] = m->off[k + 1] > ntest;
	}
	for (uint32_t k = 0; k < nclass; k++)
		m->off[k + 1] += m->off[k];
	fill = assay_xmalloc(((size_t)nclass + 1) * sizeof(*fill));
	memcpy(fill, m->off, ((size_t)nclass + 1) * sizeof(*fill));
	for (size_t j = 0; j < lb; j++)
		m->b2j[fill[b[j]]++] = j;
	free(fill);
	m->len1 = assay_xcalloc(lb + 1, sizeof(*m->len1));
	m->len2 = assay_xcalloc(lb + 1, sizeof(*m->len2));
	m->gen1 = assay_xcalloc(lb + 1, sizeof(*m->gen1));
	m->gen2 = assay_xcalloc(lb + 1, sizeof(*m->gen2));
}

static void matcher_release(struct matcher *m)
{
	free(m->off);
	free(m->b2j);
	free(m->popular);
	free(m->len1);
	free(m->len2);
	free(m->gen1);
	free(m->gen2);
}

static bool indexed(const struct matcher *m, uint32_t cls)
{
	return !m->popular || !m->popular[cls];
}

static assay_diff__block longest_match(struct matcher *m, size_t alo, size_t ahi, size_t blo,
				       size_t bhi)
{
	assay_diff__block best = { alo, blo, 0 };
	size_t *plen = m->len1, *clen = m->len2, *tl;
	uint64_t *pgen = m->gen1, *cgen = m->gen2, *tg;

	m->gen++; /* a stamp no cell carries: the row before alo is empty */
	for (size_t i = alo; i < ahi; i++) {
		uint32_t cls = m->a[i];
		uint64_t prev = m->gen++;

		if (indexed(m, cls)) {
			const size_t *p = m->b2j + m->off[cls], *end = m->b2j + m->off[cls + 1];
			size_t lo = 0, hi = (size_t)(end - p);

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (p[mid] < blo)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (p += lo; p < end && *p < bhi; p++) {
				size_t j = *p;
				size_t k = j > 0 && pgen[j - 1] == prev ? plen[j - 1] + 1 : 1;

				clen[j] = k;
				cgen[j] = m->gen;
				if (k > best.k) {
					best.i = i + 1 - k;
					best.j = j + 1 - k;
					best.k = k;
				}
			}
		}
		tl = plen, plen = clen, clen = tl;
		tg = pgen, pgen = cgen, cgen = tg;
	}
	/* difflib extends the block over elements left out of the index (popular ones) */
	while (best.i > alo && best.j > blo && m->a[best.i - 1] == m->b[best.j - 1])
		best.i--, best.j--, best.k++;
	while (best.i + best.k < ahi && best.j + best.k < bhi &&
	       m->a[best.i + best.k] == m->b[best.j + best.k])
		best.k++;
	return best;
}

static int block_cmp(const void *x, const void *y)
{
	const assay_diff__block *a = x, *b = y;

	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	if (a->j != b->j)
		return a->j < b->j ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

assay_diff__block *assay_diff__matching_blocks(const struct assay_diff__seqs *s, size_t *nr)
{
	const uint32_t *a = s->a, *b = s->b;
	size_t la = s->la, lb = s->lb;
	uint32_t nclass = s->nclass;
	bool autojunk = s->autojunk;
	struct matcher m;
	size_t nq = 1, cap = 16, nb = 0, bcap = 16, out = 0;
	size_t (*q)[4];
	assay_diff__block *blocks;

	matcher_init(&m, a, la, b, lb, nclass, autojunk);
	q = assay_xmalloc(cap * sizeof(*q));
	blocks = assay_xmalloc(bcap * sizeof(*blocks));
	q[0][0] = 0, q[0][1] = la, q[0][2] = 0, q[0][3] = lb;
	while (nq) {
		size_t alo = q[nq - 1][0], ahi = q[nq - 1][1], blo = q[nq - 1][2], bhi = q[nq - 1][3];
		assay_diff__block x = longest_match(&m, alo, ahi, blo, bhi);

		nq--;
		if (!x.k)
			continue;
		if (nb + 1 >= bcap)
			blocks = assay_xrealloc(blocks, (bcap *= 2) * sizeof(*blocks));
		blocks[nb++] = x;
		if (nq + 2 > cap)
			q = assay_xrealloc(q, (cap *= 2) * sizeof(*q));
		if (alo < x.i && blo < x.j) {
			q[nq][0] = alo, q[nq][1] = x.i, q[nq][2] = blo, q[nq][3] = x.j;
			nq++;
		}
		if (x.i + x.k < ahi && x.j + x.k < bhi) {
			q[nq][0] = x.i + x.k, q[nq][1] = ahi, q[nq][2] = x.j + x.k, q[nq][3] = bhi;
			nq++;
		}
	}
	free(q);
	matcher_release(&m);
	qsort(blocks, nb, sizeof(*blocks), block_cmp);
	for (size_t k = 0; k < nb; k++) {
		if (out && blocks[out - 1].i + blocks[out - 1].k == blocks[k].i &&
		    blocks[out - 1].j + blocks[out - 1].k == blocks[k].j)
			blocks[out - 1].k += blocks[k].k;
		else
			blocks[out++] = blocks[k];
	}
	if (out + 1 > bcap)
		blocks = assay_xrealloc(blocks, (out + 1) * sizeof(*blocks));
	blocks[out].i = la, blocks[out].j = lb, blocks[out].k = 0;
	*nr = out + 1;
	return blocks;
}

assay_diff__opcode *assay_diff__opcodes(const assay_diff__block *blocks, size_t nblocks,
					size_t *nr)
{
	assay_diff__opcode *ops = assay_xmalloc((2 * nblocks + 1) * sizeof(*ops));
	size_t i = 0, j = 0, n = 0;

	for (size_t k = 0; k < nblocks; k++) {
		const assay_diff__block *bl = &blocks[k];
		char tag = 0;

		if (i < bl->i && j < bl->j)
			tag = 'r';
		else if (i < bl->i)
			tag = 'd';
		else if (j < bl->j)
			tag = 'i';
		if (tag)
			ops[n++] = (assay_diff__opcode){ tag, i, bl->i, j, bl->j };
		i = bl->i + bl->k;
		j = bl->j + bl->k;
		if (bl->k)
			ops[n++] = (assay_diff__opcode){ 'e', bl->i, i, bl->j, j };
	}
	*nr = n;
	return ops;
}

/* ---- unified_diff over lines ------------------------------------------------------------ */

static void add_range(assay_buf *out, size_t start, size_t stop)
{
	size_t beginning = start + 1, length = stop - start;

	if (length == 1) {
		assay_buf_addf(out, "%zu", beginning);
		return;
	}
	if (!length)
		beginning--;
	assay_buf_addf(out, "%zu,%zu", beginning, length);
}

static void add_lines(assay_buf *out, bool *first, char mark, const assay_diff__line *lines,
		      size_t from, size_t to)
{
	for (size_t k = from; k < to; k++) {
		if (!*first)
			assay_buf_addch(out, '\n');
		*first = false;
		assay_buf_addch(out, mark);
		assay_buf_add(out, lines[k].p, lines[k].len);
	}
}

/* difflib.get_grouped_opcodes(n) then unified_diff's lines, joined with "\n" (lineterm=""). */
static void unified(assay_buf *out, const assay_diff__line *la_, size_t la,
		    const assay_diff__line *lb_, size_t lb, const assay_diff__opcode *codes0,
		    size_t ncodes0, size_t n)
{
	assay_diff__opcode *codes, *group;
	size_t ncodes = ncodes0, ng = 0;
	bool first = true, started = false;

	codes = assay_xmalloc((ncodes0 + 1) * sizeof(*codes));
	group = assay_xmalloc((ncodes0 + 2) * 2 * sizeof(*group));
	memcpy(codes, codes0, ncodes0 * sizeof(*codes));
	if (!ncodes)
		codes[ncodes++] = (assay_diff__opcode){ 'e', 0, 1, 0, 1 };
	if (codes[0].tag == 'e') {
		assay_diff__opcode *c = &codes[0];

		c->i1 = c->i2 > n && c->i2 - n > c->i1 ? c->i2 - n : c->i1;
		c->j1 = c->j2 > n && c->j2 - n > c->j1 ? c->j2 - n : c->j1;
	}
	if (codes[ncodes - 1].tag == 'e') {
		assay_diff__opcode *c = &codes[ncodes - 1];

		c->i2 = c->i1 + n < c->i2 ? c->i1 + n : c->i2;
		c->j2 = c->j1 + n < c->j2 ? c->j1 + n : c->j2;
	}
	for (size_t k = 0; k <= ncodes; k++) {
		bool flush = k == ncodes;

		if (!flush) {
			assay_diff__opcode c = codes[k];

			if (c.tag == 'e' && c.i2 - c.i1 > 2 * n) {
				group[ng++] = (assay_diff__opcode){ 'e', c.i1,
								    c.i1 + n < c.i2 ? c.i1 + n : c.i2,
								    c.j1,
								    c.j1 + n < c.j2 ? c.j1 + n : c.j2 };
				flush = true;
				codes[k].i1 = c.i2 > n && c.i2 - n > c.i1 ? c.i2 - n : c.i1;
				codes[k].j1 = c.j2 > n && c.j2 - n > c.j1 ? c.j2 - n : c.j1;
			}
		}
		if (flush && ng && !(ng == 1 && group[0].tag == 'e')) {
			if (!started) {
				started = true;
				assay_buf_adds(out, "--- \n+++ ");
				first = false;
			}
			assay_buf_adds(out, "\n@@ -");
			add_range(out, group[0].i1, group[ng - 1].i2);
			assay_buf_adds(out, " +");
			add_range(out, group[0].j1, group[ng - 1].j2);
			assay_buf_adds(out, " @@");
			for (size_t g = 0; g < ng; g++) {
				const assay_diff__opcode *c = &group[g];

				if (c->tag == 'e') {
					add_lines(out, &first, ' ', la_, c->i1, c->i2);
					continue;
				}
				if (c->tag == 'r' || c->tag == 'd')
					add_lines(out, &first, '-', la_, c->i1, c->i2);
				if (c->tag == 'r' || c->tag == 'i')
					add_lines(out, &first, '+', lb_, c->j1, c->j2);
			}
		}
		if (flush)
			ng = 0;
		if (k < ncodes)
			group[ng++] = codes[k];
	}
	(void)la;
	(void)lb;
	free(codes);
	free(group);
}

void assay_diff__unified_lines(assay_buf *out, const assay_diff__line *a, size_t la,
			       const assay_diff__line *b, size_t lb)
{
	size_t n = la + lb, nb, nops;
	assay_diff__line **all = assay_xmalloc((n ? n : 1) * sizeof(*all));
	uint32_t *ids = assay_xmalloc((n ? n : 1) * sizeof(*ids));
	uint32_t nclass = 0;

	for (size_t k = 0; k < la; k++)
		all[k] = (assay_diff__line *)&a[k];
	for (size_t k = 0; k < lb; k++)
		all[la + k] = (assay_diff__line *)&b[k];
	nclass = assay_diff__classify_lines((const assay_diff__line *const *)all, n, ids);
	struct assay_diff__seqs seqs = { .a = ids, .la = la, .b = ids + la, .lb = lb,
					 .nclass = nclass, .autojunk = true };
	assay_diff__block *blocks = assay_diff__matching_blocks(&seqs, &nb);
	assay_diff__opcode *ops = assay_diff__opcodes(blocks, nb, &nops);

	unified(out, a, la, b, lb, ops, nops, 3);
	free(ops);
	free(blocks);
	free(ids);
	free(all);
}
