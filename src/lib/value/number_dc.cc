/*
 * The two number conversions assay takes from libdouble-conversion (Debian's
 * libdouble-conversion-dev, Google's V8 code): shortest round-trip digits of a double, and a
 * correctly rounded decimal -> double. A C++ shim with a C interface; nothing else of assay is
 * C++. Formatting the digits the way Python does lives in number.c.
 */
#include <double-conversion/double-conversion.h>

#include <cmath>

extern "C" {
#include "value/value_int.h"
}

using double_conversion::DoubleToStringConverter;
using double_conversion::StringToDoubleConverter;

extern "C" void assay_value__shortest(double d, char digits[18], int *length, int *point)
{
	bool sign = false;

	DoubleToStringConverter::DoubleToAscii(d, DoubleToStringConverter::SHORTEST, 0, digits, 18,
					       &sign, length, point);
}

extern "C" void assay_value__fixed(double d, int digits, char *buf, int size, int *length,
				   int *point)
{
	bool sign = false;

	DoubleToStringConverter::DoubleToAscii(d, DoubleToStringConverter::FIXED, digits, buf, size,
					       &sign, length, point);
}

extern "C" double assay_value__strtod(const char *text, int len)
{
	static const StringToDoubleConverter conv(StringToDoubleConverter::NO_FLAGS, 0.0,
						  std::nan(""), nullptr, nullptr);
	int used = 0;

	return conv.StringToDouble(text, len, &used);
}
