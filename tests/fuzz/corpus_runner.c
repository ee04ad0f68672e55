/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run a fuzz target over saved inputs without libFuzzer, so the targets
 * build with any compiler and the corpus is run by `make check` (and
 * under valgrind or the sanitizers).
 *
 *   fuzz_<target>_corpus [FILE|DIR]...
 *
 * Without arguments the target's committed corpus is used:
 * FUZZ_CORPUS_DIR/<target>, the target's name taken from the program's.
 * Each file is passed in a buffer of exactly its size, so that an
 * over-read shows under valgrind and ASan. Files in a directory go in
 * name order; names starting with '.' are skipped. Exit 0 when every
 * input ran, 99 when an input could not be read or there was none.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long ran;

static void __attribute__((noreturn)) fail(const char *what, const char *path)
{
	fprintf(stderr, "corpus_runner: %s: %s: %s\n", what, path,
		strerror(errno));
	exit(99);
}

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	size_t n;

	if (!f)
		fail("cannot open", path);
	if (fstat(fileno(f), &st) < 0)
		fail("cannot stat", path);
	n = (size_t)st.st_size;
	/* malloc(0) may return NULL: keep a valid pointer for empty files */
	buf = malloc(n ? n : 1);
	if (!buf)
		fail("out of memory for", path);
	if (n && fread(buf, 1, n, f) != n)
		fail("cannot read", path);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	ran++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void run_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	int n;

	if (stat(path, &st) < 0)
		fail("cannot stat", path);
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	n = scandir(path, &names, not_hidden, by_name);
	if (n < 0)
		fail("cannot list", path);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
		char *file = malloc(len);

		if (!file)
			fail("out of memory for", path);
		snprintf(file, len, "%s/%s", path, names[i]->d_name);
		run_file(file);
		free(file);
		free(names[i]);
	}
	free(names);
}

/* fuzz_<target>_corpus runs FUZZ_CORPUS_DIR/<target> */
static void run_own_corpus(const char *argv0)
{
	static const char prefix[] = "fuzz_", suffix[] = "_corpus";
	const char *name = strrchr(argv0, '/');
	char dir[4096];

	name = name ? name + 1 : argv0;
	size_t len = strlen(name);
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0 ||
	    len <= sizeof(prefix) + sizeof(suffix) - 2 ||
	    strcmp(name + len - (sizeof(suffix) - 1), suffix) != 0) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv0);
		exit(2);
	}
	snprintf(dir, sizeof(dir), "%s/%.*s", FUZZ_CORPUS_DIR,
		 (int)(len - (sizeof(prefix) - 1) - (sizeof(suffix) - 1)),
		 name + sizeof(prefix) - 1);
	run_path(dir);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		run_own_corpus(argv[0]);
	for (int i = 1; i < argc; i++)
		run_path(argv[i]);
	if (ran == 0) {
		fprintf(stderr, "corpus_runner: no inputs\n");
		return 99;
	}
	printf("corpus_runner: %lu inputs ran\n", ran);
	return 0;
}
