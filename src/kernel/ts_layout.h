/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Our own copies of the kernel's struct taskstats layouts. The build host's
 * <linux/taskstats.h> is never used for the payload: the running kernel may
 * be older or newer than the headers.
 *
 * struct ts_layout is the layout of versions 1-14, 16 and 17: the struct
 * only grows at its end, so an older payload is a prefix of it. Version 15
 * (Linux 6.14 before the stable fix) put each category's max/min right
 * after its total; struct ts_layout_v15 describes that one.
 */
#ifndef STALLTOP_TS_LAYOUT_H
#define STALLTOP_TS_LAYOUT_H

#include <stdint.h>

#define TS_COMM_BYTES 32

/*
 * The kernel's delay kinds, in struct taskstats order. model/categories.h
 * names its categories after these (and checks that they agree).
 */
enum ts_delay_kind {
	TS_DELAY_CPU,        /* cpu_count, cpu_delay_total */
	TS_DELAY_BLKIO,      /* blkio_* */
	TS_DELAY_SWAPIN,     /* swapin_* */
	TS_DELAY_FREEPAGES,  /* freepages_* (version 7) */
	TS_DELAY_THRASHING,  /* thrashing_* (version 9) */
	TS_DELAY_COMPACT,    /* compact_* (version 11) */
	TS_DELAY_WPCOPY,     /* wpcopy_* (version 13) */
	TS_DELAY_IRQ,        /* irq_* (version 14) */
	TS_NDELAY
};

struct ts_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct ts_layout {
	uint16_t version;
	uint32_t ac_exitcode;
	uint8_t ac_flag;
	uint8_t ac_nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total;
	uint64_t blkio_count;
	uint64_t blkio_delay_total;
	uint64_t swapin_count;
	uint64_t swapin_delay_total;
	uint64_t cpu_run_real_total;
	uint64_t cpu_run_virtual_total;
	char ac_comm[TS_COMM_BYTES];
	uint8_t ac_sched __attribute__((aligned(8)));
	uint8_t ac_pad[3];
	uint32_t ac_uid __attribute__((aligned(8)));
	uint32_t ac_gid;
	uint32_t ac_pid;
	uint32_t ac_ppid;
	uint32_t ac_btime;
	uint64_t ac_etime __attribute__((aligned(8)));
	uint64_t ac_utime;
	uint64_t ac_stime;
	uint64_t ac_minflt;
	uint64_t ac_majflt;
	uint64_t coremem;
	uint64_t virtmem;
	uint64_t hiwater_rss;
	uint64_t hiwater_vm;
	uint64_t read_char;
	uint64_t write_char;
	uint64_t read_syscalls;
	uint64_t write_syscalls;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t cancelled_write_bytes;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t ac_utimescaled;
	uint64_t ac_stimescaled;
	uint64_t cpu_scaled_run_real_total;
	uint64_t freepages_count;
	uint64_t freepages_delay_total;
	/* v9 */
	uint64_t thrashing_count;
	uint64_t thrashing_delay_total;
	/* v10 */
	uint64_t ac_btime64;
	/* v11 */
	uint64_t compact_count;
	uint64_t compact_delay_total;
	/* v12 */
	uint32_t ac_tgid;
	uint64_t ac_tgetime __attribute__((aligned(8)));
	uint64_t ac_exe_dev;
	uint64_t ac_exe_inode;
	/* v13 */
	uint64_t wpcopy_count;
	uint64_t wpcopy_delay_total;
	/* v14 */
	uint64_t irq_count;
	uint64_t irq_delay_total;
	/* v16: max/min moved here */
	uint64_t cpu_delay_max;
	uint64_t cpu_delay_min;
	uint64_t blkio_delay_max;
	uint64_t blkio_delay_min;
	uint64_t swapin_delay_max;
	uint64_t swapin_delay_min;
	uint64_t freepages_delay_max;
	uint64_t freepages_delay_min;
	uint64_t thrashing_delay_max;
	uint64_t thrashing_delay_min;
	uint64_t compact_delay_max;
	uint64_t compact_delay_min;
	uint64_t wpcopy_delay_max;
	uint64_t wpcopy_delay_min;
	uint64_t irq_delay_max;
	uint64_t irq_delay_min;
	/* v17: when each maximum happened */
	struct ts_timespec cpu_delay_max_ts;
	struct ts_timespec blkio_delay_max_ts;
	struct ts_timespec swapin_delay_max_ts;
	struct ts_timespec freepages_delay_max_ts;
	struct ts_timespec thrashing_delay_max_ts;
	struct ts_timespec compact_delay_max_ts;
	struct ts_timespec wpcopy_delay_max_ts;
	struct ts_timespec irq_delay_max_ts;
};

/* Version 15 only: max/min inline after each category's total. */
struct ts_layout_v15 {
	uint16_t version;
	uint32_t ac_exitcode;
	uint8_t ac_flag;
	uint8_t ac_nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total;
	uint64_t cpu_delay_max;
	uint64_t cpu_delay_min;
	uint64_t blkio_count;
	uint64_t blkio_delay_total;
	uint64_t blkio_delay_max;
	uint64_t blkio_delay_min;
	uint64_t swapin_count;
	uint64_t swapin_delay_total;
	uint64_t swapin_delay_max;
	uint64_t swapin_delay_min;
	uint64_t cpu_run_real_total;
	uint64_t cpu_run_virtual_total;
	char ac_comm[TS_COMM_BYTES];
	uint8_t ac_sched __attribute__((aligned(8)));
	uint8_t ac_pad[3];
	uint32_t ac_uid __attribute__((aligned(8)));
	uint32_t ac_gid;
	uint32_t ac_pid;
	uint32_t ac_ppid;
	uint32_t ac_btime;
	uint64_t ac_etime __attribute__((aligned(8)));
	uint64_t ac_utime;
	uint64_t ac_stime;
	uint64_t ac_minflt;
	uint64_t ac_majflt;
	uint64_t coremem;
	uint64_t virtmem;
	uint64_t hiwater_rss;
	uint64_t hiwater_vm;
	uint64_t read_char;
	uint64_t write_char;
	uint64_t read_syscalls;
	uint64_t write_syscalls;
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t cancelled_write_bytes;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t ac_utimescaled;
	uint64_t ac_stimescaled;
	uint64_t cpu_scaled_run_real_total;
	uint64_t freepages_count;
	uint64_t freepages_delay_total;
	uint64_t freepages_delay_max;
	uint64_t freepages_delay_min;
	uint64_t thrashing_count;
	uint64_t thrashing_delay_total;
	uint64_t thrashing_delay_max;
	uint64_t thrashing_delay_min;
	uint64_t ac_btime64;
	uint64_t compact_count;
	uint64_t compact_delay_total;
	uint64_t compact_delay_max;
	uint64_t compact_delay_min;
	uint32_t ac_tgid;
	uint64_t ac_tgetime __attribute__((aligned(8)));
	uint64_t ac_exe_dev;
	uint64_t ac_exe_inode;
	uint64_t wpcopy_count;
	uint64_t wpcopy_delay_total;
	uint64_t wpcopy_delay_max;
	uint64_t wpcopy_delay_min;
	uint64_t irq_count;
	uint64_t irq_delay_total;
	uint64_t irq_delay_max;
	uint64_t irq_delay_min;
};

#endif
