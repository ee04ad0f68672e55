/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup layouts (cg_layout.c) of saved mountinfo files
 * (tests/fixtures/cgroup): pure v2, hybrid (cpu and cpuacct apart), v1
 * (cpu,cpuacct together, name=systemd), v1 seen from inside a container
 * (mounts of a part of each hierarchy, no name=systemd), escaped mount
 * points, none at all. For each: the kind, the tree, each hierarchy's
 * mount; a task's path in the tree from saved /proc/PID/cgroup files;
 * the directory of a tree path in each hierarchy, and of a task's own
 * cgroup. Then the running system: every hierarchy found is mounted
 * where it says, of the file system it says, and this process's path in
 * the tree is a directory of it.
 */
#include <config.h>

#include <errno.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "unit.h"

#define ID "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7a8"
#define NGINX "/system.slice/nginx.service"

static int parse(const char *fixture, struct cg_layout *l)
{
	char *text = unit_fixture(fixture, NULL);
	int ret = cg_layout_parse(text, l);

	free(text);
	return ret;
}

/* The hierarchies' and layouts' names, for the messages. */
static const char *const hier_name[NCG_HIER] = {
	"cgroup2", "name=systemd", "cpu", "cpuacct", "memory", "blkio", "pids",
};
static const char *const kind_name[] = { "none", "v2", "hybrid", "v1" };

static void check_mount(const struct cg_layout *l, enum cg_hier h,
			const char *dir, const char *root)
{
	unit_checks++;
	if (strcmp(l->m[h].dir, dir) != 0 || strcmp(l->m[h].root, root) != 0) {
		unit_failures++;
		fprintf(stderr, "hierarchy \"%s\": mounted at \"%s\" (root "
			"\"%s\"), expected \"%s\" (\"%s\")\n",
			hier_name[h], l->m[h].dir, l->m[h].root, dir,
			root);
	}
}

static void test_kinds(void)
{
	struct cg_layout l;

	CHECK(parse("cgroup/mountinfo-v2", &l) == 0);
	CHECK(l.kind == CG_LAYOUT_V2 && l.tree == CG_HIER_V2);
	check_mount(&l, CG_HIER_V2, "/sys/fs/cgroup", "/");
	for (int h = CG_HIER_SYSTEMD; h < NCG_HIER; h++)
		check_mount(&l, (enum cg_hier)h, "", "");

	CHECK(parse("cgroup/mountinfo-hybrid", &l) == 0);
	CHECK(l.kind == CG_LAYOUT_HYBRID && l.tree == CG_HIER_V2);
	check_mount(&l, CG_HIER_V2, "/sys/fs/cgroup/unified", "/");
	check_mount(&l, CG_HIER_SYSTEMD, "/sys/fs/cgroup/systemd", "/");
	check_mount(&l, CG_HIER_CPU, "/sys/fs/cgroup/cpu", "/");
	check_mount(&l, CG_HIER_CPUACCT, "/sys/fs/cgroup/cpuacct", "/");
	check_mount(&l, CG_HIER_MEMORY, "/sys/fs/cgroup/memory", "/");
	check_mount(&l, CG_HIER_BLKIO, "/sys/fs/cgroup/blkio", "/");
	check_mount(&l, CG_HIER_PIDS, "/sys/fs/cgroup/pids", "/");

	/* cpu,cpuacct is one hierarchy; the tmpfs named cgroup2 is not v2 */
	CHECK(parse("cgroup/mountinfo-v1", &l) == 0);
	CHECK(l.kind == CG_LAYOUT_V1 && l.tree == CG_HIER_SYSTEMD);
	check_mount(&l, CG_HIER_V2, "", "");
	check_mount(&l, CG_HIER_SYSTEMD, "/sys/fs/cgroup/systemd", "/");
	check_mount(&l, CG_HIER_CPU, "/sys/fs/cgroup/cpu,cpuacct", "/");
	check_mount(&l, CG_HIER_CPUACCT, "/sys/fs/cgroup/cpu,cpuacct", "/");
	check_mount(&l, CG_HIER_MEMORY, "/sys/fs/cgroup/memory", "/");
	check_mount(&l, CG_HIER_BLKIO, "", "");

	/* no name=systemd: the cpu hierarchy is the tree */
	CHECK(parse("cgroup/mountinfo-v1-container", &l) == 0);
	CHECK(l.kind == CG_LAYOUT_V1 && l.tree == CG_HIER_CPU);
	check_mount(&l, CG_HIER_CPU, "/sys/fs/cgroup/cpu,cpuacct", "/docker/" ID);
	check_mount(&l, CG_HIER_MEMORY, "/sys/fs/cgroup/memory", "/docker/" ID);

	CHECK(parse("cgroup/mountinfo-escaped", &l) == 0);
	CHECK(l.kind == CG_LAYOUT_V2);
	check_mount(&l, CG_HIER_V2, "/srv/my cgroups\tv2\\x", "/");

	/* nothing to make a tree of: no hierarchy, or only memory */
	errno = 0;
	CHECK(cg_layout_parse("27 1 254:0 / / rw - ext4 /dev/vda rw\n", &l) == -1);
	CHECK(errno == ENOENT && l.kind == CG_LAYOUT_NONE);
	CHECK(cg_layout_parse("35 31 0:32 / /m rw - cgroup cgroup rw,memory\n",
			      &l) == -1);
	CHECK(cg_layout_parse("", &l) == -1);
	CHECK(cg_layout_parse(NULL, &l) == -1);

}

static void check_path(const char *mountinfo, const char *proc_cgroup,
		       const char *want)
{
	struct cg_layout l;
	char *pc = unit_fixture(proc_cgroup, NULL), path[4096];
	int ret;

	CHECK(parse(mountinfo, &l) == 0);
	ret = cg_layout_task_path(&l, pc, path, sizeof(path));
	unit_checks++;
	if (want ? ret != 0 || strcmp(path, want) != 0 : ret != -1) {
		unit_failures++;
		fprintf(stderr, "%s with %s: %d \"%s\", expected %s\n",
			mountinfo, proc_cgroup, ret, ret == 0 ? path : "",
			want ? want : "none");
	}
	free(pc);
}

static void test_task_paths(void)
{
	check_path("cgroup/mountinfo-hybrid", "cgroup/proc-cgroup-hybrid", NGINX);
	check_path("cgroup/mountinfo-v2", "cgroup/proc-cgroup-v2",
		   "/user.slice/user-1000.slice/user@1000.service/app.slice/"
		   "app-org.gnome.Terminal.slice/vte-spawn-1a2b.scope");
	/* v1: the name=systemd line, not memory's or cpu's */
	check_path("cgroup/mountinfo-v1", "cgroup/proc-cgroup-v1",
		   "/user.slice/user-1000.slice/session-2.scope");
	/* the cpu line, below the part of the hierarchy mounted */
	check_path("cgroup/mountinfo-v1-container",
		   "cgroup/proc-cgroup-v1-container", "/worker");
	/* a v2 tree but no 0:: line */
	check_path("cgroup/mountinfo-hybrid", "cgroup/proc-cgroup-v1", NULL);

	struct cg_layout l;
	char path[4096];

	CHECK(parse("cgroup/mountinfo-v1-container", &l) == 0);
	/* outside the mounted part, or climbing out of it */
	CHECK(cg_layout_task_path(&l, "2:cpu,cpuacct:/docker/other\n", path,
				  sizeof(path)) == -1);
	CHECK(cg_layout_task_path(&l, "2:cpu,cpuacct:/docker/" ID "x\n", path,
				  sizeof(path)) == -1);
	CHECK(cg_layout_task_path(&l, "2:cpu,cpuacct:/docker/" ID "\n", path,
				  sizeof(path)) == 0);
	CHECK_STR(path, "/");
	CHECK(parse("cgroup/mountinfo-v2", &l) == 0);
	CHECK(cg_layout_task_path(&l, "0::/../../x\n", path, sizeof(path)) == -1);
	CHECK(cg_layout_task_path(&l, "0::/a/..\n", path, sizeof(path)) == -1);
	CHECK(cg_layout_task_path(&l, "0::/a/..b\n", path, sizeof(path)) == 0);
	CHECK_STR(path, "/a/..b");
	/* a path that does not fit is no path */
	CHECK(cg_layout_task_path(&l, "0::/abcdef\n", path, 7) == -1);
	CHECK(cg_layout_task_path(&l, "0::/abcdef\n", path, 8) == 0);
	CHECK(cg_layout_task_path(NULL, "0::/a\n", path, sizeof(path)) == -1);
}

static void check_dir(const struct cg_layout *l, enum cg_hier h,
		      const char *path, const char *want)
{
	char dir[4096];
	int ret = cg_layout_dir(l, h, path, dir, sizeof(dir));

	unit_checks++;
	if (want ? ret != 0 || strcmp(dir, want) != 0 : ret != -1) {
		unit_failures++;
		fprintf(stderr, "%s of %s: %d \"%s\", expected %s\n",
			hier_name[h],
			path, ret, ret == 0 ? dir : "", want ? want : "none");
	}
}

static void test_dirs(void)
{
	struct cg_layout l;
	char dir[4096];
	int at_root = -1;

	CHECK(parse("cgroup/mountinfo-hybrid", &l) == 0);
	check_dir(&l, CG_HIER_V2, NGINX, "/sys/fs/cgroup/unified" NGINX);
	check_dir(&l, CG_HIER_MEMORY, NGINX, "/sys/fs/cgroup/memory" NGINX);
	check_dir(&l, CG_HIER_CPUACCT, NGINX, "/sys/fs/cgroup/cpuacct" NGINX);
	check_dir(&l, CG_HIER_MEMORY, "/", "/sys/fs/cgroup/memory");
	check_dir(&l, CG_HIER_V2, "/", "/sys/fs/cgroup/unified");
	check_dir(&l, CG_HIER_MEMORY, "/a/../b", NULL);
	check_dir(&l, CG_HIER_MEMORY, "relative", NULL);
	CHECK(cg_layout_dir(&l, CG_HIER_MEMORY, NGINX, dir, 30) == -1);

	CHECK(parse("cgroup/mountinfo-v2", &l) == 0);
	check_dir(&l, CG_HIER_MEMORY, NGINX, NULL);
	check_dir(&l, CG_HIER_V2, NGINX, "/sys/fs/cgroup" NGINX);

	CHECK(parse("cgroup/mountinfo-v1", &l) == 0);
	check_dir(&l, CG_HIER_V2, "/user.slice", NULL);
	check_dir(&l, CG_HIER_CPU, "/user.slice", "/sys/fs/cgroup/cpu,cpuacct/user.slice");
	check_dir(&l, CG_HIER_SYSTEMD, "/", "/sys/fs/cgroup/systemd");

	/* tree paths are of the mounted part; so are the others' */
	CHECK(parse("cgroup/mountinfo-v1-container", &l) == 0);
	check_dir(&l, CG_HIER_MEMORY, "/worker", "/sys/fs/cgroup/memory/worker");
	check_dir(&l, CG_HIER_MEMORY, "/", "/sys/fs/cgroup/memory");

	/* a task's own cgroup of each hierarchy */
	char *pc = unit_fixture("cgroup/proc-cgroup-v1-container", NULL);
	CHECK(cg_layout_task_dir(&l, CG_HIER_MEMORY, pc, dir, sizeof(dir),
				 &at_root) == 0);
	CHECK_STR(dir, "/sys/fs/cgroup/memory");
	CHECK(at_root == 0);
	CHECK(cg_layout_task_dir(&l, CG_HIER_CPUACCT, pc, dir, sizeof(dir),
				 NULL) == 0);
	CHECK_STR(dir, "/sys/fs/cgroup/cpu,cpuacct/worker");
	CHECK(cg_layout_task_dir(&l, CG_HIER_BLKIO, pc, dir, sizeof(dir),
				 NULL) == -1);
	CHECK(cg_layout_task_dir(&l, CG_HIER_MEMORY, "4:memory:/other\n", dir,
				 sizeof(dir), NULL) == -1);
	free(pc);

	CHECK(parse("cgroup/mountinfo-v1", &l) == 0);
	pc = unit_fixture("cgroup/proc-cgroup-v1", NULL);
	CHECK(cg_layout_task_dir(&l, CG_HIER_MEMORY, pc, dir, sizeof(dir),
				 &at_root) == 0);
	CHECK_STR(dir, "/sys/fs/cgroup/memory/user.slice");
	CHECK(cg_layout_task_dir(&l, CG_HIER_V2, pc, dir, sizeof(dir),
				 NULL) == -1);
	free(pc);
	CHECK(cg_layout_task_dir(&l, CG_HIER_MEMORY, "11:memory:/\n", dir,
				 sizeof(dir), &at_root) == 0);
	CHECK_STR(dir, "/sys/fs/cgroup/memory");
	CHECK(at_root == 1);
}

/* statfs f_type (linux/magic.h) */
#define CG2_MAGIC 0x63677270UL
#define CG1_MAGIC 0x27e0ebUL

static void test_live(void)
{
	struct cg_layout l;
	char path[4096], dir[4096];
	struct statfs sfs;
	struct stat st;

	if (cg_layout_find(&l) < 0) {
		unit_skip("no cgroup hierarchy is mounted here");
		return;
	}
	printf("this system: %s, tree %s\n", kind_name[l.kind],
	       hier_name[l.tree]);
	for (int h = 0; h < NCG_HIER; h++) {
		if (!l.m[h].dir[0])
			continue;
		printf("  %-13s %s\n", hier_name[h], l.m[h].dir);
		CHECK(statfs(l.m[h].dir, &sfs) == 0);
		CHECK((unsigned long)sfs.f_type ==
		      (h == CG_HIER_V2 ? CG2_MAGIC : CG1_MAGIC));
	}
	CHECK((l.kind == CG_LAYOUT_V2) == (l.m[CG_HIER_V2].dir[0] &&
					   !l.m[CG_HIER_MEMORY].dir[0] &&
					   !l.m[CG_HIER_CPU].dir[0]));
	/* our own place in the tree, from our /proc/PID/cgroup */
	char *text = cgroup_read_file("/proc/self/cgroup");
	CHECK(cg_layout_task_path(&l, text, path, sizeof(path)) == 0);
	free(text);
	CHECK(cg_layout_dir(&l, l.tree, path, dir, sizeof(dir)) == 0);
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
}

int main(void)
{
	test_kinds();
	test_task_paths();
	test_dirs();
	test_live();
	return unit_done();
}
