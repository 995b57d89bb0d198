/*
 * The floor of `assay run` on trivial cases (bench/pool.sh builds and runs this): a minimal C
 * loop making the same spawns assay makes for N cases of `/bin/echo hi`, one after another,
 * through the proc API (the case supervisor, the sandbox when asked), and nothing else: no
 * suite, no case files, no working folders, no verification, no store. Prints the wall seconds
 * of the whole loop. Each spawn gets the environment the cli adapter gives a case (PATH and
 * LANG from ours, HOME the working folder, TMPDIR the temporary folder; cli_run.c): with LANG
 * set, the program under test loads its locale, a cost of the program that assay's runs have
 * too and that is not assay's own (for /bin/echo, some 0.1 ms a spawn).
 * Usage: assay-bench-spawn-loop N on|off WORKDIR
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "assay/proc.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n;
	bool sandbox;
	char *tmp;
	const char *path = getenv("PATH"), *lang = getenv("LANG");
	double t0;

	if (argc != 4 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: assay-bench-spawn-loop N on|off WORKDIR\n");
		return 2;
	}
	sandbox = !strcmp(argv[2], "on");
	if (asprintf(&tmp, "%s/tmp", argv[3]) < 0)
		return 1;
	mkdir(tmp, 0700);
	t0 = now_s();
	for (long i = 0; i < n; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		assay_err err = ASSAY_ERR_INIT;

		assay_strvec_push(&p.argv, "/bin/echo");
		assay_strvec_push(&p.argv, "hi");
		p.cwd = strdup(argv[3]);
		p.clear_env = true;
		assay_strvec_pushf(&p.env, "PATH=%s", path ? path : "/usr/local/bin:/usr/bin:/bin");
		assay_strvec_pushf(&p.env, "LANG=%s", lang ? lang : "C.UTF-8");
		assay_strvec_pushf(&p.env, "HOME=%s", argv[3]);
		assay_strvec_pushf(&p.env, "TMPDIR=%s", tmp);
		p.sandbox.enabled = sandbox;
		p.sandbox.tmp_dir = tmp;
		if (assay_proc_run(&p, &r, &err) || r.status != ASSAY_PROC_EXITED ||
		    strcmp(p.out.ptr, "hi\n")) {
			fprintf(stderr, "spawn-loop: case %ld failed: %s\n", i, err.msg);
			return 1;
		}
		assay_proc_release(&p);
	}
	printf("%.3f\n", now_s() - t0);
	free(tmp);
	return 0;
}
