/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields of a task row and of a cgroup row: one table (fields.c), one
 * id each. The id is at once the screen's column, the sort key, the name
 * in options and settings (its key) and the JSON/CSV key; the layouts say
 * which fields each view or format shows, in which order. The delay
 * categories keep their own table (categories.c): ids FIELD_CAT + c.
 * Adding a field of a task is a member of struct task_info (sample.h,
 * read in procinfo.c), an id here, and in fields.c a row of the table
 * with its getter and setter and an entry in the layouts that show it.
 */
#ifndef STALLTOP_FIELDS_H
#define STALLTOP_FIELDS_H

#include <stdbool.h>

#include "model/categories.h"
#include "model/cgname.h"
#include "model/sample.h"

enum field_id {
	FIELD_CAT,                    /* FIELD_CAT + c for category c */
	/* the task table's other columns */
	FIELD_PID = FIELD_CAT + NCAT,
	FIELD_USER,
	FIELD_STATE,
	FIELD_CPU_PCT,
	FIELD_TOTAL,
	FIELD_COMM,                   /* COMMAND: comm or the command line */
	/* what the batch formats add */
	FIELD_TGID,
	FIELD_PPID,
	FIELD_THREADS,
	FIELD_CMDLINE,
	FIELD_DELAY,                  /* every category's figures */
	FIELD_DROPPED,                /* the categories dropped as impossible */
	FIELD_EXITED,
	FIELD_COMMAND,                /* CSV: what COMMAND shows */
	FIELD_CGROUP,
	FIELD_START,
	FIELD_WHY,                    /* the evidence of its stalls (rowwhy.h) */
	/* what stands next to a stall (struct task_ctx) */
	FIELD_RSS,
	FIELD_SWAP,
	FIELD_IO_READ,
	FIELD_IO_WRITE,
	FIELD_MAJFLT,
	FIELD_NICE,
	FIELD_WCHAN,
	FIELD_CGNAME,                 /* the name of the task's cgroup */
	/* the cgroup view's own columns */
	FIELD_CG_CPU_P,
	FIELD_CG_CPU_10,
	FIELD_CG_MEM_P,
	FIELD_CG_MEM_10,
	FIELD_CG_IO_P,
	FIELD_CG_IO_10,
	FIELD_CG_NR,
	FIELD_CG_NAME,                /* what operators call it (cgname.h) */
	FIELD_CG_PATH,
	NFIELD
};

/* What a delay column shows (and what sorting by it compares). */
enum metric { METRIC_PCT, METRIC_AVG, METRIC_RATE, METRIC_MAX, NMETRIC };

/* The type of a field's value. */
enum field_type {
	FIELD_INT,
	FIELD_NUM,       /* fixed-point: decimals by format */
	FIELD_STR,
	FIELD_FIGURES,   /* the categories' figures (JSON "delay", CSV delay_*) */
	FIELD_SET,       /* the categories marked dropped */
	FIELD_EVIDENCE,  /* a row's why: JSON object, short cause as text */
};

enum field_flags {
	FIELD_LEFT = 1u << 0,     /* left-aligned */
	FIELD_SORT = 1u << 1,     /* a sort key of the task rows */
	FIELD_STALL = 1u << 2,    /* coloured by the size of the stall */
	FIELD_RAW = 1u << 3,      /* text a process controls: escaped */
	FIELD_IDENT = 1u << 4,    /* names the task: highlighted when new */
	FIELD_OPTIONAL = 1u << 5, /* JSON: the key is left out when absent */
	FIELD_KERNEL = 1u << 6,   /* batch header is the kernel's: untranslated */
	FIELD_TASK = 1u << 7,     /* has a value for task rows */
	FIELD_CGROUP_ROW = 1u << 8, /* has a value for cgroup rows */
	/*
	 * Its value is the row's struct task_info (state, parent, threads,
	 * start, what stands next to a stall), read with a row's details
	 * (producer fill_status) for the rows a view shows: a view sorting
	 * by it reads them for every row first, else it would sort on the
	 * values of an earlier reading.
	 */
	FIELD_DETAIL = 1u << 9,
	/* the screen shows it only when chosen (column setup, F2) */
	FIELD_OFF = 1u << 10,
};

/* Who asks for a value: a few fields look different in each. */
enum field_fmt {
	FIELD_FMT_SCREEN,
	FIELD_FMT_TEXT,
	FIELD_FMT_CSV,
	FIELD_FMT_JSON,
	FIELD_FMT_SORT,
};

struct field_ctx {
	enum field_fmt fmt;
	bool cmdline;         /* COMMAND shows the command line (-c, key c) */
	bool exited;          /* the row ended in the interval */
	enum metric metric;   /* what a delay column shows */
	double interval;
};

/* A value: getters fill it, writers format it, setters read it. */
struct field_value {
	bool have;            /* false: absent (shown -, empty, null) */
	long long i;          /* FIELD_INT */
	double num;           /* FIELD_NUM; not finite counts as absent */
	const char *str;      /* FIELD_STR */
	bool brackets;        /* str is shown as [str] (no command line) */
	int indent;           /* cells before str (a cgroup's depth) */
	const struct cat_figure *d; /* FIELD_FIGURES, FIELD_SET: NCAT of them */
	const struct row_why *why;  /* FIELD_EVIDENCE */
	char small[2];        /* room for a one-character str */
	char buf[CGNAME_MAX]; /* room for a str made by the getter */
};

struct field;
typedef void field_get_fn(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v);
typedef void field_cg_get_fn(const struct field *f, const struct cgroup_row *g,
			     const struct field_ctx *c, struct field_value *v);
typedef void field_set_fn(const struct field *f, struct row *r,
			  const struct field_value *v);
typedef int field_cmp_fn(const struct field_value *a,
			 const struct field_value *b);

struct field {
	const char *header;   /* screen header: "PID" (not translated) */
	const char *bheader;  /* batch text header, N_() (NULL: header) */
	const char *key;      /* JSON key, CSV key, sort key name; or NULL */
	const char *sort_name; /* sort key name when not the key, or NULL */
	const char *help;     /* N_() text */
	const char *cg_help;  /* N_() text in the cgroup view (NULL: help) */
	enum field_type type;
	int width;            /* screen cells; 0: takes the rest of the line */
	int bwidth;           /* batch text cells */
	int decimals;         /* batch text decimals of a number */
	unsigned flags;       /* enum field_flags */
	int arg;              /* what the getter reads: category, resource... */
	field_cmp_fn *cmp;
	field_get_fn *get;        /* task rows (NULL: none) */
	field_cg_get_fn *cg_get;  /* cgroup rows (NULL: none) */
	field_set_fn *set;        /* from a decoded value into a row */
};

/*
 * Order of two figures, descending (negative when a comes first). An
 * absent figure (NAN) sorts below every present one: callers that
 * reverse the order leave such pairs alone.
 */
int fields_cmp_num(double a, double b);

/* Value a metric gives for one category of a row (NAN when absent). */
double fields_metric(const struct row *r, int cat, enum metric m,
		     double interval);

/* The field with that id, or NULL. */
const struct field *fields_get(int id);

/* The delay category of a field, or -1. */
int fields_cat(int id);

/* A sort key of task rows by its name ("cpu", "total", "pid"...), or -1. */
int fields_sort_by_name(const char *name);
/* The name of a sort key; "?" when it is none. */
const char *fields_sort_name(int id);

/* Whether a field sorts ascending (pid, names) rather than descending. */
bool fields_ascending(int id);

/*
 * The values of a field for a task row and a cgroup row; fields_value
 * the task row's of a field already looked up (fields_get).
 */
void fields_value(const struct field *f, const struct row *r,
		  const struct field_ctx *c, struct field_value *v);
void fields_row_value(int id, const struct row *r, const struct field_ctx *c,
		      struct field_value *v);
void fields_cg_value(int id, const struct cgroup_row *g,
		     const struct field_ctx *c, struct field_value *v);

/* Order of two values by the field's compare (absent ones last). */
int fields_compare(int id, const struct field_value *a,
		   const struct field_value *b);

/* Whether a value is there (a number that is not NAN). */
bool fields_value_present(const struct field_value *v);

/* A value made known: a number that is also an id, a figure (have false:
   absent), a string (NULL: absent). The getters' common ground. */
void fields_value_int(struct field_value *v, long long i);
void fields_value_num(struct field_value *v, bool have, double num);
void fields_value_str(struct field_value *v, const char *s);

/* A row with nothing known yet (uid and task_info unknown). */
void fields_row_init(struct row *r);

#endif
