/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay's insides, shared by replay.c (opening, reading a sample),
 * replay_index.c (the index of the lines, parsing a line) and
 * replay_damage.c (the damage notes). Nothing else includes it.
 */
#ifndef STALLTOP_REPLAY_INT_H
#define STALLTOP_REPLAY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json.h>

#include "record/json_read.h"
#include "record/replay.h"

/* 32 bytes a sample: the index is most of a replay's memory. */
struct entry {
	off_t off;            /* of the line in the (inflated) stream */
	double time;          /* NAN when the sample has none */
	size_t line;          /* line number in the file, from 1 */
	uint32_t len;         /* without its "\n" (at most REPLAY_LINE_MAX) */
	uint32_t session : 30;
	uint32_t bad : 1;     /* found unusable by replay_get */
	uint32_t counted : 1; /* its dropped rows and values are counted */
};
_Static_assert(sizeof(struct entry) <= 32,
	       "the index is 32 bytes a sample (replay.h, the manual)");

struct session {
	struct rec_header h;  /* strings point to the copies below */
	char *program, *hostname, *kernel;
};

/* Why a line was skipped. */
enum skip_why {
	SKIP_SYNTAX,      /* not JSON */
	SKIP_CUT,         /* its JSON ends before its object does */
	SKIP_CONTROL,     /* a raw control byte */
	SKIP_DEPTH,       /* nested deeper than JSON_SCAN_DEPTH */
	SKIP_LONG,        /* longer than REPLAY_LINE_MAX */
	SKIP_COST,        /* decoding would take more than REPLAY_DECODE_MAX */
	SKIP_NOMEM,       /* decoding ran out of memory */
	SKIP_NOT_SAMPLE,  /* JSON, but neither a sample nor a header */
	SKIP_TIME,        /* its time is impossible */
	SKIP_TIMES,       /* its time is not the one the index read */
	SKIP_ORDER,       /* its time is not after the sample before it */
};

/* One skipped line: why, and for SKIP_COST how much it would take. */
struct skip {
	enum skip_why why;
	uint64_t cost;
};

/* What went wrong, kept as counts; the text is made from them. */
struct damage {
	size_t skipped, first_skipped;  /* lines not replayed (not ORDER) */
	struct skip first_skip;
	size_t order, first_order;      /* samples out of time order */
	size_t torn, first_torn;        /* ends of sessions cut by a crash */
	bool torn_last;                 /* the last line is torn */
	bool not_closed;                /* a compressed stream cut short */
	bool zdamage;                   /* compressed data damaged (stop) */
	bool copy_cut;                  /* the copy of a recording of
					   readings stopped at what is no
					   recording (stop) */
	size_t rows, first_rows;        /* rows that are not tasks */
	size_t values, first_values;    /* impossible values dropped */
	size_t notime, first_notime;    /* samples without a time */
	char stop[512];                 /* where reading stopped, or "" */
};

struct replay {
	int fd;                 /* the file, or the inflated copy */
	int store_fd;           /* a copy of a recording of readings, or -1 */
	struct replay_opts opts;
	struct entry *idx;
	size_t n, cap;
	struct session *sess;
	size_t nsess;
	struct damage dmg;
	char *problem;
	char skipped_note[600]; /* the last line replay_get skipped, or "" */
	json_tokener *tok;
	/* the current sample */
	json_object *cur;
	char *buf;
	size_t bufcap;
	struct json_read dec;
};

/*
 * Index the text of fd (path for messages): every line, read once. Sets
 * rp->fd to the file the offsets refer to (fd, or a copy) and takes fd.
 * regular: fd is a regular file (else it is copied, and waited for).
 * Returns 0, or -1 with a translated message in err (errno EINTR when
 * cancelled).
 */
int replay_index_scan(struct replay *rp, int fd, bool regular,
		      const char *path, char *err, size_t errsize);
/* replay_parse.c: */
/* Has the cancel descriptor become readable? */
bool replay_parse_cancelled(const struct replay *rp);
/*
 * Line s (len bytes, its shape checked: json_scan) as a JSON object, fed
 * to json-c a piece at a time so that cancelling is noticed; NULL with
 * *why set (errno EINTR when cancelled).
 */
json_object *replay_parse_line(struct replay *rp, const char *s, size_t len,
			       struct skip *why);
/*
 * The shape of line s judged: 0 (why->cost what json-c will take for
 * it), or -1 with *why set.
 */
int replay_parse_shape(const char *s, size_t len, struct skip *why);

#endif
