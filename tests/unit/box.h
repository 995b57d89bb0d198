/*
 * What the sandbox tests share (test_proc_sandbox.c, test_proc_local.c): a case's folders, and
 * running the test tool in them with the sandbox on or off. Static functions: each test binary
 * includes this once.
 */
#ifndef ASSAY_TEST_BOX_H
#define ASSAY_TEST_BOX_H

#include <criterion/criterion.h>
#include <grp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/proc.h"

/* A case's folders: root/work (its cwd), root/tmp (its tmp_dir), root/suite (a stand-in for
 * the suite, holding "secret"). Nothing under root but work and tmp is granted. */
struct box {
	char *root, *work, *tmp, *suite, *secret;
};

static inline void box_make(struct box *b)
{
	char tmpl[] = "/tmp/assay-test-sandbox-XXXXXX";

	cr_assert_not_null(mkdtemp(tmpl));
	/* Writable by anyone: as root the sandboxed program is nobody, and the tests that write
	 * here must find only the sandbox in their way, not the folder's owner. */
	cr_assert_eq(chmod(tmpl, 01777), 0);
	b->root = strdup(tmpl);
	b->work = assay_path_join(b->root, "work");
	b->tmp = assay_path_join(b->root, "tmp");
	b->suite = assay_path_join(b->root, "suite");
	b->secret = assay_path_join(b->suite, "secret");
	cr_assert_eq(mkdir(b->work, 0755), 0);
	cr_assert_eq(mkdir(b->tmp, 0700), 0);
	cr_assert_eq(mkdir(b->suite, 0755), 0);
	cr_assert_eq(assay_fs_write(b->secret, "expected answer\n", 16, 0644, NULL), 0);
}

static inline void box_free(struct box *b)
{
	assay_fs_remove_tree(b->root, NULL);
	free(b->root);
	free(b->work);
	free(b->tmp);
	free(b->suite);
	free(b->secret);
}

/* argv: the test tool and the NULL-terminated arguments. */
static inline void tool(assay_proc *p, const char *arg, ...)
{
	va_list ap;

	assay_strvec_push(&p->argv, ASSAY_TEST_TOOL);
	va_start(ap, arg);
	for (; arg; arg = va_arg(ap, const char *))
		assay_strvec_push(&p->argv, arg);
	va_end(ap);
}

/* Runs in the box, with the sandbox on or off. */
static inline void boxed(assay_proc *p, const struct box *b, bool sandbox)
{
#if defined(__SANITIZE_ADDRESS__)
	/* The sanitized test tool's LeakSanitizer reads /proc/PID/task with its PID in the case's
	 * PID namespace, where /proc is the host's: another process's, or none, and it fails the
	 * tool (with a case server, whose cases get ever larger PIDs, every time). What is tested
	 * here is the sandbox, not the tool's leaks. */
	assay_strvec_push(&p->env, "ASAN_OPTIONS=detect_leaks=0");
#endif
	p->cwd = strdup(b->work);
	p->sandbox.enabled = sandbox;
	p->sandbox.tmp_dir = b->tmp;
}

static inline void run_ok(assay_proc *p, assay_proc_result *r)
{
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_proc_run(p, r, &err);

	cr_assert_eq(rc, 0, "assay_proc_run: %d %s", rc, err.msg);
}

static inline int exit_code(const assay_proc_result *r)
{
	cr_assert_eq(r->status, ASSAY_PROC_EXITED, "status %d (signal %d, errno %d)", r->status,
		     r->term_signal, r->exec_errno);
	return r->exit_code;
}

/* The attack's exit code (0: it worked) and output, with the sandbox on or off. */
static inline int attack(const struct box *b, bool sandbox, char **out, const char *arg, ...)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	va_list ap;
	int code;

	assay_strvec_push(&p.argv, ASSAY_TEST_TOOL);
	va_start(ap, arg);
	for (; arg; arg = va_arg(ap, const char *))
		assay_strvec_push(&p.argv, arg);
	va_end(ap);
	boxed(&p, b, sandbox);
	run_ok(&p, &r);
	code = exit_code(&r);
	if (sandbox)
		cr_assert_eq(r.sandbox_refused, 0, "a layer was refused: %x", r.sandbox_refused);
	if (out)
		*out = strdup(p.out.ptr);
	assay_proc_release(&p);
	return code;
}

static inline bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/*
 * Runs the rest of the test as nobody, if it runs as root (Criterion forks each test). The uid
 * change makes the process non-dumpable, which an unprivileged program started normally is not:
 * undo that. (The CLI makes itself non-dumpable on purpose: become_nobody_like_the_cli().)
 */
static inline void become_nobody(void)
{
	if (geteuid() != 0)
		return;
	cr_assert_eq(setgroups(0, NULL), 0);
	cr_assert_eq(setresgid(65534, 65534, 65534), 0);
	cr_assert_eq(setresuid(65534, 65534, 65534), 0);
	cr_assert_eq(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
}

/* As become_nobody(), then not dumpable, as src/cli/main.c makes assay: its /proc files (and
 * those of a child sharing its memory, the library's clone child) belong to root. */
static inline void become_nobody_like_the_cli(void)
{
	become_nobody();
	cr_assert_eq(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), 0);
}

#endif
