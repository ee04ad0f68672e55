/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: a recording of store samples read back whole
 * (src/record/storefile.c over the store's schema, src/store/schema.c),
 * the input as a file. Checks, besides memory safety: the reader ends (0)
 * or fails with a message; every sample handed out has its arrays where
 * it says it has rows, strings that end inside their fields (comm, user
 * and wchan within theirs, cmdline and cgroup paths within
 * SCHEMA_PATH_MAX), tasks with a known id; and written again to a new
 * file and read back, it is the same sample (ids, clocks, counters,
 * strings). The index of the same file (src/record/storeindex.c, which
 * checks records without inflating them): entries in file order inside
 * the file, every sample the reader handed out at an entry, and a reader
 * sent to each key frame (storefile_seek) hands out that entry's sample
 * or nothing, never another.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "record/storefile.h"
#include "record/storeindex.h"
#include "store/schema.h"

static void check_task(const struct store_task *k)
{
	FUZZ_CHECK(k->comm && strnlen(k->comm, SCHEMA_NAME_MAX) < SCHEMA_NAME_MAX);
	FUZZ_CHECK(k->user && strnlen(k->user, SCHEMA_NAME_MAX) < SCHEMA_NAME_MAX);
	FUZZ_CHECK(k->cmdline &&
		   strnlen(k->cmdline, SCHEMA_PATH_MAX) < SCHEMA_PATH_MAX);
	FUZZ_CHECK(!k->cgroup ||
		   strnlen(k->cgroup, SCHEMA_PATH_MAX) < SCHEMA_PATH_MAX);
	FUZZ_CHECK(memchr(k->wchan, '\0', sizeof(k->wchan)) != NULL);
}

static void check_sample(const struct store_sample *s)
{
	FUZZ_CHECK(!s->ntasks || s->tasks);
	FUZZ_CHECK(!s->nthread_tasks || s->thread_tasks);
	FUZZ_CHECK(!s->ncgroups || s->cgroups);
	for (size_t i = 0; i < s->ntasks; i++)
		check_task(&s->tasks[i]);
	for (size_t i = 0; i < s->nthread_tasks; i++)
		check_task(&s->thread_tasks[i]);
	for (size_t i = 0; i < s->ncgroups; i++)
		FUZZ_CHECK(s->cgroups[i].path &&
			   strnlen(s->cgroups[i].path, SCHEMA_PATH_MAX) <
			   SCHEMA_PATH_MAX);
	FUZZ_CHECK(!s->trigger || strnlen(s->trigger, SCHEMA_NAME_MAX) <
		   SCHEMA_NAME_MAX);
}

static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static void check_tasks_same(const struct store_task *a,
			     const struct store_task *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(a[i].r.id == b[i].r.id && a[i].r.start == b[i].r.start);
		FUZZ_CHECK(a[i].r.flags == b[i].r.flags);
		FUZZ_CHECK(a[i].r.run_ns == b[i].r.run_ns);
		FUZZ_CHECK(memcmp(a[i].r.d, b[i].r.d, sizeof(a[i].r.d)) == 0);
		FUZZ_CHECK(same_bits(a[i].r.at, b[i].r.at));
		FUZZ_CHECK(same_bits(a[i].r.age, b[i].r.age));
		FUZZ_CHECK(strcmp(a[i].comm, b[i].comm) == 0);
		FUZZ_CHECK(strcmp(a[i].cmdline, b[i].cmdline) == 0);
	}
}

/* s written to a new file and read back: the same. */
static void check_again(const struct store_sample *s)
{
	int fd = memfd_create("again", MFD_CLOEXEC);
	struct storefile_writer *w;
	struct storefile_reader *r;
	struct store_sample back;
	char err[256];

	FUZZ_CHECK(fd >= 0);
	w = storefile_writer_open(fd, "fuzz", 0, 0);
	FUZZ_CHECK(w && storefile_write(w, s) == 0);
	storefile_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	r = storefile_reader_new(fd);
	FUZZ_CHECK(r && storefile_next(r, &back, err, sizeof(err)) == 1);
	FUZZ_CHECK(same_bits(back.time, s->time) && same_bits(back.mono, s->mono));
	FUZZ_CHECK(back.ntasks == s->ntasks);
	FUZZ_CHECK(back.nthread_tasks == s->nthread_tasks);
	FUZZ_CHECK(back.ncgroups == s->ncgroups);
	check_tasks_same(back.tasks, s->tasks, s->ntasks);
	check_tasks_same(back.thread_tasks, s->thread_tasks, s->nthread_tasks);
	storefile_reader_free(r);
	close(fd);
}

/* Is offset an entry of ix? */
static bool indexed(const struct storeindex *ix, uint64_t offset)
{
	for (size_t i = 0; i < ix->n; i++)
		if (ix->e[i].offset == offset)
			return true;
	return false;
}

/* The index of fd's file and seeking by it; seen: the samples' offsets. */
static void check_index(int fd, size_t size, const uint64_t *seen, size_t nseen)
{
	struct storeindex ix;
	struct store_sample s;
	char err[256] = "";

	lseek(fd, 0, SEEK_SET);
	if (storeindex_build(&ix, fd, 1u << 20, -1, err, sizeof(err)) < 0) {
		FUZZ_CHECK(*err);
		return;
	}
	for (size_t i = 0; i < ix.n; i++)
		FUZZ_CHECK(ix.e[i].offset < size &&
			   (i == 0 || ix.e[i].offset > ix.e[i - 1].offset));
	for (size_t i = 0; i < nseen; i++)
		FUZZ_CHECK(indexed(&ix, seen[i]));
	struct storefile_reader *r = storefile_reader_new(fd);
	FUZZ_CHECK(r);
	for (size_t i = 0; i < ix.n; i++) {
		if (!ix.e[i].key)
			continue;
		FUZZ_CHECK(storefile_seek(r, ix.e[i].offset) == 0);
		if (storefile_next(r, &s, err, sizeof(err)) == 1)
			FUZZ_CHECK(storefile_offset(r) >= ix.e[i].offset &&
				   indexed(&ix, storefile_offset(r)));
	}
	storefile_reader_free(r);
	storeindex_free(&ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t seen[64];
	size_t nseen = 0;
	int fd = memfd_create("storefile", MFD_CLOEXEC);
	struct storefile_reader *r;
	struct store_sample s;
	char err[256] = "";
	int rc;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	lseek(fd, 0, SEEK_SET);
	r = storefile_reader_new(fd);
	FUZZ_CHECK(r);
	while ((rc = storefile_next(r, &s, err, sizeof(err))) == 1) {
		if (nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = storefile_offset(r);
		check_sample(&s);
		check_again(&s);
	}
	FUZZ_CHECK(rc == 0 || (rc == -1 && *err));
	storefile_reader_free(r);
	check_index(fd, size, seen, nseen);
	close(fd);
	return 0;
}
