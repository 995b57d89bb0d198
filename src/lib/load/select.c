/*
 * Which groups and cases a load keeps (assay_suite_filter), and what each pattern matched, so
 * that a selection is never silently empty: a pattern that matches nothing is reported with the
 * closest names the suite has (git's "did you mean", by edit distance), and a selection that
 * keeps no case at all is ASSAY_ENOMATCH.
 *
 * Key decisions:
 * - Group patterns match a group's name or `checkpoint/group`; case patterns a case's id or
 *   `checkpoint/group/id` (the names the listing prints). Several patterns of one kind: any
 *   may match. Case names (`case_names`) are exact `checkpoint/group/id`, never globs, since
 *   an id may hold '*', '?' or '['.
 * - A pattern is counted against every candidate it was tried on, so "matched nothing" means
 *   nothing in the checkpoints and groups selected.
 * - The closest names are kept while listing (three per pattern), never a second pass over
 *   the suite; candidates whose length alone puts them further than the third are skipped.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "load/load_int.h"
#include "util/banned.h"

size_t assay_load__distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	size_t *block = assay_xcalloc(3 * (m + 1), sizeof(size_t));
	size_t *prev2 = block, *prev = block + (m + 1), *cur = block + 2 * (m + 1), d;

	/* Optimal string alignment: insertions, deletions, substitutions, and swaps of two
	 * neighbours ("ecpect" for "expect"), each costing one. */
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[m];
	free(block);
	return d;
}

const char *assay_load__closest(const char *word, const char *const *list)
{
	const char *best = NULL;
	size_t bd = 0, len = strlen(word);
	/* a typo, not another word: at most a third of the word, and at most 3 edits */
	size_t limit = len / 3 < 3 ? (len / 3 ? len / 3 : 1) : 3;

	for (; *list; list++) {
		size_t d = assay_load__distance(word, *list);

		if (d <= limit && (!best || d < bd)) {
			best = *list;
			bd = d;
		}
	}
	return best;
}

/* ---- patterns ------------------------------------------------------------------------- */

/* The pattern's text without glob characters, to measure names against. */
static char *plain_text(const char *pattern)
{
	char *out = assay_xstrdup(pattern), *w = out;

	for (const char *r = pattern; *r; r++)
		if (!strchr("*?[]\\", *r))
			*w++ = *r;
	*w = '\0';
	return out;
}

static void patterns_init(struct assay_load__pattern **out, size_t *n, const char *const *list,
			  bool exact)
{
	size_t k = 0;

	for (const char *const *p = list; p && *p; p++)
		k++;
	*n = 0;
	*out = k ? assay_xcalloc(k, sizeof(**out)) : NULL;
	for (size_t i = 0; i < k; i++) {
		(*out)[i].text = list[i];
		(*out)[i].exact = exact;
		(*out)[i].plain = exact ? assay_xstrdup(list[i]) : plain_text(list[i]);
	}
	*n = k;
}

void assay_load__select_init(struct assay_load__selection *s, const assay_suite_filter *f)
{
	memset(s, 0, sizeof(*s));
	if (!f)
		return;
	patterns_init(&s->groups, &s->ngroups, f->group_globs, false);
	patterns_init(&s->cases, &s->ncases, f->case_globs, false);
	patterns_init(&s->names, &s->nnames, f->case_names, true);
}

/* Remembers `name` among the pattern's three closest, unless an equal name is there. */
static void consider(struct assay_load__pattern *p, const char *name)
{
	size_t len = strlen(p->plain), nlen = strlen(name);
	size_t lower = len > nlen ? len - nlen : nlen - len, d;
	int at;

	if (p->near[2] && lower >= p->dist[2])
		return;
	for (int i = 0; i < 3 && p->near[i]; i++)
		if (!strcmp(p->near[i], name))
			return;
	d = assay_load__distance(p->plain, name);
	for (at = 0; at < 3 && p->near[at] && p->dist[at] <= d; at++)
		;
	if (at == 3)
		return;
	free(p->near[2]);
	memmove(&p->near[at + 1], &p->near[at], (size_t)(2 - at) * sizeof(*p->near));
	memmove(&p->dist[at + 1], &p->dist[at], (size_t)(2 - at) * sizeof(*p->dist));
	p->near[at] = assay_xstrdup(name);
	p->dist[at] = d;
}

/*
 * Tries the patterns on a name that may be written short (`name`), long (`full`) or, for a case,
 * without its checkpoint (`mid`, "group/id"; NULL for a group); a pattern with a '/' is measured
 * against the long one for the closest names. Returns whether any matched.
 */
static bool try_patterns(struct assay_load__pattern *ps, size_t n, const char *name,
			 const char *mid, const char *full)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		struct assay_load__pattern *p = &ps[i];
		bool yes = p->exact ? !strcmp(p->text, full)
				    : !fnmatch(p->text, name, 0) || !fnmatch(p->text, full, 0) ||
					      (mid && !fnmatch(p->text, mid, 0));

		if (yes) {
			p->matched++;
			any = true;
		} else if (!p->matched) {
			consider(p, strchr(p->text, '/') ? full : name);
		}
	}
	return any;
}

bool assay_load__select_group(struct assay_load__selection *s, const char *cp, const char *group)
{
	if (!s->ngroups)
		return true;
	char *full = assay_xasprintf("%s/%s", cp, group);
	bool yes = try_patterns(s->groups, s->ngroups, group, NULL, full);

	free(full);
	return yes;
}

bool assay_load__select_case(struct assay_load__selection *s, const char *cp, const char *group,
			     const char *id)
{
	if (!s->ncases && !s->nnames)
		return true;
	char *full = assay_xasprintf("%s/%s/%s", cp, group, id);
	const char *mid = full + strlen(cp) + 1; /* group/id */
	bool yes = (!s->ncases || try_patterns(s->cases, s->ncases, id, mid, full)) &&
		   (!s->nnames || try_patterns(s->names, s->nnames, id, mid, full));

	free(full);
	return yes;
}

/* "no case matches 'x' (closest: a, b)" into `out`. */
static void describe(assay_buf *out, const struct assay_load__pattern *p, const char *what)
{
	if (p->exact)
		assay_buf_addf(out, "no %s named '%s'", what, p->text);
	else
		assay_buf_addf(out, "no %s matches '%s'", what, p->text);
	for (int i = 0; i < 3 && p->near[i]; i++)
		assay_buf_addf(out, "%s%s", i ? ", " : " (closest: ", p->near[i]);
	if (p->near[0])
		assay_buf_addch(out, ')');
}

int assay_load__select_finish(struct assay_load__selection *s, size_t ncases, bool strict, void (*warn)(void *ctx, const char *msg),
			      void *ctx, assay_err *err)
{
	struct {
		struct assay_load__pattern *p;
		size_t n;
		const char *what;
	} kinds[] = { { s->groups, s->ngroups, "group" },
		      { s->cases, s->ncases, "case" },
		      { s->names, s->nnames, "case" } };
	assay_buf msg = ASSAY_BUF_INIT;
	int rc = 0;

	for (size_t k = 0; k < 3 && !rc; k++) {
		for (size_t i = 0; i < kinds[k].n && !rc; i++) {
			if (kinds[k].p[i].matched)
				continue;
			assay_buf_reset(&msg);
			describe(&msg, &kinds[k].p[i], kinds[k].what);
			if (!ncases || strict)
				rc = assay_err_set(err, ASSAY_ENOMATCH, NULL, 0, 0, "%s%s", msg.ptr,
						   ncases ? " (an error under strict)" : "");
			else
				warn(ctx, msg.ptr);
		}
	}
	if (!rc && !ncases && (s->ngroups || s->ncases || s->nnames))
		rc = assay_err_set(err, ASSAY_ENOMATCH, NULL, 0, 0,
				   "the selection matches no case: each pattern matches something, "
				   "but no case matches them all");
	assay_buf_release(&msg);
	return rc;
}

static void patterns_free(struct assay_load__pattern *ps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ps[i].plain);
		for (int j = 0; j < 3; j++)
			free(ps[i].near[j]);
	}
	free(ps);
}

void assay_load__select_release(struct assay_load__selection *s)
{
	patterns_free(s->groups, s->ngroups);
	patterns_free(s->cases, s->ncases);
	patterns_free(s->names, s->nnames);
	memset(s, 0, sizeof(*s));
}
