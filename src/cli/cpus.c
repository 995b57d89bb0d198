/*
 * The CPUs of the harness (run_common.h cli_cpus_keep_off; docs/cli.md, "The CPUs of the
 * harness"): with fewer cases at once (-j) than CPUs assay may run on, assay and its case
 * servers keep off the first -j of those CPUs, and each program is given all of them back
 * before its exec, so the kernel puts it where assay is not.
 *
 * Key decisions:
 * - Why: at -j1 assay's own work for a case (arming the next one, verifying and storing the
 *   last: ~0.4 ms of CPU a case, its servers' and its own) ran beside the program. A kernel
 *   that places a wakeup on the CPU already busy (as the 2-core VMs this was measured on do)
 *   put it on the program's CPU, which it then took from the program: 40% of the programs were
 *   preempted by assay, for ~80 us each. Kept off, the program runs alone; and an armed case
 *   waits on the programs' CPUs (init/supervise.c wait_where_it_runs), so its exec does not
 *   migrate it. bench/floor.sh-style A/B, 9 rounds: 1.17 -> 1.12 of the bare floor with the
 *   sandbox on for the first, 1.14 -> 1.065 (off: 1.066 -> 1.022) for the second.
 * - The program's CPUs are assay's own before the change (taskset, cpusets and Slurm's
 *   --cpus-per-task still hold), set in its child by the library (assay_proc_set_program_cpus):
 *   a program sees, and may use, what it would have without this.
 * - Process-wide (the main thread's affinity, which the threads and servers it starts inherit),
 *   so the CLI's to do, said in docs/cli.md; undone when the run ends. Off with
 *   ASSAY_PIN=off, and with -j at or above the CPUs assay may run on (no CPU to spare).
 *
 * Refuses to: give a program fewer CPUs than assay had.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "assay/proc.h"
#include "run_common.h"

static cpu_set_t was;
static bool pinned;

void cli_cpus_keep_off(size_t jobs)
{
	cpu_set_t harness;
	size_t skipped = 0;

	if (pinned || cli_env_off("ASSAY_PIN"))
		return;
	CPU_ZERO(&was);
	if (sched_getaffinity(0, sizeof(was), &was) || (size_t)CPU_COUNT(&was) <= jobs)
		return;
	harness = was;
	for (int cpu = 0; cpu < CPU_SETSIZE && skipped < jobs; cpu++)
		if (CPU_ISSET(cpu, &harness)) {
			CPU_CLR(cpu, &harness);
			skipped++;
		}
	assay_proc_set_program_cpus((const unsigned char *)&was, sizeof(was));
	if (sched_setaffinity(0, sizeof(harness), &harness)) {
		assay_proc_set_program_cpus(NULL, 0);
		return;
	}
	pinned = true;
}

void cli_cpus_restore(void)
{
	if (!pinned)
		return;
	sched_setaffinity(0, sizeof(was), &was);
	assay_proc_set_program_cpus(NULL, 0);
	pinned = false;
}
