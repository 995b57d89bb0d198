/*
 * The api adapter (suite-format.md, "A case (api adapter)"): a server started once per group,
 * one HTTP request per case. Reading its case keys is here; running is not built yet, so a run
 * of an api suite stops at its first group with that message.
 */
#include <string.h>

#include "assay/adapter.h"
#include "util/banned.h"

static const char *const api_case_keys[] = { "method", "path", "headers", "query",
					     "body",   "retries", NULL };
static const char *const api_attributes[] = { "status_code", "output", "headers", NULL };

static int load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
		     assay_err *err)
{
	assay_value *copy = assay_arena_alloc(c->arena, sizeof(*copy));

	(void)ctx;
	(void)err;
	*copy = *def;
	c->adapter_data = copy;
	return 0;
}

static int group_begin(void **state, const assay_run_ctx *ctx, assay_err *err)
{
	(void)state;
	(void)ctx;
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "the api adapter is not supported yet");
}

const assay_adapter assay_adapter_api = {
	.name = "api",
	.case_keys = api_case_keys,
	.attributes = api_attributes,
	.files = false,
	.load_case = load_case,
	.group_begin = group_begin,
};
