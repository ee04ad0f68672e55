#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording of readings of format version 2 (tests/fixtures/recordings/
# README) still replays as it did when version 2 was the format written:
# --replay FILE -b --json, and with -H, give exactly the samples that
# stalltop gave then (kept beside it, gzip'd), every figure and every
# key.
# No privilege is needed; the live-test lock keeps other tests' load off
# the run (the replay itself measures nothing).
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd gzip od
export LC_ALL=C   # the English messages

D=$top_srcdir/tests/fixtures/recordings
REC=$D/v2.stk

# the version in the header record's payload (bytes 20 and 21)
v=$(od -An -tu2 -j20 -N2 "$REC" | tr -d ' ')
[ "$v" = 2 ] || hard_error "the fixture is not of format version 2 (its header says $v)"

# same NAME WANT ARGS...: the replay with ARGS gives WANT's lines exactly
same() {
	local name=$1 want=$2
	shift 2
	timeout 60 "$STALLTOP" --replay "$REC" -b --json "$@" >"$TMP/$name.got" 2>"$TMP/$name.err"
	st=$?
	[ "$st" -eq 0 ] || fail "$name: --replay exited $st: $(cat "$TMP/$name.err")"
	[ ! -s "$TMP/$name.err" ] || fail "$name: the replay said: $(cat "$TMP/$name.err")"
	gzip -dc "$D/$want" >"$TMP/$name.want" || hard_error "cannot inflate $want"
	[ "$(lines "$TMP/$name.got")" -eq 5 ] ||
		fail "$name: $(lines "$TMP/$name.got") samples replayed, the recording has 5"
	if ! cmp -s "$TMP/$name.want" "$TMP/$name.got"; then
		diff "$TMP/$name.want" "$TMP/$name.got" | head -c 3000 >&2
		fail "$name: the replayed samples differ from those of version 2's stalltop"
	fi
}
same processes v2.json.gz
same threads v2-H.json.gz -H

exit 0
