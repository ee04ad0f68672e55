/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Operator names of cgroups (cgname.h). The schemes, as the runtimes
 * and kubelet name their cgroups:
 *
 *   docker    systemd: docker-ID.scope           cgroupfs: /docker/ID
 *   podman    systemd: libpod-ID.scope, libpod-conmon-ID.scope
 *             cgroupfs: /libpod_parent/libpod-ID
 *   cri-o     crio-ID.scope, crio-conmon-ID.scope
 *   containerd (CRI)  cri-containerd-ID.scope
 *   kubelet   systemd: kubepods.slice/kubepods-burstable.slice/
 *                      kubepods-burstable-podUID.slice (UID with _ for -)
 *             cgroupfs: /kubepods/burstable/podUID/ID
 *             Guaranteed pods have no QoS level: kubepods-podUID.slice,
 *             /kubepods/podUID. The kubelet may prefix its root
 *             (kubelet-kubepods.slice).
 *   LXC       /lxc.payload.NAME, /lxc.monitor.NAME, /lxc/NAME
 *
 * where ID is 64 hexadecimal digits; a part that only looks like one of
 * these (a shorter id, other characters) keeps its own name.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/cgname.h"

/* A piece of the path: [s, s + n). */
struct part {
	const char *s;
	size_t n;
};

static bool is(struct part p, const char *word)
{
	return p.n == strlen(word) && memcmp(p.s, word, p.n) == 0;
}

static bool starts(struct part p, const char *prefix)
{
	size_t n = strlen(prefix);

	return p.n >= n && memcmp(p.s, prefix, n) == 0;
}

static bool ends(struct part p, const char *suffix)
{
	size_t n = strlen(suffix);

	return p.n >= n && memcmp(p.s + p.n - n, suffix, n) == 0;
}

static struct part skip(struct part p, size_t n)
{
	return (struct part){ p.s + n, p.n - n };
}

static struct part cut(struct part p, size_t n)
{
	return (struct part){ p.s, p.n - n };
}

/* A container id: 64 lowercase hexadecimal digits. */
static bool is_id(struct part p)
{
	if (p.n != 64)
		return false;
	for (size_t i = 0; i < p.n; i++)
		if (!((p.s[i] >= '0' && p.s[i] <= '9') ||
		      (p.s[i] >= 'a' && p.s[i] <= 'f')))
			return false;
	return true;
}

/*
 * A pod UID: hexadecimal digits and dashes (a UUID, or the 32 digits of a
 * static pod's hash); in systemd's names the dashes are underscores.
 */
static bool is_uid(struct part p)
{
	if (p.n < 8 || p.n > 64)
		return false;
	for (size_t i = 0; i < p.n; i++) {
		char c = p.s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		      c == '-' || c == '_'))
			return false;
	}
	return true;
}

/* The components of a path, last first: at most three are looked at. */
static size_t components(const char *path, struct part *c, size_t max)
{
	const char *end = path + strlen(path);
	size_t n = 0;

	while (n < max) {
		const char *e, *s;

		while (end > path && end[-1] == '/')
			end--;
		if (end == path)
			break;
		e = end;
		while (end > path && end[-1] != '/')
			end--;
		s = end;
		c[n++] = (struct part){ s, (size_t)(e - s) };
	}
	return n;
}

struct out {
	char *buf;
	size_t size;
	int len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->size && (size_t)o->len < o->size - 1) {
		size_t room = o->size - 1 - (size_t)o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += (int)n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* "RUNTIME 0123456789ab" */
static void container(struct out *o, const char *runtime, struct part id)
{
	puts_(o, runtime);
	put(o, " ", 1);
	put(o, id.s, 12);
}

/* The runtimes' scopes: prefix, then the id, then ".scope" or nothing. */
static const struct {
	const char *prefix;
	const char *runtime;
} scopes[] = {
	/* longest first: libpod-conmon- before libpod- */
	{ "libpod-conmon-", "podman conmon" },
	{ "libpod-", "podman" },
	{ "crio-conmon-", "cri-o conmon" },
	{ "crio-", "cri-o" },
	{ "cri-containerd-", "containerd" },
	{ "docker-", "docker" },
};

static bool container_scope(struct out *o, struct part base)
{
	struct part stem = ends(base, ".scope") ? cut(base, 6) : base;

	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		size_t n = strlen(scopes[i].prefix);

		if (starts(stem, scopes[i].prefix) && is_id(skip(stem, n))) {
			container(o, scopes[i].runtime, skip(stem, n));
			return true;
		}
	}
	return false;
}

/* A QoS class as Kubernetes spells it, from its cgroup's word. */
static const char *qos(struct part p)
{
	if (is(p, "burstable"))
		return "Burstable";
	if (is(p, "besteffort"))
		return "BestEffort";
	return NULL;
}

/* "pod UID (QOS)", the UID with its dashes back. */
static void pod(struct out *o, struct part uid, const char *qos_class)
{
	puts_(o, "pod ");
	for (size_t i = 0; i < uid.n; i++)
		put(o, uid.s[i] == '_' ? "-" : &uid.s[i], 1);
	puts_(o, " (");
	puts_(o, qos_class);
	put(o, ")", 1);
}

/*
 * kubelet's systemd slices: [PREFIX-]kubepods[-QOS][-podUID].slice.
 * False when base is not one of them.
 */
static bool kube_slice(struct out *o, struct part base)
{
	struct part stem, rest;
	const char *q = NULL, *k;

	if (!ends(base, ".slice"))
		return false;
	stem = cut(base, 6);
	/* the kubelet's own prefix, if any, ends in '-' */
	k = memmem(stem.s, stem.n, "kubepods", 8);
	if (!k || (k != stem.s && k[-1] != '-'))
		return false;
	rest = (struct part){ k + 8, stem.n - (size_t)(k + 8 - stem.s) };
	if (rest.n == 0) {
		puts_(o, "kubepods");
		return true;
	}
	if (!starts(rest, "-"))
		return false;
	rest = skip(rest, 1);
	for (size_t i = 0; i < 2 && !q; i++) {
		static const char *const words[] = { "burstable", "besteffort" };
		size_t n = strlen(words[i]);
		struct part word = { rest.s, n };

		if (rest.n >= n && is(word, words[i]) &&
		    (rest.n == n || rest.s[n] == '-')) {
			q = qos(word);
			rest = skip(rest, rest.n == n ? n : n + 1);
		}
	}
	if (rest.n == 0 && q) {
		puts_(o, q);
		puts_(o, " pods");
		return true;
	}
	if (starts(rest, "pod") && is_uid(skip(rest, 3))) {
		pod(o, skip(rest, 3), q ? q : "Guaranteed");
		return true;
	}
	return false;
}

/* kubelet's cgroupfs directories: /kubepods[/QOS][/podUID][/ID]. */
static bool kube_dir(struct out *o, const struct part *c, size_t n)
{
	bool in_pod = n > 1 && starts(c[1], "pod") && is_uid(skip(c[1], 3));

	if (n > 1 && is(c[1], "kubepods") && qos(c[0])) {
		puts_(o, qos(c[0]));
		puts_(o, " pods");
		return true;
	}
	if (starts(c[0], "pod") && is_uid(skip(c[0], 3))) {
		if (n > 1 && is(c[1], "kubepods")) {
			pod(o, skip(c[0], 3), "Guaranteed");
			return true;
		}
		if (n > 2 && qos(c[1]) && is(c[2], "kubepods")) {
			pod(o, skip(c[0], 3), qos(c[1]));
			return true;
		}
	}
	if (in_pod && is_id(c[0])) {
		container(o, "container", c[0]);
		return true;
	}
	return false;
}

/* LXC: lxc.payload.NAME, lxc.monitor.NAME, lxc/NAME. */
static bool lxc(struct out *o, const struct part *c, size_t n)
{
	if (starts(c[0], "lxc.payload.") && c[0].n > 12) {
		puts_(o, "lxc ");
		put(o, c[0].s + 12, c[0].n - 12);
		return true;
	}
	if (starts(c[0], "lxc.monitor.") && c[0].n > 12) {
		puts_(o, "lxc monitor ");
		put(o, c[0].s + 12, c[0].n - 12);
		return true;
	}
	if (n > 1 && is(c[1], "lxc")) {
		puts_(o, "lxc ");
		put(o, c[0].s, c[0].n);
		return true;
	}
	return false;
}

int cgname_of(const char *path, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct part c[3];
	size_t n;

	if (size)
		buf[0] = '\0';
	if (!path)
		return 0;
	n = components(path, c, 3);
	if (n == 0) {
		/* the root (or a path of slashes) */
		puts_(&o, *path ? "/" : "");
		return o.len;
	}
	if (container_scope(&o, c[0]) || kube_slice(&o, c[0]) ||
	    kube_dir(&o, c, n) || lxc(&o, c, n))
		return o.len;
	/* docker's cgroupfs driver: /docker/ID */
	if (n > 1 && is(c[1], "docker") && is_id(c[0])) {
		container(&o, "docker", c[0]);
		return o.len;
	}
	put(&o, c[0].s, c[0].n);
	return o.len;
}

bool cgname_within(const char *path, const char *prefix)
{
	size_t n;

	if (!path || !prefix || !*prefix)
		return false;
	n = strlen(prefix);
	if (strncmp(path, prefix, n) != 0)
		return false;
	return path[n] == '\0' || path[n] == '/' || prefix[n - 1] == '/';
}
