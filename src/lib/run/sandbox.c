/*
 * What the cases of a run may do (docs/security.md "Using it from a runner"): the suite's
 * adapter.sandbox and adapter.network unless the caller overrides them; readable besides the
 * system folders: the static assets, adapter.read_paths, and the folders of files the command
 * names by absolute path or runs from PATH, and of where their links lead (an interpreter's
 * script, a version manager's shim); never readable: the suite's folder (the
 * expected values) and the caller's hide_paths (the results folder). Each case's working
 * folder and its private temporary folder are the only places it writes (the cli adapter).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "proc/reach.h"
#include "run/run_int.h"
#include "util/banned.h"

/* The folder of an absolute path that exists, malloc'd, or NULL. */
static char *folder_of(const char *path)
{
	const char *slash;

	if (path[0] != '/' || access(path, F_OK))
		return NULL;
	if (assay_fs_is_dir(path))
		return assay_xstrdup(path);
	slash = strrchr(path, '/');
	return slash == path ? assay_xstrdup("/") : assay_xstrndup(path, (size_t)(slash - path));
}



/* Adds the folder of command file `file` (and of where a link leads) to the readable paths. */
static void add_command_file(struct assay_run__sandbox *out, const assay_suite *suite,
			     const char *file)
{
	char *real = realpath(file, NULL);
	const char *files[2] = { file, real };

	for (int k = 0; k < 2; k++) {
		char *dir;

		if (!files[k] || (k == 1 && !strcmp(real, file)))
			continue;
		if (!(dir = folder_of(files[k])))
			continue;
		/* a folder holding the suite would show its expected values: the file alone */
		if (assay_proc__path_within(dir, suite->root))
			assay_strvec_push(&out->read, files[k]);
		else
			assay_strvec_push(&out->read, dir);
		free(dir);
	}
	free(real);
}


/* The paths of `v` resolved once for the whole run (realpath), each once. false, `v` left as
 * it is, when one does not exist yet: the supervisor resolves them at every start then (a
 * results folder made later must still be hidden). */
static bool resolve_all(assay_strvec *v)
{
	assay_strvec out = ASSAY_STRVEC_INIT;

	for (size_t i = 0; i < v->nr; i++) {
		char *real = realpath(v->v[i], NULL);
		bool dup = false;

		if (!real) {
			assay_strvec_clear(&out);
			return false;
		}
		for (size_t j = 0; j < out.nr && !dup; j++)
			dup = !strcmp(out.v[j], real);
		if (!dup)
			assay_strvec_push(&out, real);
		free(real);
	}
	assay_strvec_clear(v);
	*v = out;
	return true;
}

void assay_run__sandbox_make(struct assay_run__sandbox *out, const assay_suite *suite,
			     const assay_run_opts *opts, const assay_strvec *command)
{
	int mode = opts->sandbox >= 0 ? opts->sandbox : (int)suite->sandbox;

	memset(out, 0, sizeof(*out));
	out->read = (assay_strvec)ASSAY_STRVEC_INIT;
	out->hide = (assay_strvec)ASSAY_STRVEC_INIT;
	out->sb.enabled = mode != ASSAY_SANDBOX_OFF;
	out->sb.required = mode == ASSAY_SANDBOX_REQUIRED;
	out->sb.network = opts->network >= 0 ? opts->network == 1 : suite->network;
	for (uint32_t i = 0; i < suite->assets.len; i++) {
		const assay_value *p = &suite->assets.u.members[i].value;

		if (p->kind == ASSAY_V_STRING)
			assay_strvec_push(&out->read, p->u.s);
	}
	assay_strvec_pushv(&out->read, (const char *const *)suite->read_paths.v);
	for (size_t i = 0; i < command->nr; i++) {
		char *found = i == 0 ? assay_fs_which(command->v[i]) : NULL;

		add_command_file(out, suite, found ? found : command->v[i]);
		free(found);
	}
	assay_strvec_push(&out->hide, suite->root);
	for (const char *const *h = opts->hide_paths; h && *h; h++)
		assay_strvec_push(&out->hide, *h);
	/* (both, or neither: the flag covers both lists) */
	if (resolve_all(&out->read) && resolve_all(&out->hide))
		out->sb.paths_resolved = true;
	out->sb.read_paths = (const char *const *)out->read.v;
	out->sb.hide_paths = (const char *const *)out->hide.v;
}

void assay_run__sandbox_release(struct assay_run__sandbox *s)
{
	assay_strvec_clear(&s->read);
	assay_strvec_clear(&s->hide);
}
