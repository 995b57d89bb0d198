/*
 * `assay skill triggers` (issue 20 item 5): does the skill get loaded when it should? Each
 * query of the skill's evals/triggers.json ([{query, should_trigger}], skill-creator's format)
 * goes to the executor, with the version's skill installed among others, and the executor's
 * transcript says whether the skill was read.
 *
 * Layout: triggers/v<N>/skills/ holds the installed skills, each in a folder of its name: the
 * version's own (v<N>/skill, under the original skill folder's name) and config.json's
 * `triggers.skills` (other skill folders, without their evals/); triggers/v<N>/runs/q<K>/run<R>/
 * is each run's working folder; triggers/v<N>/results.json the result. All made afresh.
 *
 * Read or not: the transcript (the executor's standard output, or the transcript.md it wrote)
 * names the skill's SKILL.md as a path ending in "<name>/SKILL.md" (the folder name not part
 * of a longer name), or holds a Skill tool call's `"skill": "<name>"` (Claude Code's stream
 * JSON); <name> is the installed folder's name or the frontmatter's name. A query triggers
 * when at least half its runs read the skill (skill-creator's threshold). Precision is
 * TP / (TP + FP), recall TP / (TP + FN), each null when its denominator is 0.
 *
 * Refuses: deciding from anything but the transcript (access times lie on noatime mounts).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "assay/yaml.h"
#include "skill/skill_int.h"
#include "util/banned.h"

/* The frontmatter's description (and name) of SKILL.md in `dir`, copied into `a`. */
static void frontmatter(const char *dir, assay_arena *a, const char **name, const char **desc)
{
	char *p = assay_path_join(dir, "SKILL.md");
	assay_buf b = ASSAY_BUF_INIT;
	assay_value v;

	*name = *desc = NULL;
	if (!assay_fs_read(&b, p, 1u << 20, NULL) && b.len > 3 && !strncmp(b.ptr, "---", 3)) {
		const char *end = memmem(b.ptr + 3, b.len - 3, "\n---", 4);
		assay_yaml_opts yo = ASSAY_YAML_OPTS_INIT;
		if (end && !assay_yaml_parse(&v, a, b.ptr + 3, (size_t)(end - b.ptr - 3), &yo,
					     NULL) && v.kind == ASSAY_V_OBJECT) {
			const char *n = assay_skill__str(&v, "name"), *d = assay_skill__str(&v,
											"description");
			*name = n ? assay_value_strz(a, n).u.s : NULL;
			*desc = d ? assay_value_strz(a, d).u.s : NULL;
		}
	}
	assay_buf_release(&b);
	free(p);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_' || c == '.';
}

/* Whether `t` names `<name>/SKILL.md` or holds "skill": "<name>". */
static bool was_read(const char *t, size_t n, const char *name)
{
	size_t k;
	char *pat;

	if (!name || !*name)
		return false;
	pat = assay_xasprintf("%s/SKILL.md", name);
	k = strlen(pat);
	for (const char *p = t; (p = memmem(p, (size_t)(t + n - p), pat, k)); p++)
		if (p == t || !name_char(p[-1])) {
			free(pat);
			return true;
		}
	free(pat);
	for (const char *p = t; (p = memmem(p, (size_t)(t + n - p), "\"skill\"", 7)); p++) {
		const char *q = p + 7;
		while (q < t + n && (*q == ' ' || *q == ':' || *q == '\t'))
			q++;
		k = strlen(name);
		if (q < t + n && *q == '"' && (size_t)(t + n - q) > k + 1 &&
		    !strncmp(q + 1, name, k) && q[k + 1] == '"')
			return true;
	}
	return false;
}

/* Reads evals/triggers.json: an array of {query: string, should_trigger: bool}. */
static int load_queries(assay_value *out, assay_arena *a, const struct skill_config *c,
			assay_err *err)
{
	char *p = assay_path_join(c->skill, "evals/triggers.json");
	int rc = assay_skill__load_json(out, a, p, err);

	if (!rc && out->kind != ASSAY_V_ARRAY)
		rc = assay_err_set(err, ASSAY_EINVALID, p, 1, 1, "triggers.json must be an array "
				   "of {\"query\": ..., \"should_trigger\": true|false}");
	for (uint32_t i = 0; !rc && i < out->len; i++) {
		const assay_value *q = &out->u.items[i];
		const assay_value *st = assay_object_get(q, "should_trigger");
		int line, col;
		if (!assay_skill__str(q, "query") || !st || st->kind != ASSAY_V_BOOL) {
			assay_skill__pos(a, q, &line, &col);
			rc = assay_err_set(err, ASSAY_EINVALID, p, line, col, "each entry needs "
					   "\"query\" (a string) and \"should_trigger\" (true or "
					   "false)");
		}
	}
	free(p);
	return rc;
}

/* What the runs of one trigger eval share. */
struct trig {
	const struct skill_config *c;
	const char *root;            /* triggers/v<N> */
	const char *skills;          /* its skills/ folder, the skills the executor is offered */
	const char *folder_name;     /* the skill's names a transcript may read it by */
	const char *fm_name;
	int runs;                    /* runs per query */
	size_t errors;               /* runs that could not start */
	char why[600];               /* why a run could not start (the last one) */
	assay_err *err;
};

/* The skills a trigger eval offers: version `own` of this one, and triggers.skills. */
static int install(struct trig *t, const char *own)
{
	const struct skill_config *c = t->c;
	const char *skills = t->skills;
	assay_err *err = t->err;
	char *dst = assay_path_join(skills, t->folder_name);
	int rc = assay_skill__copy_skill(own, dst, err);

	free(dst);
	for (size_t i = 0; !rc && i < c->trigger_skills.nr; i++) {
		const char *src = c->trigger_skills.v[i];
		char *name = assay_skill__basename(src);
		dst = assay_path_join(skills, name);
		if (!assay_fs_is_dir(src)) {
			snprintf(t->why, sizeof(t->why), "triggers.skills: '%s' is not a folder", src);
			rc = ASSAY_ENOTFOUND;
			assay_err_set(err, rc, src, 0, 0, "%s", t->why);
		} else if (assay_fs_exists(dst)) {
			rc = assay_err_set(err, ASSAY_EINVALID, src, 0, 0, "triggers.skills: a second "
					   "skill named '%s'", name);
		} else {
			rc = assay_skill__copy_skill(src, dst, err);
		}
		free(name);
		free(dst);
	}
	return rc;
}

/* One run of one query into *read: 1 read, 0 not read, -1 the executor could not start
 * (t->why); 0, or an error code when assay could not run it. */
static int one_run(struct trig *t, const char *run_dir, const char *query, int run, int *read)
{
	const struct skill_config *c = t->c;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result pr;
	assay_buf b = ASSAY_BUF_INIT;
	char runs[16];
	int rc;

	*read = 0;
	snprintf(runs, sizeof(runs), "%d", run);
	const assay_strvec *tpl = c->trigger_command.nr ? &c->trigger_command : &c->executor;
	const char *vars[] = { "{prompt}", query, "{skills}", t->skills, "{run_dir}", run_dir,
			       "{run}", runs, NULL };
	for (size_t i = 0; i < tpl->nr; i++)
		assay_strvec_push_nodup(&p.argv, assay_skill__expand(tpl->v[i], vars));
	assay_strvec_pushf(&p.env, "ASSAY_PROMPT=%s", query);
	assay_strvec_pushf(&p.env, "ASSAY_SKILLS_DIR=%s", t->skills);
	assay_strvec_pushf(&p.env, "ASSAY_RUN_DIR=%s", run_dir);
	assay_strvec_pushf(&p.env, "ASSAY_RUN=%d", run);
	p.cwd = assay_xstrdup(run_dir);
	p.out_cap = 16u << 20;
	p.err_cap = 1u << 20;
	p.timeout_s = c->exec_timeout;
	if ((rc = assay_proc_run(&p, &pr, t->err)))
		goto out;
	if (pr.status == ASSAY_PROC_EXEC_FAILED) {
		snprintf(t->why, sizeof(t->why), "the executor could not be started: %s: %s",
			 p.argv.v[0], strerror(pr.exec_errno));
		*read = -1;
		goto out;
	}
	assay_fs_remove_beneath(run_dir, "transcript.out", NULL);
	assay_fs_write_beneath(run_dir, "transcript.out", p.out.ptr, p.out.len, 0644, NULL);
	if (assay_fs_read_beneath(&b, run_dir, "transcript.md", 16u << 20, NULL))
		assay_buf_reset(&b);
	*read = was_read(p.out.ptr, p.out.len, t->folder_name) ||
		was_read(b.ptr, b.len, t->folder_name) ||
		was_read(p.out.ptr, p.out.len, t->fm_name) || was_read(b.ptr, b.len, t->fm_name);
out:
	assay_buf_release(&b);
	assay_proc_release(&p);
	return rc;
}

/* The runs of query `i` (numbered from 0): how many ran (*done), how many read the skill. */
static int query_runs(struct trig *t, uint32_t i, const char *query, size_t *done,
		      size_t *read)
{
	int rc;

	*done = *read = 0;
	for (int r = 1; r <= t->runs; r++) {
		char *run_dir = assay_skill__path(t->root, "runs/q%u/run%d", i + 1, r);
		int x = 0;

		rc = assay_fs_mkdirs(run_dir, t->err);
		if (!rc)
			rc = one_run(t, run_dir, query, r, &x);
		free(run_dir);
		if (rc)
			return rc;
		if (x < 0) {
			t->errors++;
			continue;
		}
		(*done)++;
		*read += (size_t)x;
	}
	return 0;
}

static assay_value ratio(size_t num, size_t den)
{
	return den ? assay_value_real((double)num / (double)den) : assay_value_null();
}

/* A query's entry in results.json; the counts of *out (when a run ran) */
static assay_value query_value(assay_arena *a, const assay_value *q, size_t done, size_t read,
			       assay_skill_triggers_result *out, const assay_skill_triggers_opts *o)
{
	const char *query = assay_skill__str(q, "query");
	bool should = assay_object_get(q, "should_trigger")->u.b;
	bool triggered = done && 2 * read >= done;
	assay_value e = assay_value_object();

	assay_object_set(a, &e, "query", assay_value_strz(a, query));
	assay_object_set(a, &e, "should_trigger", assay_value_bool(should));
	assay_object_set(a, &e, "runs", assay_value_int((int64_t)done));
	assay_object_set(a, &e, "read", assay_value_int((int64_t)read));
	assay_object_set(a, &e, "rate", ratio(read, done));
	assay_object_set(a, &e, "triggered", done ? assay_value_bool(triggered)
						 : assay_value_null());
	assay_object_set(a, &e, "correct", done ? assay_value_bool(triggered == should)
					       : assay_value_null());
	if (!done)
		return e;
	out->queries++;
	if (triggered && should)
		out->tp++;
	else if (triggered)
		out->fp++;
	else if (should)
		out->fn++;
	else
		out->tn++;
	if (o->progress)
		o->progress(o->payload, query, should, triggered, read, done);
	return e;
}

/* results.json of version `version` (its description `desc`): every query, the confusion
 * counts and their ratios. */
static assay_value results_value(assay_arena *a, int version, const char *desc, int runs,
				 assay_value qs, const assay_skill_triggers_result *out)
{
	assay_value res = assay_value_object();

	assay_object_set(a, &res, "version", assay_value_int(version));
	assay_object_set(a, &res, "description", desc ? assay_value_strz(a, desc)
						     : assay_value_null());
	assay_object_set(a, &res, "runs_per_query", assay_value_int(runs));
	assay_object_set(a, &res, "queries", qs);
	assay_object_set(a, &res, "tp", assay_value_int((int64_t)out->tp));
	assay_object_set(a, &res, "fp", assay_value_int((int64_t)out->fp));
	assay_object_set(a, &res, "fn", assay_value_int((int64_t)out->fn));
	assay_object_set(a, &res, "tn", assay_value_int((int64_t)out->tn));
	assay_object_set(a, &res, "precision", ratio(out->tp, out->tp + out->fp));
	assay_object_set(a, &res, "recall", ratio(out->tp, out->tp + out->fn));
	assay_object_set(a, &res, "accuracy", ratio(out->tp + out->tn, out->queries));
	assay_object_set(a, &res, "run_errors", assay_value_int((int64_t)out->errors));
	return res;
}

int assay_skill_triggers(assay_skill_triggers_result *out, const assay_skill_triggers_opts *o,
			 assay_err *err)
{
	struct skill_config c;
	struct trig t = { .c = &c, .err = err };
	assay_arena *a = assay_arena_new(0);
	assay_value history, queries, qs = assay_value_array(), res;
	char *root = NULL, *skills = NULL, *own = NULL, *name = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = assay_skill__config_load(&c, o->workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = load_queries(&queries, a, &c, err)))
		goto out;
	int version = o->version >= 0 ? o->version
				      : (int)assay_object_get(&history, "current_version")->u.i;
	out->version = version;
	own = assay_skill__path(c.workspace, "v%d/skill", version);
	if (!assay_fs_is_dir(own)) {
		rc = assay_err_set(err, ASSAY_ENOMATCH, own, 0, 0, "version %d has no snapshot",
				   version);
		goto out;
	}
	if (!c.executor.nr && !c.trigger_command.nr) {
		rc = assay_err_set(err, ASSAY_EINVALID, c.path, 0, 0, "executor.command is empty");
		goto out;
	}
	t.folder_name = name = assay_skill__basename(c.skill);
	t.root = root = assay_skill__path(c.workspace, "triggers/v%d", version);
	t.skills = skills = assay_path_join(root, "skills");
	if ((rc = assay_fs_remove_tree(root, err)) || (rc = assay_fs_mkdirs(skills, err)) ||
	    (rc = install(&t, own)))
		goto out;
	const char *desc;
	frontmatter(own, a, &t.fm_name, &desc);
	t.runs = o->runs > 0 ? o->runs : c.trigger_runs > 0 ? c.trigger_runs : 1;

	for (uint32_t i = 0; i < queries.len; i++) {
		const assay_value *q = &queries.u.items[i];
		size_t done, read;

		rc = query_runs(&t, i, assay_skill__str(q, "query"), &done, &read);
		out->errors = t.errors;
		if (rc)
			goto out;
		assay_array_push(a, &qs, query_value(a, q, done, read, out, o));
	}
	out->precision = out->tp + out->fp ? (double)out->tp / (double)(out->tp + out->fp) : NAN;
	out->recall = out->tp + out->fn ? (double)out->tp / (double)(out->tp + out->fn) : NAN;
	out->accuracy = out->queries ? (double)(out->tp + out->tn) / (double)out->queries : NAN;
	snprintf(out->error, sizeof(out->error), "%s", out->errors ? t.why : "");
	res = results_value(a, version, desc, t.runs, qs, out);
	char *rp = assay_path_join(root, "results.json");
	rc = assay_skill__write_json(rp, &res, err);
	free(rp);
out:
	free(root);
	free(skills);
	free(own);
	free(name);
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}

int assay_skill_triggers_versions(assay_value *out, assay_arena *a, const char *workspace,
				  assay_err *err)
{
	char *dir = assay_path_join(workspace, "triggers");
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	struct vres { int v; assay_value r; };
	struct vres *vs = n > 0 ? assay_xcalloc((size_t)n, sizeof(*vs)) : NULL;
	size_t k = 0;

	(void)err;
	*out = assay_value_array();
	for (int i = 0; i < n; i++) {
		char *end;
		long v = names[i]->d_name[0] == 'v' ? strtol(names[i]->d_name + 1, &end, 10) : -1;
		if (v >= 0 && end != names[i]->d_name + 1 && !*end) {
			char *p = assay_skill__path(dir, "v%ld/results.json", v);
			assay_value r;
			if (!assay_skill__load_json(&r, a, p, NULL) && r.kind == ASSAY_V_OBJECT) {
				vs[k].v = (int)v;
				vs[k++].r = r;
			}
			free(p);
		}
		free(names[i]);
	}
	free(names);
	/* by version number (v10 after v9) */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && vs[j - 1].v > vs[j].v; j--) {
			struct vres t = vs[j];
			vs[j] = vs[j - 1];
			vs[j - 1] = t;
		}
	for (size_t i = 0; i < k; i++)
		assay_array_push(a, out, vs[i].r);
	free(vs);
	free(dir);
	return 0;
}

int assay_skill_triggers_improver(const char *workspace, int version, int *next, char *why,
				  size_t whysize, assay_err *err)
{
	struct skill_config c;
	char ver[16], desc[64];
	char *dir = NULL, *results = NULL;
	int rc;

	*next = -1;
	why[0] = '\0';
	if ((rc = assay_skill__config_load(&c, workspace, err)))
		goto out;
	if (!c.trigger_improver.nr) {
		snprintf(why, whysize, "no triggers.improver in config.json: improve the "
			 "description by hand, snapshot, and run triggers again");
		rc = 1;
		goto out;
	}
	snprintf(ver, sizeof(ver), "%d", version);
	dir = assay_skill__path(c.workspace, "triggers/improve/v%d", version);
	results = assay_skill__path(c.workspace, "triggers/v%d/results.json", version);
	const char *vars[] = { "{results}", results, "{skill}", c.skill, "{workspace}",
			       c.workspace, "{version}", ver, NULL };
	struct skill_improver_call call = { &c.trigger_improver, vars, dir };
	if ((rc = assay_skill__run_improver(&c, &call, why, whysize, err)))
		goto out;
	assay_err se = ASSAY_ERR_INIT;
	snprintf(desc, sizeof(desc), "description improver, from v%d", version);
	rc = assay_skill_snapshot(workspace, desc, false, next, &se);
	if (rc == ASSAY_ENOMATCH) {
		snprintf(why, whysize, "the description improver changed nothing in the skill");
		rc = 1;
	} else if (rc && err) {
		*err = se;
	}
out:
	free(dir);
	free(results);
	assay_skill__config_release(&c);
	return rc;
}

