/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's small files (/proc, /sys, cgroup interface files), read
 * relative to a directory descriptor so that a fixture folder can stand
 * in for /proc or a cgroup (an absolute name reads the real one; dirfd
 * may then be -1 or AT_FDCWD), and the one parser of /proc/PID/stat.
 * What libproc2 reads (kernel/procinfo.c) is not read here.
 */
#ifndef STALLTOP_PROCFS_H
#define STALLTOP_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Read the file name relative to dirfd into buf: at most size - 1 bytes,
 * then a NUL (the bytes may hold NULs: /proc/PID/cmdline). Returns the
 * length, or -1 with errno set (ENOENT, EACCES; EINVAL for no buffer).
 */
ssize_t procfs_read(int dirfd, const char *name, char *buf, size_t size);

/*
 * The same for a file of lines: only whole lines are kept, a last line
 * without its newline (cut short, or longer than the buffer) is dropped,
 * so that a number is never read short. Returns the length (0 for an
 * empty file, which io.max is without limits), or -1 with errno set.
 */
ssize_t procfs_read_lines(int dirfd, const char *name, char *buf,
			  size_t size);

/*
 * A file read every refresh (a pressure file, a sysctl) kept open:
 * procfs_open opens name relative to dirfd (the descriptor, or -1 with
 * errno set); procfs_reread reads it again from its start with pread,
 * as procfs_read reads a file but taking a read shorter than asked for
 * its end (the kernel gives such a file whole), and procfs_reread_lines
 * as procfs_read_lines: one system call instead of four.
 */
int procfs_open(int dirfd, const char *name);
ssize_t procfs_reread(int fd, char *buf, size_t size);
ssize_t procfs_reread_lines(int fd, char *buf, size_t size);

/*
 * A whole file of any size (mountinfo, a long /proc/PID/cgroup) into a
 * malloc'd NUL-terminated buffer, or NULL with errno set.
 */
char *procfs_read_all(int dirfd, const char *name);

/* Room for a task's name (the kernel's are at most 64 bytes). */
#define PROCFS_COMM_BYTES 65

/* What stalltop takes of a /proc/PID/stat line. */
struct procfs_stat {
	char comm[PROCFS_COMM_BYTES];   /* field 2, without its parentheses
					   (cut to fit; "" if none) */
	char state;                     /* field 3: 'R', 'S', 'D'... */
	bool have_ppid, have_flags, have_majflt, have_nice, have_threads;
	bool have_start, have_blkio;
	int ppid;                       /* field 4: the parent's tgid */
	unsigned long flags;            /* field 9: the task's PF_* flags */
	unsigned long long majflt;      /* field 12: major faults (of the
					   whole group, read through /proc/PID) */
	int nice;                       /* field 19: -20..19 */
	int threads;                    /* field 20: the group's threads */
	unsigned long long start;       /* field 22: ticks since boot */
	unsigned long long blkio_ticks; /* field 42: block-IO delay, ticks */
};

/*
 * Parse a /proc/PID/stat line (the command in parentheses may hold
 * spaces and parentheses: the fields start after the last ')'). Returns
 * 0 when it has a state, with the have_ members telling which fields
 * the line reaches; -1 when it is no stat line, or a field
 * taken is not a number.
 */
int procfs_parse_stat(const char *text, struct procfs_stat *out);

#endif
