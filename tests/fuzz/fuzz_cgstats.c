/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: cgroupstats replies (cgstats_decode), the input being one
 * netlink message as the kernel would send it. Checks that a decoded
 * reply has all five kernel counters and nothing else, that a failure
 * leaves everything absent, and that the input is never read past its
 * size (the runner passes a buffer of exactly that size).
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "kernel/cgstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgstats s;

	errno = 0;
	if (cgstats_decode(data, size, &s) == 0) {
		FUZZ_CHECK(s.source == CGSTATS_KERNEL);
		FUZZ_CHECK(s.nr_running.have && s.nr_sleeping.have &&
			   s.nr_stopped.have && s.nr_uninterruptible.have &&
			   s.nr_io_wait.have && !s.nr_tasks.have);
		FUZZ_CHECK(!s.nr_running.max && !s.nr_io_wait.max);
	} else {
		struct cgstats zero;

		memset(&zero, 0, sizeof(zero));
		FUZZ_CHECK(errno != 0);
		FUZZ_CHECK(memcmp(&s, &zero, sizeof(s)) == 0);
	}
	return 0;
}
