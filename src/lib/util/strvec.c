/* assay_strvec: a NULL-terminated vector of owned strings (argv, env). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/strvec.h"
#include "util/banned.h"

char *assay_strvec__empty[1];

void assay_strvec_init(assay_strvec *sv)
{
	*sv = (assay_strvec)ASSAY_STRVEC_INIT;
}

void assay_strvec_push_nodup(assay_strvec *sv, char *s)
{
	if (sv->nr + 2 > sv->alloc) {
		size_t alloc = sv->alloc ? sv->alloc * 2 : 8;
		char **v = sv->alloc ? sv->v : NULL;
		sv->v = assay_xrealloc(v, alloc * sizeof(*v));
		sv->alloc = alloc;
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void assay_strvec_push(assay_strvec *sv, const char *s)
{
	assay_strvec_push_nodup(sv, assay_xstrdup(s));
}

void assay_strvec_pushf(assay_strvec *sv, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = assay_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	assay_strvec_push_nodup(sv, s);
}

void assay_strvec_pushv(assay_strvec *sv, const char *const *other)
{
	for (; other && *other; other++)
		assay_strvec_push(sv, *other);
}

void assay_strvec_clear(assay_strvec *sv)
{
	if (sv->alloc) {
		for (size_t i = 0; i < sv->nr; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	assay_strvec_init(sv);
}
