/*
 * A generated run for bench/reports.sh: N cases handed to the results folder's sink (the store,
 * reports.jsonl, summary.json) exactly as a run hands them, and, with "all", to a render sink
 * writing every report format at once, as `assay run --format ...` does. No program is run: the
 * cost measured is the reports'.
 *
 * Cases: 4 checkpoints x 5 groups (Core, Functionality, Error, Regression, Core); attributes
 * status_code, output (about 200 bytes), stderr; one case in 10 fails with a unified diff, one
 * in 50 times out, one in 500 prints 100 KB (cut into a blob at the 64 KiB value cap).
 *
 * Usage: assay-bench-reports DIR N [store|all]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/render.h"
#include "assay/report.h"
#include "assay/store.h"

static assay_value attr(assay_arena *a, const char *name, assay_value actual, assay_value expected,
			assay_value diff, int ok, double weight)
{
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "attribute", assay_value_strz(a, name));
	assay_object_set(a, &o, "actual", actual);
	assay_object_set(a, &o, "expected", expected);
	assay_object_set(a, &o, "diff", diff);
	assay_object_set(a, &o, "is_correct", ok < 0 ? assay_value_null() : assay_value_bool(ok));
	assay_object_set(a, &o, "weight", assay_value_real(weight));
	return o;
}

static assay_value line_of(assay_arena *a, const assay_checkpoint *cp, const assay_group *g,
			   const char *id, size_t i, bool *passed, const char *big)
{
	assay_value o = assay_value_object(), res = assay_value_object(), ex = assay_value_object();
	assay_value kase = assay_value_object(), args = assay_value_array();
	bool fail = i % 10 == 3, timeout = i % 50 == 7;
	char out[256], want[256];

	snprintf(want, sizeof(want), "{\"case\": %zu, \"greeting\": \"Hello, Ada Lovelace\", "
		 "\"items\": [1, 2, 3, 4, 5, 6, 7, 8], \"ok\": true, \"note\": \"%s\"}\n", i,
		 "a line of text long enough to look like real output");
	snprintf(out, sizeof(out), "%s", want);
	if (fail)
		out[12] = 'X';
	assay_object_set(a, &o, "id", assay_value_strz(a, id));
	assay_object_set(a, &o, "group", assay_value_strz(a, g->name));
	assay_object_set(a, &o, "type", assay_value_strz(a, assay_group_type_name(g->type)));
	assay_object_set(a, &o, "timestamp", assay_value_strz(a, "2026-01-01T12:00:00.000000Z"));
	assay_object_set(a, &o, "duration", assay_value_real(0.001 + (double)(i % 97) / 10000));
	assay_object_set(a, &res, "status_code",
			 attr(a, "status_code", assay_value_int(timeout ? -1 : 0), assay_value_int(0),
			      timeout ? assay_value_strz(a, "expected 0, got -1") : assay_value_null(),
			      !timeout, 1.0));
	assay_object_set(a, &res, "output",
			 attr(a, "output", big ? assay_value_strz(a, big) : assay_value_strz(a, out),
			      assay_value_strz(a, want),
			      fail ? assay_value_stringf(a, "--- expected\n+++ actual\n@@ -1 +1 @@\n-%s+%s",
							 want, out)
				   : assay_value_null(),
			      !fail && !big, 1.0));
	assay_object_set(a, &res, "stderr", attr(a, "stderr", assay_value_strz(a, ""),
						 assay_value_null(), assay_value_null(), -1, 0));
	assay_object_set(a, &o, "results", res);
	assay_array_push(a, &args, assay_value_strz(a, "greet"));
	assay_array_push(a, &args, assay_value_stringf(a, "%zu", i));
	assay_object_set(a, &kase, "arguments", args);
	assay_object_set(a, &kase, "type", assay_value_strz(a, "cli"));
	assay_object_set(a, &o, "case", kase);
	assay_object_set(a, &o, "original_checkpoint", assay_value_null());
	assay_object_set(a, &o, "original_group", assay_value_null());
	assay_object_set(a, &o, "checkpoint", assay_value_strz(a, cp->name));
	*passed = !fail && !timeout && !big;
	assay_object_set(a, &o, "score", assay_value_real(*passed ? 1.0 : timeout || big ? 0.5 : 0.5));
	assay_object_set(a, &o, "passed", assay_value_bool(*passed));
	assay_object_set(a, &ex, "status", assay_value_strz(a, timeout ? "timed_out" : "exited"));
	assay_object_set(a, &ex, "exit_code", timeout ? assay_value_null() : assay_value_int(0));
	assay_object_set(a, &ex, "wall_time", assay_value_real(0.001));
	assay_object_set(a, &ex, "max_rss", assay_value_int(3 << 20));
	assay_object_set(a, &o, "execution", ex);
	return o;
}

static void die(const char *what, const assay_err *err)
{
	char msg[1200];

	fprintf(stderr, "assay-bench-reports: %s: %s\n", what, assay_err_format(err, msg, sizeof(msg)));
	exit(1);
}

int main(int argc, char **argv)
{
	static const assay_group_type types[5] = { ASSAY_GROUP_CORE, ASSAY_GROUP_FUNCTIONALITY,
						   ASSAY_GROUP_ERROR, ASSAY_GROUP_REGRESSION,
						   ASSAY_GROUP_CORE };
	assay_checkpoint cps[4];
	assay_group groups[4][5];
	char names[4][5][32], cpnames[4][32];
	assay_suite suite = { 0 };
	assay_sink sinks[2];
	size_t nsinks = 1, n;
	assay_store *s;
	assay_err err = ASSAY_ERR_INIT;
	assay_arena *ma = assay_arena_new(0);
	assay_value meta = assay_value_object(), info;
	char *big;

	if (argc < 3) {
		fputs("usage: assay-bench-reports DIR N [store|all]\n", stderr);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	big = malloc(100001);
	memset(big, 'b', 100000);
	big[100000] = '\0';
	for (int c = 0; c < 4; c++) {
		snprintf(cpnames[c], sizeof(cpnames[c]), "checkpoint_%d", c + 1);
		cps[c] = (assay_checkpoint){ .name = cpnames[c], .groups = groups[c], .ngroups = 5 };
		for (int g = 0; g < 5; g++) {
			snprintf(names[c][g], sizeof(names[c][g]), "group_%d", g + 1);
			groups[c][g] = (assay_group){ .name = names[c][g], .type = types[g] };
		}
	}
	suite.name = "bench";
	suite.checkpoints = cps;
	suite.ncheckpoints = 4;
	suite.ncases = n;
	if (assay_store_open(&s, argv[1], ASSAY_STORE_WRITE, &err))
		die("open", &err);
	assay_object_set(ma, &meta, "suite", assay_value_strz(ma, "bench"));
	assay_object_set(ma, &meta, "host", assay_value_strz(ma, "bench-host"));
	if (assay_store_begin_run(s, &meta, false, &err) || assay_store_run_info(s, &info, ma, &err))
		die("begin", &err);
	if (assay_sink_store_new(&sinks[0], s, argv[1], 0, false, &err))
		die("sink", &err);
	if (argc > 3 && !strcmp(argv[3], "all")) {
		size_t nf = assay_format_count(), nr = 0;
		assay_renderer **rs = assay_xcalloc(nf, sizeof(*rs));

		for (size_t f = 0; f < nf; f++) {
			char *path;

			if (f == ASSAY_FORMAT_JSONL)
				continue; /* reports.jsonl is the store sink's */
			path = assay_xasprintf("%s/%s", argv[1], assay_format_file((assay_format)f));
			if (assay_renderer_open(&rs[nr++], (assay_format)f, path, NULL, &err))
				die("renderer", &err);
			free(path);
		}
		assay_sink_render_in in = { .rs = rs, .n = nr, .run = &info, .value_cap = 0,
					    .store = s };

		assay_sink_render_new(&sinks[nsinks++], &in, &err);
		free(rs); /* the sink keeps a copy of the array */
	}
	for (size_t k = 0; k < nsinks; k++)
		if (sinks[k].on_begin(sinks[k].payload, &suite, n, &err))
			die("on_begin", &err);
	for (size_t i = 0; i < n; i++) {
		const assay_checkpoint *cp = &cps[i * 4 / n];
		const assay_group *g = &cp->groups[(i * 20 / n) % 5];
		assay_arena *a = assay_arena_new(0);
		char id[32];
		bool passed;
		assay_value line;

		snprintf(id, sizeof(id), "case-%06zu", i);
		line = line_of(a, cp, g, id, i, &passed, i % 500 == 11 ? big : NULL);
		assay_case_report r = { .checkpoint = cp, .group = g, .id = id, .json = &line,
					.score = passed ? 1 : 0.5, .passed = passed, .index = i + 1,
					.total = n };
		for (size_t k = 0; k < nsinks; k++)
			if (sinks[k].on_case(sinks[k].payload, &r, &err))
				die("on_case", &err);
		assay_arena_free(a);
	}
	assay_value sum = assay_value_object();
	assay_object_set(ma, &sum, "suite", assay_value_strz(ma, "bench"));
	assay_object_set(ma, &sum, "interrupted", assay_value_bool(false));
	assay_run_summary rs = { &suite, &sum, { 0 }, n, 0, false };
	for (size_t k = 0; k < nsinks; k++) {
		if (sinks[k].on_end(sinks[k].payload, &rs, &err))
			die("on_end", &err);
		sinks[k].free(sinks[k].payload);
	}
	assay_store_close(s);
	assay_arena_free(ma);
	free(big);
	return 0;
}
