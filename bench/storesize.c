/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The size of recordings of readings (src/store/): a synthetic day of
 * samples with the test schema shaped like a task reading
 * (tests/lib/store_schema.h: 26 counters, comm, cmdline, cgroup; 20
 * cgroups; the system), encoded by the codec and framed by the frame
 * writer, as the recorder will:
 *
 *   idle   100 processes whose counters rarely move (5 % of them each
 *          sample, two counters), no churn
 *   busy   100 processes whose CPU, scheduling, fault and IO counters
 *          all move every sample
 *   day    500 processes: 20 % move each sample, one exits and another
 *          starts every minute
 *
 * each at -d 10 for a day (8,640 samples), a key frame every
 * KEY_EVERY samples (-k, default 60: ten minutes). For each, the bytes
 * per sample and per day stored three ways: raw records; the records
 * deflated as the recorder writes them (a stream from each key frame,
 * a part per record: a damaged record costs the deltas up to the next
 * key frame, as the codec's deltas do anyway); and the raw records in
 * one gzip stream (for comparison only: one damaged byte costs the
 * rest of the file).
 * And the CPU time the encoder and writer took per sample.
 *
 *   bench/storesize [-s] [-k KEY_EVERY] [-n SAMPLES]
 *   bench/storesize [-s] -r FILE [-k KEY_EVERY]
 *
 * With -s, the same loads as store samples (src/store/sample.h) made as
 * the live monitor makes them (the queries' times of the sample, ages
 * from birth, a carried reading for a task whose counters did not move)
 * through the recorder's writer (src/record/storefile.c, the store's
 * schema): what a recording of readings costs, and the CPU of writing
 * one (conversion, encoding, framing); the counters the store sample
 * does not hold (minor faults, user and system time, context switches)
 * are left out.
 *
 * With -r, the readings of a real machine instead (bench/run takes them
 * while today's recorder records the same machine): FILE has a line per
 * process and sample, tab-separated: the sample's number, the tid, the
 * start time, the 26 counters ("-" for unknown) in the order of
 * store_schema.h, comm, cmdline and the cgroup path. Too few samples for
 * a day, so the figure per sample is the mean delta frame plus the key
 * frame's share (its size / KEY_EVERY).
 *
 * Output: one line per load and way, key=value, for bench/run.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "record/storefile.h"
#include "store/codec.h"
#include "store/frame.h"
#include "store/sample.h"
#include "../tests/lib/store_schema.h"
#include "../tests/lib/storetest.h"

#define MAXTASKS 4096
#define NCG 20

#define rnd storetest_rnd
#define SEED 0x2545f4914f6cdd1dull

static const char *const cmds[] = {
	"/usr/sbin/sshd -D", "/lib/systemd/systemd-journald",
	"postgres: checkpointer", "/usr/bin/python3 /opt/app/worker.py --queue=default",
	"nginx: worker process", "/usr/lib/jvm/java-17/bin/java -Xmx2g -jar /srv/app.jar",
	"/usr/sbin/cron -f", "/usr/bin/containerd", "/usr/bin/dockerd -H fd://",
	"/usr/sbin/rsyslogd -n -iNONE",
};

struct load {
	const char *name;
	size_t procs;
	unsigned move_pct;      /* processes that move each sample */
	unsigned counters;      /* counters that move in one that moves */
	unsigned churn_every;   /* samples between an exit and a start */
};

static struct st_task tasks[MAXTASKS];
static struct st_cgroup cgroups[NCG];
static char cgpaths[NCG][64];
static char comms[sizeof(cmds) / sizeof(cmds[0])][16];
static struct st_system sys;
static size_t ntasks;
static uint64_t next_pid = 1000;

static void new_task(struct st_task *t)
{
	const struct codec_table *tb = &st_tables[ST_TASKS];
	size_t c = rnd() % (sizeof(cmds) / sizeof(cmds[0]));
	const char *cmd = cmds[c];

	memset(t, 0, sizeof(*t));
	t->tid = t->tgid = next_pid++;
	t->start = 400000000000ull + rnd() % 100000000000ull;
	t->ppid = 1;
	t->nice = 0;
	snprintf(comms[c], sizeof(comms[c]), "%.15s",
		 strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd);
	t->comm = comms[c];
	t->cmdline = cmd;
	t->cgroup = cgpaths[rnd() % NCG];
	/* the delay categories of memory pressure and IRQ (counters 4 to
	 * 11 and 14, 15) are 0 for most tasks, as they are on a machine
	 * with enough memory and without IRQ time accounting */
	for (int c = 0; c < ST_NCNT; c++)
		t->cnt[c] = ((c >= 4 && c < 12) || c == 14 || c == 15) &&
			    rnd() % 10 ? 0 : c % 2 ? rnd() % 2000000000000ull :
			    rnd() % 100000;
	for (size_t i = 0; i < tb->nfields; i++)
		codec_set_known(tb, t, tb->fields[i].id, true);
}

/* What a task that ran for part of 10 s adds to its counters. */
static void move(struct st_task *t, unsigned counters)
{
	/* the CPU delay, run times, user and system time, context switches,
	 * faults and IO (0 to 3 and 16 to 25) */
	static const unsigned moving[] = { 0, 1, 16, 17, 18, 19, 2, 3, 20, 21,
					   22, 23, 24, 25 };
	for (unsigned k = 0; k < counters && k < 14; k++) {
		unsigned c = moving[k];
		/* odd: nanosecond totals; even: counts */
		t->cnt[c] += c % 2 ? rnd() % 2000000000ull : rnd() % 3000;
	}
}

static void setup(const struct load *l)
{
	ntasks = l->procs;
	for (size_t i = 0; i < ntasks; i++)
		new_task(&tasks[i]);
	for (size_t i = 0; i < NCG; i++) {
		memset(&cgroups[i], 0, sizeof(cgroups[i]));
		snprintf(cgpaths[i], sizeof(cgpaths[i]),
			 "/system.slice/unit-%zu.service", i);
		cgroups[i].path = cgpaths[i];
		for (size_t j = 0; j < st_tables[ST_CGROUPS].nfields; j++)
			codec_set_known(&st_tables[ST_CGROUPS], &cgroups[i],
					st_tables[ST_CGROUPS].fields[j].id, true);
	}
	memset(&sys, 0, sizeof(sys));
	for (size_t j = 0; j < st_tables[ST_SYSTEM].nfields; j++)
		codec_set_known(&st_tables[ST_SYSTEM], &sys,
				st_tables[ST_SYSTEM].fields[j].id, true);
}

static void step(const struct load *l, size_t n)
{
	for (size_t i = 0; i < ntasks; i++)
		if (rnd() % 100 < l->move_pct)
			move(&tasks[i], l->counters);
	if (l->churn_every && n % l->churn_every == 0)
		new_task(&tasks[rnd() % ntasks]);
	/* a cgroup moves about as often as its tasks: its CPU time and
	 * CPU pressure; under load every counter */
	for (size_t i = 0; i < NCG; i++)
		if (rnd() % 100 < 2 * l->move_pct)
			for (int c = 0; c < (l->move_pct >= 50 ? 8 : 2); c++)
				cgroups[i].cnt[c] += rnd() % 100000000;
	/* the system's pressure totals move a little even when idle; the
	 * averages (two decimals) only under load */
	for (int i = 0; i < 6; i++)
		if (rnd() % 100 < 2 * l->move_pct)
			sys.psi_total[i] += rnd() % 1000000;
	for (int i = 0; i < 3; i++)
		if (rnd() % 100 < l->move_pct)
			sys.avg10[i] = (double)(rnd() % 10000) / 100;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static off_t size_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		perror("storesize: fstat");
		exit(1);
	}
	return st.st_size;
}

/* The raw file through gzip, as one stream: its compressed size. */
static size_t gzipped(int fd)
{
	size_t n = (size_t)size_of(fd);
	unsigned char *in = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
	uLongf out_len = compressBound(n);
	unsigned char *out = malloc(out_len);

	if (in == MAP_FAILED || !out ||
	    compress2(out, &out_len, in, n, Z_DEFAULT_COMPRESSION) != Z_OK) {
		fprintf(stderr, "storesize: cannot compress\n");
		exit(1);
	}
	munmap(in, n);
	free(out);
	return out_len + 12;    /* gzip's header and trailer beside zlib's */
}

static void run(const struct load *l, unsigned key_every, size_t samples)
{
	int fd[2];
	struct frame_writer *w[2];
	struct codec_enc *e = codec_enc_new(&st_schema, key_every, 0);
	struct codec_rows rows[ST_NTABLES];
	double cpu = 0;

	for (int k = 0; k < 2; k++) {
		fd[k] = storetest_memfd("storesize");
		w[k] = frame_writer_open(fd[k], k == 1, "stalltop bench");
		if (!w[k]) {
			perror("storesize");
			exit(1);
		}
	}
	storetest_seed(SEED);
	setup(l);
	for (size_t n = 0; n < samples; n++) {
		const unsigned char *p;
		size_t len;
		int type;

		step(l, n);
		rows[ST_TASKS] = (struct codec_rows){ tasks, ntasks };
		rows[ST_CGROUPS] = (struct codec_rows){ cgroups, NCG };
		rows[ST_SYSTEM] = (struct codec_rows){ &sys, 1 };
		struct codec_sample s = { 1763740000.0 + 10.0 * (double)n, rows };
		double t0 = cpu_s();
		if (codec_enc_sample(e, &s, &p, &len, &type) < 0 ||
		    frame_write_stream(w[1], type, s.time, p, len,
				       type == FRAME_KEY) < 0) {
			perror("storesize");
			exit(1);
		}
		cpu += cpu_s() - t0;
		if (frame_write(w[0], type, s.time, p, len) < 0) {
			perror("storesize");
			exit(1);
		}
	}
	size_t raw = (size_t)size_of(fd[0]), deflated = (size_t)size_of(fd[1]);
	size_t gz = gzipped(fd[0]);
	const char *way[] = { "raw", "deflate", "gzip" };
	size_t bytes[] = { raw, deflated, gz };
	for (int k = 0; k < 3; k++)
		printf("load=%s procs=%zu way=%s samples=%zu key_every=%u "
		       "bytes=%zu per_sample=%.0f per_day_mb=%.2f "
		       "cpu_us_per_sample=%.0f\n", l->name, l->procs, way[k],
		       samples, key_every, bytes[k],
		       (double)bytes[k] / (double)samples,
		       (double)bytes[k] / (double)samples * 8640 / 1e6,
		       1e6 * cpu / (double)samples);
	for (int k = 0; k < 2; k++) {
		frame_writer_free(w[k]);
		close(fd[k]);
	}
	codec_enc_free(e);
}

/* The next field of a tab-separated line, NUL-terminated in place. */
static char *field(char **line)
{
	char *f = *line, *tab = strchr(f, '\t');

	if (tab) {
		*tab = '\0';
		*line = tab + 1;
	} else {
		*line = f + strlen(f);
	}
	return f;
}

static void store_of(struct store_sample *s, size_t n, size_t i, unsigned cur,
		     bool with_cgroups);

/*
 * One sample of the readings written: its bytes; with a store writer,
 * as a store sample, else through the test schema.
 */
static size_t write_real(struct codec_enc *e, struct frame_writer *w,
			 struct storefile_writer *sw, int fd,
			 struct codec_rows *rows, long cur, size_t samples,
			 int *type)
{
	off_t before = size_of(fd);
	struct codec_sample cs = { 1763740000.0 + (double)cur, rows };
	const unsigned char *out;
	size_t len;
	struct store_sample ss;

	if (sw) {
		store_of(&ss, rows[ST_TASKS].n, samples, samples % 2, false);
		*type = samples ? FRAME_DELTA : FRAME_KEY;
		if (storefile_write(sw, &ss) != 0) {
			perror("storesize");
			exit(1);
		}
	} else if (codec_enc_sample(e, &cs, &out, &len, type) < 0 ||
		   frame_write_stream(w, *type, cs.time, out, len,
				      *type == FRAME_KEY) < 0) {
		perror("storesize");
		exit(1);
	}
	return (size_t)(size_of(fd) - before);
}

static void real(const char *path, unsigned key_every, bool store)
{
	FILE *in = fopen(path, "r");
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	const struct codec_table *tb = &st_tables[ST_TASKS];
	struct codec_rows rows[ST_NTABLES] = { { tasks, 0 }, { cgroups, 0 },
					       { &sys, 0 } };
	char *line = NULL;
	size_t cap = 0, samples = 0, procs = 0, key = 0, deltas[2] = { 0, 0 };
	long cur = -1;
	int fd = storetest_memfd("storesize");
	struct frame_writer *w = store ? NULL :
				 frame_writer_open(fd, true, "stalltop bench");
	struct storefile_writer *sw = !store ? NULL :
		storefile_writer_open(fd, "stalltop bench", 0, 0);

	if (!in || !e || !(w || sw)) {
		perror(path);
		exit(1);
	}
	for (;;) {
		ssize_t n = getline(&line, &cap, in);
		char *p = line;
		long sample = n > 0 ? strtol(field(&p), NULL, 10) : -2;

		if (sample != cur && cur >= 0) {
			int type;
			size_t bytes = write_real(e, w, sw, fd, rows, cur,
						  samples, &type);
			if (type == FRAME_KEY)
				key = bytes;
			else
				deltas[0] += bytes, deltas[1]++;
			samples++;
			procs += rows[ST_TASKS].n;
			rows[ST_TASKS].n = 0;
		}
		if (n <= 0)
			break;
		cur = sample;
		if (rows[ST_TASKS].n == MAXTASKS)
			continue;
		struct st_task *t = &tasks[rows[ST_TASKS].n++];
		memset(t, 0, sizeof(*t));
		line[n - 1] = line[n - 1] == '\n' ? '\0' : line[n - 1];
		t->tid = t->tgid = strtoull(field(&p), NULL, 10);
		t->start = strtoull(field(&p), NULL, 10);
		codec_set_known(tb, t, 1, true);
		codec_set_known(tb, t, 2, true);
		codec_set_known(tb, t, 3, true);
		for (int c = 0; c < ST_NCNT; c++) {
			char *v = field(&p);
			if (*v && *v != '-') {
				t->cnt[c] = strtoull(v, NULL, 10);
				codec_set_known(tb, t, ST_CNT_ID + (unsigned)c, true);
			}
		}
		const char *f = field(&p);

		t->comm = storetest_keep(f, strlen(f));
		f = field(&p);
		t->cmdline = storetest_keep(f, strlen(f));
		f = field(&p);
		t->cgroup = storetest_keep(f, strlen(f));
		for (unsigned id = 6; id <= 8; id++)
			codec_set_known(tb, t, id, true);
	}
	if (!deltas[1]) {
		fprintf(stderr, "storesize: %s: fewer than two samples\n", path);
		exit(1);
	}
	double per = (double)deltas[0] / (double)deltas[1] +
		     (double)key / (key_every ? key_every : 1);
	printf("load=real procs=%.0f way=%s samples=%zu key_every=%u "
	       "key_bytes=%zu delta_bytes=%.0f per_sample=%.0f per_proc=%.1f\n",
	       (double)procs / (double)samples, store ? "store" : "deflate", samples, key_every, key,
	       (double)deltas[0] / (double)deltas[1], per,
	       per * (double)samples / (double)procs);
	free(line);
	fclose(in);
	frame_writer_free(w);
	storefile_writer_free(sw);
	close(fd);
	codec_enc_free(e);
	storetest_strings_free();
}

/* ---- -s: store samples (store/sample.h) through the recorder's writer ---- */

/* A task's counters of the sample before, to tell whether it moved. */
struct seen {
	uint64_t tid, start;
	uint64_t cnt[ST_NCNT];
};

static struct seen seen[2][MAXTASKS];
static size_t nseen[2];
static struct store_task stasks[MAXTASKS];
static struct store_cgroup scg[NCG];

static int seen_cmp(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * Whether the task's counters stayed as they were: the live monitor
 * then does not ask the kernel again and hands a carried reading.
 */
static bool still(const struct st_task *t, unsigned cur)
{
	struct seen key = { .tid = t->tid };
	const struct seen *p = bsearch(&key, seen[!cur], nseen[!cur],
				       sizeof(key), seen_cmp);

	return p && p->start == t->start &&
	       memcmp(p->cnt, t->cnt, sizeof(p->cnt)) == 0;
}

static void psi_line(struct psi_line *l, uint64_t total, double avg)
{
	l->present = true;
	l->total_us = total;
	l->avg10 = avg;
	l->avg60 = avg;
	l->avg300 = avg;
}

/*
 * The store sample of tasks[0..n) at sample number i, as the live
 * monitor makes one: the queries' times of the sample, ages from birth,
 * carried readings for the tasks that did not move.
 */
static void store_of(struct store_sample *s, size_t n, size_t i, unsigned cur,
		     bool with_cgroups)
{
	memset(s, 0, sizeof(*s));
	s->time = 1763740000.0 + 10.0 * (double)i;
	s->mono = 5000.0 + 10.0 * (double)i + 0.0123;
	s->real = s->time;
	s->boot = s->mono + 3.5;
	s->query_start = s->mono - 0.0042;
	s->delayacct = STORE_DELAYACCT_ON;
	s->ts_version = 16;
	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 2; k++)
			psi_line(&s->psi.line[r][k], sys.psi_total[r * 2 + k],
				 sys.avg10[r]);
	s->psi.when = s->mono;
	nseen[cur] = n;
	for (size_t j = 0; j < n; j++) {
		const struct st_task *t = &tasks[j];
		struct store_task *k = &stasks[j];
		struct task_reading *r = &k->r;

		memset(k, 0, sizeof(*k));
		r->id = (int32_t)t->tid;
		r->tgid = (int32_t)t->tgid;
		r->start = t->start;
		r->asked_at = s->query_start;
		r->at = s->mono;
		r->born = 1.0 + (double)(t->start % 400000) / 100;
		r->age = r->at - r->born;
		r->first_seen = 4000.0;
		r->have = 0xff;
		r->cats = 0x7f;
		r->threads = 1;
		r->flags = READING_ONE | (still(t, cur) ? READING_CARRIED : 0);
		if (!(r->flags & READING_CARRIED)) {
			r->run_ns = t->cnt[16];
			for (int c = 0; c < READING_NCAT; c++) {
				r->d[c].count = t->cnt[2 * c];
				r->d[c].total_ns = t->cnt[2 * c + 1];
			}
		}
		k->have = STORE_HAVE_UID | STORE_HAVE_PPID | STORE_HAVE_STATE |
			  STORE_HAVE_THREADS | STORE_HAVE_START |
			  STORE_HAVE_RSS | STORE_HAVE_NICE | STORE_HAVE_IO |
			  STORE_HAVE_MAJFLT | STORE_HAVE_CTX_AT;
		k->ppid = (int32_t)t->ppid;
		k->threads = 1;
		k->state = 'S';
		k->start_real = 1763000000.0 + (double)t->start / 100;
		k->rss_kib = 20480;
		k->read_bytes = t->cnt[22];
		k->write_bytes = t->cnt[23];
		k->majflt = t->cnt[21];
		k->ctx_at = s->mono;
		k->comm = t->comm;
		k->cmdline = t->cmdline;
		k->user = "root";
		k->cgroup = t->cgroup;
		seen[cur][j] = (struct seen){ t->tid, t->start, { 0 } };
		memcpy(seen[cur][j].cnt, t->cnt, sizeof(t->cnt));
	}
	qsort(seen[cur], n, sizeof(seen[cur][0]), seen_cmp);
	s->tasks = stasks;
	s->ntasks = n;
	for (size_t j = 0; j < NCG; j++) {
		struct store_cgroup *g = &scg[j];

		memset(g, 0, sizeof(*g));
		g->path = cgroups[j].path;
		g->have = STORE_CG_PSI | STORE_CG_THROTTLED;
		for (int r = 0; r < 3; r++)
			for (int k = 0; k < 2; k++)
				psi_line(&g->psi.line[r][k],
					 cgroups[j].cnt[2 + r * 2 + k], 0);
		g->psi.when = s->mono;
		g->throttled_us = cgroups[j].cnt[1];
	}
	s->cgroups = with_cgroups ? scg : NULL;
	s->ncgroups = with_cgroups ? NCG : 0;
	s->machine.have = STORE_M_LOAD | STORE_M_CPU | STORE_M_MEM;
	s->machine.load[0] = 0.25;
	s->machine.cpu_idle = 1000 * i;
	s->machine.cpu_total = 2000 * i;
	s->machine.mem_total = 1ull << 34;
	s->machine.mem_available = 1ull << 33;
	s->nprocs = n;
}

static void run_store(const struct load *l, unsigned key_every, size_t samples)
{
	int fd = storetest_memfd("storesize");
	struct storefile_writer *w =
		storefile_writer_open(fd, "stalltop bench", key_every, 0);
	struct store_sample s;
	double cpu = 0;

	if (!w) {
		perror("storesize");
		exit(1);
	}
	storetest_seed(SEED);
	setup(l);
	nseen[0] = nseen[1] = 0;
	for (size_t n = 0; n < samples; n++) {
		step(l, n);
		store_of(&s, ntasks, n, n % 2, true);
		double t0 = cpu_s();
		if (storefile_write(w, &s) != 0) {
			perror("storesize");
			exit(1);
		}
		cpu += cpu_s() - t0;
	}
	size_t bytes = (size_t)size_of(fd);
	printf("load=%s procs=%zu way=store samples=%zu key_every=%u "
	       "bytes=%zu per_sample=%.0f per_day_mb=%.2f "
	       "cpu_us_per_sample=%.0f\n", l->name, l->procs, samples,
	       key_every, bytes, (double)bytes / (double)samples,
	       (double)bytes / (double)samples * 8640 / 1e6,
	       1e6 * cpu / (double)samples);
	storefile_writer_free(w);
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct load loads[] = {
		{ "idle", 100, 5, 2, 0 },
		{ "busy", 100, 100, 10, 0 },
		{ "day", 500, 20, 6, 6 },
	};
	unsigned key_every = 60;
	size_t samples = 8640;
	const char *readings = NULL;
	bool store = false;
	int c;

	while ((c = getopt(argc, argv, "k:n:r:s")) != -1) {
		switch (c) {
		case 's':
			store = true;
			break;
		case 'r':
			readings = optarg;
			break;
		case 'k':
			key_every = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			samples = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: %s [-s] [-k KEY_EVERY] [-n SAMPLES | "
				"-r FILE]\n", argv[0]);
			return 2;
		}
	}
	if (!samples) {
		fprintf(stderr, "storesize: -n takes a positive number\n");
		return 2;
	}
	if (readings) {
		real(readings, key_every, store);
		return 0;
	}
	for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
		if (store)
			run_store(&loads[i], key_every, samples);
		else
			run(&loads[i], key_every, samples);
	return 0;
}
