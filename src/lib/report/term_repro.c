/*
 * The command that reproduces a failed case by hand (issue #11): its argv, its standard input
 * and its environment as assay gave them, as one shell line. The case's adapter (found by the
 * report line's case.type in the registry, adapter.h) says where its arguments and standard
 * input are (assay_adapter.repro_inputs); an adapter without it (api) has no such line.
 *
 * Key decisions:
 * - The environment is the case's clean one (docs/security.md): `env -i` with PATH and LANG of
 *   the shell, HOME the working folder, TMPDIR a fresh folder, then the suite's and the case's
 *   env. A variable passed with --pass-env is taken from the shell as PATH is (`K="$K"`: `env -i`
 *   would drop it; its value, maybe a secret, is not printed). The sandbox itself cannot be
 *   given by hand; the line says nothing about it.
 * - With --keep the line starts in the kept working folder and reads the stdin from a file
 *   written beside the working folders (`<root>/.stdin/<checkpoint>/<group>/<id>`); without it,
 *   a short stdin is given with printf, a long one is only named.
 * - Words are quoted for a POSIX shell; a word with control characters uses bash's $'...', so
 *   the line stays one line and nothing reaches the terminal raw.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/adapter.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "report/term_int.h"
#include "util/banned.h"

#define STDIN_INLINE_MAX 200

static bool plain_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-",
			    s[i]) || !s[i])
			return false;
	return true;
}

static bool has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

void assay_term__shell_word(assay_buf *out, const char *s, size_t n)
{
	if (plain_word(s, n)) {
		assay_buf_add(out, s, n);
	} else if (has_control(s, n)) {
		assay_buf_adds(out, "$'");
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if (c == '\n')
				assay_buf_adds(out, "\\n");
			else if (c == '\t')
				assay_buf_adds(out, "\\t");
			else if (c == '\'' || c == '\\')
				assay_buf_addf(out, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				assay_buf_addf(out, "\\x%02x", c);
			else
				assay_buf_addch(out, (char)c);
		}
		assay_buf_addch(out, '\'');
	} else {
		assay_buf_addch(out, '\'');
		for (size_t i = 0; i < n; i++) {
			if (s[i] == '\'')
				assay_buf_adds(out, "'\\''");
			else
				assay_buf_addch(out, s[i]);
		}
		assay_buf_addch(out, '\'');
	}
}

static void add_word(assay_buf *out, const char *s, size_t n)
{
	assay_term__shell_word(out, s, n);
}

static void add_words(assay_buf *out, const char *s)
{
	add_word(out, s, strlen(s));
}

/* A scalar of a case as the text the adapter gives the program. */
static bool scalar_text(assay_buf *out, const assay_value *v)
{
	if (!v)
		return false;
	switch (v->kind) {
	case ASSAY_V_STRING:
		assay_buf_add(out, v->u.s, v->len);
		return true;
	case ASSAY_V_NULL:
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		return false;
	case ASSAY_V_BOOL:
		assay_buf_adds(out, v->u.b ? "true" : "false");
		return true;
	default:
		assay_json_write(out, v, 0);
		return true;
	}
}

extern char **environ;

/* A name the shell can expand as $NAME. */
static bool shell_name(const char *s, size_t n)
{
	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_", s[i]))
			return false;
	return true;
}

/* Each variable of assay's environment a --pass-env pattern matches (as the adapter passes
 * them, adapter.c), as K="$K"; a name the shell cannot expand is left out. */
static void pass_from_shell(assay_strvec *env, const char *const *pass_env)
{
	for (char **e = environ; pass_env && e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[256];

		if (!eq || (size_t)(eq - *e) >= sizeof(name) || !shell_name(*e, (size_t)(eq - *e)))
			continue;
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = '\0';
		for (const char *const *p = pass_env; *p; p++)
			if (!fnmatch(*p, name, 0)) {
				assay_strvec_pushf(env, "%s=\"$%s\"", name, name);
				break;
			}
	}
}

/* Sets (`eq` at '=') or unsets (no '=') a variable in `env`, replacing an earlier one. */
static void env_apply(assay_strvec *env, const char *entry)
{
	const char *eq = strchr(entry, '=');
	size_t klen = eq ? (size_t)(eq - entry) : strlen(entry);
	assay_strvec kept = ASSAY_STRVEC_INIT;

	for (size_t i = 0; i < env->nr; i++)
		if (strncmp(env->v[i], entry, klen) || env->v[i][klen] != '=')
			assay_strvec_push(&kept, env->v[i]);
	if (eq)
		assay_strvec_push(&kept, entry);
	assay_strvec_clear(env);
	*env = kept;
}

bool assay_term__repro_make(struct term_repro *r, const assay_value *json,
			    const assay_checkpoint *cp, const assay_group *g, const char *id,
			    const assay_strvec *command, const char *program,
			    const char *const *pass_env)
{
	const assay_value *def = assay_object_get(json, "case");
	const assay_value *type = assay_object_get(def, "type");
	const assay_value *args = NULL, *in = NULL;
	const assay_value *env = assay_object_get(def, "env");
	const assay_adapter *ad = NULL;
	assay_buf b = ASSAY_BUF_INIT;

	memset(r, 0, sizeof(*r));
	r->argv = (assay_strvec)ASSAY_STRVEC_INIT;
	r->env = (assay_strvec)ASSAY_STRVEC_INIT;
	if (type && type->kind == ASSAY_V_STRING && strlen(type->u.s) == type->len)
		ad = assay_adapter_find(type->u.s);
	if (!def || !ad || !ad->repro_inputs || !command || !command->nr ||
	    !ad->repro_inputs(def, &args, &in))
		return false;
	assay_strvec_pushv(&r->argv, (const char *const *)command->v);
	for (uint32_t i = 0; args && args->kind == ASSAY_V_ARRAY && i < args->len; i++) {
		assay_buf_reset(&b);
		if (scalar_text(&b, &args->u.items[i]))
			assay_strvec_push(&r->argv, b.ptr);
	}
	assay_strvec_push(&r->env, "PATH=\"$PATH\"");
	assay_strvec_push(&r->env, "LANG=\"$LANG\"");
	assay_strvec_push(&r->env, "HOME=\"$PWD\"");
	assay_strvec_push(&r->env, "TMPDIR=\"$(mktemp -d)\"");
	pass_from_shell(&r->env, pass_env);
	for (size_t i = 0; i < g->env.nr; i++)
		env_apply(&r->env, g->env.v[i]);
	for (uint32_t i = 0; env && env->kind == ASSAY_V_OBJECT && i < env->len; i++) {
		const assay_member *m = &env->u.members[i];

		assay_buf_reset(&b);
		assay_buf_add(&b, m->key.u.s, m->key.len);
		if (m->value.kind != ASSAY_V_NULL) {
			assay_buf_addch(&b, '=');
			scalar_text(&b, &m->value);
		}
		env_apply(&r->env, b.ptr);
	}
	/* the file that ran, when the case searched the shell's PATH: a PATH the suite or the
	 * case set is searched by the line as it was by the case */
	for (size_t i = 0; program && i < r->env.nr; i++)
		if (!strcmp(r->env.v[i], "PATH=\"$PATH\"")) {
			free(r->argv.v[0]);
			r->argv.v[0] = assay_xstrdup(program);
		}
	assay_buf_reset(&b);
	const assay_value *cut = in && in->kind == ASSAY_V_OBJECT && in->len == 1
					 ? assay_object_get(in, "$assay_cut") : NULL;
	if (cut) { /* a replayed case's line, as stored (json.h): only its size is at hand */
		const assay_value *n = assay_object_get(cut, "bytes");

		r->stdin_cut = n && n->kind == ASSAY_V_INT && n->u.i > 0 ? (size_t)n->u.i : 1;
	} else if (in && (in->kind == ASSAY_V_ARRAY || in->kind == ASSAY_V_OBJECT)) {
		assay_json_write(&b, in, 0); /* structured stdin is one line of JSON */
		assay_buf_addch(&b, '\n');
	} else {
		scalar_text(&b, in);
	}
	if (b.len)
		r->stdin_data = assay_buf_detach(&b, &r->stdin_len);
	assay_buf_release(&b);
	r->workdir = g->isolated ? assay_xasprintf("%s/%s/%s", cp->name, g->name, id)
				 : assay_xasprintf("%s/%s", cp->name, g->name);
	r->stdin_file = assay_xasprintf(".stdin/%s/%s/%s", cp->name, g->name, id);
	return true;
}

/* Writes the stdin beside the kept working folders; false when it could not. */
static bool keep_stdin(const struct term_repro *r, const char *root)
{
	return !assay_fs_write_beneath(root, r->stdin_file, r->stdin_data, r->stdin_len, 0600,
				       NULL);
}

/* PATH="$PATH" and the like: the shell gives the value, so it stays unquoted. */
static bool from_shell(const char *e)
{
	static const char *const names[] = { "PATH=\"$", "LANG=\"$", "HOME=\"$", "TMPDIR=\"$" };
	const char *eq = strchr(e, '=');
	size_t k = eq ? (size_t)(eq - e) : 0;

	for (size_t i = 0; i < 4; i++)
		if (!strncmp(e, names[i], strlen(names[i])))
			return true;
	/* K="$K", as a --pass-env variable is written (pass_from_shell) */
	return k && !strncmp(eq + 1, "\"$", 2) && !strncmp(eq + 3, e, k) &&
	       !strcmp(eq + 3 + k, "\"");
}

void assay_term__repro_line(assay_buf *out, const struct term_repro *r, const char *work_root,
			    const struct term_style *st)
{
	bool in_file = r->stdin_data && work_root && keep_stdin(r, work_root);

	assay_buf_addf(out, "    %sreproduce%s: ", st->bold, st->reset);
	if (work_root) {
		char *dir = assay_path_join(work_root, r->workdir);

		assay_buf_adds(out, "cd ");
		add_words(out, dir);
		assay_buf_adds(out, " && ");
		free(dir);
	} else if (r->stdin_data && r->stdin_len <= STDIN_INLINE_MAX) {
		assay_buf_adds(out, "printf %s ");
		add_word(out, r->stdin_data, r->stdin_len);
		assay_buf_adds(out, " | ");
	}
	assay_buf_adds(out, "env -i");
	for (size_t i = 0; i < r->env.nr; i++) {
		const char *e = r->env.v[i], *eq = strchr(e, '=');

		assay_buf_addch(out, ' ');
		if (from_shell(e)) {
			assay_buf_adds(out, e);
			continue;
		}
		assay_buf_add(out, e, (size_t)(eq - e) + 1);
		add_words(out, eq + 1);
	}
	for (size_t i = 0; i < r->argv.nr; i++) {
		assay_buf_addch(out, ' ');
		add_words(out, r->argv.v[i]);
	}
	if (in_file) {
		char *file = assay_path_join(work_root, r->stdin_file);

		assay_buf_adds(out, " < ");
		add_words(out, file);
		free(file);
	} else if (r->stdin_data && (work_root || r->stdin_len > STDIN_INLINE_MAX)) {
		assay_buf_addf(out, " < STDIN  # the case's stdin, %zu bytes", r->stdin_len);
	} else if (r->stdin_cut) {
		assay_buf_addf(out, " < STDIN  # the case's stdin, %zu bytes (its case file has it)",
			       r->stdin_cut);
	} else if (!r->stdin_data) {
		assay_buf_adds(out, " < /dev/null");
	}
	if (!work_root)
		assay_buf_addf(out, "\n      %s(in the case's working folder, which --keep keeps)%s",
			       st->dim, st->reset);
	assay_buf_addch(out, '\n');
}

void assay_term__repro_release(struct term_repro *r)
{
	assay_strvec_clear(&r->argv);
	assay_strvec_clear(&r->env);
	free(r->stdin_data);
	free(r->workdir);
	free(r->stdin_file);
	memset(r, 0, sizeof(*r));
}
