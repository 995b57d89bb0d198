/*
 * The floor of `assay run` on trivial cases (bench/pool.sh builds and runs this): a minimal C
 * loop making the same spawns assay makes for N cases of `/bin/echo hi`, one after another,
 * through the proc API (the case supervisor, the sandbox when asked), and nothing else: no
 * suite, no case files, no working folders, no verification, no store. Prints the wall seconds
 * of the whole loop. Each spawn gets the environment the cli adapter gives a case (PATH and
 * LANG from ours, HOME the working folder, TMPDIR the temporary folder; cli_run.c): with LANG
 * set, the program under test loads its locale, a cost of the program that assay's runs have
 * too and that is not assay's own (for /bin/echo, some 0.1 ms a spawn).
 * With `servers`, each spawn runs on a case server (proc.h assay_proc_servers), as `assay run`'s
 * cases do: what the main process pays then is the cost of running the processes alone, the
 * baseline bench/main_cpu.sh subtracts to give assay's main-process work of its own.
 * Usage: assay-bench-spawn-loop N on|off WORKDIR [servers]
 */
#define _GNU_SOURCE
#include <fcntl.h>
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
	assay_proc_servers *servers;
	bool given = false;

	if ((argc != 4 && (argc != 5 || strcmp(argv[4], "servers"))) ||
	    (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: assay-bench-spawn-loop N on|off WORKDIR [servers]\n");
		return 2;
	}
	servers = argc == 5 ? assay_proc_servers_new() : NULL;
	sandbox = !strcmp(argv[2], "on");
	if (asprintf(&tmp, "%s/tmp", argv[3]) < 0)
		return 1;
	mkdir(tmp, 0700);
	/* descriptors 3 to 9 taken, as in `assay run` (its store, its results, its servers'
	 * sockets): pipes then come out above the numbers the proc API reserves for a child
	 * (spawn.c), with no move, as they do there */
	for (int fd = open("/dev/null", O_RDONLY | O_CLOEXEC); fd >= 0 && fd < 9;)
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (servers && sandbox) {
		assay_sandbox sb = { .enabled = true };

		given = assay_sandbox_give(&sb, argv[3]) && assay_sandbox_give(&sb, tmp);
	}
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
		p.servers = servers;
		/* as the cli adapter's are: made empty for the case and given to the program's
		 * ids at once (proc.h assay_sandbox_give), so the start leaves them alone. Here
		 * the same two, which /bin/echo leaves empty, given once below. */
		p.sandbox.cwd_empty = p.sandbox.tmp_empty = servers != NULL;
		p.sandbox.cwd_given = p.sandbox.tmp_given = given;
		if (assay_proc_run(&p, &r, &err) || r.status != ASSAY_PROC_EXITED ||
		    strcmp(p.out.ptr, "hi\n")) {
			fprintf(stderr, "spawn-loop: case %ld failed: %s\n", i, err.msg);
			return 1;
		}
		assay_proc_release(&p);
	}
	printf("%.3f\n", now_s() - t0);
	assay_proc_servers_free(servers);
	free(tmp);
	return 0;
}
