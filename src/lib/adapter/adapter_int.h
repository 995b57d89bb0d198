/*
 * What the adapters share inside the library (adapter.c).
 */
#ifndef ASSAY_ADAPTER_INT_H
#define ASSAY_ADAPTER_INT_H

#include "assay/strvec.h"

/*
 * Fills `env` with the clean environment a program of a case gets (docs/security.md): PATH and
 * LANG (assay's, or defaults), HOME = `home`, TMPDIR = `tmp`, the variables of assay's own
 * environment whose names match a `pass_env` pattern (fnmatch; NULL-terminated, may be NULL),
 * then `extra` ("K=V" each: the suite's, group's or case's env).
 */
void assay_adapter__clean_env(assay_strvec *env, const char *home, const char *tmp,
			      const char *const *pass_env, const assay_strvec *extra);

#endif
