/*
 * The table of judge kinds, the one place a kind is listed: assay_judge_config.type is looked
 * up here, and the error for a type that is not here names every one. A kind is a file
 * defining `const struct assay_judge__kind assay_judge__<name>` (judge_int.h) and one line
 * below; docs/architecture.md, "Adding a judge".
 */
#include <string.h>

#include "assay/buf.h"
#include "judge/judge_int.h"
#include "util/banned.h"

/* Each kind's symbol, in the order the error lists them. */
#define JUDGE_KINDS(X)  \
	X(command)      \
	X(http)         \
	X(anthropic)

#define DECLARE(k) extern const struct assay_judge__kind assay_judge__##k;
JUDGE_KINDS(DECLARE)
#undef DECLARE

#define ENTRY(k) &assay_judge__##k,
static const struct assay_judge__kind *const kinds[] = { JUDGE_KINDS(ENTRY) };
#undef ENTRY

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct assay_judge__kind *assay_judge__kind_find(const char *name, assay_err *err)
{
	assay_buf names = ASSAY_BUF_INIT;

	for (size_t i = 0; i < NKINDS; i++)
		if (name && !strcmp(name, kinds[i]->name))
			return kinds[i];
	/* "command", "http" or "anthropic" */
	for (size_t i = 0; i < NKINDS; i++)
		assay_buf_addf(&names, "%s\"%s\"", !i ? "" : i + 1 < NKINDS ? ", " : " or ",
			       kinds[i]->name);
	assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "judge type must be %s, not \"%.64s%s\"",
		      names.ptr, name ? name : "", name && strlen(name) > 64 ? "..." : "");
	assay_buf_release(&names);
	return NULL;
}
