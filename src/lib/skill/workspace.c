/*
 * Workspaces: `init` (skill-evals.md 3.3) and `snapshot` (3.7), history.json, and the average
 * score of a version (decision 1).
 *
 * Decisions: a snapshot copies the skill folder the user edits (config.json's `skill`, in git)
 * to v<N+1>/skill, so the git_hash recorded is the commit of exactly what was copied, and
 * null when that folder has uncommitted changes (decision 3). v0/skill is made the same way
 * by init. Neither copies evals/ (decision 4). init never changes a file that exists.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "skill/skill_int.h"
#include "util/banned.h"

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static int write_new(const char *path, const char *text, bool *made, assay_err *err)
{
	int rc;

	if (assay_fs_exists(path))
		return 0;
	if ((rc = assay_fs_mkparents(path, err)) ||
	    (rc = assay_fs_write_atomic(path, text, strlen(text), 0644, err)))
		return rc;
	*made = true;
	return 0;
}

static assay_value version_entry(assay_arena *a, int version, const char *description,
				 const char *skill_dir)
{
	assay_value e = assay_value_object();
	char now[32], hash[41];

	assay_skill__now(now);
	assay_object_set(a, &e, "version", assay_value_int(version));
	assay_object_set(a, &e, "timestamp", assay_value_strz(a, now));
	assay_object_set(a, &e, "description", assay_value_strz(a, description));
	assay_object_set(a, &e, "git_hash", assay_skill_git_hash(hash, skill_dir) ?
					    assay_value_strz(a, hash) : assay_value_null());
	assay_object_set(a, &e, "path", assay_value_stringf(a, "v%d/skill", version));
	assay_object_set(a, &e, "average_score", assay_value_null());
	return e;
}

int assay_skill_init(assay_skill_init_report *out, const char *skill_dir, const char *workspace,
		     assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	char *skill = NULL, *ws = NULL, *path = NULL, *text = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!assay_fs_is_dir(skill_dir)) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, skill_dir, 0, 0, "not a folder");
		goto out;
	}
	skill = assay_path_absolute(skill_dir);
	if (workspace) {
		ws = assay_path_absolute(workspace);
	} else {
		char *name = assay_skill__basename(skill);
		char *parent = assay_xstrndup(skill, strlen(skill) - strlen(name));
		ws = assay_xasprintf("%s%s-workspace", parent, name);
		free(name);
		free(parent);
	}
	out->workspace = assay_xstrdup(ws);

	/* evals/evals.json, in the skill (version-controlled with it) */
	path = assay_skill__path(skill, "evals/evals.json");
	{
		assay_value e = assay_value_object();
		assay_buf b = ASSAY_BUF_INIT;

		assay_object_set(a, &e, "version", assay_value_strz(a, "1.0"));
		assay_object_set(a, &e, "skill", assay_value_strz(a, skill));
		assay_object_set(a, &e, "cases", assay_value_array());
		assay_json_write(&b, &e, ASSAY_JSON_PRETTY);
		assay_buf_addch(&b, '\n');
		rc = write_new(path, b.ptr, &out->evals, err);
		assay_buf_release(&b);
		if (rc)
			goto out;
	}
	if ((rc = assay_fs_mkdirs(ws, err)))
		goto out;
	free(path);
	path = assay_path_join(ws, "config.json");
	text = assay_skill__config_default(skill);
	if ((rc = write_new(path, text, &out->config, err)))
		goto out;

	free(path);
	path = assay_path_join(ws, "v0/skill");
	if (dir_empty(path)) {
		if ((rc = assay_fs_mkdirs(path, err)) ||
		    (rc = assay_skill__copy_skill(skill, path, err)))
			goto out;
		out->snapshot = true;
	}
	free(path);
	path = assay_path_join(ws, "grading");
	if (!assay_fs_is_dir(path)) {
		if ((rc = assay_fs_mkdirs(path, err)))
			goto out;
		out->grading = true;
	}
	free(path);
	path = assay_path_join(ws, "history.json");
	if (!assay_fs_exists(path)) {
		assay_value h = assay_value_object(), vs = assay_value_array();

		assay_array_push(a, &vs, version_entry(a, 0, "baseline", skill));
		assay_object_set(a, &h, "versions", vs);
		assay_object_set(a, &h, "current_version", assay_value_int(0));
		if ((rc = assay_skill__write_json(path, &h, err)))
			goto out;
		out->history = true;
	}
	for (int r = 0; r < 3; r++) {
		free(path);
		path = assay_skill__path(ws, "prompts/%s.md", assay_judge_role_name(r));
		if ((rc = write_new(path, assay_judge_builtin_prompt(r), &out->prompts, err)))
			goto out;
	}
out:
	free(skill);
	free(ws);
	free(path);
	free(text);
	assay_arena_free(a);
	return rc;
}

int assay_skill__history_load(assay_value *out, assay_arena *a, const char *ws, assay_err *err)
{
	char *path = assay_path_join(ws, "history.json");
	const assay_value *vs, *cur;
	int rc = assay_skill__load_json(out, a, path, err);

	if (!rc) {
		vs = assay_object_get(out, "versions");
		cur = assay_object_get(out, "current_version");
		if (!vs || vs->kind != ASSAY_V_ARRAY || !vs->len || !cur ||
		    cur->kind != ASSAY_V_INT || cur->u.i < 0 || cur->u.i >= vs->len)
			rc = assay_err_set(err, ASSAY_EINVALID, path, 1, 1,
					   "history.json needs a non-empty 'versions' array and "
					   "a 'current_version' naming one of them "
					   "(assay skill check tells more)");
	}
	free(path);
	return rc;
}

int assay_skill__evals_load(assay_value *out, assay_arena *a, const struct skill_config *c,
			    assay_err *err)
{
	char *path = assay_path_join(c->skill, "evals/evals.json");
	assay_skill_diags d = ASSAY_SKILL_DIAGS_INIT;
	int rc = assay_skill_check_file(&d, path, ASSAY_SKILL_FILE_EVALS, c->workspace, err);

	for (size_t i = 0; !rc && i < d.nr; i++)
		if (d.v[i].severity == ASSAY_SKILL_ERROR)
			rc = assay_err_set(err, ASSAY_EINVALID, d.v[i].path, d.v[i].line,
					   d.v[i].col, "%s", d.v[i].msg);
	if (!rc)
		rc = assay_skill__load_json(out, a, path, err);
	assay_skill_diags_clear(&d);
	free(path);
	return rc;
}

static assay_value *version_at(assay_value *history, int version)
{
	const assay_value *vs = assay_object_get(history, "versions");

	for (uint32_t i = 0; vs && vs->kind == ASSAY_V_ARRAY && i < vs->len; i++) {
		int64_t v;

		if (assay_skill__int(&vs->u.items[i], "version", &v) && v == version)
			return &vs->u.items[i];
	}
	return NULL;
}

static void set_average(assay_arena *a, assay_value *history, const char *ws, int version)
{
	assay_value *entry = version_at(history, version);
	double avg = assay_skill__version_average(ws, version, NULL);

	if (entry)
		assay_object_set(a, entry, "average_score",
				 isnan(avg) ? assay_value_null() : assay_value_real(avg));
}

int assay_skill_refresh_average(const char *ws, int version, assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	assay_value h;
	char *path = assay_path_join(ws, "history.json");
	int rc = assay_skill__history_load(&h, a, ws, err);

	if (!rc) {
		set_average(a, &h, ws, version);
		rc = assay_skill__write_json(path, &h, err);
	}
	free(path);
	assay_arena_free(a);
	return rc;
}

int assay_skill_snapshot(const char *ws, const char *description, bool force, int *version_out,
			 assay_err *err)
{
	struct skill_config c;
	assay_arena *a = assay_arena_new(0);
	assay_value h;
	char *dst = NULL, *hpath = NULL, *desc = NULL;
	int rc, next;

	if ((rc = assay_skill__config_load(&c, ws, err)))
		goto out;
	if ((rc = assay_skill__history_load(&h, a, c.workspace, err)))
		goto out;
	int64_t cur = assay_object_get(&h, "current_version")->u.i;
	assay_value *vs = (assay_value *)assay_object_get(&h, "versions");

	next = 0;
	for (uint32_t i = 0; i < vs->len; i++) {
		int64_t v;
		if (assay_skill__int(&vs->u.items[i], "version", &v) && v >= next)
			next = (int)v + 1;
	}
	if (next <= cur)
		next = (int)cur + 1;
	dst = assay_skill__path(c.workspace, "v%d", next);
	if (assay_fs_exists(dst)) {
		rc = assay_err_set(err, ASSAY_EINVALID, dst, 0, 0,
				   "already exists: remove it or fix history.json");
		goto out;
	}
	free(dst);
	dst = assay_skill__path(c.workspace, "v%d/skill", next);
	if (!assay_fs_is_dir(c.skill)) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, c.skill, 0, 0,
				   "the skill folder named in config.json is not a folder");
		goto out;
	}
	if ((rc = assay_fs_mkdirs(dst, err)) || (rc = assay_skill__copy_skill(c.skill, dst, err)))
		goto out;
	/* a version identical to the current one measures nothing new */
	char *cur_dir = assay_skill__path(c.workspace, "v%d/skill", (int)cur);
	bool same = !force && assay_fs_is_dir(cur_dir) && assay_skill__same_tree(dst, cur_dir);
	free(cur_dir);
	if (same) {
		char *vdir = assay_skill__path(c.workspace, "v%d", next);
		assay_fs_remove_tree(vdir, NULL);
		free(vdir);
		rc = assay_err_set(err, ASSAY_ENOMATCH, c.skill, 0, 0,
				   "nothing changed since v%d: the skill folder holds what "
				   "v%d/skill holds (edit the skill first, or --force to make v%d "
				   "anyway)", (int)cur, (int)cur, next);
		goto out;
	}
	set_average(a, &h, c.workspace, (int)cur);
	desc = description ? assay_xstrdup(description) : assay_xasprintf("version %d", next);
	assay_array_push(a, vs, version_entry(a, next, desc, c.skill));
	assay_object_set(a, &h, "current_version", assay_value_int(next));
	hpath = assay_path_join(c.workspace, "history.json");
	if ((rc = assay_skill__write_json(hpath, &h, err)))
		goto out;
	if (version_out)
		*version_out = next;
out:
	assay_skill__config_release(&c);
	assay_arena_free(a);
	free(dst);
	free(hpath);
	free(desc);
	return rc;
}
