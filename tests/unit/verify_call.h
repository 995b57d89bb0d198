/*
 * What the verifier tests share (test_verify_formats.c, test_verify_checks.c,
 * test_verify_schema.c, test_plugin.c): one call of assay_verify_attribute() with its verdict
 * and its diff written as JSON, and values written as YAML the way a case file gives them.
 */
#ifndef ASSAY_TEST_VERIFY_CALL_H
#define ASSAY_TEST_VERIFY_CALL_H

#include <criterion/criterion.h>
#include <string.h>

#include "assay/json.h"
#include "assay/verify.h"
#include "assay/yaml.h"

struct vres {
	int rc;
	assay_verification v;
	assay_err err;
	char *diff; /* the diff as JSON text (free it) */
};

/* A value written as YAML, made in `a`. */
static inline assay_value vt_yaml(assay_arena *a, const char *text)
{
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;

	cr_assert_eq(assay_yaml_parse(&v, a, text, strlen(text), NULL, &e), 0, "bad YAML %s: %s",
		     text, e.msg);
	return v;
}

/* Verifies `attribute` (group "g", case "c") with the verify entry `options` (YAML). */
static inline struct vres vt_call(assay_arena *a, const char *attribute,
				  const assay_value *expected, const assay_actual *ac,
				  const char *options)
{
	struct vres r = { 0, ASSAY_VERIFICATION_INIT, ASSAY_ERR_INIT, NULL };
	assay_value opts = vt_yaml(a, options);
	assay_verify_call call = { "g", "c", attribute, expected, ac, &opts, a, 0 };
	assay_buf b = ASSAY_BUF_INIT;

	r.rc = assay_verify_attribute(&r.v, &call, &r.err);
	assay_json_write(&b, &r.v.diff, 0);
	r.diff = assay_buf_detach(&b, NULL);
	return r;
}

/* Text as a captured actual value. */
static inline assay_actual vt_text(const char *s)
{
	return (assay_actual){ ASSAY_ACTUAL_BYTES, s, strlen(s), false, 0, 0 };
}

#endif
