/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings file: path rules, save/load round trip, atomic replacement
 * with mode 0600 in a 0700 directory, the command line winning, and
 * broken or unknown lines reported with file:line and skipped; a file
 * that is no regular file, too large, another user's or writable by
 * others refused at once with its message, and saving only into a
 * directory of the user's (or root's) that no one else may write.
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config_file.h"
#include "options.h"
#include "unit.h"

static char dir[] = "/tmp/stalltop-config-XXXXXX";

static void defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->sel.sort = FIELD_TOTAL;
	o->sel.metric = METRIC_PCT;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(99);
	}
	fputs(text, f);
	fclose(f);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Run config_file_load with stderr going to a file; return what it printed. */
static int load_capture(struct options *o, const char *path, char **err)
{
	char errpath[256];
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	fflush(stderr);
	int saved = dup(2);
	int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	int r = config_file_load(o, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	*err = read_all(errpath);
	unlink(errpath);
	return r;
}

static size_t count_entries(const char *path)
{
	DIR *d = opendir(path);
	size_t n = 0;
	struct dirent *e;
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_path(void)
{
	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	char *p = config_file_path();
	CHECK_STR(p, "/x/conf/stalltop/stalltoprc");
	free(p);
	/* relative: ignored, as the XDG spec says */
	setenv("XDG_CONFIG_HOME", "rel/conf", 1);
	setenv("HOME", "/home/someone", 1);
	p = config_file_path();
	CHECK_STR(p, "/home/someone/.config/stalltop/stalltoprc");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	p = config_file_path();
	CHECK_STR(p, "/home/someone/.config/stalltop/stalltoprc");
	free(p);
}

static void test_round_trip(void)
{
	char base[256], path[300];
	snprintf(base, sizeof(base), "%s/xdg", dir);
	setenv("XDG_CONFIG_HOME", base, 1);
	snprintf(path, sizeof(path), "%s/stalltop/stalltoprc", base);

	struct options o, back;
	defaults(&o);
	o.delay = 0.25;
	o.sel.sort = CAT_IO;
	o.sel.reverse = true;
	o.sel.metric = METRIC_MAX;
	o.sel.only_stalled = true;
	o.cmdline = true;
	o.threads = true;
	o.accumulate = true;
	o.monochrome = true;
	unsetenv("NO_COLOR");
	CHECK(config_file_save(&o, NULL) == 0);

	/* created with the right modes, no temporary file left behind */
	struct stat st;
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U(st.st_mode & 07777, 0600);
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/stalltop", base);
	CHECK(stat(sub, &st) == 0);
	CHECK_EQ_U(st.st_mode & 07777, 0700);
	CHECK_EQ_U(count_entries(sub), 1);

	defaults(&back);
	char *err;
	CHECK(load_capture(&back, NULL, &err) == 0);
	CHECK_STR(err, "");
	CHECK_NEAR(back.delay, 0.25, 1e-9);
	CHECK(back.sel.sort == CAT_IO);
	CHECK(back.sel.reverse);
	CHECK(back.sel.metric == METRIC_MAX);
	CHECK(back.sel.only_stalled);
	CHECK(back.cmdline);
	CHECK(back.threads);
	CHECK(back.accumulate);
	CHECK(back.monochrome);

	/* saving again replaces the file in one step, still 0600 */
	o.delay = 3;
	o.sel.sort = FIELD_PID;
	chmod(path, 0644);
	CHECK(config_file_save(&o, path) == 0);
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U(st.st_mode & 07777, 0600);
	CHECK_EQ_U(count_entries(sub), 1);
	const char *text = read_all(path);
	CHECK(text && strstr(text, "\ndelay=3\n"));
	CHECK(text && strstr(text, "\nsort=pid\n"));
	unsetenv("XDG_CONFIG_HOME");
}

/*
 * The opposite settings: every boolean false, another sort key and
 * metric, loaded over options that hold the first set, so that a saver
 * or loader that knows only one value of a setting cannot pass.
 */
static void test_round_trip_opposite(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/opposite", dir);
	struct options o, back;
	defaults(&o);
	o.delay = 7.5;
	o.sel.sort = FIELD_COMM;
	o.sel.reverse = false;
	o.sel.metric = METRIC_RATE;
	o.sel.only_stalled = false;
	o.cmdline = false;
	o.threads = false;
	o.accumulate = false;
	o.monochrome = false;
	unsetenv("NO_COLOR");
	CHECK(config_file_save(&o, path) == 0);

	defaults(&back);
	back.delay = 0.25;
	back.sel.sort = CAT_IO;
	back.sel.reverse = true;
	back.sel.metric = METRIC_MAX;
	back.sel.only_stalled = true;
	back.cmdline = true;
	back.threads = true;
	back.accumulate = true;
	back.monochrome = true;
	char *err;
	CHECK(load_capture(&back, path, &err) == 0);
	CHECK_STR(err, "");
	CHECK_NEAR(back.delay, 7.5, 1e-9);
	CHECK(back.sel.sort == FIELD_COMM);
	CHECK(!back.sel.reverse);
	CHECK(back.sel.metric == METRIC_RATE);
	CHECK(!back.sel.only_stalled);
	CHECK(!back.cmdline);
	CHECK(!back.threads);
	CHECK(!back.accumulate);
	CHECK(!back.monochrome);
}

static void test_command_line_wins(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/wins", dir);
	write_file(path, "delay=5\nsort=swap\nreverse=1\ncmdline=yes\n");
	struct options o;
	defaults(&o);
	o.delay = 2;
	o.set_mask = SET_DELAY | SET_SORT;
	char *err;
	CHECK(load_capture(&o, path, &err) == 0);
	CHECK_NEAR(o.delay, 2, 1e-9);
	CHECK(o.sel.sort == FIELD_TOTAL);
	CHECK(o.sel.reverse);
	CHECK(o.cmdline);
}

static void test_broken_lines(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/broken", dir);
	write_file(path,
		   "# a comment\n"
		   "\n"
		   "  delay = 0.5  \n"        /* 3: fine, spaces allowed */
		   "colour=blue\n"            /* 4: unknown */
		   "this is not a setting\n"  /* 5: no '=' */
		   "sort=nonsense\n"          /* 6: bad value */
		   "delay=1e3\n"              /* 7: bad value, delay stays */
		   "delay=-1\n"               /* 8: bad value */
		   "reverse=maybe\n"          /* 9: bad value */
		   "metric=avg\n"             /* 10: fine */
		   "only_stalled=on\n");      /* 11: fine */
	struct options o;
	defaults(&o);
	char *err;
	int r = load_capture(&o, path, &err);
	CHECK(r == 6);
	CHECK_NEAR(o.delay, 0.5, 1e-9);
	CHECK(o.sel.sort == FIELD_TOTAL);
	CHECK(!o.sel.reverse);
	CHECK(o.sel.metric == METRIC_AVG);
	CHECK(o.sel.only_stalled);
	char want[400];
	static const int lines[] = { 4, 5, 6, 7, 8, 9 };
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(want, sizeof(want), "%s:%d: ", path, lines[i]);
		CHECK(err && strstr(err, want));
	}
	snprintf(want, sizeof(want), "%s:3: ", path);
	CHECK(err && !strstr(err, want));
	CHECK(err && strstr(err, "colour"));
}

/* The screen's columns: read, refused when broken, written back. */
static void test_columns(void)
{
	char path[300];
	struct options o;
	char *err;

	snprintf(path, sizeof(path), "%s/columns", dir);
	write_file(path,
		   "columns=pid,nice,rss_kib,total_pct,write_bps,comm\n"
		   "columns=pid,comm,nice\n"       /* 2: COMMAND not last */
		   "columns=pid,pid,comm\n"        /* 3: twice */
		   "columns=pid,tgid,comm\n"       /* 4: not a column */
		   "columns=pid,,comm\n");         /* 5: an empty name */
	defaults(&o);
	CHECK(load_capture(&o, path, &err) == 4);
	CHECK(o.ncolumns == 6);
	CHECK(o.ncolumns == 6 && o.columns[0] == FIELD_PID &&
	      o.columns[1] == FIELD_NICE && o.columns[2] == FIELD_RSS &&
	      o.columns[3] == FIELD_TOTAL && o.columns[4] == FIELD_IO_WRITE &&
	      o.columns[5] == FIELD_COMM);
	CHECK(config_file_save(&o, path) == 0);
	CHECK(strstr(read_all(path),
		     "\ncolumns=pid,nice,rss_kib,total_pct,write_bps,comm\n"));
	/* the default columns are no setting: not written */
	o.ncolumns = 0;
	CHECK(config_file_save(&o, path) == 0);
	CHECK(!strstr(read_all(path), "columns="));
}

/* The tree (F5): read, refused when not a boolean, written back. */
static void test_tree(void)
{
	char path[300];
	struct options o;
	char *err;

	snprintf(path, sizeof(path), "%s/tree", dir);
	write_file(path, "tree=maybe\ntree=1\n");
	defaults(&o);
	CHECK(load_capture(&o, path, &err) == 1);
	CHECK(err && strstr(err, "maybe"));
	CHECK(o.tree);
	CHECK(config_file_save(&o, path) == 0);
	CHECK(strstr(read_all(path), "\ntree=1\n"));
	o.tree = false;
	CHECK(config_file_save(&o, path) == 0);
	CHECK(strstr(read_all(path), "\ntree=0\n"));
}

/*
 * Workload-group rules: kept in order, a broken one skipped with its
 * line, written back by a save; the groups-only load reads nothing else
 * and says nothing of the other lines.
 */
static void test_group_rules(void)
{
	char path[300], path2[300];
	snprintf(path, sizeof(path), "%s/groups", dir);
	snprintf(path2, sizeof(path2), "%s/groups2", dir);
	write_file(path, "delay=3\n"
		   "group=web:comm:^(nginx|apache2)$\n"
		   "group=bad:pid:1\n"               /* 3: no such field */
		   "group=worse:comm:(\n"            /* 4: no regex */
		   "group=java:cmdline:-jar .*app\n"
		   "colour=blue\n");
	struct options o;
	defaults(&o);
	char *err;
	CHECK(load_capture(&o, path, &err) == 3);
	CHECK(o.ngroup_rules == 2);
	CHECK(o.ngroup_rules == 2 && strcmp(o.group_rules[0], "web:comm:^(nginx|apache2)$") == 0 &&
	      strcmp(o.group_rules[1], "java:cmdline:-jar .*app") == 0);
	char want[400];
	snprintf(want, sizeof(want), "%s:3: ", path);
	CHECK(err && strstr(err, want) && strstr(err, "bad:pid:1"));
	snprintf(want, sizeof(want), "%s:4: ", path);
	CHECK(err && strstr(err, want));
	CHECK(config_file_save(&o, path2) == 0);
	struct options back;
	defaults(&back);
	CHECK(load_capture(&back, path2, &err) == 0);
	CHECK(back.ngroup_rules == 2 && strcmp(back.group_rules[1], o.group_rules[1]) == 0);
	options_free(&back);
	options_free(&o);

	/* groups only: the delay is not taken, only rule lines are told */
	defaults(&o);
	o.delay = 1;
	char errpath[300];
	snprintf(errpath, sizeof(errpath), "%s/stderr2", dir);
	fflush(stderr);
	int saved = dup(2);
	int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	close(fd);
	int r = config_file_load_groups(&o, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CHECK(r == 2);
	CHECK(o.ngroup_rules == 2);
	CHECK_NEAR(o.delay, 1, 1e-9);
	char *text = read_all(errpath);
	CHECK(text && strstr(text, "bad:pid:1") && !strstr(text, "colour"));
	options_free(&o);
}

static void test_missing_and_failing(void)
{
	char path[300];
	struct options o;
	defaults(&o);
	char *err;
	snprintf(path, sizeof(path), "%s/does-not-exist", dir);
	CHECK(load_capture(&o, path, &err) == 0);
	CHECK_STR(err, "");

	/* a directory where the file should be: reported, not fatal */
	snprintf(path, sizeof(path), "%s/adir", dir);
	mkdir(path, 0700);
	CHECK(load_capture(&o, path, &err) == -1);
	CHECK(err && strstr(err, path));

	/* saving below a regular file fails and changes nothing */
	char file[300], target[340];
	snprintf(file, sizeof(file), "%s/plain", dir);
	write_file(file, "keep\n");
	snprintf(target, sizeof(target), "%s/sub/stalltoprc", file);
	CHECK(config_file_save(&o, target) == -1);
	CHECK_STR(read_all(file), "keep\n");
}

static void test_no_color_env(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/nocolor", dir);
	write_file(path, "monochrome=0\n");
	struct options o;
	defaults(&o);
	o.monochrome = true; /* as options_parse does for NO_COLOR */
	setenv("NO_COLOR", "1", 1);
	char *err;
	CHECK(load_capture(&o, path, &err) == 0);
	CHECK(o.monochrome);
	/* and a colour choice made by NO_COLOR is not saved as a setting */
	CHECK(config_file_save(&o, path) == 0);
	const char *text = read_all(path);
	CHECK(text && !strstr(text, "monochrome"));
	unsetenv("NO_COLOR");
}

/*
 * A settings file that is not to be read: a FIFO without a writer, a
 * device of endless bytes, one past the size bound, another user's, one
 * others may write, a directory. Each is loaded in a child that has
 * REFUSE_SECONDS to finish (the checks take microseconds, under valgrind
 * milliseconds; a FIFO's open would wait for ever, /dev/zero would be
 * read until memory ran out): it must say what is wrong and apply
 * nothing of the file (its delay=5 line), returning -1. Under valgrind on
 * a loaded machine a child took more than 2 s once here, hence 10 s; its
 * data are bounded to REFUSE_DATA, so that a reader of /dev/zero cannot
 * take the machine's memory meanwhile (valgrind keeps that bound to
 * itself: there the alarm alone bounds it).
 */
#define REFUSE_SECONDS 10
#define REFUSE_DATA (256UL << 20)

static void check_refused(const char *path, const char *what)
{
	char errpath[300];
	snprintf(errpath, sizeof(errpath), "%s/refused.err", dir);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (pid == 0) {
		alarm(REFUSE_SECONDS);
		struct rlimit data = { REFUSE_DATA, REFUSE_DATA };
		setrlimit(RLIMIT_DATA, &data);
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		close(fd);
		struct options o;
		defaults(&o);
		int r = config_file_load(&o, path);
		fflush(stderr);
		_exit(r == -1 && o.delay == 1.0 ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		fprintf(stderr, "%s: not done within %d s (signal %d)\n", what,
			REFUSE_SECONDS, WTERMSIG(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char *err = read_all(errpath);
	if (!err || !strstr(err, what) || !strstr(err, path) ||
	    !strstr(err, "the defaults apply"))
		fprintf(stderr, "%s: the message was: %s\n", what,
			err ? err : "(none)");
	CHECK(err && strstr(err, what) && strstr(err, path) &&
	      strstr(err, "so it is not read and the defaults apply"));
	unlink(errpath);
}

static void test_refused(void)
{
	char path[300];
	struct options o;
	char *err;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	check_refused(path, "a FIFO, not a regular file");

	snprintf(path, sizeof(path), "%s/zero", dir);
	CHECK(symlink("/dev/zero", path) == 0);
	check_refused(path, "a character device, not a regular file");

	snprintf(path, sizeof(path), "%s/adirectory", dir);
	CHECK(mkdir(path, 0700) == 0);
	check_refused(path, "a directory, not a regular file");

	/* the bound: CONFIG_FILE_MAX bytes are read, one more is not */
	snprintf(path, sizeof(path), "%s/big", dir);
	char *text = malloc(CONFIG_FILE_MAX + 2);
	if (!text)
		exit(99);
	memset(text, '#', CONFIG_FILE_MAX + 1);
	memcpy(text, "delay=5\n", 8);
	text[CONFIG_FILE_MAX - 1] = '\n';
	text[CONFIG_FILE_MAX] = '\0';
	write_file(path, text);
	defaults(&o);
	CHECK(load_capture(&o, path, &err) == 0);
	CHECK_NEAR(o.delay, 5, 1e-9);
	CHECK_STR(err, "");
	text[CONFIG_FILE_MAX] = '#';
	text[CONFIG_FILE_MAX + 1] = '\0';
	write_file(path, text);
	free(text);
	check_refused(path, "larger than 64 KiB");

	/* writable by the group or by others, as ssh and sudo refuse */
	snprintf(path, sizeof(path), "%s/groupw", dir);
	write_file(path, "delay=5\n");
	CHECK(chmod(path, 0620) == 0);
	check_refused(path, "writable by its group or others (mode 0620)");
	snprintf(path, sizeof(path), "%s/otherw", dir);
	write_file(path, "delay=5\n");
	CHECK(chmod(path, 0602) == 0);
	check_refused(path, "writable by its group or others (mode 0602)");

	/* another user's (root's sudo -E with a user's $HOME) */
	snprintf(path, sizeof(path), "%s/others", dir);
	write_file(path, "delay=5\n");
	if (getuid() != 0) {
		unit_skip("another user's file needs root to make (chown)");
	} else {
		CHECK(chown(path, 65534, 65534) == 0);
		check_refused(path, "owned by user 65534, neither you (user 0) "
				    "nor root");
	}

	/* the groups' reader (batch metrics) refuses the same */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	defaults(&o);
	fflush(stderr);
	int saved = dup(2), fd = open("/dev/null", O_WRONLY);
	dup2(fd, 2);
	close(fd);
	alarm(REFUSE_SECONDS);
	int r = config_file_load_groups(&o, path);
	alarm(0);
	dup2(saved, 2);
	close(saved);
	CHECK(r == -1 && o.ngroup_rules == 0);
}

/*
 * Saving: into a directory that is another user's or that others may
 * write, nothing (EPERM); a symbolic link at the file's name is replaced,
 * its target left as it was.
 */
static void test_save_safely(void)
{
	char sub[300], path[340], target[300];
	struct options o;
	defaults(&o);
	o.delay = 3;

	snprintf(sub, sizeof(sub), "%s/shared", dir);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(chmod(sub, 0777) == 0);
	snprintf(path, sizeof(path), "%s/stalltoprc", sub);
	errno = 0;
	CHECK(config_file_save(&o, path) == -1 && errno == EPERM);
	CHECK_EQ_U(count_entries(sub), 0);
	CHECK(chmod(sub, 0700) == 0);
	if (getuid() == 0) {
		CHECK(chown(sub, 65534, 65534) == 0);
		errno = 0;
		CHECK(config_file_save(&o, path) == -1 && errno == EPERM);
		CHECK_EQ_U(count_entries(sub), 0);
		CHECK(chown(sub, 0, 0) == 0);
	}

	snprintf(target, sizeof(target), "%s/planted", dir);
	write_file(target, "not stalltop's\n");
	CHECK(symlink(target, path) == 0);
	CHECK(config_file_save(&o, path) == 0);
	CHECK_STR(read_all(target), "not stalltop's\n");
	struct stat st;
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	      (st.st_mode & 07777) == 0600);
	struct options back;
	defaults(&back);
	char *err;
	CHECK(load_capture(&back, path, &err) == 0);
	CHECK_NEAR(back.delay, 3, 1e-9);
	CHECK_EQ_U(count_entries(sub), 1);
}

static void cleanup(void)
{
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	umask(022); /* the files it writes: writable by their owner alone */
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_path();
	test_round_trip();
	test_round_trip_opposite();
	test_command_line_wins();
	test_broken_lines();
	test_group_rules();
	test_missing_and_failing();
	test_no_color_env();
	test_columns();
	test_tree();
	test_refused();
	test_save_safely();
	cleanup();
	return unit_done();
}
