#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recordings of readings of the older format versions 2, 3 and 4
# (tests/fixtures/recordings/README) still replay as they did when each
# was the format written: --replay FILE -b --json, and with -H, give
# the samples that stalltop gave then (kept beside it, gzip'd), every
# figure and every key (json_as_then: keys written since are null, or
# name the cgroups the evidence was read from).
# No privilege is needed; the live-test lock keeps other tests' load off
# the run (the replay itself measures nothing).
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd gzip od
export LC_ALL=C   # the English messages

D=$top_srcdir/tests/fixtures/recordings

# same V NAME WANT ARGS...: the replay of vV.stk with ARGS gives WANT's
# lines exactly
same() {
	local v=$1 name=v$1-$2 want=$3
	shift 3
	timeout 60 "$STALLTOP" --replay "$D/v$v.stk" -b --json "$@" >"$TMP/$name.got" 2>"$TMP/$name.err"
	st=$?
	[ "$st" -eq 0 ] || fail "$name: --replay exited $st: $(cat "$TMP/$name.err")"
	[ ! -s "$TMP/$name.err" ] || fail "$name: the replay said: $(cat "$TMP/$name.err")"
	gzip -dc "$D/$want" >"$TMP/$name.want" || hard_error "cannot inflate $want"
	[ "$(lines "$TMP/$name.got")" -eq 5 ] ||
		fail "$name: $(lines "$TMP/$name.got") samples replayed, the recording has 5"
	json_as_then "$TMP/$name.want" "$TMP/$name.got" >"$TMP/$name.diff" ||
		fail "$name: the replayed samples differ from those of version $v's stalltop: $(head -n 1 "$TMP/$name.diff")"
}

for v in 2 3 4; do
	# the version in the header record's payload (bytes 20 and 21)
	h=$(od -An -tu2 -j20 -N2 "$D/v$v.stk" | tr -d ' ')
	[ "$h" = "$v" ] ||
		hard_error "v$v.stk is not of format version $v (its header says $h)"
	same "$v" processes "v$v.json.gz"
	same "$v" threads "v$v-H.json.gz" -H
done

exit 0
