/*
 * Unit tests for the sandbox against what a machine shares locally (docs/security.md, issue 5's
 * second review): who the program is outside its namespace when assay is root, the user
 * namespace without root as the CLI runs it, unix sockets by path, abstract and through a
 * datagram socketpair, the keyrings, terminals and devices, a script's "#!" line and a planted
 * link, and CPU hidden in children the kernel reaps. One attack per promise, each shown to
 * work without the layer that stops it, so that the test can fail.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "proc/proc_int.h"
#include "box.h"
#include "util/banned.h"

/* Criterion's runner leaks under LeakSanitizer (test_proc_sandbox.c says how): suppress it,
 * with stacks taken by the slow unwinder so that the runner's loop shows in them. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:criterion_run_all_tests\n";
}

/* The attack's exit code with the layers in `refuse` refused (NULL: none). */
static int attack_without(const struct box *b, const char *refuse, char **out, const char *arg,
			  const char *arg2)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int code;

	if (refuse)
		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", refuse, 1), 0);
	tool(&p, arg, arg2, NULL);
	boxed(&p, b, true);
	run_ok(&p, &r);
	code = exit_code(&r);
	if (out)
		*out = strdup(p.out.ptr);
	assay_proc_release(&p);
	unsetenv("ASSAY_SANDBOX_REFUSE");
	return code;
}

/* ---- who the program is ---- */

/* Runs `script` with sh in the box, sandboxed, with `refuse` refused; returns its output. */
static char *sh_in_box(const struct box *b, const char *refuse, const char *script)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *out;

	if (refuse)
		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", refuse, 1), 0);
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, script);
	boxed(&p, b, true);
	run_ok(&p, &r);
	unsetenv("ASSAY_SANDBOX_REFUSE");
	out = strdup(p.out.ptr);
	assay_proc_release(&p);
	return out;
}

Test(uid, with_root_the_program_is_nobody_outside)
{
	struct box b;
	struct stat st;
	char *gfile, *script, *out, *made;
	const char *refuse[] = { NULL, "user-namespace" };

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	/* A file only root's group may read: root's supplementary groups must be gone. */
	gfile = assay_path_join(b.root, "group-secret");
	cr_assert_eq(assay_fs_write(gfile, "group secret\n", 13, 0640, NULL), 0);
	cr_assert_eq(chown(gfile, 0, 0), 0);
	made = assay_path_join(b.work, "made");
	script = assay_xasprintf("echo x > made; cat %s; echo end", gfile);
	for (int i = 0; i < 2; i++) {
		unlink(made);
		out = sh_in_box(&b, refuse[i], script);
		cr_assert(strstr(out, "end") && !strstr(out, "group secret"), "%s", out);
		/* what the program made belongs to nobody outside, whichever way it ran */
		cr_assert_eq(stat(made, &st), 0, "%s", out);
		cr_assert_eq(st.st_uid, 65534, "uid %u (%s)", (unsigned)st.st_uid, refuse[i]);
		cr_assert_eq(st.st_gid, 65534, "gid %u (%s)", (unsigned)st.st_gid, refuse[i]);
		free(out);
	}
	out = sh_in_box(&b, NULL, "cat /proc/self/uid_map");
	cr_assert(strstr(out, "1000") && strstr(out, "65534"), "%s", out);
	free(out);
	{
		/* Without the sandbox it is root: the test can fail. */
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		unlink(made);
		assay_strvec_push(&p.argv, "/bin/sh");
		assay_strvec_push(&p.argv, "-c");
		assay_strvec_push(&p.argv, script);
		boxed(&p, &b, false);
		run_ok(&p, &r);
		cr_assert(strstr(p.out.ptr, "group secret"));
		cr_assert_eq(stat(made, &st), 0);
		cr_assert_eq(st.st_uid, 0);
		assay_proc_release(&p);
	}
	free(script);
	free(made);
	free(gfile);
	box_free(&b);
}

Test(uid, with_root_the_folders_are_handed_over_and_links_are_not_followed)
{
	struct box b;
	struct stat st;
	char *victim, *sym, *sub, *kept, *out;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	/* What an earlier case of a shared folder could leave: a link out, a hard link. */
	victim = assay_path_join(b.root, "victim");
	cr_assert_eq(assay_fs_write(victim, "root's\n", 7, 0644, NULL), 0);
	sym = assay_path_join(b.work, "link");
	cr_assert_eq(symlink(victim, sym), 0);
	kept = assay_path_join(b.work, "hard");
	cr_assert_eq(link(victim, kept) == 0 || errno == EXDEV, 1);
	sub = assay_path_join(b.work, "sub");
	cr_assert_eq(mkdir(sub, 0700), 0);
	out = sh_in_box(&b, NULL, "echo y > sub/f && echo ok");
	cr_assert_str_eq(out, "ok\n");
	cr_assert_eq(stat(victim, &st), 0);
	cr_assert_eq(st.st_uid, 0, "the link's target was given away");
	cr_assert_eq(stat(sub, &st), 0);
	cr_assert_eq(st.st_uid, 65534);
	cr_assert_eq(stat(b.tmp, &st), 0);
	cr_assert_eq(st.st_uid, 65534);
	free(out);
	free(victim);
	free(sym);
	free(kept);
	free(sub);
	box_free(&b);
}

/* Runs `sh -c true` as `p` (set up by the caller), releases it; returns assay_proc_run's code
 * and its message. */
static int run_true(assay_proc *p, char *msg, size_t msgsize)
{
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	assay_strvec_push(&p->argv, "/bin/sh");
	assay_strvec_push(&p->argv, "-c");
	assay_strvec_push(&p->argv, "true");
	rc = assay_proc_run(p, &r, &err);
	snprintf(msg, msgsize, "%s", err.msg);
	assay_proc_release(p);
	return rc;
}

/* Starts `sh -c true` sandboxed in `cwd`; returns assay_proc_run's code and its message. */
static int start_in(const char *cwd, const char *tmp, char *msg, size_t msgsize)
{
	assay_proc p = ASSAY_PROC_INIT;

	p.cwd = strdup(cwd);
	p.sandbox.enabled = true;
	p.sandbox.tmp_dir = tmp;
	return run_true(&p, msg, msgsize);
}

static uid_t owner_of(const char *path)
{
	struct stat st;

	cr_assert_eq(lstat(path, &st), 0, "%s", path);
	return st.st_uid;
}

/* Runs `sh -c true` sandboxed in the box with both folders said to be empty (proc.h cwd_empty,
 * tmp_empty); returns assay_proc_run's code and its message. */
static int run_said_empty(const struct box *b, char *msg, size_t msgsize)
{
	assay_proc p = ASSAY_PROC_INIT;

	boxed(&p, b, true);
	p.sandbox.cwd_empty = p.sandbox.tmp_empty = true;
	return run_true(&p, msg, msgsize);
}

/* The hand-over's fast path for folders the caller made empty: the folder itself changes owner
 * and nothing in it is read; a caller that was wrong gives nothing away (a link planted in it is
 * not followed, a file in it stays root's), a folder with a sub-folder is walked as any other,
 * and every refusal still holds. */
Test(uid, a_folder_said_empty_is_handed_over_alone_and_refusals_still_hold)
{
	struct box b;
	char msg[512], *victim, *sym, *file, *sub, *subfile, *home, *old_home, *theirs;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	victim = assay_path_join(b.root, "victim");
	cr_assert_eq(assay_fs_write(victim, "root's\n", 7, 0644, NULL), 0);
	sym = assay_path_join(b.work, "link");
	cr_assert_eq(symlink(victim, sym), 0);
	file = assay_path_join(b.tmp, "file");
	cr_assert_eq(assay_fs_write(file, "x", 1, 0644, NULL), 0);
	cr_assert_eq(run_said_empty(&b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(b.work), 65534);
	cr_assert_eq(owner_of(b.tmp), 65534);
	cr_assert_eq(owner_of(victim), 0, "the link's target was given away");
	cr_assert_eq(owner_of(sym), 0);
	/* not read: the fast path was taken (the walk gives the file away: the test can fail) */
	cr_assert_eq(owner_of(file), 0);

	/* a sub-folder (more than two links): walked, whatever the caller said */
	sub = assay_path_join(b.work, "sub");
	cr_assert_eq(mkdir(sub, 0755), 0);
	subfile = assay_path_join(sub, "f");
	cr_assert_eq(assay_fs_write(subfile, "y", 1, 0644, NULL), 0);
	cr_assert_eq(run_said_empty(&b, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(sub), 65534);
	cr_assert_eq(owner_of(subfile), 65534);
	cr_assert_eq(owner_of(victim), 0, "the link's target was given away");

	/* refused as without the word: the home folder, a third user's folder */
	home = assay_path_join(b.root, "home");
	cr_assert_eq(mkdir(home, 0755), 0);
	old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	cr_assert_eq(setenv("HOME", b.work, 1), 0);
	cr_assert_eq(chown(b.work, 0, 0), 0);
	cr_assert_eq(run_said_empty(&b, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert(strstr(msg, "home"), "%s", msg);
	cr_assert_eq(owner_of(b.work), 0);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	theirs = assay_path_join(b.root, "theirs");
	cr_assert_eq(chown(b.work, 12345, 12345), 0);
	cr_assert_eq(run_said_empty(&b, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert(strstr(msg, "another user"), "%s", msg);
	cr_assert_eq(owner_of(b.work), 12345);
	/* and a link in place of the folder is not followed */
	cr_assert_eq(rename(b.work, theirs), 0);
	cr_assert_eq(symlink(theirs, b.work), 0);
	cr_assert_eq(chown(theirs, 0, 0), 0);
	cr_assert_eq(run_said_empty(&b, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert_eq(owner_of(theirs), 0);
	free(old_home);
	free(theirs);
	free(home);
	free(subfile);
	free(sub);
	free(file);
	free(sym);
	free(victim);
	box_free(&b);
}

/* A folder the caller made and gave itself (proc.h assay_sandbox_give, cwd_given): one call
 * changes its owner, not its link's target; the hand-over's refusals by name still hold, as do
 * "no root, no sandbox: nothing"; and the start leaves a given, empty folder as it is (one it
 * would have handed over: the test can fail) but hands over one that is not empty. */
Test(uid, a_folder_the_caller_gave_is_left_to_it_and_give_refuses_as_the_hand_over)
{
	assay_sandbox sb = { .enabled = true }, off = { .enabled = false };
	struct box b;
	char msg[512], *victim, *sym, *home, *old_home, *dots, *file;
	assay_proc p = ASSAY_PROC_INIT;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	cr_assert_not(assay_sandbox_give(&off, b.work));
	cr_assert_not(assay_sandbox_give(NULL, b.work));
	cr_assert_eq(owner_of(b.work), 0);
	cr_assert(assay_sandbox_give(&sb, b.work));
	cr_assert_eq(owner_of(b.work), 65534);
	sb.uid = sb.gid = 4242;
	cr_assert(assay_sandbox_give(&sb, b.tmp));
	cr_assert_eq(owner_of(b.tmp), 4242);
	sb.uid = sb.gid = 0;
	/* a link in the folder's place changes owner itself, never its target */
	victim = assay_path_join(b.root, "victim");
	cr_assert_eq(mkdir(victim, 0755), 0);
	sym = assay_path_join(b.root, "sym");
	cr_assert_eq(symlink(victim, sym), 0);
	assay_sandbox_give(&sb, sym);
	cr_assert_eq(owner_of(victim), 0, "the link's target was given away");
	/* refused by name: the root, system folders, $HOME, a path with dots or relative */
	cr_assert_not(assay_sandbox_give(&sb, "/"));
	cr_assert_not(assay_sandbox_give(&sb, "/usr/local/lib"));
	cr_assert_not(assay_sandbox_give(&sb, "relative"));
	dots = assay_xasprintf("%s/../work", b.work);
	cr_assert_not(assay_sandbox_give(&sb, dots));
	home = assay_path_join(b.root, "home");
	cr_assert_eq(mkdir(home, 0755), 0);
	old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	cr_assert_eq(setenv("HOME", home, 1), 0);
	cr_assert_not(assay_sandbox_give(&sb, home));
	cr_assert_not(assay_sandbox_give(&sb, b.root));
	cr_assert_eq(owner_of(home), 0);
	cr_assert_eq(owner_of(b.root), 0);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");

	/* given and empty: the start does not touch it (it is root's here, as a caller that
	 * did not give it after all would leave it: the program then cannot write there) */
	cr_assert_eq(chown(b.work, 0, 0), 0);
	cr_assert_eq(chown(b.tmp, 0, 0), 0);
	boxed(&p, &b, true);
	p.sandbox.cwd_empty = p.sandbox.tmp_empty = true;
	p.sandbox.cwd_given = p.sandbox.tmp_given = true;
	cr_assert_eq(run_true(&p, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(b.work), 0);
	cr_assert_eq(owner_of(b.tmp), 0);
	/* given but not said empty: handed over, what is in it too */
	file = assay_path_join(b.work, "input");
	cr_assert_eq(assay_fs_write(file, "x", 1, 0644, NULL), 0);
	p = (assay_proc)ASSAY_PROC_INIT;
	boxed(&p, &b, true);
	p.sandbox.cwd_given = p.sandbox.tmp_given = true;
	cr_assert_eq(run_true(&p, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(b.work), 65534);
	cr_assert_eq(owner_of(file), 65534);
	cr_assert_eq(owner_of(b.tmp), 65534);
	free(file);
	free(old_home);
	free(home);
	free(dots);
	free(sym);
	free(victim);
	box_free(&b);
}

/* What the sandbox's user (nobody, as root) cannot pass, by mode bits: the first closed folder
 * from the top, the file itself when it may not run it, a closed folder reached through a
 * link (resolved first), and nothing at all without the sandbox. */
Test(uid, the_first_folder_nobody_cannot_pass_is_named)
{
	assay_sandbox on = { .enabled = true }, off = { .enabled = false };
	struct box b;
	char *closed, *inner, *file, *link, *via, *got;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	closed = assay_path_join(b.root, "closed");
	inner = assay_path_join(closed, "inner");
	file = assay_path_join(inner, "prog");
	cr_assert_eq(mkdir(closed, 0700), 0);
	cr_assert_eq(mkdir(inner, 0755), 0);
	cr_assert_eq(assay_fs_write(file, "#!/bin/sh\n", 10, 0755, NULL), 0);
	link = assay_path_join(b.root, "link");
	cr_assert_eq(symlink(inner, link), 0);
	via = assay_path_join(link, "prog");

	cr_assert_null(assay_sandbox_unreachable(&off, file));
	cr_assert_null(assay_sandbox_unreachable(NULL, file));
	got = assay_sandbox_unreachable(&on, file);
	cr_assert_str_eq(got, closed);
	free(got);
	got = assay_sandbox_unreachable(&on, via); /* the link leads through `closed` */
	cr_assert_str_eq(got, closed);
	free(got);
	cr_assert_eq(chmod(closed, 0711), 0);
	cr_assert_null(assay_sandbox_unreachable(&on, file));
	cr_assert_eq(chmod(file, 0700), 0); /* root's to run only */
	got = assay_sandbox_unreachable(&on, file);
	cr_assert_str_eq(got, file);
	free(got);
	on.uid = on.gid = 4242; /* its own class: the owner's bits */
	cr_assert_eq(chown(file, 4242, 4242), 0);
	cr_assert_null(assay_sandbox_unreachable(&on, file));
	got = assay_sandbox_unreachable(&on, "/no/such/file");
	cr_assert_str_eq(got, "/no/such/file");
	free(got);
	free(via);
	free(link);
	free(file);
	free(inner);
	free(closed);
	box_free(&b);
}

/* A folder's path is judged where it resolves: one named as it is (no link, no "." or "..")
 * is taken as written, at one openat2; one named through a link in a folder above it, or with
 * "..", is resolved first. A home folder reached either way is refused; were the path taken as
 * written, both would be handed over (the test can fail). */
Test(uid, a_folder_named_through_a_link_or_dots_is_judged_where_it_resolves)
{
	struct box b;
	char msg[512], *home, *alias, *via_link, *dots, *old_home, *plain;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	box_make(&b);
	home = assay_path_join(b.root, "home");
	cr_assert_eq(mkdir(home, 0755), 0);
	alias = assay_path_join(b.root, "alias");
	cr_assert_eq(symlink(b.root, alias), 0);
	via_link = assay_path_join(alias, "home");
	dots = assay_xasprintf("%s/../home", b.work); /* the same home folder */
	old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	cr_assert_eq(setenv("HOME", home, 1), 0);
	cr_assert_eq(start_in(via_link, NULL, msg, sizeof(msg)), ASSAY_ESPAWN, "%s", via_link);
	cr_assert(strstr(msg, "home"), "%s", msg);
	cr_assert_eq(owner_of(home), 0);
	cr_assert_eq(start_in(dots, NULL, msg, sizeof(msg)), ASSAY_ESPAWN, "%s", dots);
	cr_assert(strstr(msg, "home"), "%s", msg);
	cr_assert_eq(owner_of(home), 0);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	/* a plain path of the case's own is handed over as before */
	plain = assay_xstrdup(b.work);
	cr_assert_eq(start_in(plain, NULL, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(b.work), 65534);
	free(plain);
	free(old_home);
	free(dots);
	free(via_link);
	free(alias);
	free(home);
	box_free(&b);
}

/* The incident of 2026-11-28: a process started in `/` gave the file system to nobody. The
 * refusal is checked on the rule for the folders a test cannot risk, and for real on folders
 * made to look like them. */
Test(uid, a_folder_not_made_for_the_case_is_never_handed_over)
{
	const char *never[] = { "/", "/usr", "/usr/local/lib", "/etc", "/etc/ssl", "/tmp",
				"/home", "/root", "/work", "/dev/shm", "/proc/self", "/lib64",
				NULL };
	struct box b;
	char msg[512], *inner, *home, *theirs, *old_home, cwd[4096], *file;

	for (size_t i = 0; never[i]; i++)
		cr_assert_not_null(assay_proc__hand_over_refusal(never[i]), "%s", never[i]);
	box_make(&b);
	cr_assert_null(assay_proc__hand_over_refusal(b.work));
	/* a scratch file system under /dev holds case folders (bench/pool.sh puts them there) */
	cr_assert_null(assay_proc__hand_over_refusal("/dev/shm/assay-x/case"));
	cr_assert_not_null(assay_proc__hand_over_refusal("/dev/shmx/case"));
	if (geteuid() != 0) {
		box_free(&b);
		cr_skip_test("the hand-over needs root");
	}
	file = assay_path_join(b.root, "kept");
	cr_assert_eq(assay_fs_write(file, "x", 1, 0644, NULL), 0);

	/* assay's own working folder, and one above it */
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	inner = assay_path_join(b.work, "inner");
	cr_assert_eq(mkdir(inner, 0755), 0);
	cr_assert_eq(chdir(inner), 0);
	cr_assert_eq(start_in(inner, NULL, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert(strstr(msg, "working folder"), "%s", msg);
	cr_assert_eq(start_in(b.root, NULL, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert_eq(chdir(cwd), 0);
	cr_assert_eq(owner_of(inner), 0);
	cr_assert_eq(owner_of(b.root), 0);
	cr_assert_eq(owner_of(file), 0);

	/* the home folder, as tmp_dir too */
	home = assay_path_join(b.root, "home");
	cr_assert_eq(mkdir(home, 0755), 0);
	old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	cr_assert_eq(setenv("HOME", home, 1), 0);
	cr_assert_eq(start_in(home, NULL, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert(strstr(msg, "home"), "%s", msg);
	cr_assert_eq(start_in(b.work, home, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert_eq(owner_of(home), 0);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");

	/* a third user's folder */
	theirs = assay_path_join(b.root, "theirs");
	cr_assert_eq(mkdir(theirs, 0755), 0);
	cr_assert_eq(chown(theirs, 12345, 12345), 0);
	cr_assert_eq(start_in(theirs, NULL, msg, sizeof(msg)), ASSAY_ESPAWN);
	cr_assert(strstr(msg, "another user"), "%s", msg);
	cr_assert_eq(owner_of(theirs), 12345);

	/* and the case's own folders still are handed over: the test can fail */
	cr_assert_eq(start_in(b.work, b.tmp, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(owner_of(b.work), 65534);
	cr_assert_eq(owner_of(b.tmp), 65534);
	free(old_home);
	free(theirs);
	free(home);
	free(inner);
	free(file);
	box_free(&b);
}

Test(uid, without_root_and_not_dumpable_the_namespaces_are_made)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char stop[16];

	become_nobody_like_the_cli();
	box_make(&b);
	tool(&p, "whoami", NULL);
	boxed(&p, &b, true);
	run_ok(&p, &r);
	cr_assert_eq(exit_code(&r), 0);
	cr_assert_eq(r.sandbox_refused, 0, "refused %x", r.sandbox_refused);
	cr_assert(r.sandbox_applied & ASSAY_SANDBOX_USERNS);
	cr_assert(r.sandbox_applied & ASSAY_SANDBOX_PIDNS);
	assay_proc_release(&p);
	/* and the supervisor's report still cannot be forged */
	snprintf(stop, sizeof(stop), "%ld", (long)getpid());
	{
		assay_proc q = ASSAY_PROC_INIT;

		tool(&q, "forge-report", stop, NULL);
		boxed(&q, &b, true);
		run_ok(&q, &r);
		cr_assert_eq(exit_code(&r), 42, "the forged report was believed");
		cr_assert_str_eq(q.out.ptr, "forged 0\n");
		assay_proc_release(&q);
	}
	box_free(&b);
}

/* ---- unix sockets ---- */

static int listen_unix(const char *name, int type)
{
	struct sockaddr_un a;
	size_t len = strlen(name);
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	cr_assert(fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, name, len);
	if (name[0] == '@')
		a.sun_path[0] = '\0';
	cr_assert_eq(bind(fd, (struct sockaddr *)&a,
			  (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (name[0] != '@'))),
		     0, "bind %s: %s", name, strerror(errno));
	if (type == SOCK_STREAM)
		cr_assert_eq(listen(fd, 8), 0);
	if (name[0] != '@')
		cr_assert_eq(chmod(name, 0777), 0); /* so that only the sandbox is in the way */
	return fd;
}

Test(unix_sockets, a_path_socket_is_out_of_reach_with_the_network_off)
{
	struct box b;
	char *path;
	int fd;

	box_make(&b);
	path = assay_path_join(b.root, "sock");
	fd = listen_unix(path, SOCK_STREAM);
	cr_assert_eq(attack_without(&b, NULL, NULL, "connect-unix", path), 1);
	/* Landlock does not confine it: without the seccomp filter the connect goes through. */
	cr_assert_eq(attack_without(&b, "seccomp", NULL, "connect-unix", path), 0);
	cr_assert_eq(attack(&b, false, NULL, "connect-unix", path, NULL), 0);
	close(fd);
	free(path);
	box_free(&b);
}

Test(unix_sockets, an_abstract_socket_is_out_of_reach)
{
	struct box b;
	char name[64];
	assay_sandbox_report rep;
	assay_err err = ASSAY_ERR_INIT;
	int fd;

	box_make(&b);
	snprintf(name, sizeof(name), "@assay-test-abstract-%ld", (long)getpid());
	fd = listen_unix(name, SOCK_STREAM);
	cr_assert_eq(attack_without(&b, NULL, NULL, "connect-unix", name), 1);
	cr_assert_eq(assay_sandbox_probe(&rep, &err), 0, "%s", err.msg);
	if (rep.landlock_abi >= 6) /* the Landlock scope alone refuses it */
		cr_assert_eq(attack_without(&b, "seccomp", NULL, "connect-unix", name), 2);
	cr_assert_eq(attack_without(&b, "seccomp,landlock-scope", NULL, "connect-unix", name), 0);
	close(fd);
	box_free(&b);
}

Test(unix_sockets, a_datagram_socketpair_cannot_send_to_a_path_socket)
{
	struct box b;
	char *path;
	int fd;

	box_make(&b);
	path = assay_path_join(b.root, "dgram");
	fd = listen_unix(path, SOCK_DGRAM);
	cr_assert_eq(attack_without(&b, NULL, NULL, "dgram-pair-send", path), 1);
	cr_assert_eq(attack_without(&b, "seccomp", NULL, "dgram-pair-send", path), 0);
	close(fd);
	free(path);
	box_free(&b);
}

Test(unix_sockets, with_the_network_on_they_work)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *path;
	int fd;

	box_make(&b);
	path = assay_path_join(b.root, "sock");
	fd = listen_unix(path, SOCK_STREAM);
	tool(&p, "connect-unix", path, NULL);
	boxed(&p, &b, true);
	p.sandbox.network = true;
	run_ok(&p, &r);
	cr_assert_eq(exit_code(&r), 0, "%s", p.out.ptr);
	assay_proc_release(&p);
	close(fd);
	free(path);
	box_free(&b);
}

Test(unix_sockets, pipelines_socketpairs_and_python_still_work)
{
	struct box b;
	char *out;

	box_make(&b);
	cr_assert_eq(attack(&b, true, NULL, "stream-pair", NULL), 0);
	out = sh_in_box(&b, NULL, "echo abc | tr a-c x-z | cat /dev/stdin");
	cr_assert_str_eq(out, "xyz\n");
	free(out);
	if (access("/usr/bin/python3", X_OK) == 0) {
		out = sh_in_box(&b, NULL,
				"/usr/bin/python3 -c 'import asyncio, socket, subprocess, "
				"multiprocessing as mp\n"
				"a, b = socket.socketpair(); a.send(b\"p\"); print(b.recv(1).decode())\n"
				"asyncio.run(asyncio.sleep(0)); print(subprocess.run([\"echo\", \"s\"], "
				"capture_output=True).stdout.decode().strip())\n"
				"q = mp.Pipe(); print(\"m\")'");
		cr_assert_str_eq(out, "p\ns\nm\n");
		free(out);
	}
	box_free(&b);
}

/* ---- keyrings ---- */

Test(keys, the_session_keyring_is_out_of_reach)
{
	struct box b;
	char desc[64], *out = NULL;

	box_make(&b);
	/* A fresh session keyring of this test, holding a secret (the case inherits it). */
	if (syscall(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL) < 0)
		cr_skip_test("no keyrings here: %s", strerror(errno)); /* a container's seccomp */
	snprintf(desc, sizeof(desc), "assay-test-%ld", (long)getpid());
	cr_assert(syscall(SYS_add_key, "user", desc, "s3cret", 6, -3 /* session */) >= 0,
		  "%s", strerror(errno));
	cr_assert_eq(attack_without(&b, NULL, &out, "read-key", desc), 1, "%s", out);
	cr_assert(strstr(out, "Function not implemented"), "%s", out);
	free(out);
	{
		/* network on: still closed */
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "read-key", desc, NULL);
		boxed(&p, &b, true);
		p.sandbox.network = true;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 1, "%s", p.out.ptr);
		assay_proc_release(&p);
	}
	/* The keyring is shared: without the filter the secret is read. */
	cr_assert_eq(attack_without(&b, "seccomp", &out, "read-key", desc), 0, "%s", out);
	cr_assert_str_eq(out, "key: s3cret\n");
	free(out);
	box_free(&b);
}

/* ---- terminals and devices ---- */

/* The tty attack without Criterion's assertions (it runs in a forked child): 1 if the program
 * exited with `want` and printed `expect`, else 0. */
static int tty_attack_is(const struct box *b, const char *refuse, const char *slave, int want,
			 const char *expect)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	int ok;

	if (refuse)
		setenv("ASSAY_SANDBOX_REFUSE", refuse, 1);
	else
		unsetenv("ASSAY_SANDBOX_REFUSE");
	assay_strvec_push(&p.argv, ASSAY_TEST_TOOL);
	assay_strvec_push(&p.argv, "tty");
	assay_strvec_push(&p.argv, slave);
	p.cwd = strdup(b->work);
	p.sandbox.enabled = true;
	p.sandbox.tmp_dir = b->tmp;
	ok = assay_proc_run(&p, &r, &err) == 0 && r.status == ASSAY_PROC_EXITED &&
	     r.exit_code == want && strstr(p.out.ptr, expect) != NULL;
	if (!ok)
		fprintf(stderr, "refuse %s: exit %d: %s\n", refuse ? refuse : "-", r.exit_code,
			p.out.ptr);
	assay_proc_release(&p);
	return ok;
}

Test(devices, no_terminal_is_reachable_and_none_is_controlling)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	const char *slave;
	int master, st;
	pid_t pid;

	box_make(&b);
	/* A terminal: a fresh pty, made the controlling terminal of a child in a new session,
	 * which then runs the cases (the test process may lead a process group: no setsid). */
	master = posix_openpt(O_RDWR | O_NOCTTY);
	cr_assert(master >= 0);
	cr_assert_eq(grantpt(master), 0);
	cr_assert_eq(unlockpt(master), 0);
	slave = ptsname(master);
	cr_assert_not_null(slave);
	cr_assert_eq(chmod(slave, 0666), 0); /* only the sandbox in the way */
	pid = fork();
	if (pid == 0) {
		int fd;

		if (setsid() < 0)
			_exit(10);
		fd = open(slave, O_RDWR); /* without O_NOCTTY: the controlling terminal */
		if (fd < 0 || tcgetpgrp(fd) != getpgrp())
			_exit(11);
		if (!tty_attack_is(&b, NULL, slave, 1, "Permission denied"))
			_exit(12);
		/* Without Landlock the program reaches the terminal (the test can fail), but it
		 * is not its controlling one (the supervisor's setsid): /dev/tty gives ENXIO. */
		if (!tty_attack_is(&b, "landlock-fs", slave, 0, "/dev/tty: No such device"))
			_exit(13);
		_exit(0);
	}
	cr_assert(pid > 0);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %x", st);
	close(master);
	box_free(&b);
}

Test(devices, the_usual_devices_work_and_the_rest_are_hidden)
{
	struct box b;
	char *out;

	box_make(&b);
	out = sh_in_box(&b, NULL,
			"head -c 4 /dev/urandom | wc -c; head -c 1 /dev/random | wc -c; "
			"head -c 2 /dev/zero | wc -c; echo x > /dev/null && echo null; "
			"echo x > /dev/full || echo full; ls /dev/pts >/dev/null 2>&1 || echo no-pts; "
			"cat /dev/ptmx 2>/dev/null || echo no-ptmx; ls /dev >/dev/null 2>&1 || echo no-dev");
	cr_assert_str_eq(out, "4\n1\n2\nnull\nfull\nno-pts\nno-ptmx\nno-dev\n");
	free(out);
	box_free(&b);
}

/* ---- what the program file grants ---- */

/* An executable under the suite (hidden): a script that says it ran. */
static char *hidden_executable(const struct box *b)
{
	char *path = assay_path_join(b->suite, "tool");

	cr_assert_eq(assay_fs_write(path, "#!/bin/sh\necho hidden tool ran\n", 31, 0755, NULL), 0);
	return path;
}

static assay_proc_result run_file(const struct box *b, const char *file, bool sandbox,
				  char **out)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	assay_strvec_push(&p.argv, file);
	boxed(&p, b, sandbox);
	run_ok(&p, &r);
	*out = strdup(p.out.ptr);
	assay_proc_release(&p);
	return r;
}

Test(program_file, a_scripts_interpreter_line_grants_nothing)
{
	struct box b;
	char *hidden, *script, *text, *out;
	assay_proc_result r;

	box_make(&b);
	hidden = hidden_executable(&b);
	script = assay_path_join(b.work, "evil");
	text = assay_xasprintf("#!%s\n", hidden);
	cr_assert_eq(assay_fs_write(script, text, strlen(text), 0755, NULL), 0);
	r = run_file(&b, script, true, &out);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	cr_assert_eq(r.exec_errno, EACCES);
	free(out);
	r = run_file(&b, script, false, &out);
	cr_assert_str_eq(out, "hidden tool ran\n");
	free(out);
	free(text);
	free(script);
	free(hidden);
	box_free(&b);
}

/* A program named without a folder is found along PATH by the library too, for the one file
 * the sandbox lets the case read and run (sandbox.c find_program); that search is kept from
 * case to case (its folders are none a case may write) and checked again on use: moved from
 * the first PATH folder to the second, the program is found there. Kept unchecked, the rule
 * named the file that was gone and the sandbox refused the one the program's exec found
 * (EACCES): the test can fail. */
Test(program_file, a_program_found_along_path_is_looked_up_again_when_it_moves)
{
	struct box b;
	char *a, *bdir, *in_a, *in_b, *path;
	const char *want[2] = { "a\n", "b\n" };

	box_make(&b);
	a = assay_path_join(b.root, "a");
	bdir = assay_path_join(b.root, "b");
	cr_assert_eq(mkdir(a, 0755), 0);
	cr_assert_eq(mkdir(bdir, 0755), 0);
	in_a = assay_path_join(a, "tool");
	in_b = assay_path_join(bdir, "tool");
	path = assay_xasprintf("PATH=%s:%s:/usr/bin:/bin", a, bdir);
	cr_assert_eq(assay_fs_write(in_a, "#!/bin/sh\necho a\n", 17, 0755, NULL), 0);
	for (int round = 0; round < 2; round++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		assay_strvec_push(&p.argv, "tool");
		assay_strvec_push(&p.env, path);
		boxed(&p, &b, true);
		run_ok(&p, &r);
		cr_assert_eq(r.status, ASSAY_PROC_EXITED, "round %d: status %d errno %d", round,
			     r.status, r.exec_errno);
		cr_assert_str_eq(p.out.ptr, want[round]);
		assay_proc_release(&p);
		if (round == 0) {
			cr_assert_eq(unlink(in_a), 0);
			cr_assert_eq(assay_fs_write(in_b, "#!/bin/sh\necho b\n", 17, 0755, NULL), 0);
		}
	}
	free(path);
	free(in_b);
	free(in_a);
	free(bdir);
	free(a);
	box_free(&b);
}

Test(program_file, a_link_in_the_working_folder_grants_nothing)
{
	struct box b;
	char *hidden, *link, *out;
	assay_proc_result r;

	box_make(&b);
	hidden = hidden_executable(&b);
	link = assay_path_join(b.work, "run");
	cr_assert_eq(symlink(hidden, link), 0);
	r = run_file(&b, link, true, &out);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	cr_assert_eq(r.exec_errno, EACCES);
	free(out);
	r = run_file(&b, link, false, &out);
	cr_assert_str_eq(out, "hidden tool ran\n");
	free(out);
	/* named from outside the case's folders, the same file is granted */
	r = run_file(&b, hidden, true, &out);
	cr_assert_str_eq(out, "hidden tool ran\n");
	free(out);
	free(link);
	free(hidden);
	box_free(&b);
}

Test(program_file, a_linked_folder_in_the_working_folder_grants_nothing)
{
	struct box b;
	char *hidden, *bin, *prog, *out;
	assay_proc_result r;

	box_make(&b);
	hidden = hidden_executable(&b);
	bin = assay_path_join(b.work, "bin");
	cr_assert_eq(symlink(b.suite, bin), 0); /* work/bin -> the hidden suite */
	prog = assay_path_join(bin, "tool");
	r = run_file(&b, prog, true, &out);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	cr_assert_eq(r.exec_errno, EACCES);
	free(out);
	r = run_file(&b, "bin/tool", true, &out); /* relative to the working folder */
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	free(out);
	r = run_file(&b, prog, false, &out);
	cr_assert_str_eq(out, "hidden tool ran\n");
	free(out);
	free(prog);
	free(bin);
	free(hidden);
	box_free(&b);
}

/* ---- figures ---- */

/*
 * docs/security.md says exactly what cpu_time counts: a child whose parent ignores SIGCHLD is
 * reaped by the kernel without a wait, and its CPU is lost to every wait4() (it is nobody's
 * child time). This pins that statement: if it changes, the documentation must.
 */
Test(figures, cpu_of_a_child_the_kernel_reaps_is_not_counted)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "burn-ignored-child", "0.3", NULL);
		boxed(&p, &b, sandbox);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(r.cpu_user_s + r.cpu_sys_s < 0.2, "cpu %.3f + %.3f (sandbox %d)",
			  r.cpu_user_s, r.cpu_sys_s, sandbox);
		assay_proc_release(&p);
	}
	box_free(&b);
}

/* ---- without root ---- */

/* The attacks above again as an unprivileged user, not dumpable as the CLI makes itself: each
 * is refused, and with every layer in force (attack() asserts that none was refused). */
Test(local_nonroot, every_attack_fails_without_root_too)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	char *sock, *dgram, *hidden, *sym, *script, *text, *out = NULL, abstract[64], desc[64];
	int fd1, fd2, fd3;
	assay_proc_result r;

	become_nobody_like_the_cli();
	box_make(&b);
	sock = assay_path_join(b.root, "sock");
	dgram = assay_path_join(b.root, "dgram");
	snprintf(abstract, sizeof(abstract), "@assay-test-nonroot-%ld", (long)getpid());
	fd1 = listen_unix(sock, SOCK_STREAM);
	fd2 = listen_unix(dgram, SOCK_DGRAM);
	fd3 = listen_unix(abstract, SOCK_STREAM);
	cr_assert_eq(attack(&b, true, NULL, "connect-unix", sock, NULL), 1);
	cr_assert_eq(attack(&b, true, NULL, "connect-unix", abstract, NULL), 1);
	cr_assert_eq(attack(&b, true, NULL, "dgram-pair-send", dgram, NULL), 1);
	cr_assert_eq(attack(&b, true, NULL, "stream-pair", NULL), 0);
	cr_assert_eq(attack(&b, false, NULL, "connect-unix", sock, NULL), 0); /* it can fail */

	if (syscall(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL) >= 0) {
		snprintf(desc, sizeof(desc), "assay-test-nonroot-%ld", (long)getpid());
		cr_assert(syscall(SYS_add_key, "user", desc, "s3cret", 6, -3) >= 0, "%s",
			  strerror(errno));
		cr_assert_eq(attack(&b, true, &out, "read-key", desc, NULL), 1, "%s", out);
		free(out);
		cr_assert_eq(attack(&b, false, &out, "read-key", desc, NULL), 0, "%s", out);
		free(out);
	}

	out = sh_in_box(&b, NULL, "ls /dev/pts >/dev/null 2>&1 || echo no-pts; "
				  "head -c 3 /dev/urandom | wc -c");
	cr_assert_str_eq(out, "no-pts\n3\n");
	free(out);

	hidden = hidden_executable(&b);
	script = assay_path_join(b.work, "evil");
	text = assay_xasprintf("#!%s\n", hidden);
	cr_assert_eq(assay_fs_write(script, text, strlen(text), 0755, NULL), 0);
	r = run_file(&b, script, true, &out);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	free(out);
	sym = assay_path_join(b.work, "run");
	cr_assert_eq(symlink(hidden, sym), 0);
	r = run_file(&b, sym, true, &out);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "%s", out);
	free(out);

	close(fd1);
	close(fd2);
	close(fd3);
	free(sym);
	free(text);
	free(script);
	free(hidden);
	free(sock);
	free(dgram);
	box_free(&b);
}

/* The start time that tells a live owner from a reused pid (work roots, case cgroups) is field
 * 22 of /proc/PID/stat, read here independently; it was field 21 (itrealvalue, always 0). */
Test(owners, the_start_time_is_field_22_of_stat)
{
	char buf[1024], *p;
	unsigned long long want = 0;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n;
	int field = 3;

	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')') + 2; /* field 3 starts here */
	for (; field < 22; field++)
		p = strchr(p, ' ') + 1;
	want = strtoull(p, NULL, 10);
	cr_assert_neq(want, 0);
	cr_assert_eq(assay_proc__start_time((long)getpid()), want);
	cr_assert_eq(assay_proc__start_time(999999999L), 0);
}
