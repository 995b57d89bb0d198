/*
 * Shared-object verifier plug-ins (include/assay/plugin.h): dlopen, the ABI check, init, and
 * the registration of their verifiers. Spec: issue #7 section 3 ("C ABI: a shared object
 * exporting one documented, versioned struct of callbacks ... loaded with dlopen from a path in
 * suite.yaml or --plugin; a version mismatch is a clear load error").
 *
 * Key decisions:
 * - The version is checked before anything else of the struct is read: a plug-in of another
 *   ABI may have another layout. `size` must also be at least this assay's struct.
 * - A plug-in is never unloaded (its verifiers are in the registry for the rest of the
 *   process), and a path already loaded (by its real path) is not loaded twice.
 * - RTLD_LOCAL: two plug-ins cannot see each other's symbols; the plug-in sees the assay
 *   program's exported functions (value.h, verify.h helpers).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "assay/plugin.h"
#include "assay/verify.h"
#include "util/banned.h"

struct loaded {
	char *path;
	const assay_plugin *plugin;
};

static struct loaded *loaded;
static size_t nloaded;

int assay_plugin_load(const char *path, const assay_plugin **out, assay_err *err)
{
	char *real = realpath(path, NULL);
	const assay_plugin *pl;
	struct stat st;
	void *h;
	int rc;

	if (!real)
		return assay_err_set(err, errno == ENOENT ? ASSAY_ENOTFOUND : ASSAY_EINVALID, path,
				     0, 0, "cannot load plug-in: %s", strerror(errno));
	for (size_t i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i].path, real)) {
			free(real);
			if (out)
				*out = loaded[i].plugin;
			return 0;
		}
	/* a FIFO or a device would keep dlopen waiting (or reading) for ever */
	if (stat(real, &st) || !S_ISREG(st.st_mode)) {
		rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0,
				   "cannot load plug-in: not a regular file");
		free(real);
		return rc;
	}
	h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();

		rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0, "cannot load plug-in: %s",
				   why ? why : "dlopen failed");
		free(real);
		return rc;
	}
	pl = dlsym(h, ASSAY_PLUGIN_SYMBOL);
	if (!pl) {
		rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0,
				   "not an assay plug-in: it exports no '%s' (plugin.h)",
				   ASSAY_PLUGIN_SYMBOL);
		goto fail;
	}
	if (pl->abi_version != ASSAY_PLUGIN_ABI_VERSION || pl->size < sizeof(assay_plugin)) {
		rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0,
				   "plug-in was built for plug-in ABI %u (struct of %u bytes); this "
				   "assay speaks ABI %u (%zu bytes): rebuild it against this "
				   "assay's include/assay/plugin.h",
				   pl->abi_version, pl->size, ASSAY_PLUGIN_ABI_VERSION,
				   sizeof(assay_plugin));
		goto fail;
	}
	for (const assay_verifier *const *v = pl->verifiers; v && *v; v++) {
		if (!(*v)->name || !(*v)->name[0] || !(*v)->fn) {
			rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0,
					   "plug-in '%s' lists a verifier without a name or a "
					   "function", pl->name ? pl->name : "?");
			goto fail;
		}
		/* a name that is taken (a built-in, another plug-in's, or twice in this one)
		 * would change the verdicts of every entry that names it, silently */
		bool twice = false;

		for (const assay_verifier *const *w = pl->verifiers; w < v && !twice; w++)
			twice = !strcmp((*w)->name, (*v)->name);
		if (twice || assay_verifier_find((*v)->name)) {
			rc = assay_err_set(err, ASSAY_EINVALID, path, 0, 0,
					   "plug-in '%s' names a verifier '%s', which %s: a plug-in "
					   "may not replace a verifier (docs/verifiers.md)",
					   pl->name ? pl->name : "?", (*v)->name,
					   twice ? "it lists twice"
						 : "is taken already (a built-in verifier's, or another plug-in's)");
			goto fail;
		}
	}
	if (pl->init && (rc = pl->init(err))) {
		if (err && !err->msg[0])
			assay_err_set(err, rc, path, 0, 0, "plug-in '%s' refused to start",
				      pl->name ? pl->name : "?");
		goto fail;
	}
	for (const assay_verifier *const *v = pl->verifiers; v && *v; v++)
		assay_verifier_register(*v);
	loaded = assay_xrealloc(loaded, (nloaded + 1) * sizeof(*loaded));
	loaded[nloaded++] = (struct loaded){ real, pl };
	if (out)
		*out = pl;
	return 0;
fail:
	dlclose(h);
	free(real);
	return rc;
}
