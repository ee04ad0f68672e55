/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel.task_delayacct sysctl: off by default since Linux 5.14, absent
 * when delay accounting is not built in.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "kernel/delayacct.h"
#include "kernel/procfs.h"

/* When delayacct_enable() wrote the switch: between these times. */
static double switched_lo, switched_hi;

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool delayacct_switched(double *lo, double *hi)
{
	*lo = switched_lo;
	*hi = switched_hi;
	return switched_hi > 0;
}

/*
 * The switch is read at every refresh: its file is kept open and read
 * again (one pread), opened again when that fails.
 */
static ssize_t read_switch(char *buf, size_t size)
{
	static int fd = -1;
	ssize_t n;

	if (fd >= 0 && (n = procfs_reread(fd, buf, size)) > 0)
		return n;
	if (fd >= 0)
		close(fd);
	fd = procfs_open(AT_FDCWD, DELAYACCT_SYSCTL);
	return fd < 0 ? -1 : procfs_reread(fd, buf, size);
}

int delayacct_state(void)
{
	char buf[16];
	ssize_t n = read_switch(buf, sizeof(buf));

	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return -1;
	/* The kernel writes "0\n" or "1\n"; any other number means on. */
	for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
		if (buf[i] != '0')
			return 1;
	return 0;
}

int delayacct_enable(void)
{
	ssize_t n;
	int fd, saved;

	if (delayacct_state() == 1)
		return 0;
	fd = open(DELAYACCT_SYSCTL, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	double lo = mono();
	do
		n = write(fd, "1\n", 2);
	while (n < 0 && errno == EINTR);
	saved = errno;
	double hi = mono();
	close(fd);
	if (n != 2) {
		errno = n < 0 ? saved : EIO;
		return -1;
	}
	switched_lo = lo;
	switched_hi = hi;
	return 0;
}
