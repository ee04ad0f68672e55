/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2. The hierarchy is wherever mountinfo says a "cgroup2" file
 * system is mounted (/sys/fs/cgroup on pure v2, /sys/fs/cgroup/unified on
 * hybrid systems); a task's place in it is the "0::" line of
 * /proc/PID/cgroup. For the evidence of a stall
 * the v1 hierarchies count too: their mounts ("cgroup" with the
 * controller among the super options) and their lines of /proc/PID/cgroup.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "kernel/cgroup.h"
#include "kernel/procfs.h"
#include "kernel/psi.h"
#include "lib/cgroup_parse.h"

/* statfs f_type of the cgroup2 and cgroup file systems (linux/magic.h). */
#define CG2_MAGIC 0x63677270UL
#define CG1_MAGIC 0x27e0ebUL

char *cgroup_read_file(const char *path)
{
	return procfs_read_all(AT_FDCWD, path);
}

/* The next space-separated field of a line [*p, end), or false. */
static bool field(const char **p, const char *end, const char **start,
		  size_t *len)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return false;
	*start = s;
	while (s < end && *s != ' ')
		s++;
	*len = (size_t)(s - *start);
	*p = s;
	return true;
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/*
 * A mountinfo path with the kernel's \ooo escapes (space, tab, newline,
 * backslash) decoded into out. False when it does not fit.
 */
static bool unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	if (size == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len && is_octal(s[i + 1]) &&
		    is_octal(s[i + 2]) && is_octal(s[i + 3])) {
			c = (char)(((s[i + 1] - '0') << 6) |
				   ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}

/*
 * One mountinfo line:
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 * ID, parent, dev, root, mount point, options, optional fields ending in
 * a lone "-", then the file system type, the source and the super
 * options. The fields that tell a cgroup mount, still escaped; false when
 * the line is cut short before the type.
 */
struct mount_fields {
	const char *root, *mnt, *type, *opts; /* opts NULL: none */
	size_t rootl, mntl, typel, optsl;
};

static bool mount_fields(const char *p, const char *end, struct mount_fields *f)
{
	const char *s;
	size_t n;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 6; i++) {
		if (!field(&p, end, &s, &n))
			return false;
		if (i == 3) {
			f->root = s;
			f->rootl = n;
		} else if (i == 4) {
			f->mnt = s;
			f->mntl = n;
		}
	}
	do
		if (!field(&p, end, &s, &n))
			return false;
	while (n != 1 || *s != '-');
	if (!field(&p, end, &f->type, &f->typel))
		return false;
	if (field(&p, end, &s, &n) && !field(&p, end, &f->opts, &f->optsl))
		f->opts = NULL;
	return true;
}

/*
 * 1 when mountinfo line p..end is a cgroup2 mount (the mount point is in
 * mnt, the part of the hierarchy it shows in fsroot when asked for), -1
 * when it is but they do not fit, else 0.
 */
static int cgroup2_line(const char *p, const char *end, char *mnt,
			size_t size, char *fsroot, size_t rootsize)
{
	struct mount_fields f;

	if (!mount_fields(p, end, &f) || f.typel != 7 ||
	    memcmp(f.type, "cgroup2", 7) != 0)
		return 0;
	if (!unescape(f.mnt, f.mntl, mnt, size) ||
	    (fsroot && !unescape(f.root, f.rootl, fsroot, rootsize)))
		return -1;
	return 1;
}

int cgroup_parse_mountinfo_v2(const char *text, char *mnt, size_t size,
			      char *fsroot, size_t rootsize)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);

		int found = cgroup2_line(text, end, mnt, size, fsroot, rootsize);

		if (found)
			return found > 0 ? 0 : -1;
		text = nl ? nl + 1 : end;
	}
	return -1;
}

/* root + path without a doubled slash at the join; false if too long. */
static bool join(char *out, size_t size, const char *root, const char *path)
{
	size_t rl = strlen(root);
	int len;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		rl = 0;
	while (*path == '/')
		path++;
	len = snprintf(out, size, "%.*s/%s", (int)rl, root, path);
	return len >= 0 && (size_t)len < size;
}

/*
 * "a//b/./c/" -> "/a/b/c"; "" and "/" -> "/". A ".." component is an
 * error (EINVAL): the path names a cgroup, not a way out of the tree.
 */
static int normalise(const char *path, char *norm, size_t size)
{
	size_t o = 0;
	const char *p = path;

	if (size < 2) {
		errno = ENAMETOOLONG;
		return -1;
	}
	while (*p) {
		const char *s;
		size_t n;

		while (*p == '/')
			p++;
		s = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - s);
		if (n == 0 || (n == 1 && s[0] == '.'))
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			errno = EINVAL;
			return -1;
		}
		if (o + 1 + n + 1 > size) {
			errno = ENAMETOOLONG;
			return -1;
		}
		norm[o++] = '/';
		memcpy(norm + o, s, n);
		o += n;
	}
	if (o == 0)
		norm[o++] = '/';
	norm[o] = '\0';
	return 0;
}

/*
 * errno on failure: EINVAL (empty, or a ".." component), ENAMETOOLONG,
 * ENOENT and the like from stat, ENOTDIR (not a directory), EMEDIUMTYPE
 * (not on a cgroup file system, v2 or v1). norm holds the normalised path as
 * soon as it could be made, for the caller's message.
 */
int cgroup_check_path(const char *root, const char *path, char *norm, size_t size)
{
	char full[4096];
	struct stat st;
	struct statfs sfs;

	if (!root || !path || !*path || !norm) {
		errno = EINVAL;
		return -1;
	}
	if (normalise(path, norm, size) < 0)
		return -1;
	if (!join(full, sizeof(full), root, norm)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (stat(full, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (statfs(full, &sfs) < 0)
		return -1;
	if ((unsigned long)sfs.f_type != CG2_MAGIC &&
	    (unsigned long)sfs.f_type != CG1_MAGIC) {
		errno = EMEDIUMTYPE;
		return -1;
	}
	return 0;
}

/*
 * One mountinfo line of a v1 hierarchy with controller among its super
 * options (the field after the source). 1 found, -1 found but too long.
 */
static int cgroup1_line(const char *p, const char *end, const char *controller,
			char *mnt, size_t mntsize, char *fsroot, size_t rootsize)
{
	struct mount_fields f;

	if (!mount_fields(p, end, &f) || f.typel != 6 ||
	    memcmp(f.type, "cgroup", 6) != 0 || !f.opts ||
	    !cgroup_parse_in_list(f.opts, f.optsl, controller))
		return 0;
	if (!unescape(f.mnt, f.mntl, mnt, mntsize) ||
	    !unescape(f.root, f.rootl, fsroot, rootsize))
		return -1;
	return 1;
}

int cgroup_parse_mountinfo_v1(const char *text, const char *controller,
			      char *mnt, size_t mntsize, char *fsroot,
			      size_t rootsize)
{
	while (text && *text && controller && *controller) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		int found = cgroup1_line(text, end, controller, mnt, mntsize,
					 fsroot, rootsize);

		if (found)
			return found > 0 ? 0 : -1;
		text = nl ? nl + 1 : end;
	}
	return -1;
}
