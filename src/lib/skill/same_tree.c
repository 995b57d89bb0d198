/*
 * Whether two folder trees hold the same things (`skill snapshot` refuses to make a version
 * identical to the current one): the same names, each of the same kind (folder, file, link),
 * files with the same bytes, links with the same target. Links are never followed.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/strvec.h"
#include "skill/skill_int.h"
#include "util/banned.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names(assay_strvec *out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			assay_strvec_push(out, e->d_name);
	if (d)
		closedir(d);
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), by_name);
}

static bool same_file(const char *a, const char *b, const struct stat *sa,
		      const struct stat *sb)
{
	assay_buf x = ASSAY_BUF_INIT, y = ASSAY_BUF_INIT;
	bool same;

	if (sa->st_size != sb->st_size)
		return false;
	same = !assay_fs_read(&x, a, 0, NULL) && !assay_fs_read(&y, b, 0, NULL) &&
	       x.len == y.len && (!x.len || !memcmp(x.ptr, y.ptr, x.len));
	assay_buf_release(&x);
	assay_buf_release(&y);
	return same;
}

bool assay_skill__same_tree(const char *a, const char *b)
{
	assay_strvec na = ASSAY_STRVEC_INIT, nb = ASSAY_STRVEC_INIT;
	bool same;

	names(&na, a);
	names(&nb, b);
	same = na.nr == nb.nr;
	for (size_t i = 0; same && i < na.nr; i++) {
		char *pa, *pb;
		struct stat sa, sb;

		if (strcmp(na.v[i], nb.v[i])) {
			same = false;
			break;
		}
		pa = assay_path_join(a, na.v[i]);
		pb = assay_path_join(b, nb.v[i]);
		if (lstat(pa, &sa) || lstat(pb, &sb) ||
		    (sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT)) {
			same = false;
		} else if (S_ISDIR(sa.st_mode)) {
			same = assay_skill__same_tree(pa, pb);
		} else if (S_ISLNK(sa.st_mode)) {
			char ta[PATH_MAX], tb[PATH_MAX];
			ssize_t la = readlink(pa, ta, sizeof(ta)), lb = readlink(pb, tb, sizeof(tb));

			same = la >= 0 && la == lb && !memcmp(ta, tb, (size_t)la);
		} else if (S_ISREG(sa.st_mode)) {
			same = same_file(pa, pb, &sa, &sb);
		}
		free(pa);
		free(pb);
	}
	assay_strvec_clear(&na);
	assay_strvec_clear(&nb);
	return same;
}
