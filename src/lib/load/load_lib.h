/*
 * What the loader (src/lib/load) offers the modules above it, beyond suite.h: the hooks through
 * which it asks them what it cannot know itself, and the loading of a suite with them.
 * Never installed.
 *
 * The loader is on layer 3 (docs/architecture.md, "Layers"); the adapters, the verifier
 * registry and the plug-ins it needs are on layer 4. It never calls them by name: the public
 * entry point assay_suite_load() lives above (src/lib/adapter/load_entry.c) and hands them down
 * here, and the suite keeps them (assay_suite.hooks) for assay_case_load().
 */
#ifndef ASSAY_LOAD_LIB_H
#define ASSAY_LOAD_LIB_H

#include "assay/adapter_iface.h"
#include "assay/suite.h"

/* What the verifier registry says of one verify entry (assay_load_hooks.check_verify). */
struct assay_load_verifier {
	const char *name;   /* the verifier's name (borrowed: lives for the process) */
	bool matches_any;   /* given this expected value, it accepts any output (an empty text
			       under `contains`): worth a warning */
};

/* Every member is set. */
struct assay_load_hooks {
	/* adapter.type's names: the registry (adapter.h), NULL-terminated, in the order the
	 * message for an unknown or missing type lists them */
	const assay_adapter *const *adapters;
	/*
	 * Checks verify entry `entry` (`{verifier, weight, ...}`) of `attribute`, whose expected
	 * value is `expected`, without running anything (verify.h, assay_verify_check): fills
	 * `out`. 0, ASSAY_ENOTFOUND (unknown verifier) or ASSAY_EINVALID, with a message in
	 * `err`.
	 */
	int (*check_verify)(struct assay_load_verifier *out, const assay_value *entry,
			    const assay_value *expected, const char *attribute, assay_err *err);
	/*
	 * Loads the shared-object plug-in at absolute `path` (suite.yaml's `plugins:`), whose
	 * verifiers join the verifier registry (plugin.h, assay_plugin_load). 0, or an error code
	 * with a message in `err`.
	 */
	int (*load_plugin)(const char *path, assay_err *err);
};

/* assay_suite_load (suite.h), with `hooks` (borrowed; it must outlive the suite). */
int assay_load__suite(assay_suite **out, const char *dir, const assay_suite_filter *filter,
		      const struct assay_load_hooks *hooks, assay_warn_fn warn, void *payload,
		      assay_err *err);

#endif
