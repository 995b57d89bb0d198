/*
 * `--shard I/N`, `auto` and `auto/N` (shard.h): which shard this process runs, from the command
 * line or from what a scheduler put in the environment.
 *
 * Key decisions:
 * - Shards are numbered from 1 on the command line (`1/3 2/3 3/3`, as Playwright and Jest
 *   do); 0-based schedulers (Kubernetes' JOB_COMPLETION_INDEX, `--array=0-2`) go through
 *   `auto`, which knows each one's convention. A "0/3" is refused with that advice.
 * - Slurm numbers array tasks as the script's --array says: the shard is the task's rank in
 *   the array (ID - MIN) / STEP, so `--array=1-3` and `--array=0-2` both work; an array that
 *   is not an evenly stepped range has no rank we can compute, and is refused.
 * - The environment is read through a function the caller gives (getenv by default), so the
 *   library reads no process state the caller cannot replace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/shard.h"
#include "util/banned.h"

/* A whole number >= 0 of at most 18 digits, the whole of `s`. */
static bool number(const char *s, long long *out)
{
	char *end;

	if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 18)
		return false;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return !errno && !*end;
}

static int check(assay_shard *out, long long i, long long n, const char *text, assay_err *err)
{
	if (n < 1 || n > ASSAY_SHARD_MAX)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "--shard %s: the count must be 1 to %d", text, ASSAY_SHARD_MAX);
	if (i == 0)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "--shard %s: shards are numbered from 1 (1/%lld .. %lld/%lld); "
				     "for a 0-based index from a scheduler use --shard auto",
				     text, n, n, n);
	if (i > n)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "--shard %s: shard %lld of %lld does not exist", text, i, n);
	out->index = (size_t)i;
	out->count = (size_t)n;
	return 0;
}

static int bad_env(const char *name, const char *value, const char *why, assay_err *err)
{
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "--shard auto: %s=%s %s", name,
			     value ? value : "(unset)", why);
}

/* Slurm job arrays: the task's rank in an evenly stepped array. */
static int from_slurm(assay_shard *out, const char *(*env)(const char *), long long want_n,
		      assay_err *err)
{
	const char *sid = env("SLURM_ARRAY_TASK_ID"), *scount = env("SLURM_ARRAY_TASK_COUNT");
	const char *smin = env("SLURM_ARRAY_TASK_MIN"), *smax = env("SLURM_ARRAY_TASK_MAX");
	const char *sstep = env("SLURM_ARRAY_TASK_STEP");
	long long id, count, min = 0, max = -1, step = 1;

	if (!number(sid, &id))
		return bad_env("SLURM_ARRAY_TASK_ID", sid, "is not a task number", err);
	if (!number(scount, &count) || count < 1)
		return bad_env("SLURM_ARRAY_TASK_COUNT", scount, "is not a task count", err);
	if (smin && !number(smin, &min))
		return bad_env("SLURM_ARRAY_TASK_MIN", smin, "is not a task number", err);
	if (sstep && (!number(sstep, &step) || step < 1))
		return bad_env("SLURM_ARRAY_TASK_STEP", sstep, "is not a step", err);
	if (smax && !number(smax, &max))
		return bad_env("SLURM_ARRAY_TASK_MAX", smax, "is not a task number", err);
	if (id < min || (id - min) % step || (smax && (max - min) / step + 1 != count) ||
	    (id - min) / step >= count)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "--shard auto: the Slurm array is not an evenly stepped range "
				     "(task %lld, min %lld, step %lld, %lld tasks): submit it with "
				     "--array=1-N, or give --shard I/N", id, min, step, count);
	if (want_n >= 0 && want_n != count)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "--shard auto/%lld: the Slurm array has %lld tasks", want_n,
				     count);
	char text[64];
	snprintf(text, sizeof(text), "auto (Slurm task %lld)", id);
	return check(out, (id - min) / step + 1, count, text, err);
}

/* Kubernetes Indexed Jobs: a 0-based index; the count from auto/N or ASSAY_SHARD_COUNT. */
static int from_kubernetes(assay_shard *out, const char *(*env)(const char *), long long n,
			   assay_err *err)
{
	const char *sidx = env("JOB_COMPLETION_INDEX"), *scount = env("ASSAY_SHARD_COUNT");
	long long idx;

	if (!number(sidx, &idx))
		return bad_env("JOB_COMPLETION_INDEX", sidx, "is not an index", err);
	if (n < 0) {
		if (!scount)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "--shard auto: JOB_COMPLETION_INDEX gives the index, "
					     "not the count: give --shard auto/N or set "
					     "ASSAY_SHARD_COUNT to the Job's completions");
		if (!number(scount, &n))
			return bad_env("ASSAY_SHARD_COUNT", scount, "is not a count", err);
	}
	char text[64];
	snprintf(text, sizeof(text), "auto (JOB_COMPLETION_INDEX %lld)", idx);
	return check(out, idx + 1, n, text, err);
}

static const char *plain_getenv(const char *name)
{
	return getenv(name);
}

int assay_shard_parse(assay_shard *out, const char *text, const char *(*getenv_fn)(const char *),
		      assay_err *err)
{
	const char *slash = text ? strchr(text, '/') : NULL;
	long long i = -1, n = -1;
	char head[32];

	if (!getenv_fn)
		getenv_fn = plain_getenv;
	if (!text || !slash) {
		if (text && !strcmp(text, "auto"))
			goto automatic;
		goto bad;
	}
	if ((size_t)(slash - text) >= sizeof(head))
		goto bad;
	memcpy(head, text, (size_t)(slash - text));
	head[slash - text] = '\0';
	if (!number(slash + 1, &n))
		goto bad;
	if (!strcmp(head, "auto")) {
		if (n < 1 || n > ASSAY_SHARD_MAX)
			return check(out, 1, n, text, err);
		goto automatic;
	}
	if (!number(head, &i))
		goto bad;
	return check(out, i, n, text, err);
automatic:
	if (getenv_fn("SLURM_ARRAY_TASK_ID"))
		return from_slurm(out, getenv_fn, n, err);
	if (getenv_fn("JOB_COMPLETION_INDEX"))
		return from_kubernetes(out, getenv_fn, n, err);
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "--shard auto: no SLURM_ARRAY_TASK_ID (a Slurm job array) or "
			     "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) in the environment: "
			     "give --shard I/N");
bad:
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "--shard takes I/N (shard I of N, from 1: 1/3), auto or auto/N, "
			     "not '%s'", text ? text : "");
}
