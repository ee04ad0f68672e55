/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader of small kernel files and the one /proc/PID/stat parser
 * (kernel/procfs.c): files of a scratch folder read through its
 * descriptor (whole, cut by the buffer, a cut last line dropped, NUL
 * bytes kept, missing, empty, larger than any buffer), and stat lines
 * (a command holding ") (", short lines, garbage), then this process's
 * own /proc/self/stat against the fields as proc(5) numbers them.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kernel/procfs.h"
#include "unit.h"

static char top[256];

static void put(const char *name, const char *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		exit(99);
}

static void test_read(void)
{
	const char *tmp = getenv("TMPDIR");
	char buf[16], *all;
	char big[10000];
	int dir;

	snprintf(top, sizeof(top), "%s/stalltop-procfs-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top))
		exit(99);
	put("lines", "12\n34\n56", 8);         /* last line without its end */
	put("args", "a\0bc\0", 5);             /* /proc/PID/cmdline's form */
	put("empty", "", 0);
	put("long", "0123456789abcdefghij\n", 21);
	memset(big, 'x', sizeof(big));
	for (size_t i = 99; i < sizeof(big); i += 100)
		big[i] = '\n';
	put("big", big, sizeof(big));
	dir = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dir >= 0);

	/* raw: every byte that fits, NUL-terminated after them */
	CHECK(procfs_read(dir, "lines", buf, sizeof(buf)) == 8);
	CHECK_STR(buf, "12\n34\n56");
	CHECK(procfs_read(dir, "args", buf, sizeof(buf)) == 5);
	CHECK(memcmp(buf, "a\0bc\0", 6) == 0);
	CHECK(procfs_read(dir, "long", buf, sizeof(buf)) == 15);
	CHECK_STR(buf, "0123456789abcde");
	CHECK(procfs_read(dir, "empty", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");

	/* lines: a last line without its end is dropped, never read short */
	CHECK(procfs_read_lines(dir, "lines", buf, sizeof(buf)) == 6);
	CHECK_STR(buf, "12\n34\n");
	CHECK(procfs_read_lines(dir, "long", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");

	/* errors: errno says why */
	errno = 0;
	CHECK(procfs_read(dir, "missing", buf, sizeof(buf)) == -1);
	CHECK(errno == ENOENT);
	errno = 0;
	CHECK(procfs_read_lines(dir, "lines", buf, 1) == -1);
	CHECK(errno == EINVAL);
	CHECK(procfs_read_all(dir, "missing") == NULL);

	/* the whole file, however large */
	all = procfs_read_all(dir, "big");
	CHECK(all != NULL);
	if (all) {
		CHECK_EQ_U(strlen(all), sizeof(big));
		CHECK(memcmp(all, big, sizeof(big)) == 0);
		free(all);
	}
	all = procfs_read_all(dir, "empty");
	CHECK(all && !*all);
	free(all);

	/* a file kept open reads again from its start, what it holds now */
	int kept = procfs_open(dir, "lines");
	CHECK(kept >= 0);
	CHECK(procfs_reread(kept, buf, sizeof(buf)) == 8);
	CHECK_STR(buf, "12\n34\n56");
	CHECK(procfs_reread_lines(kept, buf, sizeof(buf)) == 6);
	CHECK_STR(buf, "12\n34\n");
	put("lines", "7\n", 2);
	CHECK(procfs_reread(kept, buf, sizeof(buf)) == 2);
	CHECK_STR(buf, "7\n");
	close(kept);
	put("lines", "12\n34\n56", 8);
	kept = procfs_open(dir, "long");
	CHECK(procfs_reread(kept, buf, sizeof(buf)) == 15);
	CHECK_STR(buf, "0123456789abcde");
	CHECK(procfs_reread_lines(kept, buf, sizeof(buf)) == 0);
	close(kept);
	errno = 0;
	CHECK(procfs_open(dir, "missing") == -1 && errno == ENOENT);

	/* an absolute name reads from the root, whatever the descriptor */
	char path[512];
	snprintf(path, sizeof(path), "%s/lines", top);
	CHECK(procfs_read(-1, path, buf, sizeof(buf)) == 8);
	CHECK(procfs_read(AT_FDCWD, path, buf, sizeof(buf)) == 8);

	close(dir);
	for (const char *const *n = (const char *const[]){ "lines", "args",
		"empty", "long", "big", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", top, *n);
		unlink(path);
	}
	rmdir(top);
}

static void test_parse_stat(void)
{
	/* a real stat line, with a command holding ") (" and spaces */
	const char *line = "4242 (a) (b c) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
			   "5 6 0 0 20 0 1 0 987654 1000000 100 "
			   "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 "
			   "31 0 0 0 0 0 0 0 0 0 0\n";
	struct procfs_stat st;

	CHECK(procfs_parse_stat(line, &st) == 0);
	CHECK(st.state == 'S');
	CHECK(st.have_start && st.have_blkio);
	CHECK_EQ_U(st.start, 987654);
	CHECK_EQ_U(st.blkio_ticks, 31);
	CHECK(st.have_flags && st.have_nice);
	CHECK_EQ_U(st.flags, 4194560);
	CHECK(st.nice == 0);
	CHECK(st.have_ppid && st.ppid == 1);
	CHECK(st.have_majflt && st.majflt == 0);
	CHECK(st.have_threads && st.threads == 1);
	/* the name: from the first '(' to the last ')' */
	CHECK_STR(st.comm, "a) (b c");

	/* a negative nice value; one out of range is no stat line */
	CHECK(procfs_parse_stat("1 (x) S 1 1 1 0 -1 2097216 0 0 0 0 0 0 0 0 "
				"5 -5 1 0 77\n", &st) == 0);
	CHECK(st.have_nice && st.nice == -5);
	CHECK_EQ_U(st.flags, 2097216);
	CHECK(st.have_start && st.start == 77);
	CHECK(procfs_parse_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 "
				"5 -21 1 0 77\n", &st) == -1);
	CHECK(procfs_parse_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 "
				"5 20 1 0 77\n", &st) == -1);

	/* short lines: the state, and only the fields they reach */
	CHECK(procfs_parse_stat("1 (x) D 1 2 3\n", &st) == 0);
	CHECK(st.state == 'D');
	CHECK(!st.have_start && !st.have_blkio && !st.have_flags &&
	      !st.have_nice && !st.have_majflt && !st.have_threads);
	CHECK(st.have_ppid && st.ppid == 1);
	CHECK(procfs_parse_stat("1 (a) b) S 1", &st) == 0);
	CHECK(st.state == 'S');
	CHECK_STR(st.comm, "a) b");
	/* an empty name, and one longer than any the kernel gives, cut */
	CHECK(procfs_parse_stat("1 () S 1", &st) == 0);
	CHECK_STR(st.comm, "");
	char lng[200];
	memset(lng, 'n', sizeof(lng));
	memcpy(lng, "1 (", 3);
	memcpy(lng + 180, ") S 1", 6);
	CHECK(procfs_parse_stat(lng, &st) == 0);
	CHECK_EQ_U(strlen(st.comm), PROCFS_COMM_BYTES - 1);

	/* no stat line, or a field taken that is no number */
	CHECK(procfs_parse_stat("1 (a) b)", &st) == -1);
	CHECK(st.state == 0 && !st.have_start);
	CHECK(procfs_parse_stat("no parenthesis", &st) == -1);
	CHECK(procfs_parse_stat("1 (x) 5 1\n", &st) == -1);
	CHECK(procfs_parse_stat(NULL, &st) == -1);
	/* a parent or a thread count beyond a pid_t */
	CHECK(procfs_parse_stat("1 (x) S 2147483648 1 1\n", &st) == -1);
	CHECK(procfs_parse_stat("1 (x) S 1 1 1 0 -1 0 7 0 9 0 0 0 0 0 "
				"5 0 -1 0 77\n", &st) == -1);
	CHECK(procfs_parse_stat("1 (x) S 1 1 1 0 -1 0 7 0 9 0 0 0 0 0 "
				"5 0 3 0 77\n", &st) == 0);
	CHECK(st.majflt == 9 && st.threads == 3 && st.start == 77);
	CHECK(procfs_parse_stat("4242 (a) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
				"5 6 0 0 20 0 1 0 98x654 1000000\n", &st) == -1);
}

/*
 * This process: running while it reads itself; its start and block-IO
 * ticks are fields 22 and 42 counted from the end of the command, here
 * split with strtok as a second reading of the same line.
 */
static void test_self(void)
{
	char buf[1024], copy[1024], *f, *save = NULL;
	unsigned long long want_start = 0, want_blkio = 0;
	struct procfs_stat st;
	int field = 3;

	CHECK(procfs_read(AT_FDCWD, "/proc/self/stat", buf, sizeof(buf)) > 0);
	CHECK(procfs_parse_stat(buf, &st) == 0);
	CHECK(st.state == 'R');
	snprintf(copy, sizeof(copy), "%s", strrchr(buf, ')') + 2);
	for (f = strtok_r(copy, " \n", &save); f;
	     f = strtok_r(NULL, " \n", &save), field++) {
		if (field == 22)
			want_start = strtoull(f, NULL, 10);
		if (field == 42)
			want_blkio = strtoull(f, NULL, 10);
	}
	CHECK(field > 42);
	CHECK(st.have_start && st.have_blkio);
	CHECK_EQ_U(st.start, want_start);
	CHECK_EQ_U(st.blkio_ticks, want_blkio);
	CHECK(st.start > 0);
	/* its own nice value, as the kernel has it */
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	CHECK(errno == 0 && st.have_nice && st.nice == nice);
}

int main(void)
{
	test_read();
	test_parse_stat();
	test_self();
	return unit_done();
}
