/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where an evidence's cgroup figures were read (evorigin.h). */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/cgroup_parse.h"
#include "model/evorigin.h"

/* The path of hierarchy hier's line (NULL: v2) of /proc/PID/cgroup. */
static bool line_of(const char *text, const char *hier, char *path,
		    size_t size)
{
	if (!hier)
		return cgroup_parse_proc_cgroup(text, path, size) == 0;
	return cgroup_parse_proc_cgroup_v1(text, hier, path, size) == 0;
}

/* "HIER:PATH" of hierarchy hier (NULL: v2) into out; false: no line. */
static bool name(const char *text, const char *hier, char *out, size_t size)
{
	char path[EVIDENCE_CGROUP];
	int n;

	out[0] = '\0';
	if (!text || !line_of(text, hier, path, sizeof(path)))
		return false;
	n = snprintf(out, size, "%s:%s", hier ? hier : "cgroup2", path);
	if (n < 0 || (size_t)n >= size)
		out[0] = '\0';
	return out[0] != '\0';
}

/* A v2 line below the root. */
static bool v2_below_root(const char *text, char *out, size_t size)
{
	char path[EVIDENCE_CGROUP];

	if (!text || !line_of(text, NULL, path, sizeof(path)) ||
	    strcmp(path, "/") == 0)
		return false;
	return name(text, NULL, out, size);
}

/*
 * A controller's group: a controller is in one hierarchy only, so where
 * the process has a line of its v1 hierarchy, its figures are of that
 * cgroup (or none, in its root or a cgroup without the files), else of
 * its v2 cgroup. (A hybrid host's v2 cgroup, without the controllers,
 * gives only pressure and core usage: evidence_read.c.)
 */
static void group(const char *text, const char *v1, char *out, size_t size)
{
	if (!name(text, v1, out, size))
		name(text, NULL, out, size);
}

/* The v1 tree: name=systemd where the process has a line of it, or cpu. */
static void v1_tree(const char *text, char *out, size_t size)
{
	if (!name(text, "name=systemd", out, size))
		name(text, "cpu", out, size);
}

void evorigin_task(const char *text, struct evidence *ev)
{
	size_t size = sizeof(ev->cpu_cgroup);

	group(text, "cpu", ev->cpu_cgroup, size);
	group(text, "memory", ev->mem_cgroup, size);
	group(text, "blkio", ev->io_cgroup, size);
	/*
	 * The states of its cgroup in the view's tree: counted from a v2
	 * cgroup below the root where there is one, else of the v1 tree's
	 * (cgroupstats applies to v1 hierarchies only)
	 */
	ev->states_cgroup[0] = '\0';
	if (ev->states_source == CGSTATS_KERNEL ||
	    !v2_below_root(text, ev->states_cgroup, size))
		v1_tree(text, ev->states_cgroup, size);
	if (!ev->states_cgroup[0])
		name(text, NULL, ev->states_cgroup, size);
}

/* "HIER:PATH" of a cgroup row's figure read at version. */
static void at(const char *path, int version, const char *v1, char *out,
	       size_t size)
{
	int n;

	out[0] = '\0';
	if (!path || !version)
		return;
	n = snprintf(out, size, "%s:%s", version == 2 ? "cgroup2" : v1, path);
	if (n < 0 || (size_t)n >= size)
		out[0] = '\0';
}

void evorigin_cgroup(const char *path, struct evidence *ev)
{
	size_t size = sizeof(ev->cpu_cgroup);

	at(path, ev->cpu_cgroup_version, "cpu", ev->cpu_cgroup, size);
	at(path, ev->mem_cgroup_version, "memory", ev->mem_cgroup, size);
	at(path, ev->io_cgroup_version, "blkio", ev->io_cgroup, size);
	/* its own tasks: of the row's cgroup in the view's tree */
	ev->states_cgroup[0] = '\0';
}
