/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PSI triggers: "RESOURCE:some|full:STALL_MS/WINDOW_MS" written to a
 * /proc/pressure file; the kernel then signals POLLPRI on that descriptor
 * whenever the stall exceeds STALL within a WINDOW.
 */
#ifndef STALLTOP_PSI_TRIGGER_H
#define STALLTOP_PSI_TRIGGER_H

#include <stddef.h>

#include "kernel/psi.h"

struct psi_trigger {
	enum psi_res res;
	enum psi_kind kind;
	unsigned stall_ms;
	unsigned window_ms;
	int fd;              /* -1 until armed */
	char label[64];      /* "memory some 150ms/1s", as the JSON shows it */
};

/*
 * Parse a trigger spec. Returns 0, or -1 with a translated reason in err
 * (naming the expected form).
 */
int psi_trigger_parse(const char *spec, struct psi_trigger *t, char *err,
		      size_t errsize);

/*
 * Arm it: open dir/<resource> read-write, write the trigger. Returns 0, or
 * -1 with a translated reason in err (e.g. unprivileged windows must be
 * multiples of 2 s; PSI absent).
 */
int psi_trigger_arm(struct psi_trigger *t, const char *dir, char *err,
		    size_t errsize);

/* Acknowledge a POLLPRI (nothing to read) and say whether it was one. */
int psi_trigger_fired(const struct psi_trigger *t, unsigned revents);

void psi_trigger_close(struct psi_trigger *t);

#endif
