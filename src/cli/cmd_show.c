/*
 * assay show DIR CASE: one case's whole report from the results store, with every value that
 * the report lines cut (long outputs, big documents) put back whole. CASE is the listing's
 * checkpoint/group/id, an id, or a glob over either. --attribute and --value print one value
 * alone, a string as its raw bytes (what a program printed, byte for byte). When CASE matches
 * more than one case (an id that a regression group re-runs, a glob), each is preceded by a
 * label line "==> checkpoint/group/id <==", as head(1) does for several files.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/render.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "assay/report.h"
#include "util/banned.h"

static const char usage[] =
	"assay show DIR|FILE.parquet|FILE.jsonl CASE [--attribute NAME [--value FIELD] | --format-result]";

struct show {
	assay_store *s;
	const char *pattern;
	const char *attribute;
	const char *field;
	bool format_result;
	size_t matched; /* counted by a first pass */
	bool counting;
	size_t shown;
	/* a plain CASE that matches nothing: the names that hold it (`keys` for c1/g/04-keys),
	 * for the message, the first 3 kept */
	size_t holding;
	char near[3][512];
};

/* Counts `line` among those whose checkpoint/group/id holds the plain `pattern`. */
static void note_holding(struct show *sh, const assay_value *line)
{
	const assay_value *cp = assay_report_get(line, "checkpoint");
	const assay_value *g = assay_object_get(line, "group");
	const assay_value *id = assay_object_get(line, "id");
	char full[sizeof(sh->near[0])];

	if (strpbrk(sh->pattern, "*?[\\") || !cp || !g || !id || cp->kind != ASSAY_V_STRING ||
	    g->kind != ASSAY_V_STRING || id->kind != ASSAY_V_STRING)
		return;
	snprintf(full, sizeof(full), "%s/%s/%s", cp->u.s, g->u.s, id->u.s);
	if (!strstr(full, sh->pattern))
		return;
	if (sh->holding < 3)
		memcpy(sh->near[sh->holding], full, sizeof(full));
	sh->holding++;
}

static bool matches(const char *pattern, const assay_value *line)
{
	const assay_value *cp = assay_report_get(line, "checkpoint");
	const assay_value *g = assay_object_get(line, "group");
	const assay_value *id = assay_object_get(line, "id");
	char full[4096];

	if (!cp || !g || !id || id->kind != ASSAY_V_STRING)
		return false;
	if (!fnmatch(pattern, id->u.s, 0))
		return true;
	if (cp->kind != ASSAY_V_STRING || g->kind != ASSAY_V_STRING)
		return false;
	snprintf(full, sizeof(full), "%s/%s/%s", cp->u.s, g->u.s, id->u.s);
	return !fnmatch(pattern, full, FNM_PATHNAME);
}

static const char *text_of(const assay_value *v)
{
	return v && v->kind == ASSAY_V_STRING ? v->u.s : "?";
}

static void print_value(const assay_value *v, bool raw)
{
	assay_buf b = ASSAY_BUF_INIT;

	if (raw && v->kind == ASSAY_V_STRING) {
		fwrite(v->u.s, 1, v->len, stdout);
		return;
	}
	assay_json_write(&b, v, ASSAY_JSON_PRETTY);
	assay_buf_addch(&b, '\n');
	fwrite(b.ptr, 1, b.len, stdout);
	assay_buf_release(&b);
}

static int show_one(void *payload, const assay_value *line, assay_err *err)
{
	struct show *sh = payload;
	assay_arena *a;
	assay_value v, pf;
	const assay_value *what;
	int rc;

	if (!matches(sh->pattern, line)) {
		if (sh->counting)
			note_holding(sh, line);
		return 0;
	}
	if (sh->counting) {
		sh->matched++;
		return 0;
	}
	a = assay_arena_new(0);
	v = assay_value_copy(a, line);
	if (sh->s && (rc = assay_store_expand(sh->s, &v, a, err))) {
		assay_arena_free(a);
		return rc;
	}
	what = &v;
	if (sh->format_result) {
		assay_report_format_result(&pf, a, assay_object_get(&v, "results"));
		what = &pf;
	} else if (sh->attribute) {
		what = assay_object_get(assay_object_get(&v, "results"), sh->attribute);
		if (what && sh->field)
			what = assay_object_get(what, sh->field);
	}
	if (what) {
		if (sh->matched > 1)
			printf("%s==> %s/%s/%s <==\n", sh->shown ? "\n" : "",
			       text_of(assay_report_get(line, "checkpoint")),
			       text_of(assay_object_get(line, "group")),
			       text_of(assay_object_get(line, "id")));
		print_value(what, sh->field != NULL);
		sh->shown++;
	}
	assay_arena_free(a);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	struct show sh = { 0 };
	const cli_opt opts[] = {
		{ "attribute", 'a', CLI_OPT_STRING, &sh.attribute, "NAME",
		  "print only this attribute's result (output, status_code, files-PATH, ...)" },
		{ "value", 0, CLI_OPT_STRING, &sh.field, "FIELD",
		  "with --attribute: print only its actual, expected or diff (a string as its "
		  "bytes)" },
		{ "format-result", 0, CLI_OPT_FLAG, &sh.format_result, NULL,
		  "print format_result: each verified attribute as \"P\" (correct) or \"F\"" },
		{ NULL },
	};
	const char *words[2];
	cli_words w = { words, 0, 2, 0 };
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_count(argc, argv, opts, usage, &w);

	if (rc != CLI_GO)
		return rc;
	if (w.n == 0) /* the bare command: its usage, as every command's */
		return cli_usage_error(usage, opts, NULL);
	if (w.n == 1)
		return cli_usage_error(usage, opts,
				       "give the case to show after the results folder: an id, "
				       "checkpoint/group/id, or a glob");
	if (sh.format_result && sh.attribute)
		return cli_usage_error(usage, opts,
				       "--format-result prints every attribute's verdict: give it "
				       "or --attribute, not both");
	if (sh.field && !sh.attribute)
		return cli_usage_error(usage, opts,
				       "--value needs --attribute: the attribute whose actual, "
				       "expected or diff to print");
	if (sh.field && strcmp(sh.field, "actual") && strcmp(sh.field, "expected") &&
	    strcmp(sh.field, "diff"))
		return cli_error(CLI_EXIT_USAGE, "--value takes actual, expected or diff");
	sh.pattern = words[1];
	if (!assay_fs_is_dir(words[0]) && assay_fs_exists(words[0])) {
		/* a reports.parquet (from_parquet_row) or reports.jsonl file: its lines as kept */
		sh.counting = true;
		rc = assay_report_each_line(words[0], show_one, &sh, &err);
		sh.counting = false;
		if (!rc)
			rc = assay_report_each_line(words[0], show_one, &sh, &err);
		if (rc == ASSAY_EPARSE) { /* summary.json, say: another file than show reads */
			char msg[1200];

			err.path[0] = '\0'; /* named once, first */
			return cli_error(CLI_EXIT_USAGE,
					 "%s: not a reports.jsonl or reports.parquet (%s); give the "
					 "results folder, or one of those files",
					 words[0], assay_err_format(&err, msg, sizeof(msg)));
		}
		if (rc)
			return cli_fail(rc, &err, ASSAY_EPARSE, ASSAY_ENOTFOUND, 0);
		goto shown;
	}
	if ((rc = assay_store_open(&sh.s, words[0], 0, &err)))
		return cli_fail(rc, &err, ASSAY_ENOTFOUND, ASSAY_EINVALID, 0);
	sh.counting = true;
	rc = assay_store_each_case(sh.s, show_one, &sh, &err);
	sh.counting = false;
	if (!rc)
		rc = assay_store_each_case(sh.s, show_one, &sh, &err);
	assay_store_close(sh.s);
	if (rc) /* a store changed (or copied without its blobs/): the input, not assay */
		return cli_fail(rc, &err, ASSAY_EINVALID, ASSAY_ENOTFOUND, ASSAY_EPARSE, 0);
shown:
	if (!sh.shown && sh.matched && sh.attribute)
		return cli_error(CLI_EXIT_FAILED, "no case matching '%s' in %s has an attribute '%s'",
				 words[1], words[0], sh.attribute);
	if (!sh.shown && sh.holding == 1)
		return cli_error(CLI_EXIT_FAILED,
				 "no case matches '%s' in %s (a case that has not run has no result "
				 "there); did you mean '%s'?",
				 words[1], words[0], sh.near[0]);
	/* a glob over ids shows them all (a `*` stops at a `/` of checkpoint/group/id) */
	bool glob = !strchr(words[1], '/');

	if (!sh.shown && sh.holding > 1)
		return cli_error(CLI_EXIT_FAILED,
				 "no case matches '%s' in %s (a case that has not run has no result "
				 "there); %zu cases hold it: %s, %s%s%s%s%s%s%s",
				 words[1], words[0], sh.holding, sh.near[0], sh.near[1],
				 sh.holding > 2 ? ", " : "", sh.holding > 2 ? sh.near[2] : "",
				 sh.holding > 3 ? ", ..." : "", glob ? " ('*" : "",
				 glob ? words[1] : "", glob ? "*' shows them all)" : "");
	if (!sh.shown)
		return cli_error(CLI_EXIT_FAILED,
				 "no case matches '%s' in %s (a case that has not run has no result "
				 "there)",
				 words[1], words[0]);
	return CLI_EXIT_OK;
}
