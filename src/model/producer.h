/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A producer of samples: what views read from. The live monitor
 * (live/monitor.c) and the player of a recording (record/player.c) each
 * fill in a table of operations; views call the producer_*() helpers and
 * never learn which one they have, only what it can do: an operation a
 * producer does not have is NULL in its table, and its helper answers
 * "not supported" (or does nothing). The model is ncdu's dir_output and
 * below's Store.
 */
#ifndef STALLTOP_PRODUCER_H
#define STALLTOP_PRODUCER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/sample.h"
#include "store/sample.h"

#define PRODUCER_MAX_NOTICES 8

struct producer;

/*
 * An action on a task the operator chose (the screen's kill, renice and
 * ionice): who, with the start that tells a reused id, and what.
 */
enum producer_act_kind {
	PRODUCER_ACT_SIGNAL,  /* value: the signal number */
	PRODUCER_ACT_NICE,    /* value: the new nice value */
	PRODUCER_ACT_IOPRIO,  /* value: the class (1 rt, 2 be, 3 idle), level */
};

struct producer_act {
	enum producer_act_kind kind;
	pid_t pid;            /* the thread's id when thread, else the tgid */
	pid_t tgid;
	bool thread;          /* only this thread, else the whole process */
	double start;         /* its task_info.start when it was chosen */
	int value;
	int level;            /* IO level 0-7 (rt, be) */
	int done;             /* out: threads acted on */
};

/* What a task's priorities are now (for the confirmation). */
struct producer_prio {
	bool have_nice;
	int nice;
	bool have_io;
	int io_class;         /* 0 none (from nice), 1 rt, 2 be, 3 idle */
	int io_level;         /* -1 for idle */
};

/*
 * What a producer says to the user in its own words: what it is, and why
 * it cannot do what a view asked (the view only knows that it cannot).
 */
enum producer_words {
	PRODUCER_WORDS_TITLE,         /* what it plays, for the header */
	PRODUCER_WORDS_NO_ACCUMULATE, /* no figures since now */
	PRODUCER_WORDS_NO_MEASURE,    /* no delay accounting to turn on */
	PRODUCER_WORDS_NO_ACT,        /* no action on its tasks */
	PRODUCER_WORDS_NO_THREADS,    /* no thread rows in its samples */
	PRODUCER_WORDS_NO_MACHINE,    /* no load, CPU, memory, swap */
};

struct producer_ops {
	/*
	 * Close the interval since the previous sample (or the baseline)
	 * and fill out. The sample and what it points to stay valid until
	 * the next call or free. Returns 0, or -1 with errno set.
	 */
	int (*sample)(struct producer *p, struct sample *out);
	/*
	 * The readings the last sample was made of (store/sample.h), valid
	 * as long as that sample. NULL: it keeps none (the live monitor
	 * keeps them only when asked to, for a recording).
	 */
	const struct store_sample *(*readings)(struct producer *p);
	/*
	 * Read what changes every interval (the rows' struct task_info)
	 * for the rows a view is about to show. NULL: the rows have it.
	 */
	void (*fill_status)(struct producer *p, struct row *rows, size_t n);
	/*
	 * The evidence of the cgroup rows a view is about to show (those
	 * stalled get their why). NULL: the rows have it.
	 */
	void (*fill_cgroups)(struct producer *p, struct cgroup_row *rows,
			     size_t n);
	/* Rows of threads (of one process: only_tgid) or of processes. */
	void (*set_threads)(struct producer *p, bool threads, pid_t only_tgid);
	/*
	 * set_threads makes thread rows of any process; false: only those
	 * its samples hold (which may be none).
	 */
	bool makes_threads;
	/* Figures since now instead of per interval. NULL: as produced. */
	void (*set_accumulate)(struct producer *p, bool accumulate);
	/*
	 * The interval its figures cover, at least seconds (0: its own),
	 * made by a producer of stored readings from the samples it holds;
	 * the pace at which they are shown is the view's. NULL: a producer
	 * that measures (its interval is the view's refresh) or one whose
	 * intervals are as they were recorded.
	 */
	void (*set_interval)(struct producer *p, double seconds);
	/* Sum rows per cgroup; 0, or -1 with errno (ENOENT: no v2). */
	int (*set_cgroups)(struct producer *p, bool on);
	/*
	 * Turn the kernel's delay accounting on; 0, or -1 with errno. NULL
	 * where the figures are not measured now (a recording).
	 */
	int (*enable_delayacct)(struct producer *p);
	/*
	 * Act on a live task, after checking that its id still names the
	 * task chosen; 0, or -1 with errno (ESRCH ended, ESTALE the id
	 * names another task now, EPERM no privilege). NULL where the
	 * tasks are not live (a recording).
	 */
	int (*act)(struct producer *p, struct producer_act *a);
	/* A task's priorities now (the act's who); 0, or -1 with errno. */
	int (*prio)(struct producer *p, const struct producer_act *who,
		    struct producer_prio *out);

	/*
	 * Moving in time, which only a stored stream of samples can do
	 * (NULL where samples come as time passes).
	 */
	/* The sample delta steps from the one handed out last (0: again). */
	void (*step)(struct producer *p, long delta);
	/* The sample at or just before a wall-clock time. */
	void (*jump)(struct producer *p, double epoch);
	/* Paused: every sample() hands out the same sample again. */
	void (*pause)(struct producer *p, bool pause);
	bool (*paused)(const struct producer *p);
	/* The sample handed out last (0-based) and how many there are. */
	bool (*position)(const struct producer *p, size_t *index,
			 size_t *count);
	/* The last sample was handed out: the stream has an end. */
	bool (*done)(const struct producer *p);
	/*
	 * Part of the stream was skipped as damage so far (its notices say
	 * what). NULL: nothing of its stream can be.
	 */
	bool (*damaged)(const struct producer *p);

	/* Its words (translated) for the user, or NULL: it has none. */
	const char *(*words)(const struct producer *p, enum producer_words w);

	void (*free)(struct producer *p);
};

/*
 * What every producer has: its operations, the callbacks views set, and
 * notices for the user. Implementations put it first in their own struct.
 */
struct producer {
	const struct producer_ops *ops;
	void (*trigger_cb)(void *);
	void *trigger_arg;
	void (*sample_cb)(const struct sample *, void *);
	void *sample_arg;
	char *notices[PRODUCER_MAX_NOTICES + 1];
	int nnotices;
	void (*note_cb)(const char *, void *);
	void *note_arg;
};

int producer_sample(struct producer *p, struct sample *out);
/*
 * What the kernel said at the last sample handed out, whole (what a
 * recording stores), or NULL where the producer keeps no such thing.
 */
const struct store_sample *producer_readings(struct producer *p);
void producer_fill_status(struct producer *p, struct row *rows, size_t n);
void producer_fill_cgroups(struct producer *p, struct cgroup_row *rows,
			   size_t n);
void producer_set_threads(struct producer *p, bool threads, pid_t only_tgid);
/* Returns 0, or -1 with errno ENOTSUP where figures come as produced. */
int producer_set_accumulate(struct producer *p, bool accumulate);
/* Can it give figures since now instead of per interval? */
bool producer_can_accumulate(const struct producer *p);
/* Returns 0, or -1 with errno ENOTSUP where it cannot (set_interval). */
int producer_set_interval(struct producer *p, double seconds);
/* Does it make its figures' interval from stored readings? */
bool producer_sets_interval(const struct producer *p);
/* Does it make thread rows of any process when asked (set_threads)? */
bool producer_makes_threads(const struct producer *p);
int producer_set_cgroups(struct producer *p, bool on);
/* Does the producer measure now, so that delay accounting can be turned on? */
bool producer_measures(const struct producer *p);
/* Returns 0, or -1 with errno (ENOTSUP where it does not measure). */
int producer_enable_delayacct(struct producer *p);
/* Can it act on tasks (live)? */
bool producer_can_act(const struct producer *p);
/* The act; -1 with errno ENOTSUP where it cannot act. */
int producer_act(struct producer *p, struct producer_act *a);
int producer_prio(struct producer *p, const struct producer_act *who,
		  struct producer_prio *out);

/*
 * Call cb when a PSI trigger fires (the next sample then carries its
 * label in sample.trigger): views take a sample at once.
 */
void producer_on_trigger(struct producer *p, void (*cb)(void *), void *arg);
/*
 * Call cb with every sample the producer hands out, before any view
 * filters it (a recording keeps everything).
 */
void producer_on_sample(struct producer *p,
			void (*cb)(const struct sample *, void *), void *arg);

/* Can the producer move in time (step, jump, pause)? */
bool producer_seekable(const struct producer *p);
/* Does its stream of samples end (then taken as fast as wanted)? */
bool producer_finite(const struct producer *p);
void producer_step(struct producer *p, long delta);
void producer_jump(struct producer *p, double epoch);
void producer_pause(struct producer *p, bool pause);
bool producer_paused(const struct producer *p);
/* false where the producer has no position. */
bool producer_position(const struct producer *p, size_t *index,
		       size_t *count);
/* true once the last sample of a finite stream was handed out. */
bool producer_done(const struct producer *p);
/* true once part of the stream was skipped as damage (the notices say). */
bool producer_damaged(const struct producer *p);

/* The producer's words of that kind, or NULL where it has none. */
const char *producer_words(const struct producer *p, enum producer_words w);
/* Why it cannot (a PRODUCER_WORDS_NO_*): its words, else "not supported". */
const char *producer_refusal(const struct producer *p, enum producer_words w);

/* Notices for the user (fallbacks, missing features); NULL-terminated. */
const char *const *producer_notices(const struct producer *p);
/* For producers: add a notice (copied; duplicates are dropped). */
void producer_notice(struct producer *p, const char *text);
/*
 * For producers: add a notice before the others, for one that explains
 * them (a screen short of lines shows the first ones).
 */
void producer_notice_first(struct producer *p, const char *text);
/* For producers: the notice old (NULL: none) becomes text. */
void producer_notice_replace(struct producer *p, const char *old,
			     const char *text);
/*
 * Call cb with each note of the moment (a line of a recording skipped as
 * it is met): a batch writer prints them where they happen, a screen has
 * the notices.
 */
void producer_on_note(struct producer *p, void (*cb)(const char *, void *),
		      void *arg);
/* For producers: a note of the moment, to the callback if any. */
void producer_note(struct producer *p, const char *text);

/* For producers: append a zeroed row to a growing array; NULL: no memory. */
struct row *producer_push_row(struct row **v, size_t *n, size_t *cap);

void producer_free(struct producer *p);

#endif
