/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-buffer I/O on file descriptors (after util-linux's all-io.h). */
#ifndef STALLTOP_ALL_IO_H
#define STALLTOP_ALL_IO_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/*
 * All of buf to fd: one write(2) unless the disk fills or a signal hits.
 * Returns 0, or -1 with errno set.
 */
static inline int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

#endif
