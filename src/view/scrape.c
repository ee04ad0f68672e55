/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scrape endpoint, on libmicrohttpd.
 *
 *   GET|HEAD /metrics   the last sample's text: Prometheus text 0.0.4, or
 *                       OpenMetrics 1.0.0 when Accept asks for it;
 *                       503 before the first sample
 *   GET|HEAD /          a few lines naming /metrics
 *   other paths         404; other methods 405 (Allow: GET, HEAD)
 *
 * It runs in libmicrohttpd's external epoll mode inside stalltop's event
 * loop, not in a thread of its own: the loop owns every descriptor
 * (HACKING), a scrape only hands out a response made once per sample, so
 * there is nothing to gain from a thread, and without one there is no
 * lock, no signal mask to keep right in a second thread, and no sample
 * freed under a connection that is still sending it. The cost: a scrape
 * that arrives while a sample is taken waits for it (milliseconds; the
 * figures of bench/). Three descriptors join the loop: the listening
 * socket, the daemon's epoll descriptor (a connection is ready) and a
 * timerfd armed to the nearest of what MHD_get_timeout() says and the
 * connections' deadlines.
 *
 * The listening socket is stalltop's, not the daemon's: each connection
 * is accepted here as it comes, up to ACCEPT_BATCH at each round of the
 * loop, and handed to the daemon (MHD_add_connection) or refused: the
 * listen queue (SOMAXCONN long) is drained whatever the clients do, and
 * no bound of the daemon's leaves it unwatched.
 * Who keeps a place is scrape_peers.c's: at a bound a newcomer takes the
 * place of the connection that has waited longest for its request, and
 * a request must arrive whole within SCRAPE_REQUEST_S. A connection is
 * closed by shutting its socket down; the daemon then sees it end and
 * closes it as it would a client's close. Near the process's limit of
 * descriptors (SCRAPE_FD_RESERVE left) a newcomer is held to it as to a
 * bound, so that the samples, the recording and --textfile keep theirs.
 *
 * Each sample's text becomes one MHD_Response per format. Responses are
 * reference counted: a connection still sending the previous sample's
 * keeps it alive until it is done, and the next sample replaces it for
 * every scrape that begins after.
 *
 * Connections are kept alive between requests (a scraper that asks
 * again within SCRAPE_REQUEST_S uses the same one). The memory of a
 * connection bounds a request's line and headers (a longer one gets 414
 * or 431 and the connection is closed). The path is compared as it was
 * sent, not decoded: /metrics%00 or /%6detrics is not /metrics. Nothing
 * is logged per request: a client must not be able to fill the journal.
 *
 * The texts of the answers (the index page, 404, 405, 503) are part of
 * the protocol, like the metrics' HELP texts, and are not translated:
 * the server's locale says nothing about the client's.
 */
#include <config.h>

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "lib/evloop.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "view/scrape.h"
#include "view/scrape_peers.h"

/* The formats, each with its response of the last sample. */
#define NFORMATS 2
_Static_assert(OUT_OPENMETRICS_OM < NFORMATS && OUT_OPENMETRICS_PROM < NFORMATS,
	       "a response for each format");

static const char index_page[] =
	"stalltop " VERSION "\n"
	"\n"
	"Metrics: /metrics\n";

/*
 * Connections accepted at one wake of the listening socket, at most
 * (the daemon runs before each: those closed for the one before it are
 * gone by then, or hold one of the slots beyond the bound).
 */
#define ACCEPT_BATCH 32
_Static_assert(SCRAPE_MAX_CONNECTIONS + ACCEPT_BATCH <= SCRAPE_PEER_SLOTS,
	       "a slot for each connection closed in a batch");
/* After the process ran out of descriptors: a pause before accepting again. */
#define ACCEPT_PAUSE_MS 100

struct scrape {
	struct MHD_Daemon *d;
	struct evloop *loop;
	int listen_fd;
	bool listen_watched;
	int64_t paused_until_ms; /* not accepting before (0: accepting) */
	rlim_t fd_limit;         /* descriptors a connection may have below */
	bool local;              /* listening on loopback only */
	int epoll_fd;
	int timer_fd;
	struct scrape_peers peers;
	struct MHD_Response *metrics[NFORMATS]; /* NULL: no sample yet */
	struct MHD_Response *index, *not_found, *not_allowed, *no_sample;
};

/* ---- the address ---- */

int scrape_parse_address(const char *arg, struct sockaddr_storage *sa,
			 socklen_t *len, char *err, size_t errsize)
{
	char host[INET6_ADDRSTRLEN + 64];
	const char *port;
	bool v6 = false;
	size_t hostlen;

	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');
		if (!close || close[1] != ':') {
			snprintf(err, errsize, "%s", _("an IPv6 address is "
				 "written [ADDRESS]:PORT"));
			return -1;
		}
		hostlen = (size_t)(close - arg - 1);
		if (hostlen >= sizeof(host))
			hostlen = sizeof(host) - 1;
		memcpy(host, arg + 1, hostlen);
		host[hostlen] = '\0';
		port = close + 2;
		v6 = true;
	} else {
		const char *colon = strrchr(arg, ':');
		if (!colon) {
			snprintf(host, sizeof(host), "127.0.0.1");
			port = arg;
		} else if (strchr(arg, ':') != colon) {
			snprintf(err, errsize, "%s", _("an IPv6 address is "
				 "written [ADDRESS]:PORT"));
			return -1;
		} else if (colon == arg) {
			snprintf(err, errsize, "%s", _("no address before ':': "
				 "give PORT alone for loopback (127.0.0.1), "
				 "0.0.0.0:PORT or [::]:PORT for every address"));
			return -1;
		} else {
			hostlen = (size_t)(colon - arg);
			if (hostlen >= sizeof(host))
				hostlen = sizeof(host) - 1;
			memcpy(host, arg, hostlen);
			host[hostlen] = '\0';
			port = colon + 1;
		}
	}
	unsigned long p;
	if (numparse_ulong(port, 1, 65535, &p) < 0) {
		snprintf(err, errsize, _("invalid port '%s': give 1 to 65535"),
			 port);
		return -1;
	}

	struct addrinfo hints = { 0 }, *res = NULL;
	hints.ai_family = v6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE;
	if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res ||
	    res->ai_addrlen > sizeof(*sa)) {
		if (res)
			freeaddrinfo(res);
		snprintf(err, errsize, v6 ? _("'%s' is not an IPv6 address") :
			 _("'%s' is not an IPv4 address (an IPv6 address is "
			   "written [ADDRESS]:PORT)"), host);
		return -1;
	}
	memset(sa, 0, sizeof(*sa));
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	if (v6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)p);
	else
		((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)p);
	return 0;
}

/* ---- Accept ---- */

/* How specific a media range matching a type is (0: it does not match). */
static int range_match(const char *range, size_t n, const char *type)
{
	if (n == 3 && strncmp(range, "*/*", 3) == 0)
		return 1;
	const char *slash = strchr(type, '/');
	size_t major = (size_t)(slash - type);
	if (n == major + 2 && strncasecmp(range, type, major + 1) == 0 &&
	    range[major + 1] == '*')
		return 2;
	if (n == strlen(type) && strncasecmp(range, type, n) == 0)
		return 3;
	return 0;
}

/*
 * A qvalue as RFC 9110 writes it: "0" or "1", then "." and up to three
 * digits (not above 1.000); -1 when it is not one. Read by hand: strtod
 * would follow the locale's decimal point.
 */
static double qvalue(const char *v, size_t n)
{
	if (n == 0 || (v[0] != '0' && v[0] != '1') || n > 5 ||
	    (n > 1 && v[1] != '.'))
		return -1;
	double q = v[0] - '0', scale = 0.1;
	for (size_t i = 2; i < n; i++, scale /= 10) {
		if (v[i] < '0' || v[i] > '9' || (v[0] == '1' && v[i] != '0'))
			return -1;
		q += (v[i] - '0') * scale;
	}
	return q;
}

/*
 * The quality of one element's parameters: q=VALUE (0 to 1, at most
 * three decimals), 1 without one; -1 when q is malformed.
 */
static double element_quality(const char *p, const char *end)
{
	while (p < end) {
		p += strspn(p, "; \t");
		if (p >= end)
			break;
		size_t n = strcspn(p, ";,");  /* one parameter */
		if (p + n > end)
			n = (size_t)(end - p);
		if (n >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			size_t vn = n - 2;
			while (vn && (p[2 + vn - 1] == ' ' || p[2 + vn - 1] == '\t'))
				vn--;
			return qvalue(p + 2, vn);
		}
		p += n;
	}
	return 1;
}

/*
 * The quality the header gives type: that of the most specific range
 * that matches it (RFC 9110, 12.5.1), 0 when none does.
 */
static double type_quality(const char *accept, const char *type)
{
	double q = 0;
	int best = 0;
	for (const char *p = accept; *p;) {
		size_t n = strcspn(p, ",");   /* one element */
		size_t skip = strspn(p, " \t");
		if (skip > n)
			skip = n;
		const char *range = p + skip;
		size_t rn = strcspn(range, ";,");
		const char *params = range + rn;  /* ';' or the element's end */
		while (rn && (range[rn - 1] == ' ' || range[rn - 1] == '\t'))
			rn--;
		int m = range_match(range, rn, type);
		if (m > best) {
			double eq = *params == ';' ?
				element_quality(params, p + n) : 1;
			if (eq >= 0) {
				best = m;
				q = eq;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return q;
}

enum out_openmetrics_format scrape_negotiate(const char *accept)
{
	if (!accept)
		return OUT_OPENMETRICS_PROM;
	double om = type_quality(accept, "application/openmetrics-text");
	double text = type_quality(accept, "text/plain");
	return om > 0 && om > text ? OUT_OPENMETRICS_OM : OUT_OPENMETRICS_PROM;
}

/* ---- serving ---- */

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The place of connection c (NULL: none, the table was full). */
static struct scrape_peer *peer_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info ? info->socket_context : NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload_data,
				  size_t *upload_size, void **req_cls)
{
	struct scrape *s = cls;
	static int request_seen;
	(void)version;
	(void)upload_data;
	(void)upload_size;
	/*
	 * Answered on the second call, once the request is read whole: MHD
	 * closes a connection answered before that. A request that comes
	 * with a body (none of ours has a use for one) is answered at once
	 * without reading it, and its connection closed after the answer.
	 */
	if (!*req_cls) {
		struct scrape_peer *peer = peer_of(c);
		if (peer)
			scrape_peers_answering(peer, now_ms());
		const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					      MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (!MHD_lookup_connection_value(c, MHD_HEADER_KIND,
				MHD_HTTP_HEADER_TRANSFER_ENCODING) &&
		    (!len || strcmp(len, "0") == 0)) {
			*req_cls = &request_seen;
			return MHD_YES;
		}
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED,
					  s->not_allowed);
	/* url is the path as sent (no_unescape) */
	if (strcmp(url, "/") == 0)
		return MHD_queue_response(c, MHD_HTTP_OK, s->index);
	if (strcmp(url, "/metrics") != 0)
		return MHD_queue_response(c, MHD_HTTP_NOT_FOUND, s->not_found);
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						 MHD_HTTP_HEADER_ACCEPT);
	struct MHD_Response *r = s->metrics[scrape_negotiate(accept)];
	if (!r)
		return MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE,
					  s->no_sample);
	return MHD_queue_response(c, MHD_HTTP_OK, r);
}

/*
 * A request line arrived (MHD_OPTION_URI_LOG_CALLBACK): the request is
 * begun. Its result is the request's context: none yet (on_request).
 */
static void *on_request_line(void *cls, const char *uri,
			     struct MHD_Connection *c)
{
	(void)cls;
	(void)uri;
	struct scrape_peer *peer = peer_of(c);
	if (peer)
		scrape_peers_spoke(peer);
	return NULL;
}

/* A request answered: the connection waits for the next one. */
static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)req_cls;
	(void)toe;
	struct scrape_peer *peer = peer_of(c);
	if (peer)
		scrape_peers_waiting(peer, now_ms());
}

/* A connection handed to the daemon begins, or the daemon closed one. */
static void on_connection(void *cls, struct MHD_Connection *c,
			  void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct scrape *s = cls;
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (*socket_context)
			scrape_peers_remove(*socket_context);
		*socket_context = NULL;
		return;
	}
	const union MHD_ConnectionInfo *fd =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *addr =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	/* (never NULL: the daemon holds no more connections than slots) */
	*socket_context = fd && addr ?
		scrape_peers_add(&s->peers, addr->client_addr, fd->connect_fd, c,
				 now_ms()) : NULL;
}

/* The path as the client sent it: nothing decoded. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *text)
{
	(void)cls;
	(void)c;
	return strlen(text);
}

/* Close a connection: the daemon sees it end at its next run. */
static void close_peer(struct scrape_peer *peer)
{
	shutdown(peer->fd, SHUT_RDWR);
}

/*
 * The timerfd to the nearest of: when MHD wants to run next, the first
 * connection's deadline, the end of a pause in accepting.
 */
static void arm_timer(struct scrape *s, int64_t now)
{
	MHD_UNSIGNED_LONG_LONG mhd_ms;
	int64_t next = scrape_peers_next(&s->peers);
	struct itimerspec its = { 0 };
	int64_t ms = INT64_MAX;

	if (MHD_get_timeout(s->d, &mhd_ms) == MHD_YES)
		ms = mhd_ms > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)mhd_ms;
	if (next != INT64_MAX && next - now < ms)
		ms = next - now;
	if (s->paused_until_ms && s->paused_until_ms - now < ms)
		ms = s->paused_until_ms - now;
	if (ms != INT64_MAX) {
		if (ms < 0)
			ms = 0;
		its.it_value.tv_sec = (time_t)(ms / 1000);
		its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
		if (ms == 0)
			its.it_value.tv_nsec = 1; /* now (0 would disarm) */
	}
	timerfd_settime(s->timer_fd, 0, &its, NULL);
}

static void on_accept(int fd, unsigned revents, void *arg);

/* Watch the listening socket again after a pause, when it is over. */
static void resume_accepting(struct scrape *s, int64_t now)
{
	if (s->listen_watched || now < s->paused_until_ms)
		return;
	if (evloop_add_fd(s->loop, s->listen_fd, POLLIN, on_accept, s) == 0) {
		s->listen_watched = true;
		s->paused_until_ms = 0;
	} else {
		s->paused_until_ms = now + ACCEPT_PAUSE_MS;
	}
}

/* The daemon's work, the connections past their time closed. */
static void run(struct scrape *s)
{
	MHD_run(s->d);
	int64_t now = now_ms();
	bool closed = false;
	struct scrape_peer *peer;
	while ((peer = scrape_peers_expired(&s->peers, now))) {
		close_peer(peer);
		closed = true;
	}
	if (closed)
		MHD_run(s->d);
	resume_accepting(s, now);
	arm_timer(s, now);
}

/* Out of descriptors: one connection closed, and a pause in accepting. */
static void short_of_fds(struct scrape *s, int64_t now)
{
	struct sockaddr nobody = { .sa_family = AF_UNSPEC };
	struct scrape_peer *victim;
	if (scrape_peers_admit(&s->peers, &nobody, true, now, &victim) == 1) {
		close_peer(victim);
		MHD_run(s->d);
	}
	if (s->listen_watched) {
		evloop_del_fd(s->loop, s->listen_fd);
		s->listen_watched = false;
	}
	s->paused_until_ms = now + ACCEPT_PAUSE_MS;
}

/* Take one waiting connection: 0, or -1 when there is none to take now. */
static int accept_one(struct scrape *s)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	int fd = accept4(s->listen_fd, (struct sockaddr *)&sa, &len,
			 SOCK_NONBLOCK | SOCK_CLOEXEC);
	int64_t now = now_ms();
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			short_of_fds(s, now);
			return -1;
		}
		/* EAGAIN: none left; else one that went before it was taken */
		return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : 0;
	}
	/*
	 * The daemon first reads what has arrived: a connection taken
	 * before this one, whose request is there, is being answered and
	 * not the one to give way (a burst of newer ones from its address
	 * would otherwise find it the oldest waiting). It also closes those
	 * told to close before.
	 */
	MHD_run(s->d);
	struct scrape_peer *victim;
	int admit = scrape_peers_admit(&s->peers, (struct sockaddr *)&sa,
				       (rlim_t)fd >= s->fd_limit, now, &victim);
	if (admit < 0) {
		close(fd);
		return 0;
	}
	/* (the daemon frees its place at its next run; a slot beyond the
	   bound holds it until then) */
	if (admit > 0)
		close_peer(victim);
	MHD_add_connection(s->d, fd, (struct sockaddr *)&sa, len); /* closes
							  fd on failure */
	return 0;
}

static void on_accept(int fd, unsigned revents, void *arg)
{
	struct scrape *s = arg;
	(void)fd;
	(void)revents;
	/* a bounded batch: the rest at the loop's next round */
	for (int i = 0; i < ACCEPT_BATCH && accept_one(s) == 0; i++)
		;
	run(s);
}

static void on_epoll(int fd, unsigned revents, void *arg)
{
	(void)fd;
	(void)revents;
	run(arg);
}

static void on_timer(int fd, unsigned revents, void *arg)
{
	uint64_t expirations;
	(void)revents;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		return;
	run(arg);
}

/* A response of constant text; NULL on failure. */
static struct MHD_Response *fixed(const char *text, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (r && MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
					 type) != MHD_YES) {
		MHD_destroy_response(r);
		r = NULL;
	}
	return r;
}

/* A socket bound to arg and listening; -1 with a message. */
static int listen_on(const char *arg, bool *local, char *err, size_t errsize)
{
	struct sockaddr_storage sa;
	socklen_t len;
	if (scrape_parse_address(arg, &sa, &len, err, errsize) < 0)
		return -1;
	*local = scrape_peers_loopback((struct sockaddr *)&sa);
	unsigned port = ntohs(sa.ss_family == AF_INET6 ?
			      ((struct sockaddr_in6 *)&sa)->sin6_port :
			      ((struct sockaddr_in *)&sa)->sin_port);
	int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	if (fd < 0) {
		snprintf(err, errsize, _("cannot make a socket: %s"),
			 strerror(errno));
		return -1;
	}
	int one = 1;
	/* a restart binds again at once, past the old connections' TIME_WAIT */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, len) < 0 ||
	    /* a long queue: a burst of connections waits there to be
	       taken, not dropped (the kernel caps it at net.core.somaxconn) */
	    listen(fd, SOMAXCONN) < 0) {
		int e = errno;
		close(fd);
		if (e == EADDRINUSE)
			snprintf(err, errsize, _("port %u is in use (another "
				 "program listens on it)"), port);
		else if (e == EACCES)
			snprintf(err, errsize, _("no permission to listen on "
				 "port %u (ports below 1024 need root or "
				 "CAP_NET_BIND_SERVICE)"), port);
		else if (e == EADDRNOTAVAIL)
			snprintf(err, errsize, "%s", _("no interface of this "
				 "machine has that address"));
		else
			snprintf(err, errsize, _("cannot listen: %s"),
				 strerror(e));
		return -1;
	}
	return fd;
}

struct scrape *scrape_open(const char *arg, struct evloop *loop, char *err,
			   size_t errsize)
{
	struct scrape *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errsize, "%s", strerror(errno));
		return NULL;
	}
	s->loop = loop;
	s->epoll_fd = s->timer_fd = -1;
	s->listen_fd = listen_on(arg, &s->local, err, errsize);
	if (s->listen_fd < 0) {
		free(s);
		return NULL;
	}
	/* a connection never takes one of the last SCRAPE_FD_RESERVE */
	struct rlimit nofile;
	s->fd_limit = RLIM_INFINITY;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
	    nofile.rlim_cur != RLIM_INFINITY)
		s->fd_limit = nofile.rlim_cur > SCRAPE_FD_RESERVE ?
			nofile.rlim_cur - SCRAPE_FD_RESERVE : 0;
	s->index = fixed(index_page, "text/plain; charset=utf-8");
	s->not_found = fixed("404 Not Found: try /metrics\n",
			     "text/plain; charset=utf-8");
	s->not_allowed = fixed("405 Method Not Allowed: GET or HEAD\n",
			       "text/plain; charset=utf-8");
	s->no_sample = fixed("503 Service Unavailable: no sample yet\n",
			     "text/plain; charset=utf-8");
	if (s->not_allowed &&
	    MHD_add_response_header(s->not_allowed, MHD_HTTP_HEADER_ALLOW,
				    "GET, HEAD") != MHD_YES) {
		MHD_destroy_response(s->not_allowed);
		s->not_allowed = NULL;
	}
	if (!s->index || !s->not_found || !s->not_allowed || !s->no_sample) {
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		scrape_close(s);
		return NULL;
	}
	/*
	 * The daemon's limit is the slots: the places, and those closing;
	 * the places themselves are scrape_peers'. Its timeout of silence is
	 * a second guard on the answer's (scrape_peers.h).
	 */
	errno = 0;
	s->d = MHD_start_daemon(
		MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL,
		on_request, s,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SCRAPE_PEER_SLOTS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SCRAPE_ANSWER_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SCRAPE_REQUEST_MAX,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
		MHD_OPTION_URI_LOG_CALLBACK, on_request_line, s,
		MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, s,
		MHD_OPTION_END);
	if (!s->d) {
		int e = errno ? errno : EINVAL;
		snprintf(err, errsize, _("cannot start the HTTP server: %s"),
			 strerror(e));
		scrape_close(s);
		return NULL;
	}
	/* the loop watches the daemon's epoll descriptor, its timer and the
	   listening socket */
	const union MHD_DaemonInfo *info =
		MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_EPOLL_FD);
	errno = EINVAL;
	if (info && evloop_add_fd(loop, info->epoll_fd, POLLIN, on_epoll,
				  s) == 0) {
		s->epoll_fd = info->epoll_fd;
		s->timer_fd = timerfd_create(CLOCK_MONOTONIC,
					     TFD_NONBLOCK | TFD_CLOEXEC);
	}
	if (s->timer_fd >= 0 &&
	    evloop_add_fd(loop, s->timer_fd, POLLIN, on_timer, s) == 0 &&
	    evloop_add_fd(loop, s->listen_fd, POLLIN, on_accept, s) == 0)
		s->listen_watched = true;
	if (!s->listen_watched) {
		snprintf(err, errsize, _("cannot start the HTTP server: %s"),
			 strerror(errno));
		scrape_close(s);
		return NULL;
	}
	arm_timer(s, now_ms());
	return s;
}

bool scrape_local(const struct scrape *s)
{
	return s->local;
}

int scrape_publish(struct scrape *s, enum out_openmetrics_format fmt,
		   char *text, size_t len)
{
	if ((unsigned)fmt >= NFORMATS) {
		free(text);
		errno = EINVAL;
		return -1;
	}
	struct MHD_Response *r = MHD_create_response_from_buffer(
		len, text, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(text);
		errno = ENOMEM;
		return -1;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    out_openmetrics_content_type(fmt)) != MHD_YES ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
				    "no-store") != MHD_YES ||
	    /* the format depends on Accept */
	    MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
				    MHD_HTTP_HEADER_ACCEPT) != MHD_YES) {
		MHD_destroy_response(r);
		errno = ENOMEM;
		return -1;
	}
	/* a connection still sending the old one holds its own reference */
	if (s->metrics[fmt])
		MHD_destroy_response(s->metrics[fmt]);
	s->metrics[fmt] = r;
	return 0;
}

void scrape_close(struct scrape *s)
{
	if (!s)
		return;
	if (s->epoll_fd >= 0)
		evloop_del_fd(s->loop, s->epoll_fd);
	if (s->timer_fd >= 0) {
		evloop_del_fd(s->loop, s->timer_fd);
		close(s->timer_fd);
	}
	if (s->listen_watched)
		evloop_del_fd(s->loop, s->listen_fd);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->d)
		MHD_stop_daemon(s->d); /* closes every connection */
	struct MHD_Response *fixed_ones[] = { s->index, s->not_found,
					      s->not_allowed, s->no_sample };
	for (size_t i = 0; i < sizeof(fixed_ones) / sizeof(fixed_ones[0]); i++)
		if (fixed_ones[i])
			MHD_destroy_response(fixed_ones[i]);
	for (int f = 0; f < NFORMATS; f++)
		if (s->metrics[f])
			MHD_destroy_response(s->metrics[f]);
	free(s);
}
