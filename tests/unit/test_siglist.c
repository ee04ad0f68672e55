/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kill key's list of signals: by number, each once, each name the
 * C library's own abbreviation of that number (sigabbrev_np), the
 * common ones there, SIGTERM chosen first.
 */
#include <config.h>

#include <signal.h>
#include <string.h>

#include "view/siglist.h"
#include "unit.h"

int main(void)
{
	size_t n;
	const struct siglist_entry *l = siglist_all(&n);
	CHECK(n >= 15);
	for (size_t i = 0; i < n; i++) {
		if (i)
			CHECK(l[i].sig > l[i - 1].sig);
		const char *abbrev = sigabbrev_np(l[i].sig);
		CHECK(abbrev != NULL);
		if (abbrev && strcmp(abbrev, l[i].name) != 0 &&
		    !(l[i].sig == SIGIO && strcmp(abbrev, "POLL") == 0)) {
			fprintf(stderr, "signal %d listed as %s, the C library "
				"calls it %s\n", l[i].sig, l[i].name, abbrev);
			CHECK(!"a name that is not the signal's");
		}
		CHECK_EQ_U(siglist_index(l[i].sig), i);
		CHECK_STR(siglist_name(l[i].sig), l[i].name);
	}
	static const int common[] = { SIGHUP, SIGINT, SIGQUIT, SIGKILL, SIGUSR1,
				      SIGUSR2, SIGTERM, SIGCONT, SIGSTOP };
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		CHECK(siglist_index(common[i]) >= 0);
	CHECK_EQ_U(l[siglist_default()].sig, SIGTERM);
	CHECK(siglist_index(0) < 0);
	CHECK(siglist_name(NSIG) == NULL);
	return unit_done();
}
