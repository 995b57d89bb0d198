/*
 * Time as every layer measures it (model.h): CLOCK_MONOTONIC seconds, for durations and
 * deadlines (a case's duration, verification budgets, plug-in and store timeouts).
 */
#include <time.h>

#include "assay/model.h"
#include "util/banned.h"

double assay_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
