/*
 * assay skill review WORKSPACE [-o FILE] [--serve [--port P]] (issue 20 item 4): writes the
 * review page (default WORKSPACE/review.html); with --serve, also serves it on 127.0.0.1 and
 * takes the page's feedback (POST /feedback), which assay checks and writes as
 * WORKSPACE/feedback.json, until interrupted.
 *
 * The server is a small one, for one person on this machine: loopback only, one connection at
 * a time, requests capped (16 KiB of headers, 1 MiB of body), no keep-alive, and each
 * connection has 10 s in all, its request and the reply: a client that sends slowly or stops
 * reading is dropped, not waited for, so it cannot hold the server. Only requests whose Host
 * is 127.0.0.1:PORT or localhost:PORT are answered (403 otherwise: a web site whose name was
 * rebound to 127.0.0.1 cannot read the page). A POST must say Content-Type application/json
 * (that media type exactly, parameters allowed) and, when it carries an Origin, come from the
 * page's own origin: another web site open in the same browser cannot write the feedback (a
 * cross-site form or fetch gets 415 or 403).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/skill.h"
#include "cmd.h"
#include "cmd_skill.h"
#include "exit.h"
#include "util/banned.h"

#define HEAD_MAX (16u << 10)
#define BODY_MAX (1u << 20)
#define EXCHANGE_S 10 /* a connection's whole time: its request and the reply */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Waits until `fd` is ready for `events` before the deadline; false when it passed. */
static bool wait_for(int fd, short events, double deadline)
{
	for (;;) {
		double left = deadline - now_s();
		struct pollfd p = { fd, events, 0 };
		int r;

		if (left <= 0)
			return false;
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		return r > 0;
	}
}

/* Sends what the deadline allows: a client that stops reading is given up on, never waited
 * for past it (the socket is non-blocking). */
static void send_all(int fd, const char *p, size_t n, double deadline)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!wait_for(fd, POLLOUT, deadline))
				return;
			continue;
		}
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void reply(int fd, double deadline, int status, const char *reason, const char *type,
		  const char *body, size_t len)
{
	char head[256];
	int n = snprintf(head, sizeof(head), "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
			 "Content-Length: %zu\r\nCache-Control: no-store\r\n"
			 "Connection: close\r\n\r\n", status, reason, type, len);
	send_all(fd, head, (size_t)n, deadline);
	send_all(fd, body, len, deadline);
}

/* Reads until `want` bytes are in `b` (or the headers end, want == 0), within the deadline. */
static int read_more(int fd, assay_buf *b, size_t want, double deadline)
{
	char chunk[8192];

	for (;;) {
		if (want ? b->len >= want : memmem(b->ptr, b->len, "\r\n\r\n", 4) != NULL)
			return 0;
		if ((want ? want : HEAD_MAX) > HEAD_MAX + BODY_MAX || b->len > HEAD_MAX + BODY_MAX)
			return -1;
		if (!want && b->len > HEAD_MAX)
			return -1;
		if (!wait_for(fd, POLLIN, deadline))
			return -1;
		ssize_t r = recv(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (r <= 0)
			return -1;
		if (assay_buf_add(b, chunk, (size_t)r))
			return -1;
	}
}

/* The value of header `name` in the header block (case-insensitive), copied into `out`. */
static bool header(const char *h, size_t n, const char *name, char *out, size_t size)
{
	size_t k = strlen(name);

	for (const char *p = h; p && p < h + n;) {
		const char *e = memmem(p, (size_t)(h + n - p), "\r\n", 2);
		size_t len = e ? (size_t)(e - p) : (size_t)(h + n - p);
		if (len > k && p[k] == ':' && !strncasecmp(p, name, k)) {
			const char *v = p + k + 1;
			while (v < p + len && (*v == ' ' || *v == '\t'))
				v++;
			snprintf(out, size, "%.*s", (int)(p + len - v), v);
			return true;
		}
		p = e ? e + 2 : NULL;
	}
	return false;
}

/* `val` (a Content-Type) is the media type `type` exactly, case-insensitive, parameters
 * allowed after a ';' ("application/json; charset=utf-8", not "application/jsonp"). */
static bool media_type_is(const char *val, const char *type)
{
	size_t k = strlen(type), n = strcspn(val, ";");

	while (n && (val[n - 1] == ' ' || val[n - 1] == '\t'))
		n--;
	return n == k && !strncasecmp(val, type, k);
}

/* The Host header names this server: 127.0.0.1:PORT or localhost:PORT, nothing else (no other
 * name, so a DNS-rebound one, and not the port left out). */
static bool host_is_ours(const char *h, size_t n, int port)
{
	char val[512], ip[32], name[32];

	if (!header(h, n, "Host", val, sizeof(val)))
		return false;
	val[strcspn(val, " \t")] = '\0';
	snprintf(ip, sizeof(ip), "127.0.0.1:%d", port);
	snprintf(name, sizeof(name), "localhost:%d", port);
	return !strcmp(val, ip) || !strcasecmp(val, name);
}

static void serve_one(int fd, const char *ws, const char *page_path, int port)
{
	assay_buf b = ASSAY_BUF_INIT;
	char val[512], origin[64], origin_name[64];
	double deadline = now_s() + EXCHANGE_S;

	if (read_more(fd, &b, 0, deadline)) {
		reply(fd, deadline, 400, "Bad Request", "text/plain", "bad request\n", 12);
		goto out;
	}
	const char *end = memmem(b.ptr, b.len, "\r\n\r\n", 4);
	size_t hlen = (size_t)(end - b.ptr) + 4;
	bool get = !strncmp(b.ptr, "GET ", 4), post = !strncmp(b.ptr, "POST ", 5);
	const char *path = b.ptr + (get ? 4 : 5);
	size_t plen = strcspn(path, " \r\n");
	snprintf(origin, sizeof(origin), "http://127.0.0.1:%d", port);
	snprintf(origin_name, sizeof(origin_name), "http://localhost:%d", port);

	if (!host_is_ours(b.ptr, hlen, port)) {
		reply(fd, deadline, 403, "Forbidden", "text/plain", "another host\n", 13);
		goto out;
	}

	if (get && (!strncmp(path, "/ ", 2) || !strncmp(path, "/review.html ", 13))) {
		assay_buf page = ASSAY_BUF_INIT;
		assay_err err = ASSAY_ERR_INIT;
		/* made afresh per request, so it shows the feedback saved so far */
		if (assay_skill_review_page(&page, ws, true, &err)) {
			reply(fd, deadline, 500, "Internal Server Error", "text/plain", err.msg,
			      strlen(err.msg));
		} else {
			reply(fd, deadline, 200, "OK", "text/html; charset=utf-8", page.ptr, page.len);
			assay_fs_write_atomic(page_path, page.ptr, page.len, 0644, NULL);
		}
		assay_buf_release(&page);
	} else if (post && plen == 9 && !strncmp(path, "/feedback", 9)) {
		long long len = -1;
		if (header(b.ptr, hlen, "Origin", val, sizeof(val)) && strcmp(val, origin) &&
		    strcasecmp(val, origin_name)) {
			reply(fd, deadline, 403, "Forbidden", "text/plain", "another origin\n", 15);
			goto out;
		}
		if (!header(b.ptr, hlen, "Content-Type", val, sizeof(val)) ||
		    !media_type_is(val, "application/json")) {
			reply(fd, deadline, 415, "Unsupported Media Type", "text/plain",
			      "send application/json\n", 22);
			goto out;
		}
		if (header(b.ptr, hlen, "Content-Length", val, sizeof(val)))
			len = strtoll(val, NULL, 10);
		if (len < 0 || len > (long long)BODY_MAX ||
		    read_more(fd, &b, hlen + (size_t)len, deadline)) {
			reply(fd, deadline, 413, "Payload Too Large", "text/plain", "bad or big body\n", 16);
			goto out;
		}
		assay_err err = ASSAY_ERR_INIT;
		if (assay_skill_feedback_save(ws, b.ptr + hlen, (size_t)len, &err)) {
			reply(fd, deadline, 400, "Bad Request", "text/plain", err.msg, strlen(err.msg));
		} else {
			reply(fd, deadline, 200, "OK", "text/plain", "saved\n", 6);
			printf("feedback saved: %s/feedback.json\n", ws);
			fflush(stdout);
		}
	} else {
		reply(fd, deadline, 404, "Not Found", "text/plain", "not found\n", 10);
	}
out:
	assay_buf_release(&b);
}

static int serve(const char *ws, const char *page_path, int port)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
	struct sockaddr_in a = { 0 };
	socklen_t al = sizeof(a);

	if (s < 0)
		return cli_error(CLI_EXIT_INTERNAL, "socket: %s", strerror(errno));
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 8) ||
	    getsockname(s, (struct sockaddr *)&a, &al)) {
		int e = errno;
		close(s);
		return cli_error(CLI_EXIT_INTERNAL, "cannot listen on 127.0.0.1:%d: %s", port,
				 strerror(e));
	}
	port = ntohs(a.sin_port);
	printf("serving http://127.0.0.1:%d/ (feedback goes to %s/feedback.json; Ctrl-C stops)\n",
	       port, ws);
	fflush(stdout);
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			close(s);
			return cli_error(CLI_EXIT_INTERNAL, "accept: %s", strerror(errno));
		}
		serve_one(c, ws, page_path, port);
		close(c);
	}
}

int cli_skill_review(int argc, char **argv)
{
	static const char usage[] = "assay skill review WORKSPACE [-o FILE] [--serve [--port P]]";
	const char *outp = NULL, *words[1];
	bool serving = false;
	size_t port = 0;
	const cli_opt opts[] = {
		{ "output", 'o', CLI_OPT_STRING, &outp, "FILE",
		  "where the page is written (default: WORKSPACE/review.html)" },
		{ "serve", 0, CLI_OPT_FLAG, &serving, NULL,
		  "serve the page on 127.0.0.1 and save its feedback as feedback.json" },
		{ "port", 0, CLI_OPT_COUNT, &port, "P", "the port to serve on (default: a free one)" },
		{ NULL },
	};
	assay_buf page = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int rc = cli_parse_words(argc, argv, opts, usage, words, 1);

	if (rc != CLI_GO)
		return rc;
	if (port > 65535)
		return cli_error(CLI_EXIT_USAGE, "--port must be at most 65535");
	if ((rc = assay_skill_review_page(&page, words[0], serving, &err))) {
		assay_buf_release(&page);
		return cli_skill_exit(rc, &err);
	}
	char *path = outp ? assay_xstrdup(outp) : assay_path_join(words[0], "review.html");
	if ((rc = assay_fs_write_atomic(path, page.ptr, page.len, 0644, &err))) {
		assay_buf_release(&page);
		free(path);
		return cli_skill_exit(rc, &err);
	}
	assay_buf_release(&page);
	printf("%s\n", path);
	fflush(stdout);
	if (serving) {
		char *ws = assay_path_absolute(words[0]);
		rc = serve(ws, path, (int)port);
		free(ws);
	}
	free(path);
	return rc;
}
