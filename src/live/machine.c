/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the machine line of the sample (the screen's header) is made of:
 * the load averages, the CPUs' idle and total time, memory and swap, as
 * the kernel counts them (the model makes the line: model/assemble.c).
 * Read through kernel/sysinfo.c and kernel/cpustat.c; /proc/stat and
 * /proc/meminfo once a round, for every reader of the round.
 */
#include <config.h>

#include <stdlib.h>
#include <unistd.h>

#include "kernel/cpustat.h"
#include "kernel/kval.h"
#include "kernel/sysinfo.h"
#include "live/monitor_int.h"

struct machine {
	int proc;                 /* /proc, or -1 */
	struct cpustat cpus;      /* /proc/stat of stat_round */
	struct sysinfo_mem mem;   /* /proc/meminfo of mem_round */
	uint64_t stat_round, mem_round;
	bool have_stat;
};

static struct machine *get(struct monitor *m)
{
	if (!m->machine) {
		m->machine = calloc(1, sizeof(*m->machine));
		if (m->machine)
			m->machine->proc = kval_open_dir(-1, "/proc");
	}
	return m->machine;
}

const struct cpustat *machine_stat(struct monitor *m)
{
	struct machine *mc = get(m);

	if (!mc)
		return NULL;
	if (mc->stat_round != m->round) {
		mc->have_stat = cpustat_read(mc->proc, &mc->cpus) == 0 ||
				mc->cpus.procs_blocked.have;
		mc->stat_round = m->round;
	}
	return mc->have_stat ? &mc->cpus : NULL;
}

const struct sysinfo_mem *machine_mem(struct monitor *m)
{
	struct machine *mc = get(m);

	if (!mc)
		return NULL;
	if (mc->mem_round != m->round) {
		sysinfo_read_mem(mc->proc, &mc->mem);
		mc->mem_round = m->round;
	}
	return &mc->mem;
}

void machine_read(struct monitor *m, struct store_machine *out)
{
	*out = (struct store_machine){ .have = 0 };
	struct machine *mc = get(m);
	const struct cpustat *cpus = machine_stat(m);
	const struct sysinfo_mem *mem = machine_mem(m);

	if (!mc || mc->proc < 0)
		return;
	if (sysinfo_read_loadavg(mc->proc, out->load) == 0)
		out->have |= STORE_M_LOAD;

	/* every CPU's time: idle is idle or waiting for IO */
	if (cpus && cpus->n) {
		for (size_t i = 0; i < cpus->n; i++) {
			out->cpu_idle += cpus->cpu[i].idle;
			out->cpu_total += cpus->cpu[i].total;
		}
		out->have |= STORE_M_CPU;
	}
	if (mem->mem_total.have && mem->mem_available.have) {
		out->have |= STORE_M_MEM;
		out->mem_total = mem->mem_total.v;
		out->mem_available = mem->mem_available.v;
	}
	if (mem->swap_total.have && mem->swap_free.have) {
		out->have |= STORE_M_SWAP;
		out->swap_total = mem->swap_total.v;
		out->swap_free = mem->swap_free.v;
	}
}

void machine_free(struct monitor *m)
{
	if (!m->machine)
		return;
	if (m->machine->proc >= 0)
		close(m->machine->proc);
	cpustat_free(&m->machine->cpus);
	free(m->machine);
	m->machine = NULL;
}
