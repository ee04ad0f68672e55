/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The keys of the JSON sample format and of a recording's header line
 * that are not a row's fields: the writer (view/out_json.c, record.c) and
 * the readers (json_read.c, replay.c) take them from here, so each key is
 * spelled once. A task row's keys come from the fields table (fields.c),
 * the delay categories' from categories[], PSI's resource and kind names
 * from psi.c. Literals, so that a reader can match "{\"time\":" as a
 * prefix. The key names and their order are an interface: the manual
 * page's OUTPUT section.
 */
#ifndef STALLTOP_JSON_KEYS_H
#define STALLTOP_JSON_KEYS_H

/* a sample */
#define JSON_KEY_TIME "time"
#define JSON_KEY_INTERVAL "interval"
#define JSON_KEY_ACCUMULATED "accumulated"
#define JSON_KEY_THREADS "threads"
#define JSON_KEY_DELAYACCT "delayacct"
#define JSON_KEY_TASKSTATS_VERSION "taskstats_version"
#define JSON_KEY_EVENTS_LOST "events_lost"
#define JSON_KEY_EXIT_RECORDS_LOST "exit_records_lost"
#define JSON_KEY_FIGURES_DROPPED "figures_dropped"
#define JSON_KEY_PSI "psi"
#define JSON_KEY_TASKS "tasks"
#define JSON_KEY_EXITED "exited"
#define JSON_KEY_TRIGGER "trigger"
#define JSON_KEY_CGROUPS "cgroups"
#define JSON_KEY_THREAD_TASKS "thread_tasks"
#define JSON_KEY_THREAD_EXITED "thread_exited"

/* a cgroup row (besides "psi", "delay" and "total_pct"; and "name",
   JSON_KEY_NAME below: older recordings have none) */
#define JSON_KEY_PATH "path"
#define JSON_KEY_NR_TASKS "nr_tasks"

/*
 * a row's "why" object (besides the evidence fields of evidence.c, whose
 * names are its keys, and "io_devices"/"disks" with evidence_disk_fields)
 */
#define JSON_KEY_INTERVAL_S "interval_s"
#define JSON_KEY_CAUSES "causes"
#define JSON_KEY_CAUSE "cause"
#define JSON_KEY_TEXT "text"
#define JSON_KEY_RANKED "ranked"
#define JSON_KEY_SHARE_PCT "share_pct"
#define JSON_KEY_CPU_CGROUP_VERSION "cpu_cgroup_version"
#define JSON_KEY_MEM_CGROUP_VERSION "mem_cgroup_version"
#define JSON_KEY_IO_CGROUP_VERSION "io_cgroup_version"
#define JSON_KEY_STATES_SOURCE "states_source"
#define JSON_KEY_CPU_CGROUP "cpu_cgroup"
#define JSON_KEY_MEM_CGROUP "mem_cgroup"
#define JSON_KEY_IO_CGROUP "io_cgroup"
#define JSON_KEY_STATES_CGROUP "states_cgroup"
#define JSON_KEY_IO_DEVICES "io_devices"
#define JSON_KEY_DISKS "disks"
#define JSON_KEY_DEVICE "device"
#define JSON_KEY_NAME "name"
#define JSON_KEY_STATES_KERNEL "cgroupstats"
#define JSON_KEY_STATES_PROC "proc"

/* one category's figures (CSV: delay_<category>_<figure>) */
#define JSON_KEY_PCT "pct"
#define JSON_KEY_COUNT "count"
#define JSON_KEY_AVG_MS "avg_ms"
#define JSON_KEY_MAX_MS "max_ms"

/* one PSI line (and "pct") */
#define JSON_KEY_AVG10 "avg10"
#define JSON_KEY_AVG60 "avg60"
#define JSON_KEY_AVG300 "avg300"
#define JSON_KEY_TOTAL_US "total_us"

/* a recording's header line: the first key is the format version */
#define JSON_KEY_RECORDING "stalltop_recording"
#define JSON_KEY_PROGRAM "program"
#define JSON_KEY_STARTED "started"
#define JSON_KEY_HOSTNAME "hostname"
#define JSON_KEY_KERNEL "kernel"
#define JSON_KEY_HZ "hz"
#define JSON_KEY_NCPU "ncpu"

#endif
