/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PSI triggers: parsing of good and bad specs (every reason names the
 * expected form), labels, POLLPRI/POLLERR handling, error reasons for a
 * missing PSI or resource; then live: a 500 ms window on
 * /proc/pressure/memory (armed with CAP_SYS_RESOURCE, refused with the
 * 2 s reason without it, also checked in a child that drops it), what
 * privs_effective says against /proc/self/status, and a
 * cpu trigger that really fires under CPU contention (two busy children
 * pinned to each CPU). The live part takes the live tests' lock; without
 * PSI it is skipped (77) and says so.
 */
#include <config.h>

#include <errno.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/privs.h"
#include "kernel/psi_trigger.h"
#include "unit.h"

#define FORM "RESOURCE:some|full:STALL_MS/WINDOW_MS"

static void good(const char *spec, enum psi_res res, enum psi_kind kind,
		 unsigned stall, unsigned window, const char *label)
{
	struct psi_trigger t;
	char err[256] = "";

	memset(&t, 0x5a, sizeof(t));
	CHECK(psi_trigger_parse(spec, &t, err, sizeof(err)) == 0);
	CHECK_STR(err, "");
	CHECK(t.res == res);
	CHECK(t.kind == kind);
	CHECK_EQ_U(t.stall_ms, stall);
	CHECK_EQ_U(t.window_ms, window);
	CHECK(t.fd == -1);
	CHECK_STR(t.label, label);
}

/* A bad spec: rejected, with the form and (if given) a reason in err. */
static void bad(const char *spec, const char *reason)
{
	struct psi_trigger t;
	char err[512] = "";

	unit_checks++;
	if (psi_trigger_parse(spec, &t, err, sizeof(err)) != -1) {
		unit_failures++;
		fprintf(stderr, "accepted bad trigger \"%s\"\n", spec);
		return;
	}
	if (!strstr(err, FORM) || (reason && !strstr(err, reason))) {
		unit_failures++;
		fprintf(stderr, "trigger \"%s\": reason \"%s\" lacks \"%s\"\n",
			spec, err, reason ? reason : FORM);
	}
}

static void test_parse(void)
{
	char err[16];
	struct psi_trigger t;

	good("memory:some:150/1000", PSI_MEMORY, PSI_SOME, 150, 1000,
	     "memory some 150ms/1s");
	good("cpu:full:500/500", PSI_CPU, PSI_FULL, 500, 500,
	     "cpu full 500ms/500ms");
	good("io:some:2000/10000", PSI_IO, PSI_SOME, 2000, 10000,
	     "io some 2000ms/10s");
	good("irq:full:1/2000", PSI_IRQ, PSI_FULL, 1, 2000, "irq full 1ms/2s");
	good("memory:full:1500/1500", PSI_MEMORY, PSI_FULL, 1500, 1500,
	     "memory full 1500ms/1500ms");
	good("cpu:some:0050/01000", PSI_CPU, PSI_SOME, 50, 1000,
	     "cpu some 50ms/1s");

	bad("", "for example");
	bad("memory", "for example");
	bad("memory:some", "for example");
	bad("memory:some:150", "for example");
	bad("memory:some:150/1000/5", "for example");
	bad("memory:some:150/1000:x", "for example");
	bad("memory:some:150:1000", "for example");
	bad("disk:some:150/1000", "unknown resource \"disk\"");
	bad("MEMORY:some:150/1000", "unknown resource");
	bad(" memory:some:150/1000", "unknown resource");
	bad(":some:150/1000", "unknown resource \"\"");
	bad("memory:half:150/1000", "some or full");
	bad("memory::150/1000", "some or full");
	bad("irq:some:150/2000", "irq");
	bad("memory:some:/1000", "whole numbers");
	bad("memory:some:150/", "whole numbers");
	bad("memory:some:-1/1000", "whole numbers");
	bad("memory:some:+1/1000", "whole numbers");
	bad("memory:some:1.5/1000", "whole numbers");
	bad("memory:some:150/1000 ", "whole numbers");
	bad("memory:some:150ms/1s", "whole numbers");
	bad("memory:some:150/499", "500 to 10000 ms");
	bad("memory:some:150/10001", "500 to 10000 ms");
	bad("memory:some:150/0", "500 to 10000 ms");
	bad("memory:some:1/99999999999999999999999", "500 to 10000 ms");
	bad("memory:some:0/1000", "at most the window");
	bad("memory:some:1001/1000", "at most the window");
	bad("memory:some:99999999999999999999999/1000", "at most the window");

	/* What the user typed is escaped in the reason. */
	{
		char e[512];

		CHECK(psi_trigger_parse("\x1b]0;x\x07:some:1/1000", &t, e,
					sizeof(e)) == -1);
		CHECK(strchr(e, 0x1b) == NULL && strchr(e, 0x07) == NULL);
	}
	/* A short buffer is cut and terminated; no buffer at all is fine. */
	memset(err, 'x', sizeof(err));
	CHECK(psi_trigger_parse("nope", &t, err, sizeof(err)) == -1);
	CHECK(strlen(err) == sizeof(err) - 1);
	CHECK(psi_trigger_parse("nope", &t, NULL, 0) == -1);
	CHECK(psi_trigger_parse(NULL, &t, NULL, 0) == -1);
}

static void test_fired(void)
{
	struct psi_trigger t;

	CHECK(psi_trigger_parse("cpu:some:50/1000", &t, NULL, 0) == 0);
	CHECK(psi_trigger_fired(&t, POLLPRI) == -1);    /* not armed */
	t.fd = 1000;                                     /* pretend */
	CHECK(psi_trigger_fired(&t, POLLPRI) == 1);
	CHECK(psi_trigger_fired(&t, 0) == 0);
	CHECK(psi_trigger_fired(&t, POLLIN | POLLOUT) == 0);
	/* The kernel's "trigger gone": POLLERR together with POLLPRI. */
	CHECK(psi_trigger_fired(&t, POLLERR | POLLPRI) == -1);
	CHECK(psi_trigger_fired(&t, POLLNVAL) == -1);
	t.fd = -1;
	psi_trigger_close(&t);
	CHECK(t.fd == -1);
}

static void test_arm_missing(void)
{
	struct psi_trigger t;
	char err[512];

	CHECK(psi_trigger_parse("memory:some:150/1000", &t, NULL, 0) == 0);
	CHECK(psi_trigger_arm(&t, "/nonexistent/stalltop/pressure", err,
			      sizeof(err)) == -1);
	CHECK(t.fd == -1);
	CHECK(strstr(err, "PSI is not available") != NULL);
	CHECK(strstr(err, "memory some 150ms/1s") != NULL);

	/* A kernel without irq accounting (the fixture lacks irq). */
	CHECK(psi_trigger_parse("irq:full:100/1000", &t, NULL, 0) == 0);
	CHECK(psi_trigger_arm(&t, FIXTURES "/psi/noirq", err,
			      sizeof(err)) == -1);
	CHECK(strstr(err, "no irq pressure") != NULL);
	CHECK(t.fd == -1);
}

static bool have_psi(const char *res)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/pressure/%s", res);
	if (access(path, F_OK) == 0)
		return true;
	printf("%s is absent: live %s checks skipped\n", path, res);
	unit_skip("no PSI here (CONFIG_PSI off, or psi=0 on the kernel's "
		  "command line)");
	return false;
}

/*
 * Does this process hold CAP_SYS_RESOURCE? The kernel's test for windows
 * that are not multiples of 2 s; root does not always have it (a
 * container may drop it even from the bounding set).
 */
/* A capability set of this process as /proc/self/status shows it ("CapEff:"). */
static unsigned long long status_caps(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long set = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0)
			set = strtoull(line + strlen(key), NULL, 16);
	if (f)
		fclose(f);
	return set;
}

static bool sys_resource(void)
{
	return (status_caps("CapEff:") >> CAP_SYS_RESOURCE) & 1;
}

/*
 * A 500 ms window: armed with CAP_SYS_RESOURCE, else refused with the
 * 2 s reason; a 2 s window is armed either way (Linux 6.5+).
 */
static void test_arm_live(void)
{
	struct psi_trigger t;
	char err[512] = "";
	int ret;

	if (!have_psi("memory"))
		return;
	CHECK(psi_trigger_parse("memory:some:150/500", &t, NULL, 0) == 0);
	ret = psi_trigger_arm(&t, "/proc/pressure", err, sizeof(err));
	if (sys_resource()) {
		if (ret)
			fprintf(stderr, "arm: %s\n", err);
		CHECK(ret == 0);
		CHECK(t.fd >= 0);
	} else {
		printf("no CAP_SYS_RESOURCE (euid %ld): %s\n", (long)geteuid(),
		       ret ? err : "armed");
		CHECK(ret == -1);
		CHECK(t.fd == -1);
		CHECK(strstr(err, "multiples of 2 s") != NULL);
		CHECK(psi_trigger_parse("memory:some:150/2000", &t, NULL, 0) == 0);
		ret = psi_trigger_arm(&t, "/proc/pressure", err, sizeof(err));
		if (ret)
			fprintf(stderr, "arm: %s\n", err);
		CHECK(ret == 0);
		CHECK(t.fd >= 0);
	}
	psi_trigger_close(&t);
	CHECK(t.fd == -1);
	psi_trigger_close(&t);   /* twice is harmless */
	CHECK(t.fd == -1);
}

/* Drop CAP_SYS_RESOURCE from the effective set of this process. */
static int drop_sys_resource(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	d[CAP_SYS_RESOURCE / 32].effective &= ~(1u << (CAP_SYS_RESOURCE % 32));
	return (int)syscall(SYS_capset, &h, d);
}

/*
 * privs_effective (what the 2 s message rests on) tells the effective
 * set as /proc/self/status has it, for every capability; and a
 * capability dropped from the effective set alone (still permitted) is
 * not held.
 */
static void test_privs_effective(void)
{
	unsigned long long eff = status_caps("CapEff:");
	int cap = -1;
	pid_t pid;
	int status;

	for (int c = 0; c <= CAP_LAST_CAP; c++) {
		if (privs_effective(c) != (bool)((eff >> c) & 1))
			printf("capability %d: privs_effective %d, CapEff %llx\n",
			       c, privs_effective(c), eff);
		CHECK(privs_effective(c) == (bool)((eff >> c) & 1));
		if (cap < 0 && ((eff >> c) & 1))
			cap = c;
	}
	CHECK(!privs_effective(-1) && !privs_effective(64));
	if (cap < 0) {
		printf("no effective capability (euid %ld): none to drop\n",
		       (long)geteuid());
		return;
	}
	pid = fork();
	if (pid < 0)
		exit(99);
	if (pid == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];

		if (syscall(SYS_capget, &h, d) < 0)
			_exit(10);
		d[cap / 32].effective &= ~(1u << (cap % 32));
		if (syscall(SYS_capset, &h, d) < 0)
			_exit(11);
		if (!((status_caps("CapPrm:") >> cap) & 1))
			_exit(12);  /* it must still be permitted */
		_exit(privs_effective(cap) ? 13 : 0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	if (WEXITSTATUS(status))
		printf("capability %d dropped from the effective set: child status %d\n",
		       cap, WEXITSTATUS(status));
	CHECK_EQ_U(WEXITSTATUS(status), 0);
}

/*
 * Without CAP_SYS_RESOURCE the kernel takes only windows that are
 * multiples of 2 s: a 1 s window is rejected with that reason, a 2 s one
 * is armed (Linux 6.5+; older kernels refuse unprivileged triggers).
 */
static void test_unprivileged(void)
{
	pid_t pid;
	int status;

	if (!sys_resource() || !have_psi("memory"))
		return;   /* test_arm_live covered the unprivileged case */
	pid = fork();
	if (pid < 0)
		exit(99);
	if (pid == 0) {
		struct psi_trigger t;
		char err[512] = "";

		if (drop_sys_resource() < 0)
			_exit(10);
		if (psi_trigger_parse("memory:some:150/1000", &t, NULL, 0) ||
		    psi_trigger_arm(&t, "/proc/pressure", err, sizeof(err)) == 0)
			_exit(11);
		printf("without CAP_SYS_RESOURCE: %s\n", err);
		if (!strstr(err, "multiples of 2 s"))
			_exit(12);
		if (psi_trigger_parse("memory:some:150/2000", &t, NULL, 0))
			_exit(13);
		if (psi_trigger_arm(&t, "/proc/pressure", err, sizeof(err))) {
			printf("2 s window without CAP_SYS_RESOURCE: %s\n", err);
			_exit(14);
		}
		psi_trigger_close(&t);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_U(WEXITSTATUS(status), 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Two busy children on each CPU: cpu "some" pressure, so it fires. */
static void test_fires(void)
{
	enum { PER_CPU = 2, MAX_BUSY = 2 * 256 };
	struct psi_trigger t;
	char err[512] = "";
	pid_t busy[MAX_BUSY];
	cpu_set_t set;
	int nbusy = 0, fired = 0;
	double start, deadline;
	struct psi_reading before;

	if (!have_psi("cpu"))
		return;
	/*
	 * Half the window. The system's "some" figure weights each CPU by
	 * its non-idle time: one stalled CPU beside a busy, unstalled one
	 * makes 50 %, exactly the threshold. With two busy children on every
	 * CPU we may use, each CPU always has one waiting, so the stall is
	 * near 100 % whatever else runs: twice the threshold. The background
	 * load of a busy machine rarely reaches 50 % (a 5 % threshold would
	 * prove nothing there). Without CAP_SYS_RESOURCE only 2 s windows
	 * are allowed.
	 */
	CHECK(psi_trigger_parse(sys_resource() ? "cpu:some:500/1000" :
				"cpu:some:1000/2000", &t, NULL, 0) == 0);
	if (psi_trigger_arm(&t, "/proc/pressure", err, sizeof(err)) < 0) {
		fprintf(stderr, "arm %s: %s\n", t.label, err);
		CHECK(!"cpu trigger armed");
		return;
	}
	/* For the log: how loaded the machine was before ours. */
	psi_read_dir("/proc/pressure", "", &before);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		exit(99);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;

		if (!CPU_ISSET(cpu, &set))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		for (int i = 0; i < PER_CPU && nbusy < MAX_BUSY; i++) {
			pid_t pid = fork();

			if (pid < 0)
				exit(99);
			if (pid == 0) {
				volatile unsigned long n = 0;

				sched_setaffinity(0, sizeof(one), &one);
				alarm(30);   /* never outlive a crashed parent */
				for (;;)
					n++;
			}
			busy[nbusy++] = pid;
		}
	}
	start = now();
	deadline = start + 5;
	while (!fired && now() < deadline) {
		struct pollfd p = { .fd = t.fd, .events = POLLPRI };
		int ms = (int)((deadline - now()) * 1000) + 1;
		int n = poll(&p, 1, ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		fired = psi_trigger_fired(&t, (unsigned)p.revents);
		if (fired < 0)
			break;
	}
	for (int i = 0; i < nbusy; i++)
		kill(busy[i], SIGKILL);
	for (int i = 0; i < nbusy; i++)
		waitpid(busy[i], NULL, 0);
	printf("%s with %d busy children: %s after %.2f s (cpu some avg10 "
	       "%.2f before)\n", t.label, nbusy,
	       fired == 1 ? "fired" : "did not fire", now() - start,
	       before.line[PSI_CPU][PSI_SOME].avg10);
	CHECK(fired == 1);
	psi_trigger_close(&t);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	/* it loads every CPU and reads the pressure: not beside a live test */
	unit_live_lock();
	test_parse();
	test_fired();
	test_arm_missing();
	test_privs_effective();
	test_arm_live();
	test_unprivileged();
	test_fires();
	return unit_done();
}
