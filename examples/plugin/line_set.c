/*
 * An example verifier plug-in (include/assay/plugin.h): `line_set` passes when the actual text
 * holds the same lines as the expected one, in any order (a report whose rows may come in any
 * order, a `sort`-free listing). Build it as a shared object against assay's headers:
 *
 *     cc -shared -fPIC -O2 -I /path/to/assay/include -o line_set.so line_set.c
 *
 * or, against an installed assay (its headers and assay.pc: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig),
 *
 *     cc -shared -fPIC -O2 $(pkg-config --cflags assay) -o line_set.so line_set.c
 *
 * and name it in suite.yaml (`plugins: [line_set.so]`, relative to the suite) or on the command
 * line (`assay run --plugin ./line_set.so SUITE`). Then, in a case:
 *
 *     verify:
 *       output: {verifier: line_set, ignore_blank: true}
 *
 * Options: ignore_blank (default false): blank lines do not count. Lines are compared as bytes,
 * each counted (a line expected twice must occur twice). The diff lists the missing and the
 * extra lines, or is null when the sets are equal.
 *
 * A plug-in runs inside assay: it gets the call's arena for everything it makes (diffs), must
 * not keep pointers into the call after returning, and reports a refusal of its options or
 * expected value with an error code and a message (assay_err_set), never by exiting.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/plugin.h"

struct line {
	const char *s;
	size_t n;
	bool used;
};

/* The lines of s[0..n) (without their '\n' and a '\r' before it), malloc'd. */
static struct line *split(const char *s, size_t n, bool skip_blank, size_t *count)
{
	struct line *v = malloc((n + 1) * sizeof(*v));
	size_t k = 0;

	while (v && n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;
		size_t keep = len && s[len - 1] == '\r' ? len - 1 : len;

		if (keep || !skip_blank)
			v[k++] = (struct line){ s, keep, false };
		s += nl ? len + 1 : len;
		n -= nl ? len + 1 : len;
	}
	*count = k;
	return v;
}

static int verify_line_set(assay_verification *out, const assay_verify_call *call,
			   assay_err *err)
{
	const assay_value *ex = call->expected;
	const assay_actual *ac = call->actual;
	bool skip_blank = false;
	size_t ne, na;
	int rc;

	if ((rc = assay_verify_opt_bool(call->options, "ignore_blank", &skip_blank, err)))
		return rc;
	if (!ex || ex->kind != ASSAY_V_STRING)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "line_set: the expected value must be text");
	if (!ac || ac->kind != ASSAY_ACTUAL_BYTES) {
		out->is_correct = false;
		out->diff = assay_value_strz(call->arena, "no text to compare (file not produced?)");
		return 0;
	}
	struct line *e = split(ex->u.s, ex->len, skip_blank, &ne);
	struct line *a = split(ac->bytes, ac->len, skip_blank, &na);
	assay_value missing = assay_value_array(), extra = assay_value_array();

	for (size_t i = 0; e && a && i < ne; i++) {
		bool found = false;

		for (size_t j = 0; j < na && !found; j++)
			if (!a[j].used && a[j].n == e[i].n && !memcmp(a[j].s, e[i].s, e[i].n))
				found = a[j].used = true;
		if (!found)
			assay_array_push(call->arena, &missing,
					 assay_value_string(call->arena, e[i].s, e[i].n));
	}
	for (size_t j = 0; a && j < na; j++)
		if (!a[j].used)
			assay_array_push(call->arena, &extra,
					 assay_value_string(call->arena, a[j].s, a[j].n));
	free(e);
	free(a);
	out->is_correct = !missing.len && !extra.len;
	if (!out->is_correct) {
		out->diff = assay_value_object();
		assay_object_set(call->arena, &out->diff, "missing", missing);
		assay_object_set(call->arena, &out->diff, "extra", extra);
	}
	return 0;
}

static const char *const line_set_options[] = { "ignore_blank", NULL };
static const assay_verifier line_set = { "line_set", verify_line_set, line_set_options };
static const assay_verifier *const verifiers[] = { &line_set, NULL };

ASSAY_EXTERN const assay_plugin assay_plugin_entry = ASSAY_PLUGIN_INIT("line_set", verifiers, NULL);
