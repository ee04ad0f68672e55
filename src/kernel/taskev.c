/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-process files below /proc/PID. Each read opens, reads and closes
 * one file; the runnable-thread count reads one stat file per thread,
 * so it is for the few processes that stall, not for every task.
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/sysinfo.h"
#include "kernel/taskev.h"

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

int taskev_parse_io(const char *text, struct taskev_io *out)
{
	static const struct kval_key keys[] = {
		{ "rchar", offsetof(struct taskev_io, rchar) },
		{ "wchar", offsetof(struct taskev_io, wchar) },
		{ "read_bytes", offsetof(struct taskev_io, read_bytes) },
		{ "write_bytes", offsetof(struct taskev_io, write_bytes) },
		{ "cancelled_write_bytes",
		  offsetof(struct taskev_io, cancelled_write_bytes) },
	};

	return kval_parse_keyed(text, ':', NULL, keys, NKEYS(keys), out);
}

/*
 * Cpus_allowed_list of the text of /proc/PID/status as text into list
 * (false: none, too long or garbage).
 */
static bool taskev_parse_allowed_list(const char *text, char *list, size_t size)
{
	static const char key[] = "Cpus_allowed_list:";

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		if (n >= sizeof(key) - 1 &&
		    memcmp(text, key, sizeof(key) - 1) == 0) {
			const char *v = text + sizeof(key) - 1;
			size_t vn = n - (sizeof(key) - 1);

			while (vn && (*v == '\t' || *v == ' ')) {
				v++;
				vn--;
			}
			if (vn >= size)
				return false;
			memcpy(list, v, vn);
			list[vn] = '\0';
			return sysinfo_cpulist_count(list) >= 0;
		}
		text = nl ? nl + 1 : text + n;
	}
	return false;
}

struct kval taskev_parse_allowed(const char *text)
{
	struct kval k = { 0 };
	char list[4096];
	long count;

	if (!taskev_parse_allowed_list(text, list, sizeof(list)))
		return k;
	count = sysinfo_cpulist_count(list);
	if (count > 0) {
		k.have = true;
		k.v = (uint64_t)count;
	}
	return k;
}

struct kval taskev_parse_smaps_rollup(const char *text)
{
	static const struct kval_key keys[] = {
		{ "Private_Clean", 0 },
		{ "Private_Dirty", sizeof(struct kval) },
	};
	struct kval v[2], k = { 0 };

	kval_parse_keyed(text, ':', "kB", keys, NKEYS(keys), v);
	if (v[0].have && v[1].have && v[0].v <= UINT64_MAX - v[1].v) {
		k.have = true;
		k.v = v[0].v + v[1].v;
	}
	return k;
}

struct kval taskev_parse_statm(const char *text, unsigned long page_size)
{
	const char *p = text, *s;
	uint64_t f[3];
	struct kval k = { 0 };

	for (int i = 0; i < 3; i++) {
		while (p && *p == ' ')
			p++;
		s = p;
		while (p && *p >= '0' && *p <= '9')
			p++;
		if (!p || !kval_parse_u64(s, p, &f[i]) ||
		    (*p != ' ' && *p != '\n' && *p))
			return k;
	}
	/* resident pages not shared with a file or another process */
	if (f[2] > f[1] || f[1] - f[2] > UINT64_MAX / page_size)
		return k;
	k.have = true;
	k.v = (f[1] - f[2]) * page_size;
	return k;
}

void taskev_read_io(int pidfd, struct taskev_io *out)
{
	char buf[1024];

	memset(out, 0, sizeof(*out));
	if (pidfd >= 0 && procfs_read_lines(pidfd, "io", buf, sizeof(buf)) > 0)
		taskev_parse_io(buf, out);
}

/* Count the threads below task/ and those in state R. */
static void count_threads(int pidfd, struct taskev_cpu *out)
{
	int fd = openat(pidfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	uint64_t threads = 0, runnable = 0;
	struct dirent *de;
	DIR *dir;

	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		char path[300], buf[1024];
		struct procfs_stat st;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/stat", de->d_name);
		/* a thread that ended meanwhile is not counted */
		if (procfs_read_lines(dirfd(dir), path, buf, sizeof(buf)) <= 0 ||
		    procfs_parse_stat(buf, &st) < 0)
			continue;
		threads++;
		runnable += st.state == 'R';
	}
	closedir(dir);
	if (threads) {
		out->threads = (struct kval){ .have = true, .v = threads };
		out->runnable_threads = (struct kval){ .have = true,
						       .v = runnable };
	}
}

void taskev_parse_cpu(const char *status, struct taskev_cpu *out)
{
	long count;

	memset(out, 0, sizeof(*out));
	/* one pass where the list fits (as it does but on huge machines) */
	if (taskev_parse_allowed_list(status, out->allowed_list,
				      sizeof(out->allowed_list))) {
		count = sysinfo_cpulist_count(out->allowed_list);
		if (count > 0)
			out->allowed_cpus = (struct kval){ .have = true,
							   .v = (uint64_t)count };
		else
			out->allowed_list[0] = '\0';
		return;
	}
	out->allowed_list[0] = '\0';
	out->allowed_cpus = taskev_parse_allowed(status);
}

void taskev_count_cpu(int pidfd, uint64_t cpus_online, struct taskev_cpu *out)
{
	if (pidfd < 0)
		return;
	if (cpus_online && out->allowed_cpus.have &&
	    out->allowed_cpus.v >= cpus_online)
		return; /* it may run anywhere: pinning is no cause */
	count_threads(pidfd, out);
}

void taskev_read_cpu(int pidfd, uint64_t cpus_online, struct taskev_cpu *out)
{
	char buf[8192];

	memset(out, 0, sizeof(*out));
	if (pidfd < 0)
		return;
	if (procfs_read_lines(pidfd, "status", buf, sizeof(buf)) > 0)
		taskev_parse_cpu(buf, out);
	taskev_count_cpu(pidfd, cpus_online, out);
}

void taskev_read_mem(int pidfd, struct taskev_mem *out)
{
	char buf[4096];
	long page = sysconf(_SC_PAGESIZE);

	memset(out, 0, sizeof(*out));
	if (pidfd < 0)
		return;
	if (procfs_read_lines(pidfd, "smaps_rollup", buf, sizeof(buf)) > 0) {
		out->private_bytes = taskev_parse_smaps_rollup(buf);
		if (out->private_bytes.have)
			return;
	}
	if (page > 0 && procfs_read_lines(pidfd, "statm", buf, sizeof(buf)) > 0)
		out->private_bytes = taskev_parse_statm(buf, (unsigned long)page);
}
