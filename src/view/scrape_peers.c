/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The places of the scrape endpoint's connections.
 *
 * A client that holds a place without asking anything must not keep a
 * scraper out, so a place is never held for good: a request has
 * SCRAPE_REQUEST_S to arrive whole from when the connection was made or
 * its last answer taken (a byte at a time does not extend it), an
 * answer SCRAPE_ANSWER_S to be taken. And a new connection at a bound
 * (SCRAPE_MAX_PER_IP from its address, SCRAPE_MAX_CONNECTIONS in all,
 * or the process short of descriptors) takes the place of the one that
 * has waited longest for a request: a scraper sends its request the
 * moment it connects and is answered at once, while those that hold
 * places idle or send a byte now and then are the oldest waiting. One
 * that began a request and has not ended it gives way before one that
 * has sent nothing yet: a scraper kept from sending for a moment (its
 * machine busy) by then has its connection, and those that reconnect
 * each connection closed for them and dribble a request at once cannot
 * make it the oldest by a round of their own. At the bound in all, a
 * connection of the address that holds the most places goes first: a
 * flood from many addresses, each reconnecting at once, cannot make a
 * lone scraper's connection the oldest by replacing every other place
 * while its request is on its way. (A
 * client that reconnects each connection closed for a newcomer at once
 * reaches a scraper's only after a round of its own, SCRAPE_MAX_PER_IP
 * connections: the server reads what has arrived before each choice,
 * so a scraper's request sent by then is being answered.) Only when
 * every connection is having its answer sent, and for less than
 * SCRAPE_GRACE_MS, is the newcomer refused; a retry then finds them
 * done.
 *
 * A few slots beyond the bound hold connections told to close until
 * the server has closed them (SCRAPE_PEER_SLOTS).
 */
#include <config.h>

#include <netinet/in.h>
#include <string.h>

#include "view/scrape_peers.h"

/* The address bytes of sa (an IPv4-mapped IPv6 address as IPv4). */
static size_t addr_bytes(const struct sockaddr *sa, unsigned char out[16])
{
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)sa;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			memcpy(out, s6->sin6_addr.s6_addr + 12, 4);
			return 4;
		}
		memcpy(out, s6->sin6_addr.s6_addr, 16);
		return 16;
	}
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)sa;
		memcpy(out, &s4->sin_addr, 4);
		return 4;
	}
	return 0;
}

bool scrape_peers_loopback(const struct sockaddr *sa)
{
	unsigned char a[16];
	size_t n = addr_bytes(sa, a);
	static const unsigned char v6_loopback[16] = { [15] = 1 };
	if (n == 4)
		return a[0] == 127;
	return n == 16 && memcmp(a, v6_loopback, 16) == 0;
}

struct scrape_peer *scrape_peers_add(struct scrape_peers *p,
				     const struct sockaddr *sa, int fd,
				     void *conn, int64_t now_ms)
{
	for (size_t i = 0; i < SCRAPE_PEER_SLOTS; i++) {
		struct scrape_peer *peer = &p->slot[i];
		if (peer->used)
			continue;
		memset(peer, 0, sizeof(*peer));
		peer->used = true;
		peer->fd = fd;
		peer->conn = conn;
		peer->since_ms = now_ms;
		peer->addrlen = (unsigned char)addr_bytes(sa, peer->addr);
		return peer;
	}
	return NULL;
}

void scrape_peers_remove(struct scrape_peer *peer)
{
	peer->used = false;
	peer->conn = NULL;
}

void scrape_peers_spoke(struct scrape_peer *peer)
{
	peer->spoke = true;
}

void scrape_peers_answering(struct scrape_peer *peer, int64_t now_ms)
{
	peer->answering = true;
	peer->since_ms = now_ms;
}

void scrape_peers_waiting(struct scrape_peer *peer, int64_t now_ms)
{
	peer->answering = false;
	peer->spoke = false;
	peer->since_ms = now_ms;
}

/* How many places peer's address holds. */
static unsigned places_of(const struct scrape_peers *p,
			  const struct scrape_peer *peer)
{
	unsigned n = 0;

	for (size_t i = 0; i < SCRAPE_PEER_SLOTS; i++) {
		const struct scrape_peer *q = &p->slot[i];

		n += q->used && !q->closing && q->addrlen == peer->addrlen &&
		     memcmp(q->addr, peer->addr, peer->addrlen) == 0;
	}
	return n;
}

/*
 * Which of two (whose addresses hold na and nb places) may better give
 * up its place: one waiting for a request before one being answered,
 * one of an address that holds more places before one of an address
 * that holds fewer, one that began its request and did not end it
 * before one that sent nothing, then the one whose wait began first.
 */
static bool before(const struct scrape_peer *a, unsigned na,
		   const struct scrape_peer *b, unsigned nb)
{
	if (a->answering != b->answering)
		return !a->answering;
	if (na != nb)
		return na > nb;
	if (!a->answering && a->spoke != b->spoke)
		return a->spoke;
	return a->since_ms < b->since_ms;
}

int scrape_peers_admit(struct scrape_peers *p, const struct sockaddr *sa,
		       bool short_of_fds, int64_t now_ms,
		       struct scrape_peer **victim)
{
	unsigned char a[16];
	size_t n = addr_bytes(sa, a);
	unsigned total = 0, same = 0, n_oldest = 0;
	struct scrape_peer *oldest = NULL, *oldest_same = NULL;

	for (size_t i = 0; i < SCRAPE_PEER_SLOTS; i++) {
		struct scrape_peer *peer = &p->slot[i];
		if (!peer->used || peer->closing)
			continue;
		total++;
		bool mine = peer->addrlen == n && memcmp(peer->addr, a, n) == 0;
		same += mine;
		if (peer->answering &&
		    now_ms - peer->since_ms < SCRAPE_GRACE_MS)
			continue; /* its answer is on its way: it keeps it */
		unsigned places = places_of(p, peer);
		if (!oldest || before(peer, places, oldest, n_oldest)) {
			oldest = peer;
			n_oldest = places;
		}
		if (mine && (!oldest_same ||
			     before(peer, places, oldest_same, places)))
			oldest_same = peer;
	}
	struct scrape_peer *v;
	if (same >= SCRAPE_MAX_PER_IP)
		v = oldest_same;
	else if (total >= SCRAPE_MAX_CONNECTIONS || short_of_fds)
		v = oldest;
	else
		return 0;
	if (!v)
		return -1;
	v->closing = true;
	*victim = v;
	return 1;
}

/* When peer's wait ends. */
static int64_t deadline(const struct scrape_peer *peer)
{
	return peer->since_ms + 1000 *
		(peer->answering ? SCRAPE_ANSWER_S : SCRAPE_REQUEST_S);
}

struct scrape_peer *scrape_peers_expired(struct scrape_peers *p,
					 int64_t now_ms)
{
	for (size_t i = 0; i < SCRAPE_PEER_SLOTS; i++) {
		struct scrape_peer *peer = &p->slot[i];
		if (peer->used && !peer->closing && deadline(peer) <= now_ms) {
			peer->closing = true;
			return peer;
		}
	}
	return NULL;
}

int64_t scrape_peers_next(const struct scrape_peers *p)
{
	int64_t next = INT64_MAX;
	for (size_t i = 0; i < SCRAPE_PEER_SLOTS; i++) {
		const struct scrape_peer *peer = &p->slot[i];
		if (peer->used && !peer->closing && deadline(peer) < next)
			next = deadline(peer);
	}
	return next;
}
