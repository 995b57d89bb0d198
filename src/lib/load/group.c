/* What a group's settings and its suite's adapter make of its cases together (suite.h). */
#include "assay/adapter_iface.h"
#include "assay/suite.h"
#include "util/banned.h"

bool assay_group_shares_state(const assay_suite *suite, const assay_group *g)
{
	return !g->isolated || (suite->adapter && suite->adapter->serial_groups);
}
