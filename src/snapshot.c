/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Deep copies of samples. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

static size_t str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

static size_t rows_strings(const struct row *r, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += str_size(r[i].comm) + str_size(r[i].cmdline) +
			 str_size(r[i].user);
	return total;
}

static const char *put(char **pos, const char *s)
{
	if (!s)
		return NULL;
	size_t len = strlen(s) + 1;
	char *at = *pos;
	memcpy(at, s, len);
	*pos += len;
	return at;
}

static struct row *copy_rows(const struct row *src, size_t n, char **pos)
{
	struct row *rows = malloc((n ? n : 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	if (n)
		memcpy(rows, src, n * sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		rows[i].comm = put(pos, src[i].comm);
		rows[i].cmdline = put(pos, src[i].cmdline);
		rows[i].user = put(pos, src[i].user);
	}
	return rows;
}

int snapshot_copy(struct snapshot *dst, const struct sample *src)
{
	struct snapshot n = { .s = *src };
	size_t bytes = rows_strings(src->rows, src->nrows) +
		       rows_strings(src->exited, src->nexited);
	n.strings = malloc(bytes ? bytes : 1);
	if (!n.strings)
		return -1;
	char *pos = n.strings;
	n.s.rows = copy_rows(src->rows, src->nrows, &pos);
	n.s.exited = copy_rows(src->exited, src->nexited, &pos);
	if (!n.s.rows || !n.s.exited) {
		snapshot_free(&n);
		return -1;
	}
	snapshot_free(dst);
	*dst = n;
	return 0;
}

void snapshot_free(struct snapshot *snap)
{
	free(snap->s.rows);
	free(snap->s.exited);
	free(snap->strings);
	memset(snap, 0, sizeof(*snap));
}
