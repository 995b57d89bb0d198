/* Unit tests of the util layer: assay_buf, assay_strvec, errors, files and paths, base64. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/strvec.h"
#include "util/base64.h"
#include "util/hash.h"

/* HANG GUARD: a test that must not hang bounds itself with alarm(2), whose SIGALRM ends its
 * process (Criterion reports the crash: a failure), not with Criterion's .timeout: its watchdog
 * leaked 48 bytes inside libcriterion now and then under LeakSanitizer, and make check failed
 * on that, not on assay. */

Test(buf, starts_empty_and_terminated)
{
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_not_null(b.ptr);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(b.ptr[0], '\0');
	assay_buf_release(&b);
}

Test(buf, appends_bytes_with_nul_inside)
{
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_eq(assay_buf_add(&b, "a\0b", 3), 0);
	cr_assert_eq(assay_buf_adds(&b, "cd"), 0);
	cr_assert_eq(assay_buf_addch(&b, 'e'), 0);
	cr_assert_eq(b.len, 6);
	cr_assert_eq(memcmp(b.ptr, "a\0bcde", 7), 0);
	assay_buf_release(&b);
}

Test(buf, cap_keeps_what_fits_and_reports_too_big)
{
	assay_buf b;
	assay_buf_init(&b, 0, 5);
	cr_assert_eq(assay_buf_adds(&b, "abc"), 0);
	cr_assert_eq(assay_buf_adds(&b, "defg"), ASSAY_ETOOBIG);
	cr_assert_eq(b.len, 5);
	cr_assert_str_eq(b.ptr, "abcde");
	cr_assert_eq(assay_buf_adds(&b, "x"), ASSAY_ETOOBIG);
	cr_assert_str_eq(b.ptr, "abcde");
	cr_assert_leq(b.alloc, 6, "a capped buffer reserved %zu bytes", b.alloc);
	assay_buf_release(&b);
}

Test(buf, formatted_appends_of_any_length)
{
	assay_buf b = ASSAY_BUF_INIT;
	char big[1000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_eq(assay_buf_addf(&b, "%d-%s", 42, "y"), 0);
	cr_assert_eq(assay_buf_addf(&b, "%s", big), 0);
	cr_assert_eq(b.len, 4 + 999);
	cr_assert_eq(strncmp(b.ptr, "42-y", 4), 0);
	cr_assert_eq(b.ptr[b.len - 1], 'x');
	size_t len;
	char *s = assay_buf_detach(&b, &len);
	cr_assert_eq(len, 1003);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(b.ptr[0], '\0');
	free(s);
	s = assay_buf_detach(&b, &len);
	cr_assert_str_eq(s, "");
	free(s);
}

Test(strvec, copies_and_terminates)
{
	assay_strvec v = ASSAY_STRVEC_INIT;
	char word[] = "one";
	assay_strvec_push(&v, word);
	word[0] = 'X';
	assay_strvec_pushf(&v, "n=%d", 2);
	for (int i = 0; i < 20; i++)
		assay_strvec_push(&v, "more");
	cr_assert_eq(v.nr, 22);
	cr_assert_str_eq(v.v[0], "one");
	cr_assert_str_eq(v.v[1], "n=2");
	cr_assert_null(v.v[22]);
	assay_strvec_clear(&v);
	cr_assert_eq(v.nr, 0);
	cr_assert_null(v.v[0]);
}

Test(err, first_error_wins_and_formats_with_position)
{
	assay_err e = ASSAY_ERR_INIT;
	char out[256];
	cr_assert_eq(assay_err_set(&e, ASSAY_EPARSE, "a.yaml", 3, 7, "bad %s", "thing"),
		     ASSAY_EPARSE);
	cr_assert_eq(assay_err_set(&e, ASSAY_EIO, "b", 1, 1, "later"), ASSAY_EIO);
	cr_assert_str_eq(assay_err_format(&e, out, sizeof(out)), "a.yaml:3:7: bad thing");
	assay_err_clear(&e);
	assay_err_set(&e, ASSAY_ENOTFOUND, "x", 0, 0, "gone");
	cr_assert_str_eq(assay_err_format(&e, out, sizeof(out)), "x: gone");
	cr_assert_eq(assay_err_set(NULL, ASSAY_EIO, NULL, 0, 0, "ignored"), ASSAY_EIO);
	cr_assert_str_eq(assay_strerror(ASSAY_ETOOBIG), "size limit reached");
}

static char *tmpdir(void)
{
	char *d = NULL;
	cr_assert_eq(assay_fs_mkdtemp(&d, NULL, "assay-test-util-", NULL), 0);
	return d;
}

/* The folder temporary folders go under by default: $TMPDIR, unless unset or empty. */
Test(fs, the_temporary_parent_is_tmpdir_else_tmp)
{
	char *was = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	cr_assert_eq(setenv("TMPDIR", "/var/tmp/x", 1), 0);
	cr_assert_str_eq(assay_fs_tmp_parent(), "/var/tmp/x");
	cr_assert_eq(setenv("TMPDIR", "", 1), 0);
	cr_assert_str_eq(assay_fs_tmp_parent(), "/tmp");
	cr_assert_eq(unsetenv("TMPDIR"), 0);
	cr_assert_str_eq(assay_fs_tmp_parent(), "/tmp");
	if (was)
		setenv("TMPDIR", was, 1);
	free(was);
}

Test(fs, atomic_write_replaces_and_leaves_no_temp_file)
{
	char *d = tmpdir();
	char *p = assay_path_join(d, "f.json");
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_eq(assay_fs_write_atomic(p, "old", 3, 0644, NULL), 0);
	cr_assert_eq(assay_fs_write_atomic(p, "new!", 4, 0644, NULL), 0);
	cr_assert_eq(assay_fs_read(&b, p, 0, NULL), 0);
	cr_assert_str_eq(b.ptr, "new!");
	char *cmd = assay_xasprintf("test $(ls '%s' | wc -l) -eq 1", d);
	FILE *f = popen(cmd, "r");
	cr_assert_eq(pclose(f), 0);
	free(cmd);
	assay_buf_release(&b);
	assay_fs_remove_tree(d, NULL);
	free(p);
	free(d);
}

Test(fs, read_caps_and_reports_missing_files)
{
	char *d = tmpdir();
	char *p = assay_path_join(d, "f");
	assay_buf b = ASSAY_BUF_INIT;
	assay_err e = ASSAY_ERR_INIT;
	cr_assert_eq(assay_fs_write(p, "0123456789", 10, 0644, NULL), 0);
	cr_assert_eq(assay_fs_read(&b, p, 4, NULL), ASSAY_ETOOBIG);
	cr_assert_str_eq(b.ptr, "0123");
	assay_buf_reset(&b);
	char *q = assay_path_join(d, "nope");
	cr_assert_eq(assay_fs_read(&b, q, 0, &e), ASSAY_ENOTFOUND);
	cr_assert_str_eq(e.path, q);
	free(q);
	assay_buf_release(&b);
	assay_fs_remove_tree(d, NULL);
	free(p);
	free(d);
}

Test(fs, remove_tree_never_follows_links_and_beats_read_only_folders)
{
	char *d = tmpdir();
	char *outside = tmpdir();
	char *victim = assay_path_join(outside, "keep.txt");
	cr_assert_eq(assay_fs_write(victim, "precious", 8, 0644, NULL), 0);
	char *tree = assay_path_join(d, "tree");
	char *file = assay_path_join(tree, "sub/deep/x");
	cr_assert_eq(assay_fs_write(file, "x", 1, 0644, NULL), 0);
	char *link = assay_path_join(tree, "sub/link");
	cr_assert_eq(symlink(outside, link), 0);
	char *ro = assay_path_join(tree, "sub/deep");
	cr_assert_eq(chmod(ro, 0500), 0);
	cr_assert_eq(assay_fs_remove_tree(tree, NULL), 0);
	cr_assert_not(assay_fs_exists(tree));
	cr_assert(assay_fs_exists(victim), "removal followed a link out of the tree");
	cr_assert_eq(assay_fs_remove_tree(tree, NULL), 0, "a missing tree is success");
	assay_fs_remove_tree(d, NULL);
	assay_fs_remove_tree(outside, NULL);
	free(victim);
	free(tree);
	free(file);
	free(link);
	free(ro);
	free(d);
	free(outside);
}

/* The one-call removal of an empty folder must not take a link to an empty folder for one. */
Test(fs, removing_a_link_to_an_empty_folder_keeps_the_folder)
{
	char *d = tmpdir();
	char *outside = tmpdir();
	char *empty = assay_path_join(outside, "empty");
	char *link = assay_path_join(d, "link");
	char *sub = assay_path_join(d, "sub");
	cr_assert_eq(assay_fs_mkdirs(empty, NULL), 0);
	cr_assert_eq(symlink(empty, link), 0);
	cr_assert_eq(assay_fs_remove_tree(link, NULL), 0);
	cr_assert_not(assay_fs_exists(link));
	cr_assert(assay_fs_is_dir(empty), "removal went through a link to an empty folder");
	cr_assert_eq(symlink(empty, link), 0);
	cr_assert_eq(assay_fs_remove_beneath(d, "link", NULL), 0);
	cr_assert_not(assay_fs_exists(link));
	cr_assert(assay_fs_is_dir(empty), "removal beneath went through a link");
	cr_assert_eq(assay_fs_mkdirs(sub, NULL), 0);
	cr_assert_eq(assay_fs_remove_beneath(d, "sub", NULL), 0);
	cr_assert_not(assay_fs_exists(sub), "an empty folder beneath stays");
	cr_assert_eq(assay_fs_mkdirs(sub, NULL), 0);
	cr_assert_eq(assay_fs_remove_tree(sub, NULL), 0);
	cr_assert_not(assay_fs_exists(sub), "an empty folder stays");
	assay_fs_remove_tree(d, NULL);
	assay_fs_remove_tree(outside, NULL);
	free(empty);
	free(link);
	free(sub);
	free(d);
	free(outside);
}

Test(fs, remove_tree_goes_deeper_than_the_descriptors_it_may_hold)
{
	/* a case can build a tree deeper than assay's open-file limit: removed all the same */
	char root[] = "/tmp/assay-test-deep-XXXXXX";
	struct rlimit old, low = { 64, 64 };
	int fd;

	cr_assert(mkdtemp(root));
	fd = open(root, O_RDONLY | O_DIRECTORY);
	for (int i = 0; i < 3000; i++) {
		cr_assert_eq(mkdirat(fd, "x", 0700), 0);
		int next = openat(fd, "x", O_RDONLY | O_DIRECTORY);
		if (i % 500 == 0) {
			int f = openat(fd, "file", O_WRONLY | O_CREAT, 0400);
			close(f);
		}
		close(fd);
		fd = next;
	}
	fchmod(fd, 0500); /* a read-only folder at the bottom */
	close(fd);
	getrlimit(RLIMIT_NOFILE, &old);
	setrlimit(RLIMIT_NOFILE, &low);
	int rc = assay_fs_remove_tree(root, NULL);
	setrlimit(RLIMIT_NOFILE, &old);
	cr_expect_eq(rc, 0);
	cr_expect_not(assay_fs_exists(root), "%s is still there", root);
}

Test(fs, a_fifo_where_a_file_should_be_never_hangs_a_read_or_a_write)
{
	char root[] = "/tmp/assay-test-fifo-XXXXXX";
	char *f;
	assay_buf b = ASSAY_BUF_INIT;

	cr_assert(mkdtemp(root));
	f = assay_path_join(root, "input.txt");
	cr_assert_eq(mkfifo(f, 0600), 0);
	cr_expect_eq(assay_fs_write_beneath(root, "input.txt", "x", 1, 0644, NULL), ASSAY_EIO);
	cr_expect_eq(assay_fs_write(f, "x", 1, 0644, NULL), ASSAY_EIO);
	cr_expect_eq(assay_fs_read(&b, f, 0, NULL), ASSAY_EIO);
	assay_buf_release(&b);
	free(f);
	assay_fs_remove_tree(root, NULL);
}

Test(fs, copy_tree_keeps_modes_and_links)
{
	char *d = tmpdir();
	char *src = assay_path_join(d, "src");
	char *dst = assay_path_join(d, "dst");
	char *f = assay_path_join(src, "bin/run.sh");
	cr_assert_eq(assay_fs_write(f, "#!/bin/sh\n", 10, 0755, NULL), 0);
	char *l = assay_path_join(src, "link");
	cr_assert_eq(symlink("bin/run.sh", l), 0);
	cr_assert_eq(assay_fs_copy_tree(src, dst, NULL), 0);
	char *g = assay_path_join(dst, "bin/run.sh");
	struct stat st;
	cr_assert_eq(stat(g, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0755);
	char *m = assay_path_join(dst, "link");
	char target[64] = "";
	cr_assert_gt(readlink(m, target, sizeof(target) - 1), 0);
	cr_assert_str_eq(target, "bin/run.sh");
	cr_assert_eq(assay_fs_copy_tree("/nonexistent-assay", dst, NULL), ASSAY_ENOTFOUND);
	assay_fs_remove_tree(d, NULL);
	free(src);
	free(dst);
	free(f);
	free(l);
	free(g);
	free(m);
	free(d);
}

Test(path, containment)
{
	cr_assert(assay_path_is_contained("a"));
	cr_assert(assay_path_is_contained("a/b/../c"));
	cr_assert(assay_path_is_contained("./a"));
	cr_assert_not(assay_path_is_contained(""));
	cr_assert_not(assay_path_is_contained("."));
	cr_assert_not(assay_path_is_contained("/etc/passwd"));
	cr_assert_not(assay_path_is_contained(".."));
	cr_assert_not(assay_path_is_contained("a/../../b"));
	cr_assert_not(assay_path_is_contained("a/.."));
}

Test(path, join_and_absolute)
{
	char *s = assay_path_join("a/", "b");
	cr_assert_str_eq(s, "a/b");
	free(s);
	s = assay_path_join("a", "/abs");
	cr_assert_str_eq(s, "/abs");
	free(s);
	s = assay_path_absolute("/x/./y//z/../w");
	cr_assert_str_eq(s, "/x/y/w");
	free(s);
	s = assay_path_absolute("/..");
	cr_assert_str_eq(s, "/");
	free(s);
	s = assay_path_absolute("rel");
	cr_assert_eq(s[0], '/');
	cr_assert(strlen(s) > 4 && !strcmp(s + strlen(s) - 4, "/rel"));
	free(s);
}

Test(base64, decodes_standard_and_url_alphabets)
{
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_eq(assay_base64_decode(&b, "aGVs\nbG8=", 9), 0);
	cr_assert_str_eq(b.ptr, "hello");
	assay_buf_reset(&b);
	cr_assert_eq(assay_base64_decode(&b, "_-8", 3), 0);
	cr_assert_eq(b.len, 2);
	cr_assert_eq((unsigned char)b.ptr[0], 0xff);
	cr_assert_eq((unsigned char)b.ptr[1], 0xef);
	assay_buf_reset(&b);
	cr_assert_eq(assay_base64_decode(&b, "a*bc", 4), ASSAY_EINVALID);
	cr_assert_eq(assay_base64_decode(&b, "abcde", 5), ASSAY_EINVALID);
	assay_buf_release(&b);
}

Test(fs_beneath, write_never_goes_through_a_planted_link)
{
	char *root = tmpdir();
	char *outside = tmpdir();
	char *link = assay_path_join(root, "data");
	cr_assert_eq(symlink(outside, link), 0);
	cr_assert_eq(assay_fs_write_beneath(root, "data/x.txt", "x", 1, 0644, NULL), ASSAY_EIO);
	char *victim = assay_path_join(outside, "x.txt");
	cr_assert_not(assay_fs_exists(victim), "the write followed the link out of the folder");
	cr_assert_eq(assay_fs_write_beneath(root, "../escape.txt", "x", 1, 0644, NULL),
		     ASSAY_EIO);
	cr_assert_eq(assay_fs_write_beneath(root, "new/deep/f.txt", "ok", 2, 0644, NULL), 0);
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_eq(assay_fs_read_beneath(&b, root, "new/deep/f.txt", 0, NULL), 0);
	cr_assert_str_eq(b.ptr, "ok");
	assay_buf_release(&b);
	assay_fs_remove_tree(root, NULL);
	assay_fs_remove_tree(outside, NULL);
	free(link);
	free(victim);
	free(root);
	free(outside);
}

/* Deep paths, whose folder is opened in one call when it can be: every link on the way is
 * refused as the walk part by part refuses it, even one that points back inside. */
Test(fs_beneath, deep_paths_follow_no_link_on_the_way)
{
	char *root = tmpdir();
	char *outside = tmpdir();
	char *in = assay_path_join(root, "a/b");
	char *l1 = assay_path_join(root, "a/out");
	char *l2 = assay_path_join(root, "a/back");
	char *victim = assay_path_join(outside, "c/x");
	char *c = assay_path_join(in, "c");
	assay_buf b = ASSAY_BUF_INIT;

	cr_assert_eq(assay_fs_mkdirs_beneath(root, "a/b/c", NULL), 0);
	cr_assert_eq(assay_fs_mkdirs(victim, NULL), 0);
	cr_assert_eq(symlink(outside, l1), 0);
	cr_assert_eq(symlink("b", l2), 0); /* relative: it stays beneath */
	cr_assert_eq(assay_fs_write_beneath(root, "a/b/c/f", "ok", 2, 0644, NULL), 0);
	cr_assert_eq(assay_fs_read_beneath(&b, root, "a/b/c/f", 0, NULL), 0);
	cr_assert_str_eq(b.ptr, "ok");
	cr_assert_eq(assay_fs_read_beneath(&b, root, "a/back/c/f", 0, NULL), ASSAY_ENOTFOUND);
	cr_assert_eq(assay_fs_read_beneath(&b, root, "./a//b/c/f", 0, NULL), 0);
	cr_assert_eq(assay_fs_remove_beneath(root, "a/out/c/x", NULL), ASSAY_EIO);
	cr_assert(assay_fs_is_dir(victim), "the removal followed a link out of the folder");
	cr_assert_eq(assay_fs_remove_beneath(root, "a/back/c", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_remove_beneath(root, "a/b/../b/c", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_remove_beneath(root, "a/b/c", NULL), 0);
	cr_assert_not(assay_fs_exists(c), "a/b/c stays");
	cr_assert(assay_fs_is_dir(in));
	cr_assert_eq(assay_fs_remove_beneath(root, "a/b/missing/x", NULL), 0);
	/* one name (made and removed in one call when it can be): a link there is no folder */
	char *a = assay_path_join(root, "a");
	cr_assert_eq(assay_fs_mkdirs_beneath(a, "out", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_mkdirs_beneath(a, "new", NULL), 0);
	cr_assert_eq(assay_fs_mkdirs_beneath(a, "new", NULL), 0, "a folder that is there is fine");
	cr_assert_eq(assay_fs_remove_beneath(a, "new", NULL), 0);
	/* a name that is no folder beneath: the one above, or `a` itself, is not emptied */
	cr_assert_eq(assay_fs_mkdirs_beneath(a, "new", NULL), 0);
	cr_assert_eq(assay_fs_remove_beneath(a, "..", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_remove_beneath(a, "new/..", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_remove_beneath(a, ".", NULL), ASSAY_EIO);
	cr_assert_eq(assay_fs_remove_beneath(a, "new/", NULL), ASSAY_EIO);
	cr_assert(assay_fs_is_dir(in), "a name ending in .. emptied the folder above");
	cr_assert_eq(assay_fs_remove_beneath(a, "new", NULL), 0);
	cr_assert_eq(assay_fs_remove_beneath(a, "out", NULL), 0);
	cr_assert_not(assay_fs_exists(l1), "the link stays");
	cr_assert(assay_fs_is_dir(victim), "the removal went through a link");
	free(a);
	assay_buf_release(&b);
	assay_fs_remove_tree(root, NULL);
	assay_fs_remove_tree(outside, NULL);
	free(in);
	free(c);
	free(l1);
	free(l2);
	free(victim);
	free(root);
	free(outside);
}

Test(fs_beneath, read_refuses_links_fifos_and_caps)
{
	alarm(10); /* a read that hangs on the fifo fails the test (HANG GUARD, above) */
	char *root = tmpdir();
	char *outside = tmpdir();
	char *secret = assay_path_join(outside, "secret");
	cr_assert_eq(assay_fs_write(secret, "s", 1, 0644, NULL), 0);
	char *l1 = assay_path_join(root, "leak.txt");
	char *l2 = assay_path_join(root, "dir");
	cr_assert_eq(symlink(secret, l1), 0);
	cr_assert_eq(symlink(outside, l2), 0);
	char *fifo = assay_path_join(root, "fifo");
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	assay_buf b = ASSAY_BUF_INIT;
	cr_assert_eq(assay_fs_read_beneath(&b, root, "leak.txt", 0, NULL), ASSAY_ENOTFOUND);
	cr_assert_eq(assay_fs_read_beneath(&b, root, "dir/secret", 0, NULL), ASSAY_ENOTFOUND);
	cr_assert_eq(assay_fs_read_beneath(&b, root, "fifo", 0, NULL), ASSAY_ENOTFOUND,
		     "a FIFO must be refused without blocking");
	cr_assert_eq(b.len, 0);
	cr_assert_eq(assay_fs_write_beneath(root, "big", "0123456789", 10, 0644, NULL), 0);
	cr_assert_eq(assay_fs_read_beneath(&b, root, "big", 4, NULL), ASSAY_ETOOBIG);
	cr_assert_str_eq(b.ptr, "0123");
	assay_buf_release(&b);
	assay_fs_remove_tree(root, NULL);
	assay_fs_remove_tree(outside, NULL);
	free(secret);
	free(l1);
	free(l2);
	free(fifo);
	free(root);
	free(outside);
}

/* The test vector of the SipHash paper (Aumasson and Bernstein, 2012, appendix A): key 00..0f,
 * message 00..0e. */
Test(hash, siphash24_matches_the_papers_test_vector)
{
	uint8_t key[16], msg[15];

	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 15; i++)
		msg[i] = (uint8_t)i;
	cr_assert_eq(assay_siphash24(key, msg, sizeof(msg)), 0xa129ca6149be45e5ull);
	cr_assert_neq(assay_siphash24(key, msg, 14), 0xa129ca6149be45e5ull);
}

/* A report written to /dev/null (or /dev/stdout, a FIFO) must not rename a file over the device:
 * as root that replaced /dev/null with a regular file for the whole machine. A FIFO stands in
 * for the device here (a broken fix must not break the machine running the test). */
Test(fs, an_atomic_write_to_a_device_or_fifo_writes_into_it_and_never_replaces_it)
{
	char dir[] = "/tmp/assay-test-fifo-XXXXXX", got[64];
	char *fifo;
	struct stat st;
	assay_err err = ASSAY_ERR_INIT;
	assay_fs_atomic w;
	int rd;
	ssize_t n;

	cr_assert_not_null(mkdtemp(dir));
	fifo = assay_path_join(dir, "fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	cr_assert_geq(rd, 0);

	cr_assert_eq(assay_fs_write_atomic(fifo, "hello\n", 6, 0644, &err), 0, "%s", err.msg);
	cr_assert_eq(lstat(fifo, &st), 0);
	cr_assert(S_ISFIFO(st.st_mode), "the FIFO was replaced");
	n = read(rd, got, sizeof(got));
	cr_assert_eq(n, 6);
	cr_assert_eq(memcmp(got, "hello\n", 6), 0);

	cr_assert_eq(assay_fs_atomic_open(&w, dir, 0644, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_fs_atomic_write(&w, "piece", 5, &err), 0);
	cr_assert_eq(assay_fs_atomic_commit(&w, fifo, false, &err), 0, "%s", err.msg);
	cr_assert_eq(lstat(fifo, &st), 0);
	cr_assert(S_ISFIFO(st.st_mode), "the FIFO was replaced");
	n = read(rd, got, sizeof(got));
	cr_assert_eq(n, 5);
	/* no temp file is left beside it */
	cr_assert_eq(assay_fs_remove_tree(fifo, NULL), 0);
	cr_assert_eq(rmdir(dir), 0, "left behind in %s", dir);
	close(rd);
	free(fifo);
}

/* CPU seconds (user and system) this test's process has used so far. */
static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Removing a wide tree is linear (issue 18 item 9): each return from a sub-folder read the
 * parent again from its start, and a case making 40,000 empty folders in 5 s cost assay 101 s
 * to remove them. Empty folders now go where they are found, and for the others the parent's
 * reading goes on where it stopped. Measured in CPU time on a tmpfs (/dev/shm when there is
 * one), where removing a folder costs no disk I/O and what is left is the walk's own work:
 * 40,000 empty folders took 7 s of CPU before (the rescans), 0.2 s now. Then a tree
 * whose folders hold a file and a read-only folder each, removed whole.
 */
Test(fs, removing_a_wide_tree_is_linear)
{
	alarm(600); /* HANG GUARD, above */
	char shm[] = "/dev/shm/assay-test-wide-XXXXXX", tmp[] = "/tmp/assay-test-wide-XXXXXX";
	char *root = mkdtemp(shm) ? shm : mkdtemp(tmp);
	char name[32];
	int fd;

	cr_assert(root);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	for (int i = 0; i < 40000; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		cr_assert_eq(mkdirat(fd, name, 0700), 0);
	}
	close(fd);
	double t0 = cpu_seconds();
	cr_expect_eq(assay_fs_remove_tree(root, NULL), 0);
	double took = cpu_seconds() - t0;
	cr_expect_not(assay_fs_exists(root), "%s is still there", root);
	cr_expect_lt(took, 2.0, "removing 40,000 empty folders took %.1f s of CPU", took);

	cr_assert_eq(mkdir(root, 0700), 0);
	fd = open(root, O_RDONLY | O_DIRECTORY);
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		cr_assert_eq(mkdirat(fd, name, 0700), 0);
		int sub = openat(fd, name, O_RDONLY | O_DIRECTORY);

		close(openat(sub, "file", O_WRONLY | O_CREAT, 0400));
		mkdirat(sub, "ro", 0500);
		close(sub);
	}
	close(fd);
	cr_expect_eq(assay_fs_remove_tree(root, NULL), 0);
	cr_expect_not(assay_fs_exists(root), "%s is still there", root);
}

/* A sandboxed skill executor could plant a FIFO under the temp name an atomic write uses in a
 * folder it may write (PATH.tmp.<assay's pid>): opening it for writing waited forever. */
Test(fs, an_atomic_write_removes_what_squats_on_its_temp_name)
{
	alarm(10); /* HANG GUARD, above */
	char dir[] = "/tmp/assay-test-squat-XXXXXX", *path, *tmp, got[16] = { 0 };
	assay_err err = ASSAY_ERR_INIT;
	struct stat st;
	int fd;

	cr_assert_not_null(mkdtemp(dir));
	path = assay_path_join(dir, "grading_error.json");
	tmp = assay_xasprintf("%s.tmp.%ld", path, (long)getpid());
	cr_assert_eq(mkfifo(tmp, 0666), 0);
	cr_assert_eq(assay_fs_write_atomic(path, "{}\n", 3, 0644, &err), 0, "%s", err.msg);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISREG(st.st_mode));
	fd = open(path, O_RDONLY);
	cr_assert_eq(read(fd, got, sizeof(got)), 3);
	close(fd);
	cr_assert_str_eq(got, "{}\n");
	cr_assert_neq(lstat(tmp, &st), 0, "the temp name is left behind");
	cr_assert_eq(assay_fs_remove_tree(dir, NULL), 0);
	free(tmp);
	free(path);
}
