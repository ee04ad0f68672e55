/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A line of an NDJSON recording judged by its shape (json_scan.h) before
 * json-c sees it, then parsed a piece at a time so that a cancel (a
 * signal) is noticed within a long line: for the index's scan and for
 * replay.c's reads.
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include <json.h>

#include "record/json_scan.h"
#include "record/replay.h"
#include "record/replay_damage.h"
#include "record/replay_int.h"

/* json-c gets a line this much at a time, the cancel checked between. */
#define PARSE_PIECE ((size_t)4 << 20)

bool replay_parse_cancelled(const struct replay *rp)
{
	struct pollfd p = { rp->opts.cancel_fd, POLLIN, 0 };

	if (rp->opts.cancel_fd < 0)
		return false;
	while (poll(&p, 1, 0) < 0)
		if (errno != EINTR)
			return false;
	return p.revents != 0;
}

int replay_parse_shape(const char *s, size_t len, struct skip *why)
{
	struct json_scan m;
	uint64_t cost;

	json_scan_line(s, len, &m);
	why->cost = 0;
	if (m.control)
		why->why = SKIP_CONTROL;
	else if (m.end == JSON_SCAN_OPEN)
		why->why = SKIP_CUT;
	else if (m.end == JSON_SCAN_BAD)
		why->why = SKIP_SYNTAX;
	else if (m.depth > JSON_SCAN_DEPTH)
		why->why = SKIP_DEPTH;
	else if ((cost = json_scan_cost(&m, len)) > REPLAY_DECODE_MAX)
		*why = (struct skip){ SKIP_COST, cost };
	else {
		why->cost = cost;
		return 0;
	}
	return -1;
}

json_object *replay_parse_line(struct replay *rp, const char *s, size_t len,
			       struct skip *why)
{
	json_tokener *tok = rp->tok;
	json_object *o = NULL;
	size_t done = 0, end = 0;

	*why = (struct skip){ SKIP_SYNTAX, 0 };
	json_tokener_reset(tok);
	while (!o && done < len) {
		size_t n = len - done < PARSE_PIECE ? len - done : PARSE_PIECE;
		enum json_tokener_error e;

		if (replay_parse_cancelled(rp)) {
			errno = EINTR;
			return NULL;
		}
		errno = 0;
		o = json_tokener_parse_ex(tok, s + done, (int)n);
		e = json_tokener_get_error(tok);
		if (o) {
			end = done + json_tokener_get_parse_end(tok);
			break;
		}
		if (e != json_tokener_continue) {
			if (e == json_tokener_error_depth)
				why->why = SKIP_DEPTH;
			else if (errno == ENOMEM)
				why->why = SKIP_NOMEM;
			errno = EBADMSG;
			return NULL;
		}
		done += n;
	}
	if (!o) {
		why->why = SKIP_CUT;
		errno = EBADMSG;
		return NULL;
	}
	/* an object and nothing after it */
	for (size_t i = end; i < len; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
			json_object_put(o);
			errno = EBADMSG;
			return NULL;
		}
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		errno = EBADMSG;
		return NULL;
	}
	return o;
}
