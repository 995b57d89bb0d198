/*
 * git_hash of history.json through libgit2 (decision 3): HEAD of the repository that holds the
 * skill folder, or nothing when the folder is in no repository, the repository has no commit,
 * or any file below the folder differs from HEAD (modified, staged, deleted or untracked;
 * ignored files do not count). The skill's evals/ folder is not part of that test, as it is
 * not part of any snapshot (decision 4): `init` writes an untracked evals/evals.json into a
 * committed skill and must still record HEAD (issue 20 item 8). libgit2's global state is reference-counted, so pairing
 * git_libgit2_init() with git_libgit2_shutdown() leaves the caller's own use of it alone.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "skill/skill_int.h"
#include "util/banned.h"

/* Whether a change touches a path that is not below `prefix` (NULL: no change). */
static bool outside(const git_diff_delta *d, const char *prefix)
{
	size_t n = strlen(prefix);

	if (!d)
		return false;
	return !d->old_file.path || strncmp(d->old_file.path, prefix, n) ||
	       !d->new_file.path || strncmp(d->new_file.path, prefix, n);
}

bool assay_skill_git_hash(char out[41], const char *dir)
{
	git_buf root = { 0 };
	git_repository *repo = NULL;
	git_status_list *st = NULL;
	git_oid oid;
	char real[PATH_MAX], wd[PATH_MAX];
	bool ok = false;

	out[0] = '\0';
	if (!realpath(dir, real))
		return false;
	git_libgit2_init();
	if (git_repository_discover(&root, real, 0, NULL) ||
	    git_repository_open(&repo, root.ptr) || !git_repository_workdir(repo) ||
	    !realpath(git_repository_workdir(repo), wd))
		goto out;

	size_t n = strlen(wd);
	char *rel = NULL;
	if (!strncmp(real, wd, n) && (real[n] == '/' || real[n] == '\0'))
		rel = real[n] ? real + n + 1 : real + n;
	if (!rel)
		goto out;

	git_status_options o = GIT_STATUS_OPTIONS_INIT;
	char *spec[1] = { rel };
	o.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	o.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS;
	if (rel[0]) {
		o.pathspec.strings = spec;
		o.pathspec.count = 1;
	}
	if (git_status_list_new(&st, repo, &o))
		goto out;
	char *evals = assay_xasprintf("%s%sevals/", rel, rel[0] ? "/" : "");
	size_t changed = 0;
	for (size_t i = 0; i < git_status_list_entrycount(st); i++) {
		const git_status_entry *e = git_status_byindex(st, i);
		changed += outside(e->head_to_index, evals) || outside(e->index_to_workdir, evals);
	}
	free(evals);
	if (changed)
		goto out;
	if (git_reference_name_to_id(&oid, repo, "HEAD"))
		goto out;
	git_oid_tostr(out, 41, &oid);
	ok = true;
out:
	git_status_list_free(st);
	git_repository_free(repo);
	git_buf_dispose(&root);
	git_libgit2_shutdown();
	if (!ok)
		out[0] = '\0';
	return ok;
}
