/*
 * The command verifier: an external program of the suite's author decides an attribute
 * (include/assay/plugin.h states the protocol). Spec: suite-format.md "Verifiers (built in)"
 * (`command`: it gets {group, case, attribute, actual, expected, options} as JSON on stdin and
 * prints {is_correct, diff, weight?}); issue #7 section 3.
 * A built-in verifier of the registry (verify.c lists it, as it lists every verifier of this
 * module); the shared-object plug-ins of src/lib/plugin register into that registry, so no
 * module names the other's verifiers both ways.
 *
 * Key decisions:
 * - Every plug-in process runs through the process layer (proc.h): its own session, nothing
 *   it starts outlives it, standard input given, captures capped. It is trusted code, so it
 *   runs without the case sandbox, in assay's working folder and environment.
 * - One-shot (default): a process per attribute, the request as its whole standard input,
 *   the answer its whole standard output; `timeout` (default 60 s) ends it.
 * - persistent: true: one process per distinct `run` argv for as long as assay runs (or until
 *   assay_plugins_shutdown()), fed one request per line and read one answer line per request
 *   (JSON Lines); the request's `timeout` bounds each answer. A process that times out, dies or
 *   garbles an answer is killed and started again for the next request. Requests to one
 *   process are serialised; processes of different `run`s are independent.
 * - Whatever goes wrong with the plug-in (cannot start, timeout, no valid answer, no boolean
 *   is_correct, a weight that is not > 0, a score outside [0, 1]) is a refusal: the attribute
 *   fails and the case is an error naming the plug-in, its exit status and the end of its
 *   standard error. An answer printed before a non-zero exit still counts.
 * - The answer's diff is kept as the plug-in gave it; its weight replaces the entry's; its
 *   score is partial credit.
 */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "assay/model.h"
#include "assay/suite.h"
#include "verify/persist.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define DEFAULT_TIMEOUT 60.0

static const char *const command_options[] = { "run", "timeout", "persistent", NULL };

static int read_argv(assay_strvec *argv, const assay_value *options, assay_err *err)
{
	const assay_value *run = assay_object_get(options, "run");
	int rc;

	if (run && run->kind == ASSAY_V_STRING) {
		if ((rc = assay_shell_split(argv, run->u.s, err)))
			return rc;
	} else if (run && run->kind == ASSAY_V_ARRAY) {
		for (uint32_t i = 0; i < run->len; i++) {
			const assay_value *w = &run->u.items[i];

			if (w->kind != ASSAY_V_STRING || memchr(w->u.s, '\0', w->len))
				return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
						     "option 'run' must be a list of strings");
			assay_strvec_push(argv, w->u.s);
		}
	}
	if (!argv->nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the command verifier needs 'run': the plug-in's argv (a list, "
				     "or a shell-quoted string)");
	return 0;
}

int assay_verify__command_check(const assay_value *options, assay_err *err)
{
	assay_strvec argv = ASSAY_STRVEC_INIT;
	int rc = read_argv(&argv, options, err);

	assay_strvec_clear(&argv);
	return rc;
}

static void request(assay_buf *out, const assay_verify_call *call)
{
	assay_arena *a = assay_arena_new(0);
	assay_value req = assay_value_object(), actual = assay_value_null();
	const assay_actual *ac = call->actual;

	if (ac && ac->kind == ASSAY_ACTUAL_BYTES)
		actual = assay_value_string_ref(ac->bytes, ac->len);
	else if (ac && ac->kind == ASSAY_ACTUAL_INT)
		actual = assay_value_int(ac->integer);
	else if (ac && ac->kind == ASSAY_ACTUAL_REAL)
		actual = assay_value_real(ac->real);
	assay_object_set(a, &req, "group", assay_value_strz(a, call->group ? call->group : ""));
	assay_object_set(a, &req, "case", assay_value_strz(a, call->case_id ? call->case_id : ""));
	assay_object_set(a, &req, "attribute", assay_value_strz(a, assay_verify__attr(call)));
	assay_object_set(a, &req, "actual", actual);
	assay_object_set(a, &req, "expected", call->expected ? *call->expected : assay_value_null());
	assay_object_set(a, &req, "options", *call->options);
	assay_json_write(out, &req, 0);
	assay_arena_free(a);
}

/* "python3 check.py" for messages. */
static void name_of(assay_buf *b, const assay_strvec *argv)
{
	for (size_t i = 0; i < argv->nr && b->len < 120; i++)
		assay_buf_addf(b, "%s%s", i ? " " : "", argv->v[i]);
}

static int refuse(assay_err *err, const assay_strvec *argv, const assay_buf *stderr_buf,
		  size_t from, const char *what)
{
	assay_buf m = ASSAY_BUF_INIT;
	int rc;

	assay_buf_adds(&m, "verifier command '");
	name_of(&m, argv);
	assay_buf_addf(&m, "' %s", what);
	if (stderr_buf)
		assay_verify__stderr_tail(&m, stderr_buf, from);
	rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s", m.ptr);
	assay_buf_release(&m);
	return rc;
}

/* Reads the answer into `out`; NULL, or what is wrong with it (a static or `why` text). */
static const char *answer(assay_verification *out, const assay_verify_call *call,
			  const char *text, size_t len, assay_buf *why)
{
	assay_value v;
	assay_err pe = ASSAY_ERR_INIT;
	const assay_value *ok, *w, *sc, *d;

	if (assay_json_parse(&v, call->arena, text, len, NULL, &pe)) {
		assay_buf_addf(why, "printed no valid JSON answer (line %d, column %d: %s)",
			       pe.line, pe.column, pe.msg);
		return why->ptr;
	}
	if (v.kind != ASSAY_V_OBJECT)
		return "answered with something else than a JSON object";
	ok = assay_object_get(&v, "is_correct");
	if (!ok)
		return "answered without is_correct (true or false)";
	if (ok->kind != ASSAY_V_BOOL) {
		assay_buf shown = ASSAY_BUF_INIT;

		assay_json_write(&shown, ok, 0);
		assay_buf_addf(why, "answered is_correct: %.60s%s, which must be a JSON boolean "
				    "(true or false)", shown.ptr, shown.len > 60 ? "..." : "");
		assay_buf_release(&shown);
		return why->ptr;
	}
	w = assay_object_get(&v, "weight");
	if (w && w->kind != ASSAY_V_NULL &&
	    (!assay_value_is_number(w) || !(assay_value_number(w) > 0)))
		return "answered with a weight that is not a number > 0";
	sc = assay_object_get(&v, "score");
	if (sc && sc->kind != ASSAY_V_NULL &&
	    (!assay_value_is_number(sc) || !(assay_value_number(sc) >= 0) ||
	     assay_value_number(sc) > 1))
		return "answered with a score outside [0, 1]";
	d = assay_object_get(&v, "diff");
	out->is_correct = ok->u.b;
	out->diff = d ? *d : assay_value_null();
	if (w && w->kind != ASSAY_V_NULL)
		out->weight = assay_value_number(w);
	if (sc && sc->kind != ASSAY_V_NULL)
		out->partial = assay_value_number(sc);
	return NULL;
}

static int one_shot(assay_verification *out, const assay_verify_call *call, assay_strvec *argv,
		    double timeout, const assay_buf *req, assay_err *err)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result res;
	assay_err e = ASSAY_ERR_INIT;
	assay_buf why = ASSAY_BUF_INIT;
	int rc;

	assay_strvec_pushv(&p.argv, (const char *const *)argv->v);
	p.stdin_data = req->ptr;
	p.stdin_len = req->len;
	p.timeout_s = timeout;
	if ((rc = assay_proc_run(&p, &res, &e))) {
		assay_buf_addf(&why, "could not be run: %s", e.msg);
		rc = refuse(err, argv, NULL, 0, why.ptr);
	} else if (res.status == ASSAY_PROC_EXEC_FAILED) {
		assay_buf_addf(&why, "could not be started: %s", strerror(res.exec_errno));
		assay_verify__hint(&why, argv, res.exec_errno);
		rc = refuse(err, argv, NULL, 0, why.ptr);
	} else if (res.status == ASSAY_PROC_TIMED_OUT) {
		assay_buf_addf(&why, "did not answer within %g second%s", timeout,
			       timeout == 1 ? "" : "s");
		rc = refuse(err, argv, &p.err, 0, why.ptr);
	} else {
		const char *bad = answer(out, call, p.out.ptr, p.out.len, &why);

		if (bad) {
			assay_buf m = ASSAY_BUF_INIT;

			if (res.status == ASSAY_PROC_SIGNALED)
				assay_buf_addf(&m, "was killed by signal %d and ", res.term_signal);
			else if (res.exit_code)
				assay_buf_addf(&m, "exited with status %d and ", res.exit_code);
			assay_buf_adds(&m, bad);
			rc = refuse(err, argv, &p.err, 0, m.ptr);
			assay_buf_release(&m);
		}
	}
	assay_buf_release(&why);
	assay_proc_release(&p);
	return rc;
}

struct answer_ctx {
	assay_verification *out;
	const assay_verify_call *call;
};

/* A persistent process's answer: a bad one stops the process (it may be out of step). */
static int persistent_answer(void *ctx, const char *line, size_t len, assay_buf *why)
{
	struct answer_ctx *ac = ctx;
	const char *bad = answer(ac->out, ac->call, line, len, why);

	if (!bad)
		return PLUGIN_ANSWER_OK;
	if (bad != why->ptr) {
		assay_buf_reset(why);
		assay_buf_adds(why, bad);
	}
	return PLUGIN_ANSWER_BAD_STOP;
}

static int persistent(assay_verification *out, const assay_verify_call *call,
		      assay_strvec *argv, double timeout, assay_buf *req, assay_err *err)
{
	assay_buf label = ASSAY_BUF_INIT;
	struct answer_ctx ac = { out, call };
	int rc;

	assay_buf_adds(&label, "verifier command '");
	name_of(&label, argv);
	assay_buf_addch(&label, '\'');
	assay_verify__target t = { .argv = argv, .label = label.ptr };
	rc = assay_verify__ask(&t, req, timeout, persistent_answer, &ac, err);
	assay_buf_release(&label);
	return rc;
}

static int verify_command(assay_verification *out, const assay_verify_call *call,
			  assay_err *err)
{
	assay_strvec argv = ASSAY_STRVEC_INIT;
	assay_buf req = ASSAY_BUF_INIT;
	double timeout = DEFAULT_TIMEOUT;
	bool keep = false;
	int rc;

	if ((rc = read_argv(&argv, call->options, err)) ||
	    (rc = assay_verify_opt_number(call->options, "timeout", 0.001, &timeout, err)) ||
	    (rc = assay_verify_opt_bool(call->options, "persistent", &keep, err)))
		goto out;
	request(&req, call);
	rc = keep ? persistent(out, call, &argv, timeout, &req, err)
		  : one_shot(out, call, &argv, timeout, &req, err);
out:
	assay_buf_release(&req);
	assay_strvec_clear(&argv);
	return rc;
}

const assay_verifier assay_verifier_command = { "command", verify_command, command_options };
