/*
 * The Wilson score interval for a binomial proportion (E. B. Wilson, "Probable inference, the
 * law of succession, and statistical inference", JASA 22:209-212, 1927), the interval Brown,
 * Cai and DasGupta recommend for small and large n alike ("Interval Estimation for a Binomial
 * Proportion", Statistical Science 16(2):101-133, 2001).
 *
 * Key decisions: z is the two-sided quantile Φ⁻¹((1 + confidence) / 2) from AS 241; the
 * bounds are clamped to [0, 1] against rounding, and are exactly 0 (1) when there are no
 * successes (failures), where the formula gives 0 (1) up to rounding.
 * Refuses to: apply a continuity correction.
 */
#include <math.h>

#include "assay/stats.h"
#include "util/banned.h"

int assay_wilson_interval(assay_interval *out, uint64_t successes, uint64_t trials,
			  double confidence, assay_err *err)
{
	if (trials == 0)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "a proportion needs at least one trial");
	if (successes > trials)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "%llu successes out of %llu trials",
				     (unsigned long long)successes, (unsigned long long)trials);
	if (!(confidence > 0 && confidence < 1))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "confidence %g is not between 0 and 1", confidence);

	double n = (double)trials, p = (double)successes / n;
	double z = assay_normal_quantile(0.5 + confidence / 2);
	double z2 = z * z;
	double denom = 1 + z2 / n;
	double center = (p + z2 / (2 * n)) / denom;
	double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;

	out->estimate = p;
	out->lo = successes == 0 ? 0.0 : fmax(0.0, center - half);
	out->hi = successes == trials ? 1.0 : fmin(1.0, center + half);
	return 0;
}
