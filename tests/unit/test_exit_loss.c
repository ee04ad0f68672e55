/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counting lost exit records from one CPU's record numbers: a jump counts
 * only after the socket overflowed, until the first record after it was
 * next read empty; any other jump only resynchronises.
 */
#include <config.h>

#include "kernel/taskstats.h"
#include "unit.h"

int main(void)
{
	struct ts_seq s = { 0 };

	/* the first record sets the baseline; in order: nothing lost */
	CHECK_EQ_U(taskstats_seq_next(&s, 100), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 101), 0);

	/* a jump without an overflow: resynchronise, no loss */
	CHECK_EQ_U(taskstats_seq_next(&s, 150), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 151), 0);
	/* a step back (a record numbered on another CPU went before) */
	CHECK_EQ_U(taskstats_seq_next(&s, 140), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 152), 0);
	taskstats_seq_empty(&s);
	CHECK_EQ_U(taskstats_seq_next(&s, 160), 0);

	/* an overflow: the records still queued, then the jump is the loss */
	taskstats_seq_overflow(&s);
	CHECK_EQ_U(taskstats_seq_next(&s, 161), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 170), 8);
	/* the kernel drops on until the socket is read empty */
	CHECK_EQ_U(taskstats_seq_next(&s, 175), 4);
	taskstats_seq_empty(&s);
	/* the first record after that may still show the overflow's gap */
	CHECK_EQ_U(taskstats_seq_next(&s, 180), 4);
	/* after it, a jump is no loss again */
	CHECK_EQ_U(taskstats_seq_next(&s, 190), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 191), 0);

	/* an overflow with nothing queued: the next record tells it */
	taskstats_seq_overflow(&s);
	taskstats_seq_empty(&s);
	CHECK_EQ_U(taskstats_seq_next(&s, 201), 9);
	CHECK_EQ_U(taskstats_seq_next(&s, 210), 0);

	/* a step back while loss is possible resynchronises */
	taskstats_seq_overflow(&s);
	CHECK_EQ_U(taskstats_seq_next(&s, 5), 0);
	CHECK_EQ_U(taskstats_seq_next(&s, 7), 1);

	/* the numbers wrap */
	struct ts_seq w = { 0 };
	CHECK_EQ_U(taskstats_seq_next(&w, 0xfffffffeu), 0);
	taskstats_seq_overflow(&w);
	CHECK_EQ_U(taskstats_seq_next(&w, 1), 2);

	/* an overflow before any record: nothing to count from */
	struct ts_seq f = { 0 };
	taskstats_seq_overflow(&f);
	CHECK_EQ_U(taskstats_seq_next(&f, 1000), 0);
	CHECK_EQ_U(taskstats_seq_next(&f, 1003), 2);
	return unit_done();
}
