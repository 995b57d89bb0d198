/* Table-driven option parsing and usage text (libgit2's cli_opt_spec, git's parse-options). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/strvec.h"
#include "cmd.h"
#include "exit.h"
#include "util/banned.h"

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("assay: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

const char *cli_short_path(const char *path)
{
	static char cwd[4096];
	size_t n;

	if (!cwd[0] && !getcwd(cwd, sizeof(cwd)))
		return path;
	n = strlen(cwd);
	return n > 1 && !strncmp(path, cwd, n) && path[n] == '/' && path[n + 1] ? path + n + 1
									      : path;
}

int cli_report_err(int code, const assay_err *err)
{
	char msg[1200];
	assay_err shown = *err;

	/* a path under the current folder is shown relative to it, as git does */
	memmove(shown.path, cli_short_path(err->path), strlen(cli_short_path(err->path)) + 1);
	fprintf(stderr, "assay: error: %s\n", assay_err_format(&shown, msg, sizeof(msg)));
	if (!err->path[0] || err->line <= 0)
		return code;
	/* Show the line and a caret under the column, as jq does. */
	FILE *f = fopen(err->path, "r");
	if (!f)
		return code;
	char line[512];
	int n = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		bool whole = len && line[len - 1] == '\n';
		if (++n == err->line) {
			if (whole)
				line[len - 1] = '\0';
			fprintf(stderr, "  %s\n", line);
			if (err->column > 0 && err->column <= (int)sizeof(line)) {
				fputs("  ", stderr);
				for (int i = 1; i < err->column; i++)
					fputc(line[i - 1] == '\t' ? '\t' : ' ', stderr);
				fputs("^\n", stderr);
			}
			break;
		}
		while (!whole && fgets(line, sizeof(line), f)) { /* skip the rest of a long line */
			len = strlen(line);
			whole = len && line[len - 1] == '\n';
		}
	}
	fclose(f);
	return code;
}

void cli_usage(FILE *f, const char *usage, const cli_opt *opts)
{
	fprintf(f, "usage: %s\n\noptions:\n", usage);
	for (const cli_opt *o = opts; o->name; o++) {
		char left[64];
		if (o->letter)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->letter, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(f, "  %-28s %s\n", left, o->help);
	}
	fprintf(f, "  %-28s %s\n", "-h, --help", "show this help");
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k': case 'K': v *= 1024; end++; break;
	case 'm': case 'M': v *= 1024 * 1024; end++; break;
	case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end || v > 1e15)
		return -1;
	*out = (size_t)v;
	return 0;
}

static int set_value(const cli_opt *o, const char *value)
{
	char *end;

	switch (o->kind) {
	case CLI_OPT_FLAG:
		*(bool *)o->target = true;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)o->target = value;
		return 0;
	case CLI_OPT_LIST:
		assay_strvec_push(o->target, value);
		return 0;
	case CLI_OPT_SIZE:
		return parse_size(value, (size_t *)o->target);
	case CLI_OPT_COUNT: {
		errno = 0;
		unsigned long long v = strtoull(value, &end, 10);
		if (errno || end == value || *end || value[0] == '-')
			return -1;
		*(size_t *)o->target = (size_t)v;
		return 0;
	}
	case CLI_OPT_SECONDS: {
		errno = 0;
		double v = strtod(value, &end);
		if (errno || end == value || *end || !(v >= 0) || !isfinite(v))
			return -1;
		*(double *)o->target = v;
		return 0;
	}
	}
	return -1;
}

static const cli_opt *find_long(const cli_opt *opts, const char *name, size_t len)
{
	for (const cli_opt *o = opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static int mistake(const char *usage, const cli_opt *opts, const char *fmt, const char *arg)
{
	fputs("assay: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n\n", stderr);
	cli_usage(stderr, usage, opts);
	return CLI_EXIT_USAGE;
}

/*
 * Parses argv[1..] against `opts`; plain words go to `positional` (at most `max`).
 * Prints the usage to stdout and returns -1 for --help; prints an error and the usage to stderr
 * and returns CLI_EXIT_USAGE for a mistake; returns 0 otherwise with *npositional set.
 */
static int cli_parse(int argc, char **argv, const cli_opt *opts, const char *usage,
		     const char **positional, size_t max, size_t *npositional)
{
	bool only_words = false;

	*npositional = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const cli_opt *o = NULL;
		const char *value = NULL;

		if (only_words || a[0] != '-' || !a[1]) {
			if (*npositional >= max)
				return mistake(usage, opts, "unexpected argument '%s'", a);
			positional[(*npositional)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_words = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage(stdout, usage, opts);
			return -1;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find_long(opts, a + 2, len);
			if (!o)
				return mistake(usage, opts, "unknown option '%s'", a);
			if (eq) {
				if (o->kind == CLI_OPT_FLAG)
					return mistake(usage, opts, "option '%s' takes no value",
						       a);
				value = eq + 1;
			}
		} else {
			for (const cli_opt *p = opts; p->name; p++)
				if (p->letter == a[1])
					o = p;
			if (!o || (a[2] && o->kind == CLI_OPT_FLAG))
				return mistake(usage, opts, "unknown option '%s'", a);
			if (a[2])
				value = a + 2;
		}
		if (o->kind != CLI_OPT_FLAG && !value) {
			if (i + 1 >= argc)
				return mistake(usage, opts, "option '%s' needs a value", a);
			value = argv[++i];
		}
		if (set_value(o, value)) {
			static const char *const want[] = {
				[CLI_OPT_SIZE] = "a size in bytes such as 65536, 64K, 10M or 1G",
				[CLI_OPT_COUNT] = "a whole number >= 0",
				[CLI_OPT_SECONDS] = "a number of seconds >= 0 such as 1.5",
			};
			const char *w = (size_t)o->kind < sizeof(want) / sizeof(*want)
						? want[o->kind] : NULL;

			fprintf(stderr, "assay: error: bad value '%s' for option '--%s'%s%s\n",
				value, o->name, w ? ": it takes " : "", w ? w : "");
			return CLI_EXIT_USAGE;
		}
	}
	return 0;
}

int cli_parse_count(int argc, char **argv, const cli_opt *opts, const char *usage,
		    cli_words *w)
{
	int rc = cli_parse(argc, argv, opts, usage, w->v, w->max, &w->n);

	if (rc)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (w->n < w->min)
		return cli_usage_error(usage, opts, NULL);
	return CLI_GO;
}

int cli_parse_words(int argc, char **argv, const cli_opt *opts, const char *usage,
		    const char **words, size_t want)
{
	cli_words w = { words, want, want, 0 };

	return cli_parse_count(argc, argv, opts, usage, &w);
}

int cli_usage_error(const char *usage, const cli_opt *opts, const char *msg)
{
	if (msg)
		fprintf(stderr, "assay: error: %s\n\n", msg);
	cli_usage(stderr, usage, opts);
	return CLI_EXIT_USAGE;
}

int cli_fail(int rc, const assay_err *err, ...)
{
	va_list ap;
	int code, status = CLI_EXIT_INTERNAL;

	va_start(ap, err);
	while ((code = va_arg(ap, int)))
		if (code == rc)
			status = CLI_EXIT_USAGE;
	va_end(ap);
	return cli_report_err(status, err);
}
