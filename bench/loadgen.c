/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen: a synthetic load for the benchmark. Starts PROCS processes of
 * THREADS threads each (main thread included), every thread asleep, prints
 * the processes' ids once every thread exists, and holds them until it is
 * told to stop (SIGTERM, SIGINT, SIGHUP). The children die with it even
 * when it is killed (PR_SET_PDEATHSIG).
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/numparse.h"

/* Small stacks: 10,000 threads must not need 80 GB of address space. */
#define STACK_BYTES (64 * 1024)

static unsigned long wake_ms; /* 0: sleep for good */

static void usage(FILE *out, int status)
{
	fputs("Usage: loadgen [options]\n"
	      "\n"
	      "Start sleeping processes and threads for the benchmark, print the\n"
	      "processes' ids (one a line) when every thread exists, and keep them\n"
	      "until SIGTERM, SIGINT or SIGHUP.\n"
	      "\n"
	      "Options:\n"
	      " -p, --procs N      processes (default 100)\n"
	      " -t, --threads N    threads per process, main thread included\n"
	      "                    (default 100)\n"
	      " -w, --wake MS      each thread wakes every MS milliseconds instead\n"
	      "                    of sleeping for good (default 0: never)\n"
	      " -h, --help         show this help and exit\n", out);
	exit(status);
}

static void nap(void)
{
	if (!wake_ms) {
		for (;;)
			pause();
	}
	struct timespec ts = { (time_t)(wake_ms / 1000),
			       (long)(wake_ms % 1000) * 1000000L };
	for (;;)
		nanosleep(&ts, NULL);
}

static void *sleeper(void *arg)
{
	(void)arg;
	nap();
	return NULL;
}

/* One load process: threads - 1 sleepers, then report and sleep too. */
static void child(pid_t parent, unsigned long threads, int ready_fd)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		err(1, "prctl");
	if (getppid() != parent)
		_exit(0); /* the parent is already gone */

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_BYTES);
	for (unsigned long i = 1; i < threads; i++) {
		pthread_t t;
		int e = pthread_create(&t, &attr, sleeper, NULL);
		if (e) {
			errno = e;
			err(1, "pthread_create (thread %lu)", i);
		}
	}
	pthread_attr_destroy(&attr);
	char c = 1;
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	nap();
}

static void kill_all(pid_t *kids, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	for (unsigned long i = 0; i < n; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "procs", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "wake", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long procs = 100, threads = 100;
	int c;

	while ((c = getopt_long(argc, argv, "p:t:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (numparse_ulong(optarg, 1, 100000, &procs) < 0)
				errx(2, "invalid process count: %s", optarg);
			break;
		case 't':
			if (numparse_ulong(optarg, 1, 1000000, &threads) < 0)
				errx(2, "invalid thread count: %s", optarg);
			break;
		case 'w':
			if (numparse_ulong(optarg, 0, 3600000, &wake_ms) < 0)
				errx(2, "invalid wake period: %s", optarg);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc)
		usage(stderr, 2);

	/* hold the stop signals until everything is up */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop, NULL);

	pid_t *kids = calloc(procs, sizeof(*kids));
	if (!kids)
		err(1, "calloc");
	int ready[2];
	if (pipe(ready) < 0)
		err(1, "pipe");
	pid_t self = getpid();
	for (unsigned long i = 0; i < procs; i++) {
		pid_t p = fork();
		if (p < 0) {
			warn("fork");
			kill_all(kids, i);
			return 1;
		}
		if (p == 0) {
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			close(ready[0]);
			child(self, threads, ready[1]);
			_exit(0);
		}
		kids[i] = p;
	}
	close(ready[1]);
	for (unsigned long got = 0; got < procs;) {
		char buf[256];
		ssize_t n = read(ready[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			warnx("a load process failed to start");
			kill_all(kids, procs);
			return 1;
		}
		got += (unsigned long)n;
	}
	close(ready[0]);
	for (unsigned long i = 0; i < procs; i++)
		printf("%d\n", (int)kids[i]);
	if (fflush(stdout) != 0)
		warn("stdout");
	fclose(stdout);

	/* wait for a stop signal, or a load process that died */
	int sig;
	do
		sig = sigwaitinfo(&stop, NULL);
	while (sig < 0 && errno == EINTR);
	if (sig == SIGCHLD)
		warnx("a load process ended on its own");
	kill_all(kids, procs);
	free(kids);
	return sig == SIGCHLD;
}
