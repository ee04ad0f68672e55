/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a cgroup row's figures come from (cgdirs.c), on the fixture trees
 * of tests/fixtures/cgroup/layouts: the layouts of the saved mountinfo
 * files with their mount points moved into the fixture trees. For one
 * service on each layout, the evidence read through the directories
 * cgdirs_open gives (evidence_read) and its pressure (cgdirs_read_psi):
 *  - pure v2: everything from the v2 directory (version 2);
 *  - hybrid: limits and usage from the v1 hierarchies of the same path
 *    (cpu quota, cpuacct usage from a hierarchy of its own, the memory
 *    limit, blkio), pressure from the controller-less v2 directory;
 *  - v1: from the v1 hierarchies, task states asked of the tree's own
 *    directory, pressure from cpuacct's hierarchy where a kernel has v1
 *    pressure files; a session scope that the memory hierarchy does not
 *    have: no memory figures, never another cgroup's.
 * The root counts no task states. A process's own cgroups on the hybrid
 * tree (cgdirs_open_task, from its /proc/PID/cgroup): those of its lines
 * below their hierarchy's root, none of a root (the machine's); task
 * states of its cgroup in the tree (v2 here: counted there), never asked
 * of another hierarchy's cgroup; read through the table of cgroups once
 * for three processes. On a v1 tree (name=systemd), states asked of its
 * cgroup there, not of its cpu or memory cgroup. A
 * process's allowed CPUs read already by its context: its directory read
 * only to count its threads where they are fewer than the CPUs online.
 * And the cgroup table on the hybrid tree: rows named, with their own
 * pressure.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "kernel/taskev.h"
#include "live/cgdirs.h"
#include "live/cgtable.h"
#include "unit.h"

#define LAYOUTS FIXTURES "/cgroup/layouts/"
#define NGINX "/system.slice/nginx.service"
#define MIB (1024ull * 1024)

/* One whole reading: the machine-wide part made from d, then the rest. */
static void read_all(const struct evidence_dirs *d, struct evidence_reading *out)
{
	struct evidence_reading sys;

	memset(&sys, 0, sizeof(sys));
	evidence_read_system(d, &sys);
	evidence_read_with(d, NULL, &sys, out);
}

/* The layout of a mountinfo fixture, its /sys/fs/cgroup in a fixture tree. */
static void layout(const char *mountinfo, const char *tree, struct cg_layout *l)
{
	static const char sys[] = "/sys/fs/cgroup";
	char *text = unit_fixture(mountinfo, NULL);

	if (cg_layout_parse(text, l) < 0)
		exit(99);
	free(text);
	for (int h = 0; h < NCG_HIER; h++) {
		char moved[CG_LAYOUT_PATH];

		if (strncmp(l->m[h].dir, sys, sizeof(sys) - 1) != 0)
			continue;
		snprintf(moved, sizeof(moved), "%s%s%s", LAYOUTS, tree,
			 l->m[h].dir + sizeof(sys) - 1);
		memcpy(l->m[h].dir, moved, sizeof(moved));
	}
}

static void read_at(const struct cg_layout *l, const char *path,
		    struct evidence_dirs *d, struct evidence_reading *r)
{
	*d = EVIDENCE_DIRS_NONE;
	cgdirs_open(l, path, d);
	read_all(d, r);
}

static void test_v2(void)
{
	struct cg_layout l;
	struct evidence_dirs d;
	struct evidence_reading r;

	layout("cgroup/mountinfo-v2", "v2", &l);
	read_at(&l, NGINX, &d, &r);
	CHECK(d.cg2 >= 0);
	CHECK(d.cpu1 < 0 && d.cpuacct1 < 0 && d.mem1 < 0 && d.blkio1 < 0);
	CHECK(d.states1 < 0 && !d.no_states);
	CHECK(r.cpu.version == 2 && r.cpu.quota_us.v == 50000 &&
	      r.cpu.period_us.v == 100000);
	CHECK(r.mem.version == 2 && r.mem.max.have && r.mem.max.v == 64 * MIB);
	CHECK(r.mem.current.v == 63 * MIB);
	CHECK(r.mem.pressure[PSI_SOME].total_us == 1500000);
	CHECK(r.io.version == 2 && r.io.ndev == 2);
	cgdirs_close(&d);
	CHECK(d.cg2 == -1);
}

static void test_hybrid(void)
{
	struct cg_layout l;
	struct evidence_dirs d;
	struct evidence_reading r;

	layout("cgroup/mountinfo-hybrid", "hybrid", &l);
	read_at(&l, NGINX, &d, &r);
	CHECK(d.cg2 >= 0 && d.cpu1 >= 0 && d.cpuacct1 >= 0 && d.mem1 >= 0 &&
	      d.blkio1 >= 0);
	/* the tree is v2: its task states are counted there */
	CHECK(d.states1 < 0);
	/* the v2 directory has cpu.stat but no cpu.max: the v1 quota counts */
	CHECK(r.cpu.version == 1 && r.cpu.quota_us.v == 50000 &&
	      r.cpu.period_us.v == 100000);
	CHECK(r.cpu.nr_throttled.have && r.cpu.nr_throttled.v == 180);
	/* cpuacct.usage of the cpuacct hierarchy: ns to us */
	CHECK(r.cpu.usage_us.have && r.cpu.usage_us.v == 4120000);
	CHECK(r.cpu.pressure[PSI_SOME].present &&
	      r.cpu.pressure[PSI_SOME].total_us == 420000);
	CHECK(r.mem.version == 1 && r.mem.max.v == 64 * MIB &&
	      r.mem.current.v == 63 * MIB && r.mem.failcnt.v == 1234);
	CHECK(r.mem.pressure[PSI_SOME].present &&
	      r.mem.pressure[PSI_SOME].total_us == 1500000 &&
	      r.mem.pressure[PSI_FULL].total_us == 1200000);
	CHECK(r.io.version == 1 && r.io.ndev == 1);
	CHECK(r.io.pressure[PSI_SOME].total_us == 30000);
	cgdirs_close(&d);

	/* the root: every task of the machine, no states; no limit */
	read_at(&l, "/", &d, &r);
	CHECK(d.no_states && d.cg2 >= 0 && d.mem1 >= 0);
	CHECK(r.mem.version == 1 && r.mem.max.have && r.mem.max.max);
	cgdirs_close(&d);

	/* a path that is nowhere: nothing, not the root's */
	read_at(&l, "/system.slice/gone.service", &d, &r);
	CHECK(d.cg2 < 0 && d.mem1 < 0);
	CHECK(r.mem.version == 0 && !r.mem.max.have);
	cgdirs_close(&d);

	struct psi_reading p;
	cgdirs_read_psi(&l, NGINX, &p);
	CHECK(p.line[PSI_MEMORY][PSI_SOME].present &&
	      p.line[PSI_MEMORY][PSI_SOME].total_us == 1500000);
	CHECK(p.line[PSI_CPU][PSI_FULL].total_us == 90000);
	CHECK(!p.line[PSI_IRQ][PSI_SOME].present);
	CHECK(p.when > 0);
	cgdirs_read_psi(&l, "/system.slice/gone.service", &p);
	CHECK(!p.line[PSI_CPU][PSI_SOME].present);
}

static void test_v1(void)
{
	struct cg_layout l;
	struct evidence_dirs d;
	struct evidence_reading r;
	struct psi_reading p;

	layout("cgroup/mountinfo-v1", "v1", &l);
	read_at(&l, "/user.slice", &d, &r);
	CHECK(d.cg2 < 0 && d.cpu1 >= 0 && d.mem1 >= 0);
	/* cpuacct is mounted with cpu: read there, not twice */
	CHECK(d.cpuacct1 < 0);
	/* the tree's own directory (name=systemd) for cgroupstats */
	CHECK(d.states1 >= 0);
	CHECK(r.cpu.version == 1 && r.cpu.quota_us.v == 150000 &&
	      r.cpu.usage_us.v == 4120000);
	CHECK(r.mem.version == 1 && r.mem.max.v == 1024 * MIB &&
	      r.mem.failcnt.v == 7);
	cgdirs_close(&d);

	/* systemd made no memory cgroup for the session: no figures */
	read_at(&l, "/user.slice/user-1000.slice/session-2.scope", &d, &r);
	CHECK(d.states1 >= 0 && d.mem1 < 0 && d.cpu1 < 0);
	CHECK(r.mem.version == 0 && !r.mem.max.have && !r.mem.current.have);
	cgdirs_close(&d);

	/* v1 pressure files of cpuacct's hierarchy (with cpu here) */
	cgdirs_read_psi(&l, "/user.slice", &p);
	CHECK(p.line[PSI_CPU][PSI_SOME].total_us == 300000);
	CHECK(p.line[PSI_MEMORY][PSI_SOME].total_us == 600000);
	CHECK(p.line[PSI_IO][PSI_FULL].total_us == 20000);
	cgdirs_read_psi(&l, "/user.slice/user-1000.slice", &p);
	CHECK(!p.line[PSI_CPU][PSI_SOME].present &&
	      !p.line[PSI_MEMORY][PSI_SOME].present);
}

/* A process's own cgroups, from the text of its /proc/PID/cgroup. */
static void test_task(void)
{
	struct cg_layout l;
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct evidence_reading r;
	const struct cgtable_members *m[3];
	struct cgtable *t;
	char *pc = unit_fixture("cgroup/proc-cgroup-hybrid", NULL);

	layout("cgroup/mountinfo-hybrid", "hybrid", &l);
	cgdirs_open_task(&l, pc, &d);
	CHECK(d.cg2 >= 0 && d.cpu1 >= 0 && d.cpuacct1 >= 0 && d.mem1 >= 0 &&
	      d.blkio1 >= 0);
	/* the tree is v2: its task states are counted in its v2 cgroup */
	CHECK(d.states1 < 0 && !d.no_states);
	read_all(&d, &r);
	CHECK(r.cpu.version == 1 && r.cpu.quota_us.v == 50000);
	CHECK(r.mem.version == 1 && r.mem.max.v == 64 * MIB);
	CHECK(r.io.version == 1 && r.io.ndev == 1);
	cgdirs_close(&d);
	CHECK(d.cg2 < 0 && d.states1 < 0 && d.cpu1 < 0);

	/*
	 * in the v2 root and the memory and blkio roots: nothing of them,
	 * never the roots' figures (the machine's); its cpu cgroup's quota;
	 * no task states (its cgroup of the tree is the root)
	 */
	d = EVIDENCE_DIRS_NONE;
	cgdirs_open_task(&l, "8:memory:/\n5:blkio:/\n4:cpu,cpuacct:" NGINX
			 "\n0::/\n", &d);
	CHECK(d.cg2 < 0 && d.mem1 < 0 && d.blkio1 < 0 && d.cpu1 >= 0);
	CHECK(d.states1 < 0 && d.no_states);
	read_all(&d, &r);
	CHECK(r.mem.version == 0 && !r.mem.max.have);
	CHECK(r.io.version == 0 && r.io.ndev == 0);
	CHECK(r.cpu.version == 1 && r.cpu.quota_us.v == 50000);
	CHECK(r.states.source == CGSTATS_NONE);
	cgdirs_close(&d);

	/*
	 * in a memory cgroup of its own but the blkio root and a v2 unit:
	 * the memory cgroup's figures, no IO figures, and its task states
	 * counted in the unit (not asked of the memory cgroup)
	 */
	d = EVIDENCE_DIRS_NONE;
	cgdirs_open_task(&l, "8:memory:" NGINX "\n5:blkio:/\n4:cpu,cpuacct:/"
			 "\n1:name=systemd:/\n0::" NGINX "\n", &d);
	CHECK(d.cg2 >= 0 && d.mem1 >= 0 && d.blkio1 < 0 && d.cpu1 < 0 &&
	      d.cpuacct1 < 0);
	CHECK(d.states1 < 0 && !d.no_states);
	read_all(&d, &r);
	CHECK(r.mem.version == 1 && r.mem.max.v == 64 * MIB);
	CHECK(r.io.ndev == 0);
	cgdirs_close(&d);

	/* three processes of nginx.service: its cgroups read once */
	if (!(t = cgtable_new(&l)))
		exit(99);
	for (int i = 0; i < 3; i++)
		m[i] = cgtable_members_read(t, NULL, -1, pc, 1, 0);
	CHECK(m[0] && m[1] == m[0] && m[2] == m[0]);
	CHECK_EQ_U(cgtable_reads(t), 1);
	if (m[0])
		CHECK(m[0]->cur.cpu.quota_us.v == 50000 &&
		      m[0]->cur.mem.max.v == 64 * MIB &&
		      m[0]->cur.cpu.nr_throttled.v == 180);
	cgtable_free(t);
	free(pc);
}

/* A process's own cgroups on a v1 tree: states of its name=systemd one. */
static void test_task_v1(void)
{
	struct cg_layout l;
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct evidence_reading r;

	layout("cgroup/mountinfo-v1", "v1", &l);
	cgdirs_open_task(&l, "3:memory:/user.slice\n2:cpu,cpuacct:/user.slice"
			 "\n1:name=systemd:/user.slice/user-1000.slice/"
			 "session-2.scope\n", &d);
	CHECK(d.cpu1 >= 0 && d.mem1 >= 0 && d.cg2 < 0);
	CHECK(d.states1 >= 0 && d.states1 != d.cpu1 && d.states1 != d.mem1);
	read_all(&d, &r);
	CHECK(r.mem.version == 1 && r.mem.max.v == 1024 * MIB);
	cgdirs_close(&d);

	/* in the tree's root: no task states */
	d = EVIDENCE_DIRS_NONE;
	cgdirs_open_task(&l, "3:memory:/user.slice\n1:name=systemd:/\n", &d);
	CHECK(d.states1 < 0 && d.no_states && d.mem1 >= 0 && d.cpu1 < 0);
	cgdirs_close(&d);
}

/* The cgroup table on the hybrid tree: names and v2 pressure. */
static void test_table(void)
{
	struct cg_layout l;
	struct row rows[2];
	struct cgroup_row *out;
	size_t n;

	layout("cgroup/mountinfo-hybrid", "hybrid", &l);
	struct cgtable *t = cgtable_new(&l);
	CHECK(t != NULL);
	if (!t)
		return;
	memset(rows, 0, sizeof(rows));
	rows[0].pid = 100;
	rows[0].cgroup = NGINX;
	rows[1].pid = 1;
	rows[1].cgroup = "/init.scope";
	CHECK(cgtable_build(t, rows, 2, NULL, 0, 1.0, NULL, &out, &n) == 0);
	CHECK(n == 4);
	for (size_t i = 0; i < n; i++) {
		const char *want = !strcmp(out[i].path, "/") ? "/" :
				   !strcmp(out[i].path, "/system.slice") ?
				   "system.slice" :
				   !strcmp(out[i].path, NGINX) ? "nginx.service" :
				   "init.scope";
		CHECK_STR(out[i].name, want);
		if (!strcmp(out[i].path, NGINX))
			CHECK(out[i].have_psi &&
			      out[i].psi.s[PSI_MEMORY][PSI_SOME].present);
		if (!strcmp(out[i].path, "/init.scope"))
			CHECK(!out[i].have_psi);
	}
	cgtable_free(t);
}

/*
 * A process's allowed CPUs read already (its context's status): taken as
 * they are, its directory not opened for them where they are all the
 * CPUs online; where fewer, its threads counted there (the fixture: 1 of
 * 2, 3 threads, 2 runnable), as a read of its status does.
 */
static void test_task_cpus(void)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct evidence_reading sys, r, whole;
	struct taskev_cpu all, one;
	int pid = kval_open_dir(-1, FIXTURES "/evidence/pid");

	CHECK(pid >= 0);
	memset(&sys, 0, sizeof(sys));
	sys.load.cpus_online = (struct kval){ .have = true, .v = 2 };
	taskev_parse_cpu("Cpus_allowed_list:\t0-1\n", &all);
	taskev_parse_cpu("Cpus_allowed_list:\t0\n", &one);
	CHECK(all.allowed_cpus.have && all.allowed_cpus.v == 2);
	CHECK(!all.threads.have && !one.threads.have);

	d.want = EVIDENCE_WANT(EVIDENCE_CPU);
	CHECK(evidence_read_task_dir_wanted(&d, &sys));   /* nothing read yet */
	d.tcpu = &all;
	CHECK(!evidence_read_task_dir_wanted(&d, &sys));
	evidence_read_task(&d, &sys, &r);
	CHECK(r.tcpu.allowed_cpus.have && r.tcpu.allowed_cpus.v == 2);
	CHECK(!strcmp(r.tcpu.allowed_list, "0-1") && !r.tcpu.threads.have);
	d.want |= EVIDENCE_WANT(EVIDENCE_IO);
	CHECK(evidence_read_task_dir_wanted(&d, &sys));

	/* pinned: counted below its directory, as a read of it counts */
	d.want = EVIDENCE_WANT(EVIDENCE_CPU);
	d.tcpu = &one;
	CHECK(evidence_read_task_dir_wanted(&d, &sys));
	d.pid = pid;
	evidence_read_task(&d, &sys, &r);
	d.tcpu = NULL;
	evidence_read_task(&d, &sys, &whole);
	CHECK(r.tcpu.allowed_cpus.have && r.tcpu.allowed_cpus.v == 1);
	CHECK(r.tcpu.threads.have && r.tcpu.threads.v == 3);
	CHECK(r.tcpu.runnable_threads.have && r.tcpu.runnable_threads.v == 2);
	CHECK(!memcmp(&r.tcpu, &whole.tcpu, sizeof(r.tcpu)));
	close(pid);
}

/*
 * A process's IO read already this round (with its context): taken as
 * it is, its directory not opened for it; without it, read below its
 * directory (the fixture's io), the same reading as its context makes.
 */
static void test_task_io(void)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct evidence_reading sys, r, read;
	struct taskev_io ctx;
	int pid = kval_open_dir(-1, FIXTURES "/evidence/pid");

	CHECK(pid >= 0);
	memset(&sys, 0, sizeof(sys));
	taskev_read_io(pid, &ctx);
	CHECK(ctx.read_bytes.have && ctx.read_bytes.v == 1459200);
	CHECK(ctx.rchar.have && ctx.rchar.v == 6976000);

	d.want = EVIDENCE_WANT(EVIDENCE_IO);
	CHECK(evidence_read_task_dir_wanted(&d, &sys));   /* nothing read yet */
	d.tio = &ctx;
	CHECK(!evidence_read_task_dir_wanted(&d, &sys));
	evidence_read_task(&d, &sys, &r);
	CHECK(!memcmp(&r.tio, &ctx, sizeof(ctx)));

	/* not read with its context: read below its directory */
	d.tio = NULL;
	d.pid = pid;
	evidence_read_task(&d, &sys, &read);
	CHECK(!memcmp(&read.tio, &ctx, sizeof(ctx)));
	/* nor wanted: not read at all */
	d.want = EVIDENCE_WANT(EVIDENCE_CPU);
	d.tcpu = NULL;
	evidence_read_task(&d, &sys, &read);
	CHECK(!read.tio.read_bytes.have && !read.tio.rchar.have);
	close(pid);
}

int main(void)
{
	test_v2();
	test_hybrid();
	test_v1();
	test_task();
	test_task_v1();
	test_task_cpus();
	test_task_io();
	test_table();
	return unit_done();
}
