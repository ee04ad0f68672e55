/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc fallback's parsers, and its readings of this very process. */
#include <config.h>

#include <pthread.h>
#include <unistd.h>

#include "kernel/procstat.h"
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

/* Write one task's stat and schedstat below dir (made if need be). */
static void fake_task(const char *dir, unsigned long long start,
		     unsigned long long blkio, unsigned long long run,
		     unsigned long long delay, unsigned long long count)
{
	char path[4096], cmd[4200];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		exit(99);
	snprintf(path, sizeof(path), "%s/stat", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		exit(99);
	/* fields 3..21, start (22), 23..41, blkio (42), 43..52 */
	fprintf(f, "4242 (fake) S");
	for (int field = 4; field <= 52; field++) {
		if (field == 22)
			fprintf(f, " %llu", start);
		else if (field == 42)
			fprintf(f, " %llu", blkio);
		else
			fprintf(f, " 0");
	}
	fprintf(f, "\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	f = fopen(path, "w");
	if (!f)
		exit(99);
	fprintf(f, "%llu %llu %llu\n", run, delay, count);
	fclose(f);
}

/*
 * A fake /proc: process 4242 with two threads, then (the same pid) a new
 * process with another start time. Its totals are its own: the old
 * life's are never carried over, nor the new one's added to them. The
 * run and delay nanoseconds of schedstat are taken as whole
 * microseconds, each thread's (TS_TIME_RES_NS).
 */
static void two_lives(void)
{
	char root[] = "/tmp/stalltop-procstat.XXXXXX", dir[4096], cmd[4200];
	if (!mkdtemp(root))
		exit(99);
	snprintf(dir, sizeof(dir), "%s/4242/task/4242", root);
	fake_task(dir, 5000, 3, 1000123, 700456, 7);
	snprintf(dir, sizeof(dir), "%s/4242/task/4243", root);
	fake_task(dir, 5001, 1, 500999, 300001, 3);

	struct procstat *ps = procstat_new_at(root);
	CHECK(ps != NULL);
	if (!ps)
		exit(99);
	uint32_t id = 4242;
	struct ts_reading a = { 0 }, b = { 0 };
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &a, NULL) == 0);
	CHECK_EQ_U(a.d[TS_DELAY_CPU].total_ns, 1000000);
	CHECK_EQ_U(a.d[TS_DELAY_CPU].count, 10);
	CHECK_EQ_U(a.run_ns, 1500000);
	/* the name of the main thread, the threads summed; two: not alone */
	CHECK_STR(a.comm, "fake");
	CHECK_EQ_U(a.threads, 2);
	CHECK(!a.one_thread);

	/* the same life grows */
	snprintf(dir, sizeof(dir), "%s/4242/task/4242", root);
	fake_task(dir, 5000, 3, 1100123, 800999, 9);
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &b, NULL) == 0);
	CHECK_EQ_U(b.d[TS_DELAY_CPU].total_ns, 1100000);
	CHECK_EQ_U(b.d[TS_DELAY_CPU].count, 12);

	/* it ends; a new process takes the pid, one thread, smaller counters */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/4242'", root);
	if (system(cmd) != 0)
		exit(99);
	snprintf(dir, sizeof(dir), "%s/4242/task/4242", root);
	fake_task(dir, 9000, 0, 40123, 20999, 2);
	struct ts_reading c = { 0 };
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &c, NULL) == 0);
	CHECK_EQ_U(c.d[TS_DELAY_CPU].total_ns, 20000);
	CHECK_EQ_U(c.d[TS_DELAY_CPU].count, 2);
	CHECK_EQ_U(c.run_ns, 40000);
	CHECK_EQ_U(c.d[TS_DELAY_BLKIO].total_ns, 0);
	/* and it grows from there */
	fake_task(dir, 9000, 0, 60500, 25001, 3);
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &c, NULL) == 0);
	CHECK_EQ_U(c.d[TS_DELAY_CPU].total_ns, 25000);
	CHECK_EQ_U(c.d[TS_DELAY_CPU].count, 3);
	/* the new life had its main thread alone at both readings */
	CHECK(c.one_thread);
	CHECK_EQ_U(c.threads, 1);
	/* a second thread: every wait is no longer the main thread's, ... */
	snprintf(dir, sizeof(dir), "%s/4242/task/4244", root);
	fake_task(dir, 9001, 0, 100, 100, 1);
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &c, NULL) == 0);
	CHECK(!c.one_thread);
	CHECK_EQ_U(c.threads, 2);
	/* ... nor after it ended */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		exit(99);
	CHECK(procstat_query(ps, TS_KIND_TGID, &id, 1, on_reading, &c, NULL) == 0);
	CHECK(!c.one_thread);
	CHECK_EQ_U(c.threads, 1);
	snprintf(dir, sizeof(dir), "%s/4242/task/4242", root);
	/* a thread query reads below the root too */
	snprintf(dir, sizeof(dir), "%s/4242", root);
	fake_task(dir, 9000, 0, 60500, 25001, 3);
	struct ts_reading t = { 0 };
	size_t gone = 99;
	CHECK(procstat_query(ps, TS_KIND_PID, &id, 1, on_reading, &t, &gone) == 0);
	CHECK_EQ_U(gone, 0);
	CHECK_EQ_U(t.d[TS_DELAY_CPU].total_ns, 25000);
	CHECK_STR(t.comm, "fake");
	CHECK_EQ_U(t.threads, 1);
	procstat_free(ps);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		exit(99);
}

int main(void)
{
	uint64_t run, delay, count;
	CHECK(procstat_parse_schedstat("123 456 7\n", &run, &delay, &count) == 0);
	CHECK_EQ_U(run, 123);
	CHECK_EQ_U(delay, 456);
	CHECK_EQ_U(count, 7);
	CHECK(procstat_parse_schedstat("18446744073709551615 0 0\n", &run, &delay,
				 &count) == 0);
	CHECK_EQ_U(run, 18446744073709551615ULL);
	CHECK(procstat_parse_schedstat("18446744073709551616 0 0\n", &run, &delay,
				 &count) < 0);
	CHECK(procstat_parse_schedstat("1 2\n", &run, &delay, &count) < 0);
	CHECK(procstat_parse_schedstat("1 2 x\n", &run, &delay, &count) < 0);
	CHECK(procstat_parse_schedstat("", &run, &delay, &count) < 0);

	/*
	 * live: this process and its threads, read twice (busy threads and
	 * CPU readings: not beside a live test)
	 */
	unit_live_lock();
	struct procstat *ps = procstat_new();
	uint32_t self = (uint32_t)getpid();
	struct ts_reading a = { 0 }, b = { 0 }, e = { 0 };
	size_t gone = 99;
	burn();
	CHECK(procstat_query(ps, TS_KIND_TGID, &self, 1, on_reading, &a, &gone) == 0);
	CHECK_EQ_U(gone, 0);
	CHECK(a.have & (1u << TS_DELAY_CPU));
	CHECK(a.no_count & (1u << TS_DELAY_BLKIO));
	CHECK(!(a.have & (1u << TS_DELAY_SWAPIN)));
	/* two threads born after reading a, alive at reading b */
	if (pipe(gate) < 0)
		return 99;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	burn();
	burn();
	CHECK(procstat_query(ps, TS_KIND_TGID, &self, 1, on_reading, &b, &gone) == 0);
	/* at least the threads' burns (each some 10 ms or more) were counted */
	CHECK(b.run_ns > a.run_ns + 10000000ULL);
	CHECK(b.d[TS_DELAY_CPU].total_ns >= a.d[TS_DELAY_CPU].total_ns);
	CHECK(b.d[TS_DELAY_CPU].count >= a.d[TS_DELAY_CPU].count);
	/* the threads end: the process total never goes back */
	if (write(gate[1], "xx", 2) != 2)
		return 99;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(procstat_query(ps, TS_KIND_TGID, &self, 1, on_reading, &e, &gone) == 0);
	CHECK(e.run_ns >= b.run_ns);
	CHECK(e.d[TS_DELAY_CPU].total_ns >= b.d[TS_DELAY_CPU].total_ns);
	/* a thread query of the main thread */
	struct ts_reading c = { 0 };
	CHECK(procstat_query(ps, TS_KIND_PID, &self, 1, on_reading, &c, &gone) == 0);
	CHECK_EQ_U(c.id, self);
	CHECK(c.run_ns > 0);
	/* a task that does not exist */
	uint32_t none = 4194304;
	CHECK(procstat_query(ps, TS_KIND_TGID, &none, 1, on_reading, &c, &gone) == 0);
	CHECK_EQ_U(gone, 1);
	procstat_free(ps);

	two_lives();
	return unit_done();
}
