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
 * figures of bench/). Two descriptors join the loop: the daemon's epoll
 * descriptor (a connection or a client is ready) and a timerfd armed to
 * what MHD_get_timeout() says (connection timeouts, and work the epoll
 * descriptor does not signal again).
 *
 * Each sample's text becomes one MHD_Response per format. Responses are
 * reference counted: a connection still sending the previous sample's
 * keeps it alive until it is done, and the next sample replaces it for
 * every scrape that begins after.
 *
 * Connections are kept alive between requests (Prometheus scrapes each
 * target over one). The bounds (scrape.h): connections at once and per
 * address, an idle timeout, and the memory of a connection, which bounds a request's line
 * and headers (a longer one gets 414 or 431 and the connection is
 * closed). Nothing is logged per request: a client must not be able to
 * fill the journal.
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
#include <sys/timerfd.h>
#include <unistd.h>

#include <microhttpd.h>

#include "lib/evloop.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "view/scrape.h"

/* The formats, each with its response of the last sample. */
#define NFORMATS 2
_Static_assert(OUT_OPENMETRICS_OM < NFORMATS && OUT_OPENMETRICS_PROM < NFORMATS,
	       "a response for each format");

static const char index_page[] =
	"stalltop " VERSION "\n"
	"\n"
	"Metrics: /metrics\n";

struct scrape {
	struct MHD_Daemon *d;
	struct evloop *loop;
	int epoll_fd;
	int timer_fd;
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

/* The timerfd to when MHD wants to run next (disarmed: not before I/O). */
static void arm_timer(struct scrape *s)
{
	MHD_UNSIGNED_LONG_LONG ms;
	struct itimerspec its = { 0 };
	if (MHD_get_timeout(s->d, &ms) == MHD_YES) {
		its.it_value.tv_sec = (time_t)(ms / 1000);
		its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
		if (ms == 0)
			its.it_value.tv_nsec = 1; /* now (0 would disarm) */
	}
	timerfd_settime(s->timer_fd, 0, &its, NULL);
}

static void run(struct scrape *s)
{
	MHD_run(s->d);
	arm_timer(s);
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
static int listen_on(const char *arg, int *family, char *err, size_t errsize)
{
	struct sockaddr_storage sa;
	socklen_t len;
	if (scrape_parse_address(arg, &sa, &len, err, errsize) < 0)
		return -1;
	*family = sa.ss_family;
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
	    listen(fd, SCRAPE_MAX_CONNECTIONS) < 0) {
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
	int family;
	int fd = listen_on(arg, &family, err, errsize);
	if (fd < 0) {
		free(s);
		return NULL;
	}
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
		close(fd);
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		scrape_close(s);
		return NULL;
	}
	errno = 0;
	s->d = MHD_start_daemon(
		MHD_USE_EPOLL | (family == AF_INET6 ? MHD_USE_IPv6 : 0), 0, NULL,
		NULL, on_request, s,
		MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SCRAPE_MAX_CONNECTIONS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SCRAPE_MAX_PER_IP,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SCRAPE_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SCRAPE_REQUEST_MAX,
		MHD_OPTION_END);
	if (!s->d) {
		int e = errno ? errno : EINVAL;
		close(fd);
		snprintf(err, errsize, _("cannot start the HTTP server: %s"),
			 strerror(e));
		scrape_close(s);
		return NULL;
	}
	/* the loop watches the daemon's epoll descriptor and its timer */
	const union MHD_DaemonInfo *info =
		MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_EPOLL_FD);
	errno = EINVAL;
	if (info && evloop_add_fd(loop, info->epoll_fd, POLLIN, on_epoll,
				  s) == 0) {
		s->epoll_fd = info->epoll_fd;
		s->timer_fd = timerfd_create(CLOCK_MONOTONIC,
					     TFD_NONBLOCK | TFD_CLOEXEC);
	}
	if (s->timer_fd < 0 ||
	    evloop_add_fd(loop, s->timer_fd, POLLIN, on_timer, s) < 0) {
		snprintf(err, errsize, _("cannot start the HTTP server: %s"),
			 strerror(errno));
		scrape_close(s);
		return NULL;
	}
	arm_timer(s);
	return s;
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
	if (s->d)
		MHD_stop_daemon(s->d); /* closes the listening socket too */
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
