/*
 * assay_suite_load (suite.h), the public entry point of the suite loader: the loader
 * (src/lib/load) is a layer below the adapters, the verifier registry and the plug-ins
 * (docs/architecture.md, "Layers"), so what it needs of them is handed down from here, where
 * they are all in reach: the adapter table (registry.c) for adapter.type, the registry's check
 * of a verify entry, and the loading of suite.yaml's `plugins:` (whose verifiers register into
 * the verifier registry). The suite keeps the hooks for assay_case_load.
 */
#include "assay/adapter.h"
#include "assay/plugin.h"
#include "load/load_lib.h"
#include "verify/verify_lib.h"
#include "util/banned.h"

static int load_plugin(const char *path, assay_err *err)
{
	return assay_plugin_load(path, NULL, err);
}

static const struct assay_load_hooks hooks = {
	.adapters = assay_adapters,
	.check_verify = assay_verify__load_check,
	.load_plugin = load_plugin,
};

int assay_suite_load(assay_suite **out, const char *dir, const assay_suite_filter *filter,
		     assay_warn_fn warn, void *payload, assay_err *err)
{
	return assay_load__suite(out, dir, filter, &hooks, warn, payload, err);
}
