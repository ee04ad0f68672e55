/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_inject: a process whose name and command line try to take over the
 * terminal that shows them, for the escape-injection test.
 *
 *   wl_inject
 *
 * Re-executes itself (through /proc/self/exe) with the arguments
 *   "-x"   ESC "]0;pwned" BEL   "line1" LF "line2"   "bad" 0xff 0xfe
 * i.e. an OSC 0 sequence (set the window title to "pwned"), a newline and
 * invalid UTF-8, then renames itself with prctl(PR_SET_NAME) to
 *   "i" ESC "]0;pwned" BEL LF 0xff
 * (13 bytes, within the 15 of a task name). Prints "ready" (flushed) and
 * sleeps until killed. The test reads the real bytes back from
 * /proc/PID/comm and /proc/PID/cmdline.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "-x") != 0) {
		char *args[] = {
			argv[0], "-x", "\033]0;pwned\007", "line1\nline2",
			"bad\377\376", NULL
		};
		execv("/proc/self/exe", args);
		perror("wl_inject: execv /proc/self/exe");
		return 1;
	}
	if (prctl(PR_SET_NAME, "i\033]0;pwned\007\n\377", 0, 0, 0) < 0) {
		perror("wl_inject: prctl(PR_SET_NAME)");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
