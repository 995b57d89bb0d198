/*
 * Failure repro bundles (render.h): for each failing case run now, DIR/<checkpoint>/<group>/<id>/
 * holds what it takes to look at the failure and run the case again:
 *   rerun.sh       one command running just this case (in a group sharing one working folder:
 *                  the whole group) again under the run's limits (timeout,
 *                  output caps, kill grace, the same command and submission, and the
 *                  --sandbox, --network and --pass-env the run was given), into ./rerun
 *   argv.json      the program's argv; env.json the environment the case adds (name ->
 *                  value, null: unset); stdin: the bytes given on standard input
 *   files/         the input files and the case folder's files/, as the working folder got them
 *                  (these four when the case's adapter gives its cases such inputs: its
 *                  case_inputs, adapter_iface.h; the cli adapter does, the api adapter not)
 *   expected.json, actual.json, diff.json: every attribute's expected value, actual value and diff
 *   expected/NAME, actual/NAME: each string attribute's bytes, for `diff expected/output
 *                  actual/output`
 *   report.json    the case's whole report line; case.json the case as loaded
 *
 * Key decisions:
 * - A bundle is written from the case as it was loaded and run (r->kase, r->result): values are
 *   whole, never cut. A replayed case (resume) has neither and gets no bundle.
 * - Everything is written beneath the bundle folder without following links (fs.h), and names
 *   that could climb out ("." or ".." as an id, an attribute path with "..") are escaped or
 *   skipped. A bundle from an earlier run of the same case is replaced.
 * - The re-run command quotes every word for a POSIX shell and escapes the glob characters of
 *   the case id, so it selects exactly this case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/adapter_iface.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/render.h"
#include "assay/strvec.h"
#include "util/banned.h"

/* A JSON file of a bundle longer than this on one line is written on one line: indented, a
 * report of a 7 MB output grew to 48 MB. */
#define PRETTY_MAX (1024u * 1024)

struct repro {
	char *dir, *assay, *suite_dir, *entry, *submission, *sandbox, *network;
	assay_strvec pass_env;
	size_t out_cap, err_cap, value_cap;
	double kill_grace_s;
	const assay_suite *suite;
	assay_buf b;
};

/* A file name for `s`: itself, unless it is empty, "." or "..". */
static char *component(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return assay_xasprintf("%%%s", s);
	return assay_xstrdup(s);
}

/* `s` quoted for a POSIX shell. */
static void shell_quote(assay_buf *out, const char *s)
{
	assay_buf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			assay_buf_adds(out, "'\\''");
		else
			assay_buf_addch(out, *s);
	}
	assay_buf_addch(out, '\'');
}

/* `s` as an fnmatch() pattern matching only itself. */
static char *glob_escape(const char *s)
{
	assay_buf b = ASSAY_BUF_INIT;

	for (; *s; s++) {
		if (strchr("*?[]\\", *s))
			assay_buf_addch(&b, '\\');
		assay_buf_addch(&b, *s);
	}
	return assay_buf_detach(&b, NULL);
}

static void word(assay_buf *out, const char *w)
{
	assay_buf_addch(out, ' ');
	shell_quote(out, w);
}

static void rerun_command(struct repro *k, const assay_case_report *r, const char *bundle,
			  assay_buf *out)
{
	char *g = glob_escape(r->group->name), *id = glob_escape(r->id);
	char *results = assay_path_join(bundle, "rerun");

	if (r->group->isolated)
		assay_buf_adds(out, "#!/bin/sh\n# runs this case again, under the run's limits\nexec");
	else /* its working folder holds what the group's earlier cases left: run them too */
		assay_buf_adds(out, "#!/bin/sh\n# runs this case's group again, under the run's limits:"
				    "\n# its cases share one working folder, so this case needs the ones"
				    "\n# before it (isolated: false)\nexec");
	word(out, k->assay);
	word(out, "run");
	word(out, k->suite_dir);
	word(out, "--checkpoint");
	word(out, r->checkpoint->name); /* an exact name, not a glob */
	word(out, "--group");
	word(out, g);
	if (r->group->isolated) {
		word(out, "--case");
		word(out, id);
	}
	if (k->entry)
		word(out, "--entry"), word(out, k->entry);
	if (k->submission)
		word(out, "--submission"), word(out, k->submission);
	/* what decides how the program runs, and so its verdict: a case failing only with the
	 * sandbox off (another interpreter found on PATH, a variable passed) fails so again */
	if (k->sandbox)
		word(out, "--sandbox"), word(out, k->sandbox);
	if (k->network)
		word(out, "--network"), word(out, k->network);
	for (size_t i = 0; i < k->pass_env.nr; i++)
		word(out, "--pass-env"), word(out, k->pass_env.v[i]);
	assay_buf_addf(out, " --stdout-cap %zu --stderr-cap %zu --kill-grace %.17g",
		       k->out_cap ? k->out_cap : (size_t)ASSAY_PROC_DEFAULT_CAP,
		       k->err_cap ? k->err_cap : (size_t)ASSAY_PROC_DEFAULT_CAP, k->kill_grace_s);
	if (k->value_cap)
		assay_buf_addf(out, " --value-cap %zu", k->value_cap);
	word(out, "--output");
	word(out, results);
	assay_buf_adds(out, " \"$@\"\n");
	free(g), free(id), free(results);
}

static int put(const char *bundle, const char *rel, const void *data, size_t len, int mode,
	       assay_err *err)
{
	return assay_fs_write_beneath(bundle, rel, data, len, mode, err);
}

static int put_json(struct repro *k, const char *bundle, const char *rel, const assay_value *v,
		    assay_err *err)
{
	assay_buf_reset(&k->b);
	assay_json_write(&k->b, v, 0);
	if (k->b.len <= PRETTY_MAX) { /* indented for reading, unless that makes it huge */
		assay_buf_reset(&k->b);
		assay_json_write(&k->b, v, ASSAY_JSON_PRETTY);
	}
	assay_buf_addch(&k->b, '\n');
	return put(bundle, rel, k->b.ptr, k->b.len, 0644, err);
}

/* expected.json, actual.json, diff.json and the bytes of string attributes. */
static int put_attributes(struct repro *k, const char *bundle, const assay_value *results,
			  assay_err *err)
{
	static const char *const parts[] = { "expected", "actual", "diff" };
	assay_arena *a = assay_arena_new(0);
	int rc = 0;

	for (int p = 0; p < 3 && !rc; p++) {
		assay_value all = assay_value_object();
		char file[32];

		for (uint32_t i = 0; results && i < results->len && !rc; i++) {
			const assay_member *m = &results->u.members[i];
			const assay_value *v = assay_object_get(&m->value, parts[p]);

			assay_object_append(a, &all, m->key, v ? *v : assay_value_null());
			if (p == 2 || !v || v->kind != ASSAY_V_STRING ||
			    !assay_path_is_contained(m->key.u.s) || memchr(m->key.u.s, 0, m->key.len))
				continue;
			char *rel = assay_xasprintf("%s/%s", parts[p], m->key.u.s);

			rc = put(bundle, rel, v->u.s, v->len, 0644, err);
			free(rel);
		}
		snprintf(file, sizeof(file), "%s.json", parts[p]);
		if (!rc)
			rc = put_json(k, bundle, file, &all, err);
	}
	assay_arena_free(a);
	return rc;
}

/* argv.json, env.json, stdin and files/ of a case whose adapter gives it such inputs. */
static int put_inputs(struct repro *k, const char *bundle, const assay_case *c, assay_err *err)
{
	assay_case_inputs in;
	const assay_case_inputs *cc = &in;
	assay_arena *a = assay_arena_new(0);
	assay_value argv = assay_value_array(), env = assay_value_object();
	assay_strvec cmd = ASSAY_STRVEC_INIT;
	char *files = assay_path_join(bundle, "files");
	int rc = 0;

	k->suite->adapter->case_inputs(c, &in);
	if (k->entry)
		assay_shell_split(&cmd, k->entry, NULL);
	else
		assay_strvec_pushv(&cmd, (const char *const *)k->suite->command.v);
	for (size_t i = 0; i < cmd.nr; i++)
		assay_array_push(a, &argv, assay_value_strz(a, cmd.v[i]));
	for (size_t i = 0; cc && i < cc->argc; i++)
		assay_array_push(a, &argv, assay_value_strz(a, cc->argv[i]));
	for (size_t i = 0; i < c->env.nr; i++) {
		const char *eq = strchr(c->env.v[i], '=');

		if (eq)
			assay_object_setn(a, &env, c->env.v[i], (size_t)(eq - c->env.v[i]),
					  assay_value_strz(a, eq + 1));
		else
			assay_object_set(a, &env, c->env.v[i], assay_value_null());
	}
	if ((rc = put_json(k, bundle, "argv.json", &argv, err)) ||
	    (rc = put_json(k, bundle, "env.json", &env, err)) ||
	    (rc = put(bundle, "stdin", cc && cc->stdin_data ? cc->stdin_data : "",
		      cc ? cc->stdin_len : 0, 0644, err)) ||
	    (rc = assay_fs_mkdirs(files, err)))
		goto out;
	if (c->files_dir && (rc = assay_fs_copy_tree_beneath(c->files_dir, files, err)))
		goto out;
	for (size_t i = 0; cc && i < cc->nfiles && !rc; i++)
		rc = put(files, cc->files[i].path, cc->files[i].content, cc->files[i].len, 0644,
			 err);
out:
	assay_strvec_clear(&cmd);
	assay_arena_free(a);
	free(files);
	return rc;
}

static const char readme[] =
	"A failing case of an assay run, to look at and run again.\n\n"
	"rerun.sh       runs just this case again under the run's limits (results in ./rerun);\n"
	"               a case of a group sharing one working folder: the whole group\n"
	"argv.json      the program's argv; env.json: what the case adds to the environment\n"
	"               (null: unset); stdin: its standard input (cli suites)\n"
	"files/         the input files and the case folder's files/\n"
	"expected.json, actual.json, diff.json: every attribute's expected value, actual value\n"
	"               and diff; expected/NAME and actual/NAME: a string attribute's bytes\n"
	"report.json    the case's report line; case.json: the case as loaded\n";

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct repro *k = payload;
	char *cp, *g, *id, *rel, *bundle;
	int rc;

	if (r->passed || r->replayed || !r->kase)
		return 0;
	cp = component(r->checkpoint->name), g = component(r->group->name), id = component(r->id);
	rel = assay_xasprintf("%s/%s/%s", cp, g, id);
	bundle = assay_path_join(k->dir, rel);
	if ((rc = assay_fs_remove_tree(bundle, err)) || (rc = assay_fs_mkdirs(bundle, err)))
		goto out;
	assay_buf_reset(&k->b);
	rerun_command(k, r, bundle, &k->b);
	if ((rc = put(bundle, "rerun.sh", k->b.ptr, k->b.len, 0755, err)) ||
	    (rc = put(bundle, "README", readme, sizeof(readme) - 1, 0644, err)) ||
	    (rc = put_json(k, bundle, "report.json", r->json, err)) ||
	    (rc = put_json(k, bundle, "case.json", &r->kase->definition, err)) ||
	    (rc = put_attributes(k, bundle, assay_object_get(r->json, "results"), err)))
		goto out;
	if (k->suite->adapter && k->suite->adapter->case_inputs && !r->kase->error)
		rc = put_inputs(k, bundle, r->kase, err);
out:
	free(cp), free(g), free(id), free(rel), free(bundle);
	return rc;
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct repro *k = payload;

	(void)total, (void)err;
	k->suite = suite;
	return 0;
}

static void sink_free(void *payload)
{
	struct repro *k = payload;

	free(k->dir), free(k->assay), free(k->suite_dir), free(k->entry), free(k->submission);
	free(k->sandbox), free(k->network);
	assay_strvec_clear(&k->pass_env);
	assay_buf_release(&k->b);
	free(k);
}

static char *dup_or_null(const char *s)
{
	return s ? assay_xstrdup(s) : NULL;
}

int assay_sink_repro_new(assay_sink *out, const assay_repro_opts *o, assay_err *err)
{
	struct repro *k;
	int rc = assay_fs_mkdirs(o->dir, err);

	if (rc)
		return rc;
	k = assay_xcalloc(1, sizeof(*k));
	k->dir = assay_path_absolute(o->dir);
	k->assay = assay_xstrdup(o->assay ? o->assay : "assay");
	k->suite_dir = assay_xstrdup(o->suite_dir);
	k->entry = dup_or_null(o->entry);
	k->submission = dup_or_null(o->submission);
	k->sandbox = dup_or_null(o->sandbox);
	k->network = dup_or_null(o->network);
	k->pass_env = (assay_strvec)ASSAY_STRVEC_INIT;
	if (o->pass_env)
		assay_strvec_pushv(&k->pass_env, o->pass_env);
	k->out_cap = o->out_cap, k->err_cap = o->err_cap, k->value_cap = o->value_cap;
	k->kill_grace_s = o->kill_grace_s;
	k->b = (assay_buf)ASSAY_BUF_INIT;
	*out = (assay_sink){ k, on_begin, on_case, NULL, sink_free, NULL };
	return 0;
}
