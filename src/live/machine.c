/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine at a glance for the sample (the screen's header): the load
 * averages, the CPUs' busy share since the previous sample, memory and
 * swap in use. Read through kernel/sysinfo.c and kernel/cpustat.c.
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
	struct cpustat cpus;
	bool have_prev;
	uint64_t prev_idle, prev_total;
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

void machine_read(struct monitor *m, struct sample_machine *out)
{
	*out = (struct sample_machine){ .have_load = false };
	struct machine *mc = get(m);
	if (!mc || mc->proc < 0)
		return;
	out->have_load = sysinfo_read_loadavg(mc->proc, out->load) == 0;

	/* every CPU's time: busy is what was neither idle nor IO wait */
	if (cpustat_read(mc->proc, &mc->cpus) == 0) {
		uint64_t idle = 0, total = 0;
		for (size_t i = 0; i < mc->cpus.n; i++) {
			idle += mc->cpus.cpu[i].idle;
			total += mc->cpus.cpu[i].total;
		}
		/* a CPU going offline takes its ticks away: no figure then */
		if (mc->have_prev && total > mc->prev_total &&
		    idle >= mc->prev_idle &&
		    idle - mc->prev_idle <= total - mc->prev_total) {
			double dt = (double)(total - mc->prev_total);
			double di = (double)(idle - mc->prev_idle);
			out->cpu_busy = (dt - di) / dt * 100.0;
			out->have_cpu = true;
		}
		mc->have_prev = true;
		mc->prev_idle = idle;
		mc->prev_total = total;
	} else {
		mc->have_prev = false;
	}

	struct sysinfo_mem mem;
	sysinfo_read_mem(mc->proc, &mem);
	if (mem.mem_total.have && mem.mem_available.have &&
	    mem.mem_available.v <= mem.mem_total.v) {
		out->have_mem = true;
		out->mem_total = mem.mem_total.v;
		out->mem_used = mem.mem_total.v - mem.mem_available.v;
	}
	if (mem.swap_total.have && mem.swap_free.have &&
	    mem.swap_free.v <= mem.swap_total.v) {
		out->have_swap = true;
		out->swap_total = mem.swap_total.v;
		out->swap_used = mem.swap_total.v - mem.swap_free.v;
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
