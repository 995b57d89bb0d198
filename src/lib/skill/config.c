/*
 * The workspace's config.json: the executor's command template, the judges (one default,
 * overridden per role), the budget, the parallelism, the seed of the blind comparison and the
 * lint profile. Written by `assay skill init`, edited by the user; docs/skills.md lists it.
 *
 * Decisions: a command is an argv array or a string split as a POSIX shell would (no
 * expansion); its first word, when relative and holding a '/', is relative to the workspace
 * (so a config keeps working from any current folder). Placeholders ({prompt}, ...) are
 * replaced per word after splitting, so a prompt with spaces stays one argument.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/suite.h"
#include "skill/skill_int.h"
#include "util/banned.h"

char *assay_skill__config_default(const char *skill_abs)
{
	assay_arena *a = assay_arena_new(0);
	assay_value root = assay_value_object(), ex = assay_value_object();
	assay_value j = assay_value_object(), b = assay_value_object(), l = assay_value_object();
	assay_buf out = ASSAY_BUF_INIT;

	assay_object_set(a, &root, "skill", assay_value_strz(a, skill_abs));
	assay_object_set(a, &ex, "command", assay_value_strz(a, "claude -p {prompt}"));
	assay_object_set(a, &ex, "timeout", assay_value_int(600));
	assay_object_set(a, &ex, "sandbox", assay_value_bool(false));
	assay_object_set(a, &root, "executor", ex);
	assay_object_set(a, &j, "type", assay_value_strz(a, "command"));
	assay_object_set(a, &j, "command", assay_value_strz(a, ""));
	assay_object_set(a, &j, "model", assay_value_strz(a, ""));
	assay_object_set(a, &j, "timeout", assay_value_int(300));
	assay_object_set(a, &j, "retries", assay_value_int(2));
	assay_object_set(a, &j, "backoff", assay_value_real(1.0));
	assay_object_set(a, &root, "judge", j);
	assay_object_set(a, &root, "jobs", assay_value_int(1));
	assay_object_set(a, &root, "seed", assay_value_int(1));
	assay_object_set(a, &b, "seconds", assay_value_int(0));
	assay_object_set(a, &b, "cost", assay_value_int(0));
	assay_object_set(a, &root, "budget", b);
	assay_object_set(a, &l, "profile", assay_value_strz(a, "agentskills"));
	assay_object_set(a, &l, "type", assay_value_null());
	assay_object_set(a, &l, "budget_class", assay_value_null());
	assay_object_set(a, &root, "lint", l);
	assay_object_set(a, &root, "prompts", assay_value_strz(a, "prompts"));
	assay_object_set(a, &root, "cache", assay_value_strz(a, ".cache/judge"));
	assay_json_write(&out, &root, ASSAY_JSON_PRETTY);
	assay_buf_addch(&out, '\n');
	assay_arena_free(a);
	return assay_buf_detach(&out, NULL);
}

static int bad(struct skill_config *c, const assay_value *v, assay_err *err, const char *fmt,
	       const char *what)
{
	int line, col;

	assay_skill__pos(c->a, v, &line, &col);
	return assay_err_set(err, ASSAY_EINVALID, c->path, line, col, fmt, what);
}

static int get_number(struct skill_config *c, const assay_value *obj, const char *key,
		      double *out, assay_err *err)
{
	const assay_member *m = assay_object_member(obj, key);

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (!assay_value_is_number(&m->value) || !(assay_value_number(&m->value) >= 0))
		return bad(c, assay_member_anchor(m), err, "'%s' must be a number >= 0", key);
	*out = assay_value_number(&m->value);
	return 0;
}

static int get_string(struct skill_config *c, const assay_value *obj, const char *key,
		      const char **out, assay_err *err)
{
	const assay_member *m = assay_object_member(obj, key);

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_STRING)
		return bad(c, assay_member_anchor(m), err, "'%s' must be a string", key);
	/* a NUL (JSON's \u0000) would cut the text: "command\u0000x" read as "command" */
	if (strlen(m->value.u.s) != m->value.len)
		return bad(c, &m->value, err, "'%s' must not contain a NUL byte", key);
	*out = m->value.u.s;
	return 0;
}

static int get_bool(struct skill_config *c, const assay_value *obj, const char *key, bool *out,
		    assay_err *err)
{
	const assay_member *m = assay_object_member(obj, key);

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_BOOL)
		return bad(c, assay_member_anchor(m), err, "'%s' must be true or false", key);
	*out = m->value.u.b;
	return 0;
}

/* A command: an array of strings or a shell-quoted string. */
static int get_command(struct skill_config *c, const assay_value *obj, assay_strvec *out,
		       assay_err *err)
{
	const assay_member *m = assay_object_member(obj, "command");
	int rc;

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	assay_strvec_clear(out);
	if (m->value.kind == ASSAY_V_STRING) {
		assay_err e = ASSAY_ERR_INIT;

		if (assay_shell_split(out, m->value.u.s, &e))
			return bad(c, &m->value, err, "bad command: %s", e.msg);
	} else if (m->value.kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < m->value.len; i++) {
			if (m->value.u.items[i].kind != ASSAY_V_STRING)
				return bad(c, &m->value, err, "'%s' must hold strings only",
					   "command");
			assay_strvec_push(out, m->value.u.items[i].u.s);
		}
	} else {
		return bad(c, assay_member_anchor(m), err,
			   "'%s' must be a string or an array of strings", "command");
	}
	/* A relative program path is relative to the workspace. */
	if (out->nr && out->v[0][0] != '/' && strchr(out->v[0], '/')) {
		char *abs = assay_path_join(c->workspace, out->v[0]);

		free(out->v[0]);
		out->v[0] = abs;
	}
	rc = 0;
	return rc;
}

static int judge_from(struct skill_config *c, struct skill_judge_cfg *j, const assay_value *o,
		      assay_err *err)
{
	int rc;
	double retries = -1;

	if (!o || o->kind == ASSAY_V_NULL)
		return 0;
	if (o->kind != ASSAY_V_OBJECT)
		return bad(c, o, err, "a judge must be an object%s", "");
	if ((rc = get_string(c, o, "type", &j->cfg.type, err)) ||
	    (rc = get_command(c, o, &j->command, err)) ||
	    (rc = get_bool(c, o, "sandbox", &j->cfg.sandbox, err)) ||
	    (rc = get_string(c, o, "base_url", &j->cfg.base_url, err)) ||
	    (rc = get_string(c, o, "model", &j->cfg.model, err)) ||
	    (rc = get_string(c, o, "api_key_env", &j->cfg.api_key_env, err)) ||
	    (rc = get_number(c, o, "timeout", &j->cfg.timeout_s, err)) ||
	    (rc = get_number(c, o, "retries", &retries, err)) ||
	    (rc = get_number(c, o, "backoff", &j->cfg.backoff_s, err)) ||
	    (rc = get_number(c, o, "price_in", &j->cfg.price_in, err)) ||
	    (rc = get_number(c, o, "price_out", &j->cfg.price_out, err)))
		return rc;
	if (retries >= 0)
		j->cfg.retries = retries > 100 ? 100 : (int)retries;
	return 0;
}

int assay_skill__config_load(struct skill_config *c, const char *ws, assay_err *err)
{
	assay_value root;
	const char *s;
	double d;
	int rc;

	memset(c, 0, sizeof(*c));
	c->a = assay_arena_new(0);
	c->workspace = assay_path_absolute(ws);
	c->path = assay_path_join(c->workspace, "config.json");
	c->executor = (assay_strvec)ASSAY_STRVEC_INIT;
	c->exec_timeout = 600;
	c->improver = (assay_strvec)ASSAY_STRVEC_INIT;
	c->improver_timeout = 600;
	c->trigger_command = (assay_strvec)ASSAY_STRVEC_INIT;
	c->trigger_skills = (assay_strvec)ASSAY_STRVEC_INIT;
	c->trigger_improver = (assay_strvec)ASSAY_STRVEC_INIT;
	c->jobs = 1;
	c->seed = 1;
	for (int r = 0; r < 3; r++) {
		c->judge[r].cfg = (assay_judge_config)ASSAY_JUDGE_CONFIG_INIT;
		c->judge[r].command = (assay_strvec)ASSAY_STRVEC_INIT;
	}
	if (!assay_fs_is_dir(c->workspace))
		return assay_err_set(err, ASSAY_ENOTFOUND, c->workspace, 0, 0,
				     "not a skill workspace (no such folder)");
	if ((rc = assay_skill__load_json(&root, c->a, c->path, err)))
		return rc;
	if (root.kind != ASSAY_V_OBJECT)
		return bad(c, &root, err, "config.json must hold an object%s", "");
	s = assay_skill__str(&root, "skill");
	if (!s)
		return assay_err_set(err, ASSAY_EINVALID, c->path, 1, 1,
				     "'skill' (the skill folder) is missing");
	c->skill = s[0] == '/' ? assay_xstrdup(s) : assay_path_join(c->workspace, s);

	const assay_value *ex = assay_object_get(&root, "executor");
	if (ex && ex->kind == ASSAY_V_OBJECT) {
		if ((rc = get_command(c, ex, &c->executor, err)) ||
		    (rc = get_number(c, ex, "timeout", &c->exec_timeout, err)) ||
		    (rc = get_bool(c, ex, "sandbox", &c->exec_sandbox, err)))
			return rc;
	}
	const assay_value *im = assay_object_get(&root, "improver");
	if (im && im->kind == ASSAY_V_OBJECT) {
		if ((rc = get_command(c, im, &c->improver, err)) ||
		    (rc = get_number(c, im, "timeout", &c->improver_timeout, err)))
			return rc;
	}
	const assay_value *tr = assay_object_get(&root, "triggers");
	if (tr && tr->kind == ASSAY_V_OBJECT) {
		const assay_member *sk = assay_object_member(tr, "skills");
		double runs = 0;
		const assay_value *ti = assay_object_get(tr, "improver");
		if ((rc = get_command(c, tr, &c->trigger_command, err)) ||
		    (rc = get_number(c, tr, "runs", &runs, err)) ||
		    (ti && ti->kind == ASSAY_V_OBJECT &&
		     (rc = get_command(c, ti, &c->trigger_improver, err))))
			return rc;
		c->trigger_runs = runs >= 1 ? (runs > 1000 ? 1000 : (int)runs) : 0;
		if (sk && sk->value.kind != ASSAY_V_ARRAY && sk->value.kind != ASSAY_V_NULL)
			return bad(c, assay_member_anchor(sk), err, "'%s' must be an array of skill "
				   "folders", "triggers.skills");
		for (uint32_t i = 0; sk && sk->value.kind == ASSAY_V_ARRAY && i < sk->value.len;
		     i++) {
			const assay_value *x = &sk->value.u.items[i];
			if (x->kind != ASSAY_V_STRING)
				return bad(c, x, err, "'%s' must hold strings only",
					   "triggers.skills");
			assay_strvec_push_nodup(&c->trigger_skills,
						x->u.s[0] == '/' ? assay_xstrdup(x->u.s)
								 : assay_path_join(c->workspace,
										   x->u.s));
		}
	}
	d = -1;
	if ((rc = get_number(c, &root, "jobs", &d, err)))
		return rc;
	if (d >= 1)
		c->jobs = d > 64 ? 64 : (size_t)d;
	const assay_value *seed = assay_object_get(&root, "seed");
	if (seed && seed->kind == ASSAY_V_INT)
		c->seed = (uint64_t)seed->u.i;
	const assay_value *b = assay_object_get(&root, "budget");
	if (b && b->kind == ASSAY_V_OBJECT &&
	    ((rc = get_number(c, b, "seconds", &c->budget_seconds, err)) ||
	     (rc = get_number(c, b, "cost", &c->budget_cost, err))))
		return rc;
	const assay_value *l = assay_object_get(&root, "lint");
	if (l && l->kind == ASSAY_V_OBJECT) {
		const char *p = NULL, *t = NULL, *bc = NULL;

		if ((rc = get_string(c, l, "profile", &p, err)) ||
		    (rc = get_string(c, l, "type", &t, err)) ||
		    (rc = get_string(c, l, "budget_class", &bc, err)))
			return rc;
		if (p && assay_skill_profile_parse(&c->profile, p))
			return bad(c, assay_object_get(l, "profile"), err, "unknown profile '%s'",
				   p);
		c->skill_type = t ? assay_xstrdup(t) : NULL;
		c->budget_class = bc ? assay_xstrdup(bc) : NULL;
	}
	s = assay_skill__str(&root, "prompts");
	c->prompts_dir = assay_path_join(c->workspace, s ? s : "prompts");
	s = assay_skill__str(&root, "cache");
	c->cache_dir = assay_path_join(c->workspace, s ? s : ".cache/judge");

	static const char *const roles[3] = { "grader", "comparator", "analyzer" };
	for (int r = 0; r < 3; r++) {
		if ((rc = judge_from(c, &c->judge[r], assay_object_get(&root, "judge"), err)) ||
		    (rc = judge_from(c, &c->judge[r], assay_object_get(&root, roles[r]), err)))
			return rc;
		c->judge[r].cfg.command = &c->judge[r].command;
		c->judge[r].cfg.prompts_dir = c->prompts_dir;
	}
	return 0;
}

void assay_skill__config_release(struct skill_config *c)
{
	assay_arena_free(c->a);
	free(c->workspace);
	free(c->path);
	free(c->skill);
	assay_strvec_clear(&c->executor);
	assay_strvec_clear(&c->improver);
	assay_strvec_clear(&c->trigger_command);
	assay_strvec_clear(&c->trigger_skills);
	assay_strvec_clear(&c->trigger_improver);
	free(c->skill_type);
	free(c->budget_class);
	free(c->prompts_dir);
	free(c->cache_dir);
	for (int r = 0; r < 3; r++)
		assay_strvec_clear(&c->judge[r].command);
	memset(c, 0, sizeof(*c));
}

int assay_skill__judge_new(assay_judge **out, const struct skill_config *c,
			   assay_judge_role role, bool no_cache, assay_err *err)
{
	assay_judge_config cfg = c->judge[role].cfg;
	int rc;

	cfg.cache_dir = no_cache ? NULL : c->cache_dir;
	rc = assay_judge_new(out, &cfg, err);
	if (rc && err && !err->path[0])
		snprintf(err->path, sizeof(err->path), "%s", c->path);
	return rc;
}
