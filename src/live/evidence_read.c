/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One reading of a process's or a cgroup's evidence (evidence_read.h).
 *
 * On a hybrid system a process is in a v2 cgroup and in one v1 cgroup per
 * controller; the controllers live where they are enabled. A v2 reading
 * counts for a resource when its controller's files are there (cpu.max,
 * memory.max, io.stat or io.max); otherwise the v1 reading does. Pressure
 * comes from whichever of the two has its file.
 */
#include <config.h>

#include <string.h>
#include <time.h>

#include "kernel/cg_cpu.h"
#include "kernel/cg_io.h"
#include "kernel/cg_mem.h"
#include "kernel/cgstats.h"
#include "kernel/sysinfo.h"
#include "kernel/taskev.h"
#include "live/evidence_read.h"

static void copy_pressure(struct psi_line to[NPSI_KIND],
			  const struct psi_line from[NPSI_KIND])
{
	if (!to[PSI_SOME].present && !to[PSI_FULL].present)
		memcpy(to, from, NPSI_KIND * sizeof(to[0]));
}

static void read_cpu(const struct evidence_dirs *d, struct cg_cpu *out)
{
	struct cg_cpu v1;

	cg_cpu_read_v2(d->cg2, out);
	if (out->quota_us.have)
		return;
	cg_cpu_read_v1(d->cpu1, &v1);
	if (!v1.version)
		return;
	if (!v1.usage_us.have)
		cg_cpu_read_cpuacct(d->cpuacct1, &v1);
	copy_pressure(v1.pressure, out->pressure);
	*out = v1;
}

static void read_mem(const struct evidence_dirs *d, struct cg_mem *out)
{
	struct cg_mem v1;

	cg_mem_read_v2(d->cg2, out);
	if (out->max.have)
		return;
	cg_mem_read_v1(d->mem1, &v1);
	if (!v1.version)
		return;
	copy_pressure(v1.pressure, out->pressure);
	*out = v1;
}

static void read_io(const struct evidence_dirs *d, struct cg_io *out)
{
	struct cg_io v1;

	cg_io_read_v2(d->cg2, out);
	if (out->ndev)
		return;
	cg_io_read_v1(d->blkio1, &v1);
	if (!v1.version)
		return;
	copy_pressure(v1.pressure, out->pressure);
	*out = v1;
}

static void read_states(const struct evidence_dirs *d, struct ts_client *ts,
			struct cgstats *out)
{
	memset(out, 0, sizeof(*out));
	if (d->no_states)
		return;
	if (ts && d->states1 >= 0 && cgstats_query(ts, d->states1, out) == 0)
		return;
	if (d->cg2 >= 0 && d->proc >= 0 &&
	    cgstats_count_v2(d->cg2, d->proc, out) == 0)
		return;
	if (d->states1 >= 0 && d->proc >= 0 &&
	    cgstats_count_v1(d->states1, d->proc, out) == 0)
		return;
	memset(out, 0, sizeof(*out));
}

void evidence_read_cgroup(const struct evidence_dirs *dirs, struct cg_cpu *cpu,
			  struct cg_mem *mem)
{
	memset(cpu, 0, sizeof(*cpu));
	memset(mem, 0, sizeof(*mem));
	read_cpu(dirs, cpu);
	read_mem(dirs, mem);
}

static bool wants(const struct evidence_dirs *d, enum evidence_group group)
{
	return !d->want || (d->want & EVIDENCE_WANT(group));
}

void evidence_read_system(const struct evidence_dirs *dirs,
			  struct evidence_reading *out)
{
	memset(&out->sysmem, 0, sizeof(out->sysmem));
	memset(&out->load, 0, sizeof(out->load));
	if (dirs->mem)
		out->sysmem = *dirs->mem;
	if (dirs->cpus) {
		out->load.procs_running = dirs->cpus->procs_running;
		out->load.procs_blocked = dirs->cpus->procs_blocked;
	}
	sysinfo_read_online(dirs->cpu_sys, &out->load.cpus_online);
}

void evidence_read_task(const struct evidence_dirs *dirs,
			const struct evidence_reading *sys,
			struct evidence_reading *out)
{
	struct timespec t;

	memset(out, 0, sizeof(*out));
	if (sys->when > 0) {
		out->when = sys->when;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &t);
		out->when = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
	}
	out->sysmem = sys->sysmem;
	out->load = sys->load;
	if (wants(dirs, EVIDENCE_CPU)) {
		uint64_t online = out->load.cpus_online.have ?
				  out->load.cpus_online.v : 0;

		if (dirs->tcpu) {
			out->tcpu = *dirs->tcpu;
			taskev_count_cpu(dirs->pid, online, &out->tcpu);
		} else {
			taskev_read_cpu(dirs->pid, online, &out->tcpu);
		}
		if (dirs->cpus && out->tcpu.allowed_list[0])
			cpustat_split(dirs->cpus, out->tcpu.allowed_list,
				      &out->cpus);
	}
	if (wants(dirs, EVIDENCE_IO)) {
		if (dirs->tio)
			out->tio = *dirs->tio;
		else
			taskev_read_io(dirs->pid, &out->tio);
	}
	if (wants(dirs, EVIDENCE_WPCOPY))
		taskev_read_mem(dirs->pid, &out->tmem);
}

bool evidence_read_task_dir_wanted(const struct evidence_dirs *dirs,
			      const struct evidence_reading *sys)
{
	const struct taskev_cpu *c = dirs->tcpu;

	if ((wants(dirs, EVIDENCE_IO) && !dirs->tio) ||
	    wants(dirs, EVIDENCE_WPCOPY))
		return true;
	if (!wants(dirs, EVIDENCE_CPU))
		return false;
	/* counted where it may use fewer CPUs than are online */
	return !c || !c->allowed_cpus.have || !sys->load.cpus_online.have ||
	       c->allowed_cpus.v < sys->load.cpus_online.v;
}

void evidence_read_cgroups(const struct evidence_dirs *dirs,
			   struct ts_client *ts, struct evidence_reading *out)
{
	if (wants(dirs, EVIDENCE_CPU))
		read_cpu(dirs, &out->cpu);
	if (wants(dirs, EVIDENCE_MEMORY))
		read_mem(dirs, &out->mem);
	if (wants(dirs, EVIDENCE_IO))
		read_io(dirs, &out->io);
	if (wants(dirs, EVIDENCE_STATES))
		read_states(dirs, ts, &out->states);
}

void evidence_read_with(const struct evidence_dirs *dirs, struct ts_client *ts,
			const struct evidence_reading *sys,
			struct evidence_reading *out)
{
	evidence_read_task(dirs, sys, out);
	evidence_read_cgroups(dirs, ts, out);
}
