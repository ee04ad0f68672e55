/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PSI triggers (Documentation/accounting/psi.rst): "some 150000 1000000"
 * written, with its terminating NUL, to an open /proc/pressure file arms
 * it; poll() then reports POLLPRI each time the stall passes the
 * threshold within the window, and POLLERR once the trigger is gone. The
 * kernel takes windows of 500 ms to 10 s, a stall of at most the window,
 * and from openers without CAP_SYS_RESOURCE only multiples of 2 s.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/capability.h>

#include "kernel/privs.h"
#include "kernel/psi_trigger.h"
#include "lib/escape.h"
#include "lib/nls.h"

enum {
	WINDOW_MIN_MS = 500,
	WINDOW_MAX_MS = 10000,
	UNPRIV_WINDOW_MS = 2000,
};

/* The form every parse error names; syntax, so not translated. */
static const char form[] = "RESOURCE:some|full:STALL_MS/WINDOW_MS";

static void say(char *err, size_t errsize, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsize)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsize, fmt, ap);
	va_end(ap);
}

/* Whole milliseconds, digits only; saturates far above any valid value. */
static bool parse_ms(const char *s, size_t n, unsigned long long *out)
{
	unsigned long long v = 0;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v < 10000000000ULL)
			v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

static int lookup(const char *s, size_t n, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == n && memcmp(s, names[i], n) == 0)
			return i;
	return -1;
}

static void make_label(struct psi_trigger *t)
{
	if (t->window_ms % 1000 == 0)
		snprintf(t->label, sizeof(t->label), "%s %s %ums/%us",
			 psi_res_name[t->res], psi_kind_name[t->kind],
			 t->stall_ms, t->window_ms / 1000);
	else
		snprintf(t->label, sizeof(t->label), "%s %s %ums/%ums",
			 psi_res_name[t->res], psi_kind_name[t->kind],
			 t->stall_ms, t->window_ms);
}

int psi_trigger_parse(const char *spec, struct psi_trigger *t, char *err,
		      size_t errsize)
{
	char shown[128];
	const char *c1, *c2, *slash;
	unsigned long long stall, window;
	int res, kind;

	escape_text(spec ? spec : "", shown, sizeof(shown));
	if (!spec)
		goto bad_form;
	c1 = strchr(spec, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	slash = c2 ? strchr(c2 + 1, '/') : NULL;
	if (!slash || strchr(slash + 1, '/') || strchr(c2 + 1, ':'))
		goto bad_form;

	res = lookup(spec, (size_t)(c1 - spec), psi_res_name, NPSI);
	if (res < 0) {
		char word[64];
		size_t n = (size_t)(c1 - spec);
		char raw[32];

		if (n >= sizeof(raw))
			n = sizeof(raw) - 1;
		memcpy(raw, spec, n);
		raw[n] = '\0';
		escape_text(raw, word, sizeof(word));
		say(err, errsize,
		    _("invalid trigger \"%s\": unknown resource \"%s\"; expected %s with RESOURCE cpu, memory, io or irq"),
		    shown, word, form);
		return -1;
	}
	kind = lookup(c1 + 1, (size_t)(c2 - c1 - 1), psi_kind_name, NPSI_KIND);
	if (kind < 0) {
		say(err, errsize,
		    _("invalid trigger \"%s\": the kind must be some or full; expected %s"),
		    shown, form);
		return -1;
	}
	if (res == PSI_IRQ && kind != PSI_FULL) {
		say(err, errsize,
		    _("invalid trigger \"%s\": irq pressure has only a full line; expected %s"),
		    shown, form);
		return -1;
	}
	if (!parse_ms(c2 + 1, (size_t)(slash - c2 - 1), &stall) ||
	    !parse_ms(slash + 1, strlen(slash + 1), &window)) {
		say(err, errsize,
		    _("invalid trigger \"%s\": STALL_MS and WINDOW_MS must be whole numbers of milliseconds; expected %s"),
		    shown, form);
		return -1;
	}
	if (window < WINDOW_MIN_MS || window > WINDOW_MAX_MS) {
		say(err, errsize,
		    _("invalid trigger \"%s\": the kernel takes windows of %d to %d ms; expected %s"),
		    shown, WINDOW_MIN_MS, WINDOW_MAX_MS, form);
		return -1;
	}
	if (stall == 0 || stall > window) {
		say(err, errsize,
		    _("invalid trigger \"%s\": the stall must be more than 0 ms and at most the window; expected %s"),
		    shown, form);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	t->res = (enum psi_res)res;
	t->kind = (enum psi_kind)kind;
	t->stall_ms = (unsigned)stall;
	t->window_ms = (unsigned)window;
	t->fd = -1;
	make_label(t);
	return 0;

bad_form:
	say(err, errsize,
	    _("invalid trigger \"%s\": expected %s (for example memory:some:150/1000)"),
	    shown, form);
	return -1;
}

/* Why writing the trigger failed, in words. */
static void write_error(const struct psi_trigger *t, const char *path, int e,
			char *err, size_t errsize)
{
	if (e == EINVAL && t->window_ms % UNPRIV_WINDOW_MS &&
	    !privs_effective(CAP_SYS_RESOURCE))
		say(err, errsize,
		    _("cannot arm trigger %s: without CAP_SYS_RESOURCE the kernel takes only windows that are multiples of 2 s (2000 ms)"),
		    t->label);
	else if (e == EOPNOTSUPP)
		say(err, errsize,
		    _("cannot arm trigger %s: PSI is disabled in this kernel (psi=0)"),
		    t->label);
	else if (e == EPERM || e == EACCES)
		say(err, errsize,
		    _("cannot arm trigger %s: permission denied on %s (older kernels take PSI triggers only from root or with CAP_SYS_RESOURCE)"),
		    t->label, path);
	else if (e == EINVAL)
		say(err, errsize, _("cannot arm trigger %s: the kernel rejected it (%s)"),
		    t->label, strerror(e));
	else
		say(err, errsize, _("cannot arm trigger %s: %s: %s"), t->label,
		    path, strerror(e));
}

int psi_trigger_arm(struct psi_trigger *t, const char *dir, char *err,
		    size_t errsize)
{
	char path[4096], cmd[64];
	struct stat st;
	size_t len;
	ssize_t n;
	int fd, e;

	/* For a parsed, unarmed t; an old fd is not closed (0 is stdin). */
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
			     psi_res_name[t->res]) >= sizeof(path)) {
		say(err, errsize, _("cannot arm trigger %s: %s"), t->label,
		    strerror(ENAMETOOLONG));
		return -1;
	}
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT && stat(dir, &st) < 0)
			say(err, errsize,
			    _("cannot arm trigger %s: PSI is not available (%s is missing: a kernel without CONFIG_PSI, or booted with psi=0)"),
			    t->label, dir);
		else if (e == ENOENT)
			say(err, errsize,
			    _("cannot arm trigger %s: this kernel has no %s pressure (%s is missing)"),
			    t->label, psi_res_name[t->res], path);
		else
			write_error(t, path, e, err, errsize);
		return -1;
	}
	/* The kernel reads a NUL-terminated string: the NUL is sent too. */
	snprintf(cmd, sizeof(cmd), "%s %u %u", psi_kind_name[t->kind],
		 t->stall_ms * 1000u, t->window_ms * 1000u);
	len = strlen(cmd) + 1;
	do
		n = write(fd, cmd, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len) {
		e = n < 0 ? errno : EIO;
		close(fd);
		write_error(t, path, e, err, errsize);
		return -1;
	}
	t->fd = fd;
	return 0;
}

/*
 * POLLPRI: the trigger fired (there is nothing to read or reset).
 * POLLERR (with POLLPRI) or POLLNVAL: the trigger is gone for good.
 */
int psi_trigger_fired(const struct psi_trigger *t, unsigned revents)
{
	if (t->fd < 0 || (revents & (POLLERR | POLLNVAL)))
		return -1;
	return (revents & POLLPRI) != 0;
}

void psi_trigger_close(struct psi_trigger *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
