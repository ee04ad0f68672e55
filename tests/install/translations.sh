#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The German translation is complete: every message the sources mark with
# _() or N_() has a translation in po/de.po that is neither missing, empty
# nor fuzzy, and every source file that marks messages is listed in
# po/POTFILES.in (else xgettext never sees its messages). The messages
# are taken afresh from the sources (xgettext with po/Makevars' options),
# not from the committed stalltop.pot, which may be stale. A new message
# fails this test until po/de.po has it: the failure names it.

. "$top_srcdir/tests/lib/functions.sh"
need_cmd xgettext msgcmp msgattrib grep sed

cd "$top_srcdir" || hard_error "cannot enter $top_srcdir"

# source files with marked messages that POTFILES.in does not list
grep -l -E '(^|[^A-Za-z0-9_])N?_\("' $(find src -name '*.c' | sort) >"$TMP/marked" ||
	fail "no source file marks a message for translation: the search is broken"
grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort >"$TMP/listed"
missing=$(sort "$TMP/marked" | comm -23 - "$TMP/listed")
[ -z "$missing" ] ||
	fail "these files mark messages but po/POTFILES.in does not list them: $missing"

# the messages as the sources have them now
# shellcheck disable=SC2046 # one argument per listed file
xgettext --keyword=_ --keyword=N_ --from-code=UTF-8 --language=C \
	-o "$TMP/now.pot" $(cat "$TMP/listed") 2>"$TMP/xgettext.err" ||
	hard_error "xgettext failed: $(cat "$TMP/xgettext.err")"
n=$(grep -c '^msgid ' "$TMP/now.pot")
[ "$n" -gt 100 ] || fail "xgettext found only $n messages: the extraction is broken"

# msgcmp: every msgid of the template must be translated in de.po
# (untranslated and fuzzy entries count as missing)
if ! msgcmp po/de.po "$TMP/now.pot" >"$TMP/msgcmp.out" 2>&1; then
	# msgcmp names the template's line of each message: show the msgid
	sed -n 's/^[^:]*now\.pot:\([0-9]*\):.*/\1/p' "$TMP/msgcmp.out" | head -30 |
		while read -r line; do
			# the msgid (of one or more lines) that ends before LINE
			awk -v at="$line" 'NR > at { exit }
				/^msgid / { id = $0; inid = 1; next }
				inid && /^"/ { id = id $0; next }
				{ inid = 0 }
				END { print id }' "$TMP/now.pot"
		done >"$TMP/lacking"
	[ -s "$TMP/lacking" ] || cp "$TMP/msgcmp.out" "$TMP/lacking"
	fail "po/de.po lacks translations of: $(cat "$TMP/lacking")"
fi
msgattrib --only-fuzzy --no-obsolete po/de.po >"$TMP/fuzzy.po" ||
	hard_error "msgattrib failed"
[ ! -s "$TMP/fuzzy.po" ] ||
	fail "po/de.po has fuzzy entries: $(grep '^msgid' "$TMP/fuzzy.po" | head -10)"
note "$n messages, all translated"
exit 0
