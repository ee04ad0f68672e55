/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rusage: run a command and report what it cost, from wait4(): user and
 * system CPU time in microseconds (the kernel's exact runtime, not clock
 * ticks as /proc/PID/stat or /usr/bin/time show) and peak RSS (ru_maxrss,
 * the same high-water mark as VmHWM). SIGTERM, SIGINT and SIGHUP are
 * passed on to the command, so stopping the wrapper stops it cleanly.
 *
 * Output, one line: user_us=U sys_us=S cpu_us=U+S maxrss_kb=K
 *                   wall_us=W status=EXIT
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t child_pid;

static void usage(FILE *out, int status)
{
	fputs("Usage: rusage [-o FILE] COMMAND [ARG...]\n"
	      "\n"
	      "Run COMMAND and report its CPU time and peak RSS (from wait4).\n"
	      "\n"
	      "Options:\n"
	      " -o, --output FILE   write the report to FILE (default stderr)\n"
	      " -h, --help          show this help and exit\n", out);
	exit(status);
}

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static double wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *output = NULL;
	int c;

	/* options end at the command */
	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind == argc)
		usage(stderr, 2);

	FILE *out = stderr;
	if (output && !(out = fopen(output, "we")))
		err(2, "%s", output);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	double w0 = wall_us();
	pid_t p = fork();
	if (p < 0)
		err(2, "fork");
	if (p == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[optind], argv + optind);
		err(127, "%s", argv[optind]);
	}
	child_pid = p;

	int status;
	struct rusage ru;
	while (wait4(p, &status, 0, &ru) < 0)
		if (errno != EINTR)
			err(2, "wait4");
	double wall = wall_us() - w0;
	int code = WIFEXITED(status) ? WEXITSTATUS(status)
				     : 128 + WTERMSIG(status);
	long long u = tv_us(ru.ru_utime), s = tv_us(ru.ru_stime);
	fprintf(out, "user_us=%lld sys_us=%lld cpu_us=%lld maxrss_kb=%ld "
		"wall_us=%.0f status=%d\n", u, s, u + s, ru.ru_maxrss, wall, code);
	if (out != stderr && fclose(out) != 0)
		err(2, "%s", output);
	return code;
}
