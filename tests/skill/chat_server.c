/*
 * A tiny chat-completions server for the HTTP judge test: listens on 127.0.0.1 (an
 * ephemeral port, written to PORT_FILE), answers each POST with a chat completion whose
 * message content is the text of ANSWER_FILE, and logs every request body (one line each) to
 * LOG_FILE with its Authorization header. The first FAIL_FIRST requests get HTTP 500. It
 * serves at most MAX requests and exits by itself after 60 seconds: loopback only, bounded.
 *
 * usage: assay-chat-server PORT_FILE ANSWER_FILE LOG_FILE [FAIL_FIRST [MAX]]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	fclose(f);
	return buf;
}

/* Appends `s` as a JSON string body (without quotes). */
static void json_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	int fail_first = argc > 4 ? atoi(argv[4]) : 0, max = argc > 5 ? atoi(argv[5]) : 50;
	int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	time_t start = time(NULL);

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) || listen(s, 8) ||
	    getsockname(s, (struct sockaddr *)&addr, &len))
		return 1;
	FILE *pf = fopen(argv[1], "w");
	if (!pf)
		return 1;
	fprintf(pf, "%d\n", ntohs(addr.sin_port));
	fclose(pf);

	for (int served = 0; served < max && time(NULL) - start < 60;) {
		struct pollfd p = { s, POLLIN, 0 };
		if (poll(&p, 1, 1000) <= 0)
			continue;
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		char req[1 << 20];
		size_t got = 0;
		char *body = NULL;
		long want = -1;
		while (got < sizeof(req) - 1) {
			struct pollfd q = { c, POLLIN, 0 };
			if (poll(&q, 1, 5000) <= 0)
				break;
			ssize_t n = read(c, req + got, sizeof(req) - 1 - got);
			if (n <= 0)
				break;
			got += (size_t)n;
			req[got] = '\0';
			if (!body && (body = strstr(req, "\r\n\r\n"))) {
				body += 4;
				char *cl = strcasestr(req, "content-length:");
				want = cl ? atol(cl + 15) : 0;
			}
			if (body && (long)(got - (size_t)(body - req)) >= want)
				break;
		}
		served++;
		FILE *log = fopen(argv[3], "a");
		if (log && body) {
			char *auth = strcasestr(req, "authorization: ");
			char *eol = auth ? strstr(auth, "\r\n") : NULL;
			fprintf(log, "%.*s\t%s\n", auth && eol ? (int)(eol - auth) : 0,
				auth ? auth : "", body);
		}
		if (log)
			fclose(log);
		char *resp = NULL;
		size_t rlen = 0;
		FILE *out = open_memstream(&resp, &rlen);
		if (served <= fail_first) {
			fputs("{\"error\": {\"message\": \"overloaded\"}}", out);
		} else {
			char *answer = slurp(argv[2]);
			fputs("{\"id\": \"chatcmpl-test\", \"object\": \"chat.completion\", "
			      "\"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", "
			      "\"content\": \"", out);
			json_escape(out, answer ? answer : "");
			fputs("\"}, \"finish_reason\": \"stop\"}], \"usage\": {\"prompt_tokens\": "
			      "1000, \"completion_tokens\": 200, \"total_tokens\": 1200}}", out);
			free(answer);
		}
		fclose(out);
		dprintf(c, "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: "
			"%zu\r\nConnection: close\r\n\r\n", served <= fail_first ? "500 Internal "
			"Server Error" : "200 OK", rlen);
		if (write(c, resp, rlen) < 0)
			perror("write");
		free(resp);
		close(c);
	}
	close(s);
	return 0;
}
