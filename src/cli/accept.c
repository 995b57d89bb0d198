/*
 * --accept: the actual values of the failing cases become their expected values, written into
 * their case files (as cram -i and snapshot tests do). What would change is listed first and
 * asked about, unless --yes.
 *
 * What is accepted: each failed attribute compared by value (exact, text: the text as the
 * program wrote it; json, jsonl: the parsed output; yaml, toml, ini: the output's text, which
 * they parse as they parse the output; status_code, except `nonzero`, a rule; a file, or
 * {absent: true} when it was not produced). Not accepted, and said so: attributes checked against a pattern
 * (contains, regex, ...), limits (execution_time, ...), cases that timed out, hit a limit or
 * could not be loaded, cases replayed from an earlier run, and a case file whose copies
 * (regression groups) disagree on a value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/suite.h"
#include "cmd.h"
#include "exit.h"
#include "workflow.h"
#include "assay/report.h"
#include "util/banned.h"

struct accept_item {
	char *file;       /* the case file */
	char *name;       /* checkpoint/group/id of the first case that had it */
	char *attribute;
	assay_value value; /* in the accept's arena */
	bool conflict;    /* another copy of the case wanted another value */
};

struct accept {
	assay_arena *arena;
	const char *root;        /* the suite's folder, to print case files short */
	struct accept_item *items;
	size_t n, alloc;
	assay_strvec skipped;    /* "name: why" */
	assay_strvec skip_keys;  /* "file\nattribute" of each, so that copies are said once */
};

static const char *verifier_of(const assay_case *c, const char *attr)
{
	const assay_value *entry = assay_object_get(&c->verify, attr);
	const assay_value *name = assay_object_get(entry, "verifier");

	return name && name->kind == ASSAY_V_STRING ? name->u.s : "exact";
}

/*
 * The expected value that `actual` (an AttributeResult's actual) makes, in `a`: NULL when
 * there is none, with the reason in *why.
 */
static bool new_expected(assay_value *out, assay_arena *a, const char *verifier,
			 const char *attr, const assay_value *actual, const char **why)
{
	bool file = assay_file_attribute_path(attr) != NULL;

	if (file && (!actual || actual->kind == ASSAY_V_NULL)) {
		*out = assay_value_object();
		assay_object_set(a, out, "absent", assay_value_bool(true));
		return true;
	}
	if (actual && (actual->kind == ASSAY_V_OBJECT || actual->kind == ASSAY_V_ARRAY) &&
	    !strcmp(verifier, "json")) {
		*out = assay_value_copy(a, actual); /* an api body reports show parsed */
		return true;
	}
	if (!actual || (actual->kind != ASSAY_V_STRING && actual->kind != ASSAY_V_INT)) {
		*why = "no actual value";
		return false;
	}
	if (!strcmp(verifier, "exact") || !strcmp(verifier, "text")) {
		*out = assay_value_copy(a, actual);
		return true;
	}
	/* these parse an expected string as they parse the output: the text itself is the value */
	if (actual->kind == ASSAY_V_STRING &&
	    (!strcmp(verifier, "yaml") || !strcmp(verifier, "toml") || !strcmp(verifier, "ini"))) {
		*out = assay_value_copy(a, actual);
		return true;
	}
	if (actual->kind == ASSAY_V_STRING && !strcmp(verifier, "json")) {
		if (assay_json_parse(out, a, actual->u.s, actual->len, NULL, NULL)) {
			*why = "the output is not JSON";
			return false;
		}
		return true;
	}
	if (actual->kind == ASSAY_V_STRING && !strcmp(verifier, "jsonl")) {
		if (assay_json_parse_lines(out, a, actual->u.s, actual->len, false, NULL, NULL)) {
			*why = "the output is not JSON Lines";
			return false;
		}
		return true;
	}
	*why = "its verifier compares with a pattern or a rule, not a value";
	return false;
}

static void skip(struct accept *acc, const char *file, const char *name, const char *attr,
		 const char *why)
{
	char *key = assay_xasprintf("%s\n%s", file ? file : name, attr ? attr : "");

	for (size_t i = 0; i < acc->skip_keys.nr; i++) {
		if (!strcmp(acc->skip_keys.v[i], key)) {
			free(key);
			return; /* a regression copy of a case already said */
		}
	}
	assay_strvec_push_nodup(&acc->skip_keys, key);
	if (attr)
		assay_strvec_pushf(&acc->skipped, "%s: %s: %s", name, attr, why);
	else
		assay_strvec_pushf(&acc->skipped, "%s: %s", name, why);
}

static void add(struct accept *acc, const char *file, const char *name, const char *attr,
		const assay_value *value)
{
	for (size_t i = 0; i < acc->n; i++) {
		struct accept_item *it = &acc->items[i];

		if (strcmp(it->file, file) || strcmp(it->attribute, attr))
			continue;
		if (!assay_value_equal(&it->value, value) && !it->conflict) {
			it->conflict = true;
			assay_strvec_pushf(&acc->skipped, "%s: %s: its copies got different values "
					   "(%s and %s)", it->name, attr, it->name, name);
		}
		return;
	}
	if (acc->n == acc->alloc) {
		acc->alloc = acc->alloc ? 2 * acc->alloc : 16;
		acc->items = assay_xrealloc(acc->items, acc->alloc * sizeof(*acc->items));
	}
	acc->items[acc->n++] = (struct accept_item){ assay_xstrdup(file), assay_xstrdup(name),
						     assay_xstrdup(attr), *value, false };
}

static bool is_limit(const char *attr)
{
	return !strcmp(attr, "execution_time") || !strcmp(attr, "cpu_time") ||
	       !strcmp(attr, "max_rss");
}

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct accept *acc = payload;

	(void)total;
	(void)err;
	acc->root = suite->root;
	return 0;
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct accept *acc = payload;
	const assay_value *results = assay_object_get(r->json, "results");
	const assay_value *execution = assay_report_get(r->json, "execution");
	const char *status = "";
	char *name;

	(void)err;
	if (r->passed)
		return 0;
	name = assay_xasprintf("%s/%s/%s", r->checkpoint->name, r->group->name, r->id);
	const assay_value *limit = assay_object_get(execution, "limit");
	if (assay_value_is_str(assay_object_get(execution, "status"), "exited") &&
	    (!limit || limit->kind == ASSAY_V_NULL))
		status = "exited";
	const char *file = r->kase ? r->kase->file : NULL;
	if (r->replayed || !r->kase)
		skip(acc, file, name, NULL, "replayed from an earlier run, not run now");
	else if (r->error)
		skip(acc, file, name, NULL, "the case could not be loaded or verified");
	else if (strcmp(status, "exited"))
		skip(acc, file, name, NULL, "the program did not exit by itself (a timeout, a "
					    "limit, a signal)");
	for (uint32_t i = 0; results && *status && r->kase && !r->error && !r->replayed &&
			     i < results->len; i++) {
		const assay_value *res = &results->u.members[i].value;
		const assay_value *ok = assay_object_get(res, "is_correct");
		const char *attr = results->u.members[i].key.u.s, *why = NULL;
		assay_value v;

		if (!ok || ok->kind != ASSAY_V_BOOL || ok->u.b)
			continue;
		const assay_value *entry = assay_object_get(&r->kase->verify, attr);
		const assay_value *extra = assay_object_get(entry, "ignore_extra_keys");

		if (is_limit(attr))
			skip(acc, file, name, attr, "a limit, not a value");
		else if (extra && extra->kind == ASSAY_V_BOOL && extra->u.b)
			skip(acc, file, name, attr, "its verifier ignores extra keys (api headers): "
				     "only you know which of them matter");
		else if (assay_value_is_str(assay_object_get(res, "expected"), "nonzero"))
			skip(acc, file, name, attr, "`nonzero` is a rule (the program must fail), "
			     "not a value: fix the program, or the case by hand");
		else if (new_expected(&v, acc->arena, verifier_of(r->kase, attr), attr,
				      assay_object_get(res, "actual"), &why))
			add(acc, r->kase->file, name, attr, &v);
		else
			skip(acc, file, name, attr, why);
	}
	free(name);
	return 0;
}

static void sink_free(void *payload)
{
	struct accept *acc = payload;

	for (size_t i = 0; i < acc->n; i++) {
		free(acc->items[i].file);
		free(acc->items[i].name);
		free(acc->items[i].attribute);
	}
	free(acc->items);
	assay_strvec_clear(&acc->skipped);
	assay_strvec_clear(&acc->skip_keys);
	assay_arena_free(acc->arena);
	free(acc);
}

void accept_sink(assay_sink *out, struct accept **accp)
{
	struct accept *acc = assay_xcalloc(1, sizeof(*acc));

	acc->arena = assay_arena_new(0);
	acc->skipped = (assay_strvec)ASSAY_STRVEC_INIT;
	acc->skip_keys = (assay_strvec)ASSAY_STRVEC_INIT;
	*accp = acc;
	*out = (assay_sink){ acc, on_begin, on_case, NULL, sink_free, NULL };
}

/* A case file as the user knows it: relative to the suite. */
static const char *short_file(const struct accept *acc, const char *file)
{
	size_t n = acc->root ? strlen(acc->root) : 0;

	return n && !strncmp(file, acc->root, n) && file[n] == '/' ? file + n + 1 : file;
}

static bool confirmed(size_t values, size_t files)
{
	char answer[16] = "";

	fprintf(stderr, "Write %zu value%s into %zu case file%s? [y/N] ", values,
		values == 1 ? "" : "s", files, files == 1 ? "" : "s");
	fflush(stderr);
	if (!fgets(answer, sizeof(answer), stdin))
		return false;
	return !strcmp(answer, "y\n") || !strcmp(answer, "yes\n") || !strcmp(answer, "Y\n");
}

int accept_apply(struct accept *acc, bool yes)
{
	size_t values = 0, files = 0, written = 0;
	int rc = 0;

	printf("\n--accept:\n");
	for (size_t i = 0; i < acc->n; i++) {
		const struct accept_item *it = &acc->items[i];
		bool first = true;

		if (it->conflict)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(acc->items[j].file, it->file) != 0;
		if (!first)
			continue;
		files++;
		printf("  %s: expected", short_file(acc, it->file));
		for (size_t j = i; j < acc->n; j++) {
			if (acc->items[j].conflict || strcmp(acc->items[j].file, it->file))
				continue;
			printf(" %s", acc->items[j].attribute);
			values++;
		}
		putchar('\n');
	}
	for (size_t i = 0; i < acc->skipped.nr; i++)
		printf("  not accepted: %s\n", acc->skipped.v[i]);
	if (!values) {
		printf("  nothing to write\n");
		return 0;
	}
	fflush(stdout);
	if (!yes && !confirmed(values, files)) {
		printf("nothing written\n");
		return 0;
	}
	for (size_t i = 0; i < acc->n; i++) {
		const struct accept_item *it = &acc->items[i];
		assay_expected_edit *edits = NULL;
		size_t n = 0;
		bool first = !it->conflict;
		assay_err err = ASSAY_ERR_INIT;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(acc->items[j].file, it->file) != 0;
		if (!first)
			continue;
		for (size_t j = i; j < acc->n; j++) {
			if (acc->items[j].conflict || strcmp(acc->items[j].file, it->file))
				continue;
			edits = assay_xrealloc(edits, (n + 1) * sizeof(*edits));
			edits[n++] = (assay_expected_edit){ acc->items[j].attribute,
							    acc->items[j].value };
		}
		if (assay_case_file_set_expected(it->file, edits, n, &err))
			rc = cli_report_err(CLI_EXIT_FAILED, &err);
		else
			written += n;
		free(edits);
	}
	printf("accepted %zu value%s: run the suite again to check\n", written,
	       written == 1 ? "" : "s");
	return rc;
}
