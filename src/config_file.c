/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings file: reading (lenient, never fatal) and atomic writing. */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_file.h"
#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numfmt.h"
#include "lib/numparse.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "model/select.h"
#include "view/om_series.h"
#include "view/output.h"


static const char *const metric_names[NMETRIC] = {
	[METRIC_PCT] = "pct",
	[METRIC_AVG] = "avg",
	[METRIC_RATE] = "rate",
	[METRIC_MAX] = "max",
};

/* The file's names of the metrics: "pct", "avg", "rate", "max"; -1 unknown. */
static int config_file_metric_by_name(const char *name)
{
	for (int i = 0; i < NMETRIC; i++)
		if (strcmp(metric_names[i], name) == 0)
			return i;
	return -1;
}

static const char *config_file_metric_name(int metric)
{
	return metric >= 0 && metric < NMETRIC ? metric_names[metric] : "pct";
}

char *config_file_path(void)
{
	const char *base = getenv("XDG_CONFIG_HOME");
	const char *sub = "";
	char *path;

	/* the XDG spec: a relative path is invalid and to be ignored */
	if (!base || base[0] != '/') {
		base = getenv("HOME");
		if (!base || !*base) {
			struct passwd *pw = getpwuid(getuid());
			base = pw ? pw->pw_dir : NULL;
		}
		if (!base || !*base)
			return NULL;
		sub = "/.config";
	}
	if (asprintf(&path, "%s%s/stalltop/stalltoprc", base, sub) < 0)
		return NULL;
	return path;
}

/* The settings: each knows its SET_ bit and how to read and write it. */
enum setting_type { T_BOOL, T_DELAY, T_SORT, T_METRIC, T_COLUMNS };

struct setting {
	const char *key;
	enum setting_type type;
	unsigned set_bit;
	size_t offset;     /* in struct options */
};

#define OPT(f) offsetof(struct options, f)

static const struct setting settings[] = {
	{ "delay", T_DELAY, SET_DELAY, OPT(delay) },
	{ "sort", T_SORT, SET_SORT, OPT(sel.sort) },
	{ "reverse", T_BOOL, SET_REVERSE, OPT(sel.reverse) },
	{ "metric", T_METRIC, SET_METRIC, OPT(sel.metric) },
	{ "only_stalled", T_BOOL, SET_ONLY_STALLED, OPT(sel.only_stalled) },
	{ "cmdline", T_BOOL, SET_CMDLINE, OPT(cmdline) },
	{ "threads", T_BOOL, SET_THREADS, OPT(threads) },
	{ "accumulate", T_BOOL, SET_ACCUMULATE, OPT(accumulate) },
	{ "monochrome", T_BOOL, SET_MONOCHROME, OPT(monochrome) },
	{ "tree", T_BOOL, SET_TREE, OPT(tree) },
	{ "columns", T_COLUMNS, SET_COLUMNS, OPT(columns) },
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static char *trim(char *s);

/*
 * The screen's columns: names (fields' keys) of the task table, each
 * once, comma-separated, COMMAND (comm) last. Returns 0 or -1.
 */
static int parse_columns(struct options *o, const char *v)
{
	int n = 0;
	const char *p = v;

	while (*p) {
		size_t len = strcspn(p, ",");
		char name[64];
		int id;

		if (len == 0 || len >= sizeof(name))
			return -1;
		memcpy(name, p, len);
		name[len] = '\0';
		id = layouts_screen_by_key(trim(name));
		if (id < 0 || n == NFIELD)
			return -1;
		for (int i = 0; i < n; i++)
			if (o->columns[i] == id)
				return -1;
		o->columns[n++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	/* the command line takes the rest of the line: last, and there */
	if (n == 0 || o->columns[n - 1] != FIELD_COMM)
		return -1;
	o->ncolumns = n;
	return 0;
}

/* Parse value for s into o. Returns 0, or -1 when the value is invalid. */
static int apply(struct options *o, const struct setting *s, const char *v)
{
	void *field = (char *)o + s->offset;
	double d;
	bool b;
	int k;

	switch (s->type) {
	case T_BOOL:
		if (parse_bool(v, &b) < 0)
			return -1;
		*(bool *)field = b;
		return 0;
	case T_DELAY:
		if (numparse_delay(v, &d) < 0)
			return -1;
		*(double *)field = d;
		return 0;
	case T_SORT:
		k = fields_sort_by_name(v);
		if (k < 0)
			return -1;
		*(int *)field = k;
		return 0;
	case T_METRIC:
		k = config_file_metric_by_name(v);
		if (k < 0)
			return -1;
		*(enum metric *)field = (enum metric)k;
		return 0;
	case T_COLUMNS:
		return parse_columns(o, v);
	}
	return -1;
}

/* Outside text (the file's, its path) escaped for the terminal; NULL: no memory. */
static char *escaped(const char *text)
{
	size_t size = strlen(text) * 4 + 1;
	char *e = malloc(size);
	if (e)
		escape_text(text, e, size);
	return e;
}

/* A file that cannot be read, its path escaped. */
static void warn_file(const char *path)
{
	int e = errno;
	char *p = escaped(path);
	errno = e;
	warn(_("cannot read %s"), p ? p : "?");
	free(p);
}

/*
 * A note about a line of the file. The file's text (a key, a value) and
 * its path are outside text: escaped, so that the file cannot write to
 * the terminal (escape.h).
 */
static void __attribute__((format(printf, 3, 4)))
warn_line(const char *path, unsigned line, const char *fmt, ...)
{
	char *what;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	char *esc_what = escaped(what ? what : fmt), *esc_path = escaped(path);
	if (esc_what && esc_path)
		warnx("%s:%u: %s", esc_path, line, esc_what);
	free(esc_what);
	free(esc_path);
	free(what);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Whether the user asked for no colour through the environment. */
static bool no_color_env(void)
{
	const char *v = getenv("NO_COLOR");
	return v && *v;
}

/*
 * A workload-group rule of the metrics (view/om_series.h), checked and
 * kept as written, in the file's order. 0, or -1 when skipped.
 */
static int add_group_rule(struct options *o, const char *value,
			  const char *path, unsigned lineno)
{
	struct om_rule r;
	char why[256];
	if (om_rule_parse(&r, value, why, sizeof(why)) < 0) {
		warn_line(path, lineno, _("invalid group rule '%s' (%s), skipped"),
			  value, why);
		return -1;
	}
	om_rule_free(&r);
	char *copy = strdup(value);
	char **v = copy ? realloc(o->group_rules,
				  (o->ngroup_rules + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(copy);
		warn_line(path, lineno, "%s", strerror(ENOMEM));
		return -1;
	}
	v[o->ngroup_rules++] = copy;
	o->group_rules = v;
	return 0;
}

static int load_stream(struct options *o, FILE *f, const char *path,
		       bool groups_only)
{
	char *buf = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int skipped = 0;

	while (getline(&buf, &cap, f) >= 0) {
		lineno++;
		char *line = trim(buf);
		if (!*line || *line == '#')
			continue;
		char *eq = strchr(line, '=');
		if (!eq && groups_only)
			continue;
		if (!eq) {
			warn_line(path, lineno, _("not a key=value line, skipped"));
			skipped++;
			continue;
		}
		*eq = '\0';
		char *key = trim(line), *value = trim(eq + 1);
		if (strcmp(key, "group") == 0) {
			if (add_group_rule(o, value, path, lineno) < 0)
				skipped++;
			continue;
		}
		if (groups_only)
			continue;
		const struct setting *s = NULL;
		for (size_t i = 0; i < NSETTINGS; i++)
			if (strcmp(settings[i].key, key) == 0)
				s = &settings[i];
		if (!s) {
			warn_line(path, lineno, _("unknown setting '%s', skipped"),
				  key);
			skipped++;
			continue;
		}
		if (o->set_mask & s->set_bit)
			continue; /* the command line wins */
		if (s->set_bit == SET_MONOCHROME && no_color_env())
			continue; /* so does NO_COLOR */
		struct options trial = *o;
		if (apply(&trial, s, value) < 0) {
			warn_line(path, lineno,
				  _("invalid value '%s' for %s, skipped"), value, key);
			skipped++;
			continue;
		}
		*o = trial;
	}
	free(buf);
	return skipped;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return _("a FIFO");
	if (S_ISDIR(mode))
		return _("a directory");
	if (S_ISCHR(mode))
		return _("a character device");
	if (S_ISBLK(mode))
		return _("a block device");
	if (S_ISSOCK(mode))
		return _("a socket");
	return _("something else");
}

/*
 * The file is refused: what it is and what to do (translated), said
 * once; nothing of it is applied.
 */
static void refuse(const char *path, const char *what, const char *fix)
{
	char *p = escaped(path);
	warnx(_("%s: %s, so it is not read and the defaults apply; %s"),
	      p ? p : "?", what, fix);
	free(p);
}

/* A file larger than CONFIG_FILE_MAX, told so. */
static void refuse_size(const char *path)
{
	char what[128];
	snprintf(what, sizeof(what), _("larger than %d KiB"),
		 CONFIG_FILE_MAX / 1024);
	refuse(path, what, _("settings never need that much: shorten it"));
}

/*
 * Whether the file open on fd (with st, its fstat) may be read as the
 * settings of this user: a regular file of at most CONFIG_FILE_MAX
 * bytes, owned by the real user or root and writable by no one else.
 * Otherwise it says why and returns false.
 */
static bool file_acceptable(const char *path, const struct stat *st)
{
	char what[256];
	uid_t me = getuid();

	if (!S_ISREG(st->st_mode)) {
		snprintf(what, sizeof(what), _("%s, not a regular file"),
			 file_kind(st->st_mode));
		refuse(path, what, _("make it a regular file or remove it"));
	} else if (st->st_uid != me && st->st_uid != 0) {
		snprintf(what, sizeof(what),
			 _("owned by user %lu, neither you (user %lu) nor root"),
			 (unsigned long)st->st_uid, (unsigned long)me);
		refuse(path, what,
		       _("only your own or root's is read: chown it, or set "
			 "XDG_CONFIG_HOME to a directory of yours"));
	} else if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(what, sizeof(what),
			 _("writable by its group or others (mode %04o)"),
			 (unsigned)(st->st_mode & 07777));
		refuse(path, what, _("run chmod go-w on it"));
	} else if (st->st_size > CONFIG_FILE_MAX) {
		refuse_size(path);
	} else {
		return true;
	}
	return false;
}

/*
 * The text of the file, read from fd: at most CONFIG_FILE_MAX bytes
 * (one more tells a file that grew past it). Returns its length, or -1
 * (said).
 */
static ssize_t read_bounded(int fd, const char *path, char *buf)
{
	size_t n = 0;

	while (n < CONFIG_FILE_MAX + 1) {
		ssize_t got = read(fd, buf + n, CONFIG_FILE_MAX + 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			warn_file(path);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > CONFIG_FILE_MAX) {
		refuse_size(path);
		return -1;
	}
	return (ssize_t)n;
}

static int load_text(struct options *o, const char *text, size_t len,
		     const char *name, bool groups_only)
{
	if (len == 0)
		return 0;
	/* mode "r": the stream ends after len bytes, NULs included */
	FILE *f = fmemopen((void *)text, len, "r");
	if (!f)
		return -1;
	int skipped = load_stream(o, f, name, groups_only);
	fclose(f);
	return skipped;
}

static int load_file(struct options *o, const char *path_or_null,
		     bool groups_only)
{
	char *own = NULL, *buf = NULL;
	const char *path = path_or_null;
	int ret = -1, fd;
	struct stat st;

	if (!path) {
		path = own = config_file_path();
		if (!path)
			return 0;
	}
	/*
	 * Never waiting: a FIFO opens at once without a writer (and is then
	 * refused), and nothing is decided on the name before the open.
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			ret = 0;
		else
			warn_file(path);
		free(own);
		return ret;
	}
	if (fstat(fd, &st) < 0)
		warn_file(path);
	else if (file_acceptable(path, &st) &&
		 (buf = malloc(CONFIG_FILE_MAX + 1)) == NULL)
		warn_file(path);
	if (buf) {
		ssize_t len = read_bounded(fd, path, buf);
		if (len >= 0)
			ret = load_text(o, buf, (size_t)len, path, groups_only);
		if (ret < 0 && len >= 0)
			warn_file(path);
	}
	free(buf);
	close(fd);
	free(own);
	return ret;
}

int config_file_load(struct options *o, const char *path_or_null)
{
	return load_file(o, path_or_null, false);
}

int config_file_load_groups(struct options *o, const char *path_or_null)
{
	return load_file(o, path_or_null, true);
}

int config_file_load_text(struct options *o, const char *text, size_t len,
		     const char *name)
{
	return load_text(o, text, len, name, false);
}

/* Create dir and its missing parents with mode 0700. */
static int make_dirs(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
	char *copy = strdup(dir);
	if (!copy)
		return -1;
	char *slash = strrchr(copy, '/');
	if (slash && slash != copy) {
		*slash = '\0';
		if (make_dirs(copy) < 0) {
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static void format_delay(char *buf, size_t size, double d)
{
	/* a '.' whatever the locale: the file must read back anywhere */
	if (!numfmt_fixed(buf, size, d, 6))
		snprintf(buf, size, "1");
	char *end = buf + strlen(buf);
	while (end > buf && end[-1] == '0')
		*--end = '\0';
	if (end > buf && end[-1] == '.')
		*--end = '\0';
}

static int write_settings(FILE *f, const struct options *o)
{
	char delay[64];
	format_delay(delay, sizeof(delay), o->delay);
	fprintf(f, "# %s settings, written by %s (key W); key=value per line\n",
		PACKAGE, PACKAGE);
	for (size_t i = 0; i < NSETTINGS; i++) {
		const struct setting *s = &settings[i];
		const void *field = (const char *)o + s->offset;
		switch (s->type) {
		case T_BOOL:
			/* a colour choice made by NO_COLOR is not a setting */
			if (s->set_bit == SET_MONOCHROME && no_color_env() &&
			    !(o->set_mask & SET_MONOCHROME))
				continue;
			fprintf(f, "%s=%d\n", s->key, *(const bool *)field ? 1 : 0);
			break;
		case T_DELAY:
			fprintf(f, "%s=%s\n", s->key, delay);
			break;
		case T_SORT:
			fprintf(f, "%s=%s\n", s->key, fields_sort_name(*(const int *)field));
			break;
		case T_METRIC:
			fprintf(f, "%s=%s\n", s->key,
				config_file_metric_name(*(const enum metric *)field));
			break;
		case T_COLUMNS:
			/* the default columns are no setting */
			if (!o->ncolumns)
				continue;
			fprintf(f, "%s=", s->key);
			for (int i = 0; i < o->ncolumns; i++)
				fprintf(f, "%s%s", i ? "," : "",
					fields_get(o->columns[i])->key);
			putc('\n', f);
			break;
		}
	}
	for (size_t i = 0; i < o->ngroup_rules; i++)
		fprintf(f, "group=%s\n", o->group_rules[i]);
	return ferror(f) ? -1 : 0;
}

/*
 * The directory open on dfd may hold this user's settings: owned by the
 * real user or root and writable by no one else (what reading the file
 * asks of it, file_acceptable). 0, or -1 with errno EPERM.
 */
static int dir_acceptable(int dfd)
{
	struct stat st;
	uid_t me = getuid();

	if (fstat(dfd, &st) < 0)
		return -1;
	if ((st.st_uid != me && st.st_uid != 0) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/*
 * A new temporary file in the directory dfd, its name into name: never
 * one that exists, never through a symbolic link (O_EXCL).
 */
static int open_temp(int dfd, char *name, size_t size)
{
	static unsigned serial;

	for (int tries = 0; tries < 100; tries++) {
		snprintf(name, size, ".stalltoprc.%ld.%u", (long)getpid(),
			 serial++);
		int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL |
				O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int config_file_save(const struct options *o, const char *path_or_null)
{
	char *own = NULL, *dir = NULL;
	const char *path = path_or_null, *base;
	char tmp[64] = "";
	int fd = -1, dfd = -1, ret = -1, e = 0;
	FILE *f = NULL;

	if (!path) {
		path = own = config_file_path();
		if (!path) {
			errno = ENOENT;
			return -1;
		}
	}
	dir = strdup(path);
	if (!dir)
		goto out;
	char *slash = strrchr(dir, '/');
	base = slash ? path + (slash - dir) + 1 : path;
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	if (!*base) {
		errno = EISDIR;
		goto out;
	}
	if (make_dirs(dir) < 0)
		goto out;
	/* all below in this directory, checked once it is open */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || dir_acceptable(dfd) < 0)
		goto out;
	fd = open_temp(dfd, tmp, sizeof(tmp));
	if (fd < 0) {
		tmp[0] = '\0';
		goto out;
	}
	if (fchmod(fd, 0600) < 0)
		goto out;
	f = fdopen(fd, "w");
	if (!f)
		goto out;
	fd = -1;
	if (write_settings(f, o) < 0 || fflush(f) != 0 || fsync(fileno(f)) < 0)
		goto out;
	if (fclose(f) != 0) {
		f = NULL;
		goto out;
	}
	f = NULL;
	/* replaces a symbolic link there, never writes through it */
	if (renameat(dfd, tmp, dfd, base) < 0)
		goto out;
	tmp[0] = '\0';
	/* make the rename itself durable */
	fsync(dfd);
	ret = 0;
out:
	e = errno;
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (tmp[0])
		unlinkat(dfd, tmp, 0);
	if (dfd >= 0)
		close(dfd);
	free(dir);
	free(own);
	errno = e;
	return ret;
}
