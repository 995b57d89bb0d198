/*
 * Verifier plug-ins (plugin.h): the command verifier's process protocol, one-shot and
 * persistent, and everything a plug-in program can get wrong (no answer, a garbled one, no
 * is_correct, a crash, a timeout, a missing program); shared objects through the C ABI (the
 * example of examples/plugin, and plug-ins that must be refused: another ABI, no symbol, a
 * failing init). The plug-in programs are shell scripts around jq (install-deps installs it).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/plugin.h"
#include "assay/yaml.h"

static assay_arena *A;
static char *dir;

static void setup(void)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	A = assay_arena_new(0);
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-plugin-test", NULL), 0);
}

static void teardown(void)
{
	assay_plugins_shutdown();
	assay_fs_remove_tree(dir, NULL);
	free(dir);
	assay_arena_free(A);
}

TestSuite(command, .init = setup, .fini = teardown);
TestSuite(shared_object, .init = setup, .fini = teardown);

/* Writes an executable script `name` into the test folder; returns its path (static buffer). */
static const char *script(const char *name, const char *body)
{
	static char path[4][600];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, 600, "%s/%s", dir, name);
	cr_assert_eq(assay_fs_write(p, body, strlen(body), 0755, NULL), 0);
	chmod(p, 0755);
	return p;
}

struct res {
	int rc;
	assay_verification v;
	assay_err err;
	char *diff;
};

static struct res call_with(const char *options_yaml, const assay_value *expected,
			    const assay_actual *ac)
{
	struct res r = { 0, ASSAY_VERIFICATION_INIT, ASSAY_ERR_INIT, NULL };
	assay_value opts;
	assay_buf b = ASSAY_BUF_INIT;

	cr_assert_eq(assay_yaml_parse(&opts, A, options_yaml, strlen(options_yaml), NULL, NULL), 0,
		     "%s", options_yaml);
	assay_verify_call call = { "core", "case-1", "output", expected, ac, &opts, A, 0 };
	r.rc = assay_verify_attribute(&r.v, &call, &r.err);
	assay_json_write(&b, &r.v.diff, 0);
	r.diff = assay_buf_detach(&b, NULL);
	return r;
}

static struct res call_text(const char *options_fmt, const char *prog, const char *expected,
			    const char *actual)
{
	char opts[2000];
	assay_value ex = assay_value_strz(A, expected);
	assay_actual ac = { ASSAY_ACTUAL_BYTES, actual, strlen(actual), false, 0, 0 };

	snprintf(opts, sizeof(opts), options_fmt, prog);
	return call_with(opts, &ex, &ac);
}

static const char *const EQUAL_JQ =
	"#!/bin/sh\n"
	"exec jq -c '{is_correct: (.actual == .expected), diff: (if .actual == .expected then null "
	"else \"got \\(.actual)\" end)}'\n";

Test(command, one_shot_pass_fail_and_diff)
{
	const char *p = script("equal", EQUAL_JQ);
	struct res r = call_text("{verifier: command, run: [%s]}", p, "hi", "hi");

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert(r.v.is_correct);
	cr_assert_str_eq(r.diff, "null");
	free(r.diff);
	r = call_text("{verifier: command, run: '%s'}", p, "hi", "ho");
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_not(r.v.is_correct);
	cr_assert_str_eq(r.diff, "\"got ho\"");
	free(r.diff);
}

Test(command, the_request_holds_every_field)
{
	const char *p = script("echo", "#!/bin/sh\nexec jq -c '{is_correct: true, diff: .}'\n");
	assay_value ex = assay_value_int(3);
	assay_actual status = { ASSAY_ACTUAL_INT, NULL, 0, false, 2, 0 };
	assay_actual missing = { ASSAY_ACTUAL_MISSING, NULL, 0, false, 0, 0 };
	char opts[700];

	snprintf(opts, sizeof(opts), "{verifier: command, run: [%s], timeout: 5, weight: 2}", p);
	struct res r = call_with(opts, &ex, &status);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert(strstr(r.diff, "\"group\": \"core\", \"case\": \"case-1\", \"attribute\": "
				 "\"output\", \"actual\": 2, \"expected\": 3, \"options\": "
				 "{\"verifier\": \"command\", \"run\": ["),
		  "%s", r.diff);
	cr_assert(strstr(r.diff, "\"timeout\": 5, \"weight\": 2}"), "%s", r.diff);
	cr_assert_float_eq(r.v.weight, 2, 1e-12);
	free(r.diff);
	r = call_with(opts, &ex, &missing);
	cr_assert(strstr(r.diff, "\"actual\": null"), "%s", r.diff);
	free(r.diff);
}

Test(command, weight_and_score_come_from_the_answer)
{
	const char *p = script("partial", "#!/bin/sh\ncat >/dev/null\n"
					  "echo '{\"is_correct\": false, \"diff\": \"half\", "
					  "\"weight\": 0.5, \"score\": 0.5}'\n");
	struct res r = call_text("{verifier: command, run: [%s]}", p, "x", "y");

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_float_eq(r.v.weight, 0.5, 1e-12);
	cr_assert_float_eq(r.v.partial, 0.5, 1e-12);
	free(r.diff);
}

/* A refusal whose message holds every piece of `parts` (NULL-terminated). */
static void refused(const char *prog_body, const char *options_fmt, const char *const *parts)
{
	const char *p = script("bad", prog_body);
	struct res r = call_text(options_fmt, p, "x", "y");

	cr_assert_eq(r.rc, ASSAY_EINVALID, "rc %d: %s", r.rc, r.diff);
	cr_assert_not(r.v.is_correct);
	for (; *parts; parts++)
		cr_assert(strstr(r.err.msg, *parts), "'%s' not in: %s", *parts, r.err.msg);
	free(r.diff);
}

Test(command, whatever_goes_wrong_is_a_clear_refusal)
{
	refused("#!/bin/sh\ncat >/dev/null\necho 'not json'\necho 'oops' >&2\n",
		"{verifier: command, run: [%s]}",
		(const char *const[]){ "printed no valid JSON answer (line 1, column 1: Expecting "
				       "value)",
				       "; stderr: oops", NULL });
	refused("#!/bin/sh\ncat >/dev/null\necho '{\"diff\": 1}'\n",
		"{verifier: command, run: [%s]}",
		(const char *const[]){ "answered without is_correct (true or false)", NULL });
	refused("#!/bin/sh\ncat >/dev/null\necho '{\"is_correct\": \"yes\"}'\n",
		"{verifier: command, run: [%s]}",
		(const char *const[]){ "answered is_correct: \"yes\", which must be a JSON boolean "
				       "(true or false)", NULL });
	refused("#!/bin/sh\ncat >/dev/null\necho '{\"is_correct\": true, \"weight\": 0}'\n",
		"{verifier: command, run: [%s]}",
		(const char *const[]){ "a weight that is not a number > 0", NULL });
	refused("#!/bin/sh\ncat >/dev/null\necho 'Traceback: boom' >&2\nexit 3\n",
		"{verifier: command, run: [%s]}",
		(const char *const[]){ "exited with status 3 and printed no valid JSON answer",
				       "stderr: Traceback: boom", NULL });
	refused("#!/bin/sh\ncat >/dev/null\necho slow >&2\nsleep 30\n",
		"{verifier: command, run: [%s], timeout: 0.3}",
		(const char *const[]){ "did not answer within 0.3 seconds", "stderr: slow", NULL });
	refused("#!/bin/sh\nexit 0\n", "{verifier: command, run: [%s, x], timeout: 2}",
		(const char *const[]){ "printed no valid JSON answer", NULL });
	struct res r = call_text("{verifier: command, run: [%s]}", "/nonexistent/checker", "x", "y");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "verifier command '/nonexistent/checker' could not be started: "
				    "No such file or directory"),
		  "%s", r.err.msg);
	free(r.diff);
	r = call_text("{verifier: command%s}", "", "x", "y");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "needs 'run'"), "%s", r.err.msg);
	free(r.diff);
}

/* A persistent plug-in that answers with the number of requests it has seen. */
static const char *const COUNTER =
	"#!/bin/sh\n"
	"exec jq -c --unbuffered -n 'foreach inputs as $r (0; . + 1; {is_correct: ($r.actual != "
	"\"crash\"), diff: .})'\n";

Test(command, persistent_keeps_one_process_for_the_run)
{
	const char *p = script("counter", COUNTER);
	const char *opts = "{verifier: command, run: [%s], persistent: true, timeout: 10}";

	for (int i = 1; i <= 5; i++) {
		struct res r = call_text(opts, p, "x", "y");
		char want[8];

		cr_assert_eq(r.rc, 0, "%s", r.err.msg);
		snprintf(want, sizeof(want), "%d", i);
		cr_assert_str_eq(r.diff, want, "request %d answered by a new process?", i);
		free(r.diff);
	}
	/* after a shutdown, a new process */
	assay_plugins_shutdown();
	struct res r = call_text(opts, p, "x", "y");
	cr_assert_str_eq(r.diff, "1");
	free(r.diff);
}

Test(command, a_persistent_plugin_that_fails_is_started_again)
{
	const char *p = script("flaky",
			       "#!/bin/sh\n"
			       "while read -r line; do\n"
			       "  case \"$line\" in\n"
			       "  *'\"actual\": \"die\"'*) echo dying >&2; exit 4;;\n"
			       "  *'\"actual\": \"hang\"'*) sleep 30;;\n"
			       "  *'\"actual\": \"garble\"'*) echo '{oops';;\n"
			       "  *) echo '{\"is_correct\": true, \"diff\": \"'$$'\"}';;\n"
			       "  esac\n"
			       "done\n");
	const char *opts = "{verifier: command, run: [%s], persistent: true, timeout: 0.5}";
	struct res r = call_text(opts, p, "x", "ok");
	char first[64];

	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	snprintf(first, sizeof(first), "%s", r.diff);
	free(r.diff);

	r = call_text(opts, p, "x", "die");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "exited with status 4 before answering; stderr: dying"), "%s",
		  r.err.msg);
	free(r.diff);

	r = call_text(opts, p, "x", "ok");
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_str_neq(r.diff, first, "the dead process answered?");
	snprintf(first, sizeof(first), "%s", r.diff);
	free(r.diff);

	r = call_text(opts, p, "x", "hang");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "did not answer within 0.5 seconds"), "%s", r.err.msg);
	free(r.diff);

	r = call_text(opts, p, "x", "garble");
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "printed no valid JSON answer"), "%s", r.err.msg);
	free(r.diff);

	r = call_text(opts, p, "x", "ok");
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert_str_neq(r.diff, first);
	free(r.diff);
}

/* ---- shared objects --------------------------------------------------------------------- */

Test(shared_object, the_example_plugin_loads_and_verifies)
{
	const assay_plugin *pl = NULL;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_plugin_load(ASSAY_PLUGIN_DIR "/assay-plugin-line-set.so", &pl, &err), 0,
		     "%s", err.msg);
	cr_assert_str_eq(pl->name, "line_set");
	cr_assert_not_null(assay_verifier_find("line_set"));
	/* loading it again is a no-op */
	cr_assert_eq(assay_plugin_load(ASSAY_PLUGIN_DIR "/assay-plugin-line-set.so", NULL, &err), 0);

	assay_value ex = assay_value_strz(A, "b\na\na\n");
	assay_actual ok = { ASSAY_ACTUAL_BYTES, "a\nb\na\n", 6, false, 0, 0 };
	assay_actual bad = { ASSAY_ACTUAL_BYTES, "a\nc\n\n", 5, false, 0, 0 };
	struct res r = call_with("{verifier: line_set}", &ex, &ok);
	cr_assert_eq(r.rc, 0, "%s", r.err.msg);
	cr_assert(r.v.is_correct);
	free(r.diff);
	r = call_with("{verifier: line_set, ignore_blank: true}", &ex, &bad);
	cr_assert_not(r.v.is_correct);
	cr_assert_str_eq(r.diff, "{\"missing\": [\"b\", \"a\"], \"extra\": [\"c\"]}");
	free(r.diff);
	r = call_with("{verifier: line_set, ignore_blnk: true}", &ex, &bad);
	cr_assert_eq(r.rc, ASSAY_EINVALID);
	cr_assert(strstr(r.err.msg, "unknown option 'ignore_blnk' for verifier 'line_set'"));
	free(r.diff);
}

Test(shared_object, bad_plugins_are_refused_clearly)
{
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_plugin_load(ASSAY_PLUGIN_DIR "/assay-plugin-wrong_abi.so", NULL, &err),
		     ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "plug-in was built for plug-in ABI 99 (struct of 4096 bytes); "
				  "this assay speaks ABI 1"),
		  "%s", err.msg);
	assay_err_clear(&err);
	cr_assert_eq(assay_plugin_load(ASSAY_PLUGIN_DIR "/assay-plugin-no_symbol.so", NULL, &err),
		     ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "not an assay plug-in: it exports no 'assay_plugin_entry'"), "%s",
		  err.msg);
	assay_err_clear(&err);
	cr_assert_eq(assay_plugin_load(ASSAY_PLUGIN_DIR "/assay-plugin-failing_init.so", NULL,
				       &err),
		     ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "the licence server is down"), "%s", err.msg);
	assay_err_clear(&err);
	cr_assert_eq(assay_plugin_load("/nonexistent/x.so", NULL, &err), ASSAY_ENOTFOUND);
	assay_err_clear(&err);
	const char *notso = script("text.so", "not an object\n");
	cr_assert_eq(assay_plugin_load(notso, NULL, &err), ASSAY_EINVALID);
	cr_assert(strstr(err.msg, "cannot load plug-in: "), "%s", err.msg);
}
