/*
 * Error codes, error details and the abort path for programmer errors.
 * The first error recorded in an assay_err wins: later, lower-level failures do not overwrite
 * the one closest to the cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/common.h"
#include "util/banned.h"

const char *assay_strerror(int code)
{
	switch (code) {
	case ASSAY_OK: return "success";
	case ASSAY_ERROR: return "failure";
	case ASSAY_ENOTFOUND: return "not found";
	case ASSAY_EPARSE: return "malformed input";
	case ASSAY_EINVALID: return "invalid value";
	case ASSAY_ESPAWN: return "cannot start process";
	case ASSAY_ETOOBIG: return "size limit reached";
	case ASSAY_EIO: return "input/output error";
	case ASSAY_ESTORE: return "results store failure";
	case ASSAY_EINTERRUPTED: return "interrupted";
	case ASSAY_EBUSY: return "busy";
	case ASSAY_ENOMATCH: return "nothing matches";
	}
	return "unknown error";
}

int assay_err_set(assay_err *err, int code, const char *path, int line, int col, const char *fmt,
		  ...)
{
	va_list ap;

	if (!err || err->code)
		return code;
	err->code = code;
	err->line = line;
	err->column = col;
	snprintf(err->path, sizeof(err->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void assay_err_clear(assay_err *err)
{
	if (err)
		*err = (assay_err)ASSAY_ERR_INIT;
}

const char *assay_err_format(const assay_err *err, char *out, size_t size)
{
	const char *msg = err->msg[0] ? err->msg : assay_strerror(err->code);

	if (!size)
		return out;
	if (err->path[0] && err->line > 0 && err->column > 0)
		snprintf(out, size, "%s:%d:%d: %s", err->path, err->line, err->column, msg);
	else if (err->path[0] && err->line > 0)
		snprintf(out, size, "%s:%d: %s", err->path, err->line, msg);
	else if (err->path[0])
		snprintf(out, size, "%s: %s", err->path, msg);
	else
		snprintf(out, size, "%s", msg);
	return out;
}

_Noreturn void assay__bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "assay: BUG at %s:%d: %s\n", file, line, msg);
	abort();
}
