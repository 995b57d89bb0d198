/* Freeing the suite model, the names of group types, the files- attribute names, and the
 * suite's content hash. */
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/suite.h"
#include "util/banned.h"

const char *assay_group_type_name(assay_group_type type)
{
	switch (type) {
	case ASSAY_GROUP_CORE: return "Core";
	case ASSAY_GROUP_FUNCTIONALITY: return "Functionality";
	case ASSAY_GROUP_ERROR: return "Error";
	case ASSAY_GROUP_REGRESSION: return "Regression";
	}
	return "Functionality";
}

#define FILE_PREFIX "files-"

char *assay_file_attribute(const char *path)
{
	return assay_xasprintf(FILE_PREFIX "%s", path);
}

const char *assay_file_attribute_path(const char *attribute)
{
	size_t n = strlen(FILE_PREFIX);

	return strncmp(attribute, FILE_PREFIX, n) ? NULL : attribute + n;
}

void assay_suite_free(assay_suite *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		assay_checkpoint *cp = &s->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++) {
			assay_group *g = &cp->groups[j];

			for (size_t k = 0; k < g->ncases; k++) {
				free(g->cases[k].id);
				free(g->cases[k].file);
				free(g->cases[k].files_dir);
				free(g->cases[k].problem);
			}
			free(g->cases);
			free(g->name);
			free(g->original_checkpoint);
			free(g->original_group);
			free(g->dir);
			assay_strvec_clear(&g->env);
		}
		free(cp->groups);
		free(cp->name);
		free(cp->path);
		free(cp->submission);
	}
	free(s->checkpoints);
	free(s->name);
	free(s->description);
	free(s->root);
	free(s->file);
	assay_strvec_clear(&s->command);
	free(s->submission);
	assay_strvec_clear(&s->tracked_files);
	assay_strvec_clear(&s->read_paths);
	assay_arena_free(s->arena);
	free(s);
}

int assay_suite_hash(const assay_suite *suite, char out[65], assay_err *err)
{
	return assay_fs_sha256(suite->file, out, err);
}
