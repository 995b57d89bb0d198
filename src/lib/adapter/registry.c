/*
 * The adapter registry (adapter.h): every adapter suite.yaml's `adapter.type` may name, one line
 * each. A new adapter is its own file set (its assay_adapter, adapter_iface.h) and one line
 * here; nothing else names it (docs/architecture.md, "Adding an adapter").
 *
 * Key decisions:
 * - A table fixed at build time, not a registration call: the adapters are the library's own,
 *   and the loader is handed this table (load_entry.c), so it never names one.
 * - The order is the order messages list the names in ("adapter.type must be cli or api").
 */
#include <string.h>

#include "assay/adapter.h"
#include "util/banned.h"

/* Each adapter's symbol (assay_adapter_<name>), in the order messages list them: the one line
 * a new adapter adds. */
#define ADAPTERS(X) \
	X(cli)      \
	X(api)

#define DECLARE(a) extern const assay_adapter assay_adapter_##a;
ADAPTERS(DECLARE)
#undef DECLARE

#define ENTRY(a) &assay_adapter_##a,
const assay_adapter *const assay_adapters[] = { ADAPTERS(ENTRY) NULL };
#undef ENTRY

const assay_adapter *assay_adapter_find(const char *name)
{
	for (const assay_adapter *const *ad = assay_adapters; name && *ad; ad++)
		if (!strcmp((*ad)->name, name))
			return *ad;
	return NULL;
}
