#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recordings of readings of the format versions before 5 (2, 3 and 4,
# of development builds, never released) are no longer read: a
# recording made now, its header record saying version 2, 3 or 4 (its
# CRC made again, so that the record holds), is refused by --replay at
# once with status 2, saying its version and the one read, and nothing
# is written; the same file saying version 5 replays (status 0).
# No privilege is needed; the live-test lock keeps other tests' load off
# the run.
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd gzip od dd
export LC_ALL=C   # the English messages

REC=$TMP/r.stk
timeout 60 "$STALLTOP" -b -n 2 -d 0.2 --record "$REC" >/dev/null 2>"$TMP/rec.err" ||
	fail "the live run exited $?: $(cat "$TMP/rec.err")"
# the header record: 20 bytes, the payload (its length at byte 8), its CRC
len=$(od -An -tu4 -j8 -N4 "$REC" | tr -d ' ')
[ "$(od -An -tu2 -j20 -N2 "$REC" | tr -d ' ')" = 5 ] ||
	hard_error "the recording made is not of format version 5"

# as_version V OUT: the recording with its header saying version V
as_version() {
	cp "$REC" "$2"
	printf "$(printf '\\%03o' "$1")" |
		dd of="$2" bs=1 seek=20 conv=notrunc status=none
	# the CRC-32 of the header and payload: gzip's trailer holds it
	head -c $((20 + len)) "$2" | gzip -c | tail -c 8 | head -c 4 |
		dd of="$2" bs=1 seek=$((20 + len)) conv=notrunc status=none
}

for v in 2 3 4 5; do
	as_version "$v" "$TMP/v$v.stk"
	timeout 60 "$STALLTOP" --replay "$TMP/v$v.stk" -b --json \
		>"$TMP/v$v.out" 2>"$TMP/v$v.err"
	st=$?
	if [ "$v" -eq 5 ]; then
		[ "$st" -eq 0 ] || fail "v5: --replay exited $st: $(cat "$TMP/v5.err")"
		[ "$(lines "$TMP/v5.out")" -eq 2 ] ||
			fail "v5: $(lines "$TMP/v5.out") samples, not 2"
		continue
	fi
	[ "$st" -eq 2 ] || fail "v$v: --replay exited $st, not 2: $(cat "$TMP/v$v.err")"
	[ ! -s "$TMP/v$v.out" ] || fail "v$v: it wrote: $(head -c 300 "$TMP/v$v.out")"
	want="stalltop: --replay '$TMP/v$v.stk': $TMP/v$v.stk: the recording is of format version $v, of a development build; this stalltop reads version 5: record it again"
	[ "$(cat "$TMP/v$v.err")" = "$want" ] ||
		fail "v$v: it said \"$(cat "$TMP/v$v.err")\", expected \"$want\""
	note "v$v: status $st: $(cat "$TMP/v$v.err")"
done

exit 0
