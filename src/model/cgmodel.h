/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the model keeps of each cgroup from sample to sample, for both
 * producers (live/cgtable.c, model/engine.c): per cgroup path its
 * pressure before and its name (model/cgrows.h), its row's evidence
 * before (model/rowev.h). A cgroup the sample at hand does not use is
 * forgotten with them (cgmodel_sweep).
 *
 *     cgmodel_begin(m)              a new sample
 *     cgmodel_use(m, path)          a cgroup in it
 *     cgmodel_rows(m, cg, n, ...)   its cgroup rows
 *     cgmodel_evidence(m, g, ...)   a row's evidence and causes
 */
#ifndef STALLTOP_CGMODEL_H
#define STALLTOP_CGMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/rowev.h"
#include "model/sample.h"
#include "store/sample.h"

struct cgmodel;

struct cgmodel *cgmodel_new(void); /* NULL: ENOMEM */
void cgmodel_free(struct cgmodel *m);
void cgmodel_reset(struct cgmodel *m); /* every cgroup forgotten */
void cgmodel_begin(struct cgmodel *m);

/* The cgroup at path is in the sample (made when new). 0, or -1 (ENOMEM). */
int cgmodel_use(struct cgmodel *m, const char *path);

/* Forget the cgroups not used since cgmodel_begin. */
void cgmodel_sweep(struct cgmodel *m);

/* The cgroups kept, in the order of their paths (strcmp). */
size_t cgmodel_count(const struct cgmodel *m);
const char *cgmodel_path(const struct cgmodel *m, size_t i);

/*
 * The rows of the cgroups read at the sample, cg[0..n-1], in that order
 * (those without a path or outside `within`, NULL: all, left out; each
 * used): cgrows_build's, with the task rows (then exited, NULL for none)
 * over dt seconds; then the sweep. *out (*nout rows, their paths the
 * model's) stays valid until the next call. 0, or -1 (ENOMEM).
 */
int cgmodel_rows(struct cgmodel *m, const struct store_cgroup *cg, size_t n,
		 const struct row *rows, size_t nrows,
		 const struct row *exited, size_t nexited, double dt,
		 const char *within, struct cgroup_row **out, size_t *nout);

/* cg[0..n-1], as cgmodel_rows takes them: the next interval's base. */
int cgmodel_prime(struct cgmodel *m, const struct store_cgroup *cg, size_t n,
		  const char *within);

/* Whether g's evidence of round was made; then g->why points to it. */
bool cgmodel_why_have(const struct cgmodel *m, struct cgroup_row *g,
		      uint64_t round);

/*
 * Cgroup row g's evidence and causes from its reading cur and the one
 * before (rowev_cgroup; the cgroup made when new): g->why, valid until
 * the sweep that forgets the cgroup. 0, or -1 (ENOMEM).
 */
int cgmodel_evidence(struct cgmodel *m, struct cgroup_row *g,
		     const struct store_evidence *cur,
		     const struct rowev_input *in);

#endif
