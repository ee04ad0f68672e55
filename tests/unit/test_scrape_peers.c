/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who keeps a place at the scrape endpoint: the bounds per address and
 * in all, the newcomer taking the place of the one that waited longest
 * for a request (its own address's first), answers keeping theirs for
 * the grace and not after, a flood from many addresses not reaching a
 * lone scraper, the refusal when nothing may be closed, the
 * deadlines of a request and of an answer (not moved by anything but a
 * request whole or an answer taken), the reserve of descriptors, and
 * which addresses are loopback. The server's side is
 * tests/live/listen_hostile.sh.
 */
#include <config.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "view/scrape_peers.h"
#include "unit.h"

static struct sockaddr_storage v4(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	memset(&ss, 0, sizeof(ss));
	s4->sin_family = AF_INET;
	inet_pton(AF_INET, a, &s4->sin_addr);
	return ss;
}

static struct sockaddr_storage v6(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	memset(&ss, 0, sizeof(ss));
	s6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, a, &s6->sin6_addr);
	return ss;
}

#define SA(ss) ((struct sockaddr *)&(ss))

/* Admit a connection from sa at now as the server does; its place. */
static struct scrape_peer *connect_at(struct scrape_peers *p,
				      struct sockaddr_storage sa, int fd,
				      int64_t now, int *admitted,
				      struct scrape_peer **victim)
{
	*victim = NULL;
	*admitted = scrape_peers_admit(p, SA(sa), false, now, victim);
	if (*admitted < 0)
		return NULL;
	if (*victim)
		scrape_peers_remove(*victim); /* the server closed it */
	return scrape_peers_add(p, SA(sa), fd, NULL, now);
}

static void test_per_address(void)
{
	static struct scrape_peers p;
	struct scrape_peer *peer[SCRAPE_MAX_PER_IP], *victim;
	int admitted;
	struct sockaddr_storage one = v4("127.0.0.1"), two = v4("127.0.0.2");

	for (int i = 0; i < SCRAPE_MAX_PER_IP; i++) {
		peer[i] = connect_at(&p, one, 10 + i, 1000 + i, &admitted, &victim);
		CHECK(peer[i] && admitted == 0);
	}
	/* the ninth from the address: the oldest of that address goes */
	struct scrape_peer *ninth = connect_at(&p, one, 50, 2000, &admitted,
					       &victim);
	CHECK(ninth && admitted == 1 && victim == peer[0]);
	/* another address is not at a bound */
	CHECK(connect_at(&p, two, 60, 2000, &admitted, &victim) && admitted == 0);
	/* a byte does not move a wait; a request whole does */
	scrape_peers_answering(peer[1], 2100);
	connect_at(&p, one, 51, 2200, &admitted, &victim);
	CHECK(admitted == 1 && victim == peer[2]);
	/* an IPv4-mapped IPv6 address is the same address */
	struct sockaddr_storage mapped = v6("::ffff:127.0.0.1");
	connect_at(&p, mapped, 52, 2300, &admitted, &victim);
	CHECK(admitted == 1 && victim == peer[3]);
}

/*
 * A connection that began a request and did not end it gives way before
 * one that sent nothing yet, however young: clients that reconnect at
 * once and dribble cannot make a silent scraper the oldest.
 */
static void test_begun_first(void)
{
	static struct scrape_peers p;
	struct scrape_peer *drib[SCRAPE_MAX_PER_IP], *victim;
	int admitted;
	struct sockaddr_storage one = v4("127.0.0.1");

	/* a scraper connected, its request not here yet */
	struct scrape_peer *scraper = connect_at(&p, one, 9, 1000, &admitted,
						 &victim);
	CHECK(scraper && admitted == 0);
	for (int i = 0; i < SCRAPE_MAX_PER_IP - 1; i++) {
		drib[i] = connect_at(&p, one, 10 + i, 1001 + i, &admitted,
				     &victim);
		CHECK(drib[i] && admitted == 0);
		scrape_peers_spoke(drib[i]);
	}
	/* round after round of reconnections: always a dribbler goes */
	for (int r = 0; r < 3 * SCRAPE_MAX_PER_IP; r++) {
		struct scrape_peer *n = connect_at(&p, one, 20 + r, 1100 + r,
						   &admitted, &victim);
		CHECK(n && admitted == 1 && victim && victim != scraper);
		if (n)
			scrape_peers_spoke(n);
	}
	/* its request whole and answered, a new wait: it sent nothing */
	scrape_peers_answering(scraper, 1200);
	scrape_peers_waiting(scraper, 1201);
	CHECK(!scraper->spoke);
	/* with none that began a request, the one waiting longest goes */
	static struct scrape_peers q;
	struct scrape_peer *a = connect_at(&q, one, 30, 1000, &admitted, &victim);
	for (int i = 1; i < SCRAPE_MAX_PER_IP; i++)
		connect_at(&q, one, 30 + i, 1000 + i, &admitted, &victim);
	connect_at(&q, one, 40, 1100, &admitted, &victim);
	CHECK(admitted == 1 && victim == a);
}

/*
 * At the bound in all, a connection of the address that holds the most
 * places goes first: a flood from many addresses that replaces every
 * other place while a scraper's request is on its way (as one that
 * reconnects each connection closed for it at once does) never reaches
 * the scraper's, whether the flood sends nothing or begins requests.
 */
static void test_flood(bool spoke)
{
	static struct scrape_peers p;
	struct scrape_peer *victim;
	int admitted;
	char a[32];
	int64_t t = 1000;

	memset(&p, 0, sizeof(p));
	struct scrape_peer *scraper = connect_at(&p, v4("127.0.0.1"), 9, t++,
						 &admitted, &victim);
	CHECK(scraper && admitted == 0);
	for (int i = 0; i < SCRAPE_MAX_CONNECTIONS - 1; i++) {
		snprintf(a, sizeof(a), "127.0.0.%d", 2 + i % 32);
		struct scrape_peer *n = connect_at(&p, v4(a), 10 + i, t++,
						   &admitted, &victim);
		CHECK(n && admitted == 0);
		if (n && spoke)
			scrape_peers_spoke(n);
	}
	for (int r = 0; r < 4 * SCRAPE_MAX_CONNECTIONS; r++) {
		snprintf(a, sizeof(a), "127.0.0.%d", 2 + r % 32);
		struct scrape_peer *n = connect_at(&p, v4(a), 100 + r, t++,
						   &admitted, &victim);
		CHECK(n && admitted == 1 && victim && victim != scraper);
		if (n && spoke)
			scrape_peers_spoke(n);
	}
	CHECK(scraper->used && !scraper->closing);
}

static void test_answers_and_refusal(void)
{
	static struct scrape_peers p;
	struct scrape_peer *peer[SCRAPE_MAX_PER_IP], *victim;
	int admitted;
	struct sockaddr_storage one = v4("127.0.0.1");

	for (int i = 0; i < SCRAPE_MAX_PER_IP; i++) {
		peer[i] = connect_at(&p, one, 10 + i, 1000, &admitted, &victim);
		scrape_peers_answering(peer[i], 1000 + i);
	}
	/* every one is being answered, within the grace: refused */
	victim = NULL;
	CHECK(scrape_peers_admit(&p, SA(one), false, 1500, &victim) == -1 &&
	      !victim);
	/* past the grace: the one answered longest gives way */
	CHECK(scrape_peers_admit(&p, SA(one), false,
				 1000 + SCRAPE_GRACE_MS, &victim) == 1 &&
	      victim == peer[0] && victim->closing);
	scrape_peers_remove(peer[0]);
	peer[0] = scrape_peers_add(&p, SA(one), 20, NULL, 2000);
	scrape_peers_answering(peer[0], 2000);
	/* one waiting for a request goes before one being answered */
	scrape_peers_waiting(peer[5], 1200);
	CHECK(scrape_peers_admit(&p, SA(one), false, 2000, &victim) == 1 &&
	      victim == peer[5]);
}

static void test_total(void)
{
	static struct scrape_peers p;
	struct scrape_peer *first = NULL, *victim;
	int admitted;
	char a[32];

	for (int i = 0; i < SCRAPE_MAX_CONNECTIONS; i++) {
		snprintf(a, sizeof(a), "127.0.%d.%d", i / 4, 2 + i % 4);
		struct scrape_peer *peer = connect_at(&p, v4(a), 10 + i, 1000 + i,
						      &admitted, &victim);
		CHECK(peer && admitted == 0);
		if (!first)
			first = peer;
	}
	/* a new address at the bound in all: the oldest of all goes */
	connect_at(&p, v4("10.0.0.1"), 200, 5000, &admitted, &victim);
	CHECK(admitted == 1 && victim == first);

	/* short of descriptors: a bound too, below the others */
	static struct scrape_peers q;
	struct scrape_peer *only = connect_at(&q, v4("127.0.0.1"), 10, 1000,
					      &admitted, &victim);
	CHECK(scrape_peers_admit(&q, SA(*(struct sockaddr_storage[]){
		v4("127.0.0.2") }), true, 1500, &victim) == 1 && victim == only);
	/* nothing to close for it: refused */
	CHECK(scrape_peers_admit(&q, SA(*(struct sockaddr_storage[]){
		v4("127.0.0.2") }), true, 1500, &victim) == -1);
}

static void test_deadlines(void)
{
	static struct scrape_peers p;
	struct scrape_peer *victim;
	int admitted;
	struct scrape_peer *a = connect_at(&p, v4("127.0.0.1"), 10, 1000,
					   &admitted, &victim);
	struct scrape_peer *b = connect_at(&p, v4("127.0.0.1"), 11, 2000,
					   &admitted, &victim);
	CHECK(scrape_peers_next(&p) == 1000 + 1000 * SCRAPE_REQUEST_S);
	CHECK(!scrape_peers_expired(&p, 1000 + 1000 * SCRAPE_REQUEST_S - 1));
	CHECK(scrape_peers_expired(&p, 1000 + 1000 * SCRAPE_REQUEST_S) == a);
	CHECK(a->closing && !scrape_peers_expired(&p, 1000 + 1000 * SCRAPE_REQUEST_S));
	scrape_peers_remove(a);
	/* a request whole: the answer's time from then */
	scrape_peers_answering(b, 3000);
	CHECK(scrape_peers_next(&p) == 3000 + 1000 * SCRAPE_ANSWER_S);
	/* answered: the next request's time from then */
	scrape_peers_waiting(b, 3500);
	CHECK(scrape_peers_next(&p) == 3500 + 1000 * SCRAPE_REQUEST_S);
	scrape_peers_remove(b);
	CHECK(scrape_peers_next(&p) == INT64_MAX);
	CHECK(!scrape_peers_expired(&p, INT64_MAX));
}

static void test_loopback(void)
{
	struct sockaddr_storage ss;
	ss = v4("127.0.0.1"); CHECK(scrape_peers_loopback(SA(ss)));
	ss = v4("127.255.0.9"); CHECK(scrape_peers_loopback(SA(ss)));
	ss = v6("::1"); CHECK(scrape_peers_loopback(SA(ss)));
	ss = v6("::ffff:127.0.0.1"); CHECK(scrape_peers_loopback(SA(ss)));
	ss = v4("0.0.0.0"); CHECK(!scrape_peers_loopback(SA(ss)));
	ss = v4("192.0.2.1"); CHECK(!scrape_peers_loopback(SA(ss)));
	ss = v6("::"); CHECK(!scrape_peers_loopback(SA(ss)));
	ss = v6("2001:db8::1"); CHECK(!scrape_peers_loopback(SA(ss)));
}

int main(void)
{
	test_per_address();
	test_begun_first();
	test_flood(false);
	test_flood(true);
	test_answers_and_refusal();
	test_total();
	test_deadlines();
	test_loopback();
	return unit_done();
}
