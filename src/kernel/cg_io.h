/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup's IO limits and IO per device: v2 io.max, io.stat and
 * io.pressure; v1 blkio.throttle.{read,write}_{bps,iops}_device and
 * blkio.throttle.io_service{_bytes,d} (bytes and IOs the cgroup did,
 * limited or not).
 */
#ifndef STALLTOP_CG_IO_H
#define STALLTOP_CG_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/cg_io_types.h"
#include "kernel/kval.h"

/*
 * v2 io.max ("8:16 rbps=2097152 wbps=max riops=max wiops=120") and io.stat
 * ("8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0
 * dios=0") into out's devices, adding devices as they come. A line that
 * does not parse is skipped whole; cg_io_parse_max returns how many were
 * (an unread line may limit any device). When io.max was read whole, a
 * device without a line or a key in it has no limit (max) there.
 */
int cg_io_parse_max(const char *text, struct cg_io *out);
void cg_io_parse_stat(const char *text, struct cg_io *out);
/* Every device seen gets max for what io.max did not limit. */
void cg_io_no_limit_elsewhere(struct cg_io *out);

/*
 * v1: a throttle file ("8:0 1048576" per line) into the limit at offset
 * (offsetof(struct cg_io_dev, rbps), ...; returns the lines that did not
 * parse), and io_service_bytes or
 * io_serviced ("8:0 Read 4096" ... "Total 4096") into the counters at
 * the read and write offsets.
 */
int cg_io_parse_v1_limit(const char *text, size_t offset, struct cg_io *out);
void cg_io_parse_v1_service(const char *text, size_t read_off,
			    size_t write_off, struct cg_io *out);

/* Read a v2 cgroup directory, or a v1 blkio controller directory. */
void cg_io_read_v2(int dirfd, struct cg_io *out);
void cg_io_read_v1(int dirfd, struct cg_io *out);

#endif
