/*
 * Plug-ins that must be refused (test_plugin.c), one shared object per define:
 * WRONG_ABI exports a struct of plug-in ABI 99; NO_SYMBOL exports no assay_plugin_entry; FAILING_INIT
 * refuses in its init.
 */
#include "assay/plugin.h"

#if defined(WRONG_ABI)
ASSAY_EXTERN const assay_plugin assay_plugin_entry = { 99, 4096, "future", NULL, NULL };
#elif defined(FAILING_INIT)
static int init(assay_err *err)
{
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "the licence server is down");
}
static const assay_verifier *const none[] = { NULL };
ASSAY_EXTERN const assay_plugin assay_plugin_entry = ASSAY_PLUGIN_INIT("failing", none, init);
#else
ASSAY_EXTERN int not_a_plugin;
int not_a_plugin = 1;
#endif
