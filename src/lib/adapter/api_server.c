/*
 * The server of an api group (suite-format.md, "A case (api adapter)"): started once per group
 * in the group's folder, waited for until it answers, read from while its cases run, and
 * stopped, with everything it started, when the group ends.
 *
 * Key decisions:
 * - The command is adapter.command (or --entry) with `{address}` and `{port}` replaced in every
 *   word; when no word holds either, `--address A --port P` is appended.
 * - The port is adapter.port, or one the kernel picks free on the address (bound to port 0,
 *   read, closed: another program could take it in between; the server then fails to bind and
 *   the group's cases say so). A fixed port that cannot be bound (another program listens on
 *   it, whose answers would pass for the server's) fails the group's cases without a start.
 * - It runs like a cli case (docs/security.md): under the case supervisor, in the run's sandbox,
 *   with the group's limits, a clean environment (PATH, LANG, HOME = the group's folder,
 *   TMPDIR = a private folder, --pass-env, then the adapter's and checkpoint's env; a case's
 *   env cannot reach a server started before it), and no timeout of its own. With the network
 *   off it may still bind and listen on its port (assay_sandbox.tcp_port), and connects nowhere.
 * - It runs in `<group folder>/.server`, a fresh copy of the submission (case ids never start
 *   with a dot, so no case's working folder can be it or be removed from under it); that folder
 *   and its private TMPDIR are all it may write. Either one that cannot be made (the working
 *   folders full) fails the group's cases with the reason, not the run (prepare); beside a
 *   running case the first case's start refuses instead, and the pool sets the group up again
 *   once a case ends (api.c).
 * - Ready means any HTTP answer on health_path (a 404 too), within startup_timeout seconds,
 *   trying again after 20 ms, doubling up to 500 ms. group_begin only starts the server; the
 *   waiting is done without blocking by the first case (assay_api__server_step from its pump),
 *   so a pool drives other cases meanwhile. Its output is read all along, so a chatty server
 *   never blocks on a full pipe. A server that never answers, or ends first, is not an error
 *   of the run: the group's cases fail with that reason.
 * - Its output goes into the reports of its cases: each case's `log` holds what the server
 *   printed since the previous case (startup included, for the first), at most the last 16 KiB
 *   of stdout and of stderr.
 * - Stopping is assay_proc_release(): the supervisor kills every process of the server (the
 *   PID namespace, or its descendants without it), whatever they ignore or however they forked.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "adapter/api_int.h"
#include "assay/fs.h"
#include "adapter/adapter_int.h"
#include "util/banned.h"

#define LOG_TAIL (16 * 1024)
#define SERVER_DIR ".server"
#define PROBE_FIRST 0.02
#define PROBE_MAX 0.5
#define PROBE_TIMEOUT 2.0


static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A port free on `address` now: `want`, or the kernel's pick when `want` is 0. 0 when none can
 * be had (`err` says why). */
static unsigned free_port(const struct api_config *cfg, unsigned want, assay_err *err)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	memset(&ss, 0, sizeof(ss));
	if (cfg->ipv6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)want);
		inet_pton(AF_INET6, cfg->address, &a->sin6_addr);
		len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)want);
		inet_pton(AF_INET, cfg->address, &a->sin_addr);
		len = sizeof(*a);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* a fixed port left in TIME_WAIT by the previous group's server is free to serve again
	 * (servers set SO_REUSEADDR); one a program listens on is not */
	if (fd >= 0 && want)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		if (want)
			assay_err_set(err, ASSAY_EIO, NULL, 0, 0,
				      "adapter.port %u on %s cannot be had: %s", want,
				      cfg->address, strerror(e));
		else
			assay_err_set(err, ASSAY_EIO, NULL, 0, 0,
				      "cannot find a free port on %s: %s", cfg->address,
				      strerror(e));
		return 0;
	}
	close(fd);
	return ntohs(cfg->ipv6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
			       : ((struct sockaddr_in *)&ss)->sin_port);
}

/* `word` with every {address} and {port} replaced; *hit when it held one. */
static char *substitute(const char *word, const char *address, const char *port, bool *hit)
{
	assay_buf b = ASSAY_BUF_INIT;

	for (const char *p = word; *p;) {
		if (!strncmp(p, "{address}", 9)) {
			assay_buf_adds(&b, address);
			p += 9;
			*hit = true;
		} else if (!strncmp(p, "{port}", 6)) {
			assay_buf_adds(&b, port);
			p += 6;
			*hit = true;
		} else {
			assay_buf_addch(&b, *p++);
		}
	}
	return assay_buf_detach(&b, NULL);
}

static void server_argv(struct api_server *s)
{
	const assay_strvec *cmd = s->ctx->command;
	char port[16];
	bool hit = false;

	snprintf(port, sizeof(port), "%u", s->port);
	for (size_t i = 0; i < cmd->nr; i++) {
		char *w = substitute(cmd->v[i], s->cfg->address, port, &hit);

		assay_strvec_push(&s->p.argv, w);
		free(w);
	}
	if (!hit) {
		assay_strvec_push(&s->p.argv, "--address");
		assay_strvec_push(&s->p.argv, s->cfg->address);
		assay_strvec_push(&s->p.argv, "--port");
		assay_strvec_push(&s->p.argv, port);
	}
}

static void server_env(struct api_server *s)
{
	s->p.clear_env = true;
	assay_adapter__clean_env(&s->p.env, s->dir, s->tmp, s->ctx->pass_env,
				 &s->ctx->group->env);
}

int assay_api__server_pump(struct api_server *s, assay_err *err)
{
	bool done = false;
	int rc;

	if (!s->started || s->ended)
		return 0;
	if ((rc = assay_proc_pump(&s->p, 0, &done, err)))
		return rc;
	if (done && !assay_proc_finish(&s->p, &s->result))
		s->ended = true;
	return 0;
}

void assay_api__server_ended(struct api_server *s, const char *when)
{
	const assay_proc_result *r = &s->result;
	char how[400];

	if (s->failure)
		return;
	switch (r->status) {
	case ASSAY_PROC_EXITED:
		snprintf(how, sizeof(how), "exited with status %d", r->exit_code);
		break;
	case ASSAY_PROC_SIGNALED:
	case ASSAY_PROC_TIMED_OUT:
		snprintf(how, sizeof(how), "was killed by signal %d (%s)", r->term_signal,
			 strsignal(r->term_signal));
		break;
	case ASSAY_PROC_EXEC_FAILED:
		snprintf(how, sizeof(how), "could not be started ('%s': %s%s)", s->p.argv.v[0],
			 strerror(r->exec_errno),
			 r->exec_errno == EACCES && s->p.sandbox.enabled && geteuid() == 0
				 ? "; assay runs as root, so the server runs as nobody: the "
				   "command, its folders and the working folder must be reachable "
				   "by nobody; docs/security.md"
				 : "");
		break;
	}
	/* one that never started never could answer: "before it answered" would say it might */
	s->never_ran = r->status == ASSAY_PROC_EXEC_FAILED;
	s->failure = s->never_ran ? assay_xasprintf("the server %s", how)
				  : assay_xasprintf("the server %s %s", how, when);
}

/* The last LOG_TAIL bytes of `b` under `title`, then `b` emptied. */
static void take_log(assay_buf *log, assay_buf *b, const char *title)
{
	size_t from = b->len > LOG_TAIL ? b->len - LOG_TAIL : 0;

	if (!b->len)
		return;
	if (log->len && log->ptr[log->len - 1] != '\n')
		assay_buf_addch(log, '\n');
	assay_buf_addf(log, "%s:\n", title);
	if (from)
		assay_buf_addf(log, "[... %zu bytes before]\n", from);
	assay_buf_add(log, b->ptr + from, b->len - from);
	assay_buf_reset(b);
}

const char *assay_api__server_log(struct api_server *s, assay_case_result *r)
{
	assay_buf log = ASSAY_BUF_INIT;
	const char *out;

	take_log(&log, &s->p.out, "server stdout");
	take_log(&log, &s->p.err, "server stderr");
	if (!log.len) {
		assay_buf_release(&log);
		return NULL;
	}
	out = assay_arena_strndup(assay_case_result_arena(r), log.ptr, log.len);
	assay_buf_release(&log);
	return out;
}

static int ms_until(double t)
{
	double d = t - now_s();

	if (d <= 0)
		return 0;
	return d > 3600 ? 3600000 : (int)(d * 1000.0) + 1;
}

static void stop_probe(struct api_server *s)
{
	if (s->probing)
		assay_api__request_release(&s->probe);
	s->probing = false;
}

/* Starts one GET of health_path, with what is left of the startup time (at most 2 s). */
static int start_probe(struct api_server *s, assay_err *err)
{
	char *url = assay_xasprintf("%s%s", s->base_url, s->cfg->health_path);
	double left = s->ready_deadline - now_s();
	int rc;

	memset(&s->probe, 0, sizeof(s->probe));
	s->probe.multi = s->multi;
	s->probe.socks = &s->socks;
	s->probe.method = "GET";
	s->probe.timeout_s = left < PROBE_TIMEOUT ? (left > 0.05 ? left : 0.05) : PROBE_TIMEOUT;
	s->probing = true;
	rc = assay_api__request_start(&s->probe, url, NULL, 64 * 1024, err);
	free(url);
	if (rc)
		stop_probe(s);
	return rc;
}

int assay_api__server_step(struct api_server *s, assay_err *err)
{
	int rc;

	if ((rc = assay_api__server_pump(s, err)) || s->ready || s->failure)
		return rc;
	if (s->ended) {
		char when[512];

		stop_probe(s);
		snprintf(when, sizeof(when), "before it answered on %s", s->cfg->health_path);
		assay_api__server_ended(s, when);
		return 0;
	}
	if (s->probing) {
		assay_api__request_pump(&s->probe);
		if (s->probe.done) {
			bool answered = assay_api__request_answered(&s->probe);

			stop_probe(s);
			if (answered) {
				s->ready = true;
				return 0;
			}
			s->next_probe = now_s() + s->backoff;
			s->backoff = s->backoff * 2 < PROBE_MAX ? s->backoff * 2 : PROBE_MAX;
		}
	}
	if (now_s() >= s->ready_deadline) {
		stop_probe(s);
		s->failure = assay_xasprintf("the server did not answer GET %s on %s within %g "
					     "second%s (adapter.startup_timeout)",
					     s->cfg->health_path, s->base_url,
					     s->cfg->startup_timeout,
					     s->cfg->startup_timeout == 1 ? "" : "s");
		return 0;
	}
	if (!s->probing && now_s() >= s->next_probe)
		return start_probe(s, err);
	return 0;
}

size_t assay_api__server_pollfds(const struct api_server *s, struct pollfd *fds, size_t max)
{
	size_t n;

	if (!s->started || s->ended)
		return 0;
	n = assay_proc_pollfds(&s->p, fds, max < ASSAY_PROC_MAX_POLLFDS ? max
									 : ASSAY_PROC_MAX_POLLFDS);
	if (s->probing)
		n += assay_api__request_pollfds(&s->probe, fds + n, max - n);
	return n;
}

int assay_api__server_deadline_ms(const struct api_server *s)
{
	int ms;

	if (!s->started || s->ended)
		return -1;
	ms = assay_proc_deadline_ms(&s->p);
	if (s->ready || s->failure)
		return ms;
	ms = assay_api__min_ms(ms, ms_until(s->ready_deadline));
	if (s->probing)
		return assay_api__min_ms(ms, assay_api__request_deadline_ms(&s->probe));
	return assay_api__min_ms(ms, ms_until(s->next_probe));
}

/* Makes the server's folder (a fresh copy of the submission) and its private TMPDIR. When the
 * run's working folders cannot take them (full: a case's --keep'd folders, one running beside
 * it, or a submission bigger than they are) that is the group's cases' verdict, as a cli case's
 * working folder that cannot be prepared is, not the run's error: false, with `failure` saying
 * what could not be done and why (the pool adds where the room went), and `unprepared`. */
static bool prepare(struct api_server *s)
{
	const assay_run_ctx *ctx = s->ctx;
	assay_err e = ASSAY_ERR_INIT;
	char msg[1200];

	if (assay_fs_mkdirs_beneath(ctx->group_dir, SERVER_DIR, &e) ||
	    (ctx->submission && assay_fs_copy_tree(ctx->submission, s->dir, &e)))
		s->failure = assay_xasprintf("cannot prepare the server folder: %s",
					     assay_err_format(&e, msg, sizeof(msg)));
	else if (assay_fs_mkdtemp(&s->tmp, ctx->tmp_root, "server-", &e))
		s->failure = assay_xasprintf("cannot make the server's temporary folder: %s",
					     assay_err_format(&e, msg, sizeof(msg)));
	s->unprepared = s->never_ran = s->failure != NULL;
	return !s->unprepared;
}

/* Starts the server of `s` (its first case waits until it is ready). @return 0 or an error */
static int begin(struct api_server *s, assay_err *err)
{
	const assay_run_ctx *ctx = s->ctx;
	const struct api_config *cfg = s->cfg;
	assay_err e = ASSAY_ERR_INIT;
	int rc;

	if (!ctx->command->nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "no command to run: set adapter.command in suite.yaml or "
				     "pass --entry");
	if (!(s->multi = assay_api__multi_new(&s->socks)))
		return assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "libcurl cannot start");
	if (!(s->port = free_port(cfg, cfg->port, &e))) {
		/* a fixed port another program holds: its answers would pass for the server's */
		if (cfg->port) {
			s->failure = assay_xstrdup(e.msg);
			s->never_ran = true;
			return 0;
		}
		if (err)
			*err = e;
		return ASSAY_EIO;
	}
	s->base_url = cfg->ipv6 ? assay_xasprintf("http://[%s]:%u", cfg->address, s->port)
				: assay_xasprintf("http://%s:%u", cfg->address, s->port);
	s->dir = assay_path_join(ctx->group_dir, SERVER_DIR);
	if (!prepare(s))
		return 0;
	server_argv(s);
	server_env(s);
	s->p.cwd = assay_xstrdup(s->dir);
	if (ctx->sandbox)
		s->p.sandbox = *ctx->sandbox;
	s->p.sandbox.tmp_dir = s->tmp;
	s->p.sandbox.tcp_port = (unsigned short)s->port;
	s->p.limits = ctx->group->limits;
	s->p.out_cap = ctx->out_cap;
	s->p.err_cap = ctx->err_cap;
	s->p.kill_grace_s = ctx->kill_grace_s;
	if ((rc = assay_proc_start(&s->p, err)))
		return rc;
	s->started = true;
	s->ready_deadline = now_s() + cfg->startup_timeout;
	s->backoff = PROBE_FIRST;
	return 0;
}

int assay_api__group_begin(void **state, const assay_run_ctx *ctx, assay_err *err)
{
	struct api_server *s = assay_xcalloc(1, sizeof(*s));
	int rc;

	s->p = (assay_proc)ASSAY_PROC_INIT;
	s->ctx = ctx;
	s->cfg = assay_api__config(ctx->suite);
	if ((rc = begin(s, err))) {
		assay_api__group_end(s); /* the runner calls group_end only after a success */
		s = NULL;
	}
	*state = s;
	return rc;
}

void assay_api__group_end(void *state)
{
	struct api_server *s = state;

	if (!s)
		return;
	stop_probe(s);
	assay_proc_release(&s->p); /* kills the server and all it started, and reaps them */
	if (s->multi)
		curl_multi_cleanup(s->multi);
	if (s->tmp)
		assay_fs_remove_tree(s->tmp, NULL);
	free(s->tmp);
	free(s->dir);
	free(s->base_url);
	free(s->failure);
	free(s);
}
