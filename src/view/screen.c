/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen manager: terminal setup and restore, the refresh timer,
 * signals and terminal input on the event loop, the displayed sample and
 * the rows in view. Redraws happen only on a refresh, a key or a resize.
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/escape.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "lib/quitguard.h"
#include "model/cgname.h"
#include "model/producer.h"
#include "view/screen.h"
#include "view/screen_int.h"
#include "view/termcheck.h"

/* The first sample after a start or a mode switch comes this soon. */
#define QUICK_SAMPLE 0.5
/* Wake-ups without input in a row before the terminal counts as gone. */
#define MAX_IDLE_WAKEUPS 1000

static bool curses_on;

static void restore_terminal(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

/* A crash must not leave the terminal raw: restore, then die as asked. */
static void fatal_signal(int signo)
{
	restore_terminal();
	signal(signo, SIG_DFL);
	raise(signo);
}

static void install_restore_paths(void)
{
	static bool done;
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	if (done)
		return;
	done = true;
	atexit(restore_terminal);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = fatal_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
}

static void init_roles(struct screen *s)
{
	attr_t *a = s->attr;
	for (int i = 0; i < NROLES; i++)
		a[i] = A_NORMAL;
	if (s->mono || !has_colors()) {
		a[R_TITLE] = A_REVERSE;
		a[R_SORTED] = A_REVERSE | A_BOLD | A_UNDERLINE;
		a[R_SELECTED] = A_REVERSE | A_BOLD;
		a[R_LOW] = A_NORMAL;
		a[R_WARN] = A_BOLD;
		a[R_SEVERE] = A_BOLD | A_UNDERLINE;
		a[R_NEW] = A_BOLD;
		a[R_EXITED] = A_DIM;
		a[R_BANNER] = A_REVERSE | A_BOLD;
		a[R_NOTICE] = A_NORMAL;
		a[R_SPARK] = A_NORMAL;
		a[R_TRIGGER] = A_REVERSE | A_BOLD | A_UNDERLINE;
		return;
	}
	start_color();
	use_default_colors();
	init_pair(1, COLOR_BLACK, COLOR_CYAN);   /* title, headers */
	init_pair(2, COLOR_YELLOW, -1);          /* warn */
	init_pair(3, COLOR_RED, -1);             /* severe */
	init_pair(4, COLOR_GREEN, -1);           /* new */
	init_pair(5, COLOR_WHITE, COLOR_RED);    /* banner */
	init_pair(6, COLOR_BLACK, COLOR_GREEN);  /* sorted header */
	init_pair(7, COLOR_CYAN, -1);            /* notices, sparkline */
	init_pair(8, COLOR_BLACK, COLOR_WHITE);  /* selection */
	init_pair(9, COLOR_BLACK, COLOR_GREEN);  /* a new task's row */
	init_pair(10, COLOR_WHITE, COLOR_RED);   /* an ended task's row */
	a[R_TITLE] = COLOR_PAIR(1);
	a[R_SORTED] = COLOR_PAIR(6) | A_BOLD;
	a[R_SELECTED] = COLOR_PAIR(8);
	a[R_LOW] = A_DIM;
	a[R_WARN] = COLOR_PAIR(2);
	a[R_SEVERE] = COLOR_PAIR(3) | A_BOLD;
	a[R_NEW] = COLOR_PAIR(9);
	a[R_EXITED] = COLOR_PAIR(10);
	a[R_BANNER] = COLOR_PAIR(5) | A_BOLD;
	a[R_NOTICE] = COLOR_PAIR(7);
	a[R_SPARK] = COLOR_PAIR(7);
	a[R_TRIGGER] = COLOR_PAIR(5) | A_BOLD;
}

void screen_message(struct screen *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->msg_error = error;
}

void screen_quit(struct screen *s, int code)
{
	s->exit_code = code;
	evloop_quit(s->loop, code);
}

const struct row *screen_current(const struct screen *s)
{
	return s->cur < s->nview ? &s->view[s->cur] : NULL;
}

/* Zoomed into a cgroup: only its tasks (the threads of one process pass). */
static bool in_zoom(const struct screen *s, const struct row *r)
{
	if (!s->zoom || s->drill_tgid)
		return true;
	return r->cgroup && cgname_within(r->cgroup, s->zoom);
}

/*
 * F5: the sorted rows of processes put in tree order (siblings keep the
 * sort's order); thread rows stay a list.
 */
static void tree_view(struct screen *s)
{
	s->tree_on = false;
	if (!s->tree || s->snap.s.threads || !s->nview)
		return;
	size_t n = s->nview;
	if (n > s->tree_cap) {
		struct tree_line *l = realloc(s->tree_lines, n * sizeof(*l));
		if (!l) {
			screen_message(s, true, "%s", strerror(ENOMEM));
			return;
		}
		s->tree_lines = l;
		s->tree_cap = n;
	}
	struct row *copy = malloc(n * sizeof(*copy));
	if (!copy || tree_order(s->view, n, s->tree_lines) < 0) {
		free(copy);
		screen_message(s, true, "%s", strerror(ENOMEM));
		return;
	}
	memcpy(copy, s->view, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++) {
		s->view[i] = copy[s->tree_lines[i].row];
		s->tree_lines[i].row = i;
	}
	free(copy);
	s->tree_on = true;
}

void screen_rebuild_view(struct screen *s)
{
	const struct sample *smp = &s->snap.s;
	size_t n = s->have_sample ? smp->nrows + smp->nexited : 0;
	if (n > s->view_cap) {
		struct row *v = realloc(s->view, n * sizeof(*v));
		if (!v) {
			screen_message(s, true, "%s", strerror(ENOMEM));
			n = s->view_cap;
		} else {
			s->view = v;
			s->view_cap = n;
		}
	}
	size_t k = 0;
	for (size_t i = 0; i < smp->nrows && k < n; i++)
		if (in_zoom(s, &smp->rows[i]))
			s->view[k++] = smp->rows[i];
	for (size_t i = 0; i < smp->nexited && k < n; i++)
		if (in_zoom(s, &smp->exited[i]))
			s->view[k++] = smp->exited[i];
	s->nview = select_rows(s->view, k, &s->sel, smp->interval);
	tree_view(s);
	if (s->cgview)
		screen_cgroup_rebuild(s);

	if (!s->nview) {
		s->cur = 0;
		return;
	}
	if (!s->follow) {
		s->cur = 0;
	} else {
		size_t i;
		for (i = 0; i < s->nview; i++)
			if (s->view[i].pid == s->cur_pid)
				break;
		if (i < s->nview)
			s->cur = i;
		else if (s->cur >= s->nview)
			s->cur = s->nview - 1;
	}
	s->cur_pid = s->view[s->cur].pid;
}

static void on_timer(void *arg);

static void arm_timer(struct screen *s, double seconds)
{
	if (evloop_set_timer(s->loop, seconds, on_timer, s) < 0)
		screen_message(s, true, _("cannot set the refresh timer: %s"),
			       strerror(errno));
}

void screen_set_delay(struct screen *s, double seconds)
{
	s->delay = seconds;
	s->set.delay = seconds;
	s->quick_timer = false;
	arm_timer(s, seconds);
}

void screen_resample_soon(struct screen *s)
{
	if (s->delay <= QUICK_SAMPLE)
		return;
	s->quick_timer = true;
	arm_timer(s, QUICK_SAMPLE);
}

void screen_set_threads(struct screen *s, bool all, pid_t tgid,
			const char *name)
{
	s->threads_all = all;
	s->drill_tgid = tgid;
	snprintf(s->drill_name, sizeof(s->drill_name), "%s", name ? name : "");
	producer_set_threads(s->m, all || tgid, tgid);
	/* the rows on display are of the other kind now: wait for new ones */
	s->snap.s.nrows = 0;
	s->snap.s.nexited = 0;
	s->snap.s.ncgroups = 0;
	s->collecting = true;
	s->frozen = false;
	s->top = 0;
	screen_rebuild_view(s);
	screen_refetch(s);
}

void screen_refetch(struct screen *s)
{
	if (!s->m)
		return;
	if (!producer_seekable(s->m)) {
		screen_resample_soon(s);
		return;
	}
	/* the same stored sample again, seen the new way */
	producer_step(s->m, 0);
	screen_sample_now(s);
}

void screen_set_zoom(struct screen *s, const char *path)
{
	char *copy = path ? strdup(path) : NULL;
	if (path && !copy) {
		screen_message(s, true, "%s", strerror(ENOMEM));
		return;
	}
	free(s->zoom);
	s->zoom = copy;
	s->top = 0;
	s->cur = 0;
	s->follow = false;
	screen_rebuild_view(s);
}

void screen_set_cgview(struct screen *s, bool on)
{
	if (on && !s->set.cgroups) {
		/* start summing per cgroup now; figures come with the next sample */
		if (!s->m) {
			screen_message(s, true, "%s",
				       _("no cgroup figures: start stalltop with "
					 "--cgroups for the cgroup view"));
			return;
		}
		if (producer_set_cgroups(s->m, true) < 0) {
			screen_message(s, true, _("no cgroup view: %s"),
				       errno == ENOENT ?
				       _("no cgroup hierarchy is mounted") :
				       strerror(errno));
			return;
		}
		s->set.cgroups = true;
		if (!producer_seekable(s->m))
			screen_resample_soon(s);
	}
	if (on && s->drill_tgid)
		/* the cgroups sum process rows: leave the threads first */
		screen_set_threads(s, s->threads_all, 0, NULL);
	if (on && s->zoom) {
		/* back up to the cgroup we were in */
		free(s->cg_cur_path);
		s->cg_cur_path = s->zoom;
		s->zoom = NULL;
	}
	s->cgview = on;
	screen_rebuild_view(s);
	screen_fill_current(s);
}

void screen_fill_for_sort(struct screen *s)
{
	const struct field *f = fields_get(s->sel.sort);
	struct sample *smp = &s->snap.s;
	struct row *tmp;

	if (!f || !(f->flags & FIELD_DETAIL) || !s->m || !s->have_sample ||
	    s->frozen || !smp->nrows)
		return;
	/*
	 * Sorting by a detail (RSS, IO rate...) compares every row's: read
	 * them all now, not only for the rows shown after the sort. A copy
	 * is filled, so that the evidence it gathers stays the producer's
	 * (fill_visible keeps what the rows shown need).
	 */
	tmp = malloc(smp->nrows * sizeof(*tmp));
	if (!tmp) {
		screen_message(s, true, "%s", strerror(ENOMEM));
		return;
	}
	memcpy(tmp, smp->rows, smp->nrows * sizeof(*tmp));
	producer_fill_status(s->m, tmp, smp->nrows);
	for (size_t i = 0; i < smp->nrows; i++) {
		smp->rows[i].info = tmp[i].info;
		smp->rows[i].ctx = tmp[i].ctx;
	}
	free(tmp);
}

/*
 * Ask the monitor for the current state of the rows about to be shown,
 * and keep it in the snapshot so that re-sorting does not lose it.
 */
static void fill_visible(struct screen *s)
{
	size_t h = s->rows_h > 0 ? (size_t)s->rows_h : (size_t)LINES;
	size_t top = s->top;
	if (!s->nview)
		return;
	if (s->cur < top)
		top = s->cur;
	if (s->cur >= top + h)
		top = s->cur - h + 1;
	if (top >= s->nview)
		top = 0;
	size_t n = s->nview - top < h ? s->nview - top : h;
	producer_fill_status(s->m, s->view + top, n);
	for (size_t i = top; i < top + n; i++) {
		struct row *v = &s->view[i];
		for (size_t k = 0; k < s->snap.s.nrows; k++) {
			struct row *r = &s->snap.s.rows[k];
			if (r->pid != v->pid)
				continue;
			r->info = v->info;
			r->ctx = v->ctx;
			/* the producer's evidence lasts until its next sample */
			if (v->why && v->why != r->why)
				snapshot_keep_why(&s->snap, r, v->why);
			v->why = r->why;
			break;
		}
	}
}

void screen_fill_current(struct screen *s)
{
	if (s->frozen || !s->have_sample || !s->m)
		return;
	if (s->cgview)
		screen_cgroup_fill(s);
	else
		fill_visible(s);
}

/* Where the producer stands in its stream of samples, for the header. */
static void stream_state(struct screen *s)
{
	s->rp_have = producer_position(s->m, &s->rp_index, &s->rp_count);
	s->rp_paused = producer_paused(s->m);
	s->rp_done = producer_done(s->m);
}

static void take_sample(struct screen *s)
{
	struct sample smp;

	if (producer_sample(s->m, &smp) < 0) {
		const char *const *told = producer_notices(s->m);
		const char *last = NULL;

		while (told && *told)
			last = *told++;
		if (errno == ENODATA && producer_done(s->m) && last)
			/* a stream that ended with nothing to show says why */
			screen_message(s, true, "%s", last);
		else
			screen_message(s, true, _("taking a sample failed: %s"),
				       strerror(errno));
		screen_draw(s);
		return;
	}
	stream_state(s);
	if (s->frozen) {
		/* collection goes on, the display stays */
		if (smp.trigger) {
			char label[128];
			escape_text(smp.trigger, label, sizeof(label));
			screen_message(s, false, _("PSI trigger %s fired; the "
						   "display is frozen (Space)"),
				       label);
			screen_draw(s);
		}
		return;
	}
	/* a trigger stored with a sample did not take it now */
	if (smp.trigger && producer_measures(s->m)) {
		char label[128], clock[32] = "";
		time_t t = (time_t)smp.time;
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
		escape_text(smp.trigger, label, sizeof(label));
		screen_message(s, false, _("PSI trigger %s fired at %s: this sample "
					   "was taken at once"), label, clock);
	}
	if (snapshot_copy(&s->snap, &smp) < 0) {
		screen_message(s, true, "%s", strerror(ENOMEM));
	} else {
		s->have_sample = true;
		s->collecting = false;
		screen_header_history_push(s, &smp.psi);
	}
	screen_fill_for_sort(s);
	screen_rebuild_view(s);
	screen_fill_current(s);
	screen_draw(s);
}

/*
 * -n N: after the Nth sample of the refresh (keys that show a sample
 * again do not count), as top's -n ends after N frames.
 */
static void count_refresh(struct screen *s)
{
	if (s->set.iterations && ++s->refreshes >= s->set.iterations)
		screen_quit(s, 0);
}

static void on_timer(void *arg)
{
	struct screen *s = arg;
	if (s->quick_timer) {
		s->quick_timer = false;
		arm_timer(s, s->delay);
	}
	/* a paused or finished stream would hand out the same sample again */
	if (s->have_sample && (s->rp_paused || s->rp_done))
		return;
	take_sample(s);
	count_refresh(s);
}

void screen_sample_now(struct screen *s)
{
	if (!s->m)
		return;
	s->quick_timer = false;
	arm_timer(s, s->delay);
	take_sample(s);
}

/* A PSI trigger fired: the monitor labels the next sample; take it now. */
static void on_trigger(void *arg)
{
	screen_sample_now(arg);
}

static void resize(struct screen *s)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	screen_draw(s);
}

/*
 * The screen after a stop: the terminal's modes, the alternate screen
 * and every cell as the screen had them (a shell wrote its prompt over
 * them, and may have set its own modes), at the size the terminal has
 * now. endwin() first, so that the refresh sets up the terminal anew.
 */
static void resume(struct screen *s)
{
	endwin();
	resize(s);
}

void screen_suspend(struct screen *s)
{
	struct sigaction dfl, ours;
	sigset_t tstp, pending;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	if (sigaction(SIGTSTP, NULL, &ours) < 0)
		return;
	if (ours.sa_handler == SIG_IGN) {
		/* whoever started stalltop has no job control for it */
		screen_message(s, true, _("cannot suspend: stalltop was started "
					  "with SIGTSTP ignored"));
		return;
	}
	/* the terminal as it was before stalltop, for the shell */
	endwin();
	sigaction(SIGTSTP, &dfl, NULL);
	/* stopped here (the event loop keeps SIGTSTP blocked otherwise) */
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	raise(SIGTSTP);
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	sigaction(SIGTSTP, &ours, NULL);
	/* the SIGCONT that continued it waits in the event loop: no news */
	s->suspended = sigpending(&pending) == 0 &&
		       sigismember(&pending, SIGCONT) == 1;
	resize(s);
}

static void on_signal(int signo, void *arg)
{
	struct screen *s = arg;
	if (signo == SIGWINCH) {
		resize(s);
	} else if (signo == SIGTSTP) {
		screen_suspend(s);
	} else if (signo == SIGCONT) {
		/* after a stop from outside (SIGSTOP), not after Ctrl-Z's */
		if (!s->suspended)
			resume(s);
		s->suspended = false;
	} else /* a finite stream cut short ends as the signal would (see main) */
		screen_quit(s, s->m && producer_finite(s->m) ? 128 + signo : 0);
}

static void on_tty(int fd, unsigned revents, void *arg)
{
	static unsigned idle;
	struct screen *s = arg;
	bool any = false;
	int ch;
	(void)fd;

	while ((ch = getch()) != ERR) {
		any = true;
		if (ch == KEY_RESIZE)
			continue;
		if (ch == KEY_MOUSE)
			screen_input_mouse(s);
		else
			screen_input_key(s, ch);
	}
	/* a terminal that hung up reads as nothing, forever */
	if (!any && ((revents & (POLLHUP | POLLERR | POLLNVAL)) ||
		     ++idle > MAX_IDLE_WAKEUPS)) {
		screen_quit(s, 1);
		return;
	}
	if (any)
		idle = 0;
	screen_draw(s);
}

void screen_draw(struct screen *s)
{
	erase();
	if (COLS < SCREEN_MIN_COLS || LINES < SCREEN_MIN_LINES) {
		curs_set(0);
		screen_draw_too_small(s);
	} else if (s->help) {
		curs_set(0);
		screen_draw_help(s);
	} else if (s->setup) {
		curs_set(0);
		screen_setup_draw(s);
	} else {
		int y = screen_header_draw(s, 0);
		int h = LINES - 1 - y, ph = screen_why_height(s, h);
		if (s->cgview)
			screen_cgroup_draw(s, y, h - ph);
		else
			screen_table_draw(s, y, h - ph);
		if (ph)
			screen_why_draw(s, y + h - ph, ph);
		if (s->menu.open)
			menu_draw(s, y, h);
		screen_input_draw_bottom(s, LINES - 1);
	}
	refresh();
}

static int setup_terminal(struct screen *s)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		warnx(_("the interactive screen needs a terminal; use -b for "
			"batch output"));
		return -1;
	}
	const char *term = getenv("TERM");
	char esc[256];
	escape_text(term ? term : "", esc, sizeof(esc));
	if (!termcheck_addressable(term && *term ? term : NULL)) {
		/* dumb, a printing terminal: the screen would be garbage */
		warnx(_("the terminal '%s' cannot move the cursor, which the "
			"screen needs; use -b for batch output"), esc);
		return -1;
	}
	if (!newterm(term && *term ? term : NULL, stdout, stdin)) {
		warnx(_("cannot use the terminal '%s'; use -b for batch output"),
		      esc);
		return -1;
	}
	curses_on = true;
	install_restore_paths();
	quitguard_on_end(restore_terminal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	init_roles(s);
	return 0;
}

static void screen_init(struct screen *s, struct producer *m,
			struct evloop *loop, const struct screen_settings *set)
{
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->loop = loop;
	s->set = *set;
	s->sel = set->sel;
	if (set->sel.npids) {
		s->pids = malloc(set->sel.npids * sizeof(*s->pids));
		if (s->pids) {
			memcpy(s->pids, set->sel.pids,
			       set->sel.npids * sizeof(*s->pids));
			s->npids = set->sel.npids;
		}
	}
	s->sel.pids = s->pids;
	s->sel.npids = s->npids;
	if (set->sel.name && *set->sel.name)
		s->name = strdup(set->sel.name);
	s->sel.name = s->name;
	s->threads_all = set->threads;
	s->cmdline = set->cmdline;
	s->tree = set->tree;
	s->accumulate = set->accumulate;
	s->delay = set->delay > 0 ? set->delay : 1.0;
	s->interval = set->interval;
	const char *nc = getenv("NO_COLOR");
	s->mono = set->monochrome || (nc && *nc);
	s->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	s->table_y = -1;
	s->cgview = set->cgroups;
	s->cg_sort = layouts_has(FIELD_LAYOUT_CGROUPS, set->sel.sort)
		      ? set->sel.sort : FIELD_TOTAL;
	screen_setup_init(s);
	if (help_build(&s->help_text, set->path) < 0)
		memset(&s->help_text, 0, sizeof(s->help_text));
}

static void screen_fini(struct screen *s)
{
	snapshot_free(&s->snap);
	help_free(&s->help_text);
	free(s->view);
	free(s->tree_lines);
	free(s->pids);
	free(s->name);
	free(s->prompt_back_name);
	free(s->prompt_back_cg);
	free(s->cg_filter);
	free(s->search);
	free(s->cgv);
	free(s->cg_cur_path);
	for (size_t i = 0; i < s->nfolded; i++)
		free(s->folded[i]);
	free(s->folded);
	free(s->zoom);
}

int screen_run(struct producer *m, struct evloop *loop,
	       const struct screen_settings *set)
{
	/* SIGTSTP and SIGCONT here too: the screen stops and comes back
	   between two pieces of work, never inside a drawing */
	static const int sigs[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP,
				    SIGTSTP, SIGCONT };
	struct screen s;

	screen_init(&s, m, loop, set);
	if (evloop_add_signals(loop, sigs, sizeof(sigs) / sizeof(sigs[0]), on_signal,
			   &s) < 0) {
		warn(_("cannot watch signals"));
		screen_fini(&s);
		return 1;
	}
	if (setup_terminal(&s) < 0) {
		screen_fini(&s);
		return 1;
	}
	if (evloop_set_timer(loop, s.delay, on_timer, &s) < 0 ||
	    evloop_add_fd(loop, STDIN_FILENO, POLLIN, on_tty, &s) < 0) {
		int e = errno; /* restoring the terminal may change it */
		restore_terminal();
		errno = e;
		warn(_("cannot set up the event loop"));
		screen_fini(&s);
		return 1;
	}
	producer_on_trigger(m, on_trigger, &s);
	if (producer_seekable(m)) {
		screen_sample_now(&s); /* stored samples need no baseline */
		count_refresh(&s);
	} else {
		screen_resample_soon(&s);
	}
	screen_draw(&s);
	int code;
	if (!evloop_quit_requested(loop, &code)) /* -n 1 of a replay: done */
		code = evloop_run(loop);
	producer_on_trigger(m, NULL, NULL);
	evloop_del_fd(loop, STDIN_FILENO);
	evloop_set_timer(loop, s.delay, NULL, NULL);
	restore_terminal();
	screen_fini(&s);
	return code < 0 ? 1 : code;
}
