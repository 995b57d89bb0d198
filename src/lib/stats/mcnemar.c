/*
 * The exact McNemar test: a two-sided and a one-sided binomial test with p = 1/2 on the
 * discordant pairs of two paired runs (McNemar, Psychometrika 12, 1947; the exact form as in
 * Agresti, "Categorical Data Analysis", 3rd ed., §11.1).
 *
 * Key decisions: the lower tail P(X <= k) of Binomial(n, 1/2) is summed from its largest term
 * (k, when k < n/2) downwards with the ratio C(n, i-1) / C(n, i) = i / (n - i + 1), stopping once
 * terms no longer change the sum; only the largest term goes through lgamma_r(), so the result
 * keeps the relative precision of lgamma(n + 1) (about 1e-9 at n = 10^6, 1e-15 for small n).
 * Tails that reach past the middle are 1 minus the opposite tail (the distribution is
 * symmetric). The two-sided p-value doubles the smaller tail and is capped at 1.
 * Refuses to: apply a continuity correction or the chi-squared approximation (the exact test is
 * cheap at any n assay meets).
 */
#include <math.h>

#include "assay/stats.h"
#include "util/banned.h"

/* lgamma() without its global sign (lgamma_r is glibc's and BSD's thread-safe form). */
static double lgam(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

/* Sum of C(n, i) / 2^n for i = 0..k, for 2k < n (the terms increase up to k). */
static double lower_tail(uint64_t n, uint64_t k)
{
	double dn = (double)n, dk = (double)k;
	double log_top = lgam(dn + 1) - lgam(dk + 1) - lgam(dn - dk + 1) - dn * M_LN2;
	double sum = 1.0, term = 1.0;

	for (uint64_t i = k; i > 0; i--) {
		term *= (double)i / (double)(n - i + 1);
		double before = sum;
		sum += term;
		if (sum == before)
			break;
	}
	return exp(log_top + log(sum));
}

double assay_binom_half_cdf(uint64_t n, uint64_t k)
{
	if (k >= n)
		return 1.0;
	if (2 * k < n)
		return lower_tail(n, k);
	/* P(X <= k) = 1 - P(X >= k + 1) = 1 - P(X <= n - k - 1), and 2(n - k - 1) < n here. */
	return 1.0 - lower_tail(n, n - k - 1);
}

void assay_mcnemar_exact(assay_mcnemar *out, uint64_t b, uint64_t c)
{
	uint64_t n = b + c;

	out->b = b;
	out->c = c;
	if (n == 0) {
		out->p_two_sided = 1.0;
		out->p_b_worse = 1.0;
		return;
	}
	double p = 2.0 * assay_binom_half_cdf(n, b < c ? b : c);
	out->p_two_sided = p > 1.0 ? 1.0 : p;
	/* P(X >= b) = P(n - X <= n - b) = P(X <= c), X and n - X having the same law. */
	out->p_b_worse = assay_binom_half_cdf(n, c);
}

void assay_mcnemar_pairs(assay_mcnemar *out, const bool *a, const bool *bb, size_t n)
{
	uint64_t b = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		b += a[i] && !bb[i];
		c += !a[i] && bb[i];
	}
	assay_mcnemar_exact(out, b, c);
}
