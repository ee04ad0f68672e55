/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's cgroup view (key g): the sample's cgroups as a tree, each
 * cgroup below its parent and siblings ordered by the sort column, with
 * folding and the filter of \ (a cgroup whose name or path has the text,
 * with its ancestors); the columns that fit, the tree of names (NAME)
 * taking the rest of the line; the selection that follows a cgroup by
 * its path across refreshes (the header shows it). Enter (actions_move.c) zooms into the processes of the
 * selected cgroup.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/textwidth.h"
#include "model/cgname.h"
#include "model/producer.h"
#include "model/rowwhy.h"
#include "model/snapshot.h"
#include "view/screen_int.h"

/*
 * The tree keeps at least this many cells before columns are dropped,
 * more for the widest line in sight (up to TREE_WANT).
 */
#define TREE_MIN 16
#define TREE_WANT 56
#define NONE ((size_t)-1)

/* ---- figures ---- */

/* A cgroup's value of a field, as the screen takes it. */
static void cg_field(const struct screen *s, const struct cgroup_row *g,
		     int col, struct field_value *v)
{
	struct field_ctx ctx = screen_table_ctx(s);
	fields_cg_value(col, g, &ctx, v);
}

/* A figure of a cgroup, or NAN (absent, or not a number). */
static double cg_value(const struct screen *s, const struct cgroup_row *g,
		       int col)
{
	struct field_value v;
	cg_field(s, g, col, &v);
	if (!v.have || (fields_get(col)->type != FIELD_NUM &&
			fields_get(col)->type != FIELD_INT))
		return NAN;
	return v.num;
}

/* The last part of a path ("/a/b" → "b"); "/" stays "/". */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* The parent of a path into buf; false for "/" (and paths without '/'). */
static bool parent_path(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	if (!slash || !strcmp(path, "/"))
		return false;
	size_t len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= size)
		return false;
	memcpy(buf, path, len);
	buf[len] = '\0';
	return true;
}

/* ---- order ---- */

/* qsort has no context argument: the sort runs with these. */
static const struct screen *cmp_screen;
static const struct cgroup_row *cmp_rows;

/* By the sort column, then by path; absent figures last either way. */
static int cmp_sorted(const void *pa, const void *pb)
{
	const struct cgroup_row *a = &cmp_rows[*(const size_t *)pa];
	const struct cgroup_row *b = &cmp_rows[*(const size_t *)pb];
	const struct screen *s = cmp_screen;
	struct field_value va, vb;
	cg_field(s, a, s->cg_sort, &va);
	cg_field(s, b, s->cg_sort, &vb);
	int r = fields_compare(s->cg_sort, &va, &vb);
	if (s->cg_reverse && fields_value_present(&va) &&
	    fields_value_present(&vb))
		r = -r;
	return r ? r : strcmp(a->path, b->path);
}

static int cmp_path(const void *pa, const void *pb)
{
	return strcmp(cmp_rows[*(const size_t *)pa].path,
		      cmp_rows[*(const size_t *)pb].path);
}

/* The index of the cgroup with this path, by binary search, or NONE. */
static size_t find_path(const size_t *bypath, size_t n, const char *path)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(cmp_rows[bypath[mid]].path, path);
		if (c == 0)
			return bypath[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static bool is_folded(const struct screen *s, const char *path)
{
	for (size_t i = 0; i < s->nfolded; i++)
		if (!strcmp(s->folded[i], path))
			return true;
	return false;
}

/* Does a cgroup's name or path have text in it (in any case)? */
bool screen_cgroup_matches(const struct cgroup_row *g, const char *text)
{
	if (!text || !*text)
		return false;
	return (g->path && strcasestr(g->path, text)) ||
	       (g->name && strcasestr(g->name, text));
}

struct tree {
	size_t *first, *next; /* children lists, in sorted order */
	size_t *parent;       /* the nearest ancestor in the sample, or NONE */
	bool *keep;           /* the filter leaves it (or a descendant) */
};

static void emit(struct screen *s, const struct tree *t, size_t i, int depth)
{
	const struct cgroup_row *g = &s->snap.s.cgroups[i];
	if (s->sel.only_stalled && !(g->total_pct > 0))
		return; /* its children add up to no more than it */
	if (!t->keep[i])
		return;
	if (s->ncgv == s->cgv_cap)
		return; /* cannot happen: the array holds every cgroup */
	struct cg_line *l = &s->cgv[s->ncgv++];
	l->cg = g;
	l->depth = depth;
	l->kids = t->first[i] != NONE;
	l->folded = l->kids && is_folded(s, g->path);
	if (l->folded)
		return;
	for (size_t c = t->first[i]; c != NONE; c = t->next[c])
		emit(s, t, c, depth + 1);
}

/* Put the selection on cg_cur_path, or the nearest shown ancestor. */
static void follow(struct screen *s)
{
	if (!s->ncgv) {
		s->cg_cur = 0;
		return;
	}
	size_t best = NONE;
	if (s->cg_cur_path) {
		int depth = -1;
		for (size_t i = 0; i < s->ncgv; i++) {
			const char *p = s->cgv[i].cg->path;
			if (!strcmp(p, s->cg_cur_path)) {
				best = i;
				break;
			}
			if (cgname_within(s->cg_cur_path, p) &&
			    s->cgv[i].depth > depth) {
				best = i;
				depth = s->cgv[i].depth;
			}
		}
	}
	if (best != NONE)
		s->cg_cur = best;
	else if (s->cg_cur >= s->ncgv)
		s->cg_cur = s->ncgv - 1;
	screen_cgroup_select(s, s->cg_cur);
}

void screen_cgroup_rebuild(struct screen *s)
{
	const struct sample *smp = &s->snap.s;
	size_t n = s->have_sample && smp->cgroups ? smp->ncgroups : 0;
	s->ncgv = 0;
	if (n > s->cgv_cap) {
		struct cg_line *v = realloc(s->cgv, n * sizeof(*v));
		if (!v) {
			screen_message(s, true, "%s", strerror(ENOMEM));
			return;
		}
		s->cgv = v;
		s->cgv_cap = n;
	}
	size_t *mem = n ? malloc(5 * n * sizeof(*mem)) : NULL;
	bool *keep = n ? malloc(n * sizeof(*keep)) : NULL;
	if (n && (!mem || !keep)) {
		free(mem);
		free(keep);
		screen_message(s, true, "%s", strerror(ENOMEM));
		return;
	}
	size_t *bypath = mem, *order = mem + n;
	struct tree t = { mem + 2 * n, mem + 3 * n, mem + 4 * n, keep };
	bool filter = s->cg_filter && *s->cg_filter;
	cmp_screen = s;
	cmp_rows = smp->cgroups;
	for (size_t i = 0; i < n; i++) {
		bypath[i] = order[i] = i;
		t.first[i] = t.next[i] = t.parent[i] = NONE;
		keep[i] = !filter;
	}
	if (n) {
		qsort(bypath, n, sizeof(*bypath), cmp_path);
		qsort(order, n, sizeof(*order), cmp_sorted);
	}

	/* children lists in sorted order: prepend, walking backwards */
	size_t roots = NONE;
	for (size_t k = n; k-- > 0;) {
		size_t i = order[k], p = NONE;
		char parent[4096];
		const char *path = smp->cgroups[i].path;
		/* the nearest ancestor that is in the sample */
		while (path && parent_path(path, parent, sizeof(parent))) {
			p = find_path(bypath, n, parent);
			if (p != NONE)
				break;
			path = parent;
		}
		size_t *head = p == NONE ? &roots : &t.first[p];
		t.next[i] = *head;
		*head = i;
		t.parent[i] = p;
	}
	/* a match keeps its ancestors: the way to it stays in sight */
	for (size_t i = 0; filter && i < n; i++)
		if (screen_cgroup_matches(&smp->cgroups[i], s->cg_filter))
			for (size_t a = i; a != NONE && !keep[a]; a = t.parent[a])
				keep[a] = true;
	for (size_t i = roots; i != NONE; i = t.next[i])
		emit(s, &t, i, 0);
	free(mem);
	free(keep);
	follow(s);
}

const struct cg_line *screen_cgroup_current(const struct screen *s)
{
	return s->cg_cur < s->ncgv ? &s->cgv[s->cg_cur] : NULL;
}

void screen_cgroup_select(struct screen *s, size_t i)
{
	if (!s->ncgv)
		return;
	if (i >= s->ncgv)
		i = s->ncgv - 1;
	s->cg_cur = i;
	const char *path = s->cgv[i].cg->path;
	if (s->cg_cur_path && !strcmp(s->cg_cur_path, path))
		return;
	char *copy = strdup(path);
	if (!copy)
		return;
	free(s->cg_cur_path);
	s->cg_cur_path = copy;
}

void screen_cgroup_move_by(struct screen *s, long d)
{
	if (!s->ncgv)
		return;
	long i = (long)s->cg_cur + d;
	screen_cgroup_select(s, i < 0 ? 0 : (size_t)i);
	screen_cgroup_fill(s);
}

/*
 * Ask the producer for the evidence of one cgroup of the snapshot, and
 * keep a copy: the producer's lasts until its next sample.
 */
static void fill_one(struct screen *s, size_t line)
{
	struct cgroup_row *g = &s->snap.s.cgroups[s->cgv[line].cg -
						  s->snap.s.cgroups];
	const struct row_why *old = g->why;

	producer_fill_cgroups(s->m, g, 1);
	if (!g->why || g->why == old)
		return;
	if (old && !memcmp(old, g->why, sizeof(*old))) {
		g->why = old;
		return;
	}
	if (snapshot_keep_cg_why(&s->snap, g, g->why) < 0)
		g->why = old;
}

void screen_cgroup_fill(struct screen *s)
{
	size_t h = s->rows_h > 0 ? (size_t)s->rows_h : (size_t)LINES, top;

	if (s->frozen || !s->have_sample || !s->ncgv || !s->m)
		return;
	/* the lines the next draw shows, the selected one among them */
	top = screen_draw_table_top(s->cg_top, s->cg_cur, s->ncgv, h);
	for (size_t i = top; i < top + h && i < s->ncgv; i++)
		fill_one(s, i);
}

void screen_cgroup_fold(struct screen *s, bool fold)
{
	const struct cg_line *l = screen_cgroup_current(s);
	if (!l)
		return;
	const char *path = l->cg->path;
	if (fold && l->kids && !l->folded) {
		char *copy = strdup(path);
		char **more = copy ? realloc(s->folded, (s->nfolded + 1) *
					     sizeof(*more)) : NULL;
		if (!more) {
			free(copy);
			screen_message(s, true, "%s", strerror(ENOMEM));
			return;
		}
		s->folded = more;
		s->folded[s->nfolded++] = copy;
	} else if (fold) {
		/* a leaf or folded already: up to the parent */
		for (size_t i = s->cg_cur; i-- > 0;)
			if (s->cgv[i].depth < l->depth) {
				screen_cgroup_select(s, i);
				break;
			}
		return;
	} else if (l->folded) {
		for (size_t i = 0; i < s->nfolded; i++)
			if (!strcmp(s->folded[i], path)) {
				free(s->folded[i]);
				s->folded[i] = s->folded[--s->nfolded];
				break;
			}
	} else {
		return;
	}
	screen_cgroup_rebuild(s);
}

void screen_cgroup_set_sort(struct screen *s, int col, bool toggle)
{
	if (!layouts_has(FIELD_LAYOUT_CGROUPS, col))
		return;
	if (col == s->cg_sort)
		s->cg_reverse = toggle ? !s->cg_reverse : s->cg_reverse;
	else
		s->cg_reverse = false;
	s->cg_sort = col;
	screen_cgroup_rebuild(s);
}

bool screen_cgroup_find(struct screen *s, const char *text, size_t from)
{
	if (!text || !*text)
		return false;
	for (size_t k = 0; k < s->ncgv; k++) {
		size_t i = (from + k) % s->ncgv;
		if (screen_cgroup_matches(s->cgv[i].cg, text)) {
			screen_cgroup_select(s, i);
			screen_cgroup_fill(s);
			return true;
		}
	}
	return false;
}

/* ---- drawing ---- */

void screen_cgroup_cell(const struct screen *s, const struct cg_line *l, int col,
		 char *buf, size_t size)
{
	const struct field *f = fields_get(col);
	if (!f->width) {
		/*
		 * The flexible column is the tree of names; a line at its top
		 * shows its path ("/", or the subtree --cgroup asked for).
		 */
		const char *mark = !l->kids ? "  " : l->folded ? "+ " : "- ";
		const char *name = !l->depth ? l->cg->path :
				   l->cg->name ? l->cg->name :
				   base_name(l->cg->path);
		snprintf(buf, size, "%*s%s%s", 2 * l->depth, "", mark, name);
		return;
	}
	struct field_value v;
	cg_field(s, l->cg, col, &v);
	bool ms = fields_cat(col) >= 0 &&
		  (s->sel.metric == METRIC_AVG || s->sel.metric == METRIC_MAX);
	screen_table_format(f, &v, ms, buf, size);
}

static attr_t cg_role(const struct screen *s, const struct cg_line *l, int col)
{
	struct field_value v;
	cg_field(s, l->cg, col, &v);
	return screen_table_value_role(s, col, &v);
}

/* The largest figure of a column in the view (0 when none). */
static double column_max(const struct screen *s, int col)
{
	double max = 0;
	for (size_t i = 0; i < s->ncgv; i++) {
		double v = cg_value(s, s->cgv[i].cg, col);
		if (!isnan(v) && v > max)
			max = v;
	}
	return max;
}

/* The cells the tree's widest line in view takes, within the bounds. */
static int tree_width(const struct screen *s)
{
	int w = TREE_MIN;

	for (size_t i = 0; i < s->ncgv && w < TREE_WANT; i++) {
		char cell[4 * TREE_WANT + 1], esc[sizeof(cell)];
		int cw;

		screen_cgroup_cell(s, &s->cgv[i], FIELD_CG_NAME, cell,
				   sizeof(cell));
		escape_text(cell, esc, sizeof(esc));
		cw = textwidth_width(esc);
		if (cw > w)
			w = cw;
	}
	return w < TREE_WANT ? w : TREE_WANT;
}

/* The header of a column; the tree's tells how many did not fit. */
static void title(const struct screen *s, int col, char *text, size_t size)
{
	const char *h = fields_get(col)->header;
	char mark[64];

	/* beside ms or events, TOTAL carries its unit */
	if (col == FIELD_TOTAL && s->sel.metric != METRIC_PCT)
		h = "TOTAL%";
	/* one form of the marker, as in the task table */
	snprintf(mark, sizeof(mark), _("(+%d hidden)"), s->cg_hidden);
	if (!fields_get(col)->width && s->cg_hidden)
		snprintf(text, size, "%s %s", h, mark);
	else
		snprintf(text, size, "%s", h);
}

/*
 * WHY is there where a cgroup in sight has a cause to tell, so that a
 * view without stalls looks as it always did.
 */
static bool want(const struct screen *s, int col)
{
	size_t h = s->rows_h > 0 ? (size_t)s->rows_h : (size_t)LINES, top;

	if (col != FIELD_WHY)
		return true;
	top = screen_draw_table_top(s->cg_top, s->cg_cur, s->ncgv, h);
	for (size_t i = top; i < s->ncgv && i < top + h; i++)
		if (*rowwhy_main_cg(s->cgv[i].cg))
			return true;
	return false;
}

/*
 * The view's columns: when they do not fit beside the tree (as wide as
 * its widest line in sight, within TREE_MIN..TREE_WANT), WHY goes first,
 * then the delay category with the smallest figures (the sorted column
 * stays), then the avg10 columns and NR.
 */
static struct col_layout columns(struct screen *s)
{
	static const int last_resort[] = {
		FIELD_CG_IO_10, FIELD_CG_MEM_10, FIELD_CG_CPU_10, FIELD_CG_NR,
	};
	static const int first[] = { FIELD_WHY };
	struct col_layout l = {
		.first = first, .nfirst = 1, .want = want,
		.flex_min = tree_width(s), .sorted = s->cg_sort,
		.last = last_resort,
		.nlast = sizeof(last_resort) / sizeof(last_resort[0]),
		.max = column_max, .title = title,
		.shown = s->cg_shown, .x = s->cg_x, .w = s->cg_w,
		.hidden = &s->cg_hidden,
	};
	l.ids = layouts_fields(FIELD_LAYOUT_CGROUPS_SCREEN, &l.n);
	return l;
}

static void line(struct screen *s, const struct col_layout *cols, int y,
		 const struct cg_line *l, bool selected)
{
	attr_t base = selected ? s->attr[R_SELECTED] : A_NORMAL;
	screen_draw_fill(y, 0, COLS, base);
	for (int k = 0; k < cols->n; k++) {
		int i = cols->ids[k];
		if (!s->cg_shown[i])
			continue;
		char buf[4096];
		screen_cgroup_cell(s, l, i, buf, sizeof(buf));
		screen_draw_table_cell(s, cols, y, i, buf,
				       fields_get(i)->flags & FIELD_RAW,
				       selected ? base : cg_role(s, l, i));
	}
}

void screen_cgroup_draw(struct screen *s, int y, int h)
{
	struct col_layout cols = columns(s);
	if (!screen_draw_table_begin(s, &cols, y, h))
		return;
	if (!s->ncgv) {
		screen_draw_table_empty(s, !s->have_sample || s->collecting
				 ? _("waiting for the first sample...")
				 : s->sel.only_stalled
				 ? _("no cgroup stalled (o shows them all)")
				 : _("no cgroup in this sample"));
		return;
	}
	size_t rows = (size_t)s->rows_h;
	s->cg_top = screen_draw_table_top(s->cg_top, s->cg_cur, s->ncgv, rows);
	for (size_t i = 0; i < rows && s->cg_top + i < s->ncgv; i++) {
		size_t k = s->cg_top + i;
		line(s, &cols, s->rows_y + (int)i, &s->cgv[k], k == s->cg_cur);
	}
}

int screen_cgroup_column_at(const struct screen *s, int x)
{
	return screen_draw_column_at(NFIELD, s->cg_shown, s->cg_x, s->cg_w, x);
}
