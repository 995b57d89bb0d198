/*
 * The verifier registry and the framework around one verifier call: find the verifier named by
 * `verify.<attribute>.verifier`, check its options, read the weight, run it. Also the helpers
 * verifiers share (option readers, the expected value as text).
 *
 * Key decisions:
 * - Lookup order: registered verifiers, newest first, then the built-in ones; so a plug-in can
 *   replace a built-in verifier by registering the same name.
 * - Every option name is checked against the verifier's list before it runs: a misspelt option
 *   ("ignore_cse") is an error of the case, never silently ignored.
 * - The weight is set before the verifier runs, so a verifier may still decide its own. It must
 *   be a finite number > 0 (int, bigint or real; a bigint counts as its rounded value); `null`
 *   is refused, since a weight of nothing is a suite bug.
 * - A verifier always gets an options object: a static empty one when the entry is absent.
 * - An option that is absent or null is left at its default (YAML's `key:` with no value);
 *   one of the wrong kind is an error naming the option. Option strings are handed out as C
 *   strings (the loader makes them in an arena, where strings end in NUL; a string borrowed
 *   from parsed text would not), so one holding a NUL byte is refused rather than cut.
 * - The expected value of a text attribute may be a scalar: YAML turns `expected: {output: 42}`
 *   into a number, and the user meant the text "42". Integers and bigints are written as their
 *   digits, reals as Python's repr (assay_format_double: 1.0, 1e+16, nan), booleans as
 *   true/false, datetimes as their text. null, lists and mappings are refused.
 * - The verifier's diff lives in the call's arena; a verifier that refuses (returns an error)
 *   leaves no diff behind, whatever it had made.
 * - An unknown verifier's message lists every known name, built in and registered, names the
 *   closest one, or else says how a plug-in's verifier is loaded; an unknown option names the
 *   closest option.
 * - `diff` is an option of every verifier (verify_diffs.c): how a failed attribute's diff is
 *   shown (simple, lines, unified, visual, structural; verification.md "Diff Generation
 *   Strategies"); its value is checked with the entry.
 *
 * Refuses: thread-safe registration (register at start-up, before verifiers run in threads);
 * unregistering.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/verify.h"
#include "load/load_int.h" /* assay_load__closest: the name meant */
#include "verify/verify_int.h"
#include "verify/verify_lib.h"
#include "util/banned.h"

static const assay_verifier *const builtins[] = {
	&assay_verifier_exact,
	&assay_verifier_text,
	&assay_verifier_contains,
	&assay_verifier_regex,
	&assay_verifier_json,
	&assay_verifier_jsonl,
	&assay_verifier_yaml,
	&assay_verifier_toml,
	&assay_verifier_ini,
	&assay_verifier_csv,
	&assay_verifier_tsv,
	&assay_verifier_numeric,
	&assay_verifier_json_fields,
	&assay_verifier_json_keys,
	&assay_verifier_json_schema,
	&assay_verifier_file,
	&assay_verifier_flexible,
	&assay_verifier_command,
};

static const assay_verifier **registered;
static size_t nregistered;
static size_t registered_alloc;

/* What a verifier gets when its verify entry is absent. */
static const assay_value empty_options = { .kind = ASSAY_V_OBJECT };

const assay_verifier *assay_verifier_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = nregistered; i-- > 0;)
		if (!strcmp(registered[i]->name, name))
			return registered[i];
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i]->name, name))
			return builtins[i];
	return NULL;
}

int assay_verifier_register(const assay_verifier *v)
{
	if (!v || !v->name || !v->name[0] || !v->fn)
		return ASSAY_EINVALID;
	if (nregistered == registered_alloc) {
		registered_alloc = registered_alloc ? registered_alloc * 2 : 8;
		registered = assay_xrealloc(registered, registered_alloc * sizeof(*registered));
	}
	registered[nregistered++] = v;
	return 0;
}

/* What a message quotes of a name it does not know: 64 bytes and "...", so that the list of the
 * names it may be fits the message (assay_err's 512 bytes) whatever was written. */
#define ELLIPSIS(name) (strlen(name) > 64 ? "..." : "")

/* "unknown verifier 'x' (known: exact, text, ...)": every name a verify entry may use. */
static int unknown_verifier(const char *name, assay_err *err)
{
	assay_buf known = ASSAY_BUF_INIT;
	int rc;

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		assay_buf_addf(&known, "%s%s", i ? ", " : "", builtins[i]->name);
	for (size_t i = 0; i < nregistered; i++) {
		bool dup = false;

		for (size_t j = 0; j < sizeof(builtins) / sizeof(builtins[0]) && !dup; j++)
			dup = !strcmp(builtins[j]->name, registered[i]->name);
		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(registered[j]->name, registered[i]->name);
		if (!dup)
			assay_buf_addf(&known, ", %s", registered[i]->name);
	}
	/* the names again, as a list, for the closest one */
	size_t n = sizeof(builtins) / sizeof(builtins[0]);
	const char **names = assay_xcalloc(n + nregistered + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = builtins[i]->name;
	for (size_t i = 0; i < nregistered; i++)
		names[n + i] = registered[i]->name;
	const char *meant = assay_load__closest(name, names);
	if (meant)
		rc = assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0,
				   "unknown verifier '%.64s%s' (did you mean '%s'? known: %s)",
				   name, ELLIPSIS(name), meant, known.ptr);
	else
		rc = assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0,
				   "unknown verifier '%.64s%s' (known: %s; a plug-in's verifier "
				   "needs its shared object loaded: --plugin PATH, or plugins: "
				   "[PATH] in suite.yaml)", name, ELLIPSIS(name), known.ptr);
	free(names);
	assay_buf_release(&known);
	return rc;
}

static bool key_is(const assay_value *key, const char *name)
{
	size_t n = strlen(name);

	return key->len == n && (!n || !memcmp(key->u.s, name, n));
}

static bool accepts(const assay_verifier *v, const assay_value *key)
{
	if (key_is(key, "verifier") || key_is(key, "weight") || key_is(key, "diff") ||
	    key_is(key, "allow_truncated"))
		return true;
	for (const char *const *o = v->options; o && *o; o++)
		if (key_is(key, *o))
			return true;
	return false;
}

/* "unknown option 'ignore_ordr' for verifier 'json' (did you mean 'ignore_order'?)" */
static int unknown_option(const assay_verifier *v, const assay_value *key, assay_err *err)
{
	size_t n = 0;
	const char **names;
	const char *meant = NULL;
	int rc;

	for (const char *const *o = v->options; o && *o; o++)
		n++;
	names = assay_xcalloc(n + 5, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = v->options[i];
	names[n] = "verifier";
	names[n + 1] = "weight";
	names[n + 2] = "diff";
	names[n + 3] = "allow_truncated";
	if (key->len && !memchr(key->u.s, '\0', key->len))
		meant = assay_load__closest(key->u.s, names);
	rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			   "unknown option '%.*s' for verifier '%s'%s%s%s", (int)key->len,
			   key->len ? key->u.s : "", v->name, meant ? " (did you mean '" : "",
			   meant ? meant : "", meant ? "'?)" : "");
	free(names);
	return rc;
}

/* A number as a message shows it: an integer's digits, a real as Python's repr. */
static void add_number(assay_buf *b, const assay_value *v)
{
	char tmp[ASSAY_DOUBLE_BUFSIZE];

	if (v->kind == ASSAY_V_INT)
		assay_buf_addf(b, "%" PRId64, v->u.i);
	else if (v->kind == ASSAY_V_BIGINT)
		assay_buf_add(b, v->u.s, v->len);
	else
		assay_buf_add(b, tmp, assay_format_double(tmp, v->u.d));
}

static int read_weight(double *out, const assay_value *options, assay_err *err)
{
	const assay_value *w = assay_object_get(options, "weight");
	double v;

	if (!w)
		return 0;
	if (!assay_value_is_number(w))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "weight must be a number > 0");
	v = assay_value_number(w);
	if (!(v > 0) || !isfinite(v)) {
		assay_buf got = ASSAY_BUF_INIT;
		add_number(&got, w);
		int rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				       "weight must be a number > 0 (got %s)", got.ptr);
		assay_buf_release(&got);
		return rc;
	}
	*out = v;
	return 0;
}

int assay_verify_check(const assay_verifier **verifier_out, double *weight_out,
		       const assay_value *options, const char *attribute, assay_err *err)
{
	const char *name = "exact";
	double weight = 1.0;
	int rc;

	if (!options)
		options = &empty_options;
	if (options->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "verify.%s must be a mapping",
				     attribute ? attribute : "<attribute>");
	if ((rc = assay_verify_opt_string(options, "verifier", &name, err)))
		return rc;
	const assay_verifier *v = assay_verifier_find(name);
	if (!v)
		return unknown_verifier(name, err);
	for (uint32_t i = 0; i < options->len; i++) {
		const assay_value *key = &options->u.members[i].key;
		if (!accepts(v, key))
			return unknown_option(v, key, err);
	}
	bool cut_ok = false;
	if ((rc = read_weight(&weight, options, err)) ||
	    (rc = assay_verify_opt_bool(options, "allow_truncated", &cut_ok, err)) ||
	    (rc = assay_verify__diff_strategy(NULL, options, err)))
		return rc;
	/* a command verifier without its program fails every run of the case: say so at load */
	if (v == &assay_verifier_command && (rc = assay_verify__command_check(options, err)))
		return rc;
	if (verifier_out)
		*verifier_out = v;
	if (weight_out)
		*weight_out = weight;
	return 0;
}

/* Only blanks (spaces, tabs, line ends), and no NUL. */
static bool blank(const assay_value *s)
{
	for (uint32_t i = 0; i < s->len; i++)
		if (!strchr(" \t\n\r\v\f", s->u.s[i]) || !s->u.s[i])
			return false;
	return true;
}

/* Whether verifier `v` with entry `entry` accepts any output for expected text `expected`:
 * every text contains "", and flexible (verification.md Pattern 1: `exp_clean in act_clean`,
 * after strip) takes a blank text as empty. */
static bool matches_any(const assay_verifier *v, const assay_value *entry,
			const assay_value *expected)
{
	const assay_value *match = assay_object_get(entry, "match");
	const assay_value *contains = assay_object_get(entry, "contains");

	if (!expected || expected->kind != ASSAY_V_STRING)
		return false;
	if (!strcmp(v->name, "flexible"))
		return blank(expected) &&
		       !(contains && contains->kind == ASSAY_V_BOOL && !contains->u.b);
	return !expected->len &&
	       (v == &assay_verifier_contains ||
		(v == &assay_verifier_regex && match && !assay_value_is_str(match, "full")));
}

int assay_verify__load_check(struct assay_load_verifier *out, const assay_value *entry,
			     const assay_value *expected, const char *attribute, assay_err *err)
{
	const assay_verifier *v = NULL;
	int rc = assay_verify_check(&v, NULL, entry, attribute, err);

	if (rc)
		return rc;
	out->name = v->name;
	out->matches_any = matches_any(v, entry, expected);
	return 0;
}

int assay_verify_attribute(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const assay_verifier *v;
	double weight;
	int rc = assay_verify_check(&v, &weight, call->options, call->attribute, err);

	if (rc)
		return rc;
	assay_verify_call c = *call;
	if (!c.options)
		c.options = &empty_options;
	out->weight = weight;
	/* the parsers stop at the budget's time through the arena (assay_arena_check) */
	double before = c.arena ? assay_arena_set_deadline(c.arena, c.deadline) : 0;
	rc = v->fn(out, &c, err);
	if (c.arena)
		assay_arena_set_deadline(c.arena, before);
	if (!rc)
		assay_verify__render_diff(out, &c);
	if (rc) {
		out->diff = assay_value_null();
		out->is_correct = false;
		/* A verifier that fails without saying why still leaves a message. */
		assay_err_set(err, rc, NULL, 0, 0, "verifier '%s' failed on %s", v->name,
			      call->attribute ? call->attribute : "attribute");
	}
	return rc;
}

/* The value of option `name`, or NULL when it is absent or null (left at its default). */
static const assay_value *option(const assay_value *options, const char *name)
{
	const assay_value *v = assay_object_get(options, name);

	return v && v->kind != ASSAY_V_NULL ? v : NULL;
}

int assay_verify_opt_bool(const assay_value *options, const char *name, bool *out,
			  assay_err *err)
{
	const assay_value *v = option(options, name);

	if (!v)
		return 0;
	if (v->kind != ASSAY_V_BOOL)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be true or false", name);
	*out = v->u.b;
	return 0;
}

int assay_verify_opt_string(const assay_value *options, const char *name, const char **out,
			    assay_err *err)
{
	const assay_value *v = option(options, name);

	if (!v)
		return 0;
	if (v->kind != ASSAY_V_STRING)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be a string", name);
	if (v->len && memchr(v->u.s, '\0', v->len))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must not contain a NUL byte", name);
	*out = v->len ? v->u.s : "";
	return 0;
}

int assay_verify_opt_number(const assay_value *options, const char *name, double min,
			    double *out, assay_err *err)
{
	const assay_value *v = option(options, name);
	double d;

	if (!v)
		return 0;
	if (!assay_value_is_number(v))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be a number", name);
	d = assay_value_number(v);
	if (!isfinite(d) || d < min) {
		assay_buf got = ASSAY_BUF_INIT;
		add_number(&got, v);
		int rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				       "option '%s' must be a number >= %g (got %s)", name, min,
				       got.ptr);
		assay_buf_release(&got);
		return rc;
	}
	*out = d;
	return 0;
}

int assay_verify_expected_text(const char **out, size_t *len, const assay_value *expected,
			       struct assay_buf *scratch, const char *attribute, assay_err *err)
{
	char tmp[ASSAY_DOUBLE_BUFSIZE];

	if (!expected)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     attribute ? attribute : "value");
	switch ((assay_kind)expected->kind) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
		*out = expected->len ? expected->u.s : "";
		*len = expected->len;
		return 0;
	case ASSAY_V_INT:
		assay_buf_reset(scratch);
		assay_buf_addf(scratch, "%" PRId64, expected->u.i);
		break;
	case ASSAY_V_REAL:
		assay_buf_reset(scratch);
		assay_buf_add(scratch, tmp, assay_format_double(tmp, expected->u.d));
		break;
	case ASSAY_V_BOOL:
		*out = expected->u.b ? "true" : "false";
		*len = strlen(*out);
		return 0;
	case ASSAY_V_NULL:
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
	default:
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected %s must be a string for a text verifier; use "
				     "verifier json for structured values",
				     attribute ? attribute : "value");
	}
	*out = scratch->ptr;
	*len = scratch->len;
	return 0;
}
