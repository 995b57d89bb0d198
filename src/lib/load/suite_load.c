/*
 * suite.yaml: the problem, its adapter, checkpoints, groups and defaults, and the discovery of
 * each group's cases on disk (suite-format.md, "Layout" and "suite.yaml").
 *
 * Decisions: a problem in suite.yaml fails the whole load (exit 3 in the CLI); a problem in one
 * case file becomes that case's `error` and the rest load. Unknown keys are warnings. A group
 * whose folder does not exist has no cases and is warned about. `--submission` (the caller's
 * override) is applied by the runner, not here.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "load/load_int.h"
#include "util/banned.h"

struct loader {
	assay_suite *suite;
	struct doc doc;          /* suite.yaml */
	struct docset ds;        /* { &doc } */
	const assay_suite_filter *filter;
	assay_warn_fn warn;
	void *payload;
	json_t *assets;          /* NAME -> absolute path */
	json_t *defaults;
	assay_strvec adapter_env;
	assay_err *err;
};

static const char *const top_keys[] = { "name", "description", "adapter", "static_assets",
					 "checkpoints", "defaults", "version", NULL };
static const char *const adapter_keys[] = { "type", "command", "submission", "timeout", "env",
					    "tracked_files", "address", "port", "health_path",
					    "startup_timeout", "response_is_json", NULL };
static const char *const checkpoint_keys[] = { "order", "path", "timeout", "env", "groups",
					       "regressions", "submission", "specification",
					       "state", "version", NULL };
static const char *const group_keys[] = { "type", "isolated", "timeout", "case_defaults",
					  "case_order", "original_checkpoint", "original_group",
					  NULL };

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void warn_keys(struct loader *ld, const json_t *obj, const char *const *known,
		      const char *where)
{
	const char *key;
	json_t *value;

	if (!ld->warn || !json_is_object(obj))
		return;
	json_object_foreach((json_t *)obj, key, value) {
		if (in_list(known, key))
			continue;
		char *msg = assay_load__node_msg(&ld->ds, value, "unknown key '%s' in %s (ignored)",
						 key, where);
		ld->warn(ld->payload, msg);
		free(msg);
	}
}

static void warnf(struct loader *ld, const json_t *node, const char *fmt, const char *a,
		  const char *b)
{
	if (!ld->warn)
		return;
	char *msg = assay_load__node_msg(&ld->ds, node, fmt, a, b);
	ld->warn(ld->payload, msg);
	free(msg);
}

static int bad(struct loader *ld, const json_t *node, const char *what)
{
	return assay_load__node_err(&ld->ds, node, ld->err, ASSAY_EINVALID, "%s", what);
}

/*
 * Checkpoint and group names become folder names under the run's working root, so they must be
 * one plain path part: not empty, not "." or "..", no '/'.
 */
static int check_name(struct loader *ld, const json_t *node, const char *name, const char *what)
{
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/'))
		return assay_load__node_err(&ld->ds, node, ld->err, ASSAY_EINVALID,
					    "%s name '%s' must be a plain name (no '/', not '.' "
					    "or '..')", what, name);
	return 0;
}

/* A group name may appear once per checkpoint (regression groups included). */
static int check_unique_group(struct loader *ld, const assay_checkpoint *cp, const json_t *node,
			      const char *name)
{
	for (size_t i = 0; i < cp->ngroups; i++)
		if (!strcmp(cp->groups[i].name, name))
			return assay_load__node_err(&ld->ds, node, ld->err, ASSAY_EINVALID,
						    "two groups named '%s' in checkpoint '%s'",
						    name, cp->name);
	return 0;
}

/* An optional string member; *out stays NULL when absent. */
static int get_string(struct loader *ld, const json_t *obj, const char *key, const char **out,
		      const char *what)
{
	const json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return bad(ld, v, what);
	*out = json_string_value(v);
	return 0;
}

static char *suite_path(struct loader *ld, const char *rel)
{
	char *joined = assay_path_join(ld->suite->root, rel);
	char *abs = assay_path_absolute(joined);
	free(joined);
	return abs;
}

static int load_adapter(struct loader *ld, const json_t *a)
{
	assay_suite *s = ld->suite;
	const char *type = NULL, *submission = NULL;
	int rc;

	if (!json_is_object(a))
		return bad(ld, a ? a : ld->doc.root, "adapter must be a mapping with a type");
	warn_keys(ld, a, adapter_keys, "adapter");
	if ((rc = get_string(ld, a, "type", &type, "adapter.type must be cli or api")))
		return rc;
	if (!type)
		return bad(ld, a, "adapter.type is required (cli or api)");
	if (!strcmp(type, "cli"))
		s->adapter = ASSAY_ADAPTER_CLI;
	else if (!strcmp(type, "api"))
		s->adapter = ASSAY_ADAPTER_API;
	else
		return bad(ld, json_object_get(a, "type"), "adapter.type must be cli or api");
	if ((rc = assay_load__argv(&s->command, json_object_get(a, "command"), "adapter.command",
				   &ld->ds, ld->err)))
		return rc;
	if ((rc = get_string(ld, a, "submission", &submission,
			     "adapter.submission must be a folder path")))
		return rc;
	if (submission)
		s->submission = suite_path(ld, submission);
	s->timeout = 10;
	if ((rc = assay_load__timeout(&s->timeout, json_object_get(a, "timeout"), &ld->ds,
				      ld->err)))
		return rc;
	if ((rc = assay_load__env(&ld->adapter_env, json_object_get(a, "env"), &ld->ds, ld->err)))
		return rc;

	const json_t *tracked = json_object_get(a, "tracked_files");
	size_t i;
	json_t *item;
	if (tracked && !json_is_null(tracked)) {
		if (!json_is_array(tracked))
			return bad(ld, tracked, "adapter.tracked_files must be a list of globs");
		json_array_foreach(tracked, i, item) {
			if (!json_is_string(item))
				return bad(ld, item, "adapter.tracked_files items must be strings");
			assay_strvec_push(&s->tracked_files, json_string_value(item));
		}
	}
	return 0;
}

static int load_assets(struct loader *ld, const json_t *v)
{
	const char *name;
	json_t *spec;

	ld->assets = json_object();
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return bad(ld, v, "static_assets must be a mapping NAME: {path: ...}");
	json_object_foreach((json_t *)v, name, spec) {
		const json_t *path = json_is_object(spec) ? json_object_get(spec, "path") : spec;
		if (!json_is_string(path))
			return bad(ld, spec, "a static asset needs a path (relative to the suite)");
		char *abs = suite_path(ld, json_string_value(path));
		if (!assay_fs_exists(abs))
			warnf(ld, path, "static asset '%s' does not exist: %s", name, abs);
		json_object_set_new(ld->assets, name, json_string(abs));
		free(abs);
	}
	return 0;
}

/* ---- cases --------------------------------------------------------------------------- */

struct found {
	char *id;
	char *file;
	char *files_dir;
};

static int cmp_found(const void *a, const void *b)
{
	return strcmp(((const struct found *)a)->id, ((const struct found *)b)->id);
}

static bool has_suffix(const char *s, const char *suffix, size_t *stem)
{
	size_t n = strlen(s), m = strlen(suffix);
	if (n <= m || strcmp(s + n - m, suffix))
		return false;
	*stem = n - m;
	return true;
}

static char *case_file_in(const char *dir)
{
	static const char *const names[] = { "case.yaml", "case.yml", "case.json" };
	for (size_t i = 0; i < 3; i++) {
		char *p = assay_path_join(dir, names[i]);
		if (assay_fs_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Lists the cases in `dir`, sorted by id; a case glob filters them. */
static struct found *find_cases(struct loader *ld, const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct found *list = NULL;
	size_t nr = 0, alloc = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t stem = 0;
		char *path, *file = NULL, *files_dir = NULL;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = assay_path_join(dir, e->d_name);
		if (stat(path, &st)) {
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
		if (ld->filter && ld->filter->case_glob &&
		    fnmatch(ld->filter->case_glob, id, 0)) {
			free(id);
			free(file);
			free(files_dir);
			continue;
		}
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			list = assay_xrealloc(list, alloc * sizeof(*list));
		}
		list[nr++] = (struct found){ id, file, files_dir };
	}
	closedir(d);
	if (nr)
		qsort(list, nr, sizeof(*list), cmp_found);
	*n = nr;
	return list;
}

/* Moves the ids listed in case_order to the front, in that order. */
static void apply_case_order(struct loader *ld, struct found *list, size_t n,
			     const json_t *order)
{
	size_t next = 0, i;
	json_t *item;

	json_array_foreach(order, i, item) {
		const char *id = json_string_value(item);
		size_t j;
		for (j = next; id && j < n; j++)
			if (!strcmp(list[j].id, id))
				break;
		if (!id || j >= n) {
			if (!(ld->filter && ld->filter->case_glob))
				warnf(ld, item, "case_order names '%s', which is not a case%s",
				      id ? id : "?", "");
			continue;
		}
		struct found f = list[j];
		memmove(&list[next + 1], &list[next], (j - next) * sizeof(*list));
		list[next++] = f;
	}
}

struct group_cfg {
	const json_t *node;          /* the group's mapping in suite.yaml */
	const json_t *case_defaults;
	const json_t *case_order;
	double timeout;              /* group, else checkpoint, else adapter */
	const assay_strvec *env;     /* adapter + checkpoint env */
};

static void case_error(assay_case *c, const assay_err *e)
{
	char msg[1200];
	c->error = assay_xstrdup(assay_err_format(e, msg, sizeof(msg)));
	/* Loading stopped part way: what was read of the expectations is not the case's. */
	json_decref(c->expected);
	c->expected = NULL;
}

static void load_one_case(struct loader *ld, assay_case *c, const struct group_cfg *g)
{
	struct doc cdoc = DOC_INIT;
	assay_err e = ASSAY_ERR_INIT;
	json_t *merged = NULL, *def = NULL;

	if (assay_load__doc(&cdoc, c->file, &e)) {
		case_error(c, &e);
		goto out;
	}
	struct docset ds = { { &cdoc, &ld->doc }, 2 };
	if (!json_is_object(cdoc.root)) {
		assay_load__node_err(&ds, cdoc.root, &e, ASSAY_EINVALID,
				     "a case file must hold a mapping");
		case_error(c, &e);
		goto out;
	}
	json_t *base = assay_load__merge(ld->defaults, g->case_defaults);
	merged = assay_load__merge(base, cdoc.root);
	json_decref(base);
	/* A shell-quoted arguments string is split before {{static:}} is replaced, so an asset
	 * path with spaces stays one word. */
	json_t *args = json_object_get(merged, "arguments");
	if (json_is_string(args)) {
		assay_strvec words = ASSAY_STRVEC_INIT;
		if (assay_load__argv(&words, args, "arguments", &ds, &e)) {
			assay_strvec_clear(&words);
			case_error(c, &e);
			goto out;
		}
		json_t *list = json_array();
		for (size_t i = 0; i < words.nr; i++)
			json_array_append_new(list, json_string(words.v[i]));
		assay_strvec_clear(&words);
		json_t *copy = json_copy(merged);
		json_object_set_new(copy, "arguments", list);
		json_decref(merged);
		merged = copy;
	}
	def = assay_load__substitute(merged, ld->assets, &ds, &e);
	if (!def) {
		case_error(c, &e);
		goto out;
	}
	struct case_ctx ctx = { &ds, cdoc.root, ld->suite->adapter, g->env, g->timeout, ld->warn,
				ld->payload };
	if (assay_load__case(c, def, &ctx, &e))
		case_error(c, &e);
out:
	json_decref(def);
	json_decref(merged);
	assay_load__doc_release(&cdoc);
}

static void load_cases(struct loader *ld, assay_group *grp, const struct group_cfg *g)
{
	size_t n;
	struct found *list = find_cases(ld, grp->dir, &n);

	if (!assay_fs_is_dir(grp->dir))
		warnf(ld, g->node, "group '%s' has no folder %s", grp->name, grp->dir);
	if (g->case_order && json_is_array(g->case_order))
		apply_case_order(ld, list, n, g->case_order);
	grp->cases = assay_xcalloc(n ? n : 1, sizeof(*grp->cases));
	for (size_t i = 0; i < n; i++) {
		assay_case *c = &grp->cases[grp->ncases++];
		c->id = list[i].id;
		c->file = list[i].file;
		c->files_dir = list[i].files_dir;
		if (i && !strcmp(list[i - 1].id, c->id)) {
			assay_err e = ASSAY_ERR_INIT;
			assay_err_set(&e, ASSAY_EINVALID, c->file, 0, 0,
				      "duplicate case id '%s' (also %s)", c->id, list[i - 1].file);
			case_error(c, &e);
			continue;
		}
		load_one_case(ld, c, g);
	}
	free(list);
	ld->suite->ncases += grp->ncases;
	for (size_t i = 0; i < grp->ncases; i++)
		ld->suite->nerrors += grp->cases[i].error != NULL;
}

/* ---- checkpoints and groups ------------------------------------------------------------ */

static int parse_group_type(struct loader *ld, const json_t *v, assay_group_type *out)
{
	static const char *const names[] = { "Core", "Functionality", "Error", "Regression" };
	const char *s = json_string_value(v);

	*out = ASSAY_GROUP_FUNCTIONALITY;
	if (!v || json_is_null(v))
		return 0;
	for (int i = 0; s && i < 4; i++) {
		if (!strcasecmp(s, names[i])) {
			*out = (assay_group_type)i;
			return 0;
		}
	}
	return bad(ld, v, "group type must be Core, Functionality, Error or Regression");
}

static bool group_wanted(struct loader *ld, const char *name)
{
	return !(ld->filter && ld->filter->group_glob && fnmatch(ld->filter->group_glob, name, 0));
}

/* Reads one group's settings; `cp_timeout` is the checkpoint's (or adapter's) timeout. */
static int group_settings(struct loader *ld, const json_t *gnode, double cp_timeout,
			  struct group_cfg *cfg, assay_group_type *type, bool *isolated)
{
	int rc;
	const json_t *v;

	if (!json_is_object(gnode) && !json_is_null(gnode))
		return bad(ld, gnode, "a group must be a mapping (type, isolated, timeout, ...)");
	warn_keys(ld, gnode, group_keys, "group");
	if ((rc = parse_group_type(ld, json_object_get(gnode, "type"), type)))
		return rc;
	*isolated = true;
	v = json_object_get(gnode, "isolated");
	if (v && !json_is_null(v)) {
		if (!json_is_boolean(v))
			return bad(ld, v, "isolated must be true or false");
		*isolated = json_is_true(v);
	}
	cfg->node = gnode;
	cfg->timeout = cp_timeout;
	if ((rc = assay_load__timeout(&cfg->timeout, json_object_get(gnode, "timeout"), &ld->ds,
				      ld->err)))
		return rc;
	cfg->case_defaults = json_object_get(gnode, "case_defaults");
	if (cfg->case_defaults && !json_is_object(cfg->case_defaults) &&
	    !json_is_null(cfg->case_defaults))
		return bad(ld, cfg->case_defaults, "case_defaults must be a mapping");
	cfg->case_order = json_object_get(gnode, "case_order");
	if (cfg->case_order && !json_is_array(cfg->case_order) && !json_is_null(cfg->case_order))
		return bad(ld, cfg->case_order, "case_order must be a list of case ids");
	return 0;
}

static const json_t *find_checkpoint(struct loader *ld, const char *name)
{
	return json_object_get(json_object_get(ld->doc.root, "checkpoints"), name);
}

static char *checkpoint_dir(struct loader *ld, const char *name, const json_t *cnode)
{
	const char *path = json_string_value(json_object_get(cnode, "path"));
	return suite_path(ld, path ? path : name);
}

/* A new, zeroed group at the end of cp->groups. Earlier group pointers become invalid. */
static assay_group *new_group(assay_checkpoint *cp)
{
	cp->groups = assay_xrealloc(cp->groups, (cp->ngroups + 1) * sizeof(*cp->groups));
	assay_group *g = &cp->groups[cp->ngroups++];
	memset(g, 0, sizeof(*g));
	return g;
}

static int load_regressions(struct loader *ld, assay_checkpoint *cp, const json_t *list,
			    const assay_strvec *env, double cp_timeout)
{
	size_t i, j;
	json_t *entry, *gname;
	int rc;

	if (!list || json_is_null(list))
		return 0;
	if (!json_is_array(list))
		return bad(ld, list, "regressions must be a list of {checkpoint, groups}");
	json_array_foreach(list, i, entry) {
		const char *ocp = json_string_value(json_object_get(entry, "checkpoint"));
		const json_t *groups = json_object_get(entry, "groups");
		const json_t *ocnode = ocp ? find_checkpoint(ld, ocp) : NULL;
		if (!ocnode)
			return bad(ld, entry, "a regression names a checkpoint that does not exist");
		const json_t *ogroups = json_object_get(ocnode, "groups");
		json_t *names;
		if (!groups || json_is_null(groups)) {
			/* No list: every group of that checkpoint. */
			const char *k;
			json_t *v;
			names = json_array();
			json_object_foreach((json_t *)ogroups, k, v)
				json_array_append_new(names, json_string(k));
		} else if (json_is_array(groups)) {
			names = json_incref((json_t *)groups);
		} else {
			return bad(ld, groups, "regression groups must be a list of group names");
		}
		rc = 0;
		json_array_foreach(names, j, gname) {
			const char *og = json_string_value(gname);
			const json_t *gnode = og ? json_object_get(ogroups, og) : NULL;
			if (!gnode) {
				rc = bad(ld, gname, "a regression names a group that does not exist");
				break;
			}
			char *name = assay_xasprintf("%s_%s", ocp, og);
			if ((rc = check_unique_group(ld, cp, gname, name))) {
				free(name);
				break;
			}
			if (!group_wanted(ld, name)) {
				free(name);
				continue;
			}
			struct group_cfg cfg = { 0 };
			assay_group_type type;
			bool isolated;
			if ((rc = group_settings(ld, gnode, cp_timeout, &cfg, &type, &isolated))) {
				free(name);
				break;
			}
			cfg.env = env;
			assay_group *grp = new_group(cp);
			grp->name = name;
			grp->type = ASSAY_GROUP_REGRESSION;
			grp->isolated = isolated;
			grp->original_checkpoint = assay_xstrdup(ocp);
			grp->original_group = assay_xstrdup(og);
			char *odir = checkpoint_dir(ld, ocp, ocnode);
			grp->dir = assay_path_join(odir, og);
			free(odir);
			load_cases(ld, grp, &cfg);
		}
		json_decref(names);
		if (rc)
			return rc;
	}
	return 0;
}

static int load_checkpoint(struct loader *ld, assay_checkpoint *cp, const char *name,
			   const json_t *cnode)
{
	const char *key;
	json_t *gnode;
	int rc;
	assay_strvec env = ASSAY_STRVEC_INIT;
	const char *submission = NULL;

	if (!json_is_object(cnode))
		return bad(ld, cnode, "a checkpoint must be a mapping with groups");
	if ((rc = check_name(ld, cnode, name, "checkpoint")))
		return rc;
	warn_keys(ld, cnode, checkpoint_keys, "checkpoint");
	cp->name = assay_xstrdup(name);
	const json_t *order = json_object_get(cnode, "order");
	if (order && !json_is_integer(order))
		return bad(ld, order, "checkpoint order must be an integer");
	cp->order = order ? (int)json_integer_value(order) : 0;
	const char *path = NULL;
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
	double timeout = ld->suite->timeout;
	if ((rc = assay_load__timeout(&timeout, json_object_get(cnode, "timeout"), &ld->ds,
				      ld->err)))
		return rc;
	assay_strvec_pushv(&env, (const char *const *)ld->adapter_env.v);
	if ((rc = assay_load__env(&env, json_object_get(cnode, "env"), &ld->ds, ld->err)))
		goto out;

	const json_t *groups = json_object_get(cnode, "groups");
	if (!json_is_object(groups) || !json_object_size(groups)) {
		rc = bad(ld, groups ? groups : cnode, "a checkpoint needs a mapping of groups");
		goto out;
	}
	char *cdir = checkpoint_dir(ld, name, cnode);
	json_object_foreach((json_t *)groups, key, gnode) {
		struct group_cfg cfg = { 0 };
		assay_group_type type;
		bool isolated;
		const char *ocp = NULL, *og = NULL;

		if ((rc = group_settings(ld, gnode, timeout, &cfg, &type, &isolated)) ||
		    (rc = get_string(ld, gnode, "original_checkpoint", &ocp,
				     "original_checkpoint must be a checkpoint name")) ||
		    (rc = get_string(ld, gnode, "original_group", &og,
				     "original_group must be a group name")))
			break;
		if (!ocp != !og) {
			rc = bad(ld, gnode, "original_checkpoint and original_group go together");
			break;
		}
		if ((rc = check_name(ld, gnode, key, "group")) ||
		    (rc = check_unique_group(ld, cp, gnode, key)))
			break;
		if (!group_wanted(ld, key))
			continue;
		cfg.env = &env;
		assay_group *grp = new_group(cp);
		grp->name = assay_xstrdup(key);
		grp->type = type;
		grp->isolated = isolated;
		if (ocp) {
			const json_t *ocnode = find_checkpoint(ld, ocp);
			if (!ocnode) {
				rc = bad(ld, json_object_get(gnode, "original_checkpoint"),
					 "original_checkpoint names a checkpoint that does not exist");
				break;
			}
			grp->type = ASSAY_GROUP_REGRESSION;
			grp->original_checkpoint = assay_xstrdup(ocp);
			grp->original_group = assay_xstrdup(og);
			char *odir = checkpoint_dir(ld, ocp, ocnode);
			grp->dir = assay_path_join(odir, og);
			free(odir);
		} else {
			grp->dir = assay_path_join(cdir, key);
		}
		load_cases(ld, grp, &cfg);
	}
	free(cdir);
	if (!rc)
		rc = load_regressions(ld, cp, json_object_get(cnode, "regressions"), &env, timeout);
out:
	assay_strvec_clear(&env);
	return rc;
}

static int cmp_checkpoint(const void *a, const void *b)
{
	const assay_checkpoint *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
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

static int load(struct loader *ld, const char *dir)
{
	assay_suite *s = ld->suite;
	char *file = NULL;
	int rc;

	if (!assay_fs_is_dir(dir))
		return assay_err_set(ld->err, ASSAY_ENOTFOUND, dir, 0, 0, "no such suite folder");
	s->root = assay_path_absolute(dir);
	if (find_suite_file(&file, s->root))
		return assay_err_set(ld->err, ASSAY_ENOTFOUND, s->root, 0, 0,
				     "no suite.yaml in this folder");
	rc = assay_load__doc(&ld->doc, file, ld->err);
	free(file);
	if (rc)
		return rc;
	ld->ds = (struct docset){ { &ld->doc }, 1 };
	const json_t *root = ld->doc.root;
	if (!json_is_object(root))
		return bad(ld, root, "suite.yaml must hold a mapping");
	warn_keys(ld, root, top_keys, "suite.yaml");
	s->raw = json_incref((json_t *)root);

	const char *name = NULL, *desc = NULL;
	if ((rc = get_string(ld, root, "name", &name, "name must be a string")) ||
	    (rc = get_string(ld, root, "description", &desc, "description must be a string")))
		return rc;
	if (!name)
		return bad(ld, root, "suite.yaml needs a name");
	s->name = assay_xstrdup(name);
	s->description = assay_xstrdup(desc ? desc : "");
	if ((rc = load_adapter(ld, json_object_get(root, "adapter"))) ||
	    (rc = load_assets(ld, json_object_get(root, "static_assets"))))
		return rc;
	ld->defaults = json_object_get(root, "defaults");
	if (ld->defaults && !json_is_object(ld->defaults) && !json_is_null(ld->defaults))
		return bad(ld, ld->defaults, "defaults must be a case mapping");

	const json_t *cps = json_object_get(root, "checkpoints");
	if (!json_is_object(cps) || !json_object_size(cps))
		return bad(ld, cps ? cps : root, "suite.yaml needs a mapping of checkpoints");
	s->checkpoints = assay_xcalloc(json_object_size(cps), sizeof(*s->checkpoints));
	const char *key;
	json_t *cnode;
	json_object_foreach((json_t *)cps, key, cnode) {
		if (ld->filter && ld->filter->checkpoint && strcmp(ld->filter->checkpoint, key))
			continue;
		rc = load_checkpoint(ld, &s->checkpoints[s->ncheckpoints++], key, cnode);
		if (rc)
			return rc;
	}
	if (!s->ncheckpoints)
		return assay_err_set(ld->err, ASSAY_EINVALID, ld->doc.path, 0, 0,
				     "no checkpoint named '%s'", ld->filter->checkpoint);
	/* qsort is not stable: checkpoints with equal order keep file order via index. */
	for (size_t i = 1; i < s->ncheckpoints; i++) {
		for (size_t j = i; j > 0 && cmp_checkpoint(&s->checkpoints[j - 1],
							    &s->checkpoints[j]) > 0; j--) {
			assay_checkpoint t = s->checkpoints[j];
			s->checkpoints[j] = s->checkpoints[j - 1];
			s->checkpoints[j - 1] = t;
		}
	}
	return 0;
}

int assay_suite_load(assay_suite **out, const char *dir, const assay_suite_filter *filter,
		     assay_warn_fn warn, void *payload, assay_err *err)
{
	struct loader ld = { 0 };
	int rc;

	ld.suite = assay_xcalloc(1, sizeof(*ld.suite));
	ld.filter = filter;
	ld.warn = warn;
	ld.payload = payload;
	ld.err = err;
	ld.doc = (struct doc)DOC_INIT;
	ld.adapter_env = (assay_strvec)ASSAY_STRVEC_INIT;
	rc = load(&ld, dir);
	json_decref(ld.assets);
	assay_strvec_clear(&ld.adapter_env);
	assay_load__doc_release(&ld.doc);
	if (rc) {
		assay_suite_free(ld.suite);
		*out = NULL;
		return rc;
	}
	*out = ld.suite;
	return 0;
}
