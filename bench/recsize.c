/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recsize: the two recording formats written from the same samples.
 *
 *   bench/recsize -l LOAD [-N PROCS] [-d SECONDS] [-n SAMPLES]
 *                 [-k KEY_EVERY] [-D DIR] [-o FILE] [-j FILE]
 *   bench/recsize -a FILE
 *
 * The first form starts a load of PROCS processes of its own (below),
 * runs stalltop's live monitor (src/live/, the options --record uses:
 * thread readings and cgroup rows) over those processes only, as -p
 * does, and writes every sample it takes twice, each timed on its own:
 *
 *   ndjson  0.1.0's recorder: out_json() of the sample views
 *           see, one line, appended to a gzip stream and flushed
 *           (src/view/out_json.c and gzio.c, as record.c did)
 *   store   the readings the monitor handed the model, as a store
 *           sample, through the store writer (src/record/storefile.c)
 *
 * The store sample is the one the model was given: the monitor's calls
 * of assemble_begin/assemble_task/assemble_end are
 * wrapped (ld --wrap) and the readings copied on their way in, so the
 * bench needs nothing of the monitor but its public interface.
 *
 * The store file is written with a key frame at its start only; a
 * second writer, untimed, writes each sample as a key frame. The bytes
 * per sample of a file with a key frame every KEY_EVERY samples (-k,
 * default 60) is then the mean delta frame plus the mean key frame's
 * share. CPU time is the thread's (CLOCK_THREAD_CPUTIME_ID) around each
 * writer's call, summed over the samples after the first.
 *
 * Loads (each process asleep between its wake-ups):
 *   idle  each wakes every 5 s (staggered) for a few microseconds of CPU
 *   busy  each, in a loop: 3 ms of CPU (100 of them on the machine's
 *         CPUs wait for one), a 4 KiB write and fdatasync of its own
 *         file (block IO), a 256 KiB read of that 4 MiB file and 1 MiB
 *         of fresh memory touched, the processes together in a cgroup
 *         v1 memory limit of 128 MiB (direct reclaim, refaults), 10 ms
 *         asleep
 *   many  one in five wakes every second for 1 ms of CPU, the others
 *         every 30 s
 *   machine  no load: the machine's own first PROCS processes by pid
 *         (its daemons and kernel threads), whatever they do
 *
 * The second form, -a FILE (a store file written with -o), tells where
 * the bytes go: the file's samples encoded again, once as they are and
 * once without each table and each field of it (made unknown in every
 * entity), as delta frames and as key frames; what goes away is what
 * the table or field costs, raw and deflated.
 *
 * kernel.task_delayacct is turned on before the load starts (and put
 * back after); delayacct_off counts the samples taken while something
 * else had turned it off: their figures are not those of a recording
 * with it on, so bench/run takes such a run again.
 *
 * -o and -j keep the store file and the NDJSON one (gzip'd).
 *
 * Output: key=value lines, for bench/run.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "lib/evloop.h"
#include "lib/numparse.h"
#include "live/monitor.h"
#include "model/assemble.h"
#include "model/producer.h"
#include "record/gzio.h"
#include "view/output.h"
#include "record/storefile.h"
#include "store/codec.h"
#include "store/frame.h"
#include "store/schema.h"
#include "store/varint.h"

#define BUSY_FILE (4u << 20)
#define BUSY_LIMIT (128u << 20)

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the readings the monitor hands the model ---- */

static struct {
	struct store_task *v[2];        /* tasks, thread tasks */
	size_t n[2], cap[2];
	struct store_sample in;
	bool have;                      /* in is the sample at hand */
} cap;

void __real_assemble_begin(struct assemble *a, const struct store_sample *in);
void __wrap_assemble_begin(struct assemble *a, const struct store_sample *in);
struct row *__real_assemble_task(struct assemble *a, const struct store_task *t,
				 struct derive_state *s, enum assemble_set set);
struct row *__wrap_assemble_task(struct assemble *a, const struct store_task *t,
				 struct derive_state *s, enum assemble_set set);
void __real_assemble_end(struct assemble *a, const struct store_sample *in,
			 struct sample *out);
void __wrap_assemble_end(struct assemble *a, const struct store_sample *in,
			 struct sample *out);

void __wrap_assemble_begin(struct assemble *a, const struct store_sample *in)
{
	cap.n[0] = cap.n[1] = 0;
	cap.have = false;
	__real_assemble_begin(a, in);
}

struct row *__wrap_assemble_task(struct assemble *a, const struct store_task *t,
				 struct derive_state *s, enum assemble_set set)
{
	int k = set == ASSEMBLE_THREADS;

	if (cap.n[k] == cap.cap[k]) {
		size_t n = cap.cap[k] ? 2 * cap.cap[k] : 1024;
		struct store_task *v = realloc(cap.v[k], n * sizeof(*v));
		if (!v)
			die("recsize");
		cap.v[k] = v;
		cap.cap[k] = n;
	}
	/* the names it points to stay while the sample is at hand */
	cap.v[k][cap.n[k]++] = *t;
	return __real_assemble_task(a, t, s, set);
}

void __wrap_assemble_end(struct assemble *a, const struct store_sample *in,
			 struct sample *out)
{
	cap.in = *in;
	cap.in.tasks = cap.v[0];
	cap.in.ntasks = cap.n[0];
	cap.in.thread_tasks = cap.n[1] ? cap.v[1] : NULL;
	cap.in.nthread_tasks = cap.n[1];
	cap.have = true;
	__real_assemble_end(a, in, out);
}

/* ---- the loads ---- */

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void burn(double s)
{
	double until = cpu_now() + s;

	while (cpu_now() < until)
		;
}

static void busy(const char *dir, unsigned i)
{
	char path[PATH_MAX];
	static char block[1u << 18];
	int fd;

	snprintf(path, sizeof(path), "%s/recsize-busy-%d-%u", dir,
		 (int)getppid(), i);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die(path);
	unlink(path);
	memset(block, 'x', sizeof(block));
	for (size_t off = 0; off < BUSY_FILE; off += sizeof(block))
		if (pwrite(fd, block, sizeof(block), (off_t)off) < 0)
			die(path);
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	srand(i);
	for (;;) {
		burn(0.003);
		off_t at = (off_t)((unsigned)rand() % (BUSY_FILE / 4096)) * 4096;
		if (pwrite(fd, block, 4096, at) < 0 || fdatasync(fd) < 0)
			die(path);
		at = (off_t)((unsigned)rand() % (BUSY_FILE / sizeof(block))) *
		     (off_t)sizeof(block);
		if (pread(fd, block, sizeof(block), at) < 0)
			die(path);
		unsigned char *m = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			die("mmap");
		for (size_t o = 0; o < 1u << 20; o += 4096)
			m[o] = 1;
		munmap(m, 1u << 20);
		nap(0.010);
	}
}

static void child(const char *load, const char *dir, unsigned i)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		die("prctl");
	if (strcmp(load, "busy") == 0)
		busy(dir, i);
	/* idle: every 5 s, staggered; many: one in five every second */
	double every = strcmp(load, "idle") == 0 ? 5 : i % 5 == 0 ? 1 : 30;
	nap(every * (double)(i % 100) / 100);
	for (;;) {
		burn(strcmp(load, "idle") == 0 ? 0.00001 : 0.001);
		nap(every);
	}
}

static char cgdir[PATH_MAX];

/* The busy load's memory limit: a cgroup v1 memory hierarchy's group. */
static void limit_open(void)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(cgdir, sizeof(cgdir), "/sys/fs/cgroup/memory/recsize-%d",
		 (int)getpid());
	if (mkdir(cgdir, 0755) < 0) {
		fprintf(stderr, "recsize: %s: %s (no memory limit: the busy "
			"load has no memory stalls)\n", cgdir, strerror(errno));
		cgdir[0] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", cgdir);
	if (!(f = fopen(path, "w")) || fprintf(f, "%u\n", BUSY_LIMIT) < 0 ||
	    fclose(f) != 0)
		die(path);
}

static void limit_join(pid_t pid)
{
	char path[PATH_MAX + 32];
	FILE *f;

	if (!cgdir[0])
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cgdir);
	if (!(f = fopen(path, "w")) || fprintf(f, "%d\n", (int)pid) < 0 ||
	    fclose(f) != 0)
		die(path);
}

static pid_t *kids;
static size_t nkids;
static bool own_kids;   /* started here (else the machine's own) */

static void load_stop(void)
{
	for (size_t i = 0; own_kids && i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (size_t i = 0; own_kids && i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	nkids = 0;
	if (cgdir[0] && rmdir(cgdir) < 0)
		fprintf(stderr, "recsize: cannot remove %s: %s\n", cgdir,
			strerror(errno));
	cgdir[0] = '\0';
}

/*
 * kernel.task_delayacct: with v < 0 its value, else set to v (0); -1
 * when that fails.
 */
static int delayacct(int v)
{
	const char *path = "/proc/sys/kernel/task_delayacct";
	FILE *f = fopen(path, v >= 0 ? "w" : "r");
	int old = 0;

	if (!f || (v >= 0 ? fprintf(f, "%d\n", v) < 0 :
		   fscanf(f, "%d", &old) != 1)) {
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? old : -1;
}

/* kernel.task_delayacct before the run: put back at its end */
static int delayacct_was = -1;

static void delayacct_restore(void)
{
	if (delayacct_was == 0 && delayacct(0) < 0)
		perror("recsize: cannot put kernel.task_delayacct back to 0");
	delayacct_was = -1;
}

static void on_signal(int sig)
{
	(void)sig;
	load_stop();
	delayacct_restore();
	_exit(1);
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The machine's own processes: the first procs by pid. */
static void machine_pids(unsigned procs)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0, cap = 0;
	pid_t *all = NULL;

	if (!d)
		die("/proc");
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
			continue;
		if (n == cap && !(all = realloc(all, (cap = cap ? 2 * cap : 1024) *
						   sizeof(*all))))
			die("recsize");
		all[n++] = (pid_t)pid;
	}
	closedir(d);
	qsort(all, n, sizeof(*all), pid_cmp);
	if (n < procs)
		fprintf(stderr, "recsize: the machine has %zu processes, not %u\n",
			n, procs);
	kids = all;
	nkids = n < procs ? n : procs;
}

static void load_start(const char *load, unsigned procs, const char *dir)
{
	if (strcmp(load, "machine") == 0) {
		machine_pids(procs);
		return;
	}
	own_kids = true;
	if (strcmp(load, "busy") == 0)
		limit_open();
	if (!(kids = calloc(procs, sizeof(*kids))))
		die("recsize");
	for (unsigned i = 0; i < procs; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			load_stop();
			die("fork");
		}
		if (pid == 0)
			child(load, dir, i);
		kids[nkids++] = pid;
		limit_join(pid);
	}
}

/* ---- writing both formats ---- */

struct run {
	struct evloop *loop;
	struct producer *p;
	unsigned samples, done;
	struct gzio_writer *gz;
	int gzfd;
	struct storefile_writer *st, *keys;
	int stfd, keysfd;
	double ndjson_cpu, store_cpu;
	uint64_t ndjson_bytes, store_bytes, key_bytes, rows;
	uint64_t tasks, threads, cgroups, evidence;
	unsigned delayacct_off;         /* samples taken with it off */
};

static uint64_t fd_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		die("fstat");
	return (uint64_t)st.st_size;
}

/*
 * 0.1.0's recorder: the sample as one line of JSON, appended to the gzip
 * stream and flushed (record.c's record_write). Apart, so that
 * callgrind's --toggle-collect can count it.
 */
__attribute__((noinline)) static void write_ndjson(struct run *r,
						   const struct sample *s)
{
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	if (!mem)
		die("open_memstream");
	out_json(mem, s);
	if (fclose(mem) != 0 || gzio_write(r->gz, line, len) < 0)
		die("ndjson");
	free(line);
}

/* The store writer: the readings the model was given. */
__attribute__((noinline)) static void write_store(struct run *r)
{
	if (storefile_write(r->st, &cap.in) != 0)
		die("store");
}

/* Every sample the monitor takes: both formats, each timed. */
static void on_sample(const struct sample *s, void *arg)
{
	struct run *r = arg;
	uint64_t gz0 = fd_size(r->gzfd), st0 = fd_size(r->stfd);
	uint64_t k0 = fd_size(r->keysfd);

	/* the whole store sample the monitor keeps for a recording */
	const struct store_sample *whole = producer_readings(r->p);
	if (whole) {
		cap.in = *whole;
		cap.have = true;
	}
	if (!cap.have) {
		fprintf(stderr, "recsize: the monitor gave the model no "
			"readings this sample\n");
		exit(1);
	}
	double t0 = cpu_now();
	write_ndjson(r, s);
	double t1 = cpu_now();
	write_store(r);
	double t2 = cpu_now();
	if (storefile_write(r->keys, &cap.in) != 0)
		die("store (key frames)");
	/* the first sample is a key frame in both files: not a delta */
	if (r->done++ > 0) {
		r->ndjson_cpu += t1 - t0;
		r->store_cpu += t2 - t1;
		r->ndjson_bytes += fd_size(r->gzfd) - gz0;
		r->store_bytes += fd_size(r->stfd) - st0;
	}
	r->key_bytes += fd_size(r->keysfd) - k0;
	r->rows += s->nrows;
	r->tasks += cap.in.ntasks;
	r->threads += cap.in.nthread_tasks;
	r->cgroups += cap.in.ncgroups;
	r->evidence += cap.in.nevidence;
	r->delayacct_off += cap.in.delayacct != STORE_DELAYACCT_ON;
	cap.have = false;
}

static void tick(void *arg)
{
	struct run *r = arg;
	struct sample s;

	if (producer_sample(r->p, &s) < 0) {
		perror("recsize: a sample");
		evloop_quit(r->loop, 1);
	} else if (r->done == r->samples + 1) {
		evloop_quit(r->loop, 0);
	}
}

static int open_out(const char *path)
{
	int fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) :
			memfd_create("recsize", MFD_CLOEXEC);

	if (fd < 0)
		die(path ? path : "memfd_create");
	return fd;
}

static int measure(const char *load, unsigned procs, double interval,
		   unsigned samples, unsigned key_every, const char *dir,
		   const char *out, const char *json_out)
{
	struct run r = { .samples = samples };
	int code = 1;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* before the load starts: a task started while it was off never
	   gets figures but cpu's */
	delayacct_was = delayacct(-1);
	if (delayacct_was != 1 && delayacct(1) < 0)
		die("kernel.task_delayacct");
	load_start(load, procs, dir);
	/* the busy processes write their files first: wait that out */
	if (own_kids)
		nap(strcmp(load, "busy") == 0 ? 5 : 1);
	struct monitor_opts mo = {
		.pids = kids, .npids = nkids, .cgroups = true,
		.record_threads = true, .record = true,
	};
	r.loop = evloop_new();
	r.gzfd = open_out(json_out);
	r.stfd = open_out(out);
	r.keysfd = open_out(NULL);
	if (!r.loop || !(r.gz = gzio_writer_open(r.gzfd)) ||
	    !(r.st = storefile_writer_open(r.stfd, "recsize", 0, 0)) ||
	    !(r.keys = storefile_writer_open(r.keysfd, "recsize", 1, 0)))
		die("recsize");
	r.p = monitor_new(&mo, r.loop, &code);
	if (!r.p) {
		load_stop();
		return code;
	}
	producer_on_sample(r.p, on_sample, &r);
	evloop_set_timer(r.loop, interval, tick, &r);
	code = evloop_run(r.loop);
	producer_free(r.p);
	load_stop();
	delayacct_restore();
	if (code == 0) {
		double n = samples, k = key_every ? key_every : 1;
		double nd = (double)r.ndjson_bytes / n;
		double key = (double)r.key_bytes / (n + 1);
		double delta = (double)r.store_bytes / n;
		double st = delta * (k - 1) / k + key / k;
		printf("load=%s procs=%u interval=%g samples=%u rows=%.0f "
		       "tasks=%.0f threads=%.0f cgroups=%.0f evidence=%.0f "
		       "key_every=%u ndjson_bytes=%.0f store_key_bytes=%.0f "
		       "store_delta_bytes=%.0f store_bytes=%.0f ratio=%.1f "
		       "ndjson_day_mb=%.2f store_day_mb=%.2f "
		       "ndjson_cpu_us=%.0f store_cpu_us=%.0f cpu_ratio=%.1f "
		       "delayacct_off=%u\n",
		       load, procs, interval, samples,
		       (double)r.rows / (n + 1), (double)r.tasks / (n + 1),
		       (double)r.threads / (n + 1), (double)r.cgroups / (n + 1),
		       (double)r.evidence / (n + 1), key_every, nd, key, delta,
		       st, nd / st, nd * 86400 / interval / 1e6,
		       st * 86400 / interval / 1e6, 1e6 * r.ndjson_cpu / n,
		       1e6 * r.store_cpu / n, r.ndjson_cpu / r.store_cpu,
		       r.delayacct_off);
	}
	gzio_writer_close(r.gz);
	storefile_writer_free(r.st);
	storefile_writer_free(r.keys);
	close(r.stfd);
	close(r.keysfd);
	evloop_free(r.loop);
	free(kids);
	return code;
}

/* ---- -a: where the bytes go ---- */

/*
 * A payload as the frame writer stores a sample (store/frame.h): a part
 * of a deflate stream, which a key frame opens and the deltas after it
 * go on with, at the writer's level; the bytes of its record.
 */
struct zparts {
	z_stream z;
	unsigned char *out;
	size_t cap;
};

static size_t deflated(struct zparts *zp, const unsigned char *p, size_t len,
		       bool opens)
{
	size_t bound = compressBound(len) + 64;

	if (bound > zp->cap) {
		free(zp->out);
		if (!(zp->out = malloc(bound)))
			die("recsize");
		zp->cap = bound;
	}
	if (opens)
		deflateReset(&zp->z);
	zp->z.next_in = (unsigned char *)p;
	zp->z.avail_in = (uInt)len;
	zp->z.next_out = zp->out;
	zp->z.avail_out = (uInt)zp->cap;
	if (deflate(&zp->z, Z_SYNC_FLUSH) != Z_OK || zp->z.avail_in)
		die("deflate");
	unsigned char v[10];
	/* the sync flush's last four bytes are left out */
	return zp->cap - zp->z.avail_out - 4 + varint_put(v, len) +
	       FRAME_HEADER_SIZE + FRAME_TRAILER_SIZE;
}

static void zparts_init(struct zparts *zp)
{
	memset(zp, 0, sizeof(*zp));
	if (deflateInit2(&zp->z, FRAME_DEFLATE_LEVEL, Z_DEFLATED, -15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2");
}

static void zparts_free(struct zparts *zp)
{
	deflateEnd(&zp->z);
	free(zp->out);
}

struct cost {
	double key_raw, key_z, delta_raw, delta_z;
};

/*
 * The file's samples encoded as deltas and as key frames, without the
 * tables of the bitmask tables or, with id, without that field of them.
 */
static struct cost encode_without(const char *path, unsigned tables,
				  unsigned id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct storefile_reader *rd = fd < 0 ? NULL : storefile_reader_new(fd);
	struct codec_enc *de = codec_enc_new(&schema_store, 0, 0);
	struct codec_enc *ke = codec_enc_new(&schema_store, 1, 0);
	struct schema_rows rows[2];
	struct zparts zk, zd;
	struct store_sample s;
	struct cost c = { 0, 0, 0, 0 };
	char err[256];
	unsigned n = 0, cur = 0;
	int got;

	memset(rows, 0, sizeof(rows));
	if (!rd || !de || !ke)
		die(path);
	zparts_init(&zk);
	zparts_init(&zd);
	while ((got = storefile_next(rd, &s, err, sizeof(err))) > 0) {
		struct schema_rows *r = &rows[cur];
		const unsigned char *p;
		size_t len;
		int type;

		if (schema_from_store(r, &s, n ? &rows[!cur] : NULL) < 0)
			die("schema_from_store");
		for (unsigned t = 0; t < SCHEMA_NTABLES; t++) {
			const struct codec_table *tb = &schema_store.tables[t];
			struct codec_rows *cr = &r->cs.tables[t];
			if (!(tables & 1u << t))
				continue;
			for (size_t i = 0; id && i < cr->n; i++)
				codec_set_known(tb, (char *)cr->rows + i * tb->size,
						id, false);
			if (!id)
				cr->n = 0;
		}
		if (codec_enc_sample(ke, &r->cs, &p, &len, &type) < 0)
			die("codec_enc_sample");
		c.key_raw += (double)len;
		c.key_z += (double)deflated(&zk, p, len, true);
		if (codec_enc_sample(de, &r->cs, &p, &len, &type) < 0)
			die("codec_enc_sample");
		/* the first opens the stream the deltas go on with */
		size_t z = deflated(&zd, p, len, n == 0);
		if (n) {
			c.delta_raw += (double)len;
			c.delta_z += (double)z;
		}
		n++;
		cur = !cur;
	}
	if (got < 0 || n < 2) {
		fprintf(stderr, "recsize: %s: %s\n", path,
			got < 0 ? err : "fewer than two samples");
		exit(1);
	}
	c.key_raw /= n;
	c.key_z /= n;
	c.delta_raw /= n - 1;
	c.delta_z /= n - 1;
	schema_free(&rows[0]);
	schema_free(&rows[1]);
	zparts_free(&zk);
	zparts_free(&zd);
	codec_enc_free(de);
	codec_enc_free(ke);
	storefile_reader_free(rd);
	close(fd);
	return c;
}

static void print_cost(const char *table, const char *field, unsigned id,
		       const struct cost *all, const struct cost *without)
{
	printf("table=%s field=%s id=%u key_raw=%.1f key_z=%.1f "
	       "delta_raw=%.1f delta_z=%.1f\n", table, field, id,
	       all->key_raw - without->key_raw, all->key_z - without->key_z,
	       all->delta_raw - without->delta_raw,
	       all->delta_z - without->delta_z);
}

/*
 * What each table costs, and each field: a field of the tasks and the
 * threads (one schema) is taken out of both at once, since deflate
 * finds a single-threaded process's thread reading in its process's.
 */
static int analyse(const char *path)
{
	struct cost all = encode_without(path, 0, 0), c;

	printf("table=all field=all id=0 key_raw=%.1f key_z=%.1f "
	       "delta_raw=%.1f delta_z=%.1f\n", all.key_raw, all.key_z,
	       all.delta_raw, all.delta_z);
	for (unsigned t = 0; t < SCHEMA_NTABLES; t++) {
		c = encode_without(path, 1u << t, 0);
		print_cost(schema_store.tables[t].name, "all", 0, &all, &c);
	}
	/* the tasks with the threads, then every other table */
	for (unsigned t = SCHEMA_THREADS; t < SCHEMA_NTABLES; t++) {
		unsigned tables = t == SCHEMA_THREADS ?
				  1u << SCHEMA_TASKS | 1u << SCHEMA_THREADS :
				  1u << t;
		const struct codec_table *tb = &schema_store.tables[t];
		const char *name = t == SCHEMA_THREADS ? "tasks+threads" :
						       tb->name;

		c = encode_without(path, tables, 0);
		if (c.key_raw == all.key_raw)
			continue;       /* empty: its fields cost nothing */
		for (size_t f = 0; f < tb->nfields; f++) {
			if (tb->fields[f].flags & CODEC_KEY)
				continue;
			c = encode_without(path, tables, tb->fields[f].id);
			print_cost(name, tb->fields[f].name, tb->fields[f].id,
				   &all, &c);
		}
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: recsize -l idle|busy|many|machine [-N PROCS] "
		"[-d SECONDS] [-n SAMPLES] [-k KEY_EVERY] [-D DIR] "
		"[-o FILE] [-j FILE]\n       recsize -a FILE\n");
	exit(2);
}

/* A number option in [min, max], or a message and exit 2. */
static unsigned number(int opt, const char *s, unsigned long min,
		       unsigned long max)
{
	unsigned long v;

	if (numparse_ulong(s, min, max, &v) < 0) {
		fprintf(stderr, "recsize: -%c takes a whole number from %lu "
			"to %lu, not '%s'\n", opt, min, max, s);
		exit(2);
	}
	return (unsigned)v;
}

int main(int argc, char **argv)
{
	const char *load = NULL, *out = NULL, *analyse_file = NULL;
	const char *json_out = NULL;
	const char *dir = "/var/tmp";
	unsigned procs = 0, samples = 30, key_every = 60;
	double interval = 1;
	int c;

	while ((c = getopt(argc, argv, "a:d:D:j:k:l:n:N:o:")) != -1) {
		switch (c) {
		case 'a': analyse_file = optarg; break;
		case 'd':
			if (numparse_delay(optarg, &interval) < 0) {
				fprintf(stderr, "recsize: -d takes seconds from "
					"%g to %g, not '%s'\n", DELAY_MIN,
					DELAY_MAX, optarg);
				return 2;
			}
			break;
		case 'D': dir = optarg; break;
		case 'j': json_out = optarg; break;
		case 'k': key_every = number(c, optarg, 1, 100000); break;
		case 'l': load = optarg; break;
		case 'n': samples = number(c, optarg, 2, 1000000); break;
		case 'N': procs = number(c, optarg, 1, 20000); break;
		case 'o': out = optarg; break;
		default: usage();
		}
	}
	if (optind < argc)
		usage();
	if (analyse_file)
		return analyse(analyse_file);
	if (!load || (strcmp(load, "idle") && strcmp(load, "busy") &&
		      strcmp(load, "many") && strcmp(load, "machine"))) {
		fprintf(stderr, "recsize: -l takes idle, busy, many or "
			"machine\n");
		return 2;
	}
	if (!procs)
		procs = strcmp(load, "many") == 0 ? 500 : 100;
	return measure(load, procs, interval, samples, key_every, dir, out,
		       json_out);
}
