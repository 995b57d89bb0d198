/*
 * What the verifier registry (src/lib/verify) offers other modules of the library beyond
 * verify.h. Never installed.
 */
#ifndef ASSAY_VERIFY_LIB_H
#define ASSAY_VERIFY_LIB_H

#include "load/load_lib.h"

/*
 * The loader's check of one verify entry (load_lib.h, assay_load_hooks.check_verify): as
 * assay_verify_check, and says whether the verifier accepts any output for the expected
 * string `expected` (an empty text under `contains`, or under `regex` matching a prefix or
 * anywhere; an empty or blank text under `flexible` unless `contains: false`).
 */
int assay_verify__load_check(struct assay_load_verifier *out, const assay_value *entry,
			     const assay_value *expected, const char *attribute, assay_err *err);

#endif
