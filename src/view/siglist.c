/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The signals offered by the kill key (k, F9). */
#include <config.h>

#include <signal.h>

#include "view/siglist.h"

/* By number (x86 and arm numbering alike for all of these). */
static const struct siglist_entry list[] = {
	{ SIGHUP, "HUP" },   { SIGINT, "INT" },   { SIGQUIT, "QUIT" },
	{ SIGILL, "ILL" },   { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
	{ SIGBUS, "BUS" },   { SIGFPE, "FPE" },   { SIGKILL, "KILL" },
	{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
	{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
	{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
	{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
	{ SIGURG, "URG" },   { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
	{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" }, { SIGWINCH, "WINCH" },
	{ SIGIO, "IO" },     { SIGPWR, "PWR" },   { SIGSYS, "SYS" },
};

#define NLIST (sizeof(list) / sizeof(list[0]))

const struct siglist_entry *siglist_all(size_t *n)
{
	*n = NLIST;
	return list;
}

int siglist_index(int sig)
{
	for (size_t i = 0; i < NLIST; i++)
		if (list[i].sig == sig)
			return (int)i;
	return -1;
}

size_t siglist_default(void)
{
	return (size_t)siglist_index(SIGTERM);
}

const char *siglist_name(int sig)
{
	int i = siglist_index(sig);
	return i < 0 ? NULL : list[i].name;
}
