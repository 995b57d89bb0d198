/* Freeing the suite model, and the names of group types. */
#include <stdlib.h>

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

static void case_release(assay_case *c)
{
	free(c->id);
	free(c->file);
	free(c->files_dir);
	free(c->error);
	assay_strvec_clear(&c->arguments);
	free(c->stdin_data);
	for (size_t i = 0; i < c->ninput_files; i++) {
		free(c->input_files[i].path);
		free(c->input_files[i].content);
	}
	free(c->input_files);
	assay_strvec_clear(&c->env);
	json_decref(c->expected);
	json_decref(c->verify);
	json_decref(c->definition);
}

void assay_suite_free(assay_suite *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		assay_checkpoint *cp = &s->checkpoints[i];
		for (size_t j = 0; j < cp->ngroups; j++) {
			assay_group *g = &cp->groups[j];
			for (size_t k = 0; k < g->ncases; k++)
				case_release(&g->cases[k]);
			free(g->cases);
			free(g->name);
			free(g->original_checkpoint);
			free(g->original_group);
			free(g->dir);
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
	assay_strvec_clear(&s->command);
	free(s->submission);
	assay_strvec_clear(&s->tracked_files);
	json_decref(s->raw);
	free(s);
}
