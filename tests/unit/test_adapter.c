/*
 * Unit tests of the adapter registry (adapter.h, src/lib/adapter/registry.c) and of the loader
 * handed it (src/lib/load/load_lib.h): adapters are found by name in one table; adapter.type
 * names one of the table's, and the messages for a wrong or missing type list the table's
 * names; a new adapter is one more line of the table the loader is handed, with its own keys of
 * the `adapter` mapping known, and nothing else naming it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "assay/adapter.h"
#include "assay/fs.h"
#include "load/load_lib.h"
#include "verify/verify_lib.h"

static char *dir;

static void setup(void)
{
	cr_assert_eq(assay_fs_mkdtemp(&dir, NULL, "assay-test-adapter-", NULL), 0);
	char *cp = assay_path_join(dir, "c1/g");
	cr_assert_eq(assay_fs_mkdirs(cp, NULL), 0);
	free(cp);
}

static void teardown(void)
{
	assay_fs_remove_tree(dir, NULL);
	free(dir);
	dir = NULL;
}

TestSuite(adapter, .init = setup, .fini = teardown);

static void suite_yaml(const char *adapter)
{
	char *text = assay_xasprintf("name: t\nadapter: %s\ncheckpoints:\n  c1:\n    order: 1\n"
				     "    groups: {g: {}}\n", adapter);
	char *p = assay_path_join(dir, "suite.yaml");
	cr_assert_eq(assay_fs_write(p, text, strlen(text), 0644, NULL), 0);
	free(p);
	free(text);
}

/* The message of a load that must fail, as "suite.yaml:LINE:COL: message". */
static char *load_error(const struct assay_load_hooks *hooks)
{
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc = hooks ? assay_load__suite(&s, dir, NULL, hooks, NULL, NULL, &err)
		       : assay_suite_load(&s, dir, NULL, NULL, NULL, &err);
	cr_assert_eq(rc, ASSAY_EINVALID, "load: %d %s", rc, err.msg);
	cr_assert_null(s);
	const char *base = strrchr(err.path, '/');
	return assay_xasprintf("%s:%d:%d: %s", base ? base + 1 : err.path, err.line, err.column,
			       err.msg);
}

Test(adapter, find_by_name_in_the_table)
{
	size_t n = 0;

	for (const assay_adapter *const *ad = assay_adapters; *ad; ad++, n++) {
		cr_assert_eq(assay_adapter_find((*ad)->name), *ad, "%s", (*ad)->name);
		for (const assay_adapter *const *other = assay_adapters; *other != *ad; other++)
			cr_assert_str_neq((*other)->name, (*ad)->name, "two adapters named %s",
					  (*ad)->name);
	}
	cr_assert_eq(n, 2);
	cr_assert_eq(assay_adapter_find("cli"), &assay_adapter_cli);
	cr_assert_eq(assay_adapter_find("api"), &assay_adapter_api);
	cr_assert_null(assay_adapter_find("CLI"));
	cr_assert_null(assay_adapter_find("cl"));
	cr_assert_null(assay_adapter_find(""));
	cr_assert_null(assay_adapter_find(NULL));
}

Test(adapter, the_built_in_adapters_say_what_the_runner_and_reports_ask)
{
	/* the runner's "no command" check before any case, and a request's execution */
	cr_assert(assay_adapter_cli.needs_command);
	cr_assert_not(assay_adapter_cli.requests);
	cr_assert_not_null(assay_adapter_cli.repro_inputs);
	cr_assert_not(assay_adapter_api.needs_command);
	cr_assert(assay_adapter_api.requests);
	cr_assert_null(assay_adapter_api.repro_inputs);
}

Test(adapter, a_wrong_or_missing_type_names_the_registry)
{
	char *msg;

	suite_yaml("{type: grpc, command: [sh]}");
	msg = load_error(NULL);
	cr_assert_str_eq(msg, "suite.yaml:2:17: adapter.type must be cli or api");
	free(msg);
	suite_yaml("{type: [cli], command: [sh]}");
	msg = load_error(NULL);
	cr_assert_str_eq(msg, "suite.yaml:2:17: adapter.type must be cli or api");
	free(msg);
	suite_yaml("{command: [sh]}");
	msg = load_error(NULL);
	cr_assert_str_eq(msg, "suite.yaml:2:10: adapter.type is required (cli or api)");
	free(msg);
}

/* A third adapter: a table line and its own struct, nothing else. */
static const char *const fake_keys[] = { "channel", NULL };
static const char *const fake_case_keys[] = { "message", "steps", NULL };
static const assay_list_merge fake_lists[] = { { "steps", "name" }, { NULL, NULL } };
static const char *const fake_attributes[] = { "output", NULL };

static int fake_load_suite(assay_suite *s, const assay_value *config, assay_err *err)
{
	const assay_value *channel = assay_object_get(config, "channel");

	if (channel && channel->kind != ASSAY_V_STRING)
		return assay_suite_error_at(s, channel, err, "adapter.channel must be a name");
	s->adapter_data = (void *)"read";
	return 0;
}

/* a message written in capitals is said quietly */
static int fake_prepare_case(assay_value *def, const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *m = assay_object_get(def, "message");

	if (m && m->kind != ASSAY_V_STRING)
		return assay_case_error_at(ctx, m, err, "message must be a string");
	if (m && !strcmp(m->u.s, "HELLO {{static:x}}"))
		assay_object_set(ctx->kase->arena, def, "message",
				 assay_value_strz(ctx->kase->arena, "hello {{static:x}}"));
	return 0;
}

static int fake_load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			  assay_err *err)
{
	(void)def, (void)ctx, (void)err;
	c->adapter_data = (void *)"case";
	return 0;
}

static const assay_adapter fake = {
	.name = "fake",
	.case_keys = fake_case_keys,
	.attributes = fake_attributes,
	.load_suite = fake_load_suite,
	.load_case = fake_load_case,
	.suite_keys = fake_keys,
	.merge_lists = fake_lists,
	.prepare_case = fake_prepare_case,
};

static void warned(void *payload, const char *msg)
{
	(*(int *)payload)++;
	cr_log_info("%s", msg);
}

Test(adapter, a_new_adapter_is_one_line_of_the_table)
{
	const assay_adapter *const table[] = { &assay_adapter_cli, &assay_adapter_api, &fake, NULL };
	const struct assay_load_hooks hooks = { .adapters = table,
						.check_verify = assay_verify__load_check };
	assay_suite *s = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int warnings = 0;
	char *msg;

	suite_yaml("{type: grpc}");
	msg = load_error(&hooks);
	cr_assert_str_eq(msg, "suite.yaml:2:17: adapter.type must be cli, api or fake");
	free(msg);
	suite_yaml("{type: fake, channel: [x]}");
	msg = load_error(&hooks);
	cr_assert_str_eq(msg, "suite.yaml:2:32: adapter.channel must be a name");
	free(msg);

	/* its own key is known (no warning), and its load_suite read the mapping */
	suite_yaml("{type: fake, channel: x}");
	cr_assert_eq(assay_load__suite(&s, dir, NULL, &hooks, warned, &warnings, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s->adapter, &fake);
	cr_assert_str_eq(s->adapter_data, "read");
	cr_assert_eq(warnings, 0);
	assay_suite_free(s);

	/* its lists merge by its field, and it prepares a case before {{static:}} is replaced */
	char *text = assay_xasprintf("name: t\nadapter: {type: fake}\nstatic_assets: {x: {path: "
				     "a}}\ncheckpoints:\n  c1:\n    order: 1\n    groups: {g: "
				     "{case_defaults: {steps: [{name: a, n: 1}, {name: b, n: 2}]}}}"
				     "\n");
	char *p = assay_path_join(dir, "suite.yaml");
	cr_assert_eq(assay_fs_write(p, text, strlen(text), 0644, NULL), 0);
	free(p), free(text);
	const char *kase = "message: HELLO {{static:x}}\nsteps: [{name: c, n: 4}, {name: a, n: 3}]"
			   "\nexpected: {output: hi}\n";
	p = assay_path_join(dir, "c1/g/one.yaml");
	cr_assert_eq(assay_fs_write(p, kase, strlen(kase), 0644, NULL), 0);
	free(p);
	cr_assert_eq(assay_load__suite(&s, dir, NULL, &hooks, warned, &warnings, &err), 0, "%s",
		     err.msg);
	assay_case *c = NULL;
	assay_case_load(&c, s, &s->checkpoints[0], &s->checkpoints[0].groups[0], 0, NULL, NULL);
	cr_assert_null(c->error, "%s", c->error);
	cr_assert_str_eq(c->adapter_data, "case");
	const assay_value *steps = assay_object_get(&c->definition, "steps");
	cr_assert_eq(steps->len, 3);
	const char *want[][2] = { { "a", "3" }, { "b", "2" }, { "c", "4" } };
	for (uint32_t i = 0; i < 3; i++) {
		cr_assert_str_eq(assay_object_get(&steps->u.items[i], "name")->u.s, want[i][0]);
		cr_assert_eq(assay_object_get(&steps->u.items[i], "n")->u.i, want[i][1][0] - '0');
	}
	const assay_value *m = assay_object_get(&c->definition, "message");
	cr_assert(!strncmp(m->u.s, "hello /", 7), "%s", m->u.s);
	cr_assert(strstr(m->u.s, "/a"), "%s", m->u.s);
	assay_case_free(c);
	assay_suite_free(s);
	cr_assert_eq(warnings, 1); /* static asset 'x' does not exist */
	warnings = 0;

	/* while the registry without it does not know its key */
	suite_yaml("{type: cli, command: [sh], channel: x}");
	cr_assert_eq(assay_suite_load(&s, dir, NULL, warned, &warnings, &err), 0, "%s", err.msg);
	cr_assert_eq(s->adapter, &assay_adapter_cli);
	cr_assert_eq(warnings, 1);
	assay_suite_free(s);
}
