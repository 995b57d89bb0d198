/*
 * One HTTP request of the api adapter, driven without blocking: libcurl's multi interface with
 * a socket callback (the sockets to poll) and a timer callback (when to call it again), so a
 * request fits the adapter's pollfds / deadline_ms / pump and a pool can drive many.
 *
 * Key decisions:
 * - curl_multi_socket_action() is told which socket is ready: pump polls the sockets libcurl
 *   asked for with a zero timeout itself, since the adapter interface hands no revents down.
 * - Only plain HTTP/1.1 to the server: no proxy (the environment's http_proxy is ignored), no
 *   redirect followed (a 3xx is the answer), no other protocol, no "Expect: 100-continue"
 *   wait. libcurl's timeouts are off signals (CURLOPT_NOSIGNAL). `.` and `..` segments of a
 *   path are resolved before sending, as requests (urllib3) and libcurl both do.
 * - A fresh connection per request, closed after it: every attempt is one the case asked for
 *   (libcurl sends a request again by itself on a kept connection the server closed).
 * - Each attempt has the case's timeout. Connection errors and timeouts are retried after
 *   0.1 s, doubling up to 2 s, while retries are left; any HTTP answer ends the request.
 * - The body is kept up to the caller's cap (the rest is read and dropped, and marked
 *   truncated); the header lines of the last response (after a 1xx) up to 256 KiB.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "adapter/api_int.h"
#include "util/banned.h"

#define HEAD_CAP (256 * 1024)
#define BACKOFF_FIRST 0.1
#define BACKOFF_MAX 2.0

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int on_socket(CURL *e, curl_socket_t fd, int what, void *userp, void *socketp)
{
	struct api_sockets *k = userp;
	size_t i = 0;

	(void)e;
	(void)socketp;
	while (i < k->n && k->fds[i].fd != fd)
		i++;
	if (what == CURL_POLL_REMOVE) {
		if (i < k->n)
			k->fds[i] = k->fds[--k->n];
		return 0;
	}
	if (i == k->n) {
		if (k->n == API_MAX_SOCKETS)
			return -1;
		k->n++;
		k->fds[i].fd = fd;
	}
	k->fds[i].events = (short)((what & CURL_POLL_IN ? POLLIN : 0) |
				   (what & CURL_POLL_OUT ? POLLOUT : 0));
	k->fds[i].revents = 0;
	return 0;
}

static int on_timer(CURLM *m, long timeout_ms, void *userp)
{
	struct api_sockets *k = userp;

	(void)m;
	k->timer = timeout_ms < 0 ? 0 : now_s() + (double)timeout_ms / 1000.0;
	return 0;
}

CURLM *assay_api__multi_new(struct api_sockets *socks)
{
	CURLM *m;

	/* libcurl initialises itself on the first easy handle; make one before the multi. */
	CURL *probe = curl_easy_init();

	if (!probe)
		return NULL;
	curl_easy_cleanup(probe);
	if (!(m = curl_multi_init()))
		return NULL;
	memset(socks, 0, sizeof(*socks));
	curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl_multi_setopt(m, CURLMOPT_SOCKETDATA, socks);
	curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, on_timer);
	curl_multi_setopt(m, CURLMOPT_TIMERDATA, socks);
	return m;
}

static size_t on_body(char *data, size_t size, size_t n, void *userdata)
{
	struct api_request *r = userdata;

	if (assay_buf_add(&r->body_out, data, size * n))
		r->body_truncated = true; /* read on, keep nothing more */
	return size * n;
}

static size_t on_header(char *data, size_t size, size_t n, void *userdata)
{
	struct api_request *r = userdata;

	if (size * n >= 5 && !memcmp(data, "HTTP/", 5))
		assay_buf_reset(&r->head); /* a new response (after 100 Continue) */
	assay_buf_add(&r->head, data, size * n);
	return size * n;
}

/* One of the "Name: value" lines names header `lower` (compared without regard to case). */
static bool has_header(const char *const *headers, const char *lower)
{
	size_t n = strlen(lower);

	for (; headers && *headers; headers++)
		if (!strncasecmp(*headers, lower, n) && ((*headers)[n] == ':' ||
							 (*headers)[n] == ';'))
			return true;
	return false;
}

static void attempt(struct api_request *r)
{
	assay_buf_reset(&r->body_out);
	assay_buf_reset(&r->head);
	r->body_truncated = false;
	r->errbuf[0] = '\0';
	r->status = 0;
	r->t_attempt = now_s();
	r->retry_at = 0;
	if (curl_multi_add_handle(r->multi, r->easy) != CURLM_OK) {
		r->code = CURLE_FAILED_INIT;
		r->done = true;
	}
}

int assay_api__request_start(struct api_request *r, const char *url, const char *const *headers,
			     size_t cap, assay_err *err)
{
	long ms = r->timeout_s > 0 ? (long)(r->timeout_s * 1000.0 + 0.5) : 0;
	const char *const *headers0 = headers;

	r->url = assay_xstrdup(url);
	assay_buf_init(&r->body_out, 0, cap);
	assay_buf_init(&r->head, 0, HEAD_CAP);
	if (!(r->easy = curl_easy_init()))
		return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "libcurl cannot make a request");
	for (; headers && *headers; headers++)
		r->slist = curl_slist_append(r->slist, *headers);
	r->slist = curl_slist_append(r->slist, "Expect:");
	curl_easy_setopt(r->easy, CURLOPT_URL, r->url);
#if LIBCURL_VERSION_NUM >= 0x075500 /* 7.85 */
	curl_easy_setopt(r->easy, CURLOPT_PROTOCOLS_STR, "http");
#else
	curl_easy_setopt(r->easy, CURLOPT_PROTOCOLS, (long)CURLPROTO_HTTP);
#endif
	curl_easy_setopt(r->easy, CURLOPT_PROXY, "");
	curl_easy_setopt(r->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(r->easy, CURLOPT_FOLLOWLOCATION, 0L);
	/* a connection per request: libcurl would silently send again on a reused connection
	 * the server closed, which is an attempt the case did not ask for */
	curl_easy_setopt(r->easy, CURLOPT_FRESH_CONNECT, 1L);
	curl_easy_setopt(r->easy, CURLOPT_FORBID_REUSE, 1L);
	curl_easy_setopt(r->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(r->easy, CURLOPT_HTTPHEADER, r->slist);
	curl_easy_setopt(r->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(r->easy, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(r->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(r->easy, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(r->easy, CURLOPT_ERRORBUFFER, r->errbuf);
	curl_easy_setopt(r->easy, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(r->easy, CURLOPT_CONNECTTIMEOUT_MS, ms);
	if (!strcmp(r->method, "HEAD")) {
		curl_easy_setopt(r->easy, CURLOPT_NOBODY, 1L);
	} else if (strcmp(r->method, "GET") || r->body) {
		curl_easy_setopt(r->easy, CURLOPT_CUSTOMREQUEST, r->method);
	}
	if (r->body) {
		curl_easy_setopt(r->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
		curl_easy_setopt(r->easy, CURLOPT_POSTFIELDS, r->body);
	} else if (!strcmp(r->method, "POST") || !strcmp(r->method, "PUT") ||
		   !strcmp(r->method, "PATCH")) {
		/* no body: an empty one, so that the request says `Content-Length: 0` as httpx
		 * does (servers on Python's http.server answer 400 to a POST without a length);
		 * libcurl would add a form Content-Type to it, which the case did not ask for */
		if (!has_header(headers0, "content-type"))
			r->slist = curl_slist_append(r->slist, "Content-Type:");
		curl_easy_setopt(r->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)0);
		curl_easy_setopt(r->easy, CURLOPT_POSTFIELDS, "");
	}
	attempt(r);
	return 0;
}

size_t assay_api__request_pollfds(const struct api_request *r, struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (r->done || r->retry_at || !r->easy)
		return 0;
	for (size_t i = 0; i < r->socks->n && n < max; i++)
		fds[n++] = r->socks->fds[i];
	return n;
}

static int ms_until(double t)
{
	double d = t - now_s();

	if (d <= 0)
		return 0;
	return d > 3600 ? 3600000 : (int)(d * 1000.0) + 1;
}

int assay_api__request_deadline_ms(const struct api_request *r)
{
	if (r->done || !r->easy)
		return -1;
	if (r->retry_at)
		return ms_until(r->retry_at);
	return r->socks->timer ? ms_until(r->socks->timer) : -1;
}

static bool retryable(CURLcode c)
{
	return c == CURLE_COULDNT_CONNECT || c == CURLE_OPERATION_TIMEDOUT ||
	       c == CURLE_GOT_NOTHING || c == CURLE_RECV_ERROR || c == CURLE_SEND_ERROR;
}

static void attempt_ended(struct api_request *r, CURLcode code)
{
	double backoff = BACKOFF_FIRST;

	curl_multi_remove_handle(r->multi, r->easy);
	r->code = code;
	r->elapsed = now_s() - r->t_attempt;
	if (code == CURLE_OK)
		curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &r->status);
	if (code != CURLE_OK && retryable(code) && r->retries_left > 0) {
		for (int i = r->retries_done; i > 0 && backoff < BACKOFF_MAX; i--)
			backoff *= 2;
		r->retries_left--;
		r->retries_done++;
		r->retry_at = now_s() + (backoff < BACKOFF_MAX ? backoff : BACKOFF_MAX);
		return;
	}
	r->done = true;
}

void assay_api__request_pump(struct api_request *r)
{
	struct pollfd fds[API_MAX_SOCKETS];
	size_t n = r->socks->n;
	int running, left;
	CURLMsg *msg;

	if (r->done || !r->easy)
		return;
	if (r->retry_at) {
		if (now_s() < r->retry_at)
			return;
		attempt(r);
		if (r->done)
			return;
	}
	/* the callbacks change the table while libcurl works: act on a copy */
	memcpy(fds, r->socks->fds, n * sizeof(*fds));
	if (n && poll(fds, n, 0) > 0) {
		for (size_t i = 0; i < n; i++) {
			int ev = 0;

			if (fds[i].revents & (POLLIN | POLLHUP))
				ev |= CURL_CSELECT_IN;
			if (fds[i].revents & POLLOUT)
				ev |= CURL_CSELECT_OUT;
			if (fds[i].revents & (POLLERR | POLLNVAL))
				ev |= CURL_CSELECT_ERR;
			if (ev)
				curl_multi_socket_action(r->multi, fds[i].fd, ev, &running);
		}
	}
	if (r->socks->timer && now_s() >= r->socks->timer) {
		r->socks->timer = 0;
		curl_multi_socket_action(r->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	while ((msg = curl_multi_info_read(r->multi, &left)))
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == r->easy)
			attempt_ended(r, msg->data.result);
}

bool assay_api__request_answered(const struct api_request *r)
{
	return r->done && r->code == CURLE_OK && r->status > 0;
}

void assay_api__request_release(struct api_request *r)
{
	if (r->easy) {
		curl_multi_remove_handle(r->multi, r->easy);
		curl_easy_cleanup(r->easy);
	}
	curl_slist_free_all(r->slist);
	assay_buf_release(&r->body_out);
	assay_buf_release(&r->head);
	free(r->url);
	r->easy = NULL;
	r->slist = NULL;
	r->url = NULL;
}
