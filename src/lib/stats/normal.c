/*
 * The standard normal quantile by Wichura's algorithm AS 241, PPND16 (M. J. Wichura, "The
 * Percentage Points of the Normal Distribution", Applied Statistics 37(3):477-484, 1988):
 * rational approximations in three regions, accurate to about 1 part in 10^16. The
 * coefficients are the published ones (CPython's statistics.NormalDist.inv_cdf uses the same,
 * which the unit tests compare against).
 * Refuses to: take mean and deviation (callers scale the result themselves).
 */
#include <math.h>

#include "assay/stats.h"
#include "util/banned.h"

/* Horner's rule over 8 coefficients, the highest power first. */
static double poly(const double c[8], double r)
{
	double v = c[0];

	for (int i = 1; i < 8; i++)
		v = v * r + c[i];
	return v;
}

/* The published coefficients, the highest power first: A/B for |q| <= 0.425, C/D for
 * r <= 5, E/F beyond. */
static const double A[8] = { 2.5090809287301226727e+3, 3.3430575583588128105e+4,
			     6.7265770927008700853e+4, 4.5921953931549871457e+4,
			     1.3731693765509461125e+4, 1.9715909503065514427e+3,
			     1.3314166789178437745e+2, 3.3871328727963666080e+0 };
static const double B[8] = { 5.2264952788528545610e+3, 2.8729085735721942674e+4,
			     3.9307895800092710610e+4, 2.1213794301586595867e+4,
			     5.3941960214247511077e+3, 6.8718700749205790830e+2,
			     4.2313330701600911252e+1, 1.0 };
static const double C[8] = { 7.74545014278341407640e-4, 2.27238449892691845833e-2,
			     2.41780725177450611770e-1, 1.27045825245236838258e+0,
			     3.64784832476320460504e+0, 5.76949722146069140550e+0,
			     4.63033784615654529590e+0, 1.42343711074968357734e+0 };
static const double D[8] = { 1.05075007164441684324e-9, 5.47593808499534494600e-4,
			     1.51986665636164571966e-2, 1.48103976427480074590e-1,
			     6.89767334985100004550e-1, 1.67638483018380384940e+0,
			     2.05319162663775882187e+0, 1.0 };
static const double E[8] = { 2.01033439929228813265e-7, 2.71155556874348757815e-5,
			     1.24266094738807843860e-3, 2.65321895265761230930e-2,
			     2.96560571828504891230e-1, 1.78482653991729133580e+0,
			     5.46378491116411436990e+0, 6.65790464350110377720e+0 };
static const double F[8] = { 2.04426310338993978564e-15, 1.42151175831644588870e-7,
			     1.84631831751005468180e-5, 7.86869131145613259100e-4,
			     1.48753612908506148525e-2, 1.36929880922735805310e-1,
			     5.99832206555887937690e-1, 1.0 };

double assay_normal_quantile(double p)
{
	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;

	double q = p - 0.5, r, x;
	if (fabs(q) <= 0.425) {
		r = 0.180625 - q * q;
		return q * poly(A, r) / poly(B, r);
	}
	r = sqrt(-log(q <= 0 ? p : 1.0 - p));
	if (r <= 5.0) {
		r -= 1.6;
		x = poly(C, r) / poly(D, r);
	} else {
		r -= 5.0;
		x = poly(E, r) / poly(F, r);
	}
	return q < 0 ? -x : x;
}
