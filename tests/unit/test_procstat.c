/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc fallback's parsers, and its readings of this very process. */
#include <config.h>

#include <pthread.h>
#include <unistd.h>

#include "procstat.h"
#include "unit.h"

static void on_reading(const struct ts_reading *r, void *arg)
{
	*(struct ts_reading *)arg = *r;
}

static int gate[2];

static void burn(void)
{
	volatile unsigned long n = 0;
	while (n < 30000000UL)
		n++;
}

/* Burn CPU, then wait for the gate: alive across a reading. */
static void *spin(void *arg)
{
	char c;
	burn();
	if (read(gate[0], &c, 1) < 0)
		return arg;
	return NULL;
}

int main(void)
{
	uint64_t run, delay, count;
	CHECK(ps_parse_schedstat("123 456 7\n", &run, &delay, &count) == 0);
	CHECK_EQ_U(run, 123);
	CHECK_EQ_U(delay, 456);
	CHECK_EQ_U(count, 7);
	CHECK(ps_parse_schedstat("18446744073709551615 0 0\n", &run, &delay,
				 &count) == 0);
	CHECK_EQ_U(run, 18446744073709551615ULL);
	CHECK(ps_parse_schedstat("18446744073709551616 0 0\n", &run, &delay,
				 &count) < 0);
	CHECK(ps_parse_schedstat("1 2\n", &run, &delay, &count) < 0);
	CHECK(ps_parse_schedstat("1 2 x\n", &run, &delay, &count) < 0);
	CHECK(ps_parse_schedstat("", &run, &delay, &count) < 0);

	/* a real stat line, with a command holding ") (" and spaces */
	const char *stat = "4242 (a) (b c) S 1 4242 4242 0 -1 4194560 100 0 0 0 "
			   "5 6 0 0 20 0 1 0 987654 1000000 100 "
			   "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 "
			   "31 0 0 0 0 0 0 0 0 0 0\n";
	unsigned long long start = 0, blkio = 0;
	CHECK(ps_parse_stat(stat, &start, &blkio) == 0);
	CHECK_EQ_U(start, 987654);
	CHECK_EQ_U(blkio, 31);
	CHECK(ps_parse_stat("1 (x) S 1 2 3\n", &start, &blkio) < 0);
	CHECK(ps_parse_stat("no parenthesis", &start, &blkio) < 0);

	/*
	 * live: this process and its threads, read twice (busy threads and
	 * CPU readings: not beside a live test)
	 */
	unit_live_lock();
	struct procstat *ps = ps_new();
	uint32_t self = (uint32_t)getpid();
	struct ts_reading a = { 0 }, b = { 0 }, e = { 0 };
	size_t gone = 99;
	burn();
	CHECK(ps_query(ps, TS_KIND_TGID, &self, 1, on_reading, &a, &gone) == 0);
	CHECK_EQ_U(gone, 0);
	CHECK(a.have & (1u << CAT_CPU));
	CHECK(a.no_count & (1u << CAT_IO));
	CHECK(!(a.have & (1u << CAT_SWAP)));
	/* two threads born after reading a, alive at reading b */
	if (pipe(gate) < 0)
		return 99;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	burn();
	burn();
	CHECK(ps_query(ps, TS_KIND_TGID, &self, 1, on_reading, &b, &gone) == 0);
	/* at least the threads' burns (each some 10 ms or more) were counted */
	CHECK(b.run_real_ns > a.run_real_ns + 10000000ULL);
	CHECK(b.d[CAT_CPU].total_ns >= a.d[CAT_CPU].total_ns);
	CHECK(b.d[CAT_CPU].count >= a.d[CAT_CPU].count);
	/* the threads end: the process total never goes back */
	if (write(gate[1], "xx", 2) != 2)
		return 99;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(ps_query(ps, TS_KIND_TGID, &self, 1, on_reading, &e, &gone) == 0);
	CHECK(e.run_real_ns >= b.run_real_ns);
	CHECK(e.d[CAT_CPU].total_ns >= b.d[CAT_CPU].total_ns);
	/* a thread query of the main thread */
	struct ts_reading c = { 0 };
	CHECK(ps_query(ps, TS_KIND_PID, &self, 1, on_reading, &c, &gone) == 0);
	CHECK_EQ_U(c.id, self);
	CHECK(c.run_real_ns > 0);
	/* a task that does not exist */
	uint32_t none = 4194304;
	CHECK(ps_query(ps, TS_KIND_TGID, &none, 1, on_reading, &c, &gone) == 0);
	CHECK_EQ_U(gone, 1);
	ps_free(ps);
	return unit_done();
}
