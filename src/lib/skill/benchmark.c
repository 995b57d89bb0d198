/*
 * `assay skill benchmark` (issue 20 item 3): benchmarks/<timestamp>/benchmark.json in the
 * shape Anthropic's skill-creator documents (references/schemas.md, "benchmark.json") and its
 * aggregate_benchmark.py writes, so that the ecosystem's viewer reads it: `metadata`, `runs[]`
 * (each with `configuration` "with_skill" or "without_skill" and a nested `result`),
 * `run_summary` (mean, sample standard deviation, min and max per configuration, rounded to 4
 * places, and `delta` strings "+0.50", "+13.0", "+1700"), `notes`.
 *
 * Where each number comes from: with_skill runs are the version's grading files, without_skill
 * runs the baseline's (`run --baseline`); `pass_rate`, `passed`, `failed`, `total` count the
 * run's expectations (score >= 3 passes); `time_seconds` is the executor's wall time from the
 * run folder's timing.json; `tokens`, `tool_calls`, `errors` come from the run's metrics
 * (execution_metrics: total_tokens, else tokens, else input_tokens + output_tokens;
 * total_tool_calls; errors_encountered), 0 when absent. `eval_id` is the case's position in
 * evals.json (from 1: the viewer wants a number), `eval_name` its id.
 *
 * Decisions: without a baseline, run_summary has with_skill only and no delta (a delta against
 * nothing would be a number that lies), and a note says how to get one. Notes are assay's own
 * findings, never an LLM's: expectations that pass in every run of both configurations (they
 * cannot show what the skill is worth), flaky expectations (passed in some runs of a
 * configuration, not all), runs left out because they were not graded.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "skill/skill_int.h"
#include "util/banned.h"

struct brun {
	uint32_t case_index;
	int run;
	bool without;
	assay_value g;             /* the grading file */
	double pass_rate, time_s, tokens;
};

/* The graded runs read, and how many grading files could not be. */
struct bruns {
	struct brun *v;
	size_t n, alloc;
	size_t unreadable;
};

struct stat_acc {
	double *v;
	size_t n, alloc;
};

static void acc_add(struct stat_acc *s, double x)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = assay_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->n++] = x;
}

static double round4(double x)
{
	return round(x * 10000) / 10000;
}

/* {mean, stddev (n - 1), min, max}, rounded to 4 places, as aggregate_benchmark.py; all 0
 * when empty. `*mean` gets the unrounded mean. */
static assay_value stats(assay_arena *a, const struct stat_acc *s, double *mean)
{
	assay_value o = assay_value_object();
	double sum = 0, var = 0, lo = s->n ? s->v[0] : 0, hi = lo;

	for (size_t i = 0; i < s->n; i++) {
		sum += s->v[i];
		lo = fmin(lo, s->v[i]);
		hi = fmax(hi, s->v[i]);
	}
	double m = s->n ? sum / (double)s->n : 0;
	for (size_t i = 0; i < s->n; i++)
		var += (s->v[i] - m) * (s->v[i] - m);
	double sd = s->n > 1 ? sqrt(var / (double)(s->n - 1)) : 0;
	*mean = m;
	assay_object_set(a, &o, "mean", assay_value_real(round4(m)));
	assay_object_set(a, &o, "stddev", assay_value_real(round4(sd)));
	assay_object_set(a, &o, "min", assay_value_real(round4(lo)));
	assay_object_set(a, &o, "max", assay_value_real(round4(hi)));
	return o;
}

/* A count from execution_metrics, 0 when absent or not a number >= 0. */
static double metric(const assay_value *m, const char *key)
{
	const assay_value *v = assay_object_get(m, key);
	double x;

	if (!v || v->kind == ASSAY_V_BOOL || !assay_value_is_number(v) ||
	    !isfinite(x = assay_value_number(v)) || x < 0)
		return 0;
	return x;
}

static double tokens_of(const assay_value *m)
{
	if (assay_object_get(m, "total_tokens"))
		return metric(m, "total_tokens");
	if (assay_object_get(m, "tokens"))
		return metric(m, "tokens");
	return metric(m, "input_tokens") + metric(m, "output_tokens");
}

/* The executor's seconds from the run folder's timing.json (assay's own file), 0 if none. */
static double run_seconds(const char *ws, const char *rel, assay_arena *a)
{
	assay_buf b = ASSAY_BUF_INIT;
	assay_value t;
	double s = 0;

	if (!assay_fs_read_beneath(&b, ws, rel, 1u << 20, NULL) &&
	    !assay_json_parse(&t, a, b.ptr, b.len, NULL, NULL))
		s = metric(&t, "seconds");
	assay_buf_release(&b);
	return s;
}

static int case_index(const assay_value *cases, const char *id)
{
	for (uint32_t i = 0; i < cases->len; i++)
		if (assay_value_is_str(assay_object_get(&cases->u.items[i], "id"), id))
			return (int)i;
	return -1;
}

static int by_place(const void *x, const void *y)
{
	const struct brun *a = x, *b = y;

	if (a->case_index != b->case_index)
		return a->case_index < b->case_index ? -1 : 1;
	if (a->without != b->without)
		return a->without ? 1 : -1;
	return a->run - b->run;
}

/* Reads the grading files of one folder: the version's (`version` >= 0) or the baseline's. */
static void collect(struct bruns *b, const char *ws, const assay_value *cases, int version,
		    assay_arena *a)
{
	bool without = version < 0;
	char *dir = assay_path_join(ws, without ? "without_skill/grading" : "grading");
	struct dirent **names = NULL;
	int k = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < k; i++) {
		char id[256];
		int v = -1, run;
		bool ok = without ? assay_skill__baseline_name(names[i]->d_name, id, sizeof(id), &run)
				  : assay_skill__grading_name(names[i]->d_name, id, sizeof(id),
							      &v, &run) && v == version;
		int ci = ok ? case_index(cases, id) : -1;
		if (ci >= 0) {
			struct brun r = { (uint32_t)ci, run, without, assay_value_null(), 0, 0, 0 };
			char *p = assay_path_join(dir, names[i]->d_name);
			if (assay_skill__load_json(&r.g, a, p, NULL) || r.g.kind != ASSAY_V_OBJECT) {
				b->unreadable++;
			} else {
				char *t = without
						  ? assay_xasprintf("without_skill/runs/%s/run%d/timing.json",
								    id, run)
						  : assay_xasprintf("runs/%s/v%d/run%d/timing.json", id,
								    version, run);
				r.time_s = run_seconds(ws, t, a);
				r.tokens = tokens_of(assay_object_get(&r.g, "execution_metrics"));
				free(t);
				if (b->n == b->alloc) {
					b->alloc = b->alloc ? 2 * b->alloc : 32;
					b->v = assay_xrealloc(b->v, b->alloc * sizeof(*b->v));
				}
				b->v[b->n++] = r;
			}
			free(p);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
}

/* One entry of runs[]. */
static assay_value run_value(assay_arena *a, struct brun *r, const assay_value *ecase)
{
	assay_value o = assay_value_object(), res = assay_value_object();
	assay_value exps = assay_value_array(), notes = assay_value_array();
	const assay_value *results = assay_object_get(&r->g, "results");
	const assay_value *em = assay_object_get(&r->g, "execution_metrics");
	const assay_value *ee = assay_object_get(ecase, "expectations");
	size_t passed = 0, total = 0;

	for (uint32_t i = 0; results && results->kind == ASSAY_V_ARRAY && i < results->len; i++) {
		const assay_value *x = &results->u.items[i];
		const char *crit = assay_skill__str(x, "criterion");
		const char *text = crit;
		bool p = assay_value_number(assay_object_get(x, "score")) >= 3;
		for (uint32_t k = 0; crit && ee && k < ee->len; k++)
			if (assay_value_is_str(assay_object_get(&ee->u.items[k], "criterion"), crit) &&
			    assay_skill__str(&ee->u.items[k], "description"))
				text = assay_skill__str(&ee->u.items[k], "description");
		const char *why = assay_skill__str(x, "reasoning");
		assay_value e = assay_value_object();
		assay_object_set(a, &e, "text", assay_value_strz(a, text ? text : ""));
		assay_object_set(a, &e, "passed", assay_value_bool(p));
		assay_object_set(a, &e, "evidence", assay_value_strz(a, why ? why : ""));
		assay_object_set(a, &e, "criterion", assay_value_strz(a, crit ? crit : ""));
		assay_array_push(a, &exps, e);
		passed += p;
		total++;
	}
	r->pass_rate = total ? (double)passed / (double)total : 0;
	const char *id = assay_skill__str(ecase, "id");
	assay_object_set(a, &o, "eval_id", assay_value_int((int64_t)r->case_index + 1));
	assay_object_set(a, &o, "eval_name", assay_value_strz(a, id ? id : ""));
	assay_object_set(a, &o, "configuration",
			 assay_value_strz(a, r->without ? "without_skill" : "with_skill"));
	assay_object_set(a, &o, "run_number", assay_value_int(r->run));
	assay_object_set(a, &res, "pass_rate", assay_value_real(round4(r->pass_rate)));
	assay_object_set(a, &res, "passed", assay_value_int((int64_t)passed));
	assay_object_set(a, &res, "failed", assay_value_int((int64_t)(total - passed)));
	assay_object_set(a, &res, "total", assay_value_int((int64_t)total));
	assay_object_set(a, &res, "time_seconds", assay_value_real(round4(r->time_s)));
	assay_object_set(a, &res, "tokens", assay_value_int((int64_t)r->tokens));
	assay_object_set(a, &res, "tool_calls",
			 assay_value_int((int64_t)metric(em, "total_tool_calls")));
	assay_object_set(a, &res, "errors",
			 assay_value_int((int64_t)metric(em, "errors_encountered")));
	assay_object_set(a, &o, "result", res);
	assay_object_set(a, &o, "expectations", exps);
	const char *un = assay_skill__str(&r->g, "user_notes_summary");
	if (un && *un)
		assay_array_push(a, &notes, assay_value_strz(a, un));
	assay_object_set(a, &o, "notes", notes);
	return o;
}

/* The notes of assay's own findings (see the file comment). */
static assay_value notes_value(assay_arena *a, const struct brun *rs, size_t n,
			       const assay_value *cases, bool have_baseline, size_t unreadable)
{
	assay_value notes = assay_value_array();

	for (uint32_t ci = 0; ci < cases->len; ci++) {
		const assay_value *ee = assay_object_get(&cases->u.items[ci], "expectations");
		const char *id = assay_skill__str(&cases->u.items[ci], "id");
		for (uint32_t k = 0; ee && k < ee->len; k++) {
			const char *crit = assay_skill__str(&ee->u.items[k], "criterion");
			size_t seen[2] = { 0, 0 }, pass[2] = { 0, 0 };
			for (size_t i = 0; crit && i < n; i++) {
				const assay_value *res = assay_object_get(&rs[i].g, "results");
				if (rs[i].case_index != ci)
					continue;
				for (uint32_t j = 0; res && res->kind == ASSAY_V_ARRAY &&
						     j < res->len; j++)
					if (assay_value_is_str(assay_object_get(&res->u.items[j],
										"criterion"), crit)) {
						seen[rs[i].without]++;
						pass[rs[i].without] += assay_value_number(
							assay_object_get(&res->u.items[j],
									 "score")) >= 3;
					}
			}
			if (have_baseline && seen[0] && seen[1] && pass[0] == seen[0] &&
			    pass[1] == seen[1])
				assay_array_push(a, &notes, assay_value_stringf(
					a, "Expectation '%s' of %s passes in every run with and "
					"without the skill - it cannot show what the skill is worth",
					crit, id));
			for (int w = 0; w < 2; w++)
				if (seen[w] > 1 && pass[w] && pass[w] < seen[w])
					assay_array_push(a, &notes, assay_value_stringf(
						a, "Expectation '%s' of %s is flaky %s the skill: "
						"passed in %zu of %zu runs", crit, id,
						w ? "without" : "with", pass[w], seen[w]));
		}
	}
	if (!have_baseline)
		assay_array_push(a, &notes, assay_value_stringf(
			a, "No run without the skill: `assay skill run --baseline` runs one, and "
			"run_summary then has without_skill and delta"));
	if (unreadable)
		assay_array_push(a, &notes, assay_value_stringf(
			a, "%zu grading file%s could not be read and %s left out", unreadable,
			unreadable == 1 ? "" : "s", unreadable == 1 ? "is" : "are"));
	return notes;
}

/* benchmarks/<UTC time>/ made afresh (a second one in the same second gets "-2", ...). */
static int make_dir(char **out, const char *ws, assay_err *err)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	int rc;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H-%M-%SZ", &tm);
	char *base = assay_skill__path(ws, "benchmarks");
	if ((rc = assay_fs_mkdirs(base, err))) {
		free(base);
		return rc;
	}
	for (int i = 1; i < 1000; i++) {
		char *p = i == 1 ? assay_xasprintf("%s/%s", base, stamp)
				 : assay_xasprintf("%s/%s-%d", base, stamp, i);
		if (!mkdir(p, 0755)) {
			*out = p;
			free(base);
			return 0;
		}
		free(p);
	}
	free(base);
	return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "cannot make a folder under benchmarks/");
}

/* metadata: the skill, what ran it and graded it, when, which evals, how many runs. */
static assay_value metadata_value(assay_arena *a, const struct skill_config *c,
				  const struct bruns *b, const assay_value *cases, int version)
{
	assay_value md = assay_value_object(), evals_run = assay_value_array();
	char now[32];
	int per_config = 0;

	assay_skill__now(now);
	for (size_t i = 0; i < b->n; i++)
		per_config = b->v[i].run > per_config ? b->v[i].run : per_config;
	for (uint32_t i = 0; i < cases->len; i++)
		for (size_t k = 0; k < b->n; k++)
			if (b->v[k].case_index == i) {
				assay_array_push(a, &evals_run, assay_value_int((int64_t)i + 1));
				break;
			}
	char *name = assay_skill__basename(c->skill);
	assay_buf exec = ASSAY_BUF_INIT;
	for (size_t i = 0; i < c->executor.nr; i++)
		assay_buf_addf(&exec, "%s%s", i ? " " : "", c->executor.v[i]);
	/* No model is known for a command: the command says what ran. */
	const struct skill_judge_cfg *gj = &c->judge[ASSAY_JUDGE_GRADER];
	assay_buf grader = ASSAY_BUF_INIT;
	if (gj->cfg.model && *gj->cfg.model)
		assay_buf_adds(&grader, gj->cfg.model);
	else
		for (size_t i = 0; i < gj->command.nr; i++)
			assay_buf_addf(&grader, "%s%s", i ? " " : "", gj->command.v[i]);
	assay_object_set(a, &md, "skill_name", assay_value_strz(a, name));
	assay_object_set(a, &md, "skill_path", assay_value_strz(a, c->skill));
	assay_object_set(a, &md, "executor_model", assay_value_string(a, exec.ptr, exec.len));
	assay_object_set(a, &md, "analyzer_model", assay_value_string(a, grader.ptr, grader.len));
	assay_buf_release(&grader);
	assay_object_set(a, &md, "timestamp", assay_value_strz(a, now));
	assay_object_set(a, &md, "evals_run", evals_run);
	assay_object_set(a, &md, "runs_per_configuration", assay_value_int(per_config));
	assay_object_set(a, &md, "version", assay_value_int(version));
	free(name);
	assay_buf_release(&exec);
	return md;
}

/*
 * run_summary: the statistics of the runs with the skill, and of those without it when the
 * baseline ran (`with`: how many of b's runs are with it), and their difference; the means
 * into mean[with, without][pass rate, seconds, tokens].
 */
static assay_value run_summary_value(assay_arena *a, const struct bruns *b, size_t with,
				     double mean[2][3])
{
	assay_value summ = assay_value_object();
	bool have_baseline = b->n > with;

	for (int w = 0; w < (have_baseline ? 2 : 1); w++) {
		struct stat_acc pr = { 0 }, ts = { 0 }, tk = { 0 };
		assay_value cs = assay_value_object();
		for (size_t i = 0; i < b->n; i++)
			if (b->v[i].without == (bool)w) {
				acc_add(&pr, b->v[i].pass_rate);
				acc_add(&ts, b->v[i].time_s);
				acc_add(&tk, b->v[i].tokens);
			}
		assay_object_set(a, &cs, "pass_rate", stats(a, &pr, &mean[w][0]));
		assay_object_set(a, &cs, "time_seconds", stats(a, &ts, &mean[w][1]));
		assay_object_set(a, &cs, "tokens", stats(a, &tk, &mean[w][2]));
		assay_object_set(a, &summ, w ? "without_skill" : "with_skill", cs);
		free(pr.v);
		free(ts.v);
		free(tk.v);
	}
	if (have_baseline) {
		/* aggregate_benchmark.py: differences of the rounded means, as signed strings */
		assay_value d = assay_value_object();
		char s[64];
		snprintf(s, sizeof(s), "%+.2f", round4(mean[0][0]) - round4(mean[1][0]));
		assay_object_set(a, &d, "pass_rate", assay_value_strz(a, s));
		snprintf(s, sizeof(s), "%+.1f", round4(mean[0][1]) - round4(mean[1][1]));
		assay_object_set(a, &d, "time_seconds", assay_value_strz(a, s));
		snprintf(s, sizeof(s), "%+.0f", round4(mean[0][2]) - round4(mean[1][2]));
		assay_object_set(a, &d, "tokens", assay_value_strz(a, s));
		assay_object_set(a, &summ, "delta", d);
	}
	return summ;
}

int assay_skill_benchmark(assay_skill_benchmark_result *out, const char *workspace,
			  int version, assay_err *err)
{
	struct skill_config c;
	assay_arena *a = assay_arena_new(0);
	assay_value history, evals;
	struct bruns b = { NULL, 0, 0, 0 };
	char *dir = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = assay_skill__config_load(&c, workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = assay_skill__evals_load(&evals, a, &c, err)))
		goto out;
	if (version < 0)
		version = (int)assay_object_get(&history, "current_version")->u.i;
	out->version = version;
	const assay_value *cases = assay_object_get(&evals, "cases");
	collect(&b, c.workspace, cases, version, a);
	size_t with = b.n;
	collect(&b, c.workspace, cases, -1, a);
	if (!with) {
		rc = assay_err_set(err, ASSAY_ENOMATCH, NULL, 0, 0, "version %d has no graded run "
				   "(assay skill run first)", version);
		goto out;
	}
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), by_place);

	assay_value root = assay_value_object(), runs = assay_value_array();
	double mean[2][3] = { { 0 } };
	bool have_baseline = b.n > with;

	for (size_t i = 0; i < b.n; i++)
		assay_array_push(a, &runs, run_value(a, &b.v[i], &cases->u.items[b.v[i].case_index]));
	assay_object_set(a, &root, "metadata", metadata_value(a, &c, &b, cases, version));
	assay_object_set(a, &root, "runs", runs);
	assay_object_set(a, &root, "run_summary", run_summary_value(a, &b, with, mean));
	assay_object_set(a, &root, "notes", notes_value(a, b.v, b.n, cases, have_baseline,
							 b.unreadable));

	if ((rc = make_dir(&dir, c.workspace, err)))
		goto out;
	out->path = assay_path_join(dir, "benchmark.json");
	if ((rc = assay_skill__write_json(out->path, &root, err)))
		goto out;
	out->with_skill_runs = with;
	out->without_skill_runs = b.n - with;
	out->pass_rate_with = mean[0][0];
	out->pass_rate_without = have_baseline ? mean[1][0] : NAN;
out:
	free(b.v);
	free(dir);
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}
