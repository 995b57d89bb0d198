/*
 * `assay skill package` (issue 20 item 7): the .skill archive of a skill folder, as
 * skill-creator's package_skill.py writes it: a ZIP (deflated) of every file of the folder,
 * each named `<folder name>/<path>`, written only after the lint passes (no error-severity
 * check failed, under the profile given).
 *
 * Decisions: entries in sorted order of their paths, so two packages of the same folder list
 * the same entries; the archive appears whole or not at all (a temporary file renamed).
 * Refuses: following symbolic links (a link in the folder is left out and reported: a package
 * must never carry a file from outside the skill), special files, `.git/` (the repository, not
 * the skill), files over 256 MiB.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "skill/skill_int.h"
#include "util/banned.h"

#define PACKAGE_MAX_FILE (256u << 20)

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file below `root` (relative paths, into `files`); links into `links`. */
static void walk(const char *root, const char *rel, assay_strvec *files, assay_strvec *links,
		 int depth)
{
	char *dir = rel[0] ? assay_path_join(root, rel) : assay_xstrdup(root);
	DIR *d = depth < 64 ? opendir(dir) : NULL;
	struct dirent *e;
	assay_strvec names = ASSAY_STRVEC_INIT;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !(depth == 0 && !strcmp(e->d_name, ".git")))
			assay_strvec_push(&names, e->d_name);
	if (d)
		closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.nr; i++) {
		char *r = rel[0] ? assay_xasprintf("%s/%s", rel, names.v[i])
				 : assay_xstrdup(names.v[i]);
		char *p = assay_path_join(root, r);
		struct stat st;

		if (!lstat(p, &st)) {
			if (S_ISLNK(st.st_mode))
				assay_strvec_push(links, r);
			else if (S_ISDIR(st.st_mode))
				walk(root, r, files, links, depth + 1);
			else if (S_ISREG(st.st_mode))
				assay_strvec_push(files, r);
		}
		free(p);
		free(r);
	}
	assay_strvec_clear(&names);
	free(dir);
}

int assay_skill_package(assay_skill_package_result *out, const char *skill_dir,
			const char *out_dir, const assay_skill_lint_opts *lint, assay_err *err)
{
	assay_strvec files = ASSAY_STRVEC_INIT;
	assay_fs_atomic w = ASSAY_FS_ATOMIC_INIT;
	struct skill_zip z;
	char *dir = NULL, *name = NULL, *odir = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->links = (assay_strvec)ASSAY_STRVEC_INIT;
	assay_skill__zip_init(&z);
	if ((rc = assay_skill_lint_run(&out->lint, skill_dir, lint, err)))
		goto out;
	if (out->lint.errors) /* nothing is written: the caller shows the lint */
		goto out;
	dir = assay_path_absolute(skill_dir);
	name = assay_skill__basename(dir);
	odir = assay_path_absolute(out_dir && *out_dir ? out_dir : ".");
	if ((rc = assay_fs_mkdirs(odir, err)))
		goto out;
	out->path = assay_xasprintf("%s/%s.skill", odir, name);
	walk(dir, "", &files, &out->links, 0);
	if ((rc = assay_fs_atomic_open(&w, odir, 0644, err)))
		goto out;
	for (size_t i = 0; i < files.nr; i++) {
		assay_buf b = ASSAY_BUF_INIT;
		char *p = assay_path_join(dir, files.v[i]);
		char *entry = assay_xasprintf("%s/%s", name, files.v[i]);
		struct stat st;

		if (lstat(p, &st))
			st.st_mode = S_IFREG | 0644, st.st_mtime = 0;
		rc = assay_fs_read_beneath(&b, dir, files.v[i], PACKAGE_MAX_FILE, err);
		if (rc == ASSAY_ETOOBIG)
			assay_err_set(err, rc, p, 0, 0, "over 256 MiB: too big to package");
		if (!rc) {
			struct skill_zip_file f = { entry, b.ptr, b.len, st.st_mode, st.st_mtime };

			rc = assay_skill__zip_add(&z, &w, &f, err);
		}
		out->files += !rc;
		out->bytes += rc ? 0 : b.len;
		assay_buf_release(&b);
		free(entry);
		free(p);
		if (rc)
			goto out;
	}
	if ((rc = assay_skill__zip_finish(&z, &w, err)) ||
	    (rc = assay_fs_atomic_commit(&w, out->path, false, err)))
		goto out;
	out->written = true;
out:
	if (w.fd >= 0)
		assay_fs_atomic_abort(&w);
	assay_skill__zip_release(&z);
	assay_strvec_clear(&files);
	free(dir);
	free(name);
	free(odir);
	return rc;
}

void assay_skill_package_release(assay_skill_package_result *r)
{
	assay_skill_lint_release(&r->lint);
	assay_strvec_clear(&r->links);
	free(r->path);
	memset(r, 0, sizeof(*r));
	r->links = (assay_strvec)ASSAY_STRVEC_INIT;
}
