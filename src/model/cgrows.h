/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup row's figures from the task rows in it (and below it): per
 * category the summed share, events, the average rebuilt from summed
 * delay over summed events, and the longest wait, known only where every
 * task's is; and the whole row from its cgroup's readings at the sample
 * (store/sample.h: pressure totals, the kernel's counters). Pure:
 * model/cgmodel.c keeps the states of cgroups.
 */
#ifndef STALLTOP_CGROWS_H
#define STALLTOP_CGROWS_H

#include "model/sample.h"
#include "store/sample.h"

/*
 * Add task row r of an interval dt seconds long to cgroup row g.
 * max_unknown: bit c set once a task's longest wait of category c was
 * unknown (start each row with 0).
 */
void cgrows_add(struct cgroup_row *g, unsigned *max_unknown,
		const struct row *r, double dt);

/* What the model keeps of one cgroup between samples (the caller holds it). */
struct cgrows_state {
	struct psi_reading prev;  /* its pressure at the previous sample */
	bool have_prev;
	const char *name;         /* what operators call it (cgname_of its
				     path), made once by the caller */
};

/*
 * The rows of cgroups cg[0..n-1] of one sample into out[0..n-1]: each
 * one's path, name, depth, PSI shares since state[i]'s reading (which
 * its reading then replaces), its kernel counters, and the sums of the
 * task rows (rows, then exited: NULL for none) in it and below over dt
 * seconds; rows outside `within` (NULL: all) are left out.
 * max_unknown[0..n-1] is the scratch of cgrows_add.
 */
void cgrows_build(const struct store_cgroup *cg, struct cgrows_state *const *state,
		  size_t n, const struct row *rows, size_t nrows,
		  const struct row *exited, size_t nexited, double dt,
		  const char *within, struct cgroup_row *out,
		  unsigned *max_unknown);

/* The depth of a tree path: "/" 0, "/a" 1, "/a/b" 2. */
int cgrows_depth(const char *path);

#endif
