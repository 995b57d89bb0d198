/*
 * Durations of an earlier run (shard.h), read from its reports.jsonl, by checkpoint/group/id:
 * what --shard-durations balances shards by. Memory: one name and one number per case; each
 * line is parsed into an arena freed after it, so a line of any size costs only itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "shard/shard_int.h"
#include "assay/report.h"
#include "util/hash.h"
#include "util/banned.h"

struct slot {
	char *name;   /* NULL: free */
	double seconds;
};

struct assay_shard_durations {
	struct slot *slots;
	size_t n, alloc;  /* alloc: a power of two, or 0 */
	double sum;
};

static struct slot *find(struct slot *slots, size_t alloc, const char *name)
{
	for (size_t j = assay_hash(name, strlen(name)) & (alloc - 1);; j = (j + 1) & (alloc - 1))
		if (!slots[j].name || !strcmp(slots[j].name, name))
			return &slots[j];
}

static void put(assay_shard_durations *d, char *name, double seconds)
{
	struct slot *s;

	if (2 * (d->n + 1) > d->alloc) {
		size_t alloc = d->alloc ? 2 * d->alloc : 256;
		struct slot *slots = assay_xcalloc(alloc, sizeof(*slots));

		for (size_t i = 0; i < d->alloc; i++)
			if (d->slots[i].name)
				*find(slots, alloc, d->slots[i].name) = d->slots[i];
		free(d->slots);
		d->slots = slots;
		d->alloc = alloc;
	}
	s = find(d->slots, d->alloc, name);
	if (s->name) { /* a case twice (a resumed file): the last line counts */
		d->sum += seconds - s->seconds;
		s->seconds = seconds;
		free(name);
		return;
	}
	s->name = name;
	s->seconds = seconds;
	d->n++;
	d->sum += seconds;
}

double assay_shard__duration(const assay_shard_durations *d, const char *name)
{
	if (!d || !d->alloc)
		return -1;
	const struct slot *s = find(d->slots, d->alloc, name);
	return s->name ? s->seconds : -1;
}

double assay_shard__duration_mean(const assay_shard_durations *d)
{
	return d && d->n ? d->sum / (double)d->n : 0;
}

size_t assay_shard_durations_count(const assay_shard_durations *d)
{
	return d ? d->n : 0;
}

void assay_shard_durations_free(assay_shard_durations *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->alloc; i++)
		free(d->slots[i].name);
	free(d->slots);
	free(d);
}

/* One report line: its name and duration into `d` when it has both. */
static int take_line(assay_shard_durations *d, const char *line, size_t len, const char *path,
		     size_t lineno, assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	assay_err pe = ASSAY_ERR_INIT;
	assay_value v;
	int rc = 0;

	if (assay_json_parse(&v, a, line, len, NULL, &pe)) {
		rc = assay_err_set(err, ASSAY_EPARSE, path, (int)lineno, pe.column,
				   "not a report line: %s", pe.msg);
		goto out;
	}
	const assay_value *cp = assay_report_get(&v, "checkpoint");
	const assay_value *g = assay_object_get(&v, "group");
	const assay_value *id = assay_object_get(&v, "id");
	const assay_value *dur = assay_object_get(&v, "duration");

	if (cp && g && id && cp->kind == ASSAY_V_STRING && g->kind == ASSAY_V_STRING &&
	    id->kind == ASSAY_V_STRING && assay_value_is_number(dur) &&
	    assay_value_number(dur) >= 0 && assay_value_number(dur) < 1e9)
		put(d, assay_xasprintf("%s/%s/%s", cp->u.s, g->u.s, id->u.s),
		    assay_value_number(dur));
out:
	assay_arena_free(a);
	return rc;
}

int assay_shard_durations_read(assay_shard_durations **out, const char *path, assay_err *err)
{
	char *file = assay_fs_is_dir(path) ? assay_path_join(path, "reports.jsonl")
					   : assay_xstrdup(path);
	assay_shard_durations *d = assay_xcalloc(1, sizeof(*d));
	FILE *f = fopen(file, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = 0;

	*out = NULL;
	if (!f) {
		rc = assay_err_set(err, errno == ENOENT ? ASSAY_ENOTFOUND : ASSAY_EIO, file, 0, 0,
				   "cannot read the durations: %s", strerror(errno));
		goto out;
	}
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (strspn(line, " \t") < (size_t)n)
			rc = take_line(d, line, (size_t)n, file, lineno, err);
	}
	if (!rc && ferror(f))
		rc = assay_err_set(err, ASSAY_EIO, file, 0, 0, "cannot read: %s", strerror(errno));
out:
	if (f)
		fclose(f);
	free(line);
	free(file);
	if (rc)
		assay_shard_durations_free(d);
	else
		*out = d;
	return rc;
}
