/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay's insides, shared by replay.c (opening, reading a sample)
 * and replay_index.c (the index of the lines, the damage notes). Nothing
 * else includes it.
 */
#ifndef STALLTOP_REPLAY_INT_H
#define STALLTOP_REPLAY_INT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json.h>

#include "record/json_read.h"
#include "record/replay.h"

struct entry {
	off_t off;        /* of the line in the (inflated) stream */
	size_t len;       /* without its "\n" */
	double time;      /* NAN when the sample has none */
	size_t line;      /* line number in the file, from 1 */
	size_t session;
	bool bad;         /* found corrupt by replay_get */
};

struct session {
	struct rec_header h;  /* strings point to the copies below */
	char *program, *hostname, *kernel;
};

/* What went wrong, kept as counts; the text is made from them. */
struct damage {
	size_t corrupt, first_corrupt;  /* lines that do not parse, skipped */
	size_t torn, first_torn;        /* ends of sessions cut by a crash */
	bool torn_last;                 /* the last line is torn */
	bool not_closed;                /* a compressed stream cut short */
	char stop[512];                 /* where reading stopped, or "" */
};

struct replay {
	int fd;                 /* the file, or the inflated copy */
	struct entry *idx;
	size_t n, cap;
	struct session *sess;
	size_t nsess;
	struct damage dmg;
	char *problem;
	json_tokener *tok;
	locale_t c_locale;      /* for the numbers read without json-c */
	/* the current sample */
	json_object *cur;
	char *buf;
	size_t bufcap;
	struct json_read dec;
};

/*
 * Index the text of fd (path for messages): every line, read once. Sets
 * rp->fd to the file the offsets refer to (fd, or an inflated copy) and
 * takes fd. Returns 0, or -1 with a translated message in err.
 */
int replay_index_scan(struct replay *rp, int fd, const char *path,
		      char *err, size_t errsize);
/* replay_get() found line index corrupt: count it, say so. */
void replay_index_bad_line(struct replay *rp, size_t index);
/* See replay_find_time(). */
size_t replay_index_find_time(const struct replay *rp, double epoch);

#endif
