/*
 * Percentile bootstrap confidence intervals for a mean and for a paired mean difference
 * (Efron and Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13 and 15; Davison and
 * Hinkley, "Bootstrap Methods and their Application", 1997, §5.3).
 *
 * Key decisions: resampling draws indices with assay_rng_below() from one generator seeded
 * with `seed`, resample after resample, so an interval depends on nothing but its inputs; the
 * paired version resamples pairs (it bootstraps the differences), which keeps each case's two
 * scores together as the pairing requires; quantiles interpolate linearly between order
 * statistics (numpy.percentile's default, which scipy.stats.bootstrap's percentile method
 * uses too).
 * Refuses to: do BCa or studentized intervals (the percentile method is what issue #9 asks
 * for, and its coverage is adequate for the means of bounded scores assay compares).
 */
#include <math.h>
#include <stdlib.h>

#include "assay/stats.h"
#include "util/banned.h"

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n), interpolated linearly (numpy's "linear" method). */
static double quantile(const double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - (double)i) * (v[i + 1] - v[i]);
}

static int check(size_t n, size_t resamples, double confidence, assay_err *err)
{
	if (n == 0)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "a bootstrap needs at least one value");
	if (resamples == 0 || resamples > ASSAY_BOOTSTRAP_MAX_RESAMPLES)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "%zu resamples is not between 1 and %d", resamples,
				     ASSAY_BOOTSTRAP_MAX_RESAMPLES);
	if (!(confidence > 0 && confidence < 1))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "confidence %g is not between 0 and 1", confidence);
	return 0;
}

/* The bootstrap of the mean of x[i] (or of bb[i] - a[i] when a is not NULL). */
static int bootstrap(assay_interval *out, const double *a, const double *x, size_t n,
		     size_t resamples, double confidence, uint64_t seed, assay_err *err)
{
	int rc = check(n, resamples, confidence, err);
	double sum = 0;

	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		double v = a ? x[i] - a[i] : x[i];
		if (!isfinite(v))
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "value %zu is not a finite number", i + 1);
		sum += v;
	}

	double *means = assay_xmalloc(resamples * sizeof(*means));
	assay_rng rng;
	assay_rng_seed(&rng, seed);
	for (size_t r = 0; r < resamples; r++) {
		double s = 0;
		for (size_t k = 0; k < n; k++) {
			size_t i = (size_t)assay_rng_below(&rng, n);
			s += a ? x[i] - a[i] : x[i];
		}
		means[r] = s / (double)n;
	}
	qsort(means, resamples, sizeof(*means), compare_doubles);
	double alpha = 1.0 - confidence;
	out->estimate = sum / (double)n;
	out->lo = quantile(means, resamples, alpha / 2);
	out->hi = quantile(means, resamples, 1.0 - alpha / 2);
	free(means);
	return 0;
}

int assay_bootstrap_mean(assay_interval *out, const double *x, size_t n, size_t resamples,
			 double confidence, uint64_t seed, assay_err *err)
{
	return bootstrap(out, NULL, x, n, resamples, confidence, seed, err);
}

int assay_bootstrap_mean_diff(assay_interval *out, const double *a, const double *bb, size_t n,
			      size_t resamples, double confidence, uint64_t seed, assay_err *err)
{
	return bootstrap(out, a, bb, n, resamples, confidence, seed, err);
}
