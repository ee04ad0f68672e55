/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pressure Stall Information. A pressure file holds up to two lines,
 *   some avg10=1.23 avg60=0.45 avg300=0.06 total=123456
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 * (irq has only "full", cpu has "full" since 5.13). Parsing is strict per
 * line and independent of the locale; reading is one open/read/close per
 * file into a fixed buffer.
 */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/psi.h"

const char *const psi_res_name[NPSI] = {
	[PSI_CPU] = "cpu",
	[PSI_MEMORY] = "memory",
	[PSI_IO] = "io",
	[PSI_IRQ] = "irq",
};

const char *const psi_kind_name[NPSI_KIND] = {
	[PSI_SOME] = "some",
	[PSI_FULL] = "full",
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool token_is(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) == n && memcmp(p, word, n) == 0;
}

/*
 * "12.34" or "12": digits, optionally a point and more digits, at most 19
 * digits in all. The value is the integer of all digits divided by a power
 * of ten, so "1.23" gives the same double as the literal 1.23.
 */
static bool parse_avg(const char *p, const char *end, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	};
	uint64_t mant = 0;
	int ndig = 0, nfrac = 0;
	bool dot = false;

	for (; p < end; p++) {
		if (*p == '.' && !dot && ndig > 0) {
			dot = true;
			continue;
		}
		if (!is_digit(*p) || ++ndig > 19)
			return false;
		mant = mant * 10 + (uint64_t)(*p - '0');
		if (dot)
			nfrac++;
	}
	if (ndig == 0 || (dot && nfrac == 0))
		return false;
	*out = (double)mant / pow10[nfrac];
	return true;
}

enum { HAVE_AVG10 = 1, HAVE_AVG60 = 2, HAVE_AVG300 = 4, HAVE_TOTAL = 8,
       HAVE_ALL = 15 };

/*
 * One line [p, end). Fields are key=value separated by blanks; unknown keys
 * are skipped, a known key with a bad value, a repeated known key, a token
 * without '=' or a missing field rejects the line.
 */
static bool parse_line(const char *p, const char *end, int *kind,
		       struct psi_line *l)
{
	const char *tok;
	unsigned have = 0;

	while (p < end && is_blank(*p))
		p++;
	tok = p;
	while (p < end && !is_blank(*p))
		p++;
	if (token_is(tok, p, "some"))
		*kind = PSI_SOME;
	else if (token_is(tok, p, "full"))
		*kind = PSI_FULL;
	else
		return false;

	for (;;) {
		const char *eq;
		unsigned bit;
		bool ok;

		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		tok = p;
		while (p < end && !is_blank(*p))
			p++;
		eq = memchr(tok, '=', (size_t)(p - tok));
		if (!eq || eq == tok)
			return false;
		if (token_is(tok, eq, "avg10")) {
			bit = HAVE_AVG10;
			ok = parse_avg(eq + 1, p, &l->avg10);
		} else if (token_is(tok, eq, "avg60")) {
			bit = HAVE_AVG60;
			ok = parse_avg(eq + 1, p, &l->avg60);
		} else if (token_is(tok, eq, "avg300")) {
			bit = HAVE_AVG300;
			ok = parse_avg(eq + 1, p, &l->avg300);
		} else if (token_is(tok, eq, "total")) {
			bit = HAVE_TOTAL;
			ok = kval_parse_u64(eq + 1, p, &l->total_us);
		} else {
			continue;
		}
		if (!ok || (have & bit))
			return false;
		have |= bit;
	}
	return have == HAVE_ALL;
}

int psi_parse(const char *text, struct psi_line line[NPSI_KIND])
{
	int found = 0;

	for (int k = 0; k < NPSI_KIND; k++)
		memset(&line[k], 0, sizeof(line[k]));
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		struct psi_line l = { 0 };
		int kind;

		if (parse_line(text, end, &kind, &l)) {
			l.present = true;
			line[kind] = l;
		}
		text = nl ? nl + 1 : end;
	}
	for (int k = 0; k < NPSI_KIND; k++)
		found += line[k].present;
	return found;
}

/* The text of a pressure file read (n bytes) into line[]. */
static bool parse_read(char *buf, ssize_t n, size_t size,
		       struct psi_line line[NPSI_KIND])
{
	if (n <= 0)
		return false;
	if ((size_t)n == size - 1) {
		/* Longer than any real file: drop a cut-off last line. */
		char *nl = strrchr(buf, '\n');

		if (nl)
			nl[1] = '\0';
	}
	psi_parse(buf, line);
	return true;
}

bool psi_read_file(int dirfd, const char *name, struct psi_line line[NPSI_KIND])
{
	char buf[512];

	return parse_read(buf, procfs_read_lines(dirfd, name, buf, sizeof(buf)),
			  sizeof(buf), line);
}

void psi_open(const char *dir, const char *suffix, struct psi_files *f)
{
	for (int r = 0; r < NPSI; r++) {
		char path[4096];
		int len = dir ? snprintf(path, sizeof(path), "%s/%s%s", dir,
					 psi_res_name[r], suffix) : -1;

		f->fd[r] = len > 0 && (size_t)len < sizeof(path) ?
			   procfs_open(AT_FDCWD, path) : -1;
	}
}

void psi_read_open(const struct psi_files *f, struct psi_reading *out)
{
	struct timespec ts;

	memset(out, 0, sizeof(*out));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	out->when = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;

	for (int r = 0; r < NPSI; r++) {
		char buf[512];

		if (f->fd[r] >= 0)
			parse_read(buf, procfs_reread_lines(f->fd[r], buf,
							    sizeof(buf)),
				   sizeof(buf), out->line[r]);
	}
}

void psi_close(struct psi_files *f)
{
	for (int r = 0; r < NPSI; r++) {
		if (f->fd[r] >= 0)
			close(f->fd[r]);
		f->fd[r] = -1;
	}
}

void psi_read_dir(const char *dir, const char *suffix, struct psi_reading *out)
{
	struct psi_files f;

	psi_open(dir, suffix, &f);
	psi_read_open(&f, out);
	psi_close(&f);
}
