/* Internals shared by the files of src/lib/skill (never installed). */
#ifndef ASSAY_SKILL_INT_H
#define ASSAY_SKILL_INT_H

#include <time.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/judge.h"
#include "assay/skill.h"
#include "assay/strvec.h"

/* Files larger than this are refused (JSON files of a workspace are small). */
#define SKILL_MAX_FILE (64u * 1024 * 1024)

/* util.c */
int assay_skill__load_json(assay_value *out, assay_arena *a, const char *path, assay_err *err);
int assay_skill__write_json(const char *path, const assay_value *v, assay_err *err);
void assay_skill__now(char out[32]);
size_t assay_skill__utf8_len(const char *s, size_t n);
void assay_skill__pos(const assay_arena *a, const assay_value *v, int *line, int *col);
bool assay_skill__grading_name(const char *name, char *case_id, size_t size, int *version,
			       int *run);
/* "<case>_run<R>.json", a grading file of the no-skill baseline: the case id and R. */
bool assay_skill__baseline_name(const char *name, char *case_id, size_t size, int *run);
const char *assay_skill__str(const assay_value *obj, const char *key);
bool assay_skill__int(const assay_value *obj, const char *key, int64_t *out);
char *assay_skill__path(const char *ws, const char *fmt, ...) ASSAY_PRINTF(2, 3);
char *assay_skill__basename(const char *path);
/* One word of a command template with each {name} of `vars` (name, value, ..., NULL)
 * replaced (caller frees). */
char *assay_skill__expand(const char *word, const char *const *vars);
bool assay_skill__is_kebab(const char *s);
int assay_skill__copy_skill(const char *src, const char *dst, assay_err *err);
/* Whether folders `a` and `b` hold the same names, kinds, bytes and link targets. */
bool assay_skill__same_tree(const char *a, const char *b);
/* Mean overall_score of grading/<*>_v<version>_run<*>.json, NaN when none. */
double assay_skill__version_average(const char *ws, int version, size_t *count);

/* config.c: the workspace's config.json */
struct skill_judge_cfg {
	assay_judge_config cfg;
	assay_strvec command;
};

struct skill_config {
	assay_arena *a;
	char *workspace;          /* absolute */
	char *path;               /* config.json */
	char *skill;              /* the skill folder users edit (absolute) */
	assay_strvec executor;    /* the executor template, one word each */
	double exec_timeout;
	assay_strvec improver;    /* the improver template (empty: none) */
	double improver_timeout;
	assay_strvec trigger_command; /* triggers.command (empty: the executor's) */
	assay_strvec trigger_skills;  /* triggers.skills: other skill folders, absolute */
	int trigger_runs;             /* triggers.runs (0: 1) */
	assay_strvec trigger_improver; /* triggers.improver (empty: none) */
	bool exec_sandbox;
	size_t jobs;
	uint64_t seed;
	double budget_seconds, budget_cost;
	assay_skill_profile profile;
	char *skill_type, *budget_class;
	char *prompts_dir, *cache_dir;
	struct skill_judge_cfg judge[3];
};

int assay_skill__config_load(struct skill_config *c, const char *ws, assay_err *err);
void assay_skill__config_release(struct skill_config *c);
/* An improver command to run: its template, the values of its {names} (name, value, ...,
 * NULL, as for assay_skill__expand) and its folder. */
struct skill_improver_call {
	const assay_strvec *tpl;
	const char *const *vars;
	const char *dir;
};
/*
 * Runs an improver command (each of its {names} also in the environment as ASSAY_<NAME>) in
 * its folder, made afresh for it, with improver.timeout; keeps its improver.stdout and
 * improver.stderr there. 0 when it exited 0; 1 when it failed (`why`); an error code when
 * assay could not run it.
 */
int assay_skill__run_improver(const struct skill_config *c,
			      const struct skill_improver_call *call, char *why, size_t whysize,
			      assay_err *err);
int assay_skill__judge_new(assay_judge **out, const struct skill_config *c,
			   assay_judge_role role, bool no_cache, assay_err *err);
/* Default config.json text for a skill folder (caller frees). */
char *assay_skill__config_default(const char *skill_abs);

/* workspace.c */
int assay_skill__history_load(assay_value *out, assay_arena *a, const char *ws, assay_err *err);
int assay_skill__evals_load(assay_value *out, assay_arena *a, const struct skill_config *c,
			    assay_err *err);
/* The text given to judges for one run folder: outputs and transcript (redacted). */
void assay_skill__run_outputs(assay_buf *out, const char *run_dir, const char *redact[],
			      size_t max);

/* zip.c: a ZIP archive written through an assay_fs_atomic (no ZIP64). */
struct skill_zip {
	assay_buf central;        /* the central directory so far */
	size_t offset;            /* bytes written */
	size_t entries;
};
void assay_skill__zip_init(struct skill_zip *z);
/* One file of an archive: its entry name, its bytes, its Unix mode and time. */
struct skill_zip_file {
	const char *name;
	const void *data;
	size_t len;
	unsigned mode;
	time_t mtime;
};
/* Adds one file, deflated. 0, ASSAY_ETOOBIG, EIO. */
int assay_skill__zip_add(struct skill_zip *z, assay_fs_atomic *w,
			 const struct skill_zip_file *f, assay_err *err);
/* Writes the central directory and its end record. */
int assay_skill__zip_finish(struct skill_zip *z, assay_fs_atomic *w, assay_err *err);
void assay_skill__zip_release(struct skill_zip *z);

#endif
