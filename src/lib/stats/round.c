/**
 * @file round.c
 * One rounding of percentages for every report (include/assay/stats.h, docs/reports.md).
 */
#include <math.h>

#include "assay/stats.h"
#include "util/banned.h"

double assay_round_tenth(double x)
{
	double t = x * 10, r;

	if (!isfinite(t))
		return x;
	r = floor(t);
	if (t - r >= 0.5) /* exact for |t| < 2^52: Math.round's tie toward +infinity */
		r += 1;
	return r / 10 + 0.0; /* + 0.0: never -0.0 */
}
