/*
 * Internals of the value module shared with the parsers and writers (never installed).
 */
#ifndef ASSAY_VALUE_INT_H
#define ASSAY_VALUE_INT_H

#include "assay/value.h"

/* value.flags: the container's storage is growable (capacity 4, then powers of two) */
#define ASSAY__VF_GROW 0x01u
/* value.flags: a string holding lone surrogates as WTF-8 (a JSON \udXXX escape), which the JSON
 * writer writes back as escapes; any other such bytes are not UTF-8 and become U+FFFD */
#define ASSAY__VF_WTF8 0x02u
/* value.flags bits 4-5: the datetime sub-kind */
#define ASSAY__VF_DT_SHIFT 4

/*
 * The shortest decimal digits that read back to `d` (finite, not negative zero's sign: the
 * caller handles the sign): writes up to 17 digits and a NUL into `digits`, the count into
 * `*length`, and the decimal point position into `*point` (value = 0.DIGITS x 10^point).
 * Implemented with libdouble-conversion (number_dc.cc).
 */
void assay_value__shortest(double d, char digits[18], int *length, int *point);

/*
 * The digits of |d| rounded to `digits` places after the point (libdouble-conversion's FIXED
 * mode: correct, but ties are rounded up, where printf and Python round half to even): at most
 * `size` - 1 digits into `buf`, their count in *length, the point's position in *point (value =
 * 0.DIGITS x 10^point). For |d| < 1e60 and digits <= 60.
 */
void assay_value__fixed(double d, int digits, char *buf, int size, int *length, int *point);

/* Correctly rounded decimal literal -> double (libdouble-conversion), for number.c. */
double assay_value__strtod(const char *text, int len);

#endif
