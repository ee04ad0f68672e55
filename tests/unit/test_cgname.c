/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Operator names of cgroups (cgname_of) over a table of paths as systemd,
 * docker, podman, cri-o, containerd, the kubelet (both cgroup drivers)
 * and LXC make them, the ones that only look like them, and the edges:
 * the root, trailing slashes, hostile bytes kept raw for the views to
 * escape, a name cut to a small buffer; whether a path lies within a
 * cgroup (cgname_within).
 */
#include <config.h>

#include <string.h>

#include "model/cgname.h"
#include "unit.h"

#define ID "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7a8"
#define UID "1c4e2f0a-5b6c-4d7e-8f90-a1b2c3d4e5f6"
#define UID_ "1c4e2f0a_5b6c_4d7e_8f90_a1b2c3d4e5f6"
/* a static pod's UID is the hash of its manifest */
#define HASH "5f0c0d2b1a3e4f5a6b7c8d9e0f1a2b3c"

static const struct {
	const char *path, *name;
} table[] = {
	{ "/", "/" },
	{ "//", "/" },
	{ "", "" },
	/* systemd: units, slices, sessions, a user's own manager */
	{ "/init.scope", "init.scope" },
	{ "/system.slice", "system.slice" },
	{ "/system.slice/nginx.service", "nginx.service" },
	{ "/system.slice/nginx.service/", "nginx.service" },
	{ "/system.slice/system-getty.slice/getty@tty1.service",
	  "getty@tty1.service" },
	{ "/user.slice/user-1000.slice", "user-1000.slice" },
	{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope" },
	{ "/user.slice/user-1000.slice/user@1000.service", "user@1000.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/"
	  "app-org.gnome.Terminal.slice/vte-spawn-1a2b.scope",
	  "vte-spawn-1a2b.scope" },
	{ "/machine.slice/machine-qemu\\x2d1\\x2dvm.scope",
	  "machine-qemu\\x2d1\\x2dvm.scope" },
	{ "/system.slice/docker.service", "docker.service" },
	/* docker: systemd driver, cgroupfs driver */
	{ "/system.slice/docker-" ID ".scope", "docker 3f2a1b4c5d6e" },
	{ "/docker/" ID, "docker 3f2a1b4c5d6e" },
	/* podman: rootful, rootless, its conmon, cgroupfs */
	{ "/machine.slice/libpod-" ID ".scope", "podman 3f2a1b4c5d6e" },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID
	  ".scope", "podman 3f2a1b4c5d6e" },
	{ "/machine.slice/libpod-conmon-" ID ".scope",
	  "podman conmon 3f2a1b4c5d6e" },
	{ "/libpod_parent/libpod-" ID, "podman 3f2a1b4c5d6e" },
	/* Kubernetes, systemd driver: QoS slices, pods, containers */
	{ "/kubepods.slice", "kubepods" },
	{ "/kubepods.slice/kubepods-burstable.slice", "Burstable pods" },
	{ "/kubepods.slice/kubepods-besteffort.slice", "BestEffort pods" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	  UID_ ".slice", "pod " UID " (Burstable)" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod"
	  UID_ ".slice", "pod " UID " (BestEffort)" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice",
	  "pod " UID " (Guaranteed)" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	  HASH ".slice", "pod " HASH " (Burstable)" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	  UID_ ".slice/cri-containerd-" ID ".scope", "containerd 3f2a1b4c5d6e" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID ".scope",
	  "cri-o 3f2a1b4c5d6e" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/crio-conmon-" ID ".scope",
	  "cri-o conmon 3f2a1b4c5d6e" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" ID ".scope",
	  "docker 3f2a1b4c5d6e" },
	/* a kubelet with a prefix of its own (kind, some distributions) */
	{ "/kubelet.slice/kubelet-kubepods.slice", "kubepods" },
	{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort"
	  ".slice/kubelet-kubepods-besteffort-pod" UID_ ".slice",
	  "pod " UID " (BestEffort)" },
	/* Kubernetes, cgroupfs driver */
	{ "/kubepods", "kubepods" },
	{ "/kubepods/burstable", "Burstable pods" },
	{ "/kubepods/besteffort", "BestEffort pods" },
	{ "/kubepods/burstable/pod" UID, "pod " UID " (Burstable)" },
	{ "/kubepods/pod" UID, "pod " UID " (Guaranteed)" },
	{ "/kubepods/burstable/pod" UID "/" ID, "container 3f2a1b4c5d6e" },
	{ "/kubepods/pod" UID "/" ID, "container 3f2a1b4c5d6e" },
	/* LXC */
	{ "/lxc.payload.web1", "lxc web1" },
	{ "/lxc.monitor.web1", "lxc monitor web1" },
	{ "/lxc/web1", "lxc web1" },
	/* only look like them: their own last part */
	{ "/system.slice/docker-3f2a1b4c5d6e.scope", "docker-3f2a1b4c5d6e.scope" },
	{ "/system.slice/docker-" ID "0.scope", "docker-" ID "0.scope" },
	{ "/docker", "docker" },
	{ "/other/" ID, ID },
	{ "/kubepods-ish.slice", "kubepods-ish.slice" },
	{ "/mykubepods.slice", "mykubepods.slice" },
	{ "/kubepods/guaranteed", "guaranteed" },
	{ "/kubepods.slice/kubepods-pod.slice", "kubepods-pod.slice" },
	{ "/kubepods.slice/kubepods-podXYZ_not_a_uid.slice",
	  "kubepods-podXYZ_not_a_uid.slice" },
	{ "/burstable/pod" UID, "pod" UID },
	{ "/process_api/aaef0555c8685dcdc6c227f70cb91492",
	  "aaef0555c8685dcdc6c227f70cb91492" },
	{ "/lxc.payload.", "lxc.payload." },
	/* a process may name its cgroup anything: kept raw, views escape */
	{ "/load.slice/\x1b[2Jx y", "\x1b[2Jx y" },
};

static void test_table(void)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		char name[CGNAME_MAX];
		int n = cgname_of(table[i].path, name, sizeof(name));

		unit_checks++;
		if (strcmp(name, table[i].name) != 0 ||
		    n != (int)strlen(table[i].name)) {
			unit_failures++;
			fprintf(stderr, "cgname_of(\"%s\") = \"%s\" (%d), "
				"expected \"%s\"\n", table[i].path, name, n,
				table[i].name);
		}
	}
}

static void test_edges(void)
{
	char small[8], big[CGNAME_MAX], part[300];

	/* cut like snprintf: terminated, the whole length returned */
	CHECK(cgname_of("/docker/" ID, small, sizeof(small)) == 19);
	CHECK_STR(small, "docker ");
	CHECK(cgname_of("/system.slice/nginx.service", small, 1) == 13);
	CHECK_STR(small, "");
	CHECK(cgname_of("/a", NULL, 0) == 1);
	CHECK(cgname_of(NULL, small, sizeof(small)) == 0);
	CHECK_STR(small, "");

	/* the longest component fits CGNAME_MAX */
	memset(part, 'x', 256);
	part[0] = '/';
	part[256] = '\0';
	CHECK(cgname_of(part, big, sizeof(big)) == 255);
	CHECK(strlen(big) == 255);
}

/* Whether a path is a cgroup's or below it: whole components only. */
static void test_within(void)
{
	CHECK(cgname_within("/a", "/a"));
	CHECK(cgname_within("/a/b", "/a"));
	CHECK(cgname_within("/a/b/c", "/a/b"));
	CHECK(!cgname_within("/ab", "/a"));
	CHECK(!cgname_within("/a", "/a/b"));
	CHECK(!cgname_within("/b", "/a"));
	CHECK(cgname_within("/", "/"));
	CHECK(cgname_within("/anything/at/all", "/"));
	CHECK(cgname_within("/a/b", "/a/"));
	CHECK(!cgname_within("/a (deleted)", "/a"));
	CHECK(!cgname_within(NULL, "/"));
	CHECK(!cgname_within("/a", NULL));
	CHECK(!cgname_within("/a", ""));
}

int main(void)
{
	test_table();
	test_edges();
	test_within();
	return unit_done();
}
