/**
 * @file stats.h
 * Statistics for honest comparisons of runs and skills: a seeded random number generator, the
 * exact McNemar test on paired pass/fail flips, percentile bootstrap confidence intervals for a
 * mean and for a paired mean difference, the Wilson score interval for a proportion, and the
 * standard normal quantile it needs.
 * Spec: docs/skills.md (skill comparison) and docs/reports.md (run comparison);
 * docs/statistics.md explains each statistic, when assay uses it and its sources.
 *
 * Everything here is a pure function of its arguments (the bootstrap of its seed too): the same
 * inputs give the same bits on every run and machine with IEEE 754 doubles. Nothing allocates
 * except the bootstrap (one array of `resamples` doubles, freed before it returns).
 */
#ifndef ASSAY_STATS_H
#define ASSAY_STATS_H

#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A xoshiro256** generator (Blackman and Vigna, "Scrambled linear pseudorandom number
 * generators", 2018/2021; public-domain reference code at prng.di.unimi.it). Not for
 * cryptography. Transparent so it can live on the stack; its state is private.
 */
typedef struct assay_rng {
	uint64_t s[4];
} assay_rng;

/**
 * Seeds `rng` from one 64-bit number, expanding it with splitmix64 as the xoshiro authors
 * recommend (a state of all zeros cannot result). Any seed is fine, 0 included.
 */
ASSAY_EXTERN void assay_rng_seed(assay_rng *rng, uint64_t seed);

/** The next 64 uniformly distributed bits. */
ASSAY_EXTERN uint64_t assay_rng_u64(assay_rng *rng);

/** A uniform double in [0, 1): the top 53 bits of assay_rng_u64() times 2^-53. */
ASSAY_EXTERN double assay_rng_double(assay_rng *rng);

/**
 * A uniform integer in [0, `n`) without modulo bias: draws below 2^64 mod n are rejected
 * and drawn again (at most half the draws, on average far fewer).
 * @param n at least 1 (0 is a programmer error and aborts)
 */
ASSAY_EXTERN uint64_t assay_rng_below(assay_rng *rng, uint64_t n);

/**
 * Exact McNemar test for two runs A and B of the same cases. Only the discordant pairs count:
 * `b` cases passed in A and failed in B, `c` cases failed in A and passed in B. Under the null
 * hypothesis (A and B equally good) each of the b + c flips goes either way with probability
 * 1/2, so b follows Binomial(b + c, 1/2).
 */
typedef struct assay_mcnemar {
	uint64_t b;           /**< pass → fail flips (A passed, B failed) */
	uint64_t c;           /**< fail → pass flips (A failed, B passed) */
	double p_two_sided;   /**< min(1, 2 · P(X <= min(b, c))): is there any difference? */
	double p_b_worse;     /**< P(X >= b): is B worse than A (more pass → fail flips)? */
} assay_mcnemar;

/**
 * Fills `out` for `b` pass → fail and `c` fail → pass flips. With b + c = 0 both p-values are
 * 1. Binomial terms are computed in log space with lgamma() and summed outwards from the
 * largest, so n = b + c of millions costs O(min(b, c)) steps and keeps about 9 significant
 * digits (all 15 for n below a few thousand); p-values below 1e-300 may be 0.
 */
ASSAY_EXTERN void assay_mcnemar_exact(assay_mcnemar *out, uint64_t b, uint64_t c);

/**
 * Counts the flips of `n` paired outcomes (`a[i]` is case i's verdict in run A, `bb[i]` in run
 * B, true = passed) and runs assay_mcnemar_exact() on them. `n` may be 0.
 */
ASSAY_EXTERN void assay_mcnemar_pairs(assay_mcnemar *out, const bool *a, const bool *bb,
				      size_t n);

/**
 * P(X <= k) for X ~ Binomial(n, 1/2), as assay_mcnemar_exact() computes it; 1 when k >= n.
 */
ASSAY_EXTERN double assay_binom_half_cdf(uint64_t n, uint64_t k);

/** A point estimate with a confidence interval [lo, hi]. */
typedef struct assay_interval {
	double estimate;
	double lo;
	double hi;
} assay_interval;

/** Most resamples a bootstrap accepts (the resampled means are kept in memory). */
#define ASSAY_BOOTSTRAP_MAX_RESAMPLES 10000000

/**
 * Percentile bootstrap confidence interval for the mean of `x` (Efron and Tibshirani, "An
 * Introduction to the Bootstrap", 1993, ch. 13): `resamples` times, draw n values of `x` with
 * replacement (assay_rng seeded with `seed`) and take their mean; the interval is the
 * (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of those means, interpolated
 * linearly between order statistics as numpy.percentile does by default. `estimate` is the
 * mean of `x`.
 * @param x          `n` >= 1 finite values (borrowed)
 * @param confidence in (0, 1), e.g. 0.95
 * @return 0; ASSAY_EINVALID (n = 0, a value that is NaN or infinite, resamples 0 or above
 *         ASSAY_BOOTSTRAP_MAX_RESAMPLES, confidence outside (0, 1)); `out` is untouched then
 */
ASSAY_EXTERN int assay_bootstrap_mean(assay_interval *out, const double *x, size_t n,
				      size_t resamples, double confidence, uint64_t seed,
				      assay_err *err);

/**
 * Paired percentile bootstrap for the mean difference B − A of `n` paired samples (case i's
 * score in run A is `a[i]`, in run B `bb[i]`): pairs are resampled together, which is
 * assay_bootstrap_mean() on the differences bb[i] − a[i]. A positive estimate means B scored
 * higher. Same seed, same interval.
 * @return as assay_bootstrap_mean()
 */
ASSAY_EXTERN int assay_bootstrap_mean_diff(assay_interval *out, const double *a,
					   const double *bb, size_t n, size_t resamples,
					   double confidence, uint64_t seed, assay_err *err);

/**
 * Wilson score interval for a proportion (Wilson, JASA 22, 1927; recommended over the Wald
 * interval by Brown, Cai and DasGupta, Statistical Science 16, 2001): `successes` of `trials`,
 * z the two-sided normal quantile of `confidence`. `estimate` is successes / trials. The
 * interval stays inside [0, 1] and is [0, ·] at 0 successes and [·, 1] at all of them.
 * @return 0; ASSAY_EINVALID (trials = 0, successes > trials, confidence outside (0, 1))
 */
ASSAY_EXTERN int assay_wilson_interval(assay_interval *out, uint64_t successes, uint64_t trials,
				       double confidence, assay_err *err);

/**
 * The standard normal quantile Φ⁻¹(p) by Wichura's algorithm AS 241 (PPND16, Applied Statistics
 * 37(3), 1988), accurate to about 1 part in 10^16. -INFINITY at 0, INFINITY at 1, NaN outside
 * [0, 1] or for NaN.
 */
ASSAY_EXTERN double assay_normal_quantile(double p);

/**
 * `x` rounded to one decimal the way every report shows a percentage (docs/reports.md,
 * "Rounding"): to the nearest tenth, a tie up (toward +infinity), exactly as the HTML pages'
 * `Math.round(x * 10) / 10`, so the terminal, Markdown, `assay compare` and the HTML pages print
 * the same digits (56.25 -> 56.3, -2.25 -> -2.2). Never -0.0 (0.0 instead). NaN and infinities
 * come back as they are. Print the result with "%.1f".
 */
ASSAY_EXTERN double assay_round_tenth(double x);

#ifdef __cplusplus
}
#endif
#endif
