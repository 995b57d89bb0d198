/*
 * From a case result to its VerifierReport (verification.md: from_verifier_result,
 * calculate_score, did_pass): every attribute of actual and expected is listed, those that are
 * expected are verified, the others carry is_correct null and weight 0. Score is the weighted
 * mean of verified attributes; passing needs every verified attribute correct.
 *
 * A verifier that refuses its options or expected value (a regex that does not compile) makes
 * its attribute fail with the reason as diff, and the case is flagged as an error: that is a
 * suite bug the user must see, not a silent zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "assay/json.h"
#include "assay/run.h"
#include "assay/verify.h"
#include "util/banned.h"

static json_t *timestamp_now(void)
{
	struct timeval tv;
	struct tm tm;
	char buf[64];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	size_t n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", (long)tv.tv_usec);
	return json_string(buf);
}

static json_t *report_skeleton(const assay_group *group, const assay_case *c, double duration)
{
	json_t *o = json_object();

	/* A case id is a file name: any bytes but '/'. Reports are JSON: show it as UTF-8. */
	json_object_set_new(o, "id", assay_json_string_lossy(c->id, strlen(c->id)));
	json_object_set_new(o, "group", json_string(group->name));
	json_object_set_new(o, "type", json_string(assay_group_type_name(group->type)));
	json_object_set_new(o, "timestamp", timestamp_now());
	json_object_set_new(o, "duration", json_real(duration));
	json_object_set_new(o, "results", json_object());
	json_t *def = c->definition ? json_deep_copy(c->definition) : json_object();
	json_object_set_new(def, "type", json_string("cli"));
	json_object_set_new(o, "case", def);
	json_object_set_new(o, "original_checkpoint", group->original_checkpoint
					? json_string(group->original_checkpoint) : json_null());
	json_object_set_new(o, "original_group", group->original_group
					? json_string(group->original_group) : json_null());
	return o;
}

static json_t *attribute_result(const char *name, json_t *actual, const json_t *expected,
				 json_t *diff, int is_correct, double weight)
{
	json_t *a = json_object();
	json_object_set_new(a, "attribute", json_string(name));
	json_object_set_new(a, "actual", actual ? actual : json_null());
	json_object_set(a, "expected", expected ? (json_t *)expected : json_null());
	json_object_set_new(a, "diff", diff ? diff : json_null());
	json_object_set_new(a, "is_correct", is_correct < 0 ? json_null()
							     : json_boolean(is_correct));
	json_object_set_new(a, "weight", json_real(weight));
	return a;
}

struct attr {
	const char *name;
	assay_actual actual;
	json_t *actual_json;
};

static void set_bytes(struct attr *a, const char *name, const assay_buf *b, bool truncated)
{
	a->name = name;
	a->actual = (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = b->ptr, .len = b->len,
				    .truncated = truncated };
	a->actual_json = assay_json_string_lossy(b->ptr, b->len);
}

int assay_case_report_build(json_t **out_json, double *score_out, bool *passed_out,
			    char **error_out, const assay_group *group, const assay_case *c,
			    const assay_case_result *r, double duration_s)
{
	json_t *report = report_skeleton(group, c, duration_s);
	json_t *results = json_object_get(report, "results");
	size_t n = 0, cap = 5 + r->nfiles + json_object_size(c->expected);
	struct attr *attrs = assay_xcalloc(cap, sizeof(*attrs));
	char **names = assay_xcalloc(cap, sizeof(*names));
	double wsum = 0, csum = 0;
	bool passed = true;
	const char *key;
	json_t *value;

	*error_out = NULL;
	attrs[n].name = "status_code";
	attrs[n].actual = (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = r->status_code };
	attrs[n++].actual_json = json_integer(r->status_code);
	set_bytes(&attrs[n++], "output", &r->output, r->proc.out_truncated);
	set_bytes(&attrs[n++], "stderr", &r->stderr_text, r->proc.err_truncated);
	if (json_object_get(c->expected, "execution_time")) {
		attrs[n].name = "execution_time";
		attrs[n].actual = (assay_actual){ .kind = ASSAY_ACTUAL_REAL,
						  .real = r->proc.wall_s };
		attrs[n++].actual_json = json_real(r->proc.wall_s);
	}
	if (json_object_get(c->expected, "max_rss")) {
		attrs[n].name = "max_rss";
		attrs[n].actual = (assay_actual){ .kind = ASSAY_ACTUAL_INT,
						  .integer = r->proc.max_rss };
		attrs[n++].actual_json = json_integer(r->proc.max_rss);
	}
	for (size_t i = 0; i < r->nfiles; i++) {
		const assay_result_file *f = &r->files[i];
		json_t *name = assay_json_string_lossy(f->path, strlen(f->path));
		names[n] = assay_xasprintf("files-%s", json_string_value(name));
		json_decref(name);
		if (f->present) {
			set_bytes(&attrs[n], names[n], &f->content, f->truncated);
		} else {
			attrs[n].name = names[n];
			attrs[n].actual = (assay_actual){ .kind = ASSAY_ACTUAL_MISSING };
			attrs[n].actual_json = json_null();
		}
		n++;
	}
	/* An expected file the adapter did not collect counts as not produced. */
	json_object_foreach(c->expected, key, value) {
		bool known = false;
		for (size_t i = 0; i < n && !known; i++)
			known = !strcmp(attrs[i].name, key);
		if (!known && !strncmp(key, "files-", 6)) {
			names[n] = assay_xstrdup(key);
			attrs[n].name = names[n];
			attrs[n].actual = (assay_actual){ .kind = ASSAY_ACTUAL_MISSING };
			attrs[n++].actual_json = json_null();
		}
	}

	for (size_t i = 0; i < n; i++) {
		const json_t *expected = json_object_get(c->expected, attrs[i].name);
		if (!expected) {
			json_object_set_new(results, attrs[i].name,
					    attribute_result(attrs[i].name, attrs[i].actual_json,
							     NULL, NULL, -1, 0.0));
			continue;
		}
		const json_t *options = json_object_get(c->verify, attrs[i].name);
		json_t *empty = options ? NULL : json_object();
		assay_verify_call call = { group->name, c->id, attrs[i].name, expected,
					   &attrs[i].actual, options ? options : empty };
		assay_verification v = ASSAY_VERIFICATION_INIT;
		assay_err e = ASSAY_ERR_INIT;
		if (assay_verify_attribute(&v, &call, &e)) {
			json_decref(v.diff);
			v.diff = json_sprintf("verifier error: %s", e.msg);
			v.is_correct = false;
			if (!*error_out)
				*error_out = assay_xasprintf("%s: %s", attrs[i].name, e.msg);
		}
		json_decref(empty);
		wsum += v.weight;
		csum += v.is_correct ? v.weight : 0;
		passed = passed && v.is_correct;
		json_object_set_new(results, attrs[i].name,
				    attribute_result(attrs[i].name, attrs[i].actual_json, expected,
						     v.diff, v.is_correct, v.weight));
		v.diff = NULL;
		assay_verification_release(&v);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(attrs);
	*score_out = wsum > 0 ? csum / wsum : 0.0;
	*passed_out = passed && wsum > 0 && !*error_out;
	*out_json = report;
	return 0;
}

json_t *assay_case_report_error(const assay_group *group, const assay_case *c,
				const char *message, double duration_s)
{
	json_t *report = report_skeleton(group, c, duration_s);
	json_t *results = json_object_get(report, "results");
	const char *key;
	json_t *value;

	if (c->expected && json_object_size(c->expected)) {
		json_object_foreach(c->expected, key, value) {
			const json_t *opts = json_object_get(c->verify, key);
			const json_t *w = json_object_get(opts, "weight");
			json_object_set_new(results, key,
					    attribute_result(key, NULL, value,
							     json_string(message), 0,
							     json_is_number(w) ? json_number_value(w)
									       : 1.0));
		}
	} else {
		json_object_set_new(results, "error",
				    attribute_result("error", NULL, NULL, json_string(message), 0,
						     1.0));
	}
	return report;
}
