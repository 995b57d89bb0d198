/*
 * Unit tests of the statistics module against reference values.
 *
 * How the references were made (once, then pasted here): Debian bookworm's /usr/bin/python3
 * 3.11 with python3-scipy 1.10.1 and numpy 1.24.2:
 * - normal quantiles: scipy.stats.norm.ppf(p);
 * - McNemar: scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue (two-sided) and
 *   binomtest(b, b + c, 0.5, alternative='greater').pvalue (B worse); for b + c < 200 also
 *   checked exactly with fractions.Fraction and math.comb (sum of C(n, i) / 2^n);
 * - Wilson: scipy.stats.binomtest(k, n).proportion_ci(conf, method='wilson');
 * - xoshiro256** outputs and bootstrap intervals: a separate Python transcription of the
 *   splitmix64/xoshiro256** reference algorithms, the same rejection sampling and resampling
 *   loop, and numpy.percentile(means, q) for the bounds.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "assay/stats.h"

/* |got - want| within `rel` of |want| (or exactly equal, for zeros and infinities). */
static void near(double got, double want, double rel, const char *what)
{
	cr_assert(got == want || fabs(got - want) <= rel * fabs(want),
		  "%s: got %.17g, expected %.17g (relative error %.3g)", what, got, want,
		  fabs(got - want) / fabs(want));
}

/* ---- random numbers ---- */

Test(rng, matches_the_reference_stream)
{
	static const uint64_t seed0[] = { 0x99ec5f36cb75f2b4u, 0xbf6e1f784956452au,
					  0x1a5f849d4933e6e0u, 0x6aa594f1262d2d2cu };
	static const uint64_t seed42[] = { 0x15780b2e0c2ec716u, 0x6104d9866d113a7eu,
					   0xae17533239e499a1u, 0xecb8ad4703b360a1u };
	assay_rng r;

	assay_rng_seed(&r, 0);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(assay_rng_u64(&r), seed0[i], "seed 0, output %d", i);
	assay_rng_seed(&r, 42);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(assay_rng_u64(&r), seed42[i], "seed 42, output %d", i);
	assay_rng_seed(&r, 7);
	cr_assert_eq(assay_rng_double(&r), 0.7005764821796896);
	cr_assert_eq(assay_rng_double(&r), 0.2787512294737843);
}

Test(rng, doubles_stay_in_the_unit_interval_and_bounded_ints_below_n)
{
	assay_rng r;
	size_t counts[6] = { 0 };

	assay_rng_seed(&r, 2024);
	for (int i = 0; i < 60000; i++) {
		double d = assay_rng_double(&r);
		cr_assert(d >= 0 && d < 1);
		uint64_t k = assay_rng_below(&r, 6);
		cr_assert_lt(k, 6);
		counts[k]++;
	}
	/* A fair die: each face 10000 times, give or take; chi-squared with 5 degrees of freedom
	 * stays below 20.5 (p = 0.001) for this fixed seed unless the draws are biased. */
	double chi2 = 0;
	for (int k = 0; k < 6; k++)
		chi2 += ((double)counts[k] - 10000) * ((double)counts[k] - 10000) / 10000;
	cr_assert_lt(chi2, 20.5, "chi-squared %g", chi2);
	cr_assert_eq(assay_rng_below(&r, 1), 0);
	for (int i = 0; i < 1000; i++)
		cr_assert_lt(assay_rng_below(&r, UINT64_MAX), UINT64_MAX);
}

Test(rng, zero_bound_is_a_programmer_error, .signal = SIGABRT)
{
	assay_rng r;

	assay_rng_seed(&r, 1);
	assay_rng_below(&r, 0);
}

/* ---- normal quantile ---- */

Test(normal, quantiles_match_scipy)
{
	static const double ref[][2] = {
		{ 1e-300, -37.0470962993612 },  { 1e-20, -9.262340089798409 },
		{ 1e-10, -6.361340902404056 },  { 0.001, -3.090232306167813 },
		{ 0.025, -1.9599639845400545 }, { 0.05, -1.6448536269514729 },
		{ 0.075, -1.4395314709384563 }, { 0.1, -1.2815515655446004 },
		{ 0.3, -0.5244005127080409 },   { 0.5, 0.0 },
		{ 0.7, 0.5244005127080407 },    { 0.925, 1.4395314709384563 },
		{ 0.95, 1.6448536269514722 },   { 0.975, 1.959963984540054 },
		{ 0.995, 2.5758293035489004 },  { 0.9999999999, 6.361340889697422 },
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		char what[64];
		snprintf(what, sizeof(what), "quantile(%g)", ref[i][0]);
		near(assay_normal_quantile(ref[i][0]), ref[i][1], 1e-14, what);
	}
}

Test(normal, ends_and_outside)
{
	cr_assert(isinf(assay_normal_quantile(0)) && assay_normal_quantile(0) < 0);
	cr_assert(isinf(assay_normal_quantile(1)) && assay_normal_quantile(1) > 0);
	cr_assert(isnan(assay_normal_quantile(-0.1)));
	cr_assert(isnan(assay_normal_quantile(1.5)));
	cr_assert(isnan(assay_normal_quantile(NAN)));
	/* symmetric */
	cr_assert_eq(assay_normal_quantile(0.25), -assay_normal_quantile(0.75));
}

/* ---- McNemar ---- */

Test(mcnemar, exact_p_values_match_scipy_and_fractions)
{
	static const struct {
		uint64_t b, c;
		double two, worse;
	} ref[] = {
		{ 0, 0, 1, 1 },
		{ 5, 0, 0.0625, 0.03125 },
		{ 0, 5, 0.0625, 1.0 },
		{ 3, 3, 1.0, 0.65625 },
		{ 10, 2, 0.03857421875, 0.019287109375 },
		{ 2, 10, 0.03857421875, 0.996826171875 },
		{ 1, 1, 1.0, 0.75 },
		{ 100, 70, 0.02584438758134169, 0.012922193790670845 },
		{ 25, 25, 1.0, 0.5561375863296085 },
		{ 7, 8, 1.0, 0.696380615234375 },
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		assay_mcnemar m;
		char what[64];
		assay_mcnemar_exact(&m, ref[i].b, ref[i].c);
		cr_assert_eq(m.b, ref[i].b);
		cr_assert_eq(m.c, ref[i].c);
		snprintf(what, sizeof(what), "b=%llu c=%llu two-sided",
			 (unsigned long long)ref[i].b, (unsigned long long)ref[i].c);
		near(m.p_two_sided, ref[i].two, 1e-13, what);
		snprintf(what, sizeof(what), "b=%llu c=%llu b-worse",
			 (unsigned long long)ref[i].b, (unsigned long long)ref[i].c);
		near(m.p_b_worse, ref[i].worse, 1e-13, what);
	}
}

Test(mcnemar, a_million_flips)
{
	assay_mcnemar m;

	assay_mcnemar_exact(&m, 499000, 501000);
	near(m.p_two_sided, 0.045608299865389515, 1e-8, "499000/501000 two-sided");
	near(m.p_b_worse, 0.9773038320453266, 1e-8, "499000/501000 b-worse");
	assay_mcnemar_exact(&m, 505000, 495000);
	near(m.p_two_sided, 1.5381555043902326e-23, 1e-7, "505000/495000 two-sided");
	near(m.p_b_worse, 7.690777521951163e-24, 1e-7, "505000/495000 b-worse");
	assay_mcnemar_exact(&m, 495000, 505000);
	near(m.p_two_sided, 1.5381555043902326e-23, 1e-7, "495000/505000 two-sided");
	near(m.p_b_worse, 1.0, 1e-12, "495000/505000 b-worse");
	/* all flips one way: 2 * 2^-1000000 underflows to 0, never to a NaN */
	assay_mcnemar_exact(&m, 1000000, 0);
	cr_assert_eq(m.p_two_sided, 0.0);
	cr_assert_eq(m.p_b_worse, 0.0);
	assay_mcnemar_exact(&m, 500000, 500000);
	cr_assert_eq(m.p_two_sided, 1.0, "ties are capped at 1");
}

Test(mcnemar, tails_are_probabilities_that_add_up)
{
	/* P(X <= k) + P(X <= n - k - 1) = 1 by symmetry, at every k of a few n. */
	static const uint64_t ns[] = { 1, 2, 9, 10, 101, 1000 };
	for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
		uint64_t n = ns[j];
		double prev = 0;
		for (uint64_t k = 0; k < n; k++) {
			double p = assay_binom_half_cdf(n, k);
			/* increasing, until it is 1 to double precision */
			cr_assert(p > prev || (p == prev && p > 1 - 1e-15), "n=%llu k=%llu",
				  (unsigned long long)n, (unsigned long long)k);
			near(p + assay_binom_half_cdf(n, n - k - 1), 1.0, 1e-13, "symmetry");
			prev = p;
		}
		cr_assert_eq(assay_binom_half_cdf(n, n), 1.0);
	}
}

Test(mcnemar, pairs_count_only_flips)
{
	static const bool a[] = { true, true, true, false, false, true, false };
	static const bool b[] = { true, false, false, true, false, false, false };
	assay_mcnemar m;

	assay_mcnemar_pairs(&m, a, b, 7);
	cr_assert_eq(m.b, 3);
	cr_assert_eq(m.c, 1);
	near(m.p_two_sided, 0.625, 1e-15, "3 vs 1");
	near(m.p_b_worse, 0.3125, 1e-15, "3 vs 1 one-sided");
	assay_mcnemar_pairs(&m, NULL, NULL, 0);
	cr_assert_eq(m.p_two_sided, 1.0);
}

/* ---- bootstrap ---- */

static const double runs_a[10] = { 0.5, 1.0, 0.0, 1.0, 0.25, 0.75, 1.0, 0.0, 0.5, 1.0 };
static const double runs_b[10] = { 1.0, 1.0, 0.5, 1.0, 0.25, 1.0, 0.0, 0.5, 1.0, 1.0 };

Test(bootstrap, paired_intervals_match_the_reference_at_three_levels)
{
	static const double ref[][3] = {
		{ 0.9, -0.12625000000000064, 0.325 },
		{ 0.95, -0.175, 0.35 },
		{ 0.99, -0.275, 0.4 },
	};
	for (int i = 0; i < 3; i++) {
		assay_interval ci;
		cr_assert_eq(assay_bootstrap_mean_diff(&ci, runs_a, runs_b, 10, 2000, ref[i][0],
						       12345, NULL), 0);
		near(ci.estimate, 0.125, 1e-15, "mean difference");
		near(ci.lo, ref[i][1], 1e-12, "lower bound");
		near(ci.hi, ref[i][2], 1e-12, "upper bound");
	}
}

Test(bootstrap, a_single_sample_interval_is_near_the_normal_one)
{
	double x[100];
	assay_interval ci;

	for (int i = 0; i < 100; i++)
		x[i] = i;
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 100, 5000, 0.95, 1, NULL), 0);
	cr_assert_eq(ci.estimate, 49.5);
	near(ci.lo, 43.83975, 1e-12, "lower bound");
	near(ci.hi, 55.21, 1e-12, "upper bound");
	/* and near mean ± 1.96 · sd / √n = 49.5 ± 5.66 */
	cr_assert(fabs(ci.lo - 43.84) < 0.5 && fabs(ci.hi - 55.16) < 0.5);
}

Test(bootstrap, same_seed_same_interval_other_seed_other_interval)
{
	assay_interval a, b, c;

	cr_assert_eq(assay_bootstrap_mean_diff(&a, runs_a, runs_b, 10, 999, 0.95, 7, NULL), 0);
	cr_assert_eq(assay_bootstrap_mean_diff(&b, runs_a, runs_b, 10, 999, 0.95, 7, NULL), 0);
	cr_assert_eq(assay_bootstrap_mean_diff(&c, runs_a, runs_b, 10, 999, 0.95, 8, NULL), 0);
	cr_assert(a.lo == b.lo && a.hi == b.hi && a.estimate == b.estimate);
	cr_assert(a.lo != c.lo || a.hi != c.hi, "seeds 7 and 8 gave the same interval");
}

Test(bootstrap, constant_differences_give_a_point)
{
	double a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 1.5, 2.5, 3.5, 4.5, 5.5 };
	assay_interval ci;

	cr_assert_eq(assay_bootstrap_mean_diff(&ci, a, b, 5, 100, 0.95, 3, NULL), 0);
	cr_assert(ci.estimate == 0.5 && ci.lo == 0.5 && ci.hi == 0.5);
	cr_assert_eq(assay_bootstrap_mean(&ci, a, 1, 10, 0.95, 3, NULL), 0);
	cr_assert(ci.estimate == 1 && ci.lo == 1 && ci.hi == 1);
}

Test(bootstrap, refused_inputs)
{
	double x[2] = { 1, NAN };
	assay_interval ci = { 42, 42, 42 };
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_bootstrap_mean(&ci, x, 0, 100, 0.95, 1, &err), ASSAY_EINVALID);
	cr_assert_str_eq(err.msg, "a bootstrap needs at least one value");
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 2, 100, 0.95, 1, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 1, 0, 0.95, 1, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 1, ASSAY_BOOTSTRAP_MAX_RESAMPLES + 1, 0.95, 1,
					  NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 1, 100, 1.0, 1, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 1, 100, 0.0, 1, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean(&ci, x, 1, 100, NAN, 1, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_bootstrap_mean_diff(&ci, x, x, 0, 100, 0.95, 1, NULL), ASSAY_EINVALID);
	cr_assert(ci.estimate == 42 && ci.lo == 42 && ci.hi == 42, "a refused call wrote out");
}

/* ---- Wilson ---- */

Test(wilson, intervals_match_scipy)
{
	static const struct {
		uint64_t k, n;
		double conf, lo, hi;
	} ref[] = {
		{ 0, 10, 0.95, 0.0, 0.27753279986288926 },
		{ 10, 10, 0.95, 0.7224672001371109, 1.0 },
		{ 7, 10, 0.95, 0.39677814746114526, 0.892208732593699 },
		{ 7, 10, 0.9, 0.4416997958698351, 0.8731234160968021 },
		{ 7, 10, 0.99, 0.32002467920110256, 0.9204336834769342 },
		{ 1, 1, 0.95, 0.20654931437723745, 1.0 },
		{ 50, 100, 0.95, 0.4038315303659956, 0.5961684696340044 },
		{ 812, 1000, 0.99, 0.7781566122308579, 0.8417305008694163 },
		{ 3, 1000000, 0.95, 1.0202712409681223e-06, 8.821149774312435e-06 },
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		assay_interval ci;
		char what[80];
		cr_assert_eq(assay_wilson_interval(&ci, ref[i].k, ref[i].n, ref[i].conf, NULL), 0);
		snprintf(what, sizeof(what), "%llu/%llu at %g", (unsigned long long)ref[i].k,
			 (unsigned long long)ref[i].n, ref[i].conf);
		cr_assert_eq(ci.estimate, (double)ref[i].k / (double)ref[i].n);
		near(ci.lo, ref[i].lo, 1e-12, what);
		near(ci.hi, ref[i].hi, 1e-12, what);
	}
}

Test(wilson, refused_inputs)
{
	assay_interval ci;

	cr_assert_eq(assay_wilson_interval(&ci, 0, 0, 0.95, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_wilson_interval(&ci, 3, 2, 0.95, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_wilson_interval(&ci, 1, 2, 1.0, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_wilson_interval(&ci, 1, 2, -0.5, NULL), ASSAY_EINVALID);
}

/* One rounding for every report (docs/reports.md, "Rounding"): a tie up, as Math.round. */
Test(round, a_tie_goes_up_as_the_html_pages_round_it)
{
	char s[32];

	cr_expect_eq(assay_round_tenth(56.25), 56.3);     /* 9 of 16; printf's "%.1f": 56.2 */
	cr_expect_eq(assay_round_tenth(18.75), 18.8);
	cr_expect_eq(assay_round_tenth(-2.25), -2.2);     /* toward +infinity, as Math.round */
	cr_expect_eq(assay_round_tenth(100.0 * 1 / 3), 33.3);
	cr_expect_eq(assay_round_tenth(100.0), 100.0);
	snprintf(s, sizeof(s), "%+.1f", assay_round_tenth(-0.04));
	cr_expect_str_eq(s, "+0.0");                     /* never -0.0 */
	cr_expect(isnan(assay_round_tenth(NAN)));
}
