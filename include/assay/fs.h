/**
 * @file fs.h
 * File-system helpers: reading capped files, atomic writes, folder trees. Paths are ordinary
 * NUL-terminated strings, relative to the current folder unless absolute.
 * Spec: docs/architecture.md (the util module: atomic writes, safe tree removal and copy).
 */
#ifndef ASSAY_FS_H
#define ASSAY_FS_H

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Appends the content of file `path` to `out`, up to `max` bytes (0 = no cap).
 * @return 0; ASSAY_ENOTFOUND if it does not exist; ASSAY_ETOOBIG if it is larger than `max`
 *         (the first `max` bytes are kept); ASSAY_EIO on any other failure (details in `err`).
 */
ASSAY_EXTERN int assay_fs_read(assay_buf *out, const char *path, size_t max, assay_err *err);

/**
 * The SHA-256 of the file at `path` (read in pieces: any size).
 * @param out receives 64 lower-case hex digits and a NUL
 * @return 0, ASSAY_ENOTFOUND or ASSAY_EIO (details in `err`)
 */
ASSAY_EXTERN int assay_fs_sha256(const char *path, char out[65], assay_err *err);

/**
 * Writes `len` bytes to `path` atomically: `path`.tmp.<pid> is written, fsync'd, then renamed
 * over `path`. Readers see the old file or the new one, never a partial one. A `path` that is
 * neither a file nor a folder (a device such as /dev/null or /dev/stdout, a FIFO, a socket;
 * links followed) is written to directly instead: it is never replaced. Whatever already has the
 * temp file's name (a FIFO, a link) is removed first; the temp file is made with O_EXCL.
 * @param mode permission bits for a new file (e.g. 0644)
 * @return 0 or ASSAY_EIO (details in `err`; the temp file is removed)
 */
ASSAY_EXTERN int assay_fs_write_atomic(const char *path, const void *data, size_t len, int mode,
				       assay_err *err);

/** A file written in pieces, then put in place at once (temp file + fsync + rename). */
typedef struct assay_fs_atomic {
	int fd;
	char *tmp;   /**< the temp file's path */
} assay_fs_atomic;

#define ASSAY_FS_ATOMIC_INIT { -1, NULL }

/**
 * Starts a file that will appear whole or not at all: a temp file (O_EXCL, close-on-exec, no
 * links followed) in folder `dir` (which must exist).
 * @return 0, or ASSAY_EIO with the path in `err`
 */
ASSAY_EXTERN int assay_fs_atomic_open(assay_fs_atomic *w, const char *dir, int mode,
				      assay_err *err);
/** Appends `len` bytes. @return 0, or ASSAY_EIO (the file is then abandoned by _commit) */
ASSAY_EXTERN int assay_fs_atomic_write(assay_fs_atomic *w, const void *data, size_t len,
				       assay_err *err);
/**
 * Syncs the file and renames it to `path` (replacing what was there), or, when `keep_existing`
 * and `path` exists, discards it. A `path` that is neither a file nor a folder (a device, a
 * FIFO, a socket; links followed) receives the file's bytes and is never replaced. Returns `w`
 * to INIT either way.
 * @return 0, or ASSAY_EIO
 */
ASSAY_EXTERN int assay_fs_atomic_commit(assay_fs_atomic *w, const char *path, bool keep_existing,
					assay_err *err);
/** Removes an unfinished file and returns `w` to INIT. INIT is allowed. */
ASSAY_EXTERN void assay_fs_atomic_abort(assay_fs_atomic *w);


/**
 * Writes `len` bytes to `path` (created or truncated, no atomicity), making the parent folders.
 * @return 0 or ASSAY_EIO
 */
ASSAY_EXTERN int assay_fs_write(const char *path, const void *data, size_t len, int mode,
				assay_err *err);

/**
 * Reads the regular file `rel` below folder `root` into `out` (up to `max` bytes, 0 = no cap),
 * never following a symbolic link in any part of `rel` and never blocking (a FIFO or device is
 * not a regular file). For files a hostile program left behind.
 * @return 0; ASSAY_ENOTFOUND if it does not exist, is not a regular file, or its path goes
 *         through a link or ".."; ASSAY_ETOOBIG (first `max` bytes kept); ASSAY_EIO
 */
ASSAY_EXTERN int assay_fs_read_beneath(assay_buf *out, const char *root, const char *rel,
				       size_t max, assay_err *err);

/**
 * Writes `len` bytes to `rel` below folder `root`, making missing folders, never following a
 * symbolic link in any part of `rel` (a planted link is an error, not a way out).
 * @return 0, or ASSAY_EIO (a part of the path is a link, "..", or cannot be made)
 */
ASSAY_EXTERN int assay_fs_write_beneath(const char *root, const char *rel, const void *data,
					size_t len, int mode, assay_err *err);

/**
 * Copies the contents of folder `src` into folder `root` as assay_fs_copy_tree() does, but
 * writing only through assay_fs_write_beneath(): links planted in `root` are never followed.
 * @return 0, ASSAY_ENOTFOUND (`src` is not a folder), ASSAY_EIO
 */
ASSAY_EXTERN int assay_fs_copy_tree_beneath(const char *src, const char *root, assay_err *err);

/**
 * Creates folder `rel` (and its missing parents) beneath folder `root`, following no link on
 * the way (openat with O_NOFOLLOW from `root`, or one openat2 that resolves no link): a folder
 * a program replaced by a link is an error, never a way out. @return 0, or ASSAY_EIO ("was a
 * link planted?")
 */
ASSAY_EXTERN int assay_fs_mkdirs_beneath(const char *root, const char *rel, assay_err *err);

/**
 * Removes `rel` beneath folder `root` and everything below it, following no link on the way or
 * inside (a link is removed itself). A missing `rel` is success. @return 0 or ASSAY_EIO (a
 * component on the way is a link or not a folder, or `rel` ends in "." or ".." or "/": nothing
 * is removed)
 */
ASSAY_EXTERN int assay_fs_remove_beneath(const char *root, const char *rel, assay_err *err);

/** Creates `path` and its missing parents (mode 0755). @return 0 or ASSAY_EIO. */
ASSAY_EXTERN int assay_fs_mkdirs(const char *path, assay_err *err);

/** Creates the parent folders of file `path`. @return 0 or ASSAY_EIO. */
ASSAY_EXTERN int assay_fs_mkparents(const char *path, assay_err *err);

/**
 * Removes `path` and everything below it. Never follows symbolic links (a link is removed, not
 * its target); makes read-only folders writable first so hostile modes cannot keep files alive.
 * A missing `path` is success. @return 0 or ASSAY_EIO.
 */
ASSAY_EXTERN int assay_fs_remove_tree(const char *path, assay_err *err);

/**
 * Copies the contents of folder `src` into folder `dst` (created if missing), recursively:
 * regular files byte for byte with their permission bits, symbolic links as links, folders.
 * Other file types are skipped. @return 0, ASSAY_ENOTFOUND if `src` is not a folder, ASSAY_EIO.
 */
ASSAY_EXTERN int assay_fs_copy_tree(const char *src, const char *dst, assay_err *err);

/**
 * The folder temporary folders go under when none is named (assay_fs_mkdtemp's NULL parent,
 * assay run's working folders without --work-dir): $TMPDIR when set and not empty, else /tmp.
 * @return the environment's string or a literal (not to be freed; valid until TMPDIR changes);
 *         never NULL, no error. No spec: the POSIX TMPDIR convention.
 */
ASSAY_EXTERN const char *assay_fs_tmp_parent(void);

/**
 * Makes a new private folder under `parent` (NULL: assay_fs_tmp_parent()) named `prefix`XXXXXX.
 * @param out receives the malloc'd absolute path (caller frees)
 * @return 0 or ASSAY_EIO
 */
ASSAY_EXTERN int assay_fs_mkdtemp(char **out, const char *parent, const char *prefix,
				  assay_err *err);

/**
 * Spare folders: a recycler for a run that makes and removes a folder per case. On ext4 a
 * mkdir after many rmdirs scans the recently deleted inodes of its group (ext4's
 * recently_deleted()), which made a new folder cost up to 1.5 ms per case, most of assay's own
 * time on a suite of trivial cases (docs/decisions.md). A folder given back is moved into `dir`
 * (one rename), reset (mode 0755, the caller's effective ids, times of now) and emptied there,
 * following no link; the next folder taken is one of those, renamed into place. A folder that
 * cannot be emptied, or that holds extended attributes or inode flags `dir` does not have, is
 * removed instead. At most 64 wait. Thread-safe.
 * `dir` must lie on the file system of every folder given and taken (it is made on first use,
 * 0700; the caller removes it, with the run's folder).
 */
typedef struct assay_fs_spares assay_fs_spares;

/** A recycler keeping its spare folders in `dir` (copied). Never NULL; free with
 * assay_fs_spares_free(), which leaves `dir` and what is in it. */
ASSAY_EXTERN assay_fs_spares *assay_fs_spares_new(const char *dir);
ASSAY_EXTERN void assay_fs_spares_free(assay_fs_spares *s);

/**
 * Makes folder `rel` beneath `root` as assay_fs_mkdirs_beneath() does (no link followed on the
 * way), as a renamed spare when one waits and `rel` does not exist yet.
 * @param s NULL: assay_fs_mkdirs_beneath() itself
 * @return 0 or ASSAY_EIO (`err`)
 */
ASSAY_EXTERN int assay_fs_spares_take(assay_fs_spares *s, const char *root, const char *rel,
				      assay_err *err);

/**
 * Makes a new private folder under `parent` as assay_fs_mkdtemp() does, as a renamed spare
 * named `prefix`N (N counting up) when one waits. @param s NULL: assay_fs_mkdtemp() itself
 * @param out receives the malloc'd path (caller frees) @return 0 or ASSAY_EIO (`err`)
 */
ASSAY_EXTERN int assay_fs_spares_temp(assay_fs_spares *s, const char *parent, const char *prefix,
				      char **out, assay_err *err);

/**
 * Removes folder `rel` beneath `root` as assay_fs_remove_beneath() does, keeping it as a spare
 * when it can. @param s NULL: assay_fs_remove_beneath() itself. @return 0 or ASSAY_EIO (`err`)
 */
ASSAY_EXTERN int assay_fs_spares_give(assay_fs_spares *s, const char *root, const char *rel,
				      assay_err *err);

/**
 * The file a command word `name` (no '/') runs: the first regular file of that name that may
 * be executed in a folder of $PATH (only absolute folders count), as execvp finds it.
 * @return a malloc'd path (caller frees), or NULL when there is none, `name` is empty or has a
 *         '/', or PATH is unset
 */
ASSAY_EXTERN char *assay_fs_which(const char *name);

/** True if `path` names a folder (following links). */
ASSAY_EXTERN bool assay_fs_is_dir(const char *path);
/** True if `path` exists (without following a final link). */
ASSAY_EXTERN bool assay_fs_exists(const char *path);

/**
 * Joins `a` and `b` with one '/', returning a malloc'd string (caller frees). An absolute `b` is
 * returned as a copy of `b`.
 */
ASSAY_EXTERN char *assay_path_join(const char *a, const char *b);

/**
 * Makes `path` absolute against the current folder and removes "." parts, without resolving
 * links. Returns a malloc'd string (caller frees).
 */
ASSAY_EXTERN char *assay_path_absolute(const char *path);

/**
 * True if the relative path `rel` stays below its base: not absolute, no ".." part that climbs
 * out, not empty. Used to keep case files inside the working folder.
 */
ASSAY_EXTERN bool assay_path_is_contained(const char *rel);

#ifdef __cplusplus
}
#endif
#endif
