#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The alert rules that ship (contrib/prometheus/stalltop-rules.yml) pass
# promtool check rules and the unit tests of
# tests/fixtures/prometheus/stalltop-rules.test.yml (promtool test
# rules): each alert fires where it must (a cgroup above the share for 5
# minutes, no stalltop, a stale sample or textfile, delay accounting off,
# losses growing) and not where it must not (a cgroup below the share,
# the root cgroup, a live stalltop).

. "$top_srcdir/tests/lib/functions.sh"
need_cmd promtool

rules="$top_srcdir/contrib/prometheus/stalltop-rules.yml"
[ -r "$rules" ] || fail "no rules file $rules"
promtool check rules "$rules" >"$TMP/check.out" 2>&1 ||
	fail "promtool check rules: $(cat "$TMP/check.out")"
grep -q 'SUCCESS: 5 rules found' "$TMP/check.out" ||
	fail "promtool found other rules than the 5 tested: $(cat "$TMP/check.out")"
# the test names the rules file beside it
cp "$rules" "$top_srcdir/tests/fixtures/prometheus/stalltop-rules.test.yml" "$TMP/" ||
	hard_error "cannot copy the rules into $TMP"
(cd "$TMP" && promtool test rules stalltop-rules.test.yml) >"$TMP/test.out" 2>&1 ||
	fail "promtool test rules: $(cat "$TMP/test.out")"
grep -q SUCCESS "$TMP/test.out" || fail "promtool test rules said no SUCCESS: $(cat "$TMP/test.out")"
exit 0
