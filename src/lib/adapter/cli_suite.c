/*
 * The cli adapter's own keys of suite.yaml's `adapter` mapping (suite-format.md, "suite.yaml"):
 * tracked_files, the globs of files collected after each case besides the expected ones; and
 * where a case's arguments and standard input are in its report line, for the command line that
 * reproduces a failed case (assay_adapter.repro_inputs).
 *
 * Key decisions:
 * - tracked_files stays in assay_suite.tracked_files (public, for programs that read it) rather
 *   than in adapter_data; the cli adapter alone reads and fills it.
 * - The suite's adapter_type is set here for programs written before the registry.
 */
#include <string.h>

#include "adapter/cli_int.h"
#include "util/banned.h"

int assay_cli__load_suite(assay_suite *s, const assay_value *config, assay_err *err)
{
	const assay_member *tm = assay_object_member(config, "tracked_files");

	s->adapter_type = ASSAY_ADAPTER_CLI;
	if (!tm || tm->value.kind == ASSAY_V_NULL)
		return 0;
	if (tm->value.kind != ASSAY_V_ARRAY)
		return assay_suite_error_at(s, assay_member_anchor(tm), err,
					    "adapter.tracked_files must be a list of globs");
	for (uint32_t i = 0; i < tm->value.len; i++) {
		const assay_value *item = &tm->value.u.items[i];

		if (item->kind != ASSAY_V_STRING)
			return assay_suite_error_at(s, &tm->value, err,
						    "adapter.tracked_files items must be strings");
		assay_strvec_push(&s->tracked_files, item->u.s);
	}
	return 0;
}

bool assay_cli__repro_inputs(const assay_value *def, const assay_value **args,
			     const assay_value **stdin_value)
{
	*args = assay_object_get(def, "arguments");
	*stdin_value = assay_object_get(def, "stdin");
	return true;
}
