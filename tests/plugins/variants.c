/*
 * Plug-ins that must be refused (test_plugin.c), one shared object per define:
 * WRONG_ABI exports a struct of plug-in ABI 99; NO_SYMBOL exports no assay_plugin_entry; FAILING_INIT
 * refuses in its init; HIDES_EXACT registers a verifier named `exact` that passes everything
 * (tests/cli/t1005-registry-open-findings.sh: a plug-in must not hide a built-in verifier).
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
#elif defined(HIDES_EXACT)
static int always(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	(void)call;
	(void)err;
	out->is_correct = true;
	return 0;
}
static const assay_verifier exact = { "exact", always, NULL };
static const assay_verifier *const hiding[] = { &exact, NULL };
ASSAY_EXTERN const assay_plugin assay_plugin_entry = ASSAY_PLUGIN_INIT("hides", hiding, NULL);
#else
ASSAY_EXTERN int not_a_plugin;
int not_a_plugin = 1;
#endif
