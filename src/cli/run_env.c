/*
 * run-case's environment file (verification.md, "Using tools run-case": `-e
 * configs/environments/docker-python3.12-uv.yaml`), read in the shape SlopCodeBench's
 * environment files have, and turned into what assay already knows: an entry command
 * (--entry) and variables passed to cases (--pass-env). Issue #17 item 4.
 *
 * Key decisions:
 * - Keys read: `type` (`local`, the default, or `docker`), `environment.env` (a mapping of
 *   variable to text), `setup.eval_commands` (a list of shell commands), `commands.command`
 *   (the program, shell-quoted text, e.g. "python" or "uv run") and `commands.entry_file` (or a
 *   top-level `entry_file`: appended to the command). SlopCodeBench writes entry_file as a
 *   template, "{entry_file}.py": `{entry_file}` is the problem's entry file name, given with
 *   run-case's --entry-file NAME (a template without it is a usage error that says so).
 *   `docker.workdir` (default /workspace) is where the case's folder is mounted. Other keys
 *   (docker.network, resume_commands, agent_command, ...) are ignored.
 * - eval_commands run in the case's folder before it, joined by && in a subshell of `sh -c`
 *   (so an `exit N` among them fails the setup, not the wrapper), their output dropped; one
 *   failing ends the case with status 125 and says so on stderr. The wrapper's own text holds
 *   no single quote, since the whole script is single-quoted for the entry's shell split.
 * - environment.env is set in this process (the CLI, which may) and passed to every case.
 * - `type: docker` runs the entry inside `docker.image` (or `image`) through podman or docker,
 *   whichever is on PATH, with the case's folder mounted at docker.workdir. Neither installed is a
 *   usage error that says how to run the file locally instead. The sandbox usually keeps a
 *   container engine from working: such a run needs `--sandbox off`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/strvec.h"
#include "assay/yaml.h"
#include "cmd.h"
#include "exit.h"
#include "run_common.h"
#include "util/banned.h"

#define SETUP_FAILED "assay: setup.eval_commands failed (the environment file)"

/* Appends `s` single-quoted for POSIX sh (and assay_shell_split). */
static void quote(assay_buf *b, const char *s)
{
	assay_buf_addch(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			assay_buf_adds(b, "'\\''");
		else
			assay_buf_addch(b, *s);
	}
	assay_buf_addch(b, '\'');
}

static const char *text_at(const assay_value *obj, const char *a, const char *b)
{
	const assay_value *v = assay_object_get(obj, a);

	if (b)
		v = assay_object_get(v, b);
	return v && v->kind == ASSAY_V_STRING ? v->u.s : NULL;
}

/* The first of podman and docker found on PATH, or NULL. */
static const char *container_engine(void)
{
	static const char *const engines[] = { "podman", "docker" };
	const char *path = getenv("PATH");

	for (size_t i = 0; i < 2; i++) {
		const char *p = path ? path : "/usr/bin:/bin";

		while (*p) {
			size_t n = strcspn(p, ":");
			char *full = assay_xasprintf("%.*s/%s", (int)n, p, engines[i]);
			bool ok = n && access(full, X_OK) == 0;

			free(full);
			if (ok)
				return engines[i];
			p += n + (p[n] == ':');
		}
	}
	return NULL;
}

/* `tmpl` with every "{entry_file}" replaced by `name`, into `out`. */
static void expand_entry(assay_buf *out, const char *tmpl, const char *name)
{
	static const char mark[] = "{entry_file}";
	const char *p;

	while ((p = strstr(tmpl, mark))) {
		assay_buf_add(out, tmpl, (size_t)(p - tmpl));
		assay_buf_adds(out, name);
		tmpl = p + sizeof(mark) - 1;
	}
	assay_buf_adds(out, tmpl);
}

/* type: local (the default) or docker, and for docker its image, workdir and engine. */
static int env_type(const assay_value *doc, const char *path, const char **image,
		    const char **engine, const char **workdir)
{
	const char *type = text_at(doc, "type", NULL);

	if (type && strcmp(type, "local") && strcmp(type, "docker"))
		return cli_error(CLI_EXIT_USAGE, "%s: type must be local or docker (got '%s')", path,
				 type);
	if (!type || strcmp(type, "docker"))
		return 0;
	*image = text_at(doc, "docker", "image");
	*workdir = text_at(doc, "docker", "workdir");
	if (!*image)
		*image = text_at(doc, "image", NULL);
	*engine = container_engine();
	if (!*engine)
		return cli_error(CLI_EXIT_USAGE,
				 "%s is a docker environment, but neither podman nor docker is "
				 "installed: run the cases locally instead, with a copy of the file "
				 "saying `type: local` (its commands then run on this machine), or "
				 "with --entry CMD", path);
	if (!*image)
		return cli_error(CLI_EXIT_USAGE, "%s: a docker environment needs docker.image",
				 path);
	return 0;
}

/* environment.env: set here, passed to every case (its names into `pass_env`). */
static int set_env(const assay_value *doc, const char *path, assay_strvec *pass_env)
{
	const assay_value *env = assay_object_get(assay_object_get(doc, "environment"), "env");

	for (uint32_t i = 0; env && env->kind == ASSAY_V_OBJECT && i < env->len; i++) {
		const assay_member *m = &env->u.members[i];
		assay_buf v = ASSAY_BUF_INIT;

		if (m->value.kind == ASSAY_V_STRING)
			assay_buf_add(&v, m->value.u.s, m->value.len);
		else if (m->value.kind != ASSAY_V_NULL && m->value.kind != ASSAY_V_OBJECT &&
			 m->value.kind != ASSAY_V_ARRAY)
			assay_json_write(&v, &m->value, 0);
		if (!m->key.len || strchr(m->key.u.s, '=') || setenv(m->key.u.s, v.ptr, 1)) {
			assay_buf_release(&v);
			return cli_error(CLI_EXIT_USAGE, "%s: environment.env: '%s' is not a "
					 "variable name", path, m->key.u.s);
		}
		assay_buf_release(&v);
		assay_strvec_push(pass_env, m->key.u.s);
	}
	return 0;
}

/* The program into `cmd`: `command` (commands.command, NULL when none), then entry_file
 * (`entry_name` in its place). */
static int program(const assay_value *doc, const char *path, const char *command,
		   const char *entry_name, assay_buf *cmd)
{
	const char *entry_file = text_at(doc, "commands", "entry_file");

	if (!entry_file)
		entry_file = text_at(doc, "entry_file", NULL);
	if (entry_file && !command)
		return cli_error(CLI_EXIT_USAGE, "%s: entry_file needs commands.command", path);
	if (entry_file && strstr(entry_file, "{entry_file}") && !entry_name)
		return cli_error(CLI_EXIT_USAGE, "%s: entry_file '%s' names the problem's entry "
				 "file: give it with --entry-file NAME", path, entry_file);
	if (!command)
		return 0;
	assay_buf_adds(cmd, command);
	if (entry_file) {
		assay_buf ef = ASSAY_BUF_INIT;

		expand_entry(&ef, entry_file, entry_name ? entry_name : "");
		assay_buf_addch(cmd, ' ');
		quote(cmd, ef.ptr);
		assay_buf_release(&ef);
	}
	return 0;
}

/* setup.eval_commands, joined by " && " into `e`. */
static int setup_commands(const assay_value *doc, const char *path, assay_buf *e)
{
	const assay_value *setup = assay_object_get(assay_object_get(doc, "setup"),
						    "eval_commands");

	if (setup && setup->kind == ASSAY_V_STRING) {
		assay_buf_adds(e, setup->u.s);
	} else if (setup && setup->kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < setup->len; i++) {
			if (setup->u.items[i].kind != ASSAY_V_STRING)
				return cli_error(CLI_EXIT_USAGE, "%s: setup.eval_commands must be a "
						 "list of shell commands", path);
			assay_buf_addf(e, "%s%s", i ? " && " : "", setup->u.items[i].u.s);
		}
	}
	return 0;
}

/* `cmd` becomes `sh -c SCRIPT sh CMD`: the script runs with the command as its "$@". */
static void wrap_in_sh(assay_buf *cmd, const char *script)
{
	assay_buf outer = ASSAY_BUF_INIT;

	assay_buf_adds(&outer, "sh -c ");
	quote(&outer, script);
	assay_buf_addf(&outer, " sh %s", cmd->ptr);
	assay_buf_reset(cmd);
	assay_buf_add(cmd, outer.ptr, outer.len);
	assay_buf_release(&outer);
}

/* The command run in a container of `engine`, the case's folder mounted at `workdir`. */
static void in_container(assay_buf *cmd, const char *engine, const char *workdir,
			 const char *image, const assay_strvec *pass_env)
{
	assay_buf script = ASSAY_BUF_INIT;

	if (!workdir || !*workdir)
		workdir = "/workspace";
	/* what the file says is quoted: it reaches a shell */
	assay_buf_addf(&script, "exec %s run --rm -i -v \"$PWD\":", engine);
	quote(&script, workdir);
	assay_buf_adds(&script, " -w ");
	quote(&script, workdir);
	for (size_t i = 0; i < pass_env->nr; i++) {
		assay_buf_adds(&script, " -e ");
		quote(&script, pass_env->v[i]);
	}
	assay_buf_adds(&script, " ");
	quote(&script, image);
	assay_buf_adds(&script, " \"$@\"");
	wrap_in_sh(cmd, script.ptr);
	assay_buf_release(&script);
}

int run_env_load(const char *path, const char *entry_name, char **entry_out,
		 assay_strvec *pass_env)
{
	assay_buf text = ASSAY_BUF_INIT, cmd = ASSAY_BUF_INIT, e = ASSAY_BUF_INIT;
	assay_arena *a = assay_arena_new(0);
	assay_err err = ASSAY_ERR_INIT;
	assay_yaml_opts yo = ASSAY_YAML_OPTS_INIT;
	assay_value doc;
	const char *image = NULL, *engine = NULL, *workdir = NULL, *command;
	int rc = 0;

	*entry_out = NULL;
	yo.source = path;
	if (assay_fs_read(&text, path, 1u << 20, &err) ||
	    assay_yaml_parse(&doc, a, text.ptr, text.len, &yo, &err)) {
		rc = cli_report_err(CLI_EXIT_USAGE, &err);
		goto out;
	}
	if (doc.kind != ASSAY_V_OBJECT) {
		rc = cli_error(CLI_EXIT_USAGE, "%s: an environment file is a mapping (type, "
				"commands, setup, environment)", path);
		goto out;
	}
	command = text_at(&doc, "commands", "command");
	if ((rc = env_type(&doc, path, &image, &engine, &workdir)) ||
	    (rc = set_env(&doc, path, pass_env)) ||
	    (rc = program(&doc, path, command, entry_name, &cmd)) ||
	    (rc = setup_commands(&doc, path, &e)))
		goto out;
	if (e.len && !command) {
		rc = cli_error(CLI_EXIT_USAGE, "%s: setup.eval_commands needs commands.command (the "
				"program they prepare for)", path);
		goto out;
	}
	if (e.len) {
		/* setup.eval_commands: run in the case's folder first */
		assay_buf script = ASSAY_BUF_INIT;

		assay_buf_addf(&script, "( %s\n) >/dev/null 2>&1 </dev/null || { echo '%s' >&2; "
				"exit 125; }; exec \"$@\"", e.ptr, SETUP_FAILED);
		wrap_in_sh(&cmd, script.ptr);
		assay_buf_release(&script);
	}
	if (engine && cmd.len)
		in_container(&cmd, engine, workdir, image, pass_env);
	if (cmd.len) {
		size_t n;

		*entry_out = assay_buf_detach(&cmd, &n);
	}
out:
	assay_buf_release(&text);
	assay_buf_release(&cmd);
	assay_buf_release(&e);
	assay_arena_free(a);
	return rc;
}
