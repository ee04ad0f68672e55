/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scrape endpoint's pure parts: --listen's address forms (a port
 * alone is loopback) and what it refuses, and the Accept negotiation
 * (qualities, wildcards, the most specific range winning, malformed
 * qualities, the header Prometheus sends). Serving itself is
 * tests/live/listen.sh.
 */
#include <config.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "view/scrape.h"
#include "unit.h"

/* Parse arg; the address and port as "ADDR PORT", or NULL on refusal. */
static const char *addr(const char *arg)
{
	static char out[128];
	struct sockaddr_storage sa;
	socklen_t len;
	char err[256], host[INET6_ADDRSTRLEN];
	if (scrape_parse_address(arg, &sa, &len, err, sizeof(err)) < 0) {
		CHECK(err[0] != '\0');
		return NULL;
	}
	if (sa.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&sa;
		CHECK(len == sizeof(*s6));
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		snprintf(out, sizeof(out), "[%s] %u", host, ntohs(s6->sin6_port));
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&sa;
		CHECK(sa.ss_family == AF_INET && len == sizeof(*s4));
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(out, sizeof(out), "%s %u", host, ntohs(s4->sin_port));
	}
	return out;
}

static void test_addresses(void)
{
	CHECK_STR(addr("9100"), "127.0.0.1 9100");
	CHECK_STR(addr("127.0.0.1:1"), "127.0.0.1 1");
	CHECK_STR(addr("0.0.0.0:65535"), "0.0.0.0 65535");
	CHECK_STR(addr("192.0.2.7:9100"), "192.0.2.7 9100");
	CHECK_STR(addr("[::1]:9100"), "[::1] 9100");
	CHECK_STR(addr("[::]:80"), "[::] 80");
	CHECK_STR(addr("[2001:db8::5]:9100"), "[2001:db8::5] 9100");

	CHECK(addr("") == NULL);
	CHECK(addr("0") == NULL);
	CHECK(addr("65536") == NULL);
	CHECK(addr("-1") == NULL);
	CHECK(addr("9100 ") == NULL);
	CHECK(addr("http") == NULL);
	CHECK(addr(":9100") == NULL);          /* no silent "every address" */
	CHECK(addr("127.0.0.1:") == NULL);
	CHECK(addr("127.0.0.1") == NULL);      /* read as a port: refused */
	CHECK(addr("localhost:9100") == NULL); /* numeric only */
	CHECK(addr("256.0.0.1:9100") == NULL);
	CHECK(addr("::1:9100") == NULL);       /* IPv6 needs brackets */
	CHECK(addr("[::1]9100") == NULL);
	CHECK(addr("[::1") == NULL);
	CHECK(addr("[127.0.0.1]:9100") == NULL);
	CHECK(addr("[::1]:0") == NULL);

	/* the refusals say what to write instead */
	struct sockaddr_storage sa;
	socklen_t len;
	char err[256];
	CHECK(scrape_parse_address(":9100", &sa, &len, err, sizeof(err)) < 0);
	CHECK(strstr(err, "127.0.0.1") && strstr(err, "0.0.0.0:PORT"));
	CHECK(scrape_parse_address("::1:9100", &sa, &len, err, sizeof(err)) < 0);
	CHECK(strstr(err, "[ADDRESS]:PORT") != NULL);
	CHECK(scrape_parse_address("70000", &sa, &len, err, sizeof(err)) < 0);
	CHECK(strstr(err, "70000") && strstr(err, "65535"));
}

#define OM OUT_OPENMETRICS_OM
#define PROM OUT_OPENMETRICS_PROM

static void test_negotiation(void)
{
	CHECK(scrape_negotiate(NULL) == PROM);
	CHECK(scrape_negotiate("") == PROM);
	CHECK(scrape_negotiate("*/*") == PROM);
	CHECK(scrape_negotiate("text/plain") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text") == OM);
	CHECK(scrape_negotiate("Application/OpenMetrics-Text") == OM);
	/* Prometheus 2.x asks like this */
	CHECK(scrape_negotiate("application/openmetrics-text;version=1.0.0,"
			       "application/openmetrics-text;version=0.0.1;"
			       "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;"
			       "q=0.1") == OM);
	/* and like this when told to prefer the text format */
	CHECK(scrape_negotiate("text/plain;version=0.0.4;q=1,"
			       "application/openmetrics-text;q=0.5") == PROM);
	CHECK(scrape_negotiate("text/plain; q=0.4, application/openmetrics-text; "
			       "q=0.5") == OM);
	/* a tie: the default */
	CHECK(scrape_negotiate("text/plain;q=0.5, "
			       "application/openmetrics-text;q=0.5") == PROM);
	/* refused outright */
	CHECK(scrape_negotiate("application/openmetrics-text;q=0") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=0.000") == PROM);
	/* the most specific range counts, not the first or the highest */
	CHECK(scrape_negotiate("application/*;q=0.9, text/plain;q=0.5") == OM);
	CHECK(scrape_negotiate("application/*;q=0.9, "
			       "application/openmetrics-text;q=0.1, "
			       "text/plain;q=0.5") == PROM);
	CHECK(scrape_negotiate("*/*;q=0.2, application/openmetrics-text") == OM);
	/* text is wanted less than anything else */
	CHECK(scrape_negotiate("text/*;q=0.3, */*;q=0.9") == OM);
	/* no match of openmetrics at all */
	CHECK(scrape_negotiate("text/html, application/json") == PROM);
	/* malformed qualities: the element is ignored */
	CHECK(scrape_negotiate("application/openmetrics-text;q=2") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=-1") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=0.5x") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=1.5") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=0.1234") == PROM);
	CHECK(scrape_negotiate("application/openmetrics-text;q=1.") == OM);
	/* no prefix or suffix match */
	CHECK(scrape_negotiate("application/openmetrics-textual") == PROM);
	CHECK(scrape_negotiate("application/openmetrics") == PROM);
	/* odd spacing and empty elements */
	CHECK(scrape_negotiate(" , ,application/openmetrics-text ;  q=0.9 ,") == OM);
	CHECK(scrape_negotiate(";;;,,,") == PROM);
}

int main(void)
{
	test_addresses();
	test_negotiation();
	return unit_done();
}
