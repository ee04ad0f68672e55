/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wait channels kept once (wchan.h): a set of names by open addressing. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/sample.h"
#include "model/wchan.h"

/* Twice as many slots as names at most: a probe ends soon. */
#define WCHAN_SLOTS (2 * WCHAN_NAMES_MAX)

static char *slots[WCHAN_SLOTS];
static unsigned kept;

/* FNV-1a of the first n bytes of s. */
static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

const char *wchan_keep(const char *name)
{
	size_t n = strnlen(name, TASK_WCHAN_MAX - 1);
	uint32_t i;

	if (!n)
		return NULL;
	for (i = hash(name, n) % WCHAN_SLOTS; slots[i]; i = (i + 1) % WCHAN_SLOTS)
		if (strncmp(slots[i], name, n) == 0 && slots[i][n] == '\0')
			return slots[i];
	/* i is the free slot it goes in */
	if (kept >= WCHAN_NAMES_MAX || !(slots[i] = malloc(n + 1)))
		return NULL;
	memcpy(slots[i], name, n);
	slots[i][n] = '\0';
	kept++;
	return slots[i];
}
