/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2: mountinfo of pure v2, hybrid (a real one), v1-only and
 * escaped mount points; /proc/PID/cgroup texts; path normalisation and
 * containment; pressure files of a fixture tree; the text output's cgroup
 * block. Then live: the real hierarchy's root, cgroup_check_path's errors,
 * and (as root) a child cgroup with a process moved into it. Without a
 * cgroup v2 hierarchy or root the live part cannot run: the test then
 * ends as skipped (77) and says why.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/cgroup.h"
#include "kernel/psi.h"
#include "lib/cgroup_parse.h"
#include "unit.h"
#include "view/output.h"

/* The cgroup2 mount point in a mountinfo text; 0 or -1. */
static int v2_root(const char *text, char *root, size_t size)
{
	return cgroup_parse_mountinfo_v2(text, root, size, NULL, 0);
}

static int parse_fixture(const char *name, char *root, size_t size)
{
	char *text = unit_fixture(name, NULL);
	int ret = v2_root(text, root, size);

	free(text);
	return ret;
}

static void test_mountinfo(void)
{
	char root[4096];

	CHECK(parse_fixture("cgroup/mountinfo-v2", root, sizeof(root)) == 0);
	CHECK_STR(root, "/sys/fs/cgroup");
	CHECK(parse_fixture("cgroup/mountinfo-hybrid", root, sizeof(root)) == 0);
	CHECK_STR(root, "/sys/fs/cgroup/unified");
	/* v1 only; a tmpfs whose source is named cgroup2 does not count. */
	CHECK(parse_fixture("cgroup/mountinfo-v1", root, sizeof(root)) == -1);
	/*
	 * \040 \011 \134 decoded, optional fields skipped; the decoy with
	 * " - cgroup2 " in its mount point is a tmpfs.
	 */
	CHECK(parse_fixture("cgroup/mountinfo-escaped", root, sizeof(root)) == 0);
	CHECK_STR(root, "/srv/my cgroups\tv2\\x");
	/* The first one does not fit: not silently the second instead. */
	CHECK(parse_fixture("cgroup/mountinfo-escaped", root, 16) == -1);

	/* Too small for the mount point: not a silently cut path. */
	CHECK(parse_fixture("cgroup/mountinfo-v2", root, 10) == -1);
	CHECK(parse_fixture("cgroup/mountinfo-v2", root, 15) == 0);
	CHECK(parse_fixture("cgroup/mountinfo-v2", root, 14) == -1);

	/* Broken lines: no separator, no type after it, nothing at all. */
	CHECK(v2_root("41 31 0:38 / /x rw cgroup2 cgroup2 rw\n", root,
		      sizeof(root)) == -1);
	CHECK(v2_root("41 31 0:38 / /x rw -\n", root, sizeof(root)) == -1);
	CHECK(v2_root("41 31 0:38 / /x rw - cgroup2x c rw\n", root,
		      sizeof(root)) == -1);
	CHECK(v2_root("", root, sizeof(root)) == -1);
	CHECK(v2_root(NULL, root, sizeof(root)) == -1);
	/* Last line without a newline, a trailing backslash kept. */
	CHECK(v2_root("1 2 0:1 / / rw - ext4 x rw\n"
		      "41 31 0:38 / /cg\\04 rw - cgroup2 c rw", root,
		      sizeof(root)) == 0);
	CHECK_STR(root, "/cg\\04");
}

static void test_proc_cgroup(void)
{
	char path[4096], *text;

	text = unit_fixture("cgroup/proc-cgroup-v2", NULL);
	CHECK(cgroup_parse_proc_cgroup(text, path, sizeof(path)) == 0);
	CHECK_STR(path, "/user.slice/user-1000.slice/user@1000.service/"
		  "app.slice/app-org.gnome.Terminal.slice/vte-spawn-1a2b.scope");
	CHECK(cgroup_parse_proc_cgroup(text, path, 20) == -1);
	free(text);

	text = unit_fixture("cgroup/proc-cgroup-hybrid", NULL);
	CHECK(cgroup_parse_proc_cgroup(text, path, sizeof(path)) == 0);
	CHECK_STR(path, "/system.slice/nginx.service");
	free(text);

	text = unit_fixture("cgroup/proc-cgroup-v1", NULL);
	CHECK(cgroup_parse_proc_cgroup(text, path, sizeof(path)) == -1);
	free(text);

	/* This machine's hybrid shape: v1 lines, v2 at the root. */
	CHECK(cgroup_parse_proc_cgroup("4:memory:/a/b\n1:cpu:/\n0::/\n", path,
				   sizeof(path)) == 0);
	CHECK_STR(path, "/");
	/* A colon in a cgroup name; no newline at the end. */
	CHECK(cgroup_parse_proc_cgroup("0::/a:b/c", path, sizeof(path)) == 0);
	CHECK_STR(path, "/a:b/c");
	/* "10::" is not "0::"; a v2 line must hold an absolute path. */
	CHECK(cgroup_parse_proc_cgroup("10::/x\n0::\n", path, sizeof(path)) == -1);
	CHECK(cgroup_parse_proc_cgroup("", path, sizeof(path)) == -1);
}

static void test_read_psi(void)
{
	struct psi_reading r;
	const char *root = FIXTURES "/cgroup/tree";

	/* The root of this machine: no irq.pressure. */
	psi_read_dir(root, ".pressure", &r);
	CHECK(r.when > 0);
	CHECK(r.line[PSI_CPU][PSI_SOME].present);
	CHECK_EQ_U(r.line[PSI_CPU][PSI_SOME].total_us, 1412951404);
	CHECK(r.line[PSI_CPU][PSI_SOME].avg10 == 13.77);
	CHECK(r.line[PSI_MEMORY][PSI_FULL].present);
	CHECK_EQ_U(r.line[PSI_MEMORY][PSI_FULL].total_us, 19299604);
	CHECK(r.line[PSI_IO][PSI_SOME].present);
	CHECK(!r.line[PSI_IRQ][PSI_SOME].present);
	CHECK(!r.line[PSI_IRQ][PSI_FULL].present);

	/* A child with all four files. */
	psi_read_dir(FIXTURES "/cgroup/tree/load.slice", ".pressure", &r);
	CHECK_EQ_U(r.line[PSI_CPU][PSI_SOME].total_us, 987654321);
	CHECK(r.line[PSI_CPU][PSI_SOME].avg10 == 92.5);
	CHECK_EQ_U(r.line[PSI_CPU][PSI_FULL].total_us, 4242);
	CHECK_EQ_U(r.line[PSI_MEMORY][PSI_SOME].total_us, 12);
	CHECK_EQ_U(r.line[PSI_IO][PSI_FULL].total_us, 4444);
	CHECK(!r.line[PSI_IRQ][PSI_SOME].present);
	CHECK(r.line[PSI_IRQ][PSI_FULL].present);
	CHECK_EQ_U(r.line[PSI_IRQ][PSI_FULL].total_us, 77);

	/* A cgroup that went away: everything absent. */
	psi_read_dir(FIXTURES "/cgroup/tree/gone", ".pressure", &r);
	for (int i = 0; i < NPSI; i++)
		for (int k = 0; k < NPSI_KIND; k++)
			CHECK(!r.line[i][k].present);
}

/* cgroup_check_path's normalisation and errors that need no cgroup2. */
static void test_check_offline(void)
{
	char norm[64];
	const char *root = FIXTURES "/cgroup/tree";

	errno = 0;
	CHECK(cgroup_check_path(root, "/a/../b", norm, sizeof(norm)) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(cgroup_check_path(root, "..", norm, sizeof(norm)) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(cgroup_check_path(root, "", norm, sizeof(norm)) == -1);
	CHECK(errno == EINVAL);
	/* "..." and "..x" are names, not the parent. */
	errno = 0;
	CHECK(cgroup_check_path(root, "/.../..x", norm, sizeof(norm)) == -1);
	CHECK(errno == ENOENT);
	CHECK_STR(norm, "/.../..x");
	/* Exists and is a directory, but not on cgroup2. */
	errno = 0;
	CHECK(cgroup_check_path(root, "//./load.slice//", norm, sizeof(norm)) == -1);
	CHECK(errno == EMEDIUMTYPE);
	CHECK_STR(norm, "/load.slice");
	errno = 0;
	CHECK(cgroup_check_path(root, "load.slice/cpu.pressure", norm,
			    sizeof(norm)) == -1);
	CHECK(errno == ENOTDIR);
	errno = 0;
	CHECK(cgroup_check_path(root, "/load.slice", norm, 8) == -1);
	CHECK(errno == ENAMETOOLONG);
	errno = 0;
	CHECK(cgroup_check_path(root, "/./", norm, sizeof(norm)) == -1);
	CHECK(errno == EMEDIUMTYPE);
	CHECK_STR(norm, "/");
}

/* The batch text's cgroup block, against tests/fixtures/cgroup/sample.txt. */
static void test_text(void)
{
	struct cgroup_row g[3];
	struct sample s;
	char *got = NULL, *want;
	size_t n = 0;
	FILE *f;

	memset(g, 0, sizeof(g));
	g[0] = (struct cgroup_row){ .path = "/", .name = "/", .depth = 0,
				    .have_psi = true,
				    .total_pct = 2.5, .nr_tasks = 12 };
	g[0].psi.s[PSI_CPU][PSI_SOME] = (struct psi_stat){ true, 3.1, 2, 1, 100, true, 4.04 };
	g[0].psi.s[PSI_MEMORY][PSI_SOME] = (struct psi_stat){ true, 0, 0, 0, 5, true, 0 };
	g[0].psi.s[PSI_IO][PSI_SOME] = (struct psi_stat){ true, 0.25, 0, 0, 7, false, 0 };
	g[0].d[CAT_CPU] = (struct cat_figure){ .avail = true, .pct = 2.5 };
	g[0].d[CAT_IO] = (struct cat_figure){ .avail = true, .pct = 0 };
	g[1] = (struct cgroup_row){ .path = "/load.slice",
				    .name = "pod 1c4e2f0a-5b6c-4d7e-8f90-a1b2c3d4e5f6 "
					    "(Burstable)", .depth = 1,
				    .have_psi = true, .total_pct = 129.8,
				    .nr_tasks = 3 };
	g[1].psi.s[PSI_CPU][PSI_SOME] = (struct psi_stat){ true, 92.5, 40, 10, 1, true, 97.25 };
	g[1].psi.s[PSI_MEMORY][PSI_SOME] = (struct psi_stat){ true, 0, 0, 0, 0, true, 0 };
	g[1].d[CAT_CPU] = (struct cat_figure){ .avail = true, .pct = 129.8 };
	g[1].d[CAT_IO] = (struct cat_figure){ .avail = true, .pct = 0 };
	/* Gone between listing and reading: no psi at all; hostile name. */
	g[2] = (struct cgroup_row){ .path = "/load.slice/\x1b[2Jx y",
				    .name = "\x1b[2Jx y",
				    .depth = 2, .have_psi = false,
				    .total_pct = 0, .nr_tasks = 0 };

	memset(&s, 0, sizeof(s));
	s.time = 1763740000.123;
	s.interval = 1.002;
	s.delayacct = s.delayacct_known = true;
	s.ts_version = 16;
	s.nprocs = 15;
	s.trigger = "cpu some 50ms/1s";
	s.cgroups = g;
	s.ncgroups = 3;
	s.psi.s[PSI_CPU][PSI_SOME] = (struct psi_stat){ true, 13.77, 18.71, 61.41, 1, true, 15 };

	f = open_memstream(&got, &n);
	if (!f)
		exit(99);
	out_text(f, NULL, &s);
	fclose(f);
	want = unit_fixture("cgroup/sample.txt", NULL);
	unit_checks++;
	if (strcmp(got, want) != 0) {
		unit_failures++;
		fprintf(stderr, "text differs; got:\n%s\nexpected:\n%s\n", got,
			want);
	}
	CHECK(strchr(got, 0x1b) == NULL);
	free(got);
	free(want);

	/* An empty list still says what it is: header, no rows. */
	s.ncgroups = 0;
	s.trigger = NULL;
	got = NULL;
	f = open_memstream(&got, &n);
	if (!f)
		exit(99);
	out_text(f, NULL, &s);
	fclose(f);
	CHECK(strstr(got, "Cgroups (PSI some%, avg10):\n") != NULL);
	CHECK(strstr(got, " PATH\n\n") != NULL);
	CHECK(strstr(got, "trigger") == NULL);
	free(got);
}

/* The cgroup2 mount point of this system; 0 or -1. */
static int find_root(char *root, size_t size)
{
	char *text = cgroup_read_file("/proc/self/mountinfo");
	int ret = v2_root(text, root, size);

	free(text);
	return ret;
}

/* A task's v2 path as its /proc/PID/cgroup says; 0 or -1. */
static int task_path(pid_t pid, char *path, size_t size)
{
	char file[64], *text;
	int ret;

	snprintf(file, sizeof(file), "/proc/%ld/cgroup", (long)pid);
	text = cgroup_read_file(file);
	ret = cgroup_parse_proc_cgroup(text, path, size);
	free(text);
	return ret;
}

/* The live hierarchy: found, its root checks out, errors are right. */
static void test_live(void)
{
	char root[4096], norm[4096], path[4096];
	struct psi_reading r;

	if (find_root(root, sizeof(root)) < 0) {
		unit_skip("no cgroup v2 hierarchy is mounted here (none in "
			  "/proc/self/mountinfo): the live checks cannot run");
		return;
	}
	printf("cgroup2 root: %s\n", root);
	CHECK(cgroup_check_path(root, "/", norm, sizeof(norm)) == 0);
	CHECK_STR(norm, "/");
	errno = 0;
	CHECK(cgroup_check_path(root, "/stalltop-no-such-cgroup", norm,
			    sizeof(norm)) == -1);
	CHECK(errno == ENOENT);
	errno = 0;
	CHECK(cgroup_check_path(root, "/../..", norm, sizeof(norm)) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(cgroup_check_path(root, "/cgroup.procs", norm, sizeof(norm)) == -1);
	CHECK(errno == ENOTDIR);
	/* The file system above the hierarchy is not cgroup2. */
	errno = 0;
	CHECK(cgroup_check_path("/", "/proc", norm, sizeof(norm)) == -1);
	CHECK(errno == EMEDIUMTYPE);

	/* Our own cgroup, as the kernel says it, exists. */
	CHECK(task_path(getpid(), path, sizeof(path)) == 0);
	CHECK(path[0] == '/');
	CHECK(cgroup_check_path(root, path, norm, sizeof(norm)) == 0);
	CHECK(task_path((pid_t)0x3fffffff, path, sizeof(path)) == -1);

	/* The root's pressure files (cgroup2 has them unless psi=0). */
	psi_read_dir(root, ".pressure", &r);
	if (access("/proc/pressure/cpu", F_OK) == 0)
		CHECK(r.line[PSI_CPU][PSI_SOME].present);
}

/*
 * As root: a child cgroup, a process moved into it, its path seen through
 * /proc/PID/cgroup and its pressure files read. Removed afterwards.
 */
static void test_live_child(void)
{
	char root[4096], dir[4200], procs[4300], want[64], norm[4096];
	char path[4096], messy[80];
	struct psi_reading r;
	FILE *f;
	pid_t child;

	if (find_root(root, sizeof(root)) < 0)
		return;
	if (geteuid() != 0) {
		unit_skip("not root: cannot create a cgroup for the child checks");
		return;
	}
	if (access(root, W_OK) != 0) {
		printf("%s: %s\n", root, strerror(errno));
		unit_skip("the cgroup v2 root is not writable here (a read-only "
			  "mount): the child checks cannot run");
		return;
	}
	snprintf(want, sizeof(want), "/stalltop-unit-%ld", (long)getpid());
	snprintf(dir, sizeof(dir), "%s%s", root, want);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if (mkdir(dir, 0755) < 0) {
		/* root on a writable hierarchy: that is a failure */
		fprintf(stderr, "mkdir %s: %s\n", dir, strerror(errno));
		CHECK(!"a child cgroup could be made");
		return;
	}
	snprintf(messy, sizeof(messy), ".//%s/./", want + 1);
	CHECK(cgroup_check_path(root, messy, norm, sizeof(norm)) == 0);
	CHECK_STR(norm, want);

	child = fork();
	if (child < 0) {
		rmdir(dir);
		exit(99);
	}
	if (child == 0) {
		pause();
		_exit(0);
	}
	f = fopen(procs, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "%ld\n", (long)child);
		CHECK(fclose(f) == 0);
	}
	CHECK(task_path(child, path, sizeof(path)) == 0);
	CHECK_STR(path, want);
	psi_read_dir(dir, ".pressure", &r);   /* root + path, as just checked */
	CHECK(r.line[PSI_CPU][PSI_SOME].present);
	CHECK(r.line[PSI_MEMORY][PSI_SOME].present);
	CHECK(r.line[PSI_IO][PSI_FULL].present);

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	/* The cgroup empties asynchronously after the exit; retry briefly. */
	for (int i = 0; i < 100 && rmdir(dir) < 0 && errno == EBUSY; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	CHECK(access(dir, F_OK) != 0);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	test_mountinfo();
	test_proc_cgroup();
	test_read_psi();
	test_check_offline();
	test_text();
	test_live();
	test_live_child();
	return unit_done();
}
