/*
 * `assay merge` (shard.h): the results folders of a sharded run's shards made into the one an
 * unsharded run would have written: its store, reports.jsonl in run order and summary.json.
 *
 * Key decisions:
 * - The shards' stores are the truth (as for `assay report`): each one's run description says
 *   which shard of which split of which suite it holds, and each case's `position` is its
 *   place in the unsharded run (assay_sink_shard_new). Every check is done before anything is
 *   written: a shard missing or given twice, another suite, count or split, an unfinished
 *   shard, a case in no shard or in two.
 * - No shard is trusted beyond what can be checked (docs/scale-out.md, "What a merge checks"):
 *   counts are bounded before anything is sized by them; a case held twice is refused; the
 *   split's fingerprint is remade from the names, places and shards of the cases held (with
 *   the groups the split kept whole); no verdict is taken: each case is verified again from
 *   the suite's case file (--suite, required) and the actual values the shard recorded
 *   (reverify.c); blobs are checked against their SHA-256 as they are read (store.h); each case
 *   file is hashed again.
 * - The merged run is fed, case by case in run order, to the results folder's own sink
 *   (store.h), whole values expanded from the shard's blobs so they are cut again at the value
 *   cap, and its counts made by the runner's code (summary.h): the bytes of reports.jsonl and
 *   the aggregates of summary.json are those of an unsharded run, timings apart.
 * - The summary's structure (checkpoints, groups, their types, in order) comes from a shard's
 *   summary (every shard keeps every group, even one left without cases) and must be that of
 *   the suite loaded with the selection the shards recorded (shard.selection), whose every
 *   case the shards must hold: the split's fingerprint is public data that whoever holds every
 *   shard can remake. The case files a suite mistake leaves unrun (unrun_case_files) are
 *   counted in the suite given (--suite).
 * - The output is made in a temporary folder beside it and renamed into place (an existing
 *   results folder is swapped out with RENAME_EXCHANGE, under its lock, then removed): a
 *   failed merge leaves the output as it was.
 * Memory: the cases' names (to order them); one case's report at a time.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/report.h"
#include "assay/store.h"
#include "assay/suite.h"
#include "assay/summary.h"
#include "shard/shard_int.h"
#include "util/banned.h"

struct shard_in {
	const char *dir;
	assay_store *s;
	assay_arena *a;
	assay_value info;      /* the run's description (assay_store_run_info) */
	size_t index, count, total;
	const char *split, *suite_hash, *cases_hash;
	const assay_value *whole; /* the groups the split kept whole ("cp/group") */
	const assay_value *selection; /* what the shard selected of the suite (cmd_run.c) */
	double duration;
};

/* A case of the merged run: which shard holds it, and its names ("cp\0group\0id"). */
struct slot {
	size_t shard;          /* 1-based index into the shards given; 0: none yet */
	char *names;
	size_t group_at, id_at;
	struct shard_case_at at; /* where the case is in the suite (check_case_files) */
};

struct merge {
	const assay_merge_opts *o;
	struct shard_in *in;
	size_t nin;
	struct slot *slots;
	size_t total;
	assay_suite skel;      /* checkpoints and groups, from a shard's summary */
	assay_suite *suite;    /* the suite (--suite, load_suite) */
	const char *suite_dir;
	assay_err *err;
};

static const char *str(const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING ? v->u.s : NULL;
}

static bool count_of(const assay_value *v, size_t *out)
{
	if (!v || v->kind != ASSAY_V_INT || v->u.i < 0)
		return false;
	*out = (size_t)v->u.i;
	return true;
}

/* A list of strings without NUL bytes. */
static bool strings_ok(const assay_value *v)
{
	if (!v || v->kind != ASSAY_V_ARRAY)
		return false;
	for (uint32_t i = 0; i < v->len; i++)
		if (v->u.items[i].kind != ASSAY_V_STRING || memchr(v->u.items[i].u.s, 0,
								    v->u.items[i].len))
			return false;
	return true;
}

/* shard.selection: {checkpoint: string or null, groups, cases, case_names: strings}. */
static bool selection_ok(const assay_value *sel)
{
	const assay_value *cp = assay_object_get(sel, "checkpoint");

	return sel && sel->kind == ASSAY_V_OBJECT && cp &&
	       (cp->kind == ASSAY_V_NULL || cp->kind == ASSAY_V_STRING) &&
	       strings_ok(assay_object_get(sel, "groups")) &&
	       strings_ok(assay_object_get(sel, "cases")) &&
	       strings_ok(assay_object_get(sel, "case_names"));
}

/* Opens one shard's store and reads what it says it is. */
static int open_shard(struct merge *m, struct shard_in *in)
{
	assay_err *err = m->err;
	const assay_value *shard, *fin, *intr;
	int rc;

	if ((rc = assay_store_open(&in->s, in->dir, 0, err)))
		return rc;
	in->a = assay_arena_new(0);
	if ((rc = assay_store_run_info(in->s, &in->info, in->a, err))) {
		if (rc != ASSAY_ENOTFOUND)
			return rc;
		assay_err_clear(err);
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "holds no run: not a shard's results");
	}
	shard = assay_object_get(&in->info, "shard");
	if (!shard || !count_of(assay_object_get(shard, "index"), &in->index) ||
	    !count_of(assay_object_get(shard, "count"), &in->count) ||
	    !count_of(assay_object_get(shard, "cases"), &in->total) ||
	    !(in->split = str(assay_object_get(shard, "split"))))
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "holds a run that was not sharded (assay run --shard I/N "
				     "makes a shard)");
	/* bounds before anything is sized by them: the store's word is not trusted */
	if (!in->count || in->count > ASSAY_SHARD_MAX || !in->index || in->index > in->count ||
	    in->total > ASSAY_MERGE_MAX_CASES)
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "says it is shard %zu of %zu of a run of %zu cases: not a "
				     "possible shard (at most %d shards of %d cases): was the store "
				     "changed by hand?", in->index, in->count, in->total,
				     ASSAY_SHARD_MAX, ASSAY_MERGE_MAX_CASES);
	in->cases_hash = str(assay_object_get(shard, "cases_hash"));
	in->whole = assay_object_get(shard, "whole");
	if (!in->whole || in->whole->kind != ASSAY_V_ARRAY || !in->cases_hash)
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "does not say which groups its split kept whole: made by an "
				     "older assay (run the shard again) or changed by hand");
	for (uint32_t i = 0; i < in->whole->len; i++)
		if (in->whole->u.items[i].kind != ASSAY_V_STRING)
			return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
					     "its shard.whole is not a list of groups: was the "
					     "store changed by hand?");
	in->selection = assay_object_get(shard, "selection");
	if (!selection_ok(in->selection))
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "does not say which cases it selected of the suite "
				     "(shard.selection): made by an older assay (run the shard "
				     "again) or changed by hand");
	in->suite_hash = str(assay_object_get(&in->info, "suite_hash"));
	fin = assay_object_get(&in->info, "finished");
	intr = assay_object_get(&in->info, "interrupted");
	if (!str(fin) || (intr && intr->kind == ASSAY_V_BOOL && intr->u.b))
		return assay_err_set(err, ASSAY_EINVALID, in->dir, 0, 0,
				     "shard %zu/%zu did not finish (interrupted or still running): "
				     "complete it with assay run --resume -o %s", in->index,
				     in->count, in->dir);
	in->duration = assay_value_number(assay_object_get(
		assay_object_get(&in->info, "summary"), "duration"));
	if (!(in->duration >= 0))
		in->duration = 0;
	return 0;
}

/* Every shard of one split of one suite, each once. */
static int check_set(struct merge *m)
{
	const struct shard_in *first = &m->in[0];
	size_t n = first->count, *seen = assay_xcalloc(n + 1, sizeof(*seen));
	assay_buf missing = ASSAY_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < m->nin && !rc; i++) {
		const struct shard_in *in = &m->in[i];

		if (!in->suite_hash || !first->suite_hash || strcmp(in->suite_hash, first->suite_hash))
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "%s and %s hold runs of different suites (or versions of "
					   "suite.yaml): shards of one run only", first->dir,
					   in->dir);
		else if (in->count != n)
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "%s is shard %zu/%zu but %s is shard %zu/%zu: shards of "
					   "one split only", first->dir, first->index, first->count,
					   in->dir, in->index, in->count);
		else if (strcmp(in->split, first->split) || in->total != first->total ||
			 !assay_value_equal(in->whole, first->whole))
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "%s and %s were split differently (another selection of "
					   "cases, or other --shard-durations): run every shard with "
					   "the same options", first->dir, in->dir);
		else if (!assay_value_equal(in->selection, first->selection))
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "%s and %s selected other cases of the suite (--checkpoint, "
					   "--group, --case, --last-failed): run every shard with the "
					   "same options", first->dir, in->dir);
		else if (strcmp(in->cases_hash, first->cases_hash))
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "%s and %s found different case files (a copy of the suite "
					   "whose cases were edited): run every shard on the same "
					   "suite", first->dir, in->dir);
		else if (seen[in->index])
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "shard %zu/%zu is given twice: %s and %s", in->index, n,
					   m->in[seen[in->index] - 1].dir, in->dir);
		else
			seen[in->index] = i + 1;
	}
	for (size_t k = 1; !rc && k <= n; k++)
		if (!seen[k])
			assay_buf_addf(&missing, "%s%zu/%zu", missing.len ? ", " : "", k, n);
	if (!rc && missing.len)
		rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
				   "shard%s %s %s missing: merge every shard of the run (%zu given)",
				   strchr(missing.ptr, ',') ? "s" : "", missing.ptr,
				   strchr(missing.ptr, ',') ? "are" : "is", m->nin);
	assay_buf_release(&missing);
	free(seen);
	return rc;
}

struct collect {
	struct merge *m;
	size_t shard; /* 1-based */
};

static int take_position(void *payload, size_t pos, const char *cp, const char *g,
			 const char *id, assay_err *err)
{
	struct collect *c = payload;
	struct merge *m = c->m;
	const char *dir = m->in[c->shard - 1].dir;

	if (!cp || !g || !id || pos < 1 || pos > m->total)
		return assay_err_set(err, ASSAY_EINVALID, dir, 0, 0,
				     "case %s/%s/%s has no place in the run (position %zu of %zu): "
				     "was it run with --shard?", cp ? cp : "?", g ? g : "?",
				     id ? id : "?", pos, m->total);
	struct slot *s = &m->slots[pos - 1];
	if (s->shard == c->shard)
		return assay_err_set(err, ASSAY_EINVALID, dir, 0, 0,
				     "two cases have one place in the run (%zu): was the store "
				     "changed by hand?", pos);
	if (s->shard)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "case %s/%s/%s is in two shards: %s and %s", cp, g, id,
				     m->in[s->shard - 1].dir, dir);
	size_t lc = strlen(cp), lg = strlen(g), li = strlen(id);
	s->shard = c->shard;
	s->names = assay_xmalloc(lc + lg + li + 3);
	memcpy(s->names, cp, lc + 1);
	memcpy(s->names + lc + 1, g, lg + 1);
	memcpy(s->names + lc + lg + 2, id, li + 1);
	s->group_at = lc + 1;
	s->id_at = lc + lg + 2;
	return 0;
}

/* The run's cases are no more than the shards' rows: checked before the slots are sized. */
static int count_rows(struct merge *m)
{
	size_t sum = 0;
	int rc;

	for (size_t i = 0; i < m->nin; i++) {
		size_t n = 0;

		if ((rc = assay_store_count(m->in[i].s, &n, NULL, m->err)))
			return rc;
		sum += n;
	}
	/* (more rows than cases: collect_cases names the case in two shards or places) */
	if (sum < m->total)
		return assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
				     "%zu of the run's %zu cases are in no shard: a shard's results "
				     "are incomplete", m->total - sum, m->total);
	return 0;
}

static int cmp_names(const void *pa, const void *pb, void *payload)
{
	const struct slot *slots = payload;
	const struct slot *a = &slots[*(const size_t *)pa], *b = &slots[*(const size_t *)pb];
	int c = strcmp(a->names, b->names);

	if (!c)
		c = strcmp(a->names + a->group_at, b->names + b->group_at);
	return c ? c : strcmp(a->names + a->id_at, b->names + b->id_at);
}

/* No checkpoint/group/id twice, in one shard or across shards. */
static int check_unique(struct merge *m)
{
	size_t *ix = assay_xcalloc(m->total + 1, sizeof(*ix));
	int rc = 0;

	for (size_t p = 0; p < m->total; p++)
		ix[p] = p;
	qsort_r(ix, m->total, sizeof(*ix), cmp_names, m->slots);
	for (size_t k = 1; k < m->total && !rc; k++) {
		const struct slot *a = &m->slots[ix[k - 1]], *b = &m->slots[ix[k]];

		if (!cmp_names(&ix[k - 1], &ix[k], m->slots))
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "case %s/%s/%s is held twice (places %zu in %s and %zu in "
					   "%s): was a store changed by hand?", a->names,
					   a->names + a->group_at, a->names + a->id_at, ix[k - 1] + 1,
					   m->in[a->shard - 1].dir, ix[k] + 1, m->in[b->shard - 1].dir);
	}
	free(ix);
	return rc;
}

static bool same_group(const struct slot *a, const struct slot *b)
{
	return !strcmp(a->names, b->names) && !strcmp(a->names + a->group_at, b->names + b->group_at);
}

static bool is_whole(const assay_value *whole, const struct slot *s)
{
	char *name = assay_xasprintf("%s/%s", s->names, s->names + s->group_at);
	bool yes = false;

	for (uint32_t i = 0; i < whole->len && !yes; i++)
		yes = !strcmp(whole->u.items[i].u.s, name);
	free(name);
	return yes;
}

/*
 * Each case is where the split put it: the split's fingerprint remade from the cases the
 * shards hold (their names in run order, the shard holding each, the groups kept whole) must
 * be the one every shard recorded. A case renamed, swapped, moved to another shard or added
 * changes it.
 */
static int check_split(struct merge *m)
{
	const struct shard_in *first = &m->in[0];
	assay_sha256_ctx h;
	char print[65];
	bool whole = false;

	size_t ngroups = 0;

	for (size_t i = 0; i < m->skel.ncheckpoints; i++)
		ngroups += m->skel.checkpoints[i].ngroups;
	if (first->whole->len > ngroups) /* (each is looked up at every group's first case) */
		return assay_err_set(m->err, ASSAY_EINVALID, first->dir, 0, 0,
				     "says its split kept %u groups whole of %zu: was the store "
				     "changed by hand?", first->whole->len, ngroups);
	assay_shard__print_begin(&h, first->suite_hash, first->count, &m->skel);
	for (size_t p = 0; p < m->total; p++) {
		const struct slot *s = &m->slots[p], *prev = p ? &m->slots[p - 1] : NULL;
		size_t where = m->in[s->shard - 1].index;

		if (!prev || !same_group(prev, s))
			whole = is_whole(first->whole, s);
		if (whole && prev && same_group(prev, s)) {
			if (prev->shard != s->shard)
				return assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
						     "group %s/%s is kept whole by the split but "
						     "its cases are in %s and %s: was a store "
						     "changed by hand?", s->names,
						     s->names + s->group_at,
						     m->in[prev->shard - 1].dir,
						     m->in[s->shard - 1].dir);
		} else {
			char *name = whole ? assay_xasprintf("%s/%s", s->names, s->names + s->group_at)
					   : assay_xasprintf("%s/%s/%s", s->names,
							     s->names + s->group_at,
							     s->names + s->id_at);

			assay_shard__print_unit(&h, name, where);
			free(name);
		}
		assay_shard__print_case(&h, s->names + s->id_at);
	}
	assay_sha256_end(&h, print);
	if (strcmp(print, first->split))
		return assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
				     "the cases the shards hold are not those their split placed "
				     "there (a case renamed, moved to another place or shard, or "
				     "added): was a store changed by hand?");
	return 0;
}

/*
 * The case files: the digest every shard made of the selection's case files (when it split
 * the suite) must be the one remade from the file hash each shard kept with each case it ran;
 * with the suite at hand (--suite, or the suite_path the shards recorded when its suite.yaml is
 * the one they ran), each case's file must instead still hash as its shard kept (check_set
 * has already refused shards that found different case files).
 */
static int check_case_files(struct merge *m)
{
	const assay_suite *suite = m->suite;
	size_t ci = 0, gi = 0, ki = 0;
	assay_sha256_ctx h;
	char hash[65], file[65], digest[65];
	int rc = 0;

	assay_shard__cases_begin(&h);
	for (size_t p = 0; p < m->total && !rc; p++) {
		const struct slot *s = &m->slots[p];
		const struct shard_in *in = &m->in[s->shard - 1];
		const char *cp = s->names, *g = s->names + s->group_at, *id = s->names + s->id_at;

		if ((rc = assay_store_case_hash(in->s, cp, g, id, hash, m->err)))
			break;
		assay_shard__cases_add(&h, cp, g, id, hash);
		if (!suite)
			continue;
		/* the run's cases are a subsequence of the suite's, in order */
		const assay_case_ref *ref = NULL;
		while (!ref && ci < suite->ncheckpoints) {
			const assay_checkpoint *c = &suite->checkpoints[ci];

			if (gi >= c->ngroups) {
				ci++, gi = 0, ki = 0;
				continue;
			}
			if (ki >= c->groups[gi].ncases) {
				gi++, ki = 0;
				continue;
			}
			if (!strcmp(c->name, cp) && !strcmp(c->groups[gi].name, g) &&
			    !strcmp(c->groups[gi].cases[ki].id, id))
				ref = &c->groups[gi].cases[ki];
			ki++;
		}
		if (ref) {
			struct slot *w = &m->slots[p];

			w->at.icp = ci;
			w->at.ig = gi;
			w->at.k = ki - 1;
		}
		if (!ref)
			rc = assay_err_set(m->err, ASSAY_EINVALID, in->dir, 0, 0,
					   "case %s/%s/%s is not in the suite %s (or not in its "
					   "place): shards of another suite, or a store changed by hand",
					   cp, g, id, m->suite_dir);
		else if (!ref->file || assay_fs_sha256(ref->file, file, NULL) || strcmp(file, hash))
			rc = assay_err_set(m->err, ASSAY_EINVALID, in->dir, 0, 0,
					   "shard %zu ran case %s/%s/%s from another case file than "
					   "the suite's %s (edited since, or a copy): run the shard "
					   "again", in->index, cp, g, id,
					   ref->file ? ref->file : "(none)");
	}
	assay_sha256_end(&h, digest);
	/* with the suite at hand each case's file was checked itself: a case file edited since
	 * the split whose shard was resumed (and ran it again) is then fine */
	if (!rc && !suite && strcmp(digest, m->in[0].cases_hash))
		rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
				   "the case files the shards ran are not those they found when "
				   "they split the suite (a shard ran on a copy whose cases were "
				   "edited, a case file was edited and its shard resumed, or a "
				   "store was changed by hand): merge with --suite DIR to check "
				   "each case against the suite");
	return rc;
}

/*
 * The shards hold every case the selection keeps of the suite (check_case_files has found
 * theirs in it, in order): none dropped, whatever the split's fingerprint (which whoever holds
 * every shard can remake) says.
 */
static int check_none_missing(struct merge *m)
{
	const assay_suite *suite = m->suite;
	size_t p = 0;

	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *c = &suite->checkpoints[i];

		for (size_t j = 0; j < c->ngroups; j++) {
			for (size_t k = 0; k < c->groups[j].ncases; k++) {
				const struct slot *s = p < m->total ? &m->slots[p] : NULL;

				if (s && !strcmp(s->names, c->name) &&
				    !strcmp(s->names + s->group_at, c->groups[j].name) &&
				    !strcmp(s->names + s->id_at, c->groups[j].cases[k].id)) {
					p++;
					continue;
				}
				return assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
						     "case %s/%s/%s of the suite's selection is in no "
						     "shard (the shards hold %zu of its %zu cases): a "
						     "case dropped from the run, or a store changed by "
						     "hand", c->name, c->groups[j].name,
						     c->groups[j].cases[k].id, m->total,
						     suite->ncases);
			}
		}
	}
	return 0;
}

/*
 * The checkpoints and groups of the shards' summary, and each group's type (which decides what
 * a pass policy and the core-cases figures count), are the suite's.
 */
static int check_structure(struct merge *m)
{
	const assay_suite *suite = m->suite, *sk = &m->skel;
	const char *dir = m->in[0].dir;

	if (sk->ncheckpoints != suite->ncheckpoints)
		return assay_err_set(m->err, ASSAY_EINVALID, dir, 0, 0,
				     "its summary has %zu checkpoints, the suite's selection %zu: "
				     "was the store changed by hand?", sk->ncheckpoints,
				     suite->ncheckpoints);
	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *a = &sk->checkpoints[i], *b = &suite->checkpoints[i];

		if (strcmp(a->name, b->name) || a->ngroups != b->ngroups)
			return assay_err_set(m->err, ASSAY_EINVALID, dir, 0, 0,
					     "its summary's checkpoint %s is not the suite's %s (or "
					     "has other groups): was the store changed by hand?",
					     a->name, b->name);
		for (size_t j = 0; j < b->ngroups; j++) {
			const assay_group *ga = &a->groups[j], *gb = &b->groups[j];

			if (strcmp(ga->name, gb->name))
				return assay_err_set(m->err, ASSAY_EINVALID, dir, 0, 0,
						     "its summary's group %s/%s is not the suite's "
						     "%s/%s: was the store changed by hand?", a->name,
						     ga->name, b->name, gb->name);
			if (ga->type != gb->type)
				return assay_err_set(m->err, ASSAY_EINVALID, dir, 0, 0,
						     "group %s/%s is %s in the shards' summary but "
						     "%s in the suite: was the store changed by hand?",
						     b->name, gb->name,
						     assay_group_type_name(ga->type),
						     assay_group_type_name(gb->type));
		}
	}
	return 0;
}

/*
 * The suite every case is verified again against: --suite, the user's word. Never the suite
 * folder a shard recorded (a shard could name a copy whose case files expect what it printed).
 */
static int load_suite(struct merge *m)
{
	const char *dir = m->o->suite, *recorded = str(assay_object_get(&m->in[0].info,
									 "suite_path"));
	assay_err e = ASSAY_ERR_INIT;
	char hash[65];
	int rc;

	if (!dir)
		return assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
				     "merge verifies every case again from its case file and trusts "
				     "no shard's verdict: give the suite the shards ran with --suite "
				     "DIR (they say it was %s)", recorded ? recorded : "not recorded");
	/* the selection the shards split (check_set: all the same), applied as the run did */
	const assay_value *sel = m->in[0].selection;
	const char **lists[3] = { NULL, NULL, NULL };
	static const char *const keys[3] = { "groups", "cases", "case_names" };
	assay_suite_filter filter = { str(assay_object_get(sel, "checkpoint")), NULL, NULL, NULL,
				      false };

	for (int i = 0; i < 3; i++) {
		const assay_value *v = assay_object_get(sel, keys[i]);

		if (!v->len)
			continue;
		lists[i] = assay_xcalloc(v->len + 1, sizeof(*lists[i]));
		for (uint32_t j = 0; j < v->len; j++)
			lists[i][j] = v->u.items[j].u.s;
	}
	filter.group_globs = lists[0];
	filter.case_globs = lists[1];
	filter.case_names = lists[2];
	rc = assay_suite_load(&m->suite, dir, &filter, NULL, NULL, &e);
	for (int i = 0; i < 3; i++)
		free(lists[i]);
	if (!rc)
		rc = assay_suite_hash(m->suite, hash, &e);
	if (!rc && strcmp(hash, m->in[0].suite_hash))
		rc = assay_err_set(&e, ASSAY_EINVALID, dir, 0, 0,
				   "is another version of suite.yaml than the shards ran");
	if (rc)
		return assay_err_set(m->err, rc == ASSAY_EIO || rc == ASSAY_ESTORE ? rc
										     : ASSAY_EINVALID,
				     NULL, 0, 0, "--suite %s: %s", dir, e.msg);
	m->suite_dir = dir;
	/* case files a suite mistake leaves unrun: counted in the suite at hand, as a run does */
	m->skel.unrun_case_files = m->suite->unrun_case_files;
	return 0;
}

static int collect_cases(struct merge *m)
{
	int rc = 0;

	m->slots = assay_xcalloc(m->total + 1, sizeof(*m->slots));
	for (size_t i = 0; i < m->nin && !rc; i++) {
		struct collect c = { m, i + 1 };

		rc = assay_store_each_position(m->in[i].s, take_position, &c, m->err);
	}
	for (size_t p = 0; !rc && p < m->total; p++)
		if (!m->slots[p].shard)
			rc = assay_err_set(m->err, ASSAY_EINVALID, NULL, 0, 0,
					   "case %zu of the run's %zu is in no shard: a shard's "
					   "results are incomplete", p + 1, m->total);
	return rc ? rc : check_unique(m);
}

/* ---- the skeleton suite: checkpoints and groups, from a shard's summary ---------------- */

static int skeleton(struct merge *m)
{
	const struct shard_in *in = &m->in[0];
	const assay_value *summary = assay_object_get(&in->info, "summary");
	const assay_value *cps = assay_object_get(summary, "checkpoints");
	assay_suite *s = &m->skel;

	const char *name = str(assay_object_get(summary, "suite"));
	const char *entry = str(assay_object_get(&in->info, "entry"));
	const assay_value *command = assay_object_get(&in->info, "command");

	/* the program the cases ran, for the reproduce lines of a terminal sink */
	s->command = (assay_strvec)ASSAY_STRVEC_INIT;
	if (entry && assay_shell_split(&s->command, entry, NULL))
		assay_strvec_clear(&s->command);
	if (!s->command.nr)
		for (uint32_t i = 0; command && command->kind == ASSAY_V_ARRAY && i < command->len; i++)
			if (command->u.items[i].kind == ASSAY_V_STRING)
				assay_strvec_push(&s->command, command->u.items[i].u.s);

	s->name = assay_xstrdup(name ? name : "");
	if (!cps || cps->kind != ASSAY_V_OBJECT)
		return assay_err_set(m->err, ASSAY_EINVALID, in->dir, 0, 0,
				     "its summary has no checkpoints: was the store changed by hand?");
	s->checkpoints = assay_xcalloc(cps->len + 1, sizeof(*s->checkpoints));
	for (uint32_t i = 0; i < cps->len; i++) {
		assay_checkpoint *cp = &s->checkpoints[s->ncheckpoints++];
		const assay_value *groups = assay_object_get(&cps->u.members[i].value, "groups");

		cp->name = assay_xstrdup(cps->u.members[i].key.u.s);
		if (!groups || groups->kind != ASSAY_V_OBJECT)
			continue;
		cp->groups = assay_xcalloc(groups->len + 1, sizeof(*cp->groups));
		for (uint32_t j = 0; j < groups->len; j++) {
			assay_group *g = &cp->groups[cp->ngroups++];
			const char *type = str(assay_object_get(&groups->u.members[j].value, "type"));

			g->name = assay_xstrdup(groups->u.members[j].key.u.s);
			g->env = (assay_strvec)ASSAY_STRVEC_INIT;
			g->type = ASSAY_GROUP_FUNCTIONALITY;
			for (int k = 0; type && k < 4; k++)
				if (!strcmp(type, assay_group_type_name((assay_group_type)k)))
					g->type = (assay_group_type)k;
		}
	}
	s->ncases = m->total;
	/* (unrun_case_files: the suite's, load_suite; never a shard's word) */
	return 0;
}

static void skeleton_free(assay_suite *s)
{
	assay_strvec_clear(&s->command);
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++)
			free(s->checkpoints[i].groups[j].name);
		free(s->checkpoints[i].groups);
		free(s->checkpoints[i].name);
	}
	free(s->checkpoints);
	free(s->name);
}

/* The indices of checkpoint `cp`, group `g` (the last ones found first: cases come in runs). */
static bool locate(const assay_suite *s, const char *cp, const char *g, size_t *icp, size_t *ig)
{
	if (*icp < s->ncheckpoints && !strcmp(s->checkpoints[*icp].name, cp) &&
	    *ig < s->checkpoints[*icp].ngroups && !strcmp(s->checkpoints[*icp].groups[*ig].name, g))
		return true;
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		if (strcmp(s->checkpoints[i].name, cp))
			continue;
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++) {
			if (!strcmp(s->checkpoints[i].groups[j].name, g)) {
				*icp = i;
				*ig = j;
				return true;
			}
		}
	}
	return false;
}

/* ---- writing ------------------------------------------------------------------------- */

/* A deep copy of `v` in `a`, null when there is none (a shard's meta may lack a key). */
static assay_value copy_of(assay_arena *a, const assay_value *v)
{
	return v ? assay_value_copy(a, v) : assay_value_null();
}

/* The merged run's description: the first shard's, unsharded, with where it came from. */
static assay_value merged_meta(struct merge *m, assay_arena *a)
{
	static const char *const drop[] = { "shard", "command", "started",
					    "finished", "interrupted", "resumes",
					    "summary", "earlier_duration" };
	assay_value meta = assay_value_copy(a, &m->in[0].info), from = assay_value_array();

	for (size_t i = 0; i < sizeof(drop) / sizeof(*drop); i++)
		assay_object_deln(&meta, drop[i], strlen(drop[i]));
	assay_object_set(a, &meta, "cases", assay_value_int((int64_t)m->total));
	if (m->o->arguments)
		assay_object_set(a, &meta, "arguments", assay_value_copy(a, m->o->arguments));
	for (size_t k = 1; k <= m->in[0].count; k++) {
		for (size_t i = 0; i < m->nin; i++) {
			const struct shard_in *in = &m->in[i];

			if (in->index != k)
				continue;
			assay_value o = assay_value_object();
			char *abs = assay_path_absolute(in->dir);

			assay_object_set(a, &o, "index", assay_value_int((int64_t)in->index));
			assay_object_set(a, &o, "folder", assay_value_strz(a, abs));
			assay_object_set(a, &o, "host",
					 copy_of(a, assay_object_get(&in->info, "host")));
			assay_object_set(a, &o, "started",
					 copy_of(a, assay_object_get(&in->info, "started")));
			assay_object_set(a, &o, "finished",
					 copy_of(a, assay_object_get(&in->info, "finished")));
			assay_object_set(a, &o, "duration", assay_value_real(in->duration));
			assay_object_set(a, &o, "arguments",
					 copy_of(a, assay_object_get(&in->info,
									      "arguments")));
			assay_array_push(a, &from, o);
			free(abs);
		}
	}
	assay_value shards = assay_value_object();
	assay_object_set(a, &shards, "count", assay_value_int((int64_t)m->in[0].count));
	assay_object_set(a, &shards, "split", assay_value_strz(a, m->in[0].split));
	assay_object_set(a, &shards, "selection", copy_of(a, m->in[0].selection));
	assay_object_set(a, &shards, "from", from);
	assay_object_set(a, &meta, "merged", shards);
	return meta;
}

/* Hands case `p` (0-based) to every sink and counts it. */
static int merge_case(struct merge *m, size_t p, assay_sink *sinks, size_t nsinks,
		      assay_tallies *t, assay_store *out, size_t *icp, size_t *ig)
{
	const struct slot *sl = &m->slots[p];
	struct shard_in *in = &m->in[sl->shard - 1];
	const char *cp = sl->names, *g = sl->names + sl->group_at, *id = sl->names + sl->id_at;
	assay_arena *a = assay_arena_new(0);
	assay_value line;
	char hash[65];
	int rc;
	assay_store_case_key key = { .checkpoint = cp, .group = g, .id = id };

	if (!locate(&m->skel, cp, g, icp, ig)) {
		rc = assay_err_set(m->err, ASSAY_EINVALID, in->dir, 0, 0,
				   "case %s/%s/%s is of a group the run's summary does not have", cp,
				   g, id);
		goto out;
	}
	if ((rc = assay_store_get_case(in->s, &key, &line, a, m->err)) ||
	    (rc = assay_store_expand(in->s, &line, a, m->err)))
		goto out;
	assay_verdict v = { 0, false, NULL };

	/* the verdict is remade from the suite's case file and the actual values (reverify.c) */
	if (assay_shard__reverify(&line, &v, m->suite, sl->at, a, m->err)) {
		char *why = assay_xstrdup(m->err->msg);

		assay_err_clear(m->err);
		rc = assay_err_set(m->err, ASSAY_EINVALID, in->dir, 0, 0,
				   "shard %zu: case %s/%s/%s: %s", in->index, cp, g, id, why);
		free(why);
		goto out;
	}
	assay_case_report cr = {
		.checkpoint = &m->skel.checkpoints[*icp],
		.group = &m->skel.checkpoints[*icp].groups[*ig],
		.id = id,
		.json = &line,
		.score = v.score,
		.passed = v.passed,
		.error = v.error,
		.index = p + 1,
		.total = m->total,
	};
	assay_tallies_add(t, *icp, *ig, &cr);
	for (size_t i = 0; i < nsinks && !rc; i++)
		if (sinks[i].on_case)
			rc = sinks[i].on_case(sinks[i].payload, &cr, m->err);
	if (!rc && !(rc = assay_store_case_hash(in->s, cp, g, id, hash, m->err)) && hash[0])
		rc = assay_store_set_case_hash(out, cp, g, id, hash, m->err);
out:
	assay_arena_free(a);
	return rc;
}

/* Writes the merged run into folder `dir` (a new, empty one). */
static int write_run(struct merge *m, const char *dir, assay_tally *total_out)
{
	assay_store *out = NULL;
	assay_sink *sinks = assay_xcalloc(m->o->nsinks + 1, sizeof(*sinks));
	size_t nsinks = 0, icp = 0, ig = 0;
	assay_arena *a = assay_arena_new(0);
	assay_tallies *t = assay_tallies_new(&m->skel);
	assay_value meta = merged_meta(m, a);
	double wall = 0;
	int rc;

	if ((rc = assay_store_open(&out, dir, ASSAY_STORE_WRITE, m->err)) ||
	    (rc = assay_store_begin_run(out, &meta, false, m->err)) ||
	    (rc = assay_sink_store_new(&sinks[0], out, dir, m->o->value_cap, false, m->err)))
		goto out;
	nsinks = 1;
	for (size_t i = 0; i < m->o->nsinks; i++)
		sinks[nsinks++] = m->o->sinks[i];
	for (size_t i = 0; i < nsinks && !rc; i++)
		if (sinks[i].on_begin)
			rc = sinks[i].on_begin(sinks[i].payload, &m->skel, m->total, m->err);
	for (size_t p = 0; p < m->total && !rc; p++)
		rc = merge_case(m, p, sinks, nsinks, t, out, &icp, &ig);
	if (rc)
		goto out;
	for (size_t i = 0; i < m->nin; i++)
		wall += m->in[i].duration;
	assay_value sv = assay_tallies_summary(t, a, wall, false, NULL);
	assay_run_summary sum = { &m->skel, &sv, assay_tallies_total(t), m->total, wall, false };
	for (size_t i = 0; i < nsinks && !rc; i++)
		if (sinks[i].on_end)
			rc = sinks[i].on_end(sinks[i].payload, &sum, m->err);
	if (!rc && total_out)
		*total_out = assay_tallies_total(t);
out:
	if (nsinks)
		sinks[0].free(sinks[0].payload); /* the others are the caller's */
	free(sinks);
	assay_store_close(out);
	assay_tallies_free(t);
	assay_arena_free(a);
	return rc;
}

/* Puts the finished folder `tmp` in place of `output` (see the key decisions). */
static int put_in_place(const char *tmp, const char *output, assay_err *err)
{
	if (!assay_fs_exists(output)) {
		if (rename(tmp, output))
			return assay_err_set(err, ASSAY_EIO, output, 0, 0, "cannot make: %s",
					     strerror(errno));
		return 0;
	}
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, output, RENAME_EXCHANGE) == 0) {
		assay_fs_remove_tree(tmp, NULL); /* tmp now holds the old results */
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return assay_err_set(err, ASSAY_EIO, output, 0, 0, "cannot replace: %s",
				     strerror(errno));
	/* a file system without the exchange: the old folder aside, the new one in */
	char *old = assay_xasprintf("%s.old", tmp);
	int rc = 0;

	if (rename(output, old))
		rc = assay_err_set(err, ASSAY_EIO, output, 0, 0, "cannot replace: %s",
				   strerror(errno));
	else if (rename(tmp, output)) {
		rc = assay_err_set(err, ASSAY_EIO, output, 0, 0, "cannot replace: %s",
				   strerror(errno));
		if (rename(old, output)) /* the old results back where they were */
			rc = assay_err_set(err, ASSAY_EIO, old, 0, 0, "the old results are here");
	} else {
		assay_fs_remove_tree(old, NULL);
	}
	free(old);
	return rc;
}

/*
 * An existing output must be a results folder (then locked until replaced) or empty, and none
 * of the shards (whatever the path says: the same folder by inode).
 */
static int check_output(const struct merge *m, const char *output, assay_store **lock,
			assay_err *err)
{
	char *db = assay_path_join(output, ASSAY_STORE_FILE);
	bool results = assay_fs_exists(db);
	struct stat so, si;
	int rc = 0;

	free(db);
	if (stat(output, &so))
		return 0; /* (a link to nowhere: rename replaces the link) */
	for (size_t i = 0; i < m->nin; i++)
		if (!stat(m->in[i].dir, &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			return assay_err_set(err, ASSAY_EINVALID, output, 0, 0,
					     "is the shard %s: merge into another folder",
					     m->in[i].dir);
	if (!assay_fs_is_dir(output))
		return assay_err_set(err, ASSAY_EINVALID, output, 0, 0,
				     "exists and is not a folder: not replaced");
	if (results)
		return assay_store_open(lock, output, ASSAY_STORE_WRITE, err);
	DIR *d = opendir(output);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = assay_err_set(err, ASSAY_EINVALID, output, 0, 0,
					   "exists and is not a results folder: not replaced");
	if (d)
		closedir(d);
	return rc;
}

int assay_merge_shards(const assay_merge_opts *o, assay_tally *summary_out, assay_err *err)
{
	struct merge m = { .o = o, .err = err };
	assay_store *lock = NULL;
	char *tmp = NULL, *parent = NULL, *base = NULL;
	int rc = 0;

	if (!o->ndirs || !o->output)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "give the shards' results folders and an output folder");
	m.in = assay_xcalloc(o->ndirs, sizeof(*m.in));
	m.nin = o->ndirs;
	for (size_t i = 0; i < m.nin && !rc; i++) {
		m.in[i].dir = o->dirs[i];
		rc = open_shard(&m, &m.in[i]);
	}
	if (rc || (rc = check_set(&m)))
		goto out;
	m.total = m.in[0].total;
	if ((rc = count_rows(&m)) || (rc = collect_cases(&m)) || (rc = skeleton(&m)) ||
	    (rc = check_split(&m)) || (rc = load_suite(&m)) || (rc = check_structure(&m)) ||
	    (rc = check_case_files(&m)) || (rc = check_none_missing(&m)) ||
	    (rc = check_output(&m, o->output, &lock, err)))
		goto out;
	/* a temporary folder beside the output: the rename stays on one file system */
	char *abs = assay_path_absolute(o->output);
	size_t len = strlen(abs);

	while (len > 1 && abs[len - 1] == '/') /* "OUT/" is OUT */
		abs[--len] = '\0';
	char *slash = strrchr(abs, '/');
	parent = assay_xstrndup(abs, (size_t)(slash - abs) + (slash == abs));
	base = assay_xasprintf(".%s.merge-", slash + 1);
	free(abs);
	if ((rc = assay_fs_mkdirs(parent, err)) || (rc = assay_fs_mkdtemp(&tmp, parent, base, err)))
		goto out;
	if ((rc = write_run(&m, tmp, summary_out)))
		goto out;
	chmod(tmp, 0755); /* mkdtemp's 0700 would make the results private */
	rc = put_in_place(tmp, o->output, err);
	if (!rc) {
		free(tmp);
		tmp = NULL;
	}
out:
	if (tmp)
		assay_fs_remove_tree(tmp, NULL);
	assay_store_close(lock);
	for (size_t i = 0; i < m.nin; i++) {
		assay_store_close(m.in[i].s);
		assay_arena_free(m.in[i].a);
	}
	for (size_t p = 0; m.slots && p < m.total; p++)
		free(m.slots[p].names);
	free(m.slots);
	free(m.in);
	skeleton_free(&m.skel);
	assay_suite_free(m.suite);
	free(tmp);
	free(parent);
	free(base);
	return rc;
}
