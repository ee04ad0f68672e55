/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's drawing from a hand-built sample, read back from curses'
 * own screen buffer: the header and PSI block, every column, '-' for
 * absent figures, escaped names, alignment by display width, narrow and
 * too-small terminals (which columns stay, the count of hidden ones),
 * the help page and the keys that change the view; the four metrics
 * (each cell its own row's and category's figure, and the order of a
 * sort by a category under each); the cgroup tree (order, folding,
 * zooming into a cgroup's processes), the header's trigger flag, the
 * evidence pane (each stalled category's facts under it, the memory ones
 * once, none for a category without evidence) and the replay header; a
 * recording played on the screen to its last sample.
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "lib/evloop.h"
#include "lib/textwidth.h"
#include "model/layouts.h"
#include "model/producer.h"
#include "model/rowwhy.h"
#include "record/player.h"
#include "../lib/ndjson_rec.h"
#include "unit.h"
#include "view/screen_int.h"

static struct screen s;
static bool utf8;

/* Line y of the curses screen as UTF-8. */
static const char *line_at(int y)
{
	static char out[4096];
	wchar_t w[1024];
	out[0] = '\0';
	if (mvinnwstr(y, 0, w, COLS) == ERR)
		return out;
	wcstombs(out, w, sizeof(out));
	return out;
}

/* The first line containing text, or -1. */
static int find_line(const char *text)
{
	for (int y = 0; y < LINES; y++)
		if (strstr(line_at(y), text))
			return y;
	return -1;
}

/* A figure over a 1 s interval; the max differs in every row and category. */
static void set_figure(struct row *r, int cat, double pct, uint64_t count)
{
	r->d[cat].avail = true;
	r->d[cat].pct = pct;
	r->d[cat].count = count;
	r->d[cat].have_count = true;
	r->d[cat].have_avg = count > 0;
	r->d[cat].avg_ms = count ? pct * 10 / (double)count : 0;
	r->d[cat].have_max = true;
	r->d[cat].max_ms = (double)(r->pid / 100) * 10 + cat + 0.5;
}

static struct row make_row(pid_t pid, const char *comm, const char *user)
{
	struct row r;
	memset(&r, 0, sizeof(r));
	r.pid = pid;
	r.tgid = pid;
	r.comm = comm;
	r.cmdline = "";
	r.user = user;
	r.uid = 0;
	r.info.state = 'S';
	r.info.threads = 1;
	r.have_cpu_pct = true;
	r.cpu_pct = 1.5;
	for (int c = 0; c < NCAT; c++)
		set_figure(&r, c, 0, 0);
	r.age = 10;
	return r;
}

static void load_sample(void)
{
	static struct row rows[6], exited[1];
	rows[0] = make_row(100, "busy", "root");
	set_figure(&rows[0], CAT_CPU, 60, 120);
	rows[0].total_pct = 60;
	rows[1] = make_row(200, utf8 ? "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e" : "jp",
			   utf8 ? "\xe3\x83\xa6\xe3\x83\xbc\xe3\x82\xb6" : "user");
	set_figure(&rows[1], CAT_IO, 20, 4);
	rows[1].total_pct = 20;
	rows[2] = make_row(300, "x\x1b[31my", "root");
	set_figure(&rows[2], CAT_SWAP, 5, 1);
	rows[2].total_pct = 5;
	rows[3] = make_row(400, "noirq", "daemon");
	rows[3].d[CAT_IRQ].avail = false;
	rows[3].total_pct = 1;
	set_figure(&rows[3], CAT_CPU, 1, 3);
	rows[4] = make_row(500, "fresh", "root");
	rows[4].flags = ROW_NEW;
	rows[5] = make_row(600, "longcmd", "root");
	rows[5].cmdline = "/usr/bin/longcmd --with --many --arguments "
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c\xac "
		"and more and more and more and more and more and more and more "
		"and more and more and more and more and more and more and more";
	exited[0] = make_row(700, "gone", "root");
	exited[0].flags = ROW_EXITED;
	exited[0].info.state = 'X';

	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.time = 1763740000;
	smp.interval = 1.0;
	smp.delayacct = true;
	smp.delayacct_known = true;
	smp.ts_version = 16;
	smp.events_lost = 7;
	smp.rows = rows;
	smp.nrows = 6;
	smp.exited = exited;
	smp.nexited = 1;
	smp.nprocs = 6;
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++) {
			if (r == PSI_IRQ && k == PSI_SOME)
				continue;
			struct psi_stat *st = &smp.psi.s[r][k];
			st->present = true;
			st->avg10 = 1.25;
			st->have_pct = true;
			st->pct = r == PSI_IO ? 33.3 : 0.5;
		}
	CHECK(snapshot_copy(&s.snap, &smp) == 0);
	s.have_sample = true;
	screen_header_history_push(&s, &smp.psi);
	screen_rebuild_view(&s);
}

static void size(int lines, int cols)
{
	resizeterm(lines, cols);
	screen_draw(&s);
	if (getenv("DUMP_SCREEN"))
		for (int y = 0; y < LINES; y++)
			fprintf(stderr, "|%s|\n", line_at(y));
}

/* The text of column col on screen line y, without the padding. */
static const char *cell_at(int y, int col)
{
	static char cell[256];
	wchar_t w[1024];
	cell[0] = '\0';
	if (s.col_w[col] <= 0 || s.col_w[col] >= 1024 ||
	    mvinnwstr(y, s.col_x[col], w, s.col_w[col]) == ERR)
		return cell;
	wcstombs(cell, w, sizeof(cell));
	char *b = cell;
	while (*b == ' ')
		b++;
	memmove(cell, b, strlen(b) + 1);
	for (char *e = cell + strlen(cell); e > cell && e[-1] == ' ';)
		*--e = '\0';
	return cell;
}

/*
 * The header line hy against the layout: the shown columns side by side,
 * one space apart, each title in its column, the last (COMMAND) ending at
 * the screen's edge; the columns not shown are as many as COMMAND's title
 * says are hidden. Returns the number of columns not shown.
 */
static int check_layout(int hy)
{
	int x = 0, hidden = 0, n;
	const int *ids = layouts_fields(FIELD_LAYOUT_TASKS, &n);
	for (int k = 0; k < n; k++) {
		int i = ids[k];
		if (!s.col_shown[i]) {
			hidden++;
			continue;
		}
		CHECK(s.col_x[i] == x);
		const char *title = cell_at(hy, i);
		if (i == FIELD_COMM) {
			/* the name, or as much as fits before the marker */
			size_t name = strcspn(title, "(");
			while (name && title[name - 1] == ' ')
				name--;
			CHECK(strncmp(title, "COMMAND", name) == 0);
			CHECK(name == 7 || strchr(title, '('));
		} else if (i == FIELD_TOTAL && s.sel.metric != METRIC_PCT)
			CHECK_STR(title, "TOTAL%");
		else
			CHECK_STR(title, fields_get(i)->header);
		x += s.col_w[i] + 1;
	}
	CHECK(s.col_shown[FIELD_COMM]);
	CHECK(x - 1 == COLS);
	CHECK(hidden == s.cols_hidden);
	int said = 0;
	/* one form of the marker: "(+N hidden)", whatever the width */
	const char *mark = s.col_shown[FIELD_COMM] ?
			   strstr(line_at(hy) + s.col_x[FIELD_COMM], "(+") : NULL;
	if (mark && sscanf(mark, "(+%d hidden)", &said) != 1)
		said = -1;
	CHECK(said == hidden);
	return hidden;
}

static void test_wide(void)
{
	size(50, 160);
	CHECK(find_line("stalltop") == 0);
	CHECK(find_line("events lost") >= 0);
	CHECK(find_line("taskstats v16") >= 0);
	int psi = find_line("some%");
	CHECK(psi >= 0 && strncmp(line_at(psi), "PSI", 3) == 0);
	CHECK(psi >= 0 && strstr(line_at(psi), "full%"));
	CHECK(find_line("memory ") > psi);
	CHECK(psi >= 0 && strstr(line_at(psi + 3), "33.3"));
	CHECK(psi >= 0 && strstr(line_at(psi + 4), "irq"));

	int hy = find_line("COMMAND");
	CHECK(hy > psi);
	const char *head = line_at(hy);
	const char *prev = head;
	int ncol;
	const int *cols = layouts_fields(FIELD_LAYOUT_TASKS, &ncol);
	for (int c = 0; c < ncol; c++) {
		const char *at = strstr(prev, fields_get(cols[c])->header);
		CHECK(at != NULL);
		if (at)
			prev = at;
	}
	CHECK(s.cols_hidden == 0);

	/* sorted by TOTAL: the largest first, exited rows included */
	CHECK(strstr(line_at(hy + 1), "busy") != NULL);
	CHECK(find_line("gone") > hy);

	/* control bytes in names are escaped */
	CHECK(find_line("x\\e[31my") > hy);

	/* '-' where the kernel has no figure, under IRQ */
	int y = find_line("noirq");
	CHECK(y > hy);
	if (y > hy) {
		char row[4096], cell[16];
		snprintf(row, sizeof(row), "%s", line_at(y));
		int x = s.col_x[FIELD_CAT + CAT_IRQ], w = s.col_w[FIELD_CAT + CAT_IRQ];
		snprintf(cell, sizeof(cell), "%.*s", w, row + x);
		CHECK_STR(cell, "       -");
	}

	check_layout(hy);

	/* columns line up by display width, whatever the names hold */
	for (int i = hy + 1; i < LINES - 1; i++) {
		const char *l = line_at(i);
		if (!*l || l[0] != ' ')
			continue;
		for (size_t k = 0; k < s.nview; k++) {
			char pid[16];
			snprintf(pid, sizeof(pid), " %d ", (int)s.view[k].pid);
			if (strncmp(l + s.col_w[FIELD_PID] - strlen(pid) + 1, pid,
				    strlen(pid)) != 0)
				continue;
			const char *name = s.view[k].comm;
			const char *at = strstr(l, name);
			if (!at || !strcmp(name, "x\x1b[31my"))
				continue;
			char prefix[4096];
			snprintf(prefix, sizeof(prefix), "%.*s", (int)(at - l), l);
			CHECK(textwidth_width(prefix) == s.col_x[FIELD_COMM]);
		}
	}
}

static void test_cells(void)
{
	char buf[64];
	const struct row *busy = NULL, *noirq = NULL;
	for (size_t k = 0; k < s.nview; k++) {
		if (s.view[k].pid == 100)
			busy = &s.view[k];
		if (s.view[k].pid == 400)
			noirq = &s.view[k];
	}
	CHECK(busy && noirq);
	if (!busy || !noirq)
		return;
	s.sel.metric = METRIC_PCT;
	screen_table_cell(&s, busy, FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "60.0");
	s.sel.metric = METRIC_AVG;
	screen_table_cell(&s, busy, FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "5.00");
	s.sel.metric = METRIC_RATE;
	screen_table_cell(&s, busy, FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "120.0");
	s.sel.metric = METRIC_MAX;
	screen_table_cell(&s, busy, FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "10.5");
	screen_table_cell(&s, busy, FIELD_CAT + CAT_IO, buf, sizeof(buf));
	CHECK_STR(buf, "11.5");
	screen_table_cell(&s, noirq, FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "40.5");
	screen_table_cell(&s, noirq, FIELD_CAT + CAT_IRQ, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	s.sel.metric = METRIC_AVG;
	screen_table_cell(&s, busy, FIELD_CAT + CAT_IO, buf, sizeof(buf));
	CHECK_STR(buf, "-"); /* no events: no average */
	s.sel.metric = METRIC_PCT;
	screen_table_cell(&s, busy, FIELD_STATE, buf, sizeof(buf));
	CHECK_STR(buf, "S");
	s.cmdline = true;
	screen_table_cell(&s, busy, FIELD_COMM, buf, sizeof(buf));
	CHECK_STR(buf, "[busy]");
	s.cmdline = false;
}

static void test_keys(void)
{
	size(50, 160);
	int hy = find_line("COMMAND");
	/* I sorts by IO */
	screen_input_key(&s, 'I');
	screen_draw(&s);
	CHECK(s.sel.sort == CAT_IO);
	CHECK(s.set.sel.sort == CAT_IO);
	CHECK(s.view[0].pid == 200);
	/* r reverses, < and > walk the columns */
	screen_input_key(&s, 'r');
	CHECK(s.sel.reverse);
	screen_input_key(&s, '>');
	CHECK(s.sel.sort == CAT_SWAP && !s.sel.reverse);
	screen_input_key(&s, '<');
	screen_input_key(&s, '<');
	CHECK(s.sel.sort == CAT_CPU);
	/* the selection follows the task across a re-sort */
	screen_input_key(&s, KEY_DOWN);
	pid_t chosen = s.cur_pid;
	screen_input_key(&s, 'N');
	screen_draw(&s);
	CHECK(s.cur_pid == chosen && s.view[s.cur].pid == chosen);
	/* / searches incrementally and selects the match */
	screen_input_key(&s, '/');
	screen_input_key(&s, 'f');
	screen_input_key(&s, 'r');
	CHECK(s.view[s.cur].pid == 500);
	screen_input_key(&s, '\r');
	CHECK(s.prompt == PROMPT_NONE && s.view[s.cur].pid == 500);
	/* Esc cancels a search and puts the selection back */
	screen_input_key(&s, '/');
	screen_input_key(&s, 'g');
	screen_input_key(&s, 'o');
	CHECK(s.view[s.cur].pid == 700);
	screen_input_key(&s, 27);
	CHECK(s.view[s.cur].pid == 500);
	/* \ filters */
	screen_input_key(&s, '\\');
	screen_input_key(&s, 'o');
	screen_input_key(&s, 'n');
	screen_input_key(&s, 'g');
	screen_input_key(&s, '\r');
	CHECK(s.nview == 1 && s.view[0].pid == 600);
	screen_input_key(&s, '\\');
	for (int i = 0; i < 4; i++)
		screen_input_key(&s, KEY_BACKSPACE);
	screen_input_key(&s, '\r');
	CHECK(s.nview == 7);
	/* o: only stalled */
	screen_input_key(&s, 'o');
	CHECK(s.nview == 4);
	screen_input_key(&s, 'o');
	/* p: pid filter, junk refused */
	screen_input_key(&s, 'p');
	for (const char *p = "100,300"; *p; p++)
		screen_input_key(&s, *p);
	screen_input_key(&s, '\r');
	CHECK(s.nview == 2);
	screen_input_key(&s, 'p');
	for (int i = 0; i < 10; i++)
		screen_input_key(&s, KEY_BACKSPACE);
	screen_input_key(&s, 'x');
	screen_input_key(&s, '\r');
	CHECK(s.msg_error && s.nview == 2);
	screen_input_key(&s, 'p');
	for (int i = 0; i < 10; i++)
		screen_input_key(&s, KEY_BACKSPACE);
	screen_input_key(&s, '\r');
	CHECK(s.nview == 7);
	/* m cycles the metric */
	screen_input_key(&s, 'm');
	CHECK(s.sel.metric == METRIC_AVG && s.set.sel.metric == METRIC_AVG);
	screen_input_key(&s, 'm');
	screen_input_key(&s, 'm');
	screen_input_key(&s, 'm');
	CHECK(s.sel.metric == METRIC_PCT);
	/* c switches to the command line */
	screen_input_key(&s, 'c');
	screen_draw(&s);
	CHECK(find_line("/usr/bin/longcmd --with") > hy);
	CHECK(find_line("COMMAND LINE") == hy);
	screen_input_key(&s, 'c');
	/* space freezes */
	screen_input_key(&s, ' ');
	CHECK(s.frozen);
	screen_draw(&s);
	CHECK(find_line("FROZEN") == 0);
	screen_input_key(&s, ' ');
	/* unknown keys say so */
	screen_input_key(&s, 'z');
	CHECK(s.msg_error);
	/* the replay keys say what they are for */
	screen_input_key(&s, 't');
	CHECK(s.msg_error && strstr(s.msg, "--replay"));
	/* h opens the help, q closes it, Space in the help scrolls */
	screen_input_key(&s, 'h');
	CHECK(s.help);
	screen_draw(&s);
	CHECK(find_line("Help") == 0);
	CHECK(find_line("sort by IO") > 0);
	screen_input_key(&s, 'q');
	CHECK(!s.help);
	/* an interval is checked like -d */
	screen_input_key(&s, 'd');
	for (int i = 0; i < 5; i++)
		screen_input_key(&s, KEY_BACKSPACE);
	screen_input_key(&s, '0');
	screen_input_key(&s, '\r');
	CHECK(s.msg_error && s.delay == 1.0);
	screen_input_key(&s, 'N');
	screen_input_key(&s, 'D');
	CHECK(s.sel.sort == FIELD_TOTAL);
}

/*
 * 60 columns hold PID, USER, S, CPU%, TOTAL, COMMAND at its least (12)
 * and one category: the seven categories with the smallest figures go,
 * the sorted one stays.
 */
/*
 * The columns by default: none of those next to a stall, and IRQ only
 * where the kernel collects IRQ time (the sample has an irq pressure
 * row beside the cpu one); the irq PSI row goes with it.
 */
static bool irq_psi_row(void)
{
	for (int y = 0; y < LINES; y++)
		if (strncmp(line_at(y), "irq ", 4) == 0)
			return true;
	return false;
}

static void test_default_columns(void)
{
	struct psi_stat irq[NPSI_KIND];
	int hy;

	size(50, 200);
	hy = find_line("COMMAND");
	CHECK(hy > 0 && strstr(line_at(hy), " IRQ "));
	CHECK(hy > 0 && !strstr(line_at(hy), " NI ") &&
	      !strstr(line_at(hy), "RSS KiB"));
	CHECK(irq_psi_row());
	memcpy(irq, s.snap.s.psi.s[PSI_IRQ], sizeof(irq));
	memset(s.snap.s.psi.s[PSI_IRQ], 0, sizeof(irq));
	size(50, 200);
	hy = find_line("COMMAND");
	CHECK(hy > 0 && !strstr(line_at(hy), " IRQ "));
	CHECK(!irq_psi_row());
	CHECK(screen_setup_off_reason(&s, FIELD_CAT + CAT_IRQ) != NULL);
	CHECK(screen_setup_off_reason(&s, FIELD_RSS) != NULL);
	CHECK(screen_setup_off_reason(&s, FIELD_TOTAL) == NULL);
	/* chosen, a column is shown whatever the default */
	s.cols_custom = true;
	memset(s.col_on, 0, sizeof(s.col_on));
	s.col_on[FIELD_PID] = s.col_on[FIELD_CAT + CAT_IRQ] = true;
	s.col_on[FIELD_RSS] = true;
	size(50, 200);
	hy = find_line("COMMAND");
	CHECK(hy > 0 && strstr(line_at(hy), " IRQ ") &&
	      strstr(line_at(hy), "RSS KiB") && !strstr(line_at(hy), "TOTAL"));
	s.cols_custom = false;
	memcpy(s.snap.s.psi.s[PSI_IRQ], irq, sizeof(irq));
}

static void test_narrow(void)
{
	size(15, 60);
	int hy = find_line("PID");
	CHECK(hy > 0);
	CHECK(find_line("PSI some/full%") >= 0);
	if (hy <= 0)
		return;
	CHECK(check_layout(hy) == NCAT - 1);
	for (int c = FIELD_PID; c < FIELD_TOTAL; c++)
		CHECK(s.col_shown[c]);
	CHECK(s.col_shown[FIELD_TOTAL]);
	/* by TOTAL: CPU stays, the category with the largest figure (60) */
	for (int c = 0; c < NCAT; c++)
		CHECK(s.col_shown[FIELD_CAT + c] == (c == CAT_CPU));
	static const char head[] =
		"    PID USER     S   CPU%      CPU    TOTAL COMM (+7 hidden)";
	CHECK(strncmp(line_at(hy), head, strlen(head)) == 0);
	CHECK(strspn(line_at(hy) + strlen(head), " ") == 60 - strlen(head));
	int y = find_line("busy");
	CHECK(y > hy);
	if (y > hy) {
		CHECK_STR(cell_at(y, FIELD_CAT + CAT_CPU), "60.0");
		CHECK_STR(cell_at(y, FIELD_TOTAL), "60.0");
	}
	/* sorted by SWAP (5, the smallest figure shown): SWAP stays instead */
	s.sel.sort = CAT_SWAP;
	screen_rebuild_view(&s);
	size(15, 60);
	CHECK(check_layout(hy) == NCAT - 1);
	for (int c = 0; c < NCAT; c++)
		CHECK(s.col_shown[FIELD_CAT + c] == (c == CAT_SWAP));
	CHECK(s.nview > 0 && s.view[0].pid == 300);
	CHECK_STR(cell_at(hy + 1, FIELD_CAT + CAT_SWAP), "5.0");
	s.sel.sort = FIELD_TOTAL;
	screen_rebuild_view(&s);
	/*
	 * by max, the last category has the largest figures (77.5 ms, the
	 * exited row's): IRQ stays, not the first in the table's order
	 */
	s.sel.metric = METRIC_MAX;
	size(15, 60);
	CHECK(check_layout(hy) == NCAT - 1);
	for (int c = 0; c < NCAT; c++)
		CHECK(s.col_shown[FIELD_CAT + c] == (c == CAT_IRQ));
	s.sel.metric = METRIC_PCT;

	size(8, 40);
	CHECK(find_line("too small") >= 0);
	size(50, 160);
	CHECK(find_line("WPCOPY") >= 0);
	CHECK(s.cols_hidden == 0);
	hy = find_line("PID");
	CHECK(hy > 0 && check_layout(hy) == 0);
}

/* ---- the metrics ---- */

/* Three rows whose io figures rank differently under each metric. */
static const struct {
	pid_t pid;
	double pct, max;
	uint64_t count;
} mrow[3] = {
	{ 11, 30, 150, 3 },    /* avg 100 ms */
	{ 12, 20, 300, 40 },   /* avg   5 ms */
	{ 13, 10, 20, 10 },    /* avg  10 ms */
};

/* The expected figure of row i, category c, under metric m (1 s interval). */
static double metric_value(int i, int c, enum metric m)
{
	double pct = c == CAT_IO ? mrow[i].pct : 1 + 8 * i + c;
	double count = c == CAT_IO ? (double)mrow[i].count : 2 + 9 * i + c;
	double max = c == CAT_IO ? mrow[i].max : 500 + 10 * i + c;
	switch (m) {
	case METRIC_AVG:
		return pct * 10 / count;
	case METRIC_RATE:
		return count;
	case METRIC_MAX:
		return max;
	default:
		return pct;
	}
}

static void load_metric_sample(void)
{
	static struct row rows[3];
	static const char *const names[3] = { "ma", "mb", "mc" };
	for (int i = 0; i < 3; i++) {
		rows[i] = make_row(mrow[i].pid, names[i], "root");
		double total = 0;
		for (int c = 0; c < NCAT; c++) {
			set_figure(&rows[i], c, metric_value(i, c, METRIC_PCT),
				   (uint64_t)metric_value(i, c, METRIC_RATE));
			rows[i].d[c].max_ms = metric_value(i, c, METRIC_MAX);
			total += rows[i].d[c].pct;
		}
		rows[i].total_pct = total;
	}
	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.time = 1763740000;
	smp.interval = 1.0;
	smp.delayacct = true;
	smp.delayacct_known = true;
	smp.ts_version = 16;
	smp.rows = rows;
	smp.nrows = 3;
	smp.nprocs = 3;
	CHECK(snapshot_copy(&s.snap, &smp) == 0);
	s.have_sample = true;
	screen_rebuild_view(&s);
}

/*
 * Under each metric every cell shows its own row's and category's
 * figure, the header names the metric, and a sort by IO orders the rows
 * by that metric's figure: by %, 11 12 13; by average, 11 (100 ms) 13 12;
 * by rate, 12 (40/s) 13 11; by max, 12 (300 ms) 11 13. r reverses.
 */
static void test_metrics(void)
{
	static const pid_t order[NMETRIC][3] = {
		[METRIC_PCT] = { 11, 12, 13 },
		[METRIC_AVG] = { 11, 13, 12 },
		[METRIC_RATE] = { 12, 13, 11 },
		[METRIC_MAX] = { 12, 11, 13 },
	};
	load_metric_sample();
	s.sel.sort = CAT_IO;
	for (int m = 0; m < NMETRIC; m++) {
		s.sel.metric = (enum metric)m;
		s.sel.reverse = false;
		screen_rebuild_view(&s);
		size(50, 160);
		CHECK(find_line(screen_table_metric_label((enum metric)m)) == 1);
		int hy = find_line("COMMAND");
		CHECK(hy > 0 && s.nview == 3);
		if (hy <= 0 || s.nview != 3)
			continue;
		/* beside ms or events TOTAL says it stays a percentage */
		CHECK_STR(cell_at(hy, FIELD_TOTAL),
			  m == METRIC_PCT ? "TOTAL" : "TOTAL%");
		CHECK((find_line("TOTAL% of interval") == 1) == (m != METRIC_PCT));
		/* taskstats v16: why the max is mostly - */
		CHECK((find_line("taskstats v16 dates no wait (v17 does)") == 1) ==
		      (m == METRIC_MAX));
		for (int k = 0; k < 3; k++) {
			CHECK(s.view[k].pid == order[m][k]);
			int i = (int)(s.view[k].pid - mrow[0].pid);
			char pid[16];
			snprintf(pid, sizeof(pid), "%d", (int)s.view[k].pid);
			CHECK_STR(cell_at(hy + 1 + k, FIELD_PID), pid);
			for (int c = 0; c < NCAT; c++) {
				char want[32];
				bool ms = m == METRIC_AVG || m == METRIC_MAX;
				screen_table_fmt_num(want, sizeof(want),
					      metric_value(i, c, (enum metric)m),
					      fields_get(FIELD_CAT + c)->width, ms);
				const char *got = cell_at(hy + 1 + k, FIELD_CAT + c);
				CHECK_STR(got, want);
				if (strcmp(got, want) != 0)
					fprintf(stderr, "metric %d, pid %s, %s\n", m,
						pid, categories[c].key);
			}
		}
		s.sel.reverse = true;
		screen_rebuild_view(&s);
		for (int k = 0; k < 3 && s.nview == 3; k++)
			CHECK(s.view[k].pid == order[m][2 - k]);
	}
	/* -a: the figures cover the time since start, and say so */
	s.snap.s.accumulated = true;
	s.sel.metric = METRIC_PCT;
	size(50, 160);
	CHECK(find_line("showing % of the time since start") == 1);
	CHECK(find_line("% of interval") < 0);
	s.sel.metric = METRIC_AVG;
	size(50, 160);
	CHECK(find_line("TOTAL% of the time since start") == 1);
	/* one of each: no "1 processes" or "1 threads" */
	s.snap.s.nprocs = 1;
	s.snap.s.nthreads = 1;
	size(50, 160);
	CHECK(find_line(" 1 process, 1 thread ") == 0);
	s.snap.s.nthreads = 2;
	size(50, 160);
	CHECK(find_line(" 1 process, 2 threads ") == 0);
	s.snap.s.accumulated = false;
	s.sel.sort = FIELD_TOTAL;
	s.sel.reverse = false;
	s.sel.metric = METRIC_PCT;
	load_sample();
}

static void test_banner(void)
{
	s.snap.s.delayacct = false;
	size(50, 160);
	CHECK(find_line("Delay accounting is OFF") == 1);
	CHECK(find_line("; E turns it on") == 1);
	screen_input_key(&s, 'E');
	CHECK(s.prompt == PROMPT_CONFIRM);
	screen_draw(&s);
	CHECK(find_line("[y/N]") == LINES - 1);
	screen_input_key(&s, 'n');
	CHECK(s.prompt == PROMPT_NONE && !s.msg_error);
	s.snap.s.delayacct = true;
}

/* ---- the cgroup view ---- */

static struct cgroup_row make_cgroup(const char *path, double cpu_pct,
				     double psi_pct, size_t nr)
{
	struct cgroup_row g;
	memset(&g, 0, sizeof(g));
	g.path = path;
	g.have_psi = true;
	for (int r = 0; r < NPSI; r++) {
		struct psi_stat *st = &g.psi.s[r][PSI_SOME];
		st->present = r != PSI_IRQ;
		st->have_pct = true;
		st->pct = r == PSI_CPU ? psi_pct : 0;
		st->avg10 = r == PSI_CPU ? psi_pct / 2 : 0;
	}
	for (int c = 0; c < NCAT; c++)
		g.d[c].avail = c != CAT_IRQ;
	g.d[CAT_CPU].pct = cpu_pct;
	g.d[CAT_CPU].have_count = true;
	g.d[CAT_CPU].count = nr * 10;
	g.total_pct = cpu_pct;
	g.nr_tasks = nr;
	return g;
}

/* A sample of five tasks in a small tree: / ⊃ /a ⊃ /a/x, /a/y; / ⊃ /b. */
static void load_cgroup_sample(const char *trigger)
{
	static struct row rows[5];
	static struct cgroup_row cg[5];
	static const char *const where[5] = {
		"/a/x", "/a/y", "/b", "/ab", "/a",
	};
	static const char *const names[5] = {
		"inx", "iny", "inb", "inab", "ina",
	};
	for (int i = 0; i < 5; i++) {
		rows[i] = make_row(1000 + i, names[i], "root");
		rows[i].cgroup = where[i];
		set_figure(&rows[i], CAT_CPU, 10 * (i + 1), 5);
		rows[i].total_pct = 10 * (i + 1);
	}
	/* in no particular order: the view builds the tree */
	cg[0] = make_cgroup("/a/x", 10, 5, 1);
	cg[1] = make_cgroup("/b", 30, 40, 1);
	cg[2] = make_cgroup("/", 100, 60, 5);
	cg[3] = make_cgroup("/a/y", 20, 15, 1);
	/* the tree shows names (model/cgname.h), the path's last part if none */
	cg[3].name = "pod y (Burstable)";
	cg[4] = make_cgroup("/a", 80, 25, 3);

	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.time = 1763740000;
	smp.interval = 1.0;
	smp.delayacct = true;
	smp.delayacct_known = true;
	smp.rows = rows;
	smp.nrows = 5;
	smp.nprocs = 5;
	smp.cgroups = cg;
	smp.ncgroups = 5;
	smp.trigger = trigger;
	CHECK(snapshot_copy(&s.snap, &smp) == 0);
	s.have_sample = true;
	screen_rebuild_view(&s);
}

/* The cgroup view's lines below its header, the tree (NAME) only, joined. */
static const char *tree(void)
{
	static char out[512];
	out[0] = '\0';
	int hy = find_line(" NAME");
	if (hy < 0)
		return "(no header)";
	for (int y = hy + 1; y < LINES - 1; y++) {
		const char *l = line_at(y);
		if ((int)strlen(l) <= s.cg_x[FIELD_CG_NAME])
			break;
		char cell[128];
		snprintf(cell, sizeof(cell), "%s", l + s.cg_x[FIELD_CG_NAME]);
		for (char *e = cell + strlen(cell); e > cell && e[-1] == ' ';)
			*--e = '\0';
		if (!*cell)
			break;
		if (*out)
			strncat(out, "|", sizeof(out) - strlen(out) - 1);
		strncat(out, cell, sizeof(out) - strlen(out) - 1);
	}
	return out;
}

static void test_cgroups(void)
{
	size(50, 160);
	load_cgroup_sample(NULL);

	/* without --cgroups there is nothing to show: say how to get it */
	s.set.cgroups = false;
	screen_input_key(&s, 'g');
	CHECK(!s.cgview && s.msg_error && strstr(s.msg, "--cgroups"));
	s.set.cgroups = true;
	screen_input_key(&s, 'g');
	CHECK(s.cgview && !s.msg_error);
	screen_draw(&s);
	int hy = find_line(" NAME");
	CHECK(hy > 0);
	const char *head = hy > 0 ? line_at(hy) : "";
	const char *prev = head;
	int ncol;
	/* every column but WHY, which only a cause brings */
	const int *cols = layouts_fields(FIELD_LAYOUT_CGROUPS_SCREEN, &ncol);
	for (int c = 0; c < ncol; c++) {
		if (cols[c] == FIELD_WHY)
			continue;
		const char *at = strstr(prev, fields_get(cols[c])->header);
		CHECK(at != NULL);
		if (at)
			prev = at;
	}
	CHECK(find_line("[cgroups: 5]") == 0);

	/* a tree: children below their parent, siblings by TOTAL */
	CHECK_STR(tree(), "- /|  - a|      pod y (Burstable)|      x|    b");
	CHECK(s.ncgv == 5 && s.cg_cur == 0);
	char buf[64];
	screen_cgroup_cell(&s, &s.cgv[0], FIELD_CG_CPU_P, buf, sizeof(buf));
	CHECK_STR(buf, "60.0");
	screen_cgroup_cell(&s, &s.cgv[0], FIELD_CG_CPU_10, buf, sizeof(buf));
	CHECK_STR(buf, "30.0");
	screen_cgroup_cell(&s, &s.cgv[0], FIELD_CAT + CAT_IRQ, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	screen_cgroup_cell(&s, &s.cgv[0], FIELD_CG_NR, buf, sizeof(buf));
	CHECK_STR(buf, "5");
	s.sel.metric = METRIC_RATE;
	screen_cgroup_cell(&s, &s.cgv[0], FIELD_CAT + CAT_CPU, buf, sizeof(buf));
	CHECK_STR(buf, "50.0");
	s.sel.metric = METRIC_PCT;

	/* r reverses the siblings, the tree keeps its shape */
	screen_input_key(&s, 'r');
	screen_draw(&s);
	CHECK_STR(tree(), "- /|    b|  - a|      x|      pod y (Burstable)");
	screen_input_key(&s, 'r');
	/* < and > walk the cgroup columns: NR then TOTAL */
	screen_input_key(&s, '>');
	CHECK(s.cg_sort == FIELD_CG_NR);
	screen_input_key(&s, '<');
	CHECK(s.cg_sort == FIELD_TOTAL);
	/* sorted by the cgroups' own cpu pressure */
	screen_cgroup_set_sort(&s, FIELD_CG_CPU_P, false);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|    b|  - a|      pod y (Burstable)|      x");
	CHECK(find_line("sort CPU.P%") == 1);
	/* a process sort key with no cgroup column says so */
	screen_input_key(&s, 'P');
	CHECK(s.msg_error && s.cg_sort == FIELD_CG_CPU_P);
	/* a category shortcut sorts by that column */
	screen_input_key(&s, 'C');
	CHECK(s.cg_sort == FIELD_CAT + CAT_CPU && s.sel.sort == FIELD_TOTAL);
	screen_input_key(&s, 'D');
	CHECK(s.cg_sort == FIELD_TOTAL);

	/* fold /a with Left, unfold with Right; - and + do the same */
	screen_input_key(&s, KEY_DOWN);
	CHECK(s.cg_cur == 1 && !strcmp(s.cg_cur_path, "/a"));
	screen_input_key(&s, KEY_LEFT);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|  + a|    b");
	CHECK(s.cg_cur == 1 && !strcmp(s.cg_cur_path, "/a"));
	CHECK(find_line("at /a") == 1);
	screen_input_key(&s, KEY_RIGHT);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|  - a|      pod y (Burstable)|      x|    b");
	screen_input_key(&s, '-');
	CHECK(s.ncgv == 3);
	screen_input_key(&s, '+');
	CHECK(s.ncgv == 5);
	/* Left on a leaf goes up to its parent */
	screen_input_key(&s, KEY_DOWN);
	CHECK(!strcmp(s.cg_cur_path, "/a/y"));
	screen_input_key(&s, KEY_LEFT);
	CHECK(!strcmp(s.cg_cur_path, "/a") && s.ncgv == 5);
	/* the fold and the selection survive a refresh */
	screen_input_key(&s, KEY_LEFT);
	load_cgroup_sample(NULL);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|  + a|    b");
	CHECK(!strcmp(s.cg_cur_path, "/a"));
	screen_input_key(&s, KEY_RIGHT);

	/* / searches the paths (and names: "b" alone finds Burstable) */
	screen_input_key(&s, '/');
	screen_input_key(&s, '/');
	screen_input_key(&s, 'b');
	CHECK(!strcmp(s.cg_cur_path, "/b"));
	screen_input_key(&s, 27);
	CHECK(!strcmp(s.cg_cur_path, "/a"));

	/* o hides the cgroups that did not stall */
	s.snap.s.cgroups[0].total_pct = 0; /* /a/x */
	screen_input_key(&s, 'o');
	CHECK(s.ncgv == 4);
	screen_input_key(&s, 'o');
	CHECK(s.ncgv == 5);

	/* Enter: the processes of /a and below (not /ab, not /b) */
	screen_input_key(&s, '\r');
	CHECK(!s.cgview && s.zoom && !strcmp(s.zoom, "/a"));
	screen_draw(&s);
	CHECK(find_line("cgroup /a") == 0);
	CHECK(s.nview == 3);
	bool ok = true;
	for (size_t i = 0; i < s.nview; i++)
		ok = ok && s.view[i].cgroup &&
		     (!strcmp(s.view[i].cgroup, "/a") ||
		      !strncmp(s.view[i].cgroup, "/a/", 3));
	CHECK(ok);
	CHECK(find_line("inab") < 0 && find_line("inb") < 0);
	CHECK(find_line("inx") > 0 && find_line("ina") > 0);
	/* sorted as the process view is: by TOTAL, ina (50) first */
	CHECK(s.nview && s.view[0].pid == 1004);
	/* the zoom stays across refreshes */
	load_cgroup_sample(NULL);
	CHECK(s.nview == 3);
	/* Esc: back to the cgroups, on the one we were in */
	screen_input_key(&s, 27);
	CHECK(s.cgview && !s.zoom && !strcmp(s.cg_cur_path, "/a"));
	/* g leaves the view, Enter on /b zooms into one task */
	screen_input_key(&s, KEY_END);
	CHECK(!strcmp(s.cg_cur_path, "/b"));
	screen_input_key(&s, KEY_ENTER);
	CHECK(s.nview == 1 && s.view[0].pid == 1002);
	/* g from a zoom goes back to the tree as well */
	screen_input_key(&s, 'g');
	CHECK(s.cgview && !s.zoom && !strcmp(s.cg_cur_path, "/b"));
	screen_input_key(&s, 'g');
	CHECK(!s.cgview && s.nview == 5);

	/* / finds a name the path does not hold; \ keeps the matches and
	   their ancestors */
	screen_input_key(&s, 'g');
	CHECK(s.cgview);
	CHECK(screen_cgroup_find(&s, "BURSTABLE", 0));
	CHECK(!strcmp(s.cg_cur_path, "/a/y"));
	CHECK(!screen_cgroup_find(&s, "nowhere", 0));
	s.cg_filter = strdup("pod y");
	screen_rebuild_view(&s);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|  - a|      pod y (Burstable)");
	free(s.cg_filter);
	s.cg_filter = strdup("/b");
	screen_rebuild_view(&s);
	screen_draw(&s);
	CHECK_STR(tree(), "- /|    b");
	free(s.cg_filter);
	s.cg_filter = NULL;
	screen_rebuild_view(&s);
	CHECK(s.ncgv == 5);
	screen_input_key(&s, 'g');

	/* narrow: columns give way, the tree stays */
	screen_input_key(&s, 'g');
	size(15, 60);
	CHECK(s.cg_hidden > 0 && s.cg_shown[FIELD_CG_NAME] &&
	      s.cg_shown[FIELD_TOTAL]);
	int cg_hidden = 0, ncg;
	const int *cg = layouts_fields(FIELD_LAYOUT_CGROUPS_SCREEN, &ncg);
	for (int c = 0; c < ncg; c++)
		cg_hidden += cg[c] != FIELD_WHY && !s.cg_shown[cg[c]];
	CHECK(cg_hidden == s.cg_hidden);
	CHECK(s.cg_x[FIELD_CG_NAME] + s.cg_w[FIELD_CG_NAME] == COLS);
	size(50, 160);
	CHECK(s.cg_hidden == 0);
	screen_input_key(&s, 'g');
	s.msg[0] = '\0';
}

/* ---- the evidence pane ---- */

/*
 * A process stalled in cpu, io, swap, reclaim, wpcopy and compact, with
 * the evidence of each and a cause for each but compact.
 */
static void make_why(struct row_why *w, const struct cat_figure d[NCAT])
{
	struct evidence *ev = &w->ev;

	memset(w, 0, sizeof(*w));
	ev->interval_s = 2;
	ev->cpu_cgroup_version = 1;
	ev->cpu_quota_us = (struct kval){ .have = true, .v = 20000 };
	ev->cpu_period_us = (struct kval){ .have = true, .v = 100000 };
	ev->cpu_throttled_us = (struct kval){ .have = true, .v = 1000000 };
	ev->allowed_cpus = (struct kval){ .have = true, .v = 2 };
	ev->cpus_online = (struct kval){ .have = true, .v = 2 };
	ev->mem_cgroup_version = 1;
	ev->mem_max = (struct kval){ .have = true, .v = 64 << 20 };
	ev->mem_current = (struct kval){ .have = true, .v = 63 << 20 };
	ev->mem_events_max = (struct kval){ .have = true, .v = 0 };
	ev->mem_failcnt = (struct kval){ .have = true, .v = 9 };
	ev->task_read_bytes = (struct kval){ .have = true, .v = 4096 };
	ev->n_disks = 1;
	ev->disks[0] = (struct diskstats_busy){ 8, 0, "sda", 98.5, 1.25, 0,
						52428800 };
	ev->forks = (struct kval){ .have = true, .v = 3 };
	ev->private_bytes = (struct kval){ .have = true, .v = 1 << 20 };
	ev->states_source = CGSTATS_KERNEL;
	ev->tasks_running = (struct kval){ .have = true, .v = 1 };
	rowwhy_eval(w, d, 60, true, 20, 2, WHY_NONE);
}

/* The pane's lines, from the one below its title to the bottom line. */
static int pane_lines(const char *lines[], int max)
{
	static char buf[40][512];
	int y = find_line("Evidence (w closes)"), n = 0;

	CHECK(y > 0);
	for (y++; y > 0 && y < LINES - 1 && n < max && n < 40; y++, n++) {
		snprintf(buf[n], sizeof(buf[n]), "%s", line_at(y));
		for (char *e = buf[n] + strlen(buf[n]);
		     e > buf[n] && e[-1] == ' ';)
			*--e = '\0';
		lines[n] = buf[n];
	}
	return n;
}

static void select_pid(pid_t pid)
{
	for (size_t i = 0; i < s.nview; i++)
		if (s.view[i].pid == pid)
			s.cur = i;
	CHECK(s.cur < s.nview && s.view[s.cur].pid == pid);
}

/*
 * The pane's next line (*i of n) starts with want; at the first that
 * does not, say what the pane has there and check no further (*i = -1).
 */
static void check_prefix(const char *l[], int n, int *i, const char *want)
{
	if (*i < 0)
		return;
	if (*i >= n) {
		fprintf(stderr, "pane: %d lines, wanted \"%s...\" after them\n",
			n, want);
		CHECK(0);
		*i = -1;
		return;
	}
	if (strncmp(l[*i], want, strlen(want)) != 0) {
		fprintf(stderr, "pane line %d \"%s\", wanted \"%s...\"\n", *i,
			l[*i], want);
		CHECK(0);
		*i = -1;
		return;
	}
	(*i)++;
}

static void test_why_pane(void)
{
	static struct row rows[3];
	static struct cgroup_row cg[1];
	static struct row_why w, wcg;
	struct sample smp;
	const char *l[40];
	int n, i = 0;

	rows[0] = make_row(100, "stuck", "root");
	set_figure(&rows[0], CAT_CPU, 30, 10);
	set_figure(&rows[0], CAT_IO, 20, 4);
	set_figure(&rows[0], CAT_SWAP, 5, 1);
	set_figure(&rows[0], CAT_RECLAIM, 4, 1);
	set_figure(&rows[0], CAT_WPCOPY, 3, 1);
	set_figure(&rows[0], CAT_COMPACT, 2, 1);
	rows[0].total_pct = 60;
	rows[0].cpu_pct = 20;
	make_why(&w, rows[0].d);
	rows[0].why = &w;
	/* a stall of a category without evidence: no pane to fill */
	rows[1] = make_row(200, "compact", "root");
	set_figure(&rows[1], CAT_COMPACT, 50, 1);
	rows[1].total_pct = 50;
	/* a stall with evidence the producer did not gather */
	rows[2] = make_row(300, "nowhy", "root");
	set_figure(&rows[2], CAT_IO, 10, 1);
	rows[2].total_pct = 10;
	/* the cgroup of the first, with the same stalls and evidence */
	cg[0] = make_cgroup("/", 30, 10, 3);
	memcpy(cg[0].d, rows[0].d, sizeof(cg[0].d));
	make_why(&wcg, cg[0].d);
	cg[0].why = &wcg;
	memset(&smp, 0, sizeof(smp));
	smp.time = 1763740000;
	smp.interval = 2.0;
	smp.delayacct = true;
	smp.delayacct_known = true;
	smp.ts_version = 16;
	smp.rows = rows;
	smp.nrows = 3;
	smp.nprocs = 3;
	smp.cgroups = cg;
	smp.ncgroups = 1;
	CHECK(snapshot_copy(&s.snap, &smp) == 0);
	s.have_sample = true;
	screen_rebuild_view(&s);
	s.why = true;

	select_pid(100);
	size(80, 200);
	n = pane_lines(l, 40);
	/* the causes ranked, then each stalled category with its facts */
	check_prefix(l, n, &i, "Why: 100 stuck (evidence of 2.00 s)");
	check_prefix(l, n, &i, "  TOTAL 60.0 %, CPU% 20.0: reclaim,");
	check_prefix(l, n, &i, "Binding: cpu quota, ");
	check_prefix(l, n, &i, "  also: disk sda 98%, ");
	check_prefix(l, n, &i, "  also: mem limit, ");
	check_prefix(l, n, &i, "  also: fork cow, ");
	check_prefix(l, n, &i, "CPU 30.0 %: cpu quota");
	check_prefix(l, n, &i, "  cpu.cfs_quota_us/cpu.cfs_period_us 20000/100000 µs: throttled 1.00 s");
	check_prefix(l, n, &i, "  allowed CPUs 2 of 2; its runnable threads unknown;");
	check_prefix(l, n, &i, "IO 20.0 %: disk sda 98%");
	check_prefix(l, n, &i, "  the process read 4.0 KiB from storage");
	check_prefix(l, n, &i, "  disk sda: 98 % busy, queue 1.25, read 0 B, wrote 50 MiB");
	check_prefix(l, n, &i, "SWAP 5.0 %: mem limit");
	check_prefix(l, n, &i, "  memory.limit_in_bytes 64 MiB, current 63 MiB; max events +0, failcnt +9");
	check_prefix(l, n, &i, "  machine: - free, - available of -; swap - free of -");
	/* the memory facts once, under the first memory category */
	check_prefix(l, n, &i, "RECLAIM 4.0 %: mem limit");
	check_prefix(l, n, &i, "WPCOPY 3.0 %: fork cow");
	check_prefix(l, n, &i, "  forked +3 processes; private memory 1.0 MiB");
	/* no line of compact: it has no evidence */
	check_prefix(l, n, &i, "  its cgroup's tasks (cgroupstats): 1 running,");
	CHECK(i < 0 || i == n);
	if (i >= 0 && i != n)
		fprintf(stderr, "pane: %d lines, wanted %d: \"%s\"\n", n, i,
			l[i]);

	select_pid(200);
	size(80, 200);
	n = pane_lines(l, 40);
	CHECK(n == 3);
	i = 0;
	check_prefix(l, n, &i, "Why: 200 compact");
	check_prefix(l, n, &i, "  TOTAL 50.0 %, CPU% 1.5: reclaim,");
	check_prefix(l, n, &i, "  no stall of 1 % or more in cpu, io, swap, reclaim, thrashing or wpcopy");
	CHECK(n == 3 && strlen(l[2]) == strlen("  no stall of 1 % or more in "
					       "cpu, io, swap, reclaim, "
					       "thrashing or wpcopy"));

	select_pid(300);
	size(80, 200);
	n = pane_lines(l, 40);
	CHECK(n == 2);
	i = 0;
	check_prefix(l, n, &i, "Why: 300 nowhy");
	check_prefix(l, n, &i, "  no evidence was gathered for this row");

	/* a cgroup's pane: the machine's CPUs, no process's forks */
	s.set.cgroups = true;
	screen_set_cgview(&s, true);
	size(80, 200);
	n = pane_lines(l, 40);
	i = 0;
	check_prefix(l, n, &i, "Why: cgroup / (evidence of 2.00 s)");
	check_prefix(l, n, &i, "Binding: cpu quota, ");
	check_prefix(l, n, &i, "  also: disk sda 98%, ");
	check_prefix(l, n, &i, "  also: mem limit, ");
	check_prefix(l, n, &i, "  also: fork cow, ");
	check_prefix(l, n, &i, "CPU 30.0 %: cpu quota");
	check_prefix(l, n, &i, "  cpu.cfs_quota_us/cpu.cfs_period_us 20000/100000 µs: throttled 1.00 s");
	check_prefix(l, n, &i, "  - tasks runnable on the machine, 2 CPUs online");
	check_prefix(l, n, &i, "IO 20.0 %: disk sda 98%");
	check_prefix(l, n, &i, "  disk sda: 98 % busy, queue 1.25, read 0 B, wrote 50 MiB");
	check_prefix(l, n, &i, "SWAP 5.0 %: mem limit");
	check_prefix(l, n, &i, "  memory.limit_in_bytes 64 MiB, current 63 MiB; max events +0, failcnt +9");
	check_prefix(l, n, &i, "  machine: - free, - available of -; swap - free of -");
	check_prefix(l, n, &i, "RECLAIM 4.0 %: mem limit");
	check_prefix(l, n, &i, "WPCOPY 3.0 %: fork cow");
	check_prefix(l, n, &i, "  the cgroup's own tasks (cgroupstats): 1 running,");
	CHECK(i < 0 || i == n);
	screen_set_cgview(&s, false);
	s.set.cgroups = false;
	s.why = false;
	s.cur = 0;
	load_sample();
}

/* ---- the trigger flag ---- */

static void test_trigger(void)
{
	s.attr[R_TITLE] = A_REVERSE;
	s.attr[R_TRIGGER] = A_BOLD | A_UNDERLINE;
	load_cgroup_sample("memory some 150ms/2s");
	size(50, 160);
	const char *l = line_at(0);
	const char *at = strstr(l, "TRIGGER memory some 150ms/2s");
	CHECK(at != NULL);
	if (at) {
		int x = textwidth_width(l) - textwidth_width(at);
		attr_t a = mvinch(0, x) & A_ATTRIBUTES;
		CHECK((a & (A_BOLD | A_UNDERLINE)) == (A_BOLD | A_UNDERLINE));
		CHECK(!(a & A_REVERSE));
		a = mvinch(0, 1) & A_ATTRIBUTES;
		CHECK(!(a & A_UNDERLINE));
	}
	/* the next sample has none */
	load_cgroup_sample(NULL);
	size(50, 160);
	CHECK(find_line("TRIGGER") < 0);
	/* a label cannot write to the terminal */
	load_cgroup_sample("io \x1b]0;x\x07 full");
	size(50, 160);
	CHECK(find_line("TRIGGER io \\e]0;x\\x07 full") == 0);
	load_cgroup_sample(NULL);
	s.attr[R_TITLE] = A_NORMAL;
	s.attr[R_TRIGGER] = A_NORMAL;
}

/* ---- the replay header and keys ---- */

/* A recording played on the screen: where it is, and its player. */
struct played {
	char dir[256], path[320];
	struct producer *m;
	struct evloop *loop;
};

/*
 * Record n copies of the sample loaded, one each 10 s from its time, and
 * put their player on the screen as the producer (what --replay does).
 * False when that failed (said).
 */
static bool play_loaded(struct played *pl, int n)
{
	const char *tmp = getenv("TMPDIR");
	char err[512];
	struct sample smp;
	struct ndjson_rec *rec;

	memset(pl, 0, sizeof(*pl));
	snprintf(pl->dir, sizeof(pl->dir), "%s/test_screen_draw.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(pl->dir)) {
		perror("mkdtemp");
		exit(99);
	}
	snprintf(pl->path, sizeof(pl->path), "%s/play.ndjson", pl->dir);
	load_sample();
	smp = s.snap.s;
	rec = ndjson_rec_open(pl->path, err, sizeof(err));
	CHECK(rec != NULL);
	if (!rec) {
		fprintf(stderr, "%s: %s\n", pl->path, err);
		rmdir(pl->dir);
		return false;
	}
	for (int i = 0; i < n; i++) {
		smp.time = s.snap.s.time + 10 * i;
		CHECK(ndjson_rec_write(rec, &smp) == 0);
	}
	CHECK(ndjson_rec_close(rec) == 0);
	pl->m = player_open_set(&(const char *){ pl->path },
			    1, NAN, NAN, false, NULL, -1, err, sizeof(err));
	pl->loop = evloop_new();
	CHECK(pl->m != NULL && pl->loop != NULL);
	if (!pl->m)
		fprintf(stderr, "%s: %s\n", pl->path, err);
	if (!pl->m || !pl->loop) {
		if (pl->m)
			producer_free(pl->m);
		evloop_free(pl->loop);
		unlink(pl->path);
		rmdir(pl->dir);
		return false;
	}
	s.m = pl->m;
	s.loop = pl->loop;
	s.msg[0] = '\0';
	return true;
}

/* The screen without a producer again; the recording removed. */
static void play_end(struct played *pl)
{
	s.m = NULL;
	s.loop = NULL;
	s.rp_have = s.rp_done = s.rp_paused = false;
	s.msg[0] = '\0';
	producer_free(pl->m);
	evloop_free(pl->loop);
	unlink(pl->path);
	rmdir(pl->dir);
}

static void test_replay(void)
{
	struct played pl;
	if (!play_loaded(&pl, 5))
		return;
	s.rp_have = true;
	s.rp_index = 2;
	s.rp_count = 5;
	size(50, 160);
	char when[64];
	time_t t = (time_t)s.snap.s.time;
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), " stalltop %H:%M:%S  REPLAY 3/5  %Y-%m-%d",
		 &tm);
	CHECK(strncmp(line_at(0), when, strlen(when)) == 0);
	if (strncmp(line_at(0), when, strlen(when)) != 0)
		fprintf(stderr, "header: %s\nwanted: %s\n", line_at(0), when);
	CHECK(find_line("[paused]") < 0);
	/* the machine line: the player says why it has none */
	CHECK(find_line("load, CPU, memory and swap: not in the recording") > 0);
	/* Space pauses instead of freezing */
	screen_input_key(&s, ' ');
	CHECK(s.rp_paused && !s.frozen && producer_paused(s.m));
	screen_draw(&s);
	CHECK(find_line("REPLAY 3/5  ") == 0 && find_line("[paused]") == 0);
	CHECK(find_line("FROZEN") < 0);
	screen_input_key(&s, ' ');
	CHECK(!s.rp_paused && !producer_paused(s.m));
	s.rp_done = true;
	screen_draw(&s);
	CHECK(find_line("[end]") == 0);
	s.rp_done = false;
	/* the hints name the replay keys */
	s.msg[0] = '\0';
	screen_draw(&s);
	CHECK(strstr(line_at(LINES - 1), "t next") &&
	      strstr(line_at(LINES - 1), "j jump"));
	/* t and T move through the recording: to its second sample, back */
	screen_input_key(&s, 't');
	CHECK(!s.msg_error && s.rp_index == 1 && s.rp_count == 5);
	screen_input_key(&s, 'T');
	CHECK(!s.msg_error && s.rp_index == 0);
	/* j asks for a time, starting from the sample's own */
	screen_input_key(&s, 'j');
	CHECK(s.prompt == PROMPT_JUMP);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	CHECK_STR(s.input, when);
	for (int i = 0; i < 10; i++)
		screen_input_key(&s, KEY_BACKSPACE);
	for (const char *p = "25:00"; *p; p++)
		screen_input_key(&s, *p);
	screen_input_key(&s, '\r');
	CHECK(s.msg_error && strstr(s.msg, "25:00"));
	screen_input_key(&s, 'j');
	screen_input_key(&s, 21);
	for (const char *p = "12:3"; *p; p++)
		screen_input_key(&s, *p);
	screen_input_key(&s, '\r');
	CHECK(s.msg_error);
	screen_input_key(&s, 'j');
	screen_input_key(&s, 21);
	for (const char *p = "12:30:05"; *p; p++)
		screen_input_key(&s, *p);
	screen_input_key(&s, '\r');
	CHECK(!s.msg_error);
	screen_input_key(&s, 'j');
	screen_input_key(&s, 21);
	for (const char *p = "1763740020.5"; *p; p++)
		screen_input_key(&s, *p);
	screen_input_key(&s, '\r');
	CHECK(!s.msg_error && s.rp_index == 2);
	/* a recording without thread rows: Enter says so, in its words */
	CHECK(s.snap.s.thread_rows == NULL);
	screen_input_key(&s, KEY_HOME);
	screen_input_key(&s, '\r');
	CHECK(s.msg_error && s.drill_tgid == 0);
	CHECK_STR(s.msg, "this recording holds no thread rows: only its "
		  "processes can be shown");
	/* a figure a replay of an NDJSON recording cannot change */
	screen_input_key(&s, 'a');
	CHECK(s.msg_error && !s.accumulate);
	CHECK_STR(s.msg, "a recording of format 1 (NDJSON) holds its "
		  "intervals as they were recorded: -a and a coarser -d need "
		  "a recording of readings");
	/* nor can it act, nor measure */
	screen_input_key(&s, 'k');
	CHECK(s.msg_error && !s.menu.open && strstr(s.msg, "no action"));
	screen_input_key(&s, 'E');
	CHECK(s.msg_error && s.prompt == PROMPT_NONE &&
	      strstr(s.msg, "does not measure"));
	/* d sets the speed of playback */
	screen_input_key(&s, 'd');
	CHECK(s.prompt == PROMPT_DELAY && strstr(s.prompt_ops->label, "Speed"));
	screen_input_key(&s, 27);
	/* the header says how the sample was recorded, not what was asked */
	s.msg[0] = '\0';
	screen_draw(&s);
	CHECK(find_line("[threads]") < 0 && find_line("[since start]") < 0);
	s.accumulate = true; /* as -a given to the replay */
	screen_draw(&s);
	CHECK(find_line("[since start]") < 0);
	s.accumulate = false;
	s.snap.s.threads = true;
	s.snap.s.accumulated = true;
	screen_draw(&s);
	CHECK(find_line("[threads]") == 0 && find_line("[since start]") == 0);
	s.snap.s.threads = false;
	s.snap.s.accumulated = false;
	play_end(&pl);
	load_sample();
	screen_draw(&s);
	CHECK(find_line("REPLAY") < 0);
	/* without a producer that moves in time, t says what it is for */
	screen_input_key(&s, 't');
	CHECK(s.msg_error && strstr(s.msg, "--replay"));
	s.msg[0] = '\0';
}

/*
 * A recording of three samples played on the screen as its timer does:
 * each refresh shows the next one, "REPLAY k/3" with its clock, and the
 * third, the last, is shown and marked [end].
 */
static void test_replay_play(void)
{
	struct played pl;
	char want[128], clock[16];

	if (!play_loaded(&pl, 3))
		return;
	for (int k = 1; k <= 3; k++) {
		time_t t = 1763740000 + 10 * (k - 1);
		struct tm tm;

		screen_sample_now(&s);
		gmtime_r(&t, &tm);
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
		snprintf(want, sizeof(want), " stalltop %s  REPLAY %d/3",
			 clock, k);
		CHECK(strncmp(line_at(0), want, strlen(want)) == 0);
		CHECK((find_line("[end]") == 0) == (k == 3));
		if (strncmp(line_at(0), want, strlen(want)) != 0)
			fprintf(stderr, "header: %s\nwanted: %s\n",
				line_at(0), want);
	}
	CHECK(s.rp_done && s.rp_index == 2 && s.rp_count == 3);
	play_end(&pl);
	load_sample();
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	utf8 = setlocale(LC_ALL, "C.UTF-8") != NULL;
	setenv("TERM", "xterm", 1);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *term = out && in ? newterm("xterm", out, in) : NULL;
	if (!term) {
		fprintf(stderr, "no terminal description for xterm: skipped\n");
		return 77;
	}
	s.set.delay = 1.0;
	s.set.sel.sort = FIELD_TOTAL;
	s.sel = s.set.sel;
	s.delay = 1.0;
	s.utf8 = utf8;
	s.table_y = -1;
	s.cg_sort = FIELD_TOTAL;
	help_build(&s.help_text, "/nowhere/stalltoprc");

	load_sample();
	test_wide();
	test_cells();
	test_keys();
	test_default_columns();
	test_narrow();
	test_metrics();
	test_banner();
	test_cgroups();
	test_trigger();
	test_why_pane();
	test_replay();
	test_replay_play();

	endwin();
	delscreen(term);
	fclose(out);
	fclose(in);
	snapshot_free(&s.snap);
	help_free(&s.help_text);
	free(s.view);
	free(s.pids);
	free(s.name);
	free(s.prompt_back_name);
	free(s.prompt_back_cg);
	free(s.search);
	free(s.cgv);
	free(s.cg_cur_path);
	for (size_t i = 0; i < s.nfolded; i++)
		free(s.folded[i]);
	free(s.folded);
	free(s.zoom);
	return unit_done();
}
