/*
 * What the verifiers that run programs share (verify_command.c, and plugin/python.c for Python
 * verifiers): persistent processes that answer one JSON line per request line (persist.c), and
 * the pieces of their messages. In verify, beside the command verifier and the registry, so
 * that plug-ins depend on verify and never the other way (issue 16: no cycle).
 */
#ifndef ASSAY_VERIFY_PERSIST_H
#define ASSAY_VERIFY_PERSIST_H

#include <stdbool.h>

#include "assay/buf.h"
#include "assay/proc.h"
#include "assay/strvec.h"

/* What an answer line is worth: taken, refused (the process goes on), or refused and the
 * process stopped (it is started again for the next request). */
enum { PLUGIN_ANSWER_OK = 0, PLUGIN_ANSWER_BAD, PLUGIN_ANSWER_BAD_STOP };

/* Reads an answer line (`len` bytes, no newline); on a refusal, the reason in `why`. */
typedef int (*assay_verify__answer_fn)(void *ctx, const char *line, size_t len, assay_buf *why);

/* A persistent plug-in process: found by `key` (a process per distinct key), started with
 * `argv` the first time (and again after it failed). */
typedef struct assay_verify__target {
	const assay_strvec *argv;
	const char *key;        /* NULL: the argv */
	const char *label;      /* "verifier command 'x y'", to begin messages */
	/* NULL, or sets up the process before it starts (sandbox, limits, environment) */
	void (*setup)(assay_proc *p, void *ctx);
	void *setup_ctx;
	/* true: each start of the process makes it a fresh private folder (mkdtemp under $TMPDIR,
	 * else /tmp) as its working folder and its TMPDIR, removed when the process stops. Never
	 * `/` nor assay's own folder: with the sandbox and root, proc hands the working folder
	 * and everything in it to the sandbox's user (owner.c). */
	bool private_dir;
	/* NULL, or a first line written once the process starts, and how its answer is read */
	const char *hello;
	assay_verify__answer_fn hello_answer;
	void *hello_ctx;
} assay_verify__target;

/* Sends `req` (one line, without its newline) to the target's process, starting it if needed,
 * and gives the answer line to `fn`; `timeout` seconds for the answer (and, for a process just
 * started, its hello). Requests to one process are serialised.
 * @return 0, or ASSAY_EINVALID with "<label> <what went wrong>[; stderr: ...]" in `err` */
int assay_verify__ask(const assay_verify__target *t, const assay_buf *req, double timeout,
		      assay_verify__answer_fn fn, void *ctx, assay_err *err);

/* Appends "; stderr: ..." with the end of `err` from byte `from` (nothing if empty). */
void assay_verify__stderr_tail(assay_buf *b, const assay_buf *err, size_t from);

/* After an exec failure: where a relative program was looked for. */
void assay_verify__hint(assay_buf *why, const assay_strvec *argv, int errnum);

#endif
