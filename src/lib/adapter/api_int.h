/*
 * Internals of the api adapter (src/lib/adapter/api*.c). Never installed.
 *
 * api_load.c reads the suite's and each case's keys; api_server.c starts and stops the server
 * of a group and waits until it answers; api_http.c sends one request through libcurl's multi
 * interface without blocking; api.c is the adapter (adapter.h) made of them.
 */
#ifndef ASSAY_API_INT_H
#define ASSAY_API_INT_H

#include <curl/curl.h>

#include "assay/adapter.h"

/* What the api adapter reads of suite.yaml's adapter mapping (suite->adapter_data). */
struct api_config {
	const char *address;     /* a literal IPv4 or IPv6 address (default 127.0.0.1) */
	bool ipv6;
	unsigned port;           /* 0: a free one, picked per group */
	const char *health_path; /* default "/" */
	double startup_timeout;  /* seconds (default 10) */
	bool response_is_json;
};

/* What the api adapter reads of a case (its adapter_data), all in the case's arena. */
struct api_case {
	const char *method;      /* upper case; GET by default */
	const char *target;      /* path, with the query appended ("/items?q=a+b") */
	const char **headers;    /* "Name: value", NULL-terminated */
	const char *body;        /* NULL: none */
	size_t body_len;
	int retries;             /* extra attempts on connection errors and timeouts */
};

/* api_load.c */
int assay_api__load_suite(assay_suite *s, const assay_value *config, assay_err *err);
int assay_api__load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			 assay_err *err);
/* The suite's api settings (the defaults when it has none). */
const struct api_config *assay_api__config(const assay_suite *s);

/* ---- api_http.c: one request (and its retries) driven by poll ---- */

#define API_MAX_SOCKETS 8

/* The sockets libcurl wants polled, shared by the requests of one multi handle. */
struct api_sockets {
	struct pollfd fds[API_MAX_SOCKETS];
	size_t n;
	double timer;            /* CLOCK_MONOTONIC seconds libcurl wants a call at, or 0 */
};

struct api_request {
	CURLM *multi;            /* borrowed: the group's */
	struct api_sockets *socks;
	CURL *easy;
	struct curl_slist *slist;
	char *url;
	const char *method;
	const char *body;        /* borrowed */
	size_t body_len;
	double timeout_s;        /* per attempt */
	int retries_left;
	int retries_done;
	double retry_at;         /* 0, or when the next attempt starts */
	double t_attempt;        /* when the current attempt started */
	bool done;
	/* the outcome of the last attempt */
	CURLcode code;
	long status;             /* HTTP status, 0 without an answer */
	double elapsed;          /* seconds of the last attempt */
	char errbuf[CURL_ERROR_SIZE];
	assay_buf body_out;      /* capped by the caller's out_cap */
	bool body_truncated;
	assay_buf head;          /* the last response's header lines, raw */
};

/* Makes a multi handle whose sockets go into `socks`. NULL if libcurl cannot. */
CURLM *assay_api__multi_new(struct api_sockets *socks);
/*
 * Starts request `r` (set up by the caller: multi, socks, method, body, timeout_s, retries_left)
 * of `url` with header lines `headers` (NULL-terminated, may be NULL), keeping at most `cap`
 * bytes of the body. @return 0 or ASSAY_EIO (libcurl refused)
 */
int assay_api__request_start(struct api_request *r, const char *url, const char *const *headers,
			     size_t cap, assay_err *err);
/* What to poll for `r` (its sockets): how many were filled in `fds` (room for `max`). */
size_t assay_api__request_pollfds(const struct api_request *r, struct pollfd *fds, size_t max);
/* Milliseconds until `r` has something timed to do, -1 if nothing, 0 if overdue. */
int assay_api__request_deadline_ms(const struct api_request *r);
/* Does what is ready; `r->done` once the last attempt has ended. */
void assay_api__request_pump(struct api_request *r);
/* Whether the outcome is an HTTP answer (any status). */
bool assay_api__request_answered(const struct api_request *r);
/* Frees what `r` holds (removing it from its multi handle). */
void assay_api__request_release(struct api_request *r);

/* ---- api_server.c: the server of a group ---- */

struct api_server {
	const assay_run_ctx *ctx;
	const struct api_config *cfg;
	assay_proc p;
	char *dir;               /* where it runs: <group folder>/.server */
	char *tmp;               /* the server's private temporary folder */
	char *base_url;          /* "http://127.0.0.1:PORT" */
	unsigned port;
	bool started;            /* the proc was started (and is not released) */
	bool ended;              /* the proc has ended: `result` holds how */
	assay_proc_result result;
	char *failure;           /* why the server cannot take cases (never ready, ended), or NULL */
	bool unprepared;         /* `failure`: its folder or TMPDIR could not be made (no room);
				    a case started beside a running one (ctx->start_again) then
				    returns an error: the pool sets the group up again later */
	bool never_ran;          /* `failure`: no server ever ran (its folder not made, its
				    command not started, its fixed port another program's): its
				    cases are errors, as a cli case whose program could not start */
	CURLM *multi;
	struct api_sockets socks;
	/* readiness */
	bool ready;              /* it answered on health_path */
	double ready_deadline;   /* CLOCK_MONOTONIC: startup_timeout from its start */
	double next_probe;       /* when to probe again */
	double backoff;
	bool probing;            /* `probe` is under way */
	struct api_request probe;
};

/* group_begin and group_end of the api adapter. */
int assay_api__group_begin(void **state, const assay_run_ctx *ctx, assay_err *err);
void assay_api__group_end(void *state);
/* Reads the server's output and notices its end, without waiting. @return as assay_proc_pump */
int assay_api__server_pump(struct api_server *s, assay_err *err);
/*
 * Moves the server toward ready without waiting: reads its output, notices its end, probes
 * health_path; sets `ready`, or `failure` (it ended, or startup_timeout passed).
 * @return 0, or as assay_proc_pump / assay_api__request_start
 */
int assay_api__server_step(struct api_server *s, assay_err *err);
/* The server's descriptors to poll (its pipes, a probe's sockets; room for `max`). */
size_t assay_api__server_pollfds(const struct api_server *s, struct pollfd *fds, size_t max);
/* Milliseconds until the server has something timed to do, -1 if nothing, 0 if overdue. */
int assay_api__server_deadline_ms(const struct api_server *s);
/* Sets s->failure (when not set yet) from how the server ended, naming `when`. */
void assay_api__server_ended(struct api_server *s, const char *when);
/*
 * The server's output since the last call, for a case's `log` ("stdout:\n...\nstderr:\n...",
 * each part cut to its last bytes), in `r`'s arena; NULL when there is none.
 */
const char *assay_api__server_log(struct api_server *s, assay_case_result *r);

/* The earlier of two poll timeouts in milliseconds, -1 meaning none. */
static inline int assay_api__min_ms(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

#endif
