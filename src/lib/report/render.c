/*
 * Renderers (render.h): opening one on a file or standard output, and handing it the run's
 * description, each case's line and the summary. The formats themselves are in
 * render_<format>.c, listed in formats.c's table; each sees a case through report_int.h's
 * assay_report__case.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/banned.h"

const char *assay_report__suite(const assay_value *run)
{
	return assay_report__str(run, "suite", "assay");
}

int assay_renderer_open(assay_renderer **out, assay_format format, const char *path,
			const assay_render_opts *opts, assay_err *err)
{
	const struct assay_report__format *fmt = assay_report__format_at(format);
	assay_renderer *r;
	int rc;

	*out = NULL;
	if (!fmt)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "unknown report format");
	if (opts && opts->version != ASSAY_RENDER_OPTS_VERSION)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "unknown assay_render_opts version %d", opts->version);
	r = assay_xcalloc(1, sizeof(*r));
	r->fmt = fmt;
	r->o = opts ? *opts : (assay_render_opts)ASSAY_RENDER_OPTS_INIT;
	if (!r->o.text_cap)
		r->o.text_cap = 4096;
	if (!r->o.junit_max_bytes)
		r->o.junit_max_bytes = 30000000 - 64 * 1024;
	if (!r->o.markdown_max_bytes)
		r->o.markdown_max_bytes = 1024 * 1024;
	if (!r->o.html_detail_bytes)
		r->o.html_detail_bytes = (size_t)64 << 20;
	if (!r->o.max_failures)
		r->o.max_failures = 50;
	r->path = assay_xstrdup(path);
	r->state = assay_xcalloc(1, r->fmt->state ? r->fmt->state : 1);
	if ((rc = assay_report__out_open(&r->out, path, err))) {
		assay_renderer_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

bool assay_renderer_whole(const assay_renderer *r)
{
	return r->fmt->whole;
}

int assay_renderer_begin(assay_renderer *r, const assay_value *run, size_t total, assay_err *err)
{
	int rc;

	if (run && !r->run_arena) { /* kept for the reproduce lines (explain.c) */
		r->run_arena = assay_arena_new(0);
		r->run = assay_value_copy(r->run_arena, run);
	}
	rc = r->fmt->begin ? r->fmt->begin(r, run, total, err) : 0;
	r->begun = true;
	return rc ? rc : assay_report__out_flush(&r->out, err);
}

int assay_renderer_case(assay_renderer *r, const assay_value *line, assay_err *err)
{
	struct assay_report__case c;
	int rc;

	assay_report__case_read(&c, line);
	if ((rc = r->fmt->kase(r, &c, err)))
		return rc;
	/* a write error is reported as soon as it happened, with the file's name */
	if (r->out.rc)
		return assay_report__out_flush(&r->out, err);
	return 0;
}

int assay_renderer_end(assay_renderer *r, const assay_value *summary, assay_err *err)
{
	int rc = r->fmt->end ? r->fmt->end(r, summary, err) : 0;

	return rc ? rc : assay_report__out_commit(&r->out, err);
}

void assay_renderer_free(assay_renderer *r)
{
	if (!r)
		return;
	if (r->fmt->release)
		r->fmt->release(r);
	assay_report__out_release(&r->out);
	free(r->state);
	free(r->path);
	if (r->run_arena)
		assay_arena_free(r->run_arena);
	free(r);
}
