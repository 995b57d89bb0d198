/*
 * The api adapter's keys (src/lib/adapter/api_load.c): what a suite and a case may say, the
 * request built from them, and a located error for every bad value.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapter/api_int.h"
#include "assay/fs.h"
#include "assay/suite.h"

static char root[] = "/tmp/assay-test-api-XXXXXX";

static void write_file(const char *rel, const char *text)
{
	char *path = assay_path_join(root, rel);

	cr_assert_eq(assay_fs_write(path, text, strlen(text), 0644, NULL), 0, "%s", path);
	free(path);
}

/* A suite with `adapter_extra` lines under adapter:, and group `g` of checkpoint `cp`. */
static void make_suite(const char *adapter_extra)
{
	char text[2048];

	cr_assert_not_null(mkdtemp(root));
	snprintf(text, sizeof(text),
		 "name: t\nadapter:\n  type: api\n  command: [server]\n%s"
		 "checkpoints:\n  cp:\n    groups:\n      g: {}\n",
		 adapter_extra);
	write_file("suite.yaml", text);
	char *dir = assay_path_join(root, "cp/g");
	cr_assert_eq(assay_fs_mkdirs(dir, NULL), 0);
	free(dir);
}

static void cleanup(void)
{
	assay_fs_remove_tree(root, NULL);
	strcpy(root, "/tmp/assay-test-api-XXXXXX");
}

static int load_suite(assay_suite **s, assay_err *err)
{
	return assay_suite_load(s, root, NULL, NULL, NULL, err);
}

/* Loads the suite's only case (written as c.yaml). */
static assay_case *load_case(assay_suite **s, const char *text)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_case *c = NULL;

	write_file("cp/g/c.yaml", text);
	cr_assert_eq(load_suite(s, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_case_load(&c, *s, &(*s)->checkpoints[0], &(*s)->checkpoints[0].groups[0],
				     0, NULL, NULL), 0);
	return c;
}

static void case_error(const char *text, const char *want)
{
	assay_suite *s = NULL;
	assay_case *c;

	make_suite("");
	c = load_case(&s, text);
	cr_assert_not_null(c->error, "no error for: %s", text);
	cr_assert(strstr(c->error, want), "'%s' not in '%s'", want, c->error);
	cr_assert(strstr(c->error, "c.yaml:"), "not located: %s", c->error);
	assay_case_free(c);
	assay_suite_free(s);
	cleanup();
}

static void suite_error(const char *extra, const char *want)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;

	make_suite(extra);
	cr_assert_eq(load_suite(&s, &err), ASSAY_EINVALID, "no error for: %s", extra);
	cr_assert(strstr(err.msg, want), "'%s' not in '%s'", want, err.msg);
	cr_assert(err.line > 0, "not located: %s", err.msg);
	cleanup();
}

Test(api_load, bad_case_keys_are_located_errors)
{
	case_error("method: [GET]\nexpected: {status_code: 200}\n", "method must be an HTTP method");
	case_error("method: \"GE T\"\nexpected: {status_code: 200}\n", "method must be an HTTP method");
	case_error("path: items\nexpected: {status_code: 200}\n",
		   "path must be a string starting with '/'");
	case_error("path: \"/a b\"\nexpected: {status_code: 200}\n",
		   "path holds a space, a control character or '#'");
	case_error("path: \"/a#frag\"\nexpected: {status_code: 200}\n", "path holds a space");
	case_error("headers: [a]\nexpected: {status_code: 200}\n",
		   "headers must be a mapping of name to value");
	case_error("headers: {\"Bad Name\": x}\nexpected: {status_code: 200}\n",
		   "header name 'Bad Name' is not an HTTP token");
	case_error("headers: {X-A: \"a\\r\\nX-Injected: 1\"}\nexpected: {status_code: 200}\n",
		   "header 'X-A' must be text on one line");
	case_error("headers: {X-A: true}\nexpected: {status_code: 200}\n",
		   "header 'X-A' must be text on one line");
	case_error("query: [1, 2]\nexpected: {status_code: 200}\n",
		   "query must be a mapping of parameters");
	case_error("query: {a: {b: 1}}\nexpected: {status_code: 200}\n",
		   "query parameter 'a' must be a string, a number or a list of them");
	case_error("query: \"a=1 2\"\nexpected: {status_code: 200}\n",
		   "query as a string must be encoded already");
	case_error("retries: -1\nexpected: {status_code: 200}\n",
		   "retries must be a whole number from 0 to 100");
	case_error("retries: 2.5\nexpected: {status_code: 200}\n", "retries must be a whole number");
	case_error("expected: {headers: text/plain}\n",
		   "expected headers must be a mapping of name to value");
	case_error("expected: {stderr: x}\n", "unknown expected attribute 'stderr'");
	case_error("expected: {files: {a: x}}\n", "unknown expected attribute 'files'");
}

Test(api_load, bad_suite_keys_are_located_errors)
{
	suite_error("  address: localhost\n", "adapter.address must be an IP address");
	suite_error("  port: 70000\n", "adapter.port must be a port number");
	suite_error("  port: http\n", "adapter.port must be a port number");
	suite_error("  health_path: health\n", "adapter.health_path must be a path starting");
	suite_error("  startup_timeout: 0\n", "adapter.startup_timeout must be a number");
	suite_error("  response_is_json: maybe\n", "adapter.response_is_json must be true or false");
}

Test(api_load, the_request_is_built_as_requests_builds_it)
{
	assay_suite *s = NULL;
	assay_case *c;
	const struct api_case *ac;

	make_suite("  address: \"::1\"\n  port: 8123\n  health_path: /health\n"
		   "  response_is_json: true\n");
	c = load_case(&s, "method: patch\npath: /a/é\nquery: {q: \"a b&c\", n: [1, 2.5], t: true, "
			  "z: null}\nheaders: {X-N: 3}\nbody: {k: [1, \"x\"]}\n"
			  "expected: {output: {k: 1}, headers: {Content-Type: application/json, "
			  "Content-Length: 12}}\n");
	cr_assert_null(c->error, "%s", c->error);
	const struct api_config *cfg = assay_api__config(s);
	cr_assert(cfg->ipv6);
	cr_assert_eq(cfg->port, 8123);
	cr_assert_str_eq(cfg->health_path, "/health");
	cr_assert(cfg->response_is_json);
	ac = c->adapter_data;
	cr_assert_str_eq(ac->method, "PATCH");
	cr_assert_str_eq(ac->target, "/a/%C3%A9?q=a+b%26c&n=1&n=2.5&t=True");
	cr_assert_str_eq(ac->headers[0], "X-N: 3");
	cr_assert_str_eq(ac->headers[1], "Content-Type: application/json");
	cr_assert_null(ac->headers[2]);
	cr_assert_eq(ac->body_len, strlen("{\"k\": [1, \"x\"]}"));
	cr_assert_eq(memcmp(ac->body, "{\"k\": [1, \"x\"]}", ac->body_len), 0);
	/* expected headers: lower-case names, text values, compared as JSON ignoring extra keys */
	const assay_value *h = assay_object_get(&c->expected, "headers");
	cr_assert(assay_value_is_str(assay_object_get(h, "content-length"), "12"));
	cr_assert_not_null(assay_object_get(h, "content-type"));
	const assay_value *vh = assay_object_get(&c->verify, "headers");
	cr_assert(assay_value_is_str(assay_object_get(vh, "verifier"), "json"));
	cr_assert_eq(assay_object_get(vh, "ignore_extra_keys")->u.b, true);
	const assay_value *vo = assay_object_get(&c->verify, "output");
	cr_assert(assay_value_is_str(assay_object_get(vo, "verifier"), "json"));
	assay_case_free(c);
	assay_suite_free(s);
	cleanup();
}

Test(api_load, a_string_body_is_sent_as_is_and_defaults_hold)
{
	assay_suite *s = NULL;
	assay_case *c;
	const struct api_case *ac;

	make_suite("");
	c = load_case(&s, "body: \"a=1\"\nexpected: {output: text, status_code: 200}\n"
			  "verify: {output: {verifier: contains}}\n");
	cr_assert_null(c->error, "%s", c->error);
	const struct api_config *cfg = assay_api__config(s);
	cr_assert_str_eq(cfg->address, "127.0.0.1");
	cr_assert_eq(cfg->port, 0);
	cr_assert_str_eq(cfg->health_path, "/");
	cr_assert_float_eq(cfg->startup_timeout, 10.0, 1e-9);
	cr_assert_not(s->network, "api suites have the network off by default");
	ac = c->adapter_data;
	cr_assert_str_eq(ac->method, "GET");
	cr_assert_str_eq(ac->target, "/");
	cr_assert_null(ac->headers[0], "a string body gets no Content-Type");
	cr_assert_eq(ac->body_len, 3);
	cr_assert_eq(ac->retries, 0);
	/* a verifier the case names is kept */
	const assay_value *vo = assay_object_get(&c->verify, "output");
	cr_assert(assay_value_is_str(assay_object_get(vo, "verifier"), "contains"));
	assay_case_free(c);
	assay_suite_free(s);
	cleanup();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* group_begin only starts the server: a pool is not held up while it gets ready; the first
 * case waits for it (here in vain, for startup_timeout) through the non-blocking interface. */
Test(api_run, group_begin_does_not_wait_for_the_server)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_suite *s = NULL;
	assay_case *c;
	assay_strvec cmd = ASSAY_STRVEC_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_case_result r = ASSAY_CASE_RESULT_INIT;
	void *state = NULL;
	double t0;

	make_suite("  startup_timeout: 1.5\n");
	c = load_case(&s, "expected: {status_code: 200}\n");
	cr_assert_null(c->error, "%s", c->error);
	assay_strvec_push(&cmd, "/bin/sh");
	assay_strvec_push(&cmd, "-c");
	assay_strvec_push(&cmd, "exec sleep 30");
	char *gdir = assay_path_join(root, "work");
	cr_assert_eq(assay_fs_mkdirs(gdir, NULL), 0);
	const assay_checkpoint *cp = &s->checkpoints[0];
	assay_run_ctx ctx = { s, cp, &cp->groups[0], &cmd, NULL, 1 << 20, 1 << 20, 0.1, gdir,
			      NULL, root, NULL };

	t0 = now();
	cr_assert_eq(assay_adapter_api.group_begin(&state, &ctx, &err), 0, "%s", err.msg);
	cr_assert_lt(now() - t0, 0.5, "group_begin waited %.2f s", now() - t0);
	struct api_server *srv = state;
	cr_assert_not(srv->ready);
	cr_assert_null(srv->failure);
	/* `sh -c CMD --address 127.0.0.1 --port P`: no placeholder, so they are appended */
	cr_assert_str_eq(srv->p.argv.v[3], "--address");
	cr_assert_str_eq(srv->p.argv.v[4], "127.0.0.1");
	cr_assert_str_eq(srv->p.argv.v[5], "--port");
	t0 = now();
	cr_assert_eq(assay_adapter_run(&assay_adapter_api, state, &ctx, c, gdir, NULL, &r, &err), 0,
		     "%s", err.msg);
	double waited = now() - t0;
	cr_assert(waited > 1.2 && waited < 4, "the case waited %.2f s", waited);
	cr_assert(r.error && strstr(r.error, "did not answer GET / on http://127.0.0.1:"),
		  "%s", r.error);
	cr_assert_eq(assay_case_result_get(&r, "status_code")->actual.kind, ASSAY_ACTUAL_MISSING);
	assay_case_result_release(&r);
	assay_adapter_api.group_end(state);
	free(gdir);
	assay_strvec_clear(&cmd);
	assay_case_free(c);
	assay_suite_free(s);
	cleanup();
}
