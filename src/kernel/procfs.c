/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's small files and /proc/PID/stat (procfs.h): one
 * open/read/close each, relative to a directory descriptor, or one
 * pread of a file kept open.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "kernel/procfs.h"

/* Read fd to its end or until buf is full; the length, or -1. */
static ssize_t read_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;

	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

static int open_file(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
}

ssize_t procfs_read(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t len;
	int fd, saved;

	if (!buf || size < 2 || !name) {
		errno = EINVAL;
		return -1;
	}
	fd = open_file(dirfd, name);
	if (fd < 0)
		return -1;
	len = read_fd(fd, buf, size - 1);
	saved = errno;
	close(fd);
	if (len < 0) {
		errno = saved;
		return -1;
	}
	buf[len] = '\0';
	return len;
}

int procfs_open(int dirfd, const char *name)
{
	return open_file(dirfd, name);
}

ssize_t procfs_reread(int fd, char *buf, size_t size)
{
	size_t len = 0;

	if (!buf || size < 2) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * A small file of the kernel comes whole in one read: a read
	 * shorter than asked is its end (no second call to be told so)
	 */
	while (len < size - 1) {
		size_t want = size - 1 - len;
		ssize_t n = pread(fd, buf + len, want, (off_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Of the text read, whole lines only (see procfs_read_lines). */
static ssize_t whole_lines(char *buf, ssize_t len)
{
	if (len > 0 && buf[len - 1] != '\n') {
		/*
		 * The kernel ends every line of these files; a last line
		 * without its end was cut (by our buffer, or the file is not
		 * what it should be): drop it rather than read a number short.
		 */
		char *nl = memrchr(buf, '\n', (size_t)len);

		len = nl ? nl + 1 - buf : 0;
		buf[len] = '\0';
	}
	return len;
}

ssize_t procfs_read_lines(int dirfd, const char *name, char *buf,
			  size_t size)
{
	return whole_lines(buf, procfs_read(dirfd, name, buf, size));
}

ssize_t procfs_reread_lines(int fd, char *buf, size_t size)
{
	return whole_lines(buf, procfs_reread(fd, buf, size));
}

char *procfs_read_all(int dirfd, const char *name)
{
	size_t cap = 4096, len = 0;
	char *buf = NULL;
	int fd = open_file(dirfd, name), saved;

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;

		if (!buf || len + 1 >= cap) {
			char *p = realloc(buf, buf ? cap * 2 : cap);

			if (!p)
				break;
			if (buf)
				cap *= 2;
			buf = p;
		}
		n = read_fd(fd, buf + len, cap - len - 1);
		if (n < 0)
			break;
		len += (size_t)n;
		if (len + 1 < cap) { /* short of full: the end */
			buf[len] = '\0';
			close(fd);
			return buf;
		}
	}
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

/* The stat fields stalltop takes (1-based, as proc(5) counts them). */
enum {
	F_STATE = 3, F_PPID = 4, F_FLAGS = 9, F_MAJFLT = 12, F_NICE = 19,
	F_THREADS = 20, F_START = 22, F_BLKIO = 42
};

/* The nice value of field 19, "-20".."19": false for anything else. */
static bool parse_nice(const char *s, const char *end, int *out)
{
	bool neg = s < end && *s == '-';
	uint64_t v;

	if (!kval_parse_u64(s + neg, end, &v) || v > 20 || (!neg && v > 19))
		return false;
	*out = neg ? -(int)v : (int)v;
	return true;
}

/* Stat field number field, the text [s, end), into out: false if bad. */
static bool take_field(int field, const char *s, const char *end,
		       struct procfs_stat *out)
{
	uint64_t v;

	if (field == F_NICE)
		return (out->have_nice = parse_nice(s, end, &out->nice));
	if (field != F_PPID && field != F_FLAGS && field != F_MAJFLT &&
	    field != F_THREADS && field != F_START && field != F_BLKIO)
		return true; /* not taken */
	if (!kval_parse_u64(s, end, &v))
		return false;
	if ((field == F_PPID || field == F_THREADS) && v > INT_MAX)
		return false;
	switch (field) {
	case F_PPID:
		out->ppid = (int)v;
		return (out->have_ppid = true);
	case F_FLAGS:
		out->flags = (unsigned long)v;
		return (out->have_flags = true);
	case F_MAJFLT:
		out->majflt = v;
		return (out->have_majflt = true);
	case F_THREADS:
		out->threads = (int)v;
		return (out->have_threads = true);
	case F_START:
		out->start = v;
		return (out->have_start = true);
	default:
		out->blkio_ticks = v;
		return (out->have_blkio = true);
	}
}

int procfs_parse_stat(const char *text, struct procfs_stat *out)
{
	const char *p = text ? strrchr(text, ')') : NULL;

	memset(out, 0, sizeof(*out));
	if (!p || p[1] != ' ' || p[2] < 'A' || p[2] > 'z')
		return -1;
	const char *open = strchr(text, '(');
	if (open && open < p) {
		size_t n = (size_t)(p - open - 1);
		if (n >= sizeof(out->comm))
			n = sizeof(out->comm) - 1;
		memcpy(out->comm, open + 1, n);
		out->comm[n] = '\0';
	}
	out->state = p[2];
	p += 2;
	for (int field = F_STATE; *p && *p != '\n' && field <= F_BLKIO;
	     field++) {
		const char *s = p;

		while (*p && *p != ' ' && *p != '\n')
			p++;
		if (field != F_STATE && !take_field(field, s, p, out))
			return -1;
		if (*p == ' ')
			p++;
	}
	return 0;
}
