/*
 * Allocation that never returns NULL (jq's jv_alloc.c, git's wrapper.c). Every capture in assay
 * is capped, so memory stays bounded and no call site has to check for NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/common.h"
#include "util/banned.h"

static void (*oom_handler)(size_t);

void assay_set_oom_handler(void (*handler)(size_t size))
{
	oom_handler = handler;
}

static _Noreturn void out_of_memory(size_t size)
{
	if (oom_handler)
		oom_handler(size);
	fprintf(stderr, "assay: out of memory allocating %zu bytes\n", size);
	abort();
}

void *assay_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *assay_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory(n * size);
	return p;
}

void *assay_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

char *assay_xstrndup(const char *s, size_t n)
{
	char *p = assay_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *assay_xstrdup(const char *s)
{
	return assay_xstrndup(s, strlen(s));
}

char *assay_xasprintf(const char *fmt, ...)
{
	va_list ap, ap2;
	int n;
	char *p;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ASSAY_BUG("bad format string");
	p = assay_xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
