/*
 * Comparing two runs (compare.h): A's cases are read into a table keyed by checkpoint, group and
 * id; B's are paired with them as they stream past; then the statistics.
 *
 * Key decisions:
 * - Only paired cases count in the statistics; cases in one run only are listed and counted.
 *   Cases pair by their names' bytes and lengths: no name holding a newline or NUL byte makes
 *   two cases one. A score that is not a number (NaN, Infinity) is refused, naming the case:
 *   counted as 0 it would make a verdict of what is no score.
 * - Time is the program's wall time (execution.wall_time), which is what a change to the
 *   submission moves; a case without one (it never ran) uses its duration in assay. Peak memory
 *   is execution.max_rss. A pair counts for a figure only when both runs have it.
 * - Verdict (docs/statistics.md, "The verdict"): no gate fires on no evidence. Below
 *   min_pairs paired cases there is no verdict. B is significantly worse when the exact
 *   McNemar test says more cases went pass -> fail than chance would (one-sided p < alpha), or
 *   when the exact sign test on the paired score changes does (one-sided p < alpha) and the
 *   paired bootstrap interval of the mean score difference (at 1 - alpha) lies wholly below 0:
 *   the interval alone collapses to a point with one pair. Cases in one run only are listed
 *   and counted, never evidence. Time and memory are reported, never judged: a slower run is
 *   not a wrong one.
 * - Deterministic: the bootstrap is seeded (the same runs and seed give the same intervals).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/compare.h"
#include "assay/render.h"
#include "assay/report.h"
#include "util/hash.h"
#include "util/banned.h"

struct rec {
	char *key;        /* checkpoint, group, id: their bytes, each followed by a NUL */
	size_t klen, lc, lg; /* the key's length, the checkpoint's and the group's */
	bool passed, paired;
	double score, time, rss;
};

struct cmp {
	struct rec *recs;
	size_t n, cap;
	size_t *slots;    /* open addressing: index + 1, 0 empty */
	size_t nslots;
	/* the pairs, in B's order */
	bool *pa, *pb;
	double *sa, *sb, *ta, *tb, *ra, *rb;
	size_t np, nt, nr, pcap;
	assay_comparison *out;
	void (*each)(void *payload, const assay_compare_case *c);
	void *payload;
};

/* The key of a case: its names' bytes, each followed by a NUL, and their lengths (no byte a
 * name may hold, '\n' or NUL, makes two cases one). */
struct key {
	char *s;
	size_t len, lc, lg;
};

/* The process's keyed hash (util/hash.h): case names come from files a run wrote. */
static uint64_t hash(const char *s, size_t len)
{
	return assay_hash(s, len);
}

static bool same_key(const struct rec *r, const struct key *k)
{
	return r->klen == k->len && r->lc == k->lc && r->lg == k->lg &&
	       !memcmp(r->key, k->s, k->len);
}

static void grow_table(struct cmp *c)
{
	size_t n = c->nslots ? c->nslots * 2 : 1024;
	size_t *slots = assay_xcalloc(n, sizeof(*slots));

	for (size_t i = 0; i < c->n; i++) {
		size_t j = hash(c->recs[i].key, c->recs[i].klen) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = i + 1;
	}
	free(c->slots);
	c->slots = slots;
	c->nslots = n;
}

/* The slot of `key`: holding its record, or empty. */
static size_t *find(struct cmp *c, const struct key *key)
{
	size_t j = hash(key->s, key->len) & (c->nslots - 1);

	while (c->slots[j] && !same_key(&c->recs[c->slots[j] - 1], key))
		j = (j + 1) & (c->nslots - 1);
	return &c->slots[j];
}

static double num(const assay_value *obj, const char *k)
{
	const assay_value *v = assay_object_get(obj, k);

	return assay_value_is_number(v) ? assay_value_number(v) : NAN;
}

/* The case's figures; ASSAY_EINVALID for a score that is not a number (NaN, Infinity): never
 * counted as some number, which would make a verdict of what is no score. */
static int read_line(const assay_value *line, struct rec *r, const struct key *k,
		     assay_err *err)
{
	const assay_value *passed = assay_report_get(line, "passed");
	const assay_value *ex = assay_report_get(line, "execution");
	const assay_value *sc = assay_report_get(line, "score");

	r->passed = passed && passed->kind == ASSAY_V_BOOL && passed->u.b;
	r->score = assay_value_is_number(sc) ? assay_value_number(sc) : NAN;
	if (assay_value_is_number(sc) && !isfinite(r->score))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "case %.200s/%.200s/%.200s has score %s: not a score (a number "
				     "from 0 to 1) an assay run writes, and not counted as one",
				     k->s, k->s + k->lc + 1, k->s + k->lc + k->lg + 2,
				     isnan(r->score) ? "NaN" : r->score > 0 ? "Infinity"
									   : "-Infinity");
	if (!isfinite(r->score))
		r->score = 0; /* (no score at all: as before, 0) */
	r->time = num(ex, "wall_time");
	if (!isfinite(r->time))
		r->time = num(line, "duration");
	r->rss = num(ex, "max_rss");
	return 0;
}

/* A name of the line, with its length (which counts a NUL byte it holds). */
static const char *name_of(const assay_value *line, const char *k, size_t *len)
{
	/* the checkpoint is one of assay's additions, in `case` (report.h) */
	const assay_value *v = strcmp(k, "checkpoint") ? assay_object_get(line, k)
						       : assay_report_get(line, k);

	*len = v && v->kind == ASSAY_V_STRING ? v->len : 0;
	return *len ? v->u.s : "";
}

static struct key key_of(const assay_value *line)
{
	size_t lc, lg, li;
	const char *cp = name_of(line, "checkpoint", &lc), *g = name_of(line, "group", &lg);
	const char *id = name_of(line, "id", &li);
	struct key k = { assay_xmalloc(lc + lg + li + 3), lc + lg + li + 3, lc, lg };

	memcpy(k.s, cp, lc);
	k.s[lc] = '\0';
	memcpy(k.s + lc + 1, g, lg);
	k.s[lc + 1 + lg] = '\0';
	memcpy(k.s + lc + lg + 2, id, li);
	k.s[lc + lg + 2 + li] = '\0';
	return k;
}

static int add_a(void *payload, const assay_value *line, assay_err *err)
{
	struct cmp *c = payload;
	struct key key = key_of(line);
	struct rec r = { .key = key.s, .klen = key.len, .lc = key.lc, .lg = key.lg };
	size_t *slot;
	int rc;

	c->out->cases_a++;
	if ((rc = read_line(line, &r, &key, err))) {
		free(key.s);
		return rc;
	}
	if (c->n * 2 >= c->nslots)
		grow_table(c);
	slot = find(c, &key);
	if (*slot) { /* a case twice in one run: the first counts */
		free(key.s);
		return 0;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->recs = assay_xrealloc(c->recs, c->cap * sizeof(*c->recs));
	}
	c->recs[c->n] = r;
	*slot = ++c->n;
	return 0;
}

static void push_pair(struct cmp *c, const struct rec *a, const struct rec *b)
{
	if (c->np == c->pcap) {
		c->pcap = c->pcap ? c->pcap * 2 : 1024;
		c->pa = assay_xrealloc(c->pa, c->pcap * sizeof(*c->pa));
		c->pb = assay_xrealloc(c->pb, c->pcap * sizeof(*c->pb));
		c->sa = assay_xrealloc(c->sa, c->pcap * sizeof(*c->sa));
		c->sb = assay_xrealloc(c->sb, c->pcap * sizeof(*c->sb));
		c->ta = assay_xrealloc(c->ta, c->pcap * sizeof(*c->ta));
		c->tb = assay_xrealloc(c->tb, c->pcap * sizeof(*c->tb));
		c->ra = assay_xrealloc(c->ra, c->pcap * sizeof(*c->ra));
		c->rb = assay_xrealloc(c->rb, c->pcap * sizeof(*c->rb));
	}
	c->pa[c->np] = a->passed, c->pb[c->np] = b->passed;
	c->sa[c->np] = a->score, c->sb[c->np] = b->score;
	c->np++;
	if (isfinite(a->time) && isfinite(b->time))
		c->ta[c->nt] = a->time, c->tb[c->nt++] = b->time;
	if (isfinite(a->rss) && isfinite(b->rss))
		c->ra[c->nr] = a->rss, c->rb[c->nr++] = b->rss;
}

/* The case's names, in its key. */
static void names(const char *key, size_t lc, size_t lg, assay_compare_case *cc)
{
	cc->checkpoint = key, cc->group = key + lc + 1, cc->id = key + lc + lg + 2;
}

static int add_b(void *payload, const assay_value *line, assay_err *err)
{
	struct cmp *c = payload;
	struct key key = key_of(line);
	size_t *slot = c->nslots ? find(c, &key) : NULL;
	struct rec b = { 0 }, *a = slot && *slot ? &c->recs[*slot - 1] : NULL;
	assay_compare_case cc = { 0 };
	const assay_value *ev = assay_report_get(line, "error");
	const char *why = ev ? (ev->kind == ASSAY_V_STRING ? ev->u.s : "") : NULL;
	int rc;

	c->out->cases_b++;
	if ((rc = read_line(line, &b, &key, err))) {
		free(key.s);
		return rc;
	}
	if (a && a->paired)
		a = NULL; /* a case twice in B: the second is B's alone */
	if (a) {
		a->paired = true;
		push_pair(c, a, &b);
		c->out->paired++;
		c->out->passed_a += a->passed;
		c->out->passed_b += b.passed;
	} else {
		c->out->only_b++;
	}
	if (c->each) {
		names(key.s, key.lc, key.lg, &cc);
		cc.in_a = a != NULL, cc.in_b = true;
		cc.passed_a = a && a->passed, cc.passed_b = b.passed;
		cc.score_a = a ? a->score : NAN, cc.score_b = b.score;
		cc.time_a = a ? a->time : NAN, cc.time_b = b.time;
		cc.rss_a = a ? a->rss : NAN, cc.rss_b = b.rss;
		cc.why_b = b.passed ? NULL : why;
		c->each(c->payload, &cc);
	}
	free(key.s);
	return 0;
}

static void mean2(const double *x, size_t n, double *out)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*out = n ? s / (double)n : NAN;
}

static int measure(assay_compare_measure *m, const double *a, const double *b, size_t n,
		   const assay_compare_opts *o, double confidence, assay_err *err)
{
	m->pairs = n;
	mean2(a, n, &m->mean_a);
	mean2(b, n, &m->mean_b);
	m->diff = (assay_interval){ NAN, NAN, NAN };
	if (!n)
		return 0;
	return assay_bootstrap_mean_diff(&m->diff, a, b, n, o->resamples, confidence, o->seed, err);
}

static void release(struct cmp *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->recs[i].key);
	free(c->recs), free(c->slots);
	free(c->pa), free(c->pb), free(c->sa), free(c->sb);
	free(c->ta), free(c->tb), free(c->ra), free(c->rb);
}

/* Names the run in a message that does not name it yet. */
static int about(int rc, const char *run, assay_err *err)
{
	if (rc && err && !err->path[0])
		snprintf(err->path, sizeof(err->path), "%s", run);
	return rc;
}

int assay_compare_runs(assay_comparison *out, const char *a, const char *b,
		       const assay_compare_opts *opts,
		       void (*each)(void *payload, const assay_compare_case *c), void *payload,
		       assay_err *err)
{
	assay_compare_opts o = ASSAY_COMPARE_OPTS_INIT;
	struct cmp c = { .out = out, .each = each, .payload = payload };
	int rc;

	*out = (assay_comparison){ 0 };
	if (opts && opts->version == 1) { /* without min_pairs: only its fields are read */
		memcpy(&o, opts, offsetof(assay_compare_opts, min_pairs));
		o.min_pairs = 0;
	} else if (opts) {
		o = *opts;
	}
	if (o.version != 1 && o.version != ASSAY_COMPARE_OPTS_VERSION)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "unknown assay_compare_opts version %d", o.version);
	if (!o.alpha)
		o.alpha = 0.05;
	if (!o.resamples)
		o.resamples = 5000;
	if (!o.min_pairs)
		o.min_pairs = ASSAY_COMPARE_MIN_PAIRS;
	if (!(o.alpha > 0 && o.alpha < 0.5))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "alpha %g is not between 0 and 0.5", o.alpha);
	out->alpha = o.alpha;
	out->confidence = 1 - o.alpha;
	grow_table(&c);
	if ((rc = about(assay_report_each_line(a, add_a, &c, err), a, err)) ||
	    (rc = about(assay_report_each_line(b, add_b, &c, err), b, err)))
		goto out;
	for (size_t i = 0; i < c.n; i++) {
		assay_compare_case cc = { 0 };

		if (c.recs[i].paired)
			continue;
		out->only_a++;
		if (!each)
			continue;
		names(c.recs[i].key, c.recs[i].lc, c.recs[i].lg, &cc);
		cc.in_a = true;
		cc.passed_a = c.recs[i].passed;
		cc.score_a = c.recs[i].score, cc.score_b = NAN;
		cc.time_a = c.recs[i].time, cc.time_b = NAN;
		cc.rss_a = c.recs[i].rss, cc.rss_b = NAN;
		each(payload, &cc);
	}
	assay_mcnemar_pairs(&out->mcnemar, c.pa, c.pb, c.np);
	double *qa = assay_xmalloc((c.np + 1) * sizeof(*qa)), *qb = assay_xmalloc((c.np + 1) * sizeof(*qb));

	for (size_t i = 0; i < c.np; i++)
		qa[i] = c.pa[i] ? 1.0 : 0.0, qb[i] = c.pb[i] ? 1.0 : 0.0;
	rc = measure(&out->pass, qa, qb, c.np, &o, out->confidence, err);
	free(qa), free(qb);
	if (rc ||
	    (rc = measure(&out->score, c.sa, c.sb, c.np, &o, out->confidence, err)) ||
	    (rc = measure(&out->time, c.ta, c.tb, c.nt, &o, out->confidence, err)) ||
	    (rc = measure(&out->rss, c.ra, c.rb, c.nr, &o, out->confidence, err)))
		goto out;
	/* no gate fires on no evidence: a minimum of pairs, and exact tests whose p-value can
	 * reach alpha only with enough discordant pairs (5 at alpha 0.05); the bootstrap interval
	 * alone (a point at one pair) decides nothing */
	uint64_t down = 0, up = 0;

	for (size_t i = 0; i < c.np; i++)
		down += c.sb[i] < c.sa[i], up += c.sb[i] > c.sa[i];
	assay_mcnemar_exact(&out->sign, down, up);
	out->min_pairs = o.min_pairs;
	out->judged = c.np >= o.min_pairs;
	out->worse = out->judged &&
		     (out->mcnemar.p_b_worse < o.alpha ||
		      (out->sign.p_b_worse < o.alpha && out->score.pairs && out->score.diff.hi < 0));
out:
	release(&c);
	return rc;
}
