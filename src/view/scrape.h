/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --listen: the HTTP endpoint Prometheus scrapes. It hands out the text
 * of the last sample, rendered by the caller once per sample, and
 * computes nothing itself. Runs on the event loop (no thread).
 */
#ifndef STALLTOP_SCRAPE_H
#define STALLTOP_SCRAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "view/out_openmetrics.h"
#include "view/scrape_peers.h"

struct evloop;
struct scrape;

/* The limits every connection is held to; those of their places and
   times in scrape_peers.h. */
#define SCRAPE_REQUEST_MAX 16384     /* bytes of a request's line+headers */
#define SCRAPE_FD_RESERVE 16         /* descriptors left to the rest */

/*
 * "ADDR:PORT" (IPv4), "[ADDR]:PORT" (IPv6) or "PORT" alone (127.0.0.1:
 * loopback) into an address. Returns 0, or -1 with a translated message.
 */
int scrape_parse_address(const char *arg, struct sockaddr_storage *sa,
			 socklen_t *len, char *err, size_t errsize);

/*
 * The format an Accept header asks for (NULL: no header): OpenMetrics
 * when application/openmetrics-text is acceptable with a quality above
 * that of text/plain, the Prometheus text format 0.0.4 otherwise.
 */
enum out_openmetrics_format scrape_negotiate(const char *accept);

/*
 * Listen on arg (as scrape_parse_address reads it) and serve through
 * loop. NULL with a translated message in err (a bad address, a port in
 * use, no permission).
 */
struct scrape *scrape_open(const char *arg, struct evloop *loop, char *err,
			   size_t errsize);

/* Does it listen on loopback only (else a warning is due)? */
bool scrape_local(const struct scrape *s);

/*
 * The text of a new sample in format fmt (malloc'd; the server owns it
 * from now on, also on failure). Scrapes that already began keep the
 * text they started with. Returns 0, or -1 with errno set.
 */
int scrape_publish(struct scrape *s, enum out_openmetrics_format fmt,
		   char *text, size_t len);

/* Stop serving: every connection closed, the port released. */
void scrape_close(struct scrape *s);

#endif
