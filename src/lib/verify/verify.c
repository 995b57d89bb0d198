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
 * - The weight is set before the verifier runs, so a verifier may still decide its own.
 * - The expected value of a text attribute may be a scalar: YAML turns `expected: {output: 42}`
 *   into a number, and the user meant the text "42". Reals are written as Python writes them
 *   (assay_json_dump), integers in decimal, booleans as true/false, big numbers as written.
 *
 * Refuses: thread-safe registration (register at start-up, before verifiers run in threads);
 * unregistering.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/verify.h"
#include "util/banned.h"

static const assay_verifier *const builtins[] = {
	&assay_verifier_exact,
	&assay_verifier_text,
	&assay_verifier_contains,
	&assay_verifier_regex,
	&assay_verifier_json,
	&assay_verifier_jsonl,
};

static const assay_verifier **registered;
static size_t nregistered;
static size_t registered_alloc;

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

static bool accepts(const assay_verifier *v, const char *key)
{
	if (!strcmp(key, "verifier") || !strcmp(key, "weight"))
		return true;
	for (const char *const *o = v->options; o && *o; o++)
		if (!strcmp(*o, key))
			return true;
	return false;
}

static int read_weight(double *out, const json_t *options, assay_err *err)
{
	const json_t *w = json_object_get(options, "weight");
	double v;

	if (!w)
		return 0;
	if (json_is_integer(w))
		v = (double)json_integer_value(w);
	else if (json_is_real(w))
		v = json_real_value(w);
	else
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "weight must be a number > 0");
	if (!(v > 0) || !isfinite(v))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "weight must be a number > 0 (got %g)", v);
	*out = v;
	return 0;
}

int assay_verify_check(const assay_verifier **verifier_out, double *weight_out,
		       const json_t *options, const char *attribute, assay_err *err)
{
	const char *name = "exact";
	const char *key;
	json_t *value;
	int rc;

	if (!options)
		options = json_object(); /* a fresh empty object: nothing to read */
	else
		json_incref((json_t *)options);
	if (!json_is_object(options)) {
		rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "verify.%s must be a mapping",
				   attribute ? attribute : "<attribute>");
		goto out;
	}
	if ((rc = assay_verify_opt_string(options, "verifier", &name, err)))
		goto out;
	const assay_verifier *v = assay_verifier_find(name);
	if (!v) {
		rc = assay_err_set(err, ASSAY_ENOTFOUND, NULL, 0, 0, "unknown verifier '%s'", name);
		goto out;
	}
	json_object_foreach((json_t *)options, key, value) {
		if (!accepts(v, key)) {
			rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					   "unknown option '%s' for verifier '%s'", key, v->name);
			goto out;
		}
	}
	double weight = 1.0;
	if ((rc = read_weight(&weight, options, err)))
		goto out;
	if (verifier_out)
		*verifier_out = v;
	if (weight_out)
		*weight_out = weight;
out:
	json_decref((json_t *)options);
	return rc;
}

int assay_verify_attribute(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	const assay_verifier *v;
	double weight;
	json_t *empty = NULL;
	int rc = assay_verify_check(&v, &weight, call->options, call->attribute, err);

	if (rc)
		return rc;
	assay_verify_call c = *call;
	if (!c.options)
		c.options = empty = json_object();
	out->weight = weight;
	rc = v->fn(out, &c, err);
	if (rc) {
		json_decref(out->diff);
		out->diff = NULL;
		out->is_correct = false;
		/* A verifier that fails without saying why still leaves a message. */
		assay_err_set(err, rc, NULL, 0, 0, "verifier '%s' failed on %s", v->name,
			      call->attribute ? call->attribute : "attribute");
	}
	json_decref(empty);
	return rc;
}

void assay_verification_release(assay_verification *v)
{
	if (!v)
		return;
	json_decref(v->diff);
	*v = (assay_verification)ASSAY_VERIFICATION_INIT;
}

int assay_verify_opt_bool(const json_t *options, const char *name, bool *out, assay_err *err)
{
	const json_t *v = json_object_get(options, name);

	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be true or false", name);
	*out = json_is_true(v);
	return 0;
}

int assay_verify_opt_string(const json_t *options, const char *name, const char **out,
			    assay_err *err)
{
	const json_t *v = json_object_get(options, name);

	if (!v)
		return 0;
	if (!json_is_string(v) || assay_json_is_bignum(v))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be a string", name);
	*out = json_string_value(v);
	return 0;
}

int assay_verify_expected_text(const char **out, size_t *len, const json_t *expected,
			       struct assay_buf *scratch, const char *attribute, assay_err *err)
{
	const char *lit;

	if (!expected)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "expected %s is missing",
				     attribute ? attribute : "value");
	if ((lit = assay_json_bignum_literal(expected))) {
		*out = lit;
		*len = strlen(lit);
		return 0;
	}
	switch (json_typeof(expected)) {
	case JSON_STRING:
		*out = json_string_value(expected);
		*len = json_string_length(expected);
		return 0;
	case JSON_INTEGER:
		assay_buf_reset(scratch);
		assay_buf_addf(scratch, "%" JSON_INTEGER_FORMAT, json_integer_value(expected));
		break;
	case JSON_REAL:
		assay_buf_reset(scratch);
		assay_json_dump(scratch, expected, 0);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		*out = json_is_true(expected) ? "true" : "false";
		*len = strlen(*out);
		return 0;
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
