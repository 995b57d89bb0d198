/**
 * @file adapter.h
 * Adapters: how a case of a given kind is read and run, found by name in one registry (the
 * table in src/lib/adapter/registry.c, one line per adapter). The cli adapter runs a program per
 * case; the api adapter starts a server per group and sends each case as a request. What an
 * adapter supplies (the interface) is in adapter_iface.h, which this header includes; the
 * loader, the runner and the reports only ever call an adapter through it.
 * Spec: suite-format.md ("A case (cli adapter)", "A case (api adapter)"); docs/architecture.md
 * ("Adding an adapter").
 */
#ifndef ASSAY_ADAPTER_H
#define ASSAY_ADAPTER_H

#include "adapter_iface.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The registry: every adapter suite.yaml's `adapter.type` may name, NULL-terminated, in the
 * order messages list them ("cli", "api"). Borrowed; it lives for the whole process.
 */
ASSAY_EXTERN extern const assay_adapter *const assay_adapters[];

/**
 * Finds an adapter of the registry by its name (`adapter.type`, a report line's case.type).
 * @param name  a NUL-terminated name; NULL finds nothing
 * @return the adapter (borrowed, valid for the life of the process), or NULL if none has it
 */
ASSAY_EXTERN const assay_adapter *assay_adapter_find(const char *name);

/** The cli adapter (suite-format.md, "A case (cli adapter)"). */
ASSAY_EXTERN extern const assay_adapter assay_adapter_cli;
/** The api adapter (suite-format.md, "A case (api adapter)"). */
ASSAY_EXTERN extern const assay_adapter assay_adapter_api;

/**
 * Runs one case to its end with `adapter`: start, then pump under poll() until done, then
 * finish. Wakes at least every 200 ms to look at `*stop` (may be NULL): when set, the case is
 * aborted and ASSAY_EINTERRUPTED returned.
 * @return 0 (the result is in `out`), ASSAY_EINTERRUPTED, or the adapter's error
 */
ASSAY_EXTERN int assay_adapter_run(const assay_adapter *adapter, void *state,
				   const assay_run_ctx *ctx, const assay_case *c,
				   const char *workdir, volatile int *stop,
				   assay_case_result *out, assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
