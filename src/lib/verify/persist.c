/*
 * Persistent plug-in processes (persist.h): one per distinct key for as long as assay runs
 * (or until assay_plugins_shutdown()), fed one request per line and read one answer line per
 * request (JSON Lines); the request's timeout bounds each answer. A process that times out,
 * dies or garbles an answer is killed and started again for the next request. Requests to one
 * process are serialised; processes of different keys are independent. Used by the `command`
 * verifier (`persistent: true`) and by Python verifiers (python.c).
 *
 * A target that asks for a private folder gets, at each start, a new folder made for that
 * process alone (assay_fs_mkdtemp) as its working folder and TMPDIR; it is removed when the
 * process stops. No other folder is ever given as a working folder here: with the sandbox and
 * root, whatever folder a process runs in is handed to the sandbox's user.
 */
#include <pthread.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/plugin.h"
#include "assay/model.h"
#include "verify/persist.h"
#include "util/banned.h"

#define STDERR_TAIL 240

struct persistent {
	char *key;
	assay_proc p;
	char *hello;          /* the hello line written at start (it must outlive the start) */
	char *dir;            /* NULL, or the process's private folder (removed at stop) */
	bool started;
	pthread_mutex_t lock;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct persistent **table;
static size_t ntable;

void assay_verify__stderr_tail(assay_buf *b, const assay_buf *err, size_t from)
{
	const char *s = err->ptr + from;
	size_t n = err->len > from ? err->len - from : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (!n)
		return;
	if (n > STDERR_TAIL) {
		s += n - STDERR_TAIL;
		n = STDERR_TAIL;
		while (n && ((unsigned char)*s & 0xc0) == 0x80) {
			s++;
			n--;
		}
		assay_buf_adds(b, "; stderr ends: ...");
	} else {
		assay_buf_adds(b, "; stderr: ");
	}
	for (size_t i = 0; i < n; i++)
		assay_buf_addch(b, s[i] == '\n' ? '|' : s[i]);
}

void assay_verify__hint(assay_buf *why, const assay_strvec *argv, int errnum)
{
	if (errnum != ENOENT || !argv->nr || argv->v[0][0] == '/')
		return;
	if (strchr(argv->v[0], '/'))
		assay_buf_addf(why, " ('%s' is in neither the suite's folder nor the folder assay "
				    "runs in: write it relative to the suite, or as {{static:NAME}} "
				    "naming a static asset)", argv->v[0]);
	else
		assay_buf_addf(why, " ('%s' is not in PATH: a program kept with the suite is "
				    "written with its path relative to the suite, like checks/%s, or "
				    "as {{static:NAME}})", argv->v[0], argv->v[0]);
}

static int refuse(assay_err *err, const assay_verify__target *t, const assay_buf *stderr_buf,
		  size_t from, const char *what)
{
	assay_buf m = ASSAY_BUF_INIT;
	int rc;

	assay_buf_addf(&m, "%s %s", t->label, what);
	if (stderr_buf)
		assay_verify__stderr_tail(&m, stderr_buf, from);
	rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", m.ptr);
	assay_buf_release(&m);
	return rc;
}

static char *argv_key(const assay_strvec *argv)
{
	assay_arena *a = assay_arena_new(0);
	assay_value list = assay_value_array();
	assay_buf key = ASSAY_BUF_INIT;

	for (size_t i = 0; i < argv->nr; i++)
		assay_array_push(a, &list, assay_value_strz(a, argv->v[i]));
	assay_json_write(&key, &list, 0);
	assay_arena_free(a);
	return assay_buf_detach(&key, NULL);
}

static struct persistent *persistent_for(const assay_verify__target *t)
{
	char *key = t->key ? assay_xstrdup(t->key) : argv_key(t->argv);
	struct persistent *found = NULL;

	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; i < ntable && !found; i++)
		if (!strcmp(table[i]->key, key))
			found = table[i];
	if (!found) {
		found = assay_xcalloc(1, sizeof(*found));
		found->key = key;
		key = NULL;
		found->p = (assay_proc)ASSAY_PROC_INIT;
		pthread_mutex_init(&found->lock, NULL);
		table = assay_xrealloc(table, (ntable + 1) * sizeof(*table));
		table[ntable++] = found;
	}
	pthread_mutex_unlock(&table_lock);
	free(key);
	return found;
}

/* Ends a persistent process (killing it if it still runs); the next request starts it. */
static void stop(struct persistent *ps)
{
	assay_proc_release(&ps->p);
	ps->p = (assay_proc)ASSAY_PROC_INIT;
	free(ps->hello);
	ps->hello = NULL;
	if (ps->dir)
		assay_fs_remove_tree(ps->dir, NULL);
	free(ps->dir);
	ps->dir = NULL;
	ps->started = false;
}

/* Why the process ended, for a message. */
static void ended(assay_buf *why, struct persistent *ps)
{
	assay_proc_result res;

	if (assay_proc_finish(&ps->p, &res))
		assay_buf_adds(why, "ended before answering");
	else if (res.status == ASSAY_PROC_EXEC_FAILED) {
		assay_buf_addf(why, "could not be started: %s", strerror(res.exec_errno));
		assay_verify__hint(why, &ps->p.argv, res.exec_errno);
	} else if (res.status == ASSAY_PROC_SIGNALED)
		assay_buf_addf(why, "was killed by signal %d before answering%s", res.term_signal,
			       res.limit == ASSAY_LIMIT_MEMORY || res.limit == ASSAY_LIMIT_CPU
				       ? " (at its resource limit)" : "");
	else
		assay_buf_addf(why, "exited with status %d before answering", res.exit_code);
}

/* Waits for one answer line and gives it to `fn`: 0, or a refusal (the process stopped when
 * the answer says so or when it failed). */
static int read_answer(struct persistent *ps, const assay_verify__target *t, double deadline,
		       double timeout, size_t err_from, assay_verify__answer_fn fn, void *ctx,
		       assay_err *err)
{
	assay_buf why = ASSAY_BUF_INIT;
	assay_err e = ASSAY_ERR_INIT;
	bool done = false;
	int rc = 0;

	for (;;) {
		const char *nl = memchr(ps->p.out.ptr, '\n', ps->p.out.len);
		double left = deadline - assay_now();

		if (nl && !assay_proc_stdin_pending(&ps->p)) {
			size_t n = (size_t)(nl - ps->p.out.ptr) + 1;
			int verdict = fn(ctx, ps->p.out.ptr, n - 1, &why);

			if (verdict != PLUGIN_ANSWER_OK) {
				rc = refuse(err, t, &ps->p.err, err_from, why.ptr ? why.ptr : "");
				if (verdict == PLUGIN_ANSWER_BAD_STOP) {
					stop(ps);
					break;
				}
			}
			memmove(ps->p.out.ptr, ps->p.out.ptr + n, ps->p.out.len - n);
			assay_buf_setlen(&ps->p.out, ps->p.out.len - n);
			break;
		}
		if (done) {
			ended(&why, ps);
			rc = refuse(err, t, &ps->p.err, err_from, why.ptr);
			stop(ps);
			break;
		}
		if (left <= 0) {
			assay_buf_addf(&why, "did not answer within %g seconds (it is stopped, and "
					     "started again for the next request)", timeout);
			rc = refuse(err, t, &ps->p.err, err_from, why.ptr);
			stop(ps);
			break;
		}
		if ((rc = assay_proc_pump(&ps->p, left < 1 ? 10 : 250, &done, &e))) {
			rc = refuse(err, t, &ps->p.err, err_from, e.msg);
			stop(ps);
			break;
		}
	}
	assay_buf_release(&why);
	return rc;
}

int assay_verify__ask(const assay_verify__target *t, const assay_buf *req, double timeout,
		      assay_verify__answer_fn fn, void *ctx, assay_err *err)
{
	struct persistent *ps = persistent_for(t);
	double deadline = assay_now() + timeout;
	assay_buf why = ASSAY_BUF_INIT, line = ASSAY_BUF_INIT;
	assay_err e = ASSAY_ERR_INIT;
	size_t err_from;
	bool done = false;
	int rc = 0;

	pthread_mutex_lock(&ps->lock);
	if (!ps->started) {
		assay_strvec_pushv(&ps->p.argv, (const char *const *)t->argv->v);
		ps->p.stdin_stream = true;
		if (t->setup)
			t->setup(&ps->p, t->setup_ctx);
		if (t->private_dir) {
			if ((rc = assay_fs_mkdtemp(&ps->dir, NULL, "assay-plugin-", &e))) {
				assay_buf_addf(&why, "could not be given a folder of its own: %s",
					       e.msg);
				rc = refuse(err, t, NULL, 0, why.ptr);
				stop(ps);
				goto out;
			}
			free(ps->p.cwd);
			ps->p.cwd = assay_xstrdup(ps->dir);
			ps->p.sandbox.tmp_dir = ps->dir;
		}
		if (t->hello) {
			ps->hello = assay_xasprintf("%s\n", t->hello);
			ps->p.stdin_data = ps->hello;
			ps->p.stdin_len = strlen(ps->hello);
		}
		if ((rc = assay_proc_start(&ps->p, &e))) {
			assay_buf_addf(&why, "could not be run: %s", e.msg);
			rc = refuse(err, t, NULL, 0, why.ptr);
			stop(ps);
			goto out;
		}
		ps->started = true;
		if (t->hello && (rc = read_answer(ps, t, deadline, timeout, 0, t->hello_answer,
						  t->hello_ctx, err))) {
			stop(ps);
			goto out;
		}
	}
	/* what it wrote to stderr before this request is dropped: a chatty plug-in holds at most
	 * a request's worth of it, and each message gets this request's tail */
	assay_buf_reset(&ps->p.err);
	err_from = 0;
	assay_buf_add(&line, req->ptr, req->len);
	assay_buf_addch(&line, '\n');
	if (assay_proc_write_stdin(&ps->p, line.ptr, line.len, &e)) {
		/* its standard input is closed: it is ending; say how */
		while (!done && assay_now() < deadline &&
		       !assay_proc_pump(&ps->p, 100, &done, &e))
			;
		if (done)
			ended(&why, ps);
		else
			assay_buf_addf(&why, "closed its standard input (%s)", e.msg);
		rc = refuse(err, t, &ps->p.err, err_from, why.ptr);
		stop(ps);
		goto out;
	}
	rc = read_answer(ps, t, deadline, timeout, err_from, fn, ctx, err);
out:
	pthread_mutex_unlock(&ps->lock);
	assay_buf_release(&why);
	assay_buf_release(&line);
	return rc;
}

void assay_plugins_shutdown(void)
{
	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; i < ntable; i++) {
		struct persistent *ps = table[i];
		double until = assay_now() + 2.0;
		bool done = false;

		pthread_mutex_lock(&ps->lock);
		if (ps->started) {
			assay_proc_close_stdin(&ps->p);
			while (!done && assay_now() < until &&
			       !assay_proc_pump(&ps->p, 100, &done, NULL))
				;
			stop(ps);
		}
		pthread_mutex_unlock(&ps->lock);
		pthread_mutex_destroy(&ps->lock);
		free(ps->key);
		free(ps);
	}
	free(table);
	table = NULL;
	ntable = 0;
	pthread_mutex_unlock(&table_lock);
}
