/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the text of a /proc/pressure file (psi_parse). The input
 * is split at its first NUL: the part before is the previous reading and
 * the part after the current one (all of it both when there is no NUL),
 * and delta_psi combines them. Checks that the count returned is the
 * count of lines present, that absent lines are all zero, that averages
 * are finite and not negative, and that shares are within 0..100.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "kernel/psi.h"
#include "model/delta.h"

static void check_lines(const struct psi_line line[NPSI_KIND], int found)
{
	int present = 0;

	FUZZ_CHECK(found >= 0 && found <= NPSI_KIND);
	for (int k = 0; k < NPSI_KIND; k++) {
		const struct psi_line *l = &line[k];

		if (!l->present) {
			FUZZ_CHECK(l->avg10 == 0 && l->avg60 == 0 &&
				   l->avg300 == 0 && l->total_us == 0);
			continue;
		}
		present++;
		FUZZ_CHECK(isfinite(l->avg10) && l->avg10 >= 0);
		FUZZ_CHECK(isfinite(l->avg60) && l->avg60 >= 0);
		FUZZ_CHECK(isfinite(l->avg300) && l->avg300 >= 0);
	}
	FUZZ_CHECK(present == found);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	size_t first = strlen(text);
	const char *second = first < size ? text + first + 1 : text;
	struct psi_reading prev, cur;
	struct psi_sample out;

	memset(&prev, 0, sizeof(prev));
	memset(&cur, 0, sizeof(cur));
	prev.when = 100.0;
	cur.when = 101.5;
	check_lines(prev.line[PSI_CPU], psi_parse(text, prev.line[PSI_CPU]));
	check_lines(cur.line[PSI_CPU], psi_parse(second, cur.line[PSI_CPU]));
	/* the same text into the other files, and a file whose read failed */
	memcpy(prev.line[PSI_IO], cur.line[PSI_CPU], sizeof(prev.line[PSI_IO]));
	memcpy(cur.line[PSI_IO], prev.line[PSI_CPU], sizeof(cur.line[PSI_IO]));
	memcpy(cur.line[PSI_MEMORY], cur.line[PSI_CPU],
	       sizeof(cur.line[PSI_MEMORY]));
	check_lines(cur.line[PSI_IRQ], psi_parse(NULL, cur.line[PSI_IRQ]));

	delta_psi(&prev, &cur, &out);
	for (int r = 0; r < NPSI; r++) {
		for (int k = 0; k < NPSI_KIND; k++) {
			const struct psi_stat *st = &out.s[r][k];

			FUZZ_CHECK(st->present == cur.line[r][k].present);
			if (st->have_pct)
				FUZZ_CHECK(st->present && isfinite(st->pct) &&
					   st->pct >= 0 && st->pct <= 100);
			else
				FUZZ_CHECK(st->pct == 0);
		}
	}
	delta_psi(NULL, &cur, &out);
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++)
			FUZZ_CHECK(!out.s[r][k].have_pct);
	free(text);
	return 0;
}
