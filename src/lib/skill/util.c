/*
 * Small helpers of the skill module: JSON files read with positions and written atomically
 * (pretty, one trailing newline), UTC timestamps in the contract's form (decision 2), code
 * point counts (decision 7), the grading file name pattern, Python's round(x, 1).
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "skill/skill_int.h"
#include "util/banned.h"

int assay_skill__load_json(assay_value *out, assay_arena *a, const char *path, assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	assay_json_opts o = ASSAY_JSON_OPTS_INIT;
	int rc;

	*out = assay_value_null();
	rc = assay_fs_read(&text, path, SKILL_MAX_FILE, err);
	if (rc == ASSAY_ENOTFOUND)
		assay_err_set(err, rc, path, 0, 0, "no such file");
	if (!rc) {
		o.source = path;
		o.positions = true;
		rc = assay_json_parse(out, a, text.ptr, text.len, &o, err);
	}
	assay_buf_release(&text);
	return rc;
}

int assay_skill__write_json(const char *path, const assay_value *v, assay_err *err)
{
	assay_buf b = ASSAY_BUF_INIT;
	int rc;

	assay_json_write(&b, v, ASSAY_JSON_PRETTY);
	assay_buf_addch(&b, '\n');
	rc = assay_fs_mkparents(path, err);
	if (!rc)
		rc = assay_fs_write_atomic(path, b.ptr, b.len, 0644, err);
	assay_buf_release(&b);
	return rc;
}

void assay_skill__now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

size_t assay_skill__utf8_len(const char *s, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			count++;
	return count;
}

void assay_skill__pos(const assay_arena *a, const assay_value *v, int *line, int *col)
{
	assay_pos p;

	*line = *col = 0;
	if (a && v && assay_arena_position(a, v, &p)) {
		*line = (int)p.line;
		*col = (int)p.col;
	}
}

bool assay_skill__grading_name(const char *name, char *case_id, size_t size, int *version,
			       int *run)
{
	size_t n = strlen(name);
	const char *end, *r, *v;

	if (n < 5 || strcmp(name + n - 5, ".json"))
		return false;
	end = name + n - 5;
	r = end;
	while (r > name && r[-1] >= '0' && r[-1] <= '9')
		r--;
	if (r == end || r - name < 4 || strncmp(r - 4, "_run", 4))
		return false;
	v = r - 4;
	const char *vend = v;
	while (v > name && v[-1] >= '0' && v[-1] <= '9')
		v--;
	if (v == vend || v - name < 3 || strncmp(v - 2, "_v", 2) || end - r > 6 || vend - v > 6)
		return false;
	if ((size_t)(v - 2 - name) + 1 > size || v - 2 == name)
		return false;
	memcpy(case_id, name, (size_t)(v - 2 - name));
	case_id[v - 2 - name] = '\0';
	*version = (int)strtol(v, NULL, 10);
	*run = (int)strtol(r, NULL, 10);
	return true;
}

const char *assay_skill__str(const assay_value *obj, const char *key)
{
	const assay_value *v = assay_object_get(obj, key);

	return v && v->kind == ASSAY_V_STRING ? v->u.s : NULL;
}

bool assay_skill__int(const assay_value *obj, const char *key, int64_t *out)
{
	const assay_value *v = assay_object_get(obj, key);

	if (!v || v->kind != ASSAY_V_INT)
		return false;
	*out = v->u.i;
	return true;
}

char *assay_skill__path(const char *ws, const char *fmt, ...)
{
	assay_buf b = ASSAY_BUF_INIT;
	va_list ap;

	assay_buf_adds(&b, ws);
	assay_buf_addch(&b, '/');
	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return assay_buf_detach(&b, NULL);
}

char *assay_skill__basename(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t start = n;
	while (start > 0 && path[start - 1] != '/')
		start--;
	return assay_xstrndup(path + start, n - start);
}

bool assay_skill__is_kebab(const char *s)
{
	bool need = true; /* a letter or digit must come next */

	for (; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'))
			need = false;
		else if (*s == '-' && !need)
			need = true;
		else
			return false;
	}
	return !need;
}

int assay_skill__copy_skill(const char *src, const char *dst, assay_err *err)
{
	char *evals;
	int rc = assay_fs_copy_tree(src, dst, err);

	if (rc)
		return rc;
	/* Decision 4: an executor must never be able to read the rubric. */
	evals = assay_path_join(dst, "evals");
	rc = assay_fs_remove_tree(evals, err);
	free(evals);
	return rc;
}

double assay_skill_round1(double x)
{
	char buf[64];

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof(buf), "%.1f", x);
	return strtod(buf, NULL);
}

double assay_skill__version_average(const char *ws, int version, size_t *count)
{
	char *dir = assay_path_join(ws, "grading");
	DIR *d = opendir(dir);
	struct dirent *e;
	double sum = 0;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char id[256];
		int v, r;

		if (!assay_skill__grading_name(e->d_name, id, sizeof(id), &v, &r) || v != version)
			continue;
		char *path = assay_path_join(dir, e->d_name);
		assay_arena *a = assay_arena_new(0);
		assay_value g;
		if (!assay_skill__load_json(&g, a, path, NULL)) {
			const assay_value *s = assay_object_get(&g, "overall_score");
			if (s && assay_value_is_number(s)) {
				sum += assay_value_number(s);
				n++;
			}
		}
		assay_arena_free(a);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	if (count)
		*count = n;
	return n ? assay_skill_round1(sum / (double)n) : NAN;
}

void assay_skill_diag_add(assay_skill_diags *d, assay_skill_severity sev, const char *path,
			  int line, int col, const char *fmt, ...)
{
	va_list ap;
	assay_buf b = ASSAY_BUF_INIT;

	if (d->nr == d->alloc) {
		d->alloc = d->alloc ? d->alloc * 2 : 16;
		d->v = assay_xrealloc(d->v, d->alloc * sizeof(*d->v));
	}
	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	d->v[d->nr++] = (assay_skill_diag){ sev, assay_xstrdup(path ? path : ""), line, col,
					     assay_buf_detach(&b, NULL) };
	if (sev == ASSAY_SKILL_ERROR)
		d->errors++;
	else if (sev == ASSAY_SKILL_WARNING)
		d->warnings++;
}

void assay_skill_diags_clear(assay_skill_diags *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->v[i].path);
		free(d->v[i].msg);
	}
	free(d->v);
	*d = (assay_skill_diags)ASSAY_SKILL_DIAGS_INIT;
}

/* "<case>_run<R>.json" (a grading file of the no-skill baseline): the case id and R. */
bool assay_skill__baseline_name(const char *name, char *id, size_t size, int *run)
{
	size_t n = strlen(name);
	const char *u;
	char *end;

	if (n < 10 || strcmp(name + n - 5, ".json"))
		return false;
	for (u = name + n - 5; u > name && strncmp(u, "_run", 4); u--)
		;
	if (u == name || (size_t)(u - name) >= size)
		return false;
	long r = strtol(u + 4, &end, 10);
	if (end == u + 4 || strcmp(end, ".json") || r < 1 || r > 1000000)
		return false;
	memcpy(id, name, (size_t)(u - name));
	id[u - name] = '\0';
	*run = (int)r;
	return true;
}

/* Replaces {name} placeholders in one word of a command template (executor, improver). */
char *assay_skill__expand(const char *word, const char *const *vars)
{
	assay_buf b = ASSAY_BUF_INIT;

	for (const char *p = word; *p;) {
		bool hit = false;
		for (size_t i = 0; vars[i]; i += 2) {
			size_t k = strlen(vars[i]);
			if (!strncmp(p, vars[i], k)) {
				assay_buf_adds(&b, vars[i + 1]);
				p += k;
				hit = true;
				break;
			}
		}
		if (!hit)
			assay_buf_addch(&b, *p++);
	}
	return assay_buf_detach(&b, NULL);
}

int assay_skill__run_improver(const struct skill_config *c,
			      const struct skill_improver_call *call, char *why, size_t whysize,
			      assay_err *err)
{
	const assay_strvec *tpl = call->tpl;
	const char *const *vars = call->vars;
	const char *dir = call->dir;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result pr;
	int rc;

	/* a folder made for it, and nothing else (never a working folder it did not get) */
	if ((rc = assay_fs_remove_tree(dir, err)) || (rc = assay_fs_mkdirs(dir, err)))
		goto out;
	for (size_t i = 0; i < tpl->nr; i++)
		assay_strvec_push_nodup(&p.argv, assay_skill__expand(tpl->v[i], vars));
	/* each {name} also as ASSAY_NAME in the environment */
	for (size_t i = 0; vars[i]; i += 2) {
		assay_buf e = ASSAY_BUF_INIT;
		assay_buf_adds(&e, "ASSAY_");
		for (const char *q = vars[i] + 1; *q && *q != '}'; q++)
			assay_buf_addch(&e, (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q));
		assay_buf_addf(&e, "=%s", vars[i + 1]);
		assay_strvec_push_nodup(&p.env, assay_buf_detach(&e, NULL));
	}
	p.cwd = assay_xstrdup(dir);
	p.out_cap = 1u << 20;
	p.err_cap = 1u << 20;
	p.timeout_s = c->improver_timeout;
	if ((rc = assay_proc_run(&p, &pr, err)))
		goto out;
	assay_fs_write_beneath(dir, "improver.stdout", p.out.ptr, p.out.len, 0644, NULL);
	assay_fs_write_beneath(dir, "improver.stderr", p.err.ptr, p.err.len, 0644, NULL);
	const char *rel = strncmp(dir, c->workspace, strlen(c->workspace)) ? dir
			  : dir + strlen(c->workspace) + (dir[strlen(c->workspace)] == '/');
	if (pr.status == ASSAY_PROC_EXEC_FAILED)
		snprintf(why, whysize, "the improver could not be started: %s: %s", p.argv.v[0],
			 strerror(pr.exec_errno));
	else if (pr.status == ASSAY_PROC_TIMED_OUT)
		snprintf(why, whysize, "the improver timed out after %g s", c->improver_timeout);
	else if (pr.status == ASSAY_PROC_SIGNALED)
		snprintf(why, whysize, "the improver was killed by signal %d", pr.term_signal);
	else if (pr.exit_code)
		snprintf(why, whysize, "the improver exited %d (%s/improver.stderr)", pr.exit_code,
			 rel);
	else
		why[0] = '\0';
	rc = why[0] ? 1 : 0;
out:
	assay_proc_release(&p);
	return rc;
}

