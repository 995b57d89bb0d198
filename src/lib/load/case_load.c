/*
 * One case, loaded when it is about to run: its file merged over the group's defaults, then
 * checked (suite-format.md, "A case (cli adapter)", "A case (api adapter)"). Every value is
 * checked here, once, so the runner never meets a wrongly shaped case; problems name the file,
 * line and column of the value.
 *
 * Key decisions:
 * - Each case lives in an arena of its own, freed when its report is written, so a suite of
 *   100,000 cases never holds more than the cases being run.
 * - The common keys (env, timeout, limits, expected, verify) are read here; the adapter reads its own
 *   (arguments, stdin, input_files for cli; method, path, ... for api) through load_case.
 * - A verify entry that names a verifier replaces what it inherits for that attribute instead of
 *   merging with it, so a suite-wide `verify: {output: {verifier: json, ignore_order: true}}`
 *   does not leak `ignore_order` into a case that picks `contains`.
 * - The adapter may rewrite the merged case before {{static:}} is replaced (its prepare_case: the
 *   cli adapter splits a shell-quoted `arguments` string, so an asset path with spaces stays one
 *   word), and says which of its lists merge entry by entry (merge_lists: input_files by path).
 * - Unknown keys are warnings (later versions may add keys), naming the key meant when the
 *   typo is close (`expect` for `expected`); unknown expected attributes are errors (they
 *   could never be verified); a case that expects nothing is an error.
 * - Under the suite's strictness every warning about a case also makes the case an error:
 *   the first one, after all were delivered.
 * - Each verify entry is checked at load by the verifier registry, a layer above, through the
 *   hook the suite keeps (assay_suite.hooks, load_lib.h): its verifier exists, its options are
 *   its own, and whether the expected text makes it accept any output (a warning).
 * - `files: {path: {absent: true}}` expects that a file is not produced; the mapping is kept as
 *   the expected value, and assay_expected_is_absent() recognises it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "load/load_int.h"
#include "load/load_lib.h"
#include "util/banned.h"

static const char *const common_keys[] = { "env", "timeout", "limits", "expected", "verify",
					   NULL };

static const char *const limit_attributes[] = { "execution_time", "max_rss", "cpu_time", NULL };

bool assay_expected_is_absent(const assay_value *expected)
{
	const assay_value *v = assay_object_get(expected, "absent");

	return expected && expected->kind == ASSAY_V_OBJECT && expected->len == 1 && v &&
	       v->kind == ASSAY_V_BOOL && v->u.b;
}

/* The expected value of a file: its content, or {absent: true} (nothing else with `absent`). */
static int check_expected_file(const assay_case_load_ctx *ctx, const assay_member *f,
			       assay_err *err)
{
	if (f->value.kind != ASSAY_V_OBJECT || !assay_object_get(&f->value, "absent") ||
	    assay_expected_is_absent(&f->value))
		return 0;
	return assay_case_error_at(ctx, assay_member_anchor(f), err,
				   "expected file '%s': write {absent: true} to expect that it is "
				   "not produced (nothing else goes with 'absent')", f->key.u.s);
}

/* ---- located messages for adapters ------------------------------------------------------ */

static struct locator locator_of(const assay_case_load_ctx *ctx)
{
	return (struct locator){ { ctx->kase->arena, ctx->suite->arena },
				 { ctx->kase->file, ctx->suite->file },
				 2 };
}

int assay_case_error_at(const assay_case_load_ctx *ctx, const assay_value *at, assay_err *err,
			const char *fmt, ...)
{
	struct locator loc = locator_of(ctx);
	va_list ap;

	va_start(ap, fmt);
	assay_load__verr_at(&loc, at, err, ASSAY_EINVALID, fmt, ap);
	va_end(ap);
	return ASSAY_EINVALID;
}

void assay_case_warn_at(const assay_case_load_ctx *ctx, const assay_value *at,
			const char *fmt, ...)
{
	struct locator loc = locator_of(ctx);
	va_list ap;
	char *msg;

	if (!ctx->warn)
		return;
	va_start(ap, fmt);
	msg = assay_load__msg_at(&loc, at, fmt, ap);
	va_end(ap);
	ctx->warn(ctx->payload, msg);
	free(msg);
}

bool assay_case_locate(const assay_case *c, const assay_suite *suite, const assay_value *v,
		       char *out, size_t size)
{
	struct locator loc = { { c->arena, suite->arena }, { c->file, suite->file }, 2 };

	return assay_load__locate(&loc, v, out, size);
}

/* ---- merging ------------------------------------------------------------------------- */

/* verify: an entry that names a verifier (or is a bare name) replaces the inherited one. */
static assay_value merge_verify(assay_arena *a, const assay_value *base, const assay_value *over)
{
	assay_value out;

	if (!base || base->kind != ASSAY_V_OBJECT || over->kind != ASSAY_V_OBJECT)
		return assay_load__merge(a, base, over);
	out = assay_value_object();
	for (uint32_t i = 0; i < base->len; i++) {
		const assay_member *m = &base->u.members[i];

		if (!assay_object_getn(over, m->key.u.s, m->key.len))
			assay_object_append(a, &out, m->key, m->value);
	}
	for (uint32_t i = 0; i < over->len; i++) {
		const assay_member *m = &over->u.members[i];
		const assay_value *under = assay_object_getn(base, m->key.u.s, m->key.len);
		bool names = m->value.kind == ASSAY_V_STRING ||
			     assay_object_get(&m->value, "verifier");

		assay_object_append(a, &out, m->key,
				    names ? m->value : assay_load__merge(a, under, &m->value));
	}
	return out;
}

/* The case file over the group's defaults, with merge_verify's rule for `verify` and the
 * adapter's for its lists (`lists`). */
static assay_value merge_case(assay_arena *a, const assay_value *base, const assay_value *own,
			      const assay_list_merge *lists)
{
	assay_value out = assay_load__merge_case(a, base, own, lists);
	const assay_value *bv = assay_object_get(base, "verify");
	const assay_value *ov = assay_object_get(own, "verify");

	if (bv && ov && out.kind == ASSAY_V_OBJECT)
		assay_object_set(a, &out, "verify", merge_verify(a, bv, ov));
	return out;
}

/* ---- expected and verify ---------------------------------------------------------------- */

static bool adapter_attribute(const assay_adapter *ad, const char *name)
{
	return assay_load__in_list(ad->attributes, name) ||
	       assay_load__in_list(limit_attributes, name);
}

/*
 * Every error of a case (assay_case_load_all): each goes to `fn` and loading goes on with the
 * next attribute, entry or key; the first is kept for the case's `error`.
 */
struct all_errors {
	assay_warn_fn fn;
	void *payload;
	size_t n;
	assay_err first;
};

/* Error `rc` (in `err`): with `all`, said, kept when first, and 0 (go on); else `rc`. */
static int go_on(struct all_errors *all, int rc, assay_err *err)
{
	char msg[1200];

	if (!rc || !all)
		return rc;
	assay_err_format(err, msg, sizeof(msg));
	all->fn(all->payload, msg);
	if (!all->n++)
		all->first = *err;
	assay_err_clear(err);
	return 0;
}

static int check_expected_value(const assay_case_load_ctx *ctx, const assay_member *m,
				assay_err *err)
{
	const char *key = m->key.u.s;
	const assay_value *v = &m->value;
	const assay_value *at = assay_member_anchor(m);

	if (!strcmp(key, "status_code")) {
		if (v->kind != ASSAY_V_INT && !assay_value_is_str(v, "nonzero"))
			return assay_case_error_at(ctx, at, err,
						   "expected status_code must be an integer or "
						   "'nonzero'");
	} else if (!strcmp(key, "execution_time") || !strcmp(key, "cpu_time")) {
		const assay_value *max = v->kind == ASSAY_V_OBJECT ? assay_object_get(v, "max") : v;

		if (!assay_value_is_number(max) || !(assay_value_number(max) >= 0) ||
		    (v->kind == ASSAY_V_OBJECT && v->len != 1))
			return assay_case_error_at(ctx, at, err,
						   "expected %s must be a number of seconds (or "
						   "{max: SECONDS})", key);
	} else if (!strcmp(key, "max_rss")) {
		const assay_value *max = v->kind == ASSAY_V_OBJECT ? assay_object_get(v, "max") : v;

		if (!max || max->kind != ASSAY_V_INT || max->u.i < 0 ||
		    (v->kind == ASSAY_V_OBJECT && v->len != 1))
			return assay_case_error_at(ctx, at, err,
						   "expected max_rss must be a number of bytes (or "
						   "{max: BYTES})");
	}
	return 0;
}

/*
 * Under a Python verifier, `expected.files` may be a list of file specs `[{path, content |
 * contains}]` (verification.md Example 2): each path is collected after the run (as
 * files-<path>); the verifier reads the list as written.
 */
static int python_file_specs(assay_case *c, const assay_member *m,
			     const assay_case_load_ctx *ctx, assay_err *err)
{
	for (uint32_t j = 0; j < m->value.len; j++) {
		const assay_value *spec = &m->value.u.items[j];
		const assay_value *path = assay_object_get(spec, "path");

		if (!path || path->kind != ASSAY_V_STRING || !assay_path_is_contained(path->u.s) ||
		    memchr(path->u.s, '\0', path->len))
			return assay_case_error_at(ctx, spec, err,
						   "expected files: each file spec needs a path "
						   "inside the working folder ({path: out.txt, ...})");
		char *attr = assay_file_attribute(path->u.s);
		assay_object_set(c->arena, &c->expected, attr, *spec);
		free(attr);
	}
	return 0;
}

static int load_expected(assay_case *c, const assay_member *em, const assay_case_load_ctx *ctx,
			 struct all_errors *all, assay_err *err)
{
	const assay_adapter *ad = ctx->suite->adapter;
	const assay_value *v = em ? &em->value : NULL;
	int rc;

	c->expected = assay_value_object();
	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, assay_member_anchor(em), err,
					   "expected must be a mapping of attributes");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *m = &v->u.members[i];
		const char *key = m->key.u.s;

		if (!strcmp(key, "files") && ad->files && ctx->group->verifier_python &&
		    m->value.kind == ASSAY_V_ARRAY) {
			if ((rc = python_file_specs(c, m, ctx, err)))
				return rc;
			continue;
		}
		if (!strcmp(key, "files") && ad->files) {
			if (m->value.kind != ASSAY_V_OBJECT)
				return assay_case_error_at(ctx, assay_member_anchor(m), err,
							   "expected files must be a mapping of "
							   "path to content");
			for (uint32_t j = 0; j < m->value.len; j++) {
				const assay_member *f = &m->value.u.members[j];

				if (!assay_path_is_contained(f->key.u.s) ||
				    memchr(f->key.u.s, '\0', f->key.len)) {
					if ((rc = go_on(all, assay_case_error_at(
						ctx, &f->key, err,
						"expected file '%s' must be a relative path inside "
						"the working folder", f->key.u.s), err)))
						return rc;
					continue;
				}
				if ((rc = check_expected_file(ctx, f, err))) {
					if ((rc = go_on(all, rc, err)))
						return rc;
					continue;
				}
				char *attr = assay_file_attribute(f->key.u.s);
				assay_object_set(c->arena, &c->expected, attr, f->value);
				free(attr);
			}
			continue;
		}
		if (!adapter_attribute(ad, key) && ctx->group->verifier_python)
			continue; /* `fields`, `numbers`...: the Python verifier reads them */
		if (!adapter_attribute(ad, key)) {
			assay_buf list = ASSAY_BUF_INIT;

			for (const char *const *k = ad->attributes; *k; k++)
				assay_buf_addf(&list, "%s, ", *k);
			if (ad->files)
				assay_buf_adds(&list, "files, ");
			assay_buf_adds(&list, "execution_time, max_rss, cpu_time");
			/* the adapter's own, else the ones every case has (files: an adapter's
			 * with files) */
			static const char *const measured[] = { "execution_time", "max_rss",
								"cpu_time", "files", NULL };
			const char *meant = assay_load__closest(key, ad->attributes);

			if (!meant)
				meant = assay_load__closest(key, measured);
			if (meant && !strcmp(meant, "files") && !ad->files)
				meant = NULL;
			rc = assay_case_error_at(ctx, &m->key, err,
						 "unknown expected attribute '%s'%s%s%s (%s)", key,
						 meant ? ": did you mean '" : "", meant ? meant : "",
						 meant ? "'?" : "", list.ptr);
			assay_buf_release(&list);
			if ((rc = go_on(all, rc, err)))
				return rc;
			continue;
		}
		if ((rc = check_expected_value(ctx, m, err))) {
			if ((rc = go_on(all, rc, err)))
				return rc;
			continue;
		}
		assay_object_set(c->arena, &c->expected, key, m->value);
	}
	return 0;
}

static int add_verify_entry(assay_case *c, const char *attr, const assay_member *m,
			    const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *entry = &m->value;

	if (entry->kind == ASSAY_V_STRING) {
		assay_value o = assay_value_object();

		assay_object_set(c->arena, &o, "verifier", *entry);
		assay_object_set(c->arena, &c->verify, attr, o);
		return 0;
	}
	if (entry->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, assay_member_anchor(m), err,
					   "verify.%s must be a mapping {verifier, weight, ...}",
					   attr);
	const assay_member *name = assay_object_member(entry, "verifier");
	if (name && name->value.kind != ASSAY_V_STRING)
		return assay_case_error_at(ctx, assay_member_anchor(name), err,
					   "verify.%s.verifier must be a string", attr);
	assay_object_set(c->arena, &c->verify, attr, *entry);
	return 0;
}

/*
 * A bad verify entry: located at the entry when the case file wrote it; an entry inherited from
 * suite.yaml (`defaults`, `case_defaults`) is located at the case's expected value, naming
 * where the entry was written, so that the message says which case it breaks.
 */
static int entry_error(const assay_case_load_ctx *ctx, const assay_value *at, const char *key,
		       assay_err *err, int rc, const char *msg)
{
	struct locator loc = locator_of(ctx), own = loc;
	const assay_value *exp = assay_object_get(&ctx->kase->expected, key);
	char where[700];

	own.n = 1; /* the case file only */
	if (assay_load__locate(&loc, at, where, sizeof(where)) &&
	    strcmp(loc.path[0], where) && strncmp(where, ctx->kase->file, strlen(ctx->kase->file))) {
		char mine[700];

		if (exp && assay_load__locate(&own, exp, mine, sizeof(mine)))
			return assay_load__err_at(&own, exp, err, rc,
						  "verify.%s: %s (the verify entry is inherited "
						  "from %s)", key, msg, where);
		return assay_err_set(err, rc, ctx->kase->file, 0, 0,
				     "verify.%s: %s (the verify entry is inherited from %s)", key,
				     msg, where);
	}
	return assay_load__err_at(&loc, at, err, rc, "verify.%s: %s", key, msg);
}

/* "verify.ouput is ignored: no expected value for it (did you mean 'output'?)" */
static void unexpected_verify(const assay_case_load_ctx *ctx, const assay_case *c,
			      const assay_value *key)
{
	const char **names = assay_xcalloc(c->expected.len + 1, sizeof(*names));
	const char *meant;

	for (uint32_t i = 0; i < c->expected.len; i++)
		names[i] = c->expected.u.members[i].key.u.s;
	meant = assay_load__closest(key->u.s, names);
	assay_case_warn_at(ctx, key, "verify.%s is ignored: no expected value for it%s%s%s",
			   key->u.s, meant ? " (did you mean '" : "", meant ? meant : "",
			   meant ? "'?)" : "");
	free(names);
}

/*
 * The `run` of a command verifier (docs/verifiers.md): a relative program path with a '/'
 * (`checks/ok.sh`) names the suite's file when there is one, wherever assay runs from; else it
 * stays as written (relative to where assay runs). A bare name is looked for in PATH. A string
 * `run` becomes its shell-split list. The entry is replaced in the case's own verify mapping.
 */
static void resolve_run(assay_case *c, const assay_suite *s, const char *key,
			const assay_value *entry)
{
	const assay_value *run = assay_object_get(entry, "run");
	assay_strvec argv = ASSAY_STRVEC_INIT;
	char *abs = NULL;

	if (run && run->kind == ASSAY_V_STRING) {
		if (assay_shell_split(&argv, run->u.s, NULL))
			goto out;
	} else if (run && run->kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < run->len; i++) {
			if (run->u.items[i].kind != ASSAY_V_STRING ||
			    memchr(run->u.items[i].u.s, '\0', run->u.items[i].len))
				goto out; /* the verifier says what is wrong */
			assay_strvec_push(&argv, run->u.items[i].u.s);
		}
	}
	if (!argv.nr || argv.v[0][0] == '/' || !strchr(argv.v[0], '/'))
		goto out;
	abs = assay_path_join(s->root, argv.v[0]);
	if (!assay_fs_exists(abs))
		goto out;
	assay_value list = assay_value_array(), copy = assay_value_object();
	assay_array_push(c->arena, &list, assay_value_strz(c->arena, abs));
	for (size_t i = 1; i < argv.nr; i++)
		assay_array_push(c->arena, &list, assay_value_strz(c->arena, argv.v[i]));
	for (uint32_t i = 0; i < entry->len; i++)
		if (!assay_value_is_str(&entry->u.members[i].key, "run"))
			assay_object_append(c->arena, &copy, entry->u.members[i].key,
					    entry->u.members[i].value);
	assay_object_set(c->arena, &copy, "run", list);
	assay_object_set(c->arena, &c->verify, key, copy);
out:
	free(abs);
	assay_strvec_clear(&argv);
}

/*
 * An expected text under which the entry's verifier accepts any output (an empty text under
 * `contains`: every text contains "") is almost always a mistake, so a warning (an error under
 * strictness). Which verifier does is the verifier registry's to say (check_verify).
 */
static void warn_empty_expected(const assay_case_load_ctx *ctx, const assay_case *c,
				const assay_member *entry, const struct assay_load_verifier *v)
{
	const char *key = entry->key.u.s;
	const assay_member *m = assay_object_member(&c->expected, key);

	if (!m || m->value.kind != ASSAY_V_STRING || !v->matches_any)
		return;
	assay_case_warn_at(ctx, &m->value, "expected.%s is empty: %s matches any output", key,
			   v->name);
}

static int load_verify(assay_case *c, const assay_member *vm, const assay_case_load_ctx *ctx,
		       struct all_errors *all, assay_err *err)
{
	const assay_value *v = vm ? &vm->value : NULL;
	const assay_value *own = assay_object_get(ctx->own, "verify");
	int rc;

	c->verify = assay_value_object();
	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, assay_member_anchor(vm), err,
					   "verify must be a mapping of attribute to verifier");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *m = &v->u.members[i];

		if (!strcmp(m->key.u.s, "files") && m->value.kind == ASSAY_V_OBJECT &&
		    !assay_object_get(&m->value, "verifier")) {
			for (uint32_t j = 0; j < m->value.len; j++) {
				char *attr = assay_file_attribute(m->value.u.members[j].key.u.s);

				rc = add_verify_entry(c, attr, &m->value.u.members[j], ctx, err);
				free(attr);
				if ((rc = go_on(all, rc, err)))
					return rc;
			}
			continue;
		}
		if ((rc = go_on(all, add_verify_entry(c, m->key.u.s, m, ctx, err), err)))
			return rc;
	}
	/* `verify: {files: {verifier: ...}}` applies to every expected file without its own. */
	const assay_value *all_files = assay_object_get(&c->verify, "files");
	if (all_files) {
		assay_value files = *all_files;

		for (uint32_t i = 0; i < c->expected.len; i++) {
			const char *key = c->expected.u.members[i].key.u.s;

			if (assay_file_attribute_path(key) && !assay_object_get(&c->verify, key))
				assay_object_set(c->arena, &c->verify, key, files);
		}
		assay_object_deln(&c->verify, "files", 5);
	}
	/* Every entry is checked now, before anything runs; an entry without an expected value
	 * is only worth a warning when the case file itself wrote it. */
	for (uint32_t i = 0; i < c->verify.len; i++) {
		const assay_member *m = &c->verify.u.members[i];
		const char *key = m->key.u.s;
		const assay_value *expected = assay_object_get(&c->expected, key);
		const struct assay_load_hooks *hooks = ctx->suite->hooks;
		struct assay_load_verifier vf = { 0 };
		assay_err e = ASSAY_ERR_INIT;

		if (!expected) {
			const assay_member *mine = assay_object_member(own, key);

			if (mine)
				unexpected_verify(ctx, c, &mine->key);
			continue;
		}
		if (!hooks) /* a suite made by hand (suite.h) */
			continue;
		if ((rc = hooks->check_verify(&vf, &m->value, expected, key, &e))) {
			const assay_value *at = assay_object_get(&m->value, "verifier");

			if ((rc = go_on(all, entry_error(ctx, at ? at : &m->value, key, err, rc,
							 e.msg), err)))
				return rc;
			continue;
		}
		warn_empty_expected(ctx, c, m, &vf);
		if (!strcmp(vf.name, "command"))
			resolve_run(c, ctx->suite, key, &m->value);
	}
	return 0;
}

/* ---- the case ------------------------------------------------------------------------- */

/* The case cannot be loaded: why. What was read of its expectations is not the case's. */
static void fail_with(assay_case *c, const char *msg)
{
	c->error = assay_arena_strndup(c->arena, msg, strlen(msg));
	c->expected = assay_value_object();
	c->verify = assay_value_object();
}

static void fail(assay_case *c, const assay_err *e)
{
	char msg[1200];

	/* Format first: strlen(msg) must not be evaluated before msg is filled (the order of
	 * evaluation of arguments is unspecified). */
	assay_err_format(e, msg, sizeof(msg));
	fail_with(c, msg);
}

/* "unknown case key 'expect' (ignored; did you mean 'expected'?)" */
static void unknown_key(const assay_case_load_ctx *ctx, const assay_value *key,
			const assay_suite *s)
{
	const char *meant = assay_load__closest(key->u.s, common_keys);

	if (!meant)
		meant = assay_load__closest(key->u.s, s->adapter->case_keys);
	if (meant)
		assay_case_warn_at(ctx, key, "unknown case key '%s' (%sdid you mean '%s'?)",
				   key->u.s, s->strict ? "" : "ignored; ", meant);
	else
		assay_case_warn_at(ctx, key, "unknown case key '%s'%s", key->u.s,
				   s->strict ? "" : " (ignored)");
}

static int load_case(assay_case *c, const assay_suite *s, const assay_group *g,
		     assay_case_load_ctx *ctx, struct all_errors *all, assay_err *err)
{
	struct locator loc = locator_of(ctx);
	assay_value own, merged, def;
	int rc;

	if ((rc = assay_load__file(&own, c->arena, c->file, c->sha256, err)))
		return rc;
	if (own.kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, &own, err, "a case file must hold a mapping");
	ctx->own = &own;
	merged = merge_case(c->arena, &g->case_defaults, &own, s->adapter->merge_lists);
	if (s->adapter->prepare_case && (rc = s->adapter->prepare_case(&merged, ctx, err)))
		return rc;
	if ((rc = assay_load__substitute(&def, c->arena, &merged, &s->assets, &loc, err))) {
		if (!all || (rc = go_on(all, rc, err)))
			return rc;
		def = merged; /* (listing every error: the rest is checked as written) */
	}
	for (uint32_t i = 0; i < own.len; i++) {
		const char *key = own.u.members[i].key.u.s;

		if (!assay_load__in_list(common_keys, key) &&
		    !assay_load__in_list(s->adapter->case_keys, key))
			unknown_key(ctx, &own.u.members[i].key, s);
	}
	c->timeout = g->timeout;
	c->limits = g->limits;
	/* (with `all`, each step goes on after an error of the one before) */
	if ((rc = go_on(all, assay_load__env(&c->env, assay_object_member(&def, "env"), &loc, err),
			err)) ||
	    (rc = go_on(all, assay_load__timeout(&c->timeout, assay_object_member(&def, "timeout"),
						 &loc, err), err)) ||
	    (rc = go_on(all, assay_load__limits(&c->limits, assay_object_member(&def, "limits"),
						&loc, err), err)) ||
	    (rc = go_on(all, load_expected(c, assay_object_member(&def, "expected"), ctx, all,
					   err), err)) ||
	    (rc = go_on(all, load_verify(c, assay_object_member(&def, "verify"), ctx, all, err),
			err)) ||
	    (rc = go_on(all, s->adapter->load_case(c, &def, ctx, err), err)))
		return rc;
	if (all && all->n) {
		*err = all->first;
		return all->first.code ? all->first.code : ASSAY_EINVALID;
	}
	if (!c->expected.len && !g->verifier_python)
		return assay_case_error_at(ctx, &own, err,
					   "the case expects nothing: give it expected attributes "
					   "(status_code, output, ...)");
	c->definition = def;
	return 0;
}

/* Warnings about a case pass through here: delivered, and the first kept for strictness. */
struct case_warnings {
	assay_warn_fn warn;
	void *payload;
	size_t n;
	char *first;
};

static void case_warned(void *payload, const char *msg)
{
	struct case_warnings *w = payload;

	if (!w->n++)
		w->first = assay_xstrdup(msg);
	if (w->warn)
		w->warn(w->payload, msg);
}

static int case_load(assay_case **out, const assay_suite *s, const assay_group *g, size_t index,
		     assay_warn_fn warn, void *payload, struct all_errors *all)
{
	const assay_case_ref *ref = &g->cases[index];
	assay_case *c = assay_xcalloc(1, sizeof(*c));
	struct case_warnings w = { warn, payload, 0, NULL };
	assay_case_load_ctx ctx = { s, g, c, NULL, case_warned, &w };
	assay_err e = ASSAY_ERR_INIT;

	c->arena = assay_arena_new(0);
	c->id = assay_arena_strndup(c->arena, ref->id, strlen(ref->id));
	c->file = assay_arena_strndup(c->arena, ref->file, strlen(ref->file));
	if (ref->files_dir)
		c->files_dir = assay_arena_strndup(c->arena, ref->files_dir,
						   strlen(ref->files_dir));
	c->env = (assay_strvec)ASSAY_STRVEC_INIT;
	assay_strvec_pushv(&c->env, (const char *const *)g->env.v);
	c->expected = assay_value_object();
	c->verify = assay_value_object();
	c->definition = assay_value_object();
	if (ref->problem) {
		c->error = assay_arena_strndup(c->arena, ref->problem, strlen(ref->problem));
	} else if (load_case(c, s, g, &ctx, all, &e)) {
		if (all) {
			/* every error said; what loaded stays, for a checker to verify (the case
			 * never runs: it has its error) */
			char msg[1200];

			assay_err_format(&e, msg, sizeof(msg));
			c->error = assay_arena_strndup(c->arena, msg, strlen(msg));
		} else {
			fail(c, &e);
		}
	} else if (s->strict && w.n) {
		char *msg = w.n > 1 ? assay_xasprintf("%s (an error under strict; %zu warnings in "
						      "all)", w.first, w.n)
				    : assay_xasprintf("%s (an error under strict)", w.first);

		fail_with(c, msg);
		free(msg);
	}
	free(w.first);
	*out = c;
	return 0;
}

int assay_case_load(assay_case **out, const assay_suite *s, const assay_checkpoint *cp,
		    const assay_group *g, size_t index, assay_warn_fn warn, void *payload)
{
	(void)cp;
	return case_load(out, s, g, index, warn, payload, NULL);
}

int assay_case_load_all(assay_case **out, const assay_case_load_in *in)
{
	struct all_errors all = { in->errors, in->epayload, 0, ASSAY_ERR_INIT };

	return case_load(out, in->suite, in->g, in->index, in->warn, in->payload,
			 in->errors ? &all : NULL);
}

void assay_case_free(assay_case *c)
{
	if (!c)
		return;
	assay_strvec_clear(&c->env);
	assay_arena_free(c->arena);
	free(c);
}
