/*
 * Unit tests of the judge kinds (src/lib/judge/judge_int.h, kinds.c): the table finds each
 * kind by its type name, an unknown type's error names every kind, each kind refuses a
 * configuration without what it needs, and assay_judge_ask() drives any kind through the
 * interface alone (a kind made here, in no table): tries, tokens, cost, the last try's reason.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "assay/json.h"
#include "assay/judge.h"
#include "judge/judge_int.h"

Test(judge_kinds, each_type_name_finds_its_kind)
{
	static const char *const names[] = { "command", "http", "anthropic" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct assay_judge__kind *k = assay_judge__kind_find(names[i], NULL);

		cr_assert_not_null(k, "%s", names[i]);
		cr_expect_str_eq(k->name, names[i]);
		cr_expect(k->open && k->ask && k->release, "%s implements the interface",
			  names[i]);
	}
}

Test(judge_kinds, an_unknown_type_is_refused_naming_every_kind)
{
	assay_judge_config cfg = ASSAY_JUDGE_CONFIG_INIT;
	assay_judge *j = (assay_judge *)&cfg;
	assay_err err = ASSAY_ERR_INIT;

	cr_expect_null(assay_judge__kind_find("smoke-signals", &err));
	cr_expect_eq(err.code, ASSAY_EINVALID);
	cr_expect_str_eq(err.msg, "judge type must be \"command\", \"http\" or \"anthropic\", "
				  "not \"smoke-signals\"");
	assay_err_clear(&err);
	cfg.type = NULL;
	cr_expect_eq(assay_judge_new(&j, &cfg, &err), ASSAY_EINVALID);
	cr_expect_null(j, "nothing is made");
	cr_expect(strstr(err.msg, ", not \"\""), "%s", err.msg);
	assay_err_clear(&err);
	cfg.type = "Command";
	cr_expect_eq(assay_judge_new(&j, &cfg, &err), ASSAY_EINVALID, "names are exact");
}

Test(judge_kinds, each_kind_refuses_a_configuration_without_what_it_needs)
{
	assay_judge_config cfg = ASSAY_JUDGE_CONFIG_INIT;
	assay_strvec argv = ASSAY_STRVEC_INIT;
	assay_judge *j;
	assay_err err = ASSAY_ERR_INIT;

	cr_expect_eq(assay_judge_new(&j, &cfg, &err), ASSAY_EINVALID);
	cr_expect_str_eq(err.msg, "the command judge has no command (set judge.command)");
	assay_err_clear(&err);
	cfg.type = "http";
	cfg.model = "m";
	cr_expect_eq(assay_judge_new(&j, &cfg, &err), ASSAY_EINVALID);
	cr_expect_str_eq(err.msg, "the http judge needs base_url and model");
	assay_err_clear(&err);
	cfg.type = "anthropic";
	cfg.model = "";
	cr_expect_eq(assay_judge_new(&j, &cfg, &err), ASSAY_EINVALID);
	cr_expect_str_eq(err.msg, "the anthropic judge needs a model");

	/* and each is made from what it needs */
	cfg.model = "m";
	cr_assert_eq(assay_judge_new(&j, &cfg, NULL), 0, "anthropic has a default base_url");
	assay_judge_free(j);
	cfg.type = "http";
	cfg.base_url = "http://127.0.0.1:1/v1";
	cr_assert_eq(assay_judge_new(&j, &cfg, NULL), 0);
	assay_judge_free(j);
	cfg.type = "command";
	assay_strvec_push(&argv, "true");
	cfg.command = &argv;
	cr_assert_eq(assay_judge_new(&j, &cfg, NULL), 0);
	assay_judge_free(j);
	assay_strvec_clear(&argv);
}

/* A kind made here: fails its first `fail` tries, then answers a valid analysis. */
struct scripted {
	int fail;
	int asked;
	char role[32];
	long long tokens;
	bool released;
};

static int scripted_ask(const struct assay_judge *j, const struct assay_judge__question *q,
			assay_buf *answer, assay_judge_stats *st, assay_err *err)
{
	struct scripted *s = j->self;

	snprintf(s->role, sizeof(s->role), "%s", q->role);
	st->tokens_in += 1000000;
	st->tokens_out += 2000000;
	if (s->asked++ < s->fail)
		return assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "try %d failed", s->asked);
	assay_buf_adds(answer, "{\"strengths\": [], \"weaknesses\": [], \"suggestions\": []}");
	return 0;
}

static void scripted_release(void *self)
{
	((struct scripted *)self)->released = true;
}

static const struct assay_judge__kind scripted_kind = {
	.name = "scripted", .ask = scripted_ask, .release = scripted_release,
};

static assay_judge *scripted_judge(struct scripted *s, int retries)
{
	struct assay_judge *j = assay_xcalloc(1, sizeof(*j));

	j->kind = &scripted_kind;
	j->self = s;
	j->model = assay_xstrdup("m");
	j->timeout_s = 1;
	j->retries = retries;
	j->price_in = 1;
	j->price_out = 2;
	return j;
}

Test(judge_kinds, ask_drives_a_kind_through_the_interface)
{
	struct scripted s = { .fail = 2 };
	assay_judge *j = scripted_judge(&s, 2);
	assay_arena *a = assay_arena_new(0);
	assay_value req = assay_value_object(), ans;
	assay_judge_stats st;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_judge_ask(j, ASSAY_JUDGE_ANALYZER, &req, &ans, a, &st, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(st.attempts, 3);
	cr_expect_str_eq(s.role, "analyzer");
	cr_expect_eq(st.tokens_in, 3000000, "every try's tokens count");
	cr_expect_eq(st.tokens_out, 6000000);
	cr_expect_float_eq(st.cost, 3.0 * 1 + 6.0 * 2, 1e-9);
	cr_expect_eq(ans.kind, ASSAY_V_OBJECT);
	assay_judge_free(j);
	cr_expect(s.released, "the kind's state is released with the judge");

	struct scripted t = { .fail = 5 };
	j = scripted_judge(&t, 1);
	cr_expect_eq(assay_judge_ask(j, ASSAY_JUDGE_ANALYZER, &req, &ans, a, &st, &err),
		     ASSAY_EINVALID);
	cr_expect_str_eq(err.msg, "analyzer: no valid answer after 2 tries: try 2 failed",
			 "the last try's reason, not the first's");
	assay_judge_free(j);
	assay_arena_free(a);
}
