/*
 * Folders of case files that suite.yaml does not declare (suite-format.md, "Layout"): a
 * misspelled group folder (`checkpoint_1/featrues/`) or a checkpoint folder suite.yaml never
 * names (`checkpoint_3/`) holds cases that would never run, so each is a warning naming the
 * folder, how many case files it holds and the closest declared name.
 *
 * Decisions:
 * - Only folders that hold case files are candidates: at the suite's top, a folder with group
 *   folders of case files (a checkpoint's shape); in a checkpoint folder, a folder of case files
 *   (`x.yaml`, or `x/case.yaml`). A folder of assets, programs or plug-ins holds none of these.
 * - Never a candidate: hidden folders; every folder suite.yaml names (checkpoint and group
 *   folders, static assets, submissions, read_paths, plug-ins), their parents and what is inside
 *   them; a results folder (one holding assay.db, summary.json or reports.jsonl); a case
 *   folder's own files are never looked into.
 * - Paths are compared after realpath(), so "./x", "x/" and links name one folder.
 * - In a group folder, what the loader never takes as a case is said and counted too: a hidden
 *   case file, an extension not in lower case (U.YAML), a folder whose case file is misnamed
 *   (Case.yaml), a folder of case files that is no case folder (sub/x.yaml), a case folder's
 *   case files past the one the loader reads (x/case.yml beside x/case.yaml); a folder
 *   suite.yaml names (a static asset) is not looked into.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "load/load_int.h"
#include "util/banned.h"

struct scan {
	assay_strvec declared; /* real paths */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

static void declare(struct scan *sc, const char *path)
{
	char real[PATH_MAX];

	if (path && realpath(path, real))
		assay_strvec_push(&sc->declared, real);
}

/* `a` is `b` or a folder above it. */
static bool is_within(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/' || (n == 1 && *a == '/'));
}

static bool related(const struct scan *sc, const char *real)
{
	for (size_t i = 0; i < sc->declared.nr; i++)
		if (is_within(real, sc->declared.v[i]) || is_within(sc->declared.v[i], real))
			return true;
	return false;
}

static bool case_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	return (n > 5 && !strcmp(name + n - 5, ".yaml")) || (n > 4 && !strcmp(name + n - 4, ".yml")) ||
	       (n > 5 && !strcmp(name + n - 5, ".json"));
}

static bool has_file(const char *dir, const char *name)
{
	char *p = assay_path_join(dir, name);
	bool yes = assay_fs_exists(p);

	free(p);
	return yes;
}

static bool results_folder(const char *dir)
{
	return has_file(dir, "assay.db") || has_file(dir, "summary.json") ||
	       has_file(dir, "reports.jsonl");
}

/* Case files directly in `dir`: x.yaml, and x/case.yaml. */
static size_t count_cases(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *p;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		p = assay_path_join(dir, e->d_name);
		if (!stat(p, &st)) {
			if (S_ISDIR(st.st_mode))
				n += assay_load__case_files_in(p, NULL) > 0;
			else if (S_ISREG(st.st_mode) && case_name(e->d_name))
				n++;
		}
		free(p);
	}
	closedir(d);
	return n;
}

/* Case files in the folders of `dir` (a checkpoint's shape); *groups counts those folders. */
static size_t count_group_cases(const char *dir, size_t *groups)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	*groups = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *p;
		size_t k;

		if (e->d_name[0] == '.')
			continue;
		p = assay_path_join(dir, e->d_name);
		if (assay_fs_is_dir(p) && !results_folder(p) && (k = count_cases(p))) {
			n += k;
			(*groups)++;
		}
		free(p);
	}
	closedir(d);
	return n;
}

/*
 * Warns about every folder of `dir` that suite.yaml does not declare and that holds cases:
 * `checkpoint` NULL for the suite's top (folders of groups), else the checkpoint whose folder
 * `dir` is (folders of cases). `names`: what may have been meant.
 */
static size_t scan_dir(struct scan *sc, const char *dir, const char *checkpoint,
		       const char *const *names, const char *shown)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t total = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char real[PATH_MAX], *p, *msg;
		const char *meant;
		size_t n, groups = 0;

		if (e->d_name[0] == '.')
			continue;
		p = assay_path_join(dir, e->d_name);
		if (!assay_fs_is_dir(p) || !realpath(p, real) || related(sc, real) ||
		    results_folder(p)) {
			free(p);
			continue;
		}
		free(p);
		n = checkpoint ? count_cases(real) : count_group_cases(real, &groups);
		if (!n)
			continue;
		meant = assay_load__closest(e->d_name, names);
		if (checkpoint)
			msg = assay_xasprintf("%s%s/: %zu case file%s in a folder that is no group of "
					      "checkpoint '%s': %s never run%s%s%s",
					      shown, e->d_name, n, n == 1 ? "" : "s", checkpoint,
					      n == 1 ? "it is" : "they are",
					      meant ? " (did you mean '" : "", meant ? meant : "",
					      meant ? "'?)" : "");
		else
			msg = assay_xasprintf("%s%s/: %zu case file%s in %zu group folder%s, but "
					      "suite.yaml has no checkpoint there: %s never run%s%s%s",
					      shown, e->d_name, n, n == 1 ? "" : "s", groups,
					      groups == 1 ? "" : "s", n == 1 ? "it is" : "they are",
					      meant ? " (did you mean '" : "", meant ? meant : "",
					      meant ? "'?)" : "");
		sc->warn(sc->ctx, msg);
		free(msg);
		total += n;
	}
	closedir(d);
	return total;
}

/* `name` ends in .yaml, .yml or .json in any case; *exact: in lower case. */
static bool case_suffix(const char *name, bool *exact)
{
	static const char *const sfx[] = { ".yaml", ".yml", ".json" };
	size_t n = strlen(name);

	for (int i = 0; i < 3; i++) {
		size_t k = strlen(sfx[i]);

		if (n > k && !strcasecmp(name + n - k, sfx[i])) {
			*exact = !strcmp(name + n - k, sfx[i]);
			return true;
		}
	}
	return false;
}

/* The entry of `dir` named case.yaml, case.yml or case.json in another case, or NULL. */
static char *miscased_case_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;
	bool exact;

	while (d && !found && (e = readdir(d)))
		if (!strncasecmp(e->d_name, "case.", 5) && case_suffix(e->d_name, &exact) &&
		    strchr(e->d_name, '.') == e->d_name + 4)
			found = assay_xstrdup(e->d_name);
	if (d)
		closedir(d);
	return found;
}

/*
 * The warning for case folder `dir`, which holds case file `read` (the one the loader reads) and
 * `n` more (assay_load__case_files in order), naming those.
 */
static char *second_case_files(const char *dir, const char *shown, const char *name,
			       const char *read, size_t n)
{
	assay_buf others = ASSAY_BUF_INIT;
	size_t named = 0;
	char *msg;

	for (size_t i = 0; i < 3; i++)
		if (assay_load__case_files[i] != read && has_file(dir, assay_load__case_files[i]))
			assay_buf_addf(&others, "%s%s", named++ ? " and " : "",
				       assay_load__case_files[i]);
	msg = assay_xasprintf("%s%s/: a case folder with more than one case file: %s is read, %s %s "
			      "never run", shown, name, read, others.ptr, n == 1 ? "is" : "are");
	assay_buf_release(&others);
	return msg;
}

/*
 * What folder `dir` (entry `name` of group `group`'s folder, suite.yaml names it not) holds that
 * the loader never runs: a case folder's case files past the one it reads, a misnamed case
 * file, or case files in a folder that is no case folder. A warning, or NULL; `*n` how many.
 */
static char *unrun_in_folder(const char *dir, const char *shown, const char *name,
			     const char *group, size_t *n)
{
	const char *read;
	size_t files = assay_load__case_files_in(dir, &read);
	char *wrong;

	*n = 0;
	if (files > 1) {
		*n = files - 1;
		return second_case_files(dir, shown, name, read, *n);
	}
	if (files || results_folder(dir))
		return NULL;
	if ((wrong = miscased_case_file(dir))) {
		char *msg = assay_xasprintf("%s%s/: its case file is named %s, not case.yaml, "
					    "case.yml or case.json: it is never run", shown, name,
					    wrong);

		*n = 1;
		free(wrong);
		return msg;
	}
	if (!(*n = count_cases(dir)))
		return NULL;
	return assay_xasprintf("%s%s/: %zu case file%s in a folder inside group '%s' that is no "
			       "case folder (no case.yaml): %s never run", shown, name, *n,
			       *n == 1 ? "" : "s", group, *n == 1 ? "it is" : "they are");
}

/*
 * Case files in group folder `dir` (of group `group`) that the loader never takes as cases
 * (suite_load.c, find_cases): a hidden case file, an extension not in lower case, a folder
 * with a misnamed case file, and a folder of case files that is no case folder. Each warns
 * "never run"; returns how many case files they hold.
 */
static size_t scan_group(struct scan *sc, const char *dir, const char *group, const char *shown)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t total = 0;

	while (d && (e = readdir(d))) {
		char real[PATH_MAX], *p, *msg = NULL;
		struct stat st;
		bool exact = false;
		size_t n = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = assay_path_join(dir, e->d_name);
		/* a plain file (readdir says so) needs no stat; only a folder's real path is
		 * compared (a group of thousands of cases: a realpath is a readlink per part) */
		if (e->d_type == DT_REG) {
			st.st_mode = S_IFREG;
		} else if (stat(p, &st) || (S_ISDIR(st.st_mode) && !realpath(p, real))) {
			free(p);
			continue;
		}
		if (S_ISREG(st.st_mode) && case_suffix(e->d_name, &exact)) {
			n = e->d_name[0] == '.' || !exact;
			if (e->d_name[0] == '.')
				msg = assay_xasprintf("%s%s: not a case: a case file's name must not "
						      "start with '.': it is never run", shown,
						      e->d_name);
			else if (!exact)
				msg = assay_xasprintf("%s%s: not a case: a case file's extension is "
						      ".yaml, .yml or .json, in lower case: it is "
						      "never run", shown, e->d_name);
		} else if (S_ISDIR(st.st_mode) && e->d_name[0] != '.' && !related(sc, real)) {
			msg = unrun_in_folder(p, shown, e->d_name, group, &n);
		}
		free(p);
		if (msg)
			sc->warn(sc->ctx, msg);
		free(msg);
		total += n;
	}
	if (d)
		closedir(d);
	return total;
}

static const char *str_of(const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING ? v->u.s : NULL;
}

static char *cp_dir(const assay_suite *s, const char *name, const assay_value *cnode)
{
	const char *path = str_of(assay_object_get(cnode, "path"));

	return assay_path_join(s->root, path ? path : name);
}

size_t assay_load__undeclared(const assay_suite *s, bool whole,
			      void (*warn)(void *, const char *), void *ctx)
{
	struct scan sc = { ASSAY_STRVEC_INIT, warn, ctx };
	const assay_value *cps = assay_object_get(&s->raw, "checkpoints");
	const assay_value *plugins = assay_object_get(&s->raw, "plugins");
	const char **cpnames;
	char *p, *shown;
	size_t unrun = 0;

	if (!cps || cps->kind != ASSAY_V_OBJECT)
		return 0;
	/* everything suite.yaml names */
	for (uint32_t i = 0; i < cps->len; i++) {
		const assay_member *cm = &cps->u.members[i];
		const assay_value *gs = assay_object_get(&cm->value, "groups");
		char *cdir = cp_dir(s, cm->key.u.s, &cm->value);

		declare(&sc, cdir);
		for (uint32_t j = 0; gs && gs->kind == ASSAY_V_OBJECT && j < gs->len; j++) {
			const assay_value *g = &gs->u.members[j].value;
			const char *ocp = str_of(assay_object_get(g, "original_checkpoint"));
			const char *og = str_of(assay_object_get(g, "original_group"));

			p = assay_path_join(cdir, gs->u.members[j].key.u.s);
			declare(&sc, p);
			free(p);
			if (ocp && og) {
				char *odir = cp_dir(s, ocp, assay_object_get(cps, ocp));

				p = assay_path_join(odir, og);
				declare(&sc, p);
				free(p);
				free(odir);
			}
		}
		free(cdir);
		p = NULL;
		if (str_of(assay_object_get(&cm->value, "submission"))) {
			p = assay_path_join(s->root,
					    str_of(assay_object_get(&cm->value, "submission")));
			declare(&sc, p);
			free(p);
		}
	}
	for (uint32_t i = 0; i < s->assets.len; i++)
		declare(&sc, str_of(&s->assets.u.members[i].value));
	declare(&sc, s->submission);
	for (size_t i = 0; i < s->read_paths.nr; i++)
		declare(&sc, s->read_paths.v[i]);
	for (uint32_t i = 0; plugins && plugins->kind == ASSAY_V_ARRAY && i < plugins->len; i++) {
		if (!str_of(&plugins->u.items[i]))
			continue;
		p = assay_path_join(s->root, plugins->u.items[i].u.s);
		declare(&sc, p);
		free(p);
	}

	if (whole) {
		cpnames = assay_xcalloc(cps->len + 1, sizeof(*cpnames));
		for (uint32_t i = 0; i < cps->len; i++) {
			const char *path = str_of(assay_object_get(&cps->u.members[i].value, "path"));

			cpnames[i] = path && !strchr(path, '/') ? path : cps->u.members[i].key.u.s;
		}
		/* (a checkpoint at `path: .` makes every top folder its own: none is scanned) */
		shown = assay_xasprintf("%s/", s->root);
		unrun += scan_dir(&sc, s->root, NULL, cpnames, shown);
		free(shown);
		free(cpnames);
	}
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		const assay_checkpoint *cp = &s->checkpoints[i];
		const assay_value *cnode = assay_object_get(cps, cp->name);
		const assay_value *gs = assay_object_get(cnode, "groups");
		char *cdir = cp_dir(s, cp->name, cnode), real[PATH_MAX];
		const char **gnames;
		assay_strvec saved = ASSAY_STRVEC_INIT;

		if (!gs || gs->kind != ASSAY_V_OBJECT || !realpath(cdir, real)) {
			free(cdir);
			continue;
		}
		gnames = assay_xcalloc(gs->len + 1, sizeof(*gnames));
		for (uint32_t j = 0; j < gs->len; j++)
			gnames[j] = gs->u.members[j].key.u.s;
		/* inside this checkpoint's folder, the folder itself does not cover its children */
		for (size_t j = 0; j < sc.declared.nr; j++)
			if (!is_within(sc.declared.v[j], real))
				assay_strvec_push(&saved, sc.declared.v[j]);
		assay_strvec old = sc.declared;
		sc.declared = saved;
		shown = assay_xasprintf("%s/", cdir);
		unrun += scan_dir(&sc, cdir, cp->name, gnames, shown);
		free(shown);
		/* each group folder: what in it is no case (its own folder covers none of it) */
		for (uint32_t j = 0; j < gs->len; j++) {
			const assay_value *g = &gs->u.members[j].value;
			char *gdir = assay_path_join(cdir, gnames[j]), greal[PATH_MAX];
			assay_strvec inner = ASSAY_STRVEC_INIT;

			if (assay_object_get(g, "original_group") || !realpath(gdir, greal)) {
				free(gdir);
				continue; /* (a regression group reads another group's folder) */
			}
			for (size_t k = 0; k < saved.nr; k++)
				if (!is_within(saved.v[k], greal))
					assay_strvec_push(&inner, saved.v[k]);
			sc.declared = inner;
			shown = assay_xasprintf("%s/", gdir);
			unrun += scan_group(&sc, gdir, gnames[j], shown);
			free(shown);
			assay_strvec_clear(&inner);
			free(gdir);
		}
		shown = NULL;
		sc.declared = old;
		assay_strvec_clear(&saved);
		free(shown);
		free(gnames);
		free(cdir);
	}
	assay_strvec_clear(&sc.declared);
	return unrun;
}
