/*
 * A minimal ZIP writer for `assay skill package`: the archive Python's zipfile writes with
 * ZIP_DEFLATED (skill-creator's package_skill.py), so that the ecosystem reads a .skill file
 * from assay as one of its own. Each entry is a local header, the raw-deflated bytes (zlib,
 * level 6), then the central directory and its end record (PKWARE APPNOTE 4.3, 4.4).
 *
 * Decisions: "version made by" is 3.20 on Unix and each entry's external attributes carry its
 * Unix mode (as zipfile does), so a script keeps its execute bit; times are the file's mtime in
 * local time (as zipfile), names are UTF-8 (flag bit 11 when not ASCII).
 * Refuses: ZIP64. An entry or an archive past 4 GiB, or more than 65,535 entries, is
 * ASSAY_ETOOBIG rather than a truncated archive.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "skill/skill_int.h"
#include "util/banned.h"

static void le16(assay_buf *b, uint32_t v)
{
	unsigned char c[2] = { (unsigned char)v, (unsigned char)(v >> 8) };

	assay_buf_add(b, c, 2);
}

static void le32(assay_buf *b, uint32_t v)
{
	unsigned char c[4] = { (unsigned char)v, (unsigned char)(v >> 8),
			       (unsigned char)(v >> 16), (unsigned char)(v >> 24) };

	assay_buf_add(b, c, 4);
}

/* MS-DOS date and time of `t` in local time (1980 at the earliest, as zipfile refuses less). */
static void dos_time(time_t t, uint32_t *date, uint32_t *tm)
{
	struct tm lt;

	if (!localtime_r(&t, &lt) || lt.tm_year < 80) {
		*date = (0 << 9) | (1 << 5) | 1; /* 1980-01-01 */
		*tm = 0;
		return;
	}
	*date = (uint32_t)(((lt.tm_year - 80) << 9) | ((lt.tm_mon + 1) << 5) | lt.tm_mday);
	*tm = (uint32_t)((lt.tm_hour << 11) | (lt.tm_min << 5) | (lt.tm_sec / 2));
}

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

void assay_skill__zip_init(struct skill_zip *z)
{
	memset(z, 0, sizeof(*z));
	z->central = (assay_buf)ASSAY_BUF_INIT;
}

int assay_skill__zip_add(struct skill_zip *z, assay_fs_atomic *w,
			 const struct skill_zip_file *f, assay_err *err)
{
	const char *name = f->name;
	const void *data = f->data;
	size_t len = f->len;
	assay_buf h = ASSAY_BUF_INIT;
	z_stream zs;
	unsigned char *out = NULL;
	size_t nlen = strlen(name);
	uint32_t date, tm, crc, flags = ascii(name) ? 0 : (1u << 11);
	int rc = 0;

	if (z->entries >= 0xffff || len >= 0xffffffffu || nlen > 0xffff)
		return assay_err_set(err, ASSAY_ETOOBIG, name, 0, 0, "too big for a ZIP archive "
				     "without ZIP64 (4 GiB, 65,535 files)");
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return assay_err_set(err, ASSAY_ERROR, name, 0, 0, "zlib: cannot start deflate");
	uLong bound = deflateBound(&zs, (uLong)len);
	out = assay_xmalloc(bound ? bound : 1);
	zs.next_in = (Bytef *)(uintptr_t)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		rc = assay_err_set(err, ASSAY_ERROR, name, 0, 0, "zlib: deflate failed");
		goto out;
	}
	size_t clen = zs.total_out;
	crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)len);
	dos_time(f->mtime, &date, &tm);
	if (z->offset + 30 + nlen + clen >= 0xffffffffu) {
		rc = assay_err_set(err, ASSAY_ETOOBIG, name, 0, 0, "the archive would pass 4 GiB "
				   "(no ZIP64)");
		goto out;
	}
	/* local file header */
	le32(&h, 0x04034b50);
	le16(&h, 20);            /* version needed: 2.0 (deflate) */
	le16(&h, flags);
	le16(&h, 8);             /* deflate */
	le16(&h, tm);
	le16(&h, date);
	le32(&h, crc);
	le32(&h, (uint32_t)clen);
	le32(&h, (uint32_t)len);
	le16(&h, (uint32_t)nlen);
	le16(&h, 0);
	assay_buf_add(&h, name, nlen);
	if ((rc = assay_fs_atomic_write(w, h.ptr, h.len, err)) ||
	    (rc = assay_fs_atomic_write(w, out, clen, err)))
		goto out;
	/* its central directory record */
	assay_buf *c = &z->central;
	le32(c, 0x02014b50);
	le16(c, (3u << 8) | 20); /* made by: Unix, 2.0 */
	le16(c, 20);
	le16(c, flags);
	le16(c, 8);
	le16(c, tm);
	le16(c, date);
	le32(c, crc);
	le32(c, (uint32_t)clen);
	le32(c, (uint32_t)len);
	le16(c, (uint32_t)nlen);
	le16(c, 0);              /* extra */
	le16(c, 0);              /* comment */
	le16(c, 0);              /* disk */
	le16(c, 0);              /* internal attributes */
	le32(c, (uint32_t)(f->mode & 0xffff) << 16);
	le32(c, (uint32_t)z->offset);
	assay_buf_add(c, name, nlen);
	z->offset += h.len + clen;
	z->entries++;
out:
	deflateEnd(&zs);
	free(out);
	assay_buf_release(&h);
	return rc;
}

int assay_skill__zip_finish(struct skill_zip *z, assay_fs_atomic *w, assay_err *err)
{
	assay_buf e = ASSAY_BUF_INIT;
	int rc;

	if (z->offset + z->central.len >= 0xffffffffu)
		return assay_err_set(err, ASSAY_ETOOBIG, NULL, 0, 0, "the archive would pass 4 GiB "
				     "(no ZIP64)");
	le32(&e, 0x06054b50);
	le16(&e, 0);
	le16(&e, 0);
	le16(&e, (uint32_t)z->entries);
	le16(&e, (uint32_t)z->entries);
	le32(&e, (uint32_t)z->central.len);
	le32(&e, (uint32_t)z->offset);
	le16(&e, 0);
	if (!(rc = assay_fs_atomic_write(w, z->central.ptr, z->central.len, err)))
		rc = assay_fs_atomic_write(w, e.ptr, e.len, err);
	assay_buf_release(&e);
	return rc;
}

void assay_skill__zip_release(struct skill_zip *z)
{
	assay_buf_release(&z->central);
	memset(z, 0, sizeof(*z));
}
