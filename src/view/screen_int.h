/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interactive screen's shared state, seen by its parts: the manager
 * (screen.c), header, table, input and help drawing. Nothing here reads
 * the kernel: the rows come from struct sample through the producer API.
 */
#ifndef STALLTOP_SCREEN_INT_H
#define STALLTOP_SCREEN_INT_H

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/fields.h"
#include "model/producer.h"
#include "model/layouts.h"
#include "model/sample.h"
#include "model/select.h"
#include "model/snapshot.h"
#include "model/tree.h"
#include "view/help.h"
#include "view/keys.h"
#include "view/screen.h"

struct producer;
struct evloop;
struct screen;

/* Smallest terminal that gets the real screen. */
#define SCREEN_MIN_COLS 60
#define SCREEN_MIN_LINES 10

/* Samples of PSI history kept for the sparklines. */
#define PSI_HISTORY 120

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SEARCH,
	PROMPT_FILTER,
	PROMPT_USER,
	PROMPT_PIDS,
	PROMPT_DELAY,
	PROMPT_CONFIRM,     /* y/n: turn delay accounting on */
	PROMPT_JUMP,        /* replay: a time to jump to */
	PROMPT_ACT,         /* y/n: act on a task (kill, renice, ionice) */
};

/* A list to choose from (menu.c): the kill key's signals, ionice's classes. */
#define MENU_MAX 40
struct menu {
	bool open;
	char title[256];
	char item[MENU_MAX][48];
	int value[MENU_MAX];
	size_t n, cur, top;
	int typed;          /* the digits typed so far: a value to choose */
	void (*chosen)(struct screen *s, int value);
};

/* What a prompt is for: its owner's part (prompt.c edits the line). */
struct prompt_ops {
	enum prompt_kind kind;
	const char *label;  /* N_(); NULL: the screen's prompt_label */
	/* the text after each keystroke (NULL: only Enter counts) */
	void (*changed)(struct screen *s, const char *text);
	void (*accept)(struct screen *s, const char *text);
	void (*cancel)(struct screen *s);       /* Esc; may be NULL */
	/* a yes/no question instead of a line: any key answers it */
	void (*answer)(struct screen *s, bool yes);
	/* may be NULL; false shows that the text typed matches nothing */
	bool (*hit)(const struct screen *s, const char *text);
};

/* What a piece of the screen means; mapped to colours or attributes. */
enum role {
	R_NORMAL,
	R_TITLE,            /* title bar and column headers */
	R_SORTED,           /* the sorted column's header */
	R_SELECTED,         /* the selection bar */
	R_LOW,              /* a figure that is zero or small */
	R_WARN,             /* a notable figure */
	R_SEVERE,           /* a large figure */
	R_NEW,              /* a row first seen just now */
	R_EXITED,           /* a row whose task ended in the interval */
	R_BANNER,           /* delay accounting off, errors */
	R_NOTICE,           /* monitor notices, hints */
	R_SPARK,
	R_TRIGGER,          /* the header's flag of a triggered sample */
	NROLES
};

/* One line of the cgroup view: a cgroup of the sample and its place. */
struct cg_line {
	const struct cgroup_row *cg;  /* points into snap.s.cgroups */
	int depth;          /* indentation: ancestors shown above it */
	bool kids;          /* has children (shown or folded) */
	bool folded;
};

struct screen {
	struct producer *m;
	struct evloop *loop;
	struct screen_settings set; /* as opened, kept up to date for W */

	/* the displayed sample (kept while frozen) and the rows shown */
	struct snapshot snap;
	bool have_sample;
	bool collecting;    /* rows of a new kind are on their way */
	struct row *view;
	size_t nview, view_cap;

	/* view filters; sel.pids and sel.name point to pids and name */
	struct select_opts sel;
	pid_t *pids;
	size_t npids;
	char *name;
	char *cg_filter;    /* the cgroup view's filter (\): name or path */
	char user_label[256];

	/* selection: index into view, and the task it stands on */
	size_t cur, top;
	pid_t cur_pid;
	bool follow;        /* stay on cur_pid (false: stay on row 0) */

	/* modes */
	bool frozen;
	bool threads_all;   /* H */
	pid_t drill_tgid;   /* Enter: threads of this process, 0 = off */
	char drill_name[64];
	pid_t drill_back_pid;
	bool cmdline;
	bool accumulate;
	bool tree;          /* F5: processes under their parents */
	bool tree_on;       /* the view is in tree order now (process rows) */
	struct tree_line *tree_lines; /* per row of view when tree_on */
	size_t tree_cap;
	bool mono;
	bool utf8;
	double delay;
	double interval;    /* settings.interval, as d changed it */
	bool quick_timer;   /* the timer runs a short first interval */

	/* the bottom line: a prompt, a message, or the key hints */
	enum prompt_kind prompt;
	const struct prompt_ops *prompt_ops;
	char input[256];
	size_t input_len;
	char prompt_label[512];  /* a question made for the moment */
	bool input_selected;     /* the pre-filled text: a key replaces it */
	pid_t prompt_back_pid;   /* selection before a search */
	bool prompt_back_follow;
	char *prompt_back_name;  /* filter before \ (of the view it was in) */
	char *prompt_back_cg;    /* selected cgroup before a search */
	char *search;            /* last search text */
	char msg[512];
	bool msg_error;

	/* the task table's columns (screen_setup.c) */
	int cols[NFIELD];        /* every column of the screen, in order */
	int ncols;
	bool col_on[NFIELD];     /* shown, once chosen (cols_custom) */
	bool cols_custom;        /* chosen: settings file or F2 */
	int eff_cols[NFIELD];    /* those shown (screen_setup_columns) */
	bool setup;              /* the column setup (F2) is open */
	int setup_cur;
	bool setup_changed;
	int hscroll;             /* cells of COMMAND scrolled off (Left/Right) */

	/* help screen */
	bool help;
	int help_top;
	/* the pane of the selected row's evidence (w) */
	bool why;
	struct help_text help_text;
	/* stopped by screen_suspend: its SIGCONT is no news */
	bool suspended;

	/* PSI history: some (full for irq) share per interval */
	double hist[NPSI][PSI_HISTORY];
	size_t hist_len, hist_head;

	/* layout of the last draw, for mouse clicks and paging */
	int table_y;        /* line of the column headers, -1 if none */
	int rows_y, rows_h; /* first row line and how many fit */
	int col_x[NFIELD], col_w[NFIELD];  /* by field id */
	bool col_shown[NFIELD];
	int cols_hidden;

	/* the cgroup view (g): the tree in display order, its selection */
	bool cgview;
	struct cg_line *cgv;
	size_t ncgv, cgv_cap;
	size_t cg_cur, cg_top;
	char *cg_cur_path;  /* the selected cgroup, followed across refreshes */
	int cg_sort;        /* a field of FIELD_LAYOUT_CGROUPS */
	bool cg_reverse;
	char **folded;      /* paths of the folded cgroups */
	size_t nfolded;
	char *zoom;         /* Enter on a cgroup: only its processes (or NULL) */
	int cg_x[NFIELD], cg_w[NFIELD];    /* by field id */
	bool cg_shown[NFIELD];
	int cg_hidden;

	/* where the producer stands in its stream (producer_position) */
	bool rp_have;       /* the position below is known */
	size_t rp_index, rp_count;
	bool rp_paused, rp_done;

	/* acting on a task: the list open, the task chosen and what to do */
	struct menu menu;
	struct producer_act act;
	char act_who[160];  /* the task, escaped: "'name' (pid 12)" */
	char act_now[64];   /* its priority when chosen (ionice) */

	attr_t attr[NROLES];
	int exit_code;
	unsigned long refreshes; /* samples the refresh timer took (-n) */
};

/* screen.c */
void screen_rebuild_view(struct screen *s);
void screen_draw(struct screen *s);
void screen_message(struct screen *s, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void screen_resample_soon(struct screen *s);
void screen_set_delay(struct screen *s, double seconds);
void screen_set_threads(struct screen *s, bool all, pid_t tgid,
			const char *name);
void screen_quit(struct screen *s, int code);
/*
 * Ctrl-Z: the terminal given back as it was, the process stopped as by
 * SIGTSTP's default action; once continued, the screen back and drawn.
 */
void screen_suspend(struct screen *s);
const struct row *screen_current(const struct screen *s);
/* The state and evidence of the rows in sight and the selected one, now. */
void screen_fill_current(struct screen *s);
/* Sorting by a detail (fields.h FIELD_DETAIL): read it for every row. */
void screen_fill_for_sort(struct screen *s);
/* A sample now (t, T, j, a trigger); the timer starts over. */
void screen_sample_now(struct screen *s);
/* The rows of another kind are wanted: soon live, at once in a replay. */
void screen_refetch(struct screen *s);
/* Switch the cgroup view on or off (from any view). */
void screen_set_cgview(struct screen *s, bool on);
/* Limit the process view to a cgroup's subtree (NULL: all). */
void screen_set_zoom(struct screen *s, const char *path);

/* screen_header.c: returns the first line below the header */
int screen_header_draw(struct screen *s, int y);
void screen_header_history_push(struct screen *s, const struct psi_sample *psi);

/* screen_table.c */
const char *screen_table_metric_label(enum metric m);
/* A number in at most width characters, fewer decimals as it grows. */
void screen_table_fmt_num(char *buf, size_t size, double v, int width, bool ms);
/* How a figure looks under a metric: the size of a stall decides. */
attr_t screen_table_figure_role(const struct screen *s, double v, enum metric m);
/* The context the screen's values are taken in. */
struct field_ctx screen_table_ctx(const struct screen *s);
/* A field's value as a cell's text (ms: a delay metric in ms). */
void screen_table_format(const struct field *f, const struct field_value *v,
			 bool ms, char *buf, size_t size);
/* How a field's value looks: dimmed when zero, coloured by size. */
attr_t screen_table_value_role(const struct screen *s, int id,
			       const struct field_value *v);
void screen_table_draw(struct screen *s, int y, int h);
/* Cells of the widest COMMAND cell among the rows in view (escaped). */
int screen_table_command_width(const struct screen *s);
/* Sort key (field) of the column header at screen column x, or -1. */
int screen_table_sort_at(const struct screen *s, int x);
/* Formatted text of one cell, for drawing and tests. */
void screen_table_cell(const struct screen *s, const struct row *r, int col,
		char *buf, size_t size);

/* screen_why.c: the evidence pane (key w) */
/* Lines the pane of the selected row takes (0: no room or not on). */
int screen_why_height(const struct screen *s, int h);
void screen_why_draw(struct screen *s, int y, int h);

/* screen_cgroup.c: the cgroup view */
void screen_cgroup_rebuild(struct screen *s);
void screen_cgroup_draw(struct screen *s, int y, int h);
const struct cg_line *screen_cgroup_current(const struct screen *s);
void screen_cgroup_select(struct screen *s, size_t i);
void screen_cgroup_move_by(struct screen *s, long d);
/* The evidence of the cgroups in sight (and the selected one). */
void screen_cgroup_fill(struct screen *s);
/* Fold (Left/-) or unfold (Right/+) the selected cgroup. */
void screen_cgroup_fold(struct screen *s, bool fold);
/* Sort by a cgroup column (the same one again: reverse when toggle). */
void screen_cgroup_set_sort(struct screen *s, int col, bool toggle);
/* The first cgroup whose path holds text at or after from; false if none. */
bool screen_cgroup_find(struct screen *s, const char *text, size_t from);
/* Does a cgroup's name or path have text in it (in any case)? */
bool screen_cgroup_matches(const struct cgroup_row *g, const char *text);
/* The cgroup column at screen column x, or -1. */
int screen_cgroup_column_at(const struct screen *s, int x);
/* Formatted text of one cell, for drawing and tests. */
void screen_cgroup_cell(const struct screen *s, const struct cg_line *l, int col,
		 char *buf, size_t size);

/* screen_input.c: keys and the mouse to actions; the bottom line */
void screen_input_key(struct screen *s, int key);
void screen_input_mouse(struct screen *s);
void screen_input_draw_bottom(struct screen *s, int y);

/* screen_setup.c: the task table's columns and their setup (F2) */
void screen_setup_init(struct screen *s);
/* The columns shown, in order (before the width decides); *n of them. */
const int *screen_setup_columns(struct screen *s, int *n);
/* Why a column is hidden by default, or NULL when it is shown. */
const char *screen_setup_off_reason(const struct screen *s, int id);
/* The next sortable shown column that way (dir -1, 1), or id. */
int screen_setup_step(struct screen *s, int id, int dir);
void screen_setup_open(struct screen *s);
void screen_setup_key(struct screen *s, int key);
void screen_setup_draw(struct screen *s);

/* prompt.c: the line typed at the bottom (search, filters, jump...) */
/* Open a prompt with initial text (NULL: empty). */
void prompt_start(struct screen *s, const struct prompt_ops *ops,
		  const char *initial);
/* A key while a prompt is open: edit the line, accept or cancel it. */
void prompt_key(struct screen *s, int key);
/* The label, the line and the cursor at line y. */
void prompt_draw(struct screen *s, int y);

/* menu.c: a list to choose one entry from, over the table */
void menu_open(struct screen *s, const char *title,
	       void (*chosen)(struct screen *s, int value));
void menu_add(struct screen *s, const char *text, int value);
/* Put the selection on the entry of this value (if there is one). */
void menu_select_value(struct screen *s, int value);
void menu_key(struct screen *s, int key);
void menu_draw(struct screen *s, int y, int h);

/* screen_draw.c: small helpers shared by the drawing parts */
/* Print text (escaped first when raw) at most cols cells, padded to cols. */
void screen_draw_text(struct screen *s, const char *text, bool raw, int cols,
	       bool right, attr_t attr);
void screen_draw_fill(int y, int x, int cols, attr_t attr);

/*
 * The columns of a table view, for the helpers below: the process table
 * (s->col_*) and the cgroup view (s->cg_*) each describe theirs.
 */
struct col_layout {
	const int *ids;     /* the view's fields in order (layouts_fields) */
	int n;
	int flex_min;       /* cells the flexible column (width 0) keeps */
	int sorted;         /* the sort column: marked and never dropped */
	const int *last;    /* dropped after the categories, in this order */
	size_t nlast;
	const int *first;   /* dropped before the categories (may be NULL) */
	size_t nfirst;
	/* Whether a column has anything to show (NULL: every one does). */
	bool (*want)(const struct screen *s, int col);
	/* The largest figure of a column in the view (0 when none). */
	double (*max)(const struct screen *s, int col);
	/* The header text of a column. */
	void (*title)(const struct screen *s, int col, char *buf, size_t size);
	/* where the last draw put them, by field id (NFIELD each) */
	bool *shown;
	int *x, *w;
	int *hidden;
};
/*
 * Start a table view at line y, h lines high: choose the columns that fit
 * (the delay category with the smallest figures goes first, then the
 * l->last ones), draw the header line, set table_y, rows_y and rows_h.
 * False when there is no room for a row.
 */
bool screen_draw_table_begin(struct screen *s, const struct col_layout *l, int y,
		      int h);
/* A cell of a row at line y in its column. */
void screen_draw_table_cell(struct screen *s, const struct col_layout *l, int y,
		     int col, const char *text, bool raw, attr_t attr);
/* Why a table view has no rows, where they would be. */
void screen_draw_table_empty(struct screen *s, const char *text);
/* The first of n rows to show on rows lines so that cur is one of them. */
size_t screen_draw_table_top(size_t top, size_t cur, size_t n, size_t rows);
/* The shown column at screen column x (or the gap after it), or -1. */
int screen_draw_column_at(int n, const bool *shown, const int *cx, const int *cw,
		   int x);
void screen_draw_help(struct screen *s);
void screen_draw_too_small(struct screen *s);

#endif
