/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The name an operator knows a cgroup by, derived from its path alone
 * (no daemon is asked), as cAdvisor and below derive container names:
 *
 *   systemd units, slices, sessions    the unit: "nginx.service",
 *                                      "user-1000.slice", "session-3.scope"
 *   docker, podman, cri-o, containerd  the runtime and the short (12
 *     scopes and cgroupfs directories  character) id: "docker 3f2a1b4c5d6e"
 *   Kubernetes QoS slices              "Burstable pods", "BestEffort pods"
 *   Kubernetes pods                    "pod UID (Burstable)", the UID as
 *                                      the API shows it (systemd's _ back
 *                                      to -); Guaranteed pods sit directly
 *                                      in kubepods
 *   a container in a cgroupfs pod      "container 3f2a1b4c5d6e"
 *   LXC                                "lxc NAME"
 *   anything else                      the last part of the path; "/" for
 *                                      the root
 *
 * A pure function of the path: the live monitor and a replay of any
 * recording give the same name.
 */
#ifndef STALLTOP_CGNAME_H
#define STALLTOP_CGNAME_H

#include <stdbool.h>
#include <stddef.h>

/* Room for any name: a path component is at most 255 bytes. */
#define CGNAME_MAX 288

/*
 * The name of the cgroup at path into out (cut to size, always
 * terminated when size > 0). Returns the length of the whole name, as
 * snprintf does.
 */
int cgname_of(const char *path, char *out, size_t size);

/*
 * Is the cgroup at path the one at prefix or below it ("/a" covers
 * "/a/b", not "/ab")? False when either is NULL or prefix is empty.
 */
bool cgname_within(const char *path, const char *prefix);

#endif
