/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroupstats reply decoder against the messages of
 * tests/fixtures/evidence/cgstats (make-fixtures.py): the counters of
 * good replies, the errno of an error answer, EBADMSG and nothing filled
 * for every broken one.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>

#include "kernel/cgstats.h"
#include "unit.h"

static int decode(const char *name, struct cgstats *s)
{
	char path[256];
	size_t len;
	char *msg;
	int ret;

	snprintf(path, sizeof(path), "evidence/cgstats/%s", name);
	msg = unit_fixture(path, &len);
	errno = 0;
	ret = cgstats_decode(msg, len, s);
	free(msg);
	return ret;
}

#define COUNTS(s, sl, ru, st, un, io) do { \
	CHECK((s).source == CGSTATS_KERNEL); \
	CHECK((s).nr_sleeping.have); CHECK_EQ_U((s).nr_sleeping.v, sl); \
	CHECK((s).nr_running.have); CHECK_EQ_U((s).nr_running.v, ru); \
	CHECK((s).nr_stopped.have); CHECK_EQ_U((s).nr_stopped.v, st); \
	CHECK((s).nr_uninterruptible.have); \
	CHECK_EQ_U((s).nr_uninterruptible.v, un); \
	CHECK((s).nr_io_wait.have); CHECK_EQ_U((s).nr_io_wait.v, io); \
	CHECK(!(s).nr_tasks.have); \
} while (0)

static void check_nothing(const struct cgstats *s)
{
	CHECK(s->source == CGSTATS_NONE);
	CHECK(!s->nr_running.have && !s->nr_sleeping.have &&
	      !s->nr_stopped.have && !s->nr_uninterruptible.have &&
	      !s->nr_io_wait.have && s->nr_running.v == 0);
}

int main(void)
{
	static const char *const broken[] = {
		"ack.bin", "error-positive.bin", "error-short.bin",
		"short-struct.bin", "attr-overrun.bin", "attr-tiny.bin",
		"nlmsg-len-lies.bin", "nlmsg-len-tiny.bin", "wrong-cmd.bin",
		"no-attr.bin", "no-genl.bin", "truncated.bin", "empty.bin",
	};
	struct cgstats s;

	CHECK(decode("good.bin", &s) == 0);
	COUNTS(s, 3, 2, 1, 4, 5);
	CHECK(decode("longer.bin", &s) == 0);
	COUNTS(s, 3, 2, 1, 4, 5);
	CHECK(decode("other-attr-first.bin", &s) == 0);
	COUNTS(s, 10, 20, 30, 40, 50);

	CHECK(decode("error-einval.bin", &s) == -1);
	CHECK(errno == EINVAL);
	check_nothing(&s);

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		int ret = decode(broken[i], &s);

		if (ret != -1 || errno != EBADMSG)
			fprintf(stderr, "%s: %d, errno %d\n", broken[i], ret, errno);
		CHECK(ret == -1 && errno == EBADMSG);
		check_nothing(&s);
	}
	CHECK(cgstats_decode(NULL, 0, &s) == -1);
	return unit_done();
}
