/*
 * Python verifiers as verification.md writes them (issue 17 item 3): a suite or checkpoint names
 * `verifier: {python: verifier.py, class: Verifier}`; one persistent Python process per
 * verifier (and checkpoint configuration) builds the class once with the checkpoint's
 * configuration and is called per case with (group_name, case_name, actual, expected); the dict
 * of VerificationResult it returns becomes the case's results.
 *
 * Key decisions:
 * - The process runs assay's bridge (bridge.py, embedded in the library: nothing to install,
 *   nothing found by path) with the interpreter the user names (assay_python_set: --python,
 *   else ASSAY_PYTHON, else python3). The bridge makes
 *   `from slop_code.evaluation.verifiers.models import VerificationResult` work by putting
 *   those modules into sys.modules, and defines VerificationResult as the contract does (with
 *   pydantic when that Python has it).
 * - It is a persistent plug-in process (persist.c): its own session, nothing it starts outlives
 *   it, captures capped; the verification budget bounds it: the per-attribute time budget is
 *   each case's answer time (the first answer also covers starting Python and building the
 *   class), its memory part is the process's data limit (RLIMIT_DATA). A process that times
 *   out, dies or prints something else than an answer is stopped and started again for the next
 *   case.
 * - The verifier is the suite author's code, but it runs in the sandbox all the same (every
 *   layer the kernel grants, none required, network off): it reads the system folders, its own
 *   folder and the interpreter's installation, and writes only in a fresh private folder made
 *   for the process (its working folder and TMPDIR, removed when it stops). Its source is sent
 *   to the bridge, so it need not be readable by the sandbox's user.
 * - A verifier that raises, returns something else than a dict of VerificationResult, or a
 *   result the model refuses (an unknown key, a weight that is not > 0) makes that case an
 *   error, with Python's message; the process goes on with the next case.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/plugin.h"
#include "verify/persist.h"
#include "util/banned.h"

extern const unsigned char assay_plugin__bridge_py[];

#define SOURCE_MAX (16u * 1024 * 1024)

static char *interpreter;

void assay_python_set(const char *python)
{
	free(interpreter);
	interpreter = python && *python ? assay_xstrdup(python) : NULL;
}

const char *assay_python_get(void)
{
	const char *env = getenv("ASSAY_PYTHON");

	if (interpreter)
		return interpreter;
	return env && *env ? env : "python3";
}

struct setup {
	const char *folder;     /* the verifier's folder */
	const char *python;
	size_t memory;
	char *paths[6];
};

/* The folder above the folder of `path` (/usr/bin/python3 -> /usr), malloc'd, or NULL. */
static char *prefix_of(const char *path)
{
	char *s = assay_xstrdup(path), *slash;

	for (int i = 0; i < 2; i++) {
		slash = strrchr(s, '/');
		if (!slash) {
			free(s);
			return NULL;
		}
		*slash = '\0';
	}
	if (!s[0]) {
		free(s);
		return NULL;
	}
	return s;
}

/* The interpreter as the program's PATH finds it, malloc'd, or NULL. */
static char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return assay_path_absolute(name);
	return assay_fs_which(name);
}

static void setup_proc(assay_proc *p, void *ctx)
{
	struct setup *s = ctx;
	char *found = find_program(s->python), *real = NULL;
	size_t n = 0;

	s->paths[n++] = assay_xstrdup(s->folder);
	if (found) {
		char buf[PATH_MAX];

		if ((s->paths[n] = prefix_of(found)))
			n++;
		if (realpath(found, buf) && (real = prefix_of(buf)))
			s->paths[n++] = real;
		free(found);
	}
	s->paths[n] = NULL;
	/* No cwd here: persist.c gives the process a fresh private folder of its own (the target's
	 * private_dir) as its working folder and TMPDIR. With the sandbox and root, proc hands
	 * that folder and everything under it to the sandbox's user (owner.c): never `/`, never
	 * assay's own working folder, never the verifier's folder. */
	p->timeout_s = 0;
	p->sandbox.enabled = true;
	p->sandbox.network = false;
	p->sandbox.read_paths = (const char *const *)s->paths;
	p->limits.memory_bytes = (long long)s->memory;
	assay_strvec_push(&p->env, "PYTHONDONTWRITEBYTECODE=1");
	assay_strvec_push(&p->env, "PYTHONIOENCODING=utf-8");
	assay_strvec_push(&p->env, "PYTHONUNBUFFERED=1");
}

struct answer {
	assay_arena *arena;
	assay_value *results;
};

/* A JSON object with `error`: the message (Python's traceback), refused; else NULL. */
static int error_answer(const assay_value *v, assay_buf *why, const char *what)
{
	const assay_value *e = assay_object_get(v, "error");

	if (!e)
		return 0;
	assay_buf_addf(why, "%s: ", what);
	if (e->kind == ASSAY_V_STRING) {
		/* the traceback's last lines carry the reason: keep the message readable */
		size_t n = e->len;

		while (n && (e->u.s[n - 1] == '\n' || e->u.s[n - 1] == ' '))
			n--;
		assay_buf_add(why, e->u.s, n);
	}
	return 1;
}

static int parse_line(assay_value *v, assay_arena *a, const char *line, size_t len,
		      assay_buf *why)
{
	assay_err pe = ASSAY_ERR_INIT;

	if (assay_json_parse(v, a, line, len, NULL, &pe) || v->kind != ASSAY_V_OBJECT) {
		assay_buf_addf(why, "printed something else than the bridge's answer on its "
				    "standard output (line %d, column %d: %s); a verifier prints to "
				    "standard error", pe.line, pe.column,
			       pe.msg[0] ? pe.msg : "not an object");
		return -1;
	}
	return 0;
}

static int hello_answer(void *ctx, const char *line, size_t len, assay_buf *why)
{
	assay_arena *a = assay_arena_new(0);
	assay_value v;
	int rc = PLUGIN_ANSWER_OK;

	(void)ctx;
	if (parse_line(&v, a, line, len, why))
		rc = PLUGIN_ANSWER_BAD_STOP;
	else if (error_answer(&v, why, "failed"))
		rc = PLUGIN_ANSWER_BAD_STOP;
	else if (!assay_object_get(&v, "ready")) {
		assay_buf_adds(why, "did not say it was ready");
		rc = PLUGIN_ANSWER_BAD_STOP;
	}
	assay_arena_free(a);
	return rc;
}

static int case_answer(void *ctx, const char *line, size_t len, assay_buf *why)
{
	struct answer *an = ctx;
	assay_value v;
	const assay_value *res;

	if (parse_line(&v, an->arena, line, len, why))
		return PLUGIN_ANSWER_BAD_STOP;
	if (error_answer(&v, why, "failed on this case"))
		return PLUGIN_ANSWER_BAD;
	res = assay_object_get(&v, "results");
	if (!res || res->kind != ASSAY_V_OBJECT) {
		assay_buf_adds(why, "answered without results");
		return PLUGIN_ANSWER_BAD_STOP;
	}
	*an->results = *res;
	return PLUGIN_ANSWER_OK;
}

int assay_python_verify(assay_value *results, const assay_python_call *call, assay_err *err)
{
	static const assay_value empty = { .kind = ASSAY_V_OBJECT };
	const char *python = assay_python_get();
	const char *base = strrchr(call->file, '/');
	char *folder = base ? assay_xstrndup(call->file, (size_t)(base - call->file))
			    : assay_xstrdup(".");
	assay_arena *a = assay_arena_new(0);
	assay_value hello = assay_value_object(), req = assay_value_object();
	assay_buf src = ASSAY_BUF_INIT, hello_text = ASSAY_BUF_INIT, key = ASSAY_BUF_INIT;
	assay_buf label = ASSAY_BUF_INIT, reqtext = ASSAY_BUF_INIT;
	assay_strvec argv = ASSAY_STRVEC_INIT;
	struct setup st = { folder, python, call->memory, { NULL } };
	struct answer an = { call->arena, results };
	assay_err re = ASSAY_ERR_INIT;
	int rc;

	*results = assay_value_object();
	assay_buf_addf(&label, "python verifier '%s' (class %s, python '%s')", call->file,
		       call->class_name, python);
	if ((rc = assay_fs_read(&src, call->file, SOURCE_MAX, &re))) {
		rc = assay_err_set(err, rc, NULL, 0, 0, "%s cannot be read: %s", label.ptr,
				   re.msg);
		goto out;
	}
	assay_object_set(a, &hello, "file", assay_value_strz(a, call->file));
	assay_object_set(a, &hello, "class", assay_value_strz(a, call->class_name));
	assay_object_set(a, &hello, "config", call->config ? *call->config : empty);
	assay_json_write(&key, &hello, 0);
	assay_buf_addf(&key, "\n%s\n%zu", python, call->memory);
	assay_object_set(a, &hello, "source", assay_value_string_ref(src.ptr, src.len));
	assay_json_write(&hello_text, &hello, 0);

	assay_object_set(a, &req, "group_name", assay_value_strz(a, call->group_name));
	assay_object_set(a, &req, "case_name", assay_value_strz(a, call->case_name));
	assay_object_set(a, &req, "actual", *call->actual);
	assay_object_set(a, &req, "expected", *call->expected);
	assay_json_write(&reqtext, &req, 0);

	assay_strvec_push(&argv, python);
	assay_strvec_push(&argv, "-B");
	assay_strvec_push(&argv, "-c");
	assay_strvec_push(&argv, (const char *)assay_plugin__bridge_py);
	assay_verify__target t = { .argv = &argv, .key = key.ptr, .label = label.ptr,
				   .setup = setup_proc, .setup_ctx = &st, .private_dir = true,
				   .hello = hello_text.ptr, .hello_answer = hello_answer };
	rc = assay_verify__ask(&t, &reqtext, call->timeout > 0 ? call->timeout : 60.0, case_answer,
			       &an, err);
out:
	for (size_t i = 0; st.paths[i]; i++)
		free(st.paths[i]);
	assay_strvec_clear(&argv);
	assay_buf_release(&src);
	assay_buf_release(&hello_text);
	assay_buf_release(&key);
	assay_buf_release(&label);
	assay_buf_release(&reqtext);
	assay_arena_free(a);
	free(folder);
	return rc;
}
