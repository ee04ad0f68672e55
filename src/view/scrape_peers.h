/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The connections of the scrape endpoint, and who keeps a place: the
 * bounds of connections at once and from one address, the time a
 * request has to arrive whole and an answer to be taken, and which
 * connection gives up its place when a new one comes at a bound. Pure
 * bookkeeping over times given by the caller (milliseconds of a
 * monotonic clock): the server (scrape.c) closes what it is told to.
 */
#ifndef STALLTOP_SCRAPE_PEERS_H
#define STALLTOP_SCRAPE_PEERS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define SCRAPE_MAX_CONNECTIONS 64    /* at once, from every client */
#define SCRAPE_MAX_PER_IP 8          /* at once, from one address */
#define SCRAPE_REQUEST_S 5           /* for a request to arrive whole */
#define SCRAPE_ANSWER_S 10           /* for an answer to be taken whole */
/* an answer younger than this keeps its place at a bound */
#define SCRAPE_GRACE_MS 1000
/* places: those kept, and those told to close but not closed yet */
#define SCRAPE_PEER_SLOTS (2 * SCRAPE_MAX_CONNECTIONS)

struct scrape_peer {
	bool used;
	bool answering;         /* a request arrived whole, not answered yet */
	bool spoke;             /* its request line arrived, not the rest */
	bool closing;           /* told to close: no longer counted */
	int fd;
	int64_t since_ms;       /* when the present wait began */
	unsigned char addr[16]; /* the client's address (IPv4: 4 bytes) */
	unsigned char addrlen;
	void *conn;             /* the server's handle */
};

struct scrape_peers {
	struct scrape_peer slot[SCRAPE_PEER_SLOTS];
};

/* A new connection from sa (its socket fd); NULL when every slot is used. */
struct scrape_peer *scrape_peers_add(struct scrape_peers *p,
				     const struct sockaddr *sa, int fd,
				     void *conn, int64_t now_ms);
void scrape_peers_remove(struct scrape_peer *peer);

/*
 * Its request line arrived (the wait goes on) / its request arrived whole
 * / its answer was taken (a new wait begins).
 */
void scrape_peers_spoke(struct scrape_peer *peer);
void scrape_peers_answering(struct scrape_peer *peer, int64_t now_ms);
void scrape_peers_waiting(struct scrape_peer *peer, int64_t now_ms);

/*
 * A connection from sa comes in; short_of_fds: the process is near its
 * limit of descriptors. Returns 0 when it may have a place as things
 * are, 1 when it may once *victim (set, and marked closing) is closed:
 * from the same address when that address is at its bound, else of
 * the address that holds the most places, the connection that has
 * waited longest for the rest of a request it began, else the one that
 * has waited longest for a request (or, when every one is being
 * answered, the one answered longest, past the grace); -1 when it must
 * be refused (every one is being answered, within the grace).
 */
int scrape_peers_admit(struct scrape_peers *p, const struct sockaddr *sa,
		       bool short_of_fds, int64_t now_ms,
		       struct scrape_peer **victim);

/* The next connection past its time (marked closing), or NULL. */
struct scrape_peer *scrape_peers_expired(struct scrape_peers *p,
					 int64_t now_ms);

/* When the first connection will be past its time (INT64_MAX: none). */
int64_t scrape_peers_next(const struct scrape_peers *p);

/* Is sa an address of this machine's loopback (127/8, ::1, ::ffff:127/104)? */
bool scrape_peers_loopback(const struct sockaddr *sa);

#endif
