/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The codec schema of a store sample (store/sample.h): the tables a
 * recording of readings holds and their stable field ids (codec.h), and
 * the conversion of a struct store_sample into the codec's flat rows and
 * back, so that what a replay hands the model is, bit for bit, what the
 * live monitor handed it.
 *
 *   table 1 tasks     a task's reading and what names it, by (id, start,
 *                     life): life, 0 unless two lives of an id with
 *                     the same start (both unknown, or one clock tick)
 *                     are in one sample, is written only where it is
 *                     not 0, so recordings made before it read alike
 *   table 2 threads   the same of the thread readings kept for a
 *                     replay's thread view (store_sample.thread_tasks)
 *   table 3 cgroups   a cgroup's counters and pressure, by path
 *   table 4 system    one entity: the sample's clocks, delay accounting,
 *                     event losses, the PSI of the machine, the machine
 *                     line's counters, when the disks were read
 *   table 5 evidence  the evidence readings (store_sample.evidence), by
 *                     (id, start, cgroup path or ""): every struct kval
 *                     known where it has the value (a value not given
 *                     reads back as zero), a mask of those that are
 *                     "max", the pressure lines, the devices of its
 *                     cgroup's IO; what is the same as in an earlier
 *                     row of the same cgroups (the cgroups' part read
 *                     once for all their processes) or of the first row
 *                     (the machine's part) is not written again, but
 *                     marked the same (same_kv, same_part); so are a
 *                     process's read and write bytes that its row of
 *                     the tasks table has (one reading of
 *                     /proc/PID/io for both)
 *                     The reading's time is stored as the difference
 *                     of its bits from the bits of the sample's mono.
 *   table 6 disks     /proc/diskstats (store_sample.disks), by (major,
 *                     minor)
 *
 * What costs no bytes in a delta frame is what did not change, so each
 * value is stored in the form that stays the same from sample to sample
 * where it can, and decodes to exactly the value given:
 *  - a task's asked_at is usually the sample's query_start, its at and
 *    ctx_at the same for most tasks of the sample (the queries' end, the
 *    reading of their context): stored in the system table once, and
 *    for a task only where they differ;
 *  - a process's tgid is its id: stored only where it is not;
 *  - a thread reading of a task that is also in the tasks table (the
 *    thread of a process with one, the main thread) is written as its
 *    difference from that task's row (like): its numbers as the
 *    difference (mod 2^64, a double's bits) from the task's, its
 *    strings, times, tgid and age only where they are not the task's,
 *    and those it lacks that the task has (its cgroup, when its
 *    context was read) as bits of like; a process with one thread
 *    costs next to nothing twice. The counters of its context (IO
 *    bytes, major faults: read with its context, when its row is
 *    shown, not with its reading), where they are not the task's, are
 *    its own, said by like's bit 63, not their
 *    difference from the task's, which would move each sample as the
 *    task's do;
 *  - a task's run time and delay totals, where they are whole
 *    microseconds (as the live monitor reads them: ts_decode.h), are
 *    stored as microseconds (run_us, total_us), the nanoseconds' fields
 *    left unknown: a byte or so less each in a delta;
 *  - a task's ctx_at, where it is not the sample's, is stored as the
 *    nanoseconds from the sample's (both made of a timespec's seconds
 *    and nanoseconds, as the live monitor reads its clocks: a few
 *    bytes, where the double's bits took eight), where those give it
 *    back exactly, else as it is;
 *  - a task's age is usually at - born (how the live monitor makes it
 *    without a thread's own record): stored only where it is not, when
 *    it is whole microseconds as their difference from the whole
 *    microseconds of at (which grow alike: a byte or two in a delta);
 *  - a carried reading (READING_CARRIED) stores the counters that
 *    stand, those given with it or else those of the task's previous
 *    row (no change in a delta), and says so (READING_STANDING), so a
 *    key frame holds every task's base; they are given back on
 *    decoding. One whose counters are not known (neither given nor in
 *    the previous row) stores and gives back zero, without the flag;
 *  - PSI and load averages, which the kernel prints with two decimals,
 *    are stored as hundredths (varints) when that is exact.
 * A number of a task that reads back as zero when not written (every
 * one but its key, its tgid, the times stored where they differ from
 * the sample's, and its age) is not written when it is zero: most of a
 * task's counters are. Counters, and the times that grow (the sample's
 * clocks, a task's times), are written as differences in a delta
 * frame, and so are the evidence's current values (usage, free memory),
 * which drift rather than jump. The evidence comes back in key order,
 * not in the order given.
 * Strings are stored whole (codec.h bounds a sample's strings); a wait
 * channel read back is cut to its member (STORE_WCHAN_MAX with the NUL),
 * which one written from a store_task never exceeds.
 */
#ifndef STALLTOP_SCHEMA_H
#define STALLTOP_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/cg_io_types.h"
#include "kernel/diskstats_types.h"
#include "store/codec.h"
#include "store/reading.h"
#include "store/sample.h"

enum schema_table { SCHEMA_TASKS, SCHEMA_THREADS, SCHEMA_CGROUPS,
		    SCHEMA_SYSTEM, SCHEMA_EVIDENCE, SCHEMA_DISKS,
		    SCHEMA_NTABLES };

/* A PSI line as stored (one of struct psi_reading.line). */
struct schema_psi {
	uint64_t avg_c[3];      /* avg10, avg60, avg300 in hundredths */
	double avg[3];          /* the same where hundredths are not exact */
	uint64_t total_us;
};

struct schema_task {
	uint64_t id, start;     /* the key: a life (with life) */
	uint64_t life;          /* task_reading.life; not written where 0 */
	uint64_t tgid;
	double asked_at, at;    /* known where not the sample's */
	double born, first_seen;
	double age;             /* known where neither at - born nor age_us */
	uint64_t age_us;        /* read, not written: age_rel is */
	int64_t age_rel;        /* whole us of the age less at's whole us */
	uint64_t run_ns;
	uint64_t have, have_max, have_max_at, no_count, cats, flags;
	int64_t rthreads;       /* task_reading.threads */
	uint64_t count[READING_NCAT], total_ns[READING_NCAT];
	uint64_t run_us;        /* run_ns in whole us, where it is */
	uint64_t total_us[READING_NCAT]; /* total_ns likewise */
	uint64_t max_ns[READING_NCAT];
	double max_at[READING_NCAT];
	uint64_t shave;         /* store_task.have */
	uint64_t like;          /* a thread row: bit 0 when written as
				   its difference from its process's
				   row, the bits above what it lacks
				   that the process has, bit 63 its
				   context counters its own */
	uint64_t uid;
	int64_t ppid, threads, state, nice;
	double start_real, ctx_at;
	int64_t ctx_ns;         /* ctx_at less the sample's, in whole ns */
	int64_t rss_kib, swap_kib;
	uint64_t read_bytes, write_bytes, majflt;
	const char *comm, *user, *wchan, *cmdline, *cgroup;
	unsigned char known[16];
};

struct schema_cgroup {
	const char *path;               /* the key */
	uint64_t have;                  /* store_cgroup.have */
	double psi_when;
	struct schema_psi psi[NPSI][NPSI_KIND];
	uint64_t throttled_us, mem_high, mem_max, mem_oom_kill;
	unsigned char known[32];
};

struct schema_system {
	double boot, mono, real, query_start, psi_when;
	int64_t delayacct;
	uint64_t ts_version, events_lost, exit_records_lost, threads;
	uint64_t thread_readings;
	const char *trigger;
	uint64_t mhave;                 /* store_machine.have */
	struct schema_psi psi[NPSI][NPSI_KIND];
	uint64_t load_c[3];
	double load[3];
	uint64_t cpu_idle, cpu_total, mem_total, mem_available;
	uint64_t swap_total, swap_free, nprocs, nthreads;
	double disks_when;              /* known: the sample has disks */
	double at, ctx_at;              /* most tasks' at and ctx_at, known
					   where not the sample's mono */
	unsigned char known[32];
};

/* The values of an evidence reading (struct kval) in schema.c's order. */
#define SCHEMA_EV_NKV 52
/* those of one device of its cgroup's IO (struct cg_io_dev) */
#define SCHEMA_EV_DEV_NKV 8

struct schema_evdev {
	uint64_t major, minor;
	uint64_t max;                   /* bit i: value i is "max" */
	uint64_t kv[SCHEMA_EV_DEV_NKV];
};

struct schema_evidence {
	uint64_t id, start;             /* the key: a task's life ... */
	const char *owner;              /* ... or a cgroup's path ("" for
					   a task) */
	double when;
	const char *cgroups;            /* store_evidence.cgroups */
	const char *allowed_list;       /* taskev_cpu.allowed_list */
	int64_t cpu_version, mem_version, io_version, states_source;
	uint64_t ndev, dropped;
	uint64_t max;                   /* bit i: value i is "max" */
	/*
	 * what is as in the row it refers to (the first before it in key
	 * order of the same cgroups' text, else the first): bit i of
	 * same_kv value i; of same_part bit l pressure line l, bit 6 the
	 * versions and the states' source, bit 7 the devices; bits 8 and
	 * 9: task_read_bytes and task_write_bytes are those of the task
	 * row of its key (read_bytes, write_bytes)
	 */
	uint64_t same_kv, same_part;
	uint64_t kv[SCHEMA_EV_NKV];
	struct schema_psi psi[3][NPSI_KIND]; /* cpu, memory, io pressure */
	struct schema_evdev dev[CG_IO_DEVS];
	int64_t when_rel;               /* when's bits less the sample's
					   mono's (when is then unknown) */
	unsigned char known[56];
};

struct schema_disk {
	uint64_t major, minor;          /* the key */
	const char *name;
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, in_flight;
	uint64_t io_ticks_ms, queue_ms;
	unsigned char known[2];
};

extern const struct codec_schema schema_store;

/*
 * The rows of one sample, either way. Zero it before the first use;
 * schema_free frees what it holds.
 */
struct schema_rows {
	struct schema_task *task[2];    /* tasks, threads */
	size_t cap[2];
	struct schema_task *like;       /* threads as written (like[]) */
	size_t caplike;
	struct schema_cgroup *cg;
	size_t capcg;
	struct schema_evidence *ev;
	size_t capev;
	struct schema_evidence *evdec;  /* decoding: the rows resolved */
	size_t capevdec;
	struct schema_disk *disk;
	size_t capdisk;
	struct schema_system sys;
	struct codec_rows rows[SCHEMA_NTABLES];
	struct codec_sample cs;
	/* decoding: the store sample's arrays */
	struct store_task *out[2];
	size_t capout[2];
	struct store_cgroup *outcg;
	size_t capoutcg;
	struct store_evidence *outev;
	size_t capoutev;
	struct diskstats outdisks;
	/* most tasks' at and ctx_at in the sample (either way) */
	double at0, ctx0;
};

/*
 * in as the codec's rows, into r->cs (valid while r and in are). prev:
 * the rows of the sample encoded before (for carried readings), or NULL.
 * 0, or -1 with errno ENOMEM.
 */
int schema_from_store(struct schema_rows *r, const struct store_sample *in,
		      const struct schema_rows *prev);

/*
 * A decoded sample back into *out, its strings and arrays in r (valid
 * until the next call with r, or while cs is: strings point into cs).
 * 0, or -1 with errno ENOMEM.
 */
int schema_to_store(struct schema_rows *r, const struct codec_sample *cs,
		    struct store_sample *out);

void schema_free(struct schema_rows *r);

#endif
