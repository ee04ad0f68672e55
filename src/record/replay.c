/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replay: open a recording and index it in one quick pass (replay_index.c:
 * headers parsed, sample lines only checked for shape), then parse one
 * line per replay_get() with json-c into a struct sample whose rows and
 * strings live in the parsed JSON until the next call. The format is in
 * record.h; what cannot be read back is listed in replay.h.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "lib/nls.h"
#include "record/json_keys.h"
#include "record/json_read.h"
#include "record/rec_check.h"
#include "record/replay.h"
#include "record/replay_damage.h"
#include "record/replay_int.h"

int replay_header_version(const char *line, size_t len)
{
	json_tokener *tok = json_read_tokener();
	json_object *o;
	int ver = 0;

	if (!tok)
		return 0;
	o = json_read_line(tok, line, len);
	if (o)
		ver = json_read_header_version(o);
	json_object_put(o);
	json_tokener_free(tok);
	return ver;
}

struct replay *replay_open_opts(const char *path, const struct replay_opts *o,
				char *err, size_t errsize)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	struct stat st;
	int fd, flags;

	if (!rp) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	rp->fd = -1;
	rp->store_fd = -1;
	rp->opts = o ? *o : (struct replay_opts){ NAN, NAN, -1, 0 };
	if (!rp->opts.max_samples || rp->opts.max_samples > REPLAY_SAMPLES_MAX)
		rp->opts.max_samples = REPLAY_SAMPLES_MAX;
	rp->tok = json_read_tokener();
	if (!rp->tok) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		free(rp);
		return NULL;
	}
	/* a FIFO without a writer would hold open(): wait for it in poll */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errsize, _("cannot open %s: %s"), path,
			 strerror(errno));
		replay_close(rp);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) < 0 || flags < 0 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
	    S_ISDIR(st.st_mode)) {
		snprintf(err, errsize, _("cannot open %s: %s"), path,
			 strerror(S_ISDIR(st.st_mode) ? EISDIR : errno));
		close(fd);
		replay_close(rp);
		return NULL;
	}
	if (replay_index_scan(rp, fd, S_ISREG(st.st_mode), path, err,
			      errsize) < 0) {
		int e = errno;

		replay_close(rp);
		errno = e;
		return NULL;
	}
	return rp;
}

size_t replay_count(const struct replay *rp)
{
	return rp->n;
}

/* pread all of len bytes. */
static int read_at(int fd, char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO; /* the file shrank */
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* Give up on sample index: said, counted, and EBADMSG. */
static int bad(struct replay *rp, size_t index, struct skip why)
{
	replay_damage_bad_line(rp, index, &why);
	errno = EBADMSG;
	return -1;
}

/* The same time, or both none. */
static bool same_time(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

int replay_get(struct replay *rp, size_t index, struct sample *out)
{
	const struct entry *e;
	struct skip why;
	json_object *o;
	uint64_t cost, room;

	memset(out, 0, sizeof(*out));
	*rp->skipped_note = '\0';
	if (index >= rp->n) {
		errno = EINVAL;
		return -1;
	}
	e = &rp->idx[index];
	if (e->len + (size_t)1 > rp->bufcap) {
		char *b = realloc(rp->buf, e->len + (size_t)1);

		if (!b)
			return bad(rp, index, (struct skip){ SKIP_NOMEM, 0 });
		rp->buf = b;
		rp->bufcap = e->len + (size_t)1;
	}
	if (read_at(rp->fd, rp->buf, e->len, e->off) < 0)
		return -1;
	/* the index judged it; the file may have changed since */
	if (replay_parse_shape(rp->buf, e->len, &why) < 0)
		return bad(rp, index, why);
	cost = why.cost;
	o = replay_parse_line(rp, rp->buf, e->len, &why);
	if (!o && errno == EINTR)
		return -1;
	if (!o)
		return bad(rp, index, why);
	if (!json_read_is_sample(o)) {
		json_object_put(o);
		return bad(rp, index, (struct skip){ SKIP_NOT_SAMPLE, 0 });
	}
	/* json-c keeps the last of two "time" keys, the index the first */
	if (!same_time(json_read_num(json_read_get(o, JSON_KEY_TIME)),
		       e->time)) {
		json_object_put(o);
		return bad(rp, index, (struct skip){ SKIP_TIMES, 0 });
	}
	/* the decoder's own memory, on top of json-c's */
	room = cost + json_read_room(o);
	if (room > REPLAY_DECODE_MAX) {
		json_object_put(o);
		return bad(rp, index, (struct skip){ SKIP_COST, room });
	}
	json_object_put(rp->cur);
	rp->cur = o;
	if (json_read_sample(&rp->dec, o, out) < 0) {
		memset(out, 0, sizeof(*out));
		rp->cur = NULL;
		json_object_put(o);
		return bad(rp, index, (struct skip){ SKIP_NOMEM, 0 });
	}
	size_t values = rec_check_sample(out) + rp->dec.values_dropped;
	replay_damage_dropped(rp, index, rp->dec.rows_skipped, values);
	return 0;
}

const char *replay_skipped(const struct replay *rp)
{
	return *rp->skipped_note ? rp->skipped_note : NULL;
}

double replay_time(const struct replay *rp, size_t index)
{
	return index < rp->n ? rp->idx[index].time : NAN;
}

size_t replay_line(const struct replay *rp, size_t index)
{
	return index < rp->n ? rp->idx[index].line : 0;
}

const struct rec_header *replay_header(const struct replay *rp, size_t index)
{
	if (index < rp->n)
		return &rp->sess[rp->idx[index].session].h;
	return rp->nsess ? &rp->sess[rp->nsess - 1].h : NULL;
}

int replay_take_store(struct replay *rp)
{
	int fd = rp->store_fd;

	rp->store_fd = -1;
	return fd;
}

const char *replay_store_cut(const struct replay *rp, bool *damaged)
{
	*damaged = rp->dmg.copy_cut;
	return rp->dmg.stop[0] ? rp->dmg.stop : NULL;
}

const char *replay_problem(const struct replay *rp)
{
	return rp->problem;
}

bool replay_damaged(const struct replay *rp)
{
	return rp->dmg.skipped || rp->dmg.order || rp->dmg.zdamage;
}

void replay_close(struct replay *rp)
{
	if (!rp)
		return;
	if (rp->fd >= 0)
		close(rp->fd);
	if (rp->store_fd >= 0)
		close(rp->store_fd);
	for (size_t i = 0; i < rp->nsess; i++) {
		free(rp->sess[i].program);
		free(rp->sess[i].hostname);
		free(rp->sess[i].kernel);
	}
	free(rp->sess);
	free(rp->idx);
	free(rp->problem);
	json_object_put(rp->cur);
	if (rp->tok)
		json_tokener_free(rp->tok);
	free(rp->buf);
	json_read_free(&rp->dec);
	free(rp);
}
