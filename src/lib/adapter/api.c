/*
 * The api adapter (suite-format.md, "A case (api adapter)"): a server started once per group
 * (api_server.c), one HTTP request per case (api_http.c), the case keys read at load
 * (api_load.c). Here: the adapter interface made of them, and the attributes of a case.
 *
 * Key decisions:
 * - The attributes: status_code (the HTTP status; -1 when the request timed out, as a timed out
 *   cli case; null with no answer at all), output (the body as received; with
 *   response_is_json, reports show it parsed when it parses), headers (the last response's,
 *   names in lower case, repeated ones joined with ", "; a JSON mapping of at most 1,000 names,
 *   from at most 256 KiB of header lines), execution_time (the
 *   seconds of the attempt that answered, or of the last one).
 * - The first case of a group waits, without blocking, until the server is ready (bounded by
 *   startup_timeout); a server that never became ready or has ended fails every case of its
 *   group still to run with that reason (execution.message), without a request. So does a
 *   server folder that could not be prepared (the working folders full), unless another case
 *   runs beside the group's first (ctx->start_again): that case may hold the room, so start
 *   returns an error and the pool sets the group up again once a case ends. A request that
 *   fails while the server is running waits up to 250 ms for the server's end to show, so a
 *   server that died is reported as such rather than as "connection refused".
 * - Each case's report gets the server's output since the previous case (execution.log).
 * - execution describes the request, not a process: wall_time is execution_time, status
 *   timed_out when it timed out; the server's own figures are not per case.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapter/api_int.h"
#include "assay/json.h"
#include "util/banned.h"

#define CONFIRM_S 0.25

static const char *const api_case_keys[] = { "method", "path", "headers", "query",
					     "body",   "retries", NULL };
static const char *const api_attributes[] = { "status_code", "output", "headers", NULL };
static const char *const api_suite_keys[] = { "address", "port", "health_path",
					      "startup_timeout", "response_is_json", NULL };

struct api_job {
	struct api_server *srv;
	const assay_run_ctx *ctx;
	const assay_case *c;
	struct api_request req;
	bool requested;          /* req was started */
	bool done;
	double confirm_until;    /* a failed request: until when to look for the server's end */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void free_job(struct api_job *job)
{
	if (job->requested)
		assay_api__request_release(&job->req);
	free(job);
}

/* "before case 'x'" and the like, for a server that ended. */
static void server_gone(struct api_job *job, const char *when)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s case '%s'", when, job->c->id);
	assay_api__server_ended(job->srv, buf);
	job->done = true;
}

/* Sends the case's request to the (ready) server. */
static int send_request(struct api_job *job, assay_err *err)
{
	const struct api_case *ac = job->c->adapter_data;
	char *url = assay_xasprintf("%s%s", job->srv->base_url, ac->target);
	int rc;

	job->req.multi = job->srv->multi;
	job->req.socks = &job->srv->socks;
	job->req.method = ac->method;
	job->req.body = ac->body;
	job->req.body_len = ac->body_len;
	job->req.timeout_s = job->c->timeout;
	job->req.retries_left = ac->retries;
	job->requested = true;
	rc = assay_api__request_start(&job->req, url, ac->headers, job->ctx->out_cap, err);
	free(url);
	return rc;
}

/* Before the request: the server must be ready (the first case of a group waits for it), alive
 * and usable. */
static int step_server(struct api_job *job, assay_err *err)
{
	struct api_server *srv = job->srv;
	int rc;

	if ((rc = assay_api__server_step(srv, err)))
		return rc;
	if (srv->failure) {
		job->done = true;
	} else if (srv->ended) {
		server_gone(job, "before");
	} else if (srv->ready) {
		return send_request(job, err);
	}
	return 0;
}

static int start(void **jobp, void *state, const assay_run_ctx *ctx, const assay_case *c,
		 const char *workdir, assay_err *err)
{
	struct api_server *srv = state;
	struct api_job *job = assay_xcalloc(1, sizeof(*job));
	int rc;

	(void)workdir; /* the server works in the group's folder */
	if (srv->unprepared && ctx->start_again) {
		/* a case running beside it may hold the room its folder needs: the pool undoes
		 * the group (its partial copy with it) and sets it up again once a case ends */
		free(job);
		*jobp = NULL;
		return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "%s", srv->failure);
	}
	job->srv = state;
	job->ctx = ctx;
	job->c = c;
	if ((rc = step_server(job, err))) {
		free_job(job);
		job = NULL;
	}
	*jobp = job;
	return rc;
}

static size_t pollfds(void *jobp, struct pollfd *fds, size_t max)
{
	struct api_job *job = jobp;
	size_t n;

	if (job->done)
		return 0;
	n = assay_api__server_pollfds(job->srv, fds, max);
	if (job->requested && !job->confirm_until)
		n += assay_api__request_pollfds(&job->req, fds + n, max - n);
	return n;
}

static int deadline_ms(void *jobp)
{
	struct api_job *job = jobp;
	int ms;

	if (job->done)
		return 0;
	ms = assay_api__server_deadline_ms(job->srv);
	if (job->confirm_until) {
		double d = job->confirm_until - now_s();

		return assay_api__min_ms(ms, d <= 0 ? 0 : (int)(d * 1000) + 1);
	}
	if (!job->requested)
		return ms;
	return assay_api__min_ms(ms, assay_api__request_deadline_ms(&job->req));
}

static int pump(void *jobp, bool *done, assay_err *err)
{
	struct api_job *job = jobp;
	int rc;

	if (!job->done && !job->requested) {
		if ((rc = step_server(job, err)))
			return rc;
	} else if (!job->done) {
		if ((rc = assay_api__server_pump(job->srv, err)))
			return rc;
		if (job->confirm_until) {
			if (job->srv->ended)
				server_gone(job, "during");
			else if (now_s() >= job->confirm_until)
				job->done = true;
		} else {
			assay_api__request_pump(&job->req);
			if (assay_api__request_answered(&job->req))
				job->done = true;
			else if (job->srv->ended)
				server_gone(job, "during");
			else if (job->req.done)
				job->confirm_until = now_s() + CONFIRM_S;
		}
	}
	*done = job->done;
	return 0;
}

/* Header names kept of one response: a server sending thousands cannot make the (linear)
 * mapping quadratic work for assay. */
#define MAX_HEADERS 1000

/* The header lines of a response as a mapping, names in lower case (the first MAX_HEADERS
 * names; repeats of a kept name are still joined). */
/*
 * The response's headers as a mapping of lower-case names to values, a repeated header's
 * values joined with ", " (as requests does). Each name's value is built once in a buffer of
 * its own: joining in the arena at every repeat cost the square of the repeats (a server
 * repeating one header 64,000 times within the header cap took gigabytes).
 */
/* The largest response body shown parsed in reports (bytes): a parse costs ~16x its text. */
#define SHOWN_PARSED_MAX (4u << 20)

struct header_acc {
	char *name;
	assay_buf value;
};

static assay_value header_map(assay_arena *a, const assay_buf *head)
{
	assay_value m = assay_value_object();
	const char *p = head->ptr, *end = head->ptr + head->len;
	struct header_acc *h = NULL;
	size_t n = 0, last = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end, *colon;

		if (line_end > p && line_end[-1] == '\r')
			line_end--;
		colon = memchr(p, ':', (size_t)(line_end - p));
		if (colon && colon > p && strncmp(p, "HTTP/", 5)) {
			char *name = assay_xstrndup(p, (size_t)(colon - p));
			const char *v = colon + 1, *ve = line_end;
			size_t k = n;

			for (char *q = name; *q; q++)
				*q = (char)tolower((unsigned char)*q);
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			if (n && !strcmp(h[last].name, name)) /* the same header again: common */
				k = last;
			for (size_t i = 0; k == n && i < n; i++)
				if (!strcmp(h[i].name, name))
					k = i;
			if (k < n) {
				assay_buf_adds(&h[k].value, ", ");
				assay_buf_add(&h[k].value, v, (size_t)(ve - v));
				free(name);
				last = k;
			} else if (n < MAX_HEADERS) { /* past the limit: dropped */
				h = assay_xrealloc(h, (n + 1) * sizeof(*h));
				h[n].name = name;
				h[n].value = (assay_buf)ASSAY_BUF_INIT;
				assay_buf_add(&h[n].value, v, (size_t)(ve - v));
				last = n++;
			} else {
				free(name);
			}
		}
		p = eol ? eol + 1 : end;
	}
	for (size_t i = 0; i < n; i++) {
		assay_object_set(a, &m, h[i].name,
				 assay_value_string(a, h[i].value.ptr, h[i].value.len));
		free(h[i].name);
		assay_buf_release(&h[i].value);
	}
	free(h);
	return m;
}

static void add_answer(struct api_job *job, assay_case_result *out)
{
	assay_arena *a = assay_case_result_arena(out);
	struct api_request *r = &job->req;
	assay_value *headers = assay_arena_alloc(a, sizeof(*headers));
	assay_buf text = ASSAY_BUF_INIT;
	size_t blen, hlen;
	const char *body = assay_case_result_keep(out, &r->body_out, &blen);
	const char *htext;
	assay_actual output = { .kind = ASSAY_ACTUAL_BYTES, .bytes = body, .len = blen,
				.truncated = r->body_truncated };

	*headers = header_map(a, &r->head);
	assay_json_write(&text, headers, 0);
	htext = assay_case_result_keep(out, &text, &hlen);
	/* shown parsed in reports: only a body small enough to parse outside any budget (the
	 * verifiers parse the bytes themselves, within theirs) */
	if (assay_api__config(job->ctx->suite)->response_is_json && !r->body_truncated &&
	    blen <= SHOWN_PARSED_MAX) {
		assay_value *parsed = assay_arena_alloc(a, sizeof(*parsed));

		if (!assay_json_parse(parsed, a, body, blen, NULL, NULL))
			output.value = parsed;
	}
	assay_case_result_add(out, "status_code",
			      (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = r->status });
	assay_case_result_add(out, "output", output);
	assay_case_result_add(out, "headers",
			      (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = htext,
					      .len = hlen, .value = headers });
}

static int finish(void *jobp, assay_case_result *out, assay_err *err)
{
	struct api_job *job = jobp;
	struct api_request *r = &job->req;
	assay_arena *a = assay_case_result_arena(out);
	assay_actual none = { .kind = ASSAY_ACTUAL_MISSING };
	bool timed_out = false;

	(void)err;
	out->proc = (assay_proc_result){ 0 };
	if (job->requested && assay_api__request_answered(r) && !job->srv->failure) {
		add_answer(job, out);
	} else {
		timed_out = job->requested && !job->srv->failure &&
			    r->code == CURLE_OPERATION_TIMEDOUT;
		assay_case_result_add(out, "status_code",
				      timed_out ? (assay_actual){ .kind = ASSAY_ACTUAL_INT,
								  .integer = -1 }
						: none);
		assay_case_result_add(out, "output", none);
		assay_case_result_add(out, "headers", none);
		if (job->srv->failure)
			out->error = assay_arena_strndup(a, job->srv->failure,
							 strlen(job->srv->failure));
		else if (timed_out)
			out->error = assay_value_stringf(a, "timed out after %g seconds%s",
							 job->c->timeout,
							 r->retries_done ? " (every attempt)" : "").u.s;
		else
			out->error = assay_value_stringf(
				a, "no answer from the server at %s (%d attempt%s): %s",
				job->srv->base_url, r->retries_done + 1,
				r->retries_done ? "s" : "",
				r->errbuf[0] ? r->errbuf : curl_easy_strerror(r->code)).u.s;
	}
	double elapsed = job->requested ? r->elapsed : 0;
	/* no request sent (the server never became ready, or died): no time was measured, and
	 * an execution_time limit must not pass on a zero */
	assay_case_result_add(out, "execution_time",
			      job->requested ? (assay_actual){ .kind = ASSAY_ACTUAL_REAL,
							       .real = elapsed }
					     : none);
	/* no server ever ran: the case is an error, not the submission's failure */
	out->proc.status = timed_out		? ASSAY_PROC_TIMED_OUT
			   : job->srv->never_ran ? ASSAY_PROC_EXEC_FAILED
						 : ASSAY_PROC_EXITED;
	out->proc.limit = timed_out ? ASSAY_LIMIT_WALL : ASSAY_LIMIT_NONE;
	out->proc.wall_s = elapsed;
	out->log = assay_api__server_log(job->srv, out);
	free_job(job);
	return 0;
}

static void abort_job(void *jobp)
{
	free_job(jobp);
}

/* A fixed port: one server at a time, so one group at a time whatever -j is. */
static size_t groups_at_once(const assay_suite *suite)
{
	return assay_api__config(suite)->port ? 1 : 0;
}

const assay_adapter assay_adapter_api = {
	.name = "api",
	.case_keys = api_case_keys,
	.attributes = api_attributes,
	.files = false,
	.serial_groups = true,
	.load_suite = assay_api__load_suite,
	.load_case = assay_api__load_case,
	.group_begin = assay_api__group_begin,
	.start = start,
	.pollfds = pollfds,
	.deadline_ms = deadline_ms,
	.pump = pump,
	.finish = finish,
	.abort = abort_job,
	.group_end = assay_api__group_end,
	.groups_at_once = groups_at_once,
	.suite_keys = api_suite_keys,
	.requests = true,
};
