/*
 * Where a renderer writes (report_int.h): a report file that appears whole or not at all (a
 * temp file beside it, renamed into place when the report ends; fs.h's assay_fs_atomic), or
 * standard output. Writes are buffered in 64 KiB; the first error sticks and is returned when
 * the renderer flushes or ends, so renderers write without checking every call.
 * Spools (unlinked temp files) hold what must come after counts not known yet.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_int.h"
#include "util/fs_int.h"
#include "util/banned.h"

#define FLUSH_AT (64u * 1024)

static void write_fd(struct assay_report__out *o, const char *p, size_t len)
{
	if (!o->rc && assay_fs__write_all(o->fd, p, len))
		o->rc = assay_err_set(&o->err, ASSAY_EIO, o->path ? o->path : "<stdout>", 0, 0,
				      "cannot write: %s", strerror(errno));
}

int assay_report__out_open(struct assay_report__out *o, const char *path, assay_err *err)
{
	*o = (struct assay_report__out){ ASSAY_FS_ATOMIC_INIT, NULL, 1, ASSAY_BUF_INIT, 0, 0,
					 ASSAY_ERR_INIT };
	if (!strcmp(path, "-"))
		return 0;
	char *dir = assay_xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc;

	if (slash == dir)
		slash[1] = '\0'; /* a file in / */
	else if (slash)
		*slash = '\0';
	rc = assay_fs_atomic_open(&o->file, slash ? dir : ".", 0644, err);
	free(dir);
	if (rc)
		return rc;
	o->path = assay_xstrdup(path);
	o->fd = o->file.fd;
	return 0;
}

void assay_report__out_add(struct assay_report__out *o, const void *data, size_t len)
{
	o->written += len;
	if (o->rc || !len)
		return;
	if (len >= FLUSH_AT) {
		write_fd(o, o->buf.ptr, o->buf.len);
		assay_buf_reset(&o->buf);
		write_fd(o, data, len);
		return;
	}
	assay_buf_add(&o->buf, data, len);
	if (o->buf.len >= FLUSH_AT) {
		write_fd(o, o->buf.ptr, o->buf.len);
		assay_buf_reset(&o->buf);
	}
}

void assay_report__out_adds(struct assay_report__out *o, const char *s)
{
	assay_report__out_add(o, s, strlen(s));
}

void assay_report__out_addf(struct assay_report__out *o, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(small)) {
		assay_report__out_add(o, small, (size_t)n);
		return;
	}
	assay_buf b = ASSAY_BUF_INIT;

	va_start(ap, fmt);
	assay_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	assay_report__out_add(o, b.ptr, b.len);
	assay_buf_release(&b);
}

FILE *assay_report__spool(assay_err *err)
{
	FILE *f = tmpfile();

	if (!f)
		assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "cannot make a temp file: %s",
			      strerror(errno));
	return f;
}

void assay_report__out_spool(struct assay_report__out *o, FILE *f)
{
	char chunk[FLUSH_AT];
	size_t n;

	if (fflush(f) || ferror(f)) {
		if (!o->rc)
			o->rc = assay_err_set(&o->err, ASSAY_EIO, NULL, 0, 0,
					      "cannot write a temp file: %s", strerror(errno));
	}
	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		assay_report__out_add(o, chunk, n);
	if (ferror(f) && !o->rc)
		o->rc = assay_err_set(&o->err, ASSAY_EIO, NULL, 0, 0, "cannot read a temp file");
	rewind(f);
	if (ftruncate(fileno(f), 0) && !o->rc)
		o->rc = assay_err_set(&o->err, ASSAY_EIO, NULL, 0, 0, "cannot empty a temp file: %s",
				      strerror(errno));
}

int assay_report__out_flush(struct assay_report__out *o, assay_err *err)
{
	write_fd(o, o->buf.ptr, o->buf.len);
	assay_buf_reset(&o->buf);
	if (o->rc) {
		if (err && !err->code)
			*err = o->err;
		return o->rc;
	}
	return 0;
}

int assay_report__out_commit(struct assay_report__out *o, assay_err *err)
{
	int rc = assay_report__out_flush(o, err);

	if (rc || !o->path)
		return rc;
	o->fd = -1;
	return assay_fs_atomic_commit(&o->file, o->path, false, err);
}

void assay_report__out_release(struct assay_report__out *o)
{
	assay_fs_atomic_abort(&o->file);
	assay_buf_release(&o->buf);
	free(o->path);
	o->path = NULL;
}

int assay_report__write_whole(const char *path, const void *data, size_t len, assay_err *err)
{
	struct assay_report__out o;
	int rc = assay_report__out_open(&o, path, err);

	if (rc)
		return rc;
	assay_report__out_add(&o, data, len);
	rc = assay_report__out_commit(&o, err);
	assay_report__out_release(&o);
	return rc;
}
