/*
 * suite.yaml: the problem, its adapter, checkpoints, groups and defaults, and the discovery of
 * each group's cases on disk (suite-format.md, "Layout" and "suite.yaml").
 *
 * Decisions: a problem in suite.yaml fails the whole load (exit 3 in the CLI); case files are
 * only listed here (assay_case_load reads one when it runs), so a broken case is that case's
 * error and the rest run. Unknown keys are warnings (naming the key meant, when the typo is
 * close to one). A group whose folder does not exist has no cases and is warned about. Two case
 * files with one id (x.yaml and x/) are both kept, the second as an error. `--submission` (the
 * caller's override) is applied by the runner.
 * - Strictness (the filter's or suite.yaml's `strict: true`): every warning is still delivered,
 *   so a checker lists them all, then the load fails at the first one.
 * - Selection (select.c): an empty selection is an error naming the closest names.
 * - Folders of case files that no checkpoint or group declares are warnings (undeclared.c).
 * - adapter.type is looked up in the adapter table assay_suite_load hands down (load_lib.h), never
 *   named here: the messages list the table's names, and the known keys of `adapter` are the
 *   common ones and every adapter's own (its suite_keys); a key of another adapter than the
 *   suite's is a warning of its own ("a key of the cli adapter: this api suite does not use it").
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "load/load_int.h"
#include "load/load_lib.h"
#include "util/banned.h"

struct loader {
	assay_suite *suite;
	struct locator loc;       /* suite.yaml */
	const assay_suite_filter *filter;
	struct assay_load__selection sel;
	assay_warn_fn warn;
	void *payload;
	bool strict;
	size_t nwarnings;
	assay_err first_warning;  /* located, for the error under strictness */
	const assay_value *defaults;
	const char *py_file, *py_class; /* the suite's Python verifier (issue 17), or NULL */
	double py_timeout;
	assay_strvec adapter_env;
	const struct assay_load_hooks *hooks; /* the registries above the loader (load_lib.h) */
	assay_err *err;
};

static const char *const top_keys[] = { "name", "description", "adapter", "static_assets",
					 "checkpoints", "defaults", "version", "plugins", "strict",
					 "verifier", NULL };
/* The keys of `adapter` every adapter has; each adapter's own keys (its suite_keys) go between
 * the two lists in the known keys, in the registry's order. */
static const char *const adapter_keys_first[] = { "type", "command", "submission", "timeout",
						  "env", NULL };
static const char *const adapter_keys_last[] = { "sandbox", "network", "read_paths", "limits",
						 NULL };
static const char *const checkpoint_keys[] = { "order", "path", "timeout", "env", "groups",
					       "regressions", "submission", "specification",
					       "state", "version", "limits", "verifier", NULL };
static const char *const group_keys[] = { "type", "isolated", "timeout", "case_defaults",
					  "case_order", "original_checkpoint", "original_group",
					  "limits", NULL };

static void warn_at(struct loader *ld, const assay_value *at, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);

/* Every warning goes through here: counted, kept (the first) for strictness, delivered. */
static void warned(struct loader *ld, const char *msg)
{
	if (!ld->nwarnings++ && !ld->first_warning.code)
		assay_err_set(&ld->first_warning, ASSAY_EINVALID, NULL, 0, 0, "%s", msg);
	if (ld->warn)
		ld->warn(ld->payload, msg);
}

static void warn_at(struct loader *ld, const assay_value *at, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!ld->nwarnings) {
		/* the first is kept located, so that strictness can show its line */
		va_start(ap, fmt);
		assay_load__verr_at(&ld->loc, at, &ld->first_warning, ASSAY_EINVALID, fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	msg = assay_load__msg_at(&ld->loc, at, fmt, ap);
	va_end(ap);
	warned(ld, msg);
	free(msg);
}

/* A warning delivered but not counted: strictness does not turn it into an error. */
static void note_at(struct loader *ld, const assay_value *at, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);
static void note_at(struct loader *ld, const assay_value *at, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!ld->warn)
		return;
	va_start(ap, fmt);
	msg = assay_load__msg_at(&ld->loc, at, fmt, ap);
	va_end(ap);
	ld->warn(ld->payload, msg);
	free(msg);
}

/* Warnings about a selection pattern (select.c). */
static void warn_plain(void *ctx, const char *msg)
{
	warned(ctx, msg);
}

static void warn_keys(struct loader *ld, const assay_value *obj, const char *const *known,
		      const char *where)
{
	if (!obj || obj->kind != ASSAY_V_OBJECT)
		return;
	for (uint32_t i = 0; i < obj->len; i++) {
		const assay_value *k = &obj->u.members[i].key;
		const char *meant;

		if (assay_load__in_list(known, k->u.s))
			continue;
		meant = assay_load__closest(k->u.s, known);
		warn_at(ld, k, "unknown key '%s' in %s%s%s%s%s", k->u.s, where,
			ld->strict ? "" : " (ignored",
			meant ? (ld->strict ? " (did you mean '" : "; did you mean '") : "",
			meant ? meant : "", meant ? "'?)" : ld->strict ? "" : ")");
	}
}

static int bad(struct loader *ld, const assay_value *at, const char *what)
{
	return assay_load__err_at(&ld->loc, at, ld->err, ASSAY_EINVALID, "%s", what);
}

int assay_suite_error_at(const assay_suite *s, const assay_value *at, assay_err *err,
			 const char *fmt, ...)
{
	struct locator loc = { { s->arena }, { s->file }, 1 };
	va_list ap;

	va_start(ap, fmt);
	assay_load__verr_at(&loc, at, err, ASSAY_EINVALID, fmt, ap);
	va_end(ap);
	return ASSAY_EINVALID;
}

static int bad_member(struct loader *ld, const assay_member *m, const char *what)
{
	return bad(ld, assay_member_anchor(m), what);
}

/*
 * Checkpoint and group names become folder names under the run's working root, so they must be
 * one plain path part: not empty, not "." or "..", no '/'.
 */
static int check_name(struct loader *ld, const assay_value *key, const char *what)
{
	const char *name = key->u.s;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/') ||
	    memchr(name, '\0', key->len))
		return assay_load__err_at(&ld->loc, key, ld->err, ASSAY_EINVALID,
					  "%s name '%s' must be a plain name (no '/', not '.' "
					  "or '..')", what, name);
	return 0;
}

/* A group name may appear once per checkpoint (regression groups included). */
static int check_unique_group(struct loader *ld, const assay_checkpoint *cp,
			      const assay_value *at, const char *name)
{
	for (size_t i = 0; i < cp->ngroups; i++)
		if (!strcmp(cp->groups[i].name, name))
			return assay_load__err_at(&ld->loc, at, ld->err, ASSAY_EINVALID,
						  "two groups named '%s' in checkpoint '%s'", name,
						  cp->name);
	return 0;
}

/* An optional string member; *out stays NULL when absent or null. */
static int get_string(struct loader *ld, const assay_value *obj, const char *key,
		      const char **out, const char *what)
{
	const assay_member *m = assay_object_member(obj, key);

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_STRING || memchr(m->value.u.s, '\0', m->value.len))
		return bad_member(ld, m, what);
	*out = m->value.u.s;
	return 0;
}

static char *suite_path(struct loader *ld, const char *rel)
{
	char *joined = assay_path_join(ld->suite->root, rel);
	char *abs = assay_path_absolute(joined);

	free(joined);
	return abs;
}

/*
 * `verifier: {python: FILE, class: NAME}` (verification.md "Verifier Protocol"; issue 17): a
 * Python verifier decides every case. FILE is relative to the suite; class defaults to
 * Verifier. The strings go into the suite's arena.
 */
static int load_py_verifier(struct loader *ld, const assay_member *m, const char **file,
			    const char **cls, double *timeout)
{
	static const char *const keys[] = { "python", "class", "timeout", NULL };
	const char *py = NULL, *name = NULL;
	char *path;
	int rc;

	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_OBJECT)
		return bad_member(ld, m, "verifier must be a mapping {python: FILE.py, class: NAME}");
	warn_keys(ld, &m->value, keys, "verifier");
	*timeout = 0;
	if ((rc = get_string(ld, &m->value, "python", &py,
			     "verifier.python must be the path of a .py file")) ||
	    (rc = get_string(ld, &m->value, "class", &name,
			     "verifier.class must be a class name")) ||
	    (rc = assay_load__timeout(timeout, assay_object_member(&m->value, "timeout"),
				      &ld->loc, ld->err)))
		return rc;
	if (!py)
		return bad_member(ld, m, "verifier needs python: the path of the verifier's .py "
					 "file, relative to the suite");
	path = suite_path(ld, py);
	if (!assay_fs_exists(path) || assay_fs_is_dir(path)) {
		rc = assay_load__err_at(&ld->loc, &assay_object_member(&m->value, "python")->value,
					ld->err, ASSAY_EINVALID,
					"verifier.python: no file %s", path);
		free(path);
		return rc;
	}
	*file = assay_arena_strndup(ld->suite->arena, path, strlen(path));
	free(path);
	name = name ? name : "Verifier";
	*cls = assay_arena_strndup(ld->suite->arena, name, strlen(name));
	return 0;
}

/* adapter.sandbox, network, read_paths and limits (docs/security.md). */
static int load_sandbox(struct loader *ld, const assay_value *a)
{
	assay_suite *s = ld->suite;
	const assay_member *m = assay_object_member(a, "sandbox");
	const assay_value *v = m ? &m->value : NULL;

	s->sandbox = ASSAY_SANDBOX_ON;
	if (v && v->kind == ASSAY_V_BOOL) { /* YAML 1.1: on and off are booleans */
		s->sandbox = v->u.b ? ASSAY_SANDBOX_ON : ASSAY_SANDBOX_OFF;
	} else if (assay_value_is_str(v, "required")) {
		s->sandbox = ASSAY_SANDBOX_REQUIRED;
	} else if (v && v->kind != ASSAY_V_NULL) {
		return bad_member(ld, m, "adapter.sandbox must be on, off or required");
	}
	s->network = false; /* an api server still listens on its own port (docs/security.md) */
	m = assay_object_member(a, "network");
	if (m && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_BOOL)
			return bad_member(ld, m, "adapter.network must be on or off");
		s->network = m->value.u.b;
	}
	m = assay_object_member(a, "read_paths");
	if (m && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_ARRAY)
			return bad_member(ld, m, "adapter.read_paths must be a list of paths");
		for (uint32_t i = 0; i < m->value.len; i++) {
			const assay_value *item = &m->value.u.items[i];

			if (item->kind != ASSAY_V_STRING || !item->len)
				return bad(ld, &m->value,
					   "adapter.read_paths items must be paths (relative to "
					   "the suite, or absolute)");
			char *abs = suite_path(ld, item->u.s);
			assay_strvec_push(&s->read_paths, abs);
			free(abs);
		}
	}
	s->limits = (assay_limits){ .processes = 512 };
	return assay_load__limits(&s->limits, assay_object_member(a, "limits"), &ld->loc, ld->err);
}

/* Every key of `adapter` an adapter of the registry knows, NULL-terminated (free the array). */
static const char **adapter_keys(const assay_adapter *const *adapters)
{
	size_t n = 0, i = 0;
	const char **keys;

	for (const char *const *k = adapter_keys_first; *k; k++)
		n++;
	for (const char *const *k = adapter_keys_last; *k; k++)
		n++;
	for (const assay_adapter *const *ad = adapters; *ad; ad++)
		for (const char *const *k = (*ad)->suite_keys; k && *k; k++)
			n++;
	keys = assay_xcalloc(n + 1, sizeof(*keys));
	for (const char *const *k = adapter_keys_first; *k; k++)
		keys[i++] = *k;
	for (const assay_adapter *const *ad = adapters; *ad; ad++)
		for (const char *const *k = (*ad)->suite_keys; k && *k; k++)
			keys[i++] = *k;
	for (const char *const *k = adapter_keys_last; *k; k++)
		keys[i++] = *k;
	return keys;
}

/* A key of `adapter` that another adapter knows but the suite's does not (`tracked_files` in an
 * api suite): a warning, since the suite's adapter takes no notice of it. */
static void other_adapters_keys(struct loader *ld, const assay_value *a)
{
	const assay_adapter *mine = ld->suite->adapter;

	for (uint32_t i = 0; i < a->len; i++) {
		const assay_member *m = &a->u.members[i];
		const char *k = m->key.u.s;

		if (assay_load__in_list(adapter_keys_first, k) ||
		    assay_load__in_list(adapter_keys_last, k) ||
		    (mine->suite_keys && assay_load__in_list(mine->suite_keys, k)))
			continue;
		for (const assay_adapter *const *ad = ld->hooks->adapters; *ad; ad++)
			if (*ad != mine && (*ad)->suite_keys &&
			    assay_load__in_list((*ad)->suite_keys, k)) {
				warn_at(ld, assay_member_anchor(m),
					"adapter.%s is a key of the %s adapter: this %s suite does "
					"not use it",
					k, (*ad)->name, mine->name);
				break;
			}
	}
}

/* "the type must be X", naming the registry's adapters: "cli or api", "a, b or c". */
static int bad_type(struct loader *ld, const assay_value *at, const char *what,
		    const char *closing)
{
	const assay_adapter *const *ad = ld->hooks->adapters;
	assay_buf b = ASSAY_BUF_INIT;
	int rc;

	assay_buf_adds(&b, what);
	for (size_t i = 0; ad[i]; i++)
		assay_buf_addf(&b, "%s%s", !i ? "" : ad[i + 1] ? ", " : " or ", ad[i]->name);
	assay_buf_adds(&b, closing);
	rc = bad(ld, at, b.ptr);
	assay_buf_release(&b);
	return rc;
}

static int load_adapter(struct loader *ld, const assay_member *am)
{
	assay_suite *s = ld->suite;
	const assay_value *a = am ? &am->value : NULL;
	const assay_member *tm;
	const char *submission = NULL;
	int rc;

	if (!a || a->kind != ASSAY_V_OBJECT)
		return bad(ld, am ? assay_member_anchor(am) : &s->raw,
			   "adapter must be a mapping with a type");
	s->adapter_config = *a;
	const char **known = adapter_keys(ld->hooks->adapters);
	warn_keys(ld, a, known, "adapter");
	free(known);
	tm = assay_object_member(a, "type");
	if (tm && tm->value.kind != ASSAY_V_NULL &&
	    (tm->value.kind != ASSAY_V_STRING || memchr(tm->value.u.s, '\0', tm->value.len)))
		return bad_type(ld, assay_member_anchor(tm), "adapter.type must be ", "");
	if (!tm || tm->value.kind == ASSAY_V_NULL)
		return bad_type(ld, a, "adapter.type is required (", ")");
	for (const assay_adapter *const *ad = ld->hooks->adapters; *ad && !s->adapter; ad++)
		if (!strcmp((*ad)->name, tm->value.u.s))
			s->adapter = *ad;
	if (!s->adapter)
		return bad_type(ld, &tm->value, "adapter.type must be ", "");
	other_adapters_keys(ld, a);
	if ((rc = assay_load__argv(&s->command, assay_object_member(a, "command"),
				   "adapter.command", &ld->loc, ld->err)))
		return rc;
	if ((rc = get_string(ld, a, "submission", &submission,
			     "adapter.submission must be a folder path")))
		return rc;
	if (submission)
		s->submission = suite_path(ld, submission);
	s->timeout = 10;
	if ((rc = assay_load__timeout(&s->timeout, assay_object_member(a, "timeout"), &ld->loc,
				      ld->err)) ||
	    (rc = assay_load__env(&ld->adapter_env, assay_object_member(a, "env"), &ld->loc,
				  ld->err)))
		return rc;

	if ((rc = load_sandbox(ld, a)))
		return rc;
	if (s->adapter->load_suite && (rc = s->adapter->load_suite(s, a, ld->err)))
		return rc;
	return 0;
}

static int load_assets(struct loader *ld, const assay_member *am)
{
	assay_suite *s = ld->suite;
	const assay_value *v = am ? &am->value : NULL;

	s->assets = assay_value_object();
	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return bad_member(ld, am, "static_assets must be a mapping NAME: {path: ...}");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *m = &v->u.members[i];
		const assay_value *path = m->value.kind == ASSAY_V_OBJECT
						  ? assay_object_get(&m->value, "path")
						  : &m->value;

		if (!path || path->kind != ASSAY_V_STRING)
			return bad(ld, assay_member_anchor(m),
				   "a static asset needs a path (relative to the suite)");
		char *abs = suite_path(ld, path->u.s);
		if (!assay_fs_exists(abs))
			warn_at(ld, path, "static asset '%s' does not exist: %s", m->key.u.s, abs);
		assay_object_append(s->arena, &s->assets, m->key, assay_value_strz(s->arena, abs));
		free(abs);
	}
	return 0;
}

/*
 * plugins: shared-object verifier plug-ins (plugin.h), paths relative to the suite, loaded now
 * so that the case files naming their verifiers load (issue #7 section 3). Loaded through the
 * hook assay_suite_load hands down (load_lib.h): plug-ins are a layer above the loader.
 */
static int load_plugins(struct loader *ld, const assay_member *pm)
{
	const assay_value *v = pm ? &pm->value : NULL;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_ARRAY)
		return bad_member(ld, pm, "plugins must be a list of shared-object paths");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *p = &v->u.items[i];
		assay_err e = ASSAY_ERR_INIT;

		if (p->kind != ASSAY_V_STRING)
			return bad(ld, v, "plugins must be a list of shared-object paths");
		char *abs = suite_path(ld, p->u.s);
		int rc = ld->hooks->load_plugin(abs, &e);
		free(abs);
		if (rc)
			return assay_load__err_at(&ld->loc, p, ld->err, rc, "%s", e.msg);
	}
	return 0;
}

/* ---- cases --------------------------------------------------------------------------- */

/* By id; cases of one id (duplicates: one runs) by file, whatever order readdir gave. */
static int cmp_ref(const void *a, const void *b)
{
	const assay_case_ref *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : strcmp(x->file, y->file);
}

static bool has_suffix(const char *s, const char *suffix, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n <= m || strcmp(s + n - m, suffix))
		return false;
	*stem = n - m;
	return true;
}

const char *const assay_load__case_files[3] = { "case.yaml", "case.yml", "case.json" };

size_t assay_load__case_files_in(const char *dir, const char **first)
{
	size_t n = 0;

	if (first)
		*first = NULL;
	for (size_t i = 0; i < 3; i++) {
		char *p = assay_path_join(dir, assay_load__case_files[i]);

		if (assay_fs_exists(p) && !n++ && first)
			*first = assay_load__case_files[i];
		free(p);
	}
	return n;
}

static char *case_file_in(const char *dir)
{
	for (size_t i = 0; i < 3; i++) {
		char *p = assay_path_join(dir, assay_load__case_files[i]);

		if (assay_fs_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

/* The error of a duplicate: "FILE: duplicate case id 'ID' (also FILE)". */
#define DUPLICATE_ID ": duplicate case id '"

bool assay_case_result_replayable(const assay_case_ref *ref, const char *error)
{
	return !ref->problem && !(error && strstr(error, DUPLICATE_ID));
}

/* `id`~`k` (then ~`k+1`, ...): the first that no case of `list` has. Frees `id`. */
static char *unique_id(const assay_case_ref *list, size_t n, char *id, size_t k)
{
	for (;; k++) {
		char *cand = assay_xasprintf("%s~%zu", id, k);
		size_t i = 0;

		while (i < n && strcmp(list[i].id, cand))
			i++;
		if (i == n) {
			free(id);
			return cand;
		}
		free(cand);
	}
}

/* Lists the cases in `dir`, sorted by id; the case globs filter them (`*all`: how many there
 * are before they do). A case whose id another has is an error under an id of its own. */
static assay_case_ref *find_cases(struct loader *ld, const char *cp, const char *group,
				  const char *dir, size_t *n, size_t *all)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assay_case_ref *list = NULL;
	size_t nr = 0, alloc = 0;

	*n = *all = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t stem = 0;
		char *path, *file = NULL, *files_dir = NULL;
		struct stat st;

		/* hidden: never a case (`..yaml` would be the case "." or ".."); a hidden case
		 * file is said and counted as never run (undeclared.c) */
		if (e->d_name[0] == '.')
			continue;
		path = assay_path_join(dir, e->d_name);
		/* a plain file (readdir says so; a link is followed by stat) needs no stat */
		if (e->d_type == DT_REG) {
			st.st_mode = S_IFREG;
		} else if (stat(path, &st)) {
			free(path);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			file = case_file_in(path);
			if (file) {
				files_dir = assay_path_join(path, "files");
				if (!assay_fs_is_dir(files_dir)) {
					free(files_dir);
					files_dir = NULL;
				}
			}
			stem = strlen(e->d_name);
			free(path);
		} else if (has_suffix(e->d_name, ".yaml", &stem) ||
			   has_suffix(e->d_name, ".yml", &stem) ||
			   has_suffix(e->d_name, ".json", &stem)) {
			file = path;
		} else {
			free(path);
		}
		if (!file)
			continue;
		char *id = assay_xstrndup(e->d_name, stem);
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			list = assay_xrealloc(list, alloc * sizeof(*list));
		}
		list[nr++] = (assay_case_ref){ id, file, files_dir, NULL };
	}
	closedir(d);
	if (nr)
		qsort(list, nr, sizeof(*list), cmp_ref);
	bool renamed = false;
	for (size_t i = 1, k = 1; i < nr; i++) {
		if (strcmp(list[i - k].id, list[i].id)) {
			k = 1;
			continue;
		}
		list[i].problem = assay_xasprintf("%s" DUPLICATE_ID "%s' (also %s)",
						  list[i].file, list[i].id, list[i - k].file);
		/* an error of its own, under an id of its own: results are kept by id, and a
		 * second result under the first's would replace it (the store, reports.jsonl)
		 * while the summary counted both */
		list[i].id = unique_id(list, nr, list[i].id, ++k);
		renamed = true;
	}
	/* in id order again: c1~3 (a duplicate) after c1~2.yaml, not before it */
	if (renamed)
		qsort(list, nr, sizeof(*list), cmp_ref);
	/* the selection takes the ids the run gives (`--case c1~2`, --last-failed's names):
	 * which file is c1~2 must not depend on which others are selected (a resumed run
	 * would keep one file's result for another) */
	*all = nr;
	size_t kept = 0;
	for (size_t i = 0; i < nr; i++) {
		if (assay_load__select_case(&ld->sel, cp, group, list[i].id)) {
			list[kept++] = list[i];
			continue;
		}
		free(list[i].id);
		free(list[i].file);
		free(list[i].files_dir);
		free(list[i].problem);
	}
	*n = kept;
	return list;
}

/* Moves the ids listed in case_order to the front, in that order. */
static void apply_case_order(struct loader *ld, assay_case_ref *list, size_t n,
			     const assay_value *order)
{
	size_t next = 0;

	for (uint32_t i = 0; i < order->len; i++) {
		const assay_value *item = &order->u.items[i];
		const char *id = item->kind == ASSAY_V_STRING ? item->u.s : NULL;
		size_t j;

		for (j = next; id && j < n; j++)
			if (!strcmp(list[j].id, id))
				break;
		if (!id || j >= n) {
			if (!ld->sel.ncases && !ld->sel.nnames)
				warn_at(ld, item->kind == ASSAY_V_STRING ? item : order,
					"case_order names '%s', which is not a case", id ? id : "?");
			continue;
		}
		assay_case_ref f = list[j];
		memmove(&list[next + 1], &list[next], (j - next) * sizeof(*list));
		list[next++] = f;
	}
}

/* ---- checkpoints and groups ------------------------------------------------------------ */

static int parse_group_type(struct loader *ld, const assay_member *m, assay_group_type *out)
{
	static const char *const names[] = { "Core", "Functionality", "Error", "Regression",
					     NULL };
	const char *meant;

	*out = ASSAY_GROUP_FUNCTIONALITY;
	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	for (int i = 0; m->value.kind == ASSAY_V_STRING && i < 4; i++) {
		if (!strcasecmp(m->value.u.s, names[i])) {
			*out = (assay_group_type)i;
			return 0;
		}
	}
	meant = m->value.kind == ASSAY_V_STRING ? assay_load__closest(m->value.u.s, names) : NULL;
	return assay_load__err_at(&ld->loc, assay_member_anchor(m), ld->err, ASSAY_EINVALID,
				  "group type must be Core, Functionality, Error or Regression%s%s%s",
				  meant ? " (did you mean '" : "", meant ? meant : "",
				  meant ? "'?)" : "");
}

/* Reads one group's settings into `g` (name, dir and cases are the caller's). */
static int group_settings(struct loader *ld, assay_group *g, const assay_value *gnode,
			  double cp_timeout, const assay_limits *cp_limits, const assay_strvec *env)
{
	assay_suite *s = ld->suite;
	const assay_member *m;
	int rc;

	if (gnode->kind != ASSAY_V_OBJECT && gnode->kind != ASSAY_V_NULL)
		return bad(ld, gnode, "a group must be a mapping (type, isolated, timeout, ...)");
	warn_keys(ld, gnode, group_keys, "group");
	if ((rc = parse_group_type(ld, assay_object_member(gnode, "type"), &g->type)))
		return rc;
	g->isolated = true;
	m = assay_object_member(gnode, "isolated");
	if (m && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_BOOL)
			return bad_member(ld, m, "isolated must be true or false");
		g->isolated = m->value.u.b;
	}
	g->timeout = cp_timeout;
	g->limits = *cp_limits;
	if ((rc = assay_load__timeout(&g->timeout, assay_object_member(gnode, "timeout"), &ld->loc,
				      ld->err)) ||
	    (rc = assay_load__limits(&g->limits, assay_object_member(gnode, "limits"), &ld->loc,
				     ld->err)))
		return rc;
	m = assay_object_member(gnode, "case_defaults");
	if (m && m->value.kind != ASSAY_V_OBJECT && m->value.kind != ASSAY_V_NULL)
		return bad_member(ld, m, "case_defaults must be a mapping");
	g->case_defaults = assay_load__merge_case(s->arena, ld->defaults,
					     m && m->value.kind == ASSAY_V_OBJECT ? &m->value
										  : NULL,
					     s->adapter->merge_lists);
	if (g->case_defaults.kind != ASSAY_V_OBJECT)
		g->case_defaults = assay_value_object();
	assay_strvec_pushv(&g->env, (const char *const *)env->v);
	return 0;
}

static const assay_value *find_checkpoint(struct loader *ld, const char *name)
{
	return assay_object_get(assay_object_get(&ld->suite->raw, "checkpoints"), name);
}

static char *checkpoint_dir(struct loader *ld, const char *name, const assay_value *cnode)
{
	const assay_value *path = assay_object_get(cnode, "path");

	return suite_path(ld, path && path->kind == ASSAY_V_STRING ? path->u.s : name);
}

/* A new, zeroed group at the end of cp->groups. Earlier group pointers become invalid. */
static assay_group *new_group(assay_checkpoint *cp)
{
	cp->groups = assay_xrealloc(cp->groups, (cp->ngroups + 1) * sizeof(*cp->groups));
	assay_group *g = &cp->groups[cp->ngroups++];
	memset(g, 0, sizeof(*g));
	g->env = (assay_strvec)ASSAY_STRVEC_INIT;
	return g;
}

/* Lists a group's cases, applying its case_order. */
static void list_cases(struct loader *ld, const assay_checkpoint *cp, assay_group *g,
		       const assay_value *gnode)
{
	const assay_value *order = assay_object_get(gnode, "case_order");

	if (!assay_fs_is_dir(g->dir))
		warn_at(ld, gnode, "group '%s' has no folder %s", g->name, g->dir);
	g->cases = find_cases(ld, cp->name, g->name, g->dir, &g->ncases, &g->ncases_found);
	if (order && order->kind == ASSAY_V_ARRAY)
		apply_case_order(ld, g->cases, g->ncases, order);
	ld->suite->ncases += g->ncases;
}

static int check_case_order(struct loader *ld, const assay_value *gnode)
{
	const assay_member *m = assay_object_member(gnode, "case_order");

	if (m && m->value.kind != ASSAY_V_ARRAY && m->value.kind != ASSAY_V_NULL)
		return bad_member(ld, m, "case_order must be a list of case ids");
	return 0;
}

static int regression_group(struct loader *ld, assay_checkpoint *cp, const char *ocp,
			    const assay_value *ocnode, const assay_value *gname,
			    const assay_strvec *env, double cp_timeout, const assay_limits *cp_limits)
{
	const char *og = gname->u.s;
	const assay_value *gnode = assay_object_get(assay_object_get(ocnode, "groups"), og);
	char *name;
	int rc;

	if (!gnode)
		return bad(ld, gname, "a regression names a group that does not exist");
	name = assay_xasprintf("%s_%s", ocp, og);
	if ((rc = check_unique_group(ld, cp, gname, name)) ||
	    !assay_load__select_group(&ld->sel, cp->name, name)) {
		free(name);
		return rc;
	}
	if ((rc = check_case_order(ld, gnode))) {
		free(name);
		return rc;
	}
	assay_group *g = new_group(cp);
	g->name = name;
	if ((rc = group_settings(ld, g, gnode, cp_timeout, cp_limits, env)))
		return rc;
	g->type = ASSAY_GROUP_REGRESSION;
	g->original_checkpoint = assay_xstrdup(ocp);
	g->original_group = assay_xstrdup(og);
	char *odir = checkpoint_dir(ld, ocp, ocnode);
	g->dir = assay_path_join(odir, og);
	free(odir);
	list_cases(ld, cp, g, gnode);
	return 0;
}

static int load_regressions(struct loader *ld, assay_checkpoint *cp, const assay_member *lm,
			    const assay_strvec *env, double cp_timeout, const assay_limits *cp_limits)
{
	const assay_value *list = lm ? &lm->value : NULL;
	int rc;

	if (!list || list->kind == ASSAY_V_NULL)
		return 0;
	if (list->kind != ASSAY_V_ARRAY)
		return bad_member(ld, lm, "regressions must be a list of {checkpoint, groups}");
	for (uint32_t i = 0; i < list->len; i++) {
		const assay_value *entry = &list->u.items[i];
		const assay_value *ocpv = assay_object_get(entry, "checkpoint");
		const char *ocp = ocpv && ocpv->kind == ASSAY_V_STRING ? ocpv->u.s : NULL;
		const assay_value *groups = assay_object_get(entry, "groups");
		const assay_value *ocnode = ocp ? find_checkpoint(ld, ocp) : NULL;

		if (!ocnode)
			return bad(ld, entry->kind == ASSAY_V_OBJECT ? entry : list,
				   "a regression names a checkpoint that does not exist");
		if (!groups || groups->kind == ASSAY_V_NULL) {
			/* No list: every group of that checkpoint. */
			const assay_value *og = assay_object_get(ocnode, "groups");

			for (uint32_t j = 0; og && og->kind == ASSAY_V_OBJECT && j < og->len; j++)
				if ((rc = regression_group(ld, cp, ocp, ocnode,
							   &og->u.members[j].key, env,
							   cp_timeout, cp_limits)))
					return rc;
			continue;
		}
		if (groups->kind != ASSAY_V_ARRAY)
			return bad(ld, groups, "regression groups must be a list of group names");
		for (uint32_t j = 0; j < groups->len; j++) {
			const assay_value *gname = &groups->u.items[j];

			if (gname->kind != ASSAY_V_STRING)
				return bad(ld, groups, "regression groups must be group names");
			if ((rc = regression_group(ld, cp, ocp, ocnode, gname, env, cp_timeout,
						    cp_limits)))
				return rc;
		}
	}
	return 0;
}

/*
 * The settings of a hand-made regression group (original_checkpoint/original_group): the
 * original group's, as for a `regressions:` entry (docs/decisions.md), when suite.yaml declares
 * it; the group's own other keys are then ignored, and said so.
 */
static const assay_value *original_settings(struct loader *ld, const assay_value *gnode,
					    const assay_value *ocnode, const char *og)
{
	const assay_value *onode = assay_object_get(assay_object_get(ocnode, "groups"), og);

	if (!onode || onode == gnode)
		return gnode;
	warn_keys(ld, gnode, group_keys, "group");
	for (uint32_t i = 0; i < gnode->len; i++) {
		const assay_value *k = &gnode->u.members[i].key;

		const assay_value *v = &gnode->u.members[i].value;

		/* `type: Regression` only says what the group is (suite-format.md) */
		if (assay_value_is_str(k, "type") && v->kind == ASSAY_V_STRING &&
		    !strcasecmp(v->u.s, "Regression"))
			continue;
		if (assay_load__in_list(group_keys, k->u.s) &&
		    !assay_value_is_str(k, "original_checkpoint") &&
		    !assay_value_is_str(k, "original_group"))
			warn_at(ld, k,
				"'%s' of a regression group is ignored: it takes its settings from "
				"its original group", k->u.s);
	}
	return onode;
}

static int load_checkpoint(struct loader *ld, assay_checkpoint *cp, const assay_member *cm)
{
	const assay_value *cnode = &cm->value;
	const char *name = cm->key.u.s, *submission = NULL, *path = NULL;
	assay_strvec env = ASSAY_STRVEC_INIT;
	const assay_member *m;
	double timeout;
	assay_limits limits;
	char *cdir = NULL;
	const char *py_file = ld->py_file, *py_class = ld->py_class;
	double py_timeout = ld->py_timeout;
	int rc;

	if (cnode->kind != ASSAY_V_OBJECT)
		return bad_member(ld, cm, "a checkpoint must be a mapping with groups");
	if ((rc = check_name(ld, &cm->key, "checkpoint")) ||
	    (rc = load_py_verifier(ld, assay_object_member(cnode, "verifier"), &py_file,
				   &py_class, &py_timeout)))
		return rc;
	/* a Python verifier reads the checkpoint's other keys as its configuration */
	if (!py_file)
		warn_keys(ld, cnode, checkpoint_keys, "checkpoint");
	cp->name = assay_xstrdup(name);
	m = assay_object_member(cnode, "order");
	if (m && m->value.kind != ASSAY_V_INT)
		return bad_member(ld, m, "checkpoint order must be an integer");
	cp->order = m ? (int)m->value.u.i : 0;
	if ((rc = get_string(ld, cnode, "path", &path, "checkpoint path must be a string")))
		return rc;
	cp->path = assay_xstrdup(path ? path : name);
	if ((rc = get_string(ld, cnode, "submission", &submission,
			     "checkpoint submission must be a folder path")))
		return rc;
	if (submission)
		cp->submission = suite_path(ld, submission);
	else if (ld->suite->submission)
		cp->submission = assay_xstrdup(ld->suite->submission);
	timeout = ld->suite->timeout;
	limits = ld->suite->limits;
	if ((rc = assay_load__timeout(&timeout, assay_object_member(cnode, "timeout"), &ld->loc,
				      ld->err)) ||
	    (rc = assay_load__limits(&limits, assay_object_member(cnode, "limits"), &ld->loc,
				     ld->err)))
		return rc;
	assay_strvec_pushv(&env, (const char *const *)ld->adapter_env.v);
	if ((rc = assay_load__env(&env, assay_object_member(cnode, "env"), &ld->loc, ld->err)))
		goto out;

	m = assay_object_member(cnode, "groups");
	if (!m || m->value.kind != ASSAY_V_OBJECT || !m->value.len) {
		rc = bad(ld, m ? assay_member_anchor(m) : cnode,
			 m && m->value.kind == ASSAY_V_OBJECT
				 ? "a checkpoint needs at least one group (its groups: is empty)"
				 : "a checkpoint needs a mapping of groups");
		goto out;
	}
	cdir = checkpoint_dir(ld, name, cnode);
	for (uint32_t i = 0; i < m->value.len && !rc; i++) {
		const assay_member *gm = &m->value.u.members[i];
		const assay_value *gnode = &gm->value;
		const char *gname = gm->key.u.s, *ocp = NULL, *og = NULL;

		if ((rc = get_string(ld, gnode, "original_checkpoint", &ocp,
				     "original_checkpoint must be a checkpoint name")) ||
		    (rc = get_string(ld, gnode, "original_group", &og,
				     "original_group must be a group name")))
			break;
		if (!ocp != !og) {
			rc = bad(ld, gnode, "original_checkpoint and original_group go together");
			break;
		}
		if ((rc = check_name(ld, &gm->key, "group")) ||
		    (rc = check_unique_group(ld, cp, &gm->key, gname)) ||
		    (rc = check_case_order(ld, gnode)))
			break;
		if (!assay_load__select_group(&ld->sel, cp->name, gname))
			continue;
		const assay_value *settings = gnode, *ocnode = NULL;
		bool from_original = false;
		if (ocp) {
			ocnode = find_checkpoint(ld, ocp);
			from_original = ocnode && assay_object_get(assay_object_get(ocnode, "groups"),
								   og);
		}
		if (ocp && !from_original) {
			/* labels on the reports (verification.md: "For regression cases"): the
			 * group's own folder holds its cases. Said only under strictness, and then
			 * as a note, never as a load error (issue #17) */
			if (ld->strict && ld->warn) {
				const assay_value *at =
					&assay_object_member(gnode, ocnode ? "original_group"
									   : "original_checkpoint")->value;
				note_at(ld, at,
					"%s '%s' is not in this suite: the regression group's "
					"original_checkpoint and original_group are labels, and its cases "
					"are read from its own folder", ocnode ? "original_group"
									: "original_checkpoint",
					ocnode ? og : ocp);
			}
		} else if (ocp) {
			settings = original_settings(ld, gnode, ocnode, og);
			if ((rc = check_case_order(ld, settings)))
				break;
		}
		assay_group *g = new_group(cp);
		g->name = assay_xstrdup(gname);
		if ((rc = group_settings(ld, g, settings, timeout, &limits, &env)))
			break;
		if (ocp) {
			g->type = ASSAY_GROUP_REGRESSION;
			g->original_checkpoint = assay_xstrdup(ocp);
			g->original_group = assay_xstrdup(og);
		}
		if (from_original) {
			char *odir = checkpoint_dir(ld, ocp, ocnode);
			g->dir = assay_path_join(odir, og);
			free(odir);
		} else {
			g->dir = assay_path_join(cdir, gname);
		}
		list_cases(ld, cp, g, settings);
	}
	if (!rc)
		rc = load_regressions(ld, cp, assay_object_member(cnode, "regressions"), &env,
				      timeout, &limits);
	for (size_t i = 0; !rc && py_file && i < cp->ngroups; i++) {
		cp->groups[i].verifier_python = py_file;
		cp->groups[i].verifier_class = py_class;
		cp->groups[i].verifier_config = *cnode;
		cp->groups[i].verifier_timeout = py_timeout;
	}
out:
	free(cdir);
	assay_strvec_clear(&env);
	return rc;
}

static int find_suite_file(char **out, const char *dir)
{
	static const char *const names[] = { "suite.yaml", "suite.yml", "suite.json" };

	for (size_t i = 0; i < 3; i++) {
		char *p = assay_path_join(dir, names[i]);

		if (assay_fs_exists(p)) {
			*out = p;
			return 0;
		}
		free(p);
	}
	return ASSAY_ENOTFOUND;
}

/* The selected checkpoint does not exist: say which do. */
static int no_checkpoint(struct loader *ld, const assay_value *cps)
{
	assay_buf names = ASSAY_BUF_INIT;
	int rc;

	for (uint32_t i = 0; i < cps->len; i++)
		assay_buf_addf(&names, "%s%s", i ? ", " : "", cps->u.members[i].key.u.s);
	rc = assay_err_set(ld->err, ASSAY_ENOMATCH, NULL, 0, 0,
			   "no checkpoint named '%s' (checkpoints: %s)", ld->filter->checkpoint,
			   names.ptr);
	assay_buf_release(&names);
	return rc;
}

/* After listing: the selection's verdict, then strictness over every warning. */
static int finish(struct loader *ld)
{
	char msg[1200];
	int rc;

	if ((rc = assay_load__select_finish(&ld->sel, ld->suite->ncases, ld->strict, warn_plain,
					    ld, ld->err)))
		return rc;
	if (!ld->strict || !ld->nwarnings)
		return 0;
	/* the first warning, located, becomes the error */
	snprintf(msg, sizeof(msg), "%s (an error under strict", ld->first_warning.msg);
	if (ld->nwarnings > 1)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "; %zu warnings in all",
			 ld->nwarnings);
	return assay_err_set(ld->err, ASSAY_EINVALID, ld->first_warning.path,
			     ld->first_warning.line, ld->first_warning.column, "%s)", msg);
}

static int load(struct loader *ld, const char *dir)
{
	assay_suite *s = ld->suite;
	const assay_value *root = &s->raw;
	const char *name = NULL, *desc = NULL;
	const assay_member *m;
	int rc;

	if (!assay_fs_is_dir(dir))
		return assay_err_set(ld->err, ASSAY_ENOTFOUND, dir, 0, 0, "no such suite folder");
	s->root = assay_path_absolute(dir);
	if (find_suite_file(&s->file, s->root))
		return assay_err_set(ld->err, ASSAY_ENOTFOUND, s->root, 0, 0,
				     "no suite.yaml in this folder");
	ld->loc = (struct locator){ { s->arena }, { s->file }, 1 };
	if ((rc = assay_load__file(&s->raw, s->arena, s->file, NULL, ld->err)))
		return rc;
	if (root->kind != ASSAY_V_OBJECT)
		return bad(ld, root, "suite.yaml must hold a mapping");
	m = assay_object_member(root, "strict");
	if (m && m->value.kind != ASSAY_V_BOOL && m->value.kind != ASSAY_V_NULL)
		return bad_member(ld, m, "strict must be true or false");
	ld->strict = ld->strict || (m && m->value.kind == ASSAY_V_BOOL && m->value.u.b);
	s->strict = ld->strict;
	warn_keys(ld, root, top_keys, "suite.yaml");

	if ((rc = get_string(ld, root, "name", &name, "name must be a string")) ||
	    (rc = get_string(ld, root, "description", &desc, "description must be a string")))
		return rc;
	if (!name)
		return bad(ld, root, "suite.yaml needs a name");
	s->name = assay_xstrdup(name);
	s->description = assay_xstrdup(desc ? desc : "");
	if ((rc = load_adapter(ld, assay_object_member(root, "adapter"))) ||
	    (rc = load_assets(ld, assay_object_member(root, "static_assets"))) ||
	    (rc = load_plugins(ld, assay_object_member(root, "plugins"))) ||
	    (rc = load_py_verifier(ld, assay_object_member(root, "verifier"), &ld->py_file,
				   &ld->py_class, &ld->py_timeout)))
		return rc;
	m = assay_object_member(root, "defaults");
	if (m && m->value.kind != ASSAY_V_OBJECT && m->value.kind != ASSAY_V_NULL)
		return bad_member(ld, m, "defaults must be a case mapping");
	ld->defaults = m && m->value.kind == ASSAY_V_OBJECT ? &m->value : NULL;

	m = assay_object_member(root, "checkpoints");
	if (!m || m->value.kind != ASSAY_V_OBJECT || !m->value.len)
		return bad(ld, m ? assay_member_anchor(m) : root,
			   "suite.yaml needs a mapping of checkpoints");
	s->checkpoints = assay_xcalloc(m->value.len, sizeof(*s->checkpoints));
	for (uint32_t i = 0; i < m->value.len; i++) {
		const assay_member *cm = &m->value.u.members[i];

		if (ld->filter && ld->filter->checkpoint &&
		    strcmp(ld->filter->checkpoint, cm->key.u.s))
			continue;
		if ((rc = load_checkpoint(ld, &s->checkpoints[s->ncheckpoints++], cm)))
			return rc;
	}
	if (!s->ncheckpoints)
		return no_checkpoint(ld, &m->value);
	/* a stable sort by order: checkpoints with equal order keep the file's order */
	for (size_t i = 1; i < s->ncheckpoints; i++) {
		for (size_t j = i; j > 0 && s->checkpoints[j - 1].order > s->checkpoints[j].order;
		     j--) {
			assay_checkpoint t = s->checkpoints[j];

			s->checkpoints[j] = s->checkpoints[j - 1];
			s->checkpoints[j - 1] = t;
		}
	}
	s->unrun_case_files = assay_load__undeclared(s, !(ld->filter && ld->filter->checkpoint),
						     warn_plain, ld);
	return finish(ld);
}

int assay_load__suite(assay_suite **out, const char *dir, const assay_suite_filter *filter,
		      const struct assay_load_hooks *hooks, assay_warn_fn warn, void *payload,
		      assay_err *err)
{
	struct loader ld = { 0 };
	int rc;

	ld.hooks = hooks;
	ld.suite = assay_xcalloc(1, sizeof(*ld.suite));
	ld.suite->hooks = hooks;
	ld.suite->arena = assay_arena_new(0);
	ld.suite->command = (assay_strvec)ASSAY_STRVEC_INIT;
	ld.suite->tracked_files = (assay_strvec)ASSAY_STRVEC_INIT;
	ld.filter = filter;
	ld.strict = filter && filter->strict;
	assay_load__select_init(&ld.sel, filter);
	ld.warn = warn;
	ld.payload = payload;
	ld.err = err;
	ld.adapter_env = (assay_strvec)ASSAY_STRVEC_INIT;
	rc = load(&ld, dir);
	assay_strvec_clear(&ld.adapter_env);
	assay_load__select_release(&ld.sel);
	if (rc) {
		assay_suite_free(ld.suite);
		*out = NULL;
		return rc;
	}
	*out = ld.suite;
	return 0;
}
