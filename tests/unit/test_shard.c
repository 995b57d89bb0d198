/*
 * Unit tests of the split into shards (src/lib/shard; shard.h; issue #10 part 3): `--shard`
 * parsing with Slurm's and Kubernetes' variables, the assignment (every unit once, balanced,
 * independent of input order, stable across versions), the split of a loaded suite (groups
 * sharing a folder whole, positions in the unsharded order, one fingerprint for all shards),
 * and durations read from an earlier run.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/report.h"
#include "assay/shard.h"

/* ---- --shard --------------------------------------------------------------------------- */

static const char *const *env_now; /* NAME=VALUE pairs the fake getenv answers from */

static const char *fake_getenv(const char *name)
{
	size_t n = strlen(name);

	for (const char *const *e = env_now; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static int parse(const char *text, const char *const *env, assay_shard *out, assay_err *err)
{
	env_now = env;
	assay_err_clear(err); /* the first error wins: each parse gets its own */
	return assay_shard_parse(out, text, fake_getenv, err);
}

Test(shard, parse_explicit)
{
	assay_shard s;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(parse("2/3", NULL, &s, &err), 0);
	cr_assert(s.index == 2 && s.count == 3);
	cr_assert_eq(parse("1/1", NULL, &s, &err), 0);
	cr_assert_eq(parse("100000/100000", NULL, &s, &err), 0);
	const char *bad[] = { "0/3", "4/3", "3", "/3", "1/", "a/3", "1/b", "-1/3", "1/-3", "",
			      "1/3/3", " 1/3", "1/3 ", "1/0", "1/100001", "auto/0", "99999999999999999999/3",
			      "autox", NULL };
	for (const char **b = bad; *b; b++) {
		assay_err e = ASSAY_ERR_INIT;

		cr_assert_eq(parse(*b, NULL, &s, &e), ASSAY_EINVALID, "'%s' accepted", *b);
		cr_assert(e.msg[0], "no message for '%s'", *b);
	}
	cr_assert_eq(parse("0/3", NULL, &s, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "numbered from 1"), "%s", err.msg);
	cr_assert(strstr(err.msg, "--shard auto"), "%s", err.msg);
}

Test(shard, parse_slurm)
{
	assay_shard s;
	assay_err err = ASSAY_ERR_INIT;
	const char *one_based[] = { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=1",
				    "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=3", NULL };
	const char *zero_based[] = { "SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_MIN=0",
				     "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=4", NULL };
	const char *stepped[] = { "SLURM_ARRAY_TASK_ID=14", "SLURM_ARRAY_TASK_MIN=10",
				  "SLURM_ARRAY_TASK_MAX=16", "SLURM_ARRAY_TASK_STEP=2",
				  "SLURM_ARRAY_TASK_COUNT=4", NULL };
	const char *listed[] = { "SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_MIN=1",
				 "SLURM_ARRAY_TASK_MAX=9", "SLURM_ARRAY_TASK_COUNT=3", NULL };
	const char *no_min[] = { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3", NULL };
	const char *no_count[] = { "SLURM_ARRAY_TASK_ID=2", NULL };
	const char *past[] = { "SLURM_ARRAY_TASK_ID=7", "SLURM_ARRAY_TASK_MIN=4",
			       "SLURM_ARRAY_TASK_COUNT=3", NULL };

	cr_assert_eq(parse("auto", one_based, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 3 && s.count == 3);
	cr_assert_eq(parse("auto", zero_based, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 1 && s.count == 4);
	cr_assert_eq(parse("auto", stepped, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 3 && s.count == 4);
	cr_assert_eq(parse("auto/4", stepped, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(parse("auto/3", stepped, &s, &err), ASSAY_EINVALID);
	cr_assert_eq(parse("auto", listed, &s, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "evenly stepped"), "%s", err.msg);
	/* no MIN: 0, as Slurm's arrays start */
	cr_assert_eq(parse("auto", no_min, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 3 && s.count == 3);
	cr_assert_eq(parse("auto", no_count, &s, &err), ASSAY_EINVALID);
	cr_assert_eq(parse("auto", past, &s, &err), ASSAY_EINVALID);
}

Test(shard, parse_kubernetes)
{
	assay_shard s;
	assay_err err = ASSAY_ERR_INIT;
	const char *idx0[] = { "JOB_COMPLETION_INDEX=0", "ASSAY_SHARD_COUNT=5", NULL };
	const char *idx4[] = { "JOB_COMPLETION_INDEX=4", NULL };
	const char *idx5[] = { "JOB_COMPLETION_INDEX=5", "ASSAY_SHARD_COUNT=5", NULL };
	const char *junk[] = { "JOB_COMPLETION_INDEX=x", "ASSAY_SHARD_COUNT=5", NULL };
	const char *both[] = { "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_MIN=1",
			       "SLURM_ARRAY_TASK_COUNT=2", "JOB_COMPLETION_INDEX=0", NULL };

	cr_assert_eq(parse("auto", idx0, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 1 && s.count == 5);
	cr_assert_eq(parse("auto/5", idx4, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 5 && s.count == 5);
	cr_assert_eq(parse("auto", idx4, &s, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "ASSAY_SHARD_COUNT"), "%s", err.msg);
	cr_assert_eq(parse("auto", idx5, &s, &err), ASSAY_EINVALID);
	cr_assert_eq(parse("auto", junk, &s, &err), ASSAY_EINVALID);
	cr_assert_eq(parse("auto", NULL, &s, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "SLURM_ARRAY_TASK_ID"), "%s", err.msg);
	/* Slurm first when both are there */
	cr_assert_eq(parse("auto", both, &s, &err), 0, "%s", err.msg);
	cr_assert(s.index == 1 && s.count == 2);
}

/* ---- the assignment --------------------------------------------------------------------- */

static assay_shard_unit *make_units(size_t n, double (*weight)(size_t i))
{
	assay_shard_unit *u = calloc(n, sizeof(*u));

	for (size_t i = 0; i < n; i++) {
		char name[64];

		snprintf(name, sizeof(name), "checkpoint_1/core/case-%05zu", i);
		u[i].name = strdup(name);
		u[i].weight = weight ? weight(i) : 1;
	}
	return u;
}

static void free_units(assay_shard_unit *u, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)u[i].name);
	free(u);
}

Test(shard, assign_equal_weights_balanced)
{
	for (size_t count = 1; count <= 9; count++) {
		size_t n = 1000, *out = calloc(n, sizeof(*out)), sizes[10] = { 0 };
		assay_shard_unit *u = make_units(n, NULL);

		assay_shard_assign(u, n, count, out);
		for (size_t i = 0; i < n; i++) {
			cr_assert(out[i] >= 1 && out[i] <= count);
			sizes[out[i]]++;
		}
		for (size_t k = 1; k <= count; k++)
			cr_assert(sizes[k] == n / count || sizes[k] == n / count + 1,
				  "%zu shards: shard %zu has %zu", count, k, sizes[k]);
		/* spread by hash, not in runs: neighbours rarely share a shard */
		size_t same = 0;
		for (size_t i = 1; count > 1 && i < n; i++)
			same += out[i] == out[i - 1];
		cr_assert(count == 1 || same < 2 * n / count, "%zu neighbours together", same);
		free(out);
		free_units(u, n);
	}
}

static double skewed(size_t i)
{
	return i == 7 ? 100 : i % 3 + 1;
}

Test(shard, assign_independent_of_order)
{
	size_t n = 200, *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	assay_shard_unit *u = make_units(n, skewed), *r = calloc(n, sizeof(*r));

	for (size_t i = 0; i < n; i++)
		r[i] = u[n - 1 - i];
	assay_shard_assign(u, n, 7, a);
	assay_shard_assign(r, n, 7, b);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(a[i], b[n - 1 - i]);
	free(a);
	free(b);
	free(r);
	free_units(u, n);
}

Test(shard, assign_longest_first)
{
	size_t n = 40, *out = calloc(n, sizeof(*out));
	double load[4] = { 0 }, total = 0, max = 0;
	assay_shard_unit *u = make_units(n, skewed);

	assay_shard_assign(u, n, 3, out);
	/* the 100-second unit is alone: nothing else fits beside it under the mean */
	for (size_t i = 0; i < n; i++) {
		load[out[i]] += u[i].weight;
		total += u[i].weight;
		if (i != 7)
			cr_assert_neq(out[i], out[7], "unit %zu shares the slow unit's shard", i);
	}
	/* the others are within one unit of each other */
	for (int k = 1; k <= 3; k++)
		if (k != (int)out[7] && load[k] > max)
			max = load[k];
	for (int k = 1; k <= 3; k++)
		if (k != (int)out[7])
			cr_assert(max - load[k] <= 3, "loads %g %g %g", load[1], load[2], load[3]);
	cr_assert(total > 0);
	free(out);
	free_units(u, n);
}

Test(shard, assign_is_stable)
{
	/* A golden split: shards made by different assay builds must agree (the merge checks the
	 * fingerprint, but a changed split should be a deliberate, documented change). */
	assay_shard_unit u[] = { { "c/g/a", 1 }, { "c/g/b", 1 }, { "c/g/c", 1 }, { "c/g/d", 1 },
				 { "c/g/e", 1 }, { "c/h", 3 }, { "c/g/slow", 4 } };
	size_t out[7];

	assay_shard_assign(u, 7, 3, out);
	char got[64] = "";
	for (size_t i = 0; i < 7; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%zu", out[i]);
	/* the 4 on 1, the group of 3 on 2 with one case, four cases on 3: 4, 4, 4 */
	cr_assert_str_eq(got, "3333221");
}

Test(shard, assign_more_shards_than_units)
{
	assay_shard_unit u[] = { { "x", 1 }, { "y", 1 } };
	size_t out[2];

	assay_shard_assign(u, 2, 5, out);
	cr_assert_neq(out[0], out[1]);
	cr_assert(out[0] <= 2 && out[1] <= 2);
	assay_shard_assign(u, 0, 5, out); /* nothing to do */
}

/* ---- a loaded suite ------------------------------------------------------------------------ */

#define SUITE ASSAY_FIXTURES "/suites/shard"

static assay_suite *load(void)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_suite_load(&s, SUITE, NULL, NULL, NULL, &err), 0, "%s", err.msg);
	return s;
}

/* "checkpoint/group/id" of every case of `s`, in run order, one per line. */
static char *names(const assay_suite *s)
{
	assay_buf b = ASSAY_BUF_INIT;

	for (size_t i = 0; i < s->ncheckpoints; i++)
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++)
			for (size_t k = 0; k < s->checkpoints[i].groups[j].ncases; k++)
				assay_buf_addf(&b, "%s/%s/%s\n", s->checkpoints[i].name,
					       s->checkpoints[i].groups[j].name,
					       s->checkpoints[i].groups[j].cases[k].id);
	return assay_buf_detach(&b, NULL);
}

Test(shard, suite_split_whole)
{
	assay_suite *all = load();
	char *want = names(all);
	size_t total = all->ncases, seen = 0;
	char split[65] = "";
	char *lines[64] = { 0 };
	size_t nlines = 0;

	for (char *p = want, *nl; (nl = strchr(p, '\n')); p = nl + 1)
		lines[nlines++] = strndup(p, (size_t)(nl - p));
	cr_assert_eq(nlines, total);
	for (size_t i = 1; i <= 3; i++) {
		assay_suite *s = load();
		assay_shard sh = { i, 3 };
		assay_shard_plan plan = ASSAY_SHARD_PLAN_INIT;
		assay_err err = ASSAY_ERR_INIT;

		cr_assert_eq(assay_suite_shard(s, &sh, NULL, &plan, &err), 0, "%s", err.msg);
		cr_assert_eq(plan.total, total);
		cr_assert_eq(plan.npositions, s->ncases);
		cr_assert(plan.weight > 0 && plan.weight_all == (double)total);
		if (i == 1)
			memcpy(split, plan.split, 65);
		cr_assert_str_eq(plan.split, split, "every shard has the same fingerprint");
		/* the kept cases are the whole run's at their positions, in order */
		char *got = names(s), *p = got;
		for (size_t k = 0; k < plan.npositions; k++) {
			char *nl = strchr(p, '\n');

			cr_assert(k == 0 || plan.positions[k] > plan.positions[k - 1]);
			cr_assert(plan.positions[k] >= 1 && plan.positions[k] <= total);
			cr_assert_eq(strncmp(p, lines[plan.positions[k] - 1], (size_t)(nl - p)), 0);
			free(lines[plan.positions[k] - 1]);
			lines[plan.positions[k] - 1] = NULL; /* taken: never twice */
			p = nl + 1;
		}
		seen += plan.npositions;
		/* the group sharing a folder: all or nothing */
		for (size_t j = 0; j < s->checkpoints[0].ngroups; j++)
			if (!strcmp(s->checkpoints[0].groups[j].name, "shared"))
				cr_assert(s->checkpoints[0].groups[j].ncases == 0 ||
					  s->checkpoints[0].groups[j].ncases == 3);
		/* every group is still there (summary.json lists them all) */
		cr_assert_eq(s->ncheckpoints, all->ncheckpoints);
		for (size_t c = 0; c < s->ncheckpoints; c++)
			cr_assert_eq(s->checkpoints[c].ngroups, all->checkpoints[c].ngroups);
		free(got);
		assay_shard_plan_release(&plan);
		assay_suite_free(s);
	}
	cr_assert_eq(seen, total);
	for (size_t k = 0; k < nlines; k++)
		cr_assert_null(lines[k], "%s is in no shard", lines[k]);
	free(want);
	assay_suite_free(all);
}

Test(shard, suite_split_by_durations)
{
	char dir[] = "/tmp/assay-test-shard-XXXXXX";
	assay_shard_durations *d = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert(mkdtemp(dir));
	char *file = assay_path_join(dir, "reports.jsonl");
	const char *text =
		"{\"checkpoint\": \"checkpoint_2\", \"group\": \"more\", \"id\": \"m3\", \"duration\": 50}\n"
		"\n"
		"{\"checkpoint\": \"checkpoint_1\", \"group\": \"core\", \"id\": \"a\", \"duration\": 1.5}\n"
		"{\"checkpoint\": \"checkpoint_1\", \"group\": \"core\", \"id\": \"b\"}\n"
		"{\"checkpoint\": \"checkpoint_1\", \"group\": \"core\", \"id\": \"c\", \"duration\": -1}\n"
		"{\"checkpoint\": \"checkpoint_1\", \"group\": \"core\", \"id\": \"a\", \"duration\": 0.5}\n";
	cr_assert_eq(assay_fs_write(file, text, strlen(text), 0644, &err), 0);
	/* a file, or the results folder holding it */
	cr_assert_eq(assay_shard_durations_read(&d, dir, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_shard_durations_count(d), 2); /* m3, a (its last line) */
	for (int pass = 0; pass < 2; pass++) {
		assay_suite *s = load();
		assay_shard sh = { 1, 2 }, other = { 2, 2 };
		assay_shard_plan plan = ASSAY_SHARD_PLAN_INIT, p2 = ASSAY_SHARD_PLAN_INIT;
		assay_suite *s2 = load();

		cr_assert_eq(assay_suite_shard(s, &sh, d, &plan, &err), 0);
		cr_assert_eq(assay_suite_shard(s2, &other, d, &p2, &err), 0);
		/* m3 50 s, a 0.5 s (its last line), the 26 others the mean, 25.25 s */
		cr_assert_eq(plan.weight_all, 50 + 0.5 + 26 * 25.25, "%g", plan.weight_all);
		cr_assert_eq(p2.weight_all, plan.weight_all);
		cr_assert_eq(plan.weight + p2.weight, plan.weight_all);
		/* greedy longest first: the shards differ by at most the heaviest unit (the shared
		 * group, 3 x 25.25) */
		cr_assert(fabs(plan.weight - p2.weight) <= 3 * 25.25, "%g %g", plan.weight, p2.weight);
		cr_assert_eq(plan.npositions + p2.npositions, 28);
		cr_assert_str_eq(plan.split, p2.split);
		assay_shard_plan_release(&plan);
		assay_shard_plan_release(&p2);
		assay_suite_free(s);
		assay_suite_free(s2);
		if (!pass) {
			assay_shard_durations_free(d);
			cr_assert_eq(assay_shard_durations_read(&d, file, &err), 0);
		}
	}
	assay_shard_durations_free(d);
	/* durations no run could have taken (a report line written by hand, or forged) weigh
	 * nothing: NaN, infinities, negative, absurdly long, not numbers */
	const char *forged =
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"nan\", \"duration\": NaN}\n"
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"inf\", \"duration\": Infinity}\n"
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"big\", \"duration\": 1e300}\n"
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"neg\", \"duration\": -5}\n"
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"str\", \"duration\": \"9\"}\n"
		"{\"checkpoint\": 1, \"group\": \"g\", \"id\": \"x\", \"duration\": 9}\n"
		"[1, 2]\n"
		"{\"checkpoint\": \"c\", \"group\": \"g\", \"id\": \"ok\", \"duration\": 2}\n";
	cr_assert_eq(assay_fs_write(file, forged, strlen(forged), 0644, &err), 0);
	cr_assert_eq(assay_shard_durations_read(&d, file, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_shard_durations_count(d), 1);
	assay_shard_durations_free(d);
	/* a line that is not JSON: named */
	cr_assert_eq(assay_fs_write(file, "{}\nnope\n", 8, 0644, &err), 0);
	cr_assert_eq(assay_shard_durations_read(&d, file, &err), ASSAY_EPARSE);
	cr_assert_eq(err.line, 2);
	cr_assert_null(d);
	cr_assert_eq(assay_shard_durations_read(&d, "/no/such/file", &err), ASSAY_ENOTFOUND);
	assay_fs_remove_tree(dir, NULL);
	free(file);
}

Test(shard, suite_split_refuses_a_bad_shard)
{
	assay_suite *s = load();
	assay_shard_plan plan = ASSAY_SHARD_PLAN_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_shard zero = { 0, 3 }, past = { 4, 3 };

	cr_assert_eq(assay_suite_shard(s, &zero, NULL, &plan, &err), ASSAY_EINVALID);
	cr_assert_eq(assay_suite_shard(s, &past, NULL, &plan, &err), ASSAY_EINVALID);
	cr_assert_eq(s->ncases, 28); /* untouched */
	assay_suite_free(s);
}

/* ---- the shard's sink -------------------------------------------------------------------- */

struct capture {
	size_t index[64], total[64], n;
	bool shard_in_summary;
};

static int cap_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct capture *c = payload;

	(void)err;
	c->index[c->n] = r->index;
	c->total[c->n++] = r->total;
	return 0;
}

static int cap_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct capture *c = payload;
	const assay_value *sh = assay_object_get(sum->json, "shard");

	(void)err;
	c->shard_in_summary = sh && assay_value_number(assay_object_get(sh, "index")) == 2 &&
			      assay_value_number(assay_object_get(sh, "count")) == 3 &&
			      assay_value_number(assay_object_get(sh, "cases")) == 28;
	return 0;
}

Test(shard, sink_places_cases_by_name_whatever_their_order)
{
	assay_suite *s = load();
	assay_shard sh = { 2, 3 };
	assay_shard_plan plan = ASSAY_SHARD_PLAN_INIT;
	assay_err err = ASSAY_ERR_INIT;
	struct capture cap = { .n = 0 };
	assay_sink inner = { &cap, NULL, cap_case, cap_end, NULL, NULL }, k;
	const assay_case_report *reports[64];
	size_t n = 0;

	cr_assert_eq(assay_suite_shard(s, &sh, NULL, &plan, &err), 0);
	cr_assert_eq(assay_sink_shard_new(&k, &inner, &plan), 0);
	cr_assert_eq(k.on_begin(k.payload, s, s->ncases, &err), 0);
	/* every kept case, reported last first, each with a wrong index (as a pool might) */
	assay_case_report *all = calloc(plan.npositions, sizeof(*all));
	for (size_t i = 0; i < s->ncheckpoints; i++)
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++)
			for (size_t c = 0; c < s->checkpoints[i].groups[j].ncases; c++) {
				all[n] = (assay_case_report){ .checkpoint = &s->checkpoints[i],
					.group = &s->checkpoints[i].groups[j],
					.id = s->checkpoints[i].groups[j].cases[c].id,
					.index = 1, .total = s->ncases };
				reports[n] = &all[n];
				n++;
			}
	cr_assert_eq(n, plan.npositions);
	for (size_t i = n; i-- > 0;)
		cr_assert_eq(k.on_case(k.payload, reports[i], &err), 0);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(cap.index[i], plan.positions[n - 1 - i]);
		cr_assert_eq(cap.total[i], 28);
	}
	assay_value summary = assay_value_object();
	assay_run_summary sum = { s, &summary, { 0 }, n, 0, false };
	cr_assert_eq(k.on_end(k.payload, &sum, &err), 0);
	cr_assert(cap.shard_in_summary);
	cr_assert_eq(summary.len, 0, "the runner's summary is not changed");
	k.free(k.payload);
	free(all);
	assay_shard_plan_release(&plan);
	assay_suite_free(s);
}

/* A verdict remade from the line's attributes (report.h, assay_score_line). */
static void score_of(const char *json, double *score, bool *passed, int want_rc)
{
	assay_arena *a = assay_arena_new(0);
	assay_value v;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_json_parse(&v, a, json, strlen(json), NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_score_line(&v, score, passed, &err), want_rc, "%s", json);
	assay_arena_free(a);
}

Test(shard, score_line_remakes_the_verdict)
{
	double score = -1;
	bool passed = true;

	/* a failing attribute fails the case whatever the line says */
	score_of("{\"passed\": true, \"score\": 1, \"error\": null, \"results\": {"
		 "\"output\": {\"is_correct\": false, \"weight\": 1},"
		 "\"status_code\": {\"is_correct\": true, \"weight\": 1},"
		 "\"extra\": {\"is_correct\": null, \"weight\": 0}}}", &score, &passed, 0);
	cr_assert(!passed);
	cr_assert_float_eq(score, 0.5, 1e-12);
	/* issue #17: the score is calculate_score; a partial credit (an old line's per-result
	 * "score") never counts (it used to make this 2.5 / 4); every attribute correct passes */
	score_of("{\"error\": null, \"results\": {\"a\": {\"is_correct\": true, \"weight\": 3, "
		 "\"score\": 0.5}, \"b\": {\"is_correct\": true, \"weight\": 1}}}", &score, &passed,
		 0);
	cr_assert(passed);
	cr_assert_float_eq(score, 1.0, 1e-12);
	/* the error of a line written since then is in its case object */
	score_of("{\"case\": {\"error\": \"boom\"}, \"results\": {\"a\": {\"is_correct\": true, "
		 "\"weight\": 1}}}", &score, &passed, 0);
	cr_assert(!passed);
	/* an error never passes; nothing verified never passes */
	score_of("{\"error\": \"boom\", \"results\": {\"a\": {\"is_correct\": true, \"weight\": 1}}}",
		 &score, &passed, 0);
	cr_assert(!passed);
	score_of("{\"error\": null, \"results\": {}}", &score, &passed, 0);
	cr_assert(!passed);
	cr_assert_float_eq(score, 0, 1e-12);
	/* a weight no runner writes is refused */
	score_of("{\"results\": {\"a\": {\"is_correct\": true, \"weight\": -1}}}", &score, &passed,
		 ASSAY_EINVALID);
	score_of("{\"passed\": true}", &score, &passed, ASSAY_EINVALID);
}
