#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every deliberate break of tests/mutation/breaks can still be made:
# its file and the tests named for it exist, and the text it finds is
# there exactly once (tests/mutation/run --check). Code rewritten under
# a break would leave it stale: the mutation run would then show nothing
# of whether its tests still catch that fault. The run itself (each
# break built and its tests run) is not part of make check.
. "$top_srcdir/tests/lib/functions.sh"
need_cmd bash awk

out=$(bash "$top_srcdir/tests/mutation/run" --check 2>&1)
st=$?
stale=$(printf '%s\n' "$out" | grep -v '^ok ')
[ "$st" -eq 0 ] && [ -z "$stale" ] ||
	fail "tests/mutation/run --check exited $st: $stale"
n=$(printf '%s\n' "$out" | grep -c '^ok ')
[ "$n" -gt 0 ] || fail "tests/mutation/run --check checked no break"
note "$n breaks can be made"
