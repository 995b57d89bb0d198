/*
 * SlopCodeBench's pass policies (render.h) and the aggregates summary.json gains from them.
 *
 * PassPolicy.check() in SlopCodeBench (src/slop_code/evaluation/report.py) sums a checkpoint's
 * passed and run cases per GroupType and decides: any-case (some case passed), all-cases,
 * all-non-error-cases (every case outside Error groups), core-cases and its alias
 * all-core-cases (every Core case: true when there is none), any-core-cases (some Core case);
 * "any" falls through its match to `return True`. A run (its agent_runner) passes when every
 * checkpoint does; a checkpoint that did not run fails. assay adds: an interrupted run passes
 * no policy, since cases it did not run would count as neither passed nor run; nor does a run
 * that left case files unrun through a suite mistake (summary.json's unrun_case_files), for
 * the same reason.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/render.h"
#include "util/banned.h"

static const char *const names[ASSAY_POLICY_COUNT] = {
	"any", "any-case", "all-cases", "all-non-error-cases", "core-cases", "any-core-cases",
};

int assay_pass_policy_find(assay_pass_policy *out, const char *name, assay_err *err)
{
	for (int p = 0; p < ASSAY_POLICY_COUNT; p++) {
		if (!strcmp(name, names[p])) {
			*out = (assay_pass_policy)p;
			return 0;
		}
	}
	if (!strcmp(name, "all-core-cases")) {
		*out = ASSAY_POLICY_CORE_CASES;
		return 0;
	}
	return assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0,
			     "unknown pass policy '%s' (any, any-case, all-cases, "
			     "all-non-error-cases, core-cases, any-core-cases)", name);
}

const char *assay_pass_policy_name(assay_pass_policy p)
{
	return (unsigned)p < ASSAY_POLICY_COUNT ? names[p] : "?";
}

bool assay_pass_policy_check(assay_pass_policy p, const size_t passed[4], const size_t total[4])
{
	size_t all_p = 0, all_t = 0, ne_p = 0, ne_t = 0;
	size_t core_p = passed[ASSAY_GROUP_CORE], core_t = total[ASSAY_GROUP_CORE];

	for (int t = 0; t < 4; t++) {
		all_p += passed[t], all_t += total[t];
		if (t != ASSAY_GROUP_ERROR)
			ne_p += passed[t], ne_t += total[t];
	}
	switch (p) {
	case ASSAY_POLICY_ANY_CASE: return all_p > 0;
	case ASSAY_POLICY_ALL_CASES: return all_p == all_t;
	case ASSAY_POLICY_ALL_NON_ERROR_CASES: return ne_p == ne_t;
	case ASSAY_POLICY_CORE_CASES: return core_p == core_t;
	case ASSAY_POLICY_ANY_CORE_CASES: return core_p > 0;
	default: return true;
	}
}

/* Cases the run never ran: interrupted, or case files a suite mistake left out. */
static bool incomplete(const assay_value *summary)
{
	const assay_value *interrupted = assay_object_get(summary, "interrupted");
	const assay_value *unrun = assay_object_get(summary, "unrun_case_files");

	return (interrupted && interrupted->kind == ASSAY_V_BOOL && interrupted->u.b) ||
	       (assay_value_is_number(unrun) && assay_value_number(unrun) != 0);
}

static size_t count(const assay_value *types, int t, const char *key)
{
	const assay_value *v = assay_object_get(
		assay_object_get(types, assay_group_type_name((assay_group_type)t)), key);

	return assay_value_is_number(v) && assay_value_number(v) > 0
		       ? (size_t)assay_value_number(v)
		       : 0;
}

/* The checkpoints' verdicts under every policy, into `run` (all checkpoints pass). */
static void checkpoint_policies(assay_arena *a, assay_value *cp, bool run[ASSAY_POLICY_COUNT])
{
	const assay_value *types = assay_object_get(cp, "types");
	assay_value pc = assay_value_object(), tc = assay_value_object();
	assay_value pol = assay_value_object();
	size_t passed[4], total[4];

	for (int t = 0; t < 4; t++) {
		passed[t] = count(types, t, "passed");
		total[t] = count(types, t, "total");
		if (!total[t])
			continue;
		assay_object_set(a, &pc, assay_group_type_name((assay_group_type)t),
				 assay_value_int((int64_t)passed[t]));
		assay_object_set(a, &tc, assay_group_type_name((assay_group_type)t),
				 assay_value_int((int64_t)total[t]));
	}
	for (int p = 0; p < ASSAY_POLICY_COUNT; p++) {
		bool ok = assay_pass_policy_check((assay_pass_policy)p, passed, total);

		assay_object_set(a, &pol, names[p], assay_value_bool(ok));
		run[p] = run[p] && ok;
	}
	assay_object_set(a, cp, "pass_counts", pc);
	assay_object_set(a, cp, "total_counts", tc);
	assay_object_set(a, cp, "policies", pol);
}

void assay_summary_add_policies(assay_arena *a, assay_value *summary)
{
	assay_value *cps = (assay_value *)assay_object_get(summary, "checkpoints");
	bool run[ASSAY_POLICY_COUNT];
	assay_value pol = assay_value_object();
	double rates = 0;
	size_t nrates = 0;

	if (!cps || cps->kind != ASSAY_V_OBJECT || summary->kind != ASSAY_V_OBJECT)
		return;
	for (int p = 0; p < ASSAY_POLICY_COUNT; p++)
		run[p] = !incomplete(summary);
	for (uint32_t i = 0; i < cps->len; i++) {
		assay_value *cp = &cps->u.members[i].value;
		const assay_value *rate = assay_object_get(cp, "pass_rate");
		const assay_value *total = assay_object_get(cp, "total");

		if (cp->kind != ASSAY_V_OBJECT)
			continue;
		checkpoint_policies(a, cp, run);
		/* SlopCodeBench averages the pass rates of checkpoints that ran cases */
		if (assay_value_is_number(rate) && assay_value_number(total) > 0) {
			rates += assay_value_number(rate);
			nrates++;
		}
	}
	for (int p = 0; p < ASSAY_POLICY_COUNT; p++)
		assay_object_set(a, &pol, names[p], assay_value_bool(run[p]));
	assay_object_set(a, summary, "policies", pol);
	assay_object_set(a, summary, "overall_pass_rate",
			 nrates ? assay_value_real(rates / (double)nrates) : assay_value_null());
}

struct policy_sink {
	assay_pass_policy p;
	bool *passed;
};

static int policy_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct policy_sink *k = payload;
	const assay_value *cps = assay_object_get(sum->json, "checkpoints");
	bool ok = !sum->interrupted && !incomplete(sum->json);

	(void)err;
	for (uint32_t i = 0; ok && cps && cps->kind == ASSAY_V_OBJECT && i < cps->len; i++) {
		const assay_value *types = assay_object_get(&cps->u.members[i].value, "types");
		size_t passed[4], total[4];

		for (int t = 0; t < 4; t++) {
			passed[t] = count(types, t, "passed");
			total[t] = count(types, t, "total");
		}
		ok = assay_pass_policy_check(k->p, passed, total);
	}
	*k->passed = ok;
	return 0;
}

static void policy_free(void *payload)
{
	free(payload);
}

int assay_sink_policy_new(assay_sink *out, assay_pass_policy p, bool *passed)
{
	struct policy_sink *k = assay_xcalloc(1, sizeof(*k));

	k->p = p;
	k->passed = passed;
	*passed = false;
	*out = (assay_sink){ k, NULL, NULL, policy_end, policy_free, NULL };
	return 0;
}
