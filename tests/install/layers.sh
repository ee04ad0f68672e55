#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers hold (HACKING, Rules of the house): each folder of src/
# includes only from the layers below it, and no file of src/model does
# I/O. A folder's allowed includes:
#
#   lib     lib
#   kernel  lib kernel
#   live    lib kernel store model live
#   store   lib kstructs store
#   model   lib kstructs store model
#   record  lib kernel store model record
#   view    lib store model record view
#   src/*   anything (main)
#
# kstructs are the kernel layer's plain-struct headers: a header of
# src/kernel that declares no function (nor defines one), only what a
# reading is; every other kernel header is a reader's (its parsers and
# readers). "kernel" above allows both.
#
# Includes are followed to their closure: a header reached through
# others must be of a layer the file may reach,
#
#   lib     lib
#   kernel  lib kernel
#   live    lib kernel store model live
#   store   lib kstructs store
#   model   lib kstructs store model
#   record  lib kernel store model record
#   view    lib kstructs store model record view
#
# so that no file of src/model, src/store or src/view sees a kernel
# reader, however many headers lie between. The failure names the chain.
#
# An include without a folder names the including file's folder when the
# header is there, else src/ (main); "config.h" and system headers are
# not checked. I/O in src/model is a call of open, openat, fopen, fdopen,
# read, pread, readlink(at), opendir, fdopendir, readdir, socket, ioctl,
# any mnl_ function, or a function whose name says it reads, opens,
# queries or scans (x_read, x_open_dir, x_query, ...).
#
# tests/install/layers.allow lists the known violations, each with its
# reason; any other violation fails, and so does a listed one that no
# longer occurs (the list only shrinks). The failure names file, line
# and what it includes or calls.

. "$top_srcdir/tests/lib/functions.sh"
need_cmd awk grep sed sort find

cd "$top_srcdir" || hard_error "cannot enter $top_srcdir"
allow=tests/install/layers.allow
[ -r "$allow" ] || hard_error "cannot read $allow"

# allowed LAYER: the layers LAYER may include from (as the table above)
allowed() {
	case "$1" in
	lib) echo lib ;;
	kernel) echo lib kernel ;;
	live) echo lib kernel store model live ;;
	store) echo lib kstructs store ;;
	model) echo lib kstructs store model ;;
	record) echo lib kernel store model record ;;
	view) echo lib store model record view ;;
	esac
}

# reaches LAYER: the layers LAYER may reach through other headers
reaches() {
	case "$1" in
	view) echo lib kstructs store model record view ;;
	*) allowed "$1" ;;
	esac
}

# may TABLE FROM TO: whether layer FROM may include (TABLE allowed) or
# reach (TABLE reaches) layer TO; kernel allows kstructs too
may() {
	[ "$2" = main ] && return 0
	for l in $($1 "$2"); do
		[ "$l" = "$3" ] && return 0
		[ "$l" = kernel ] && [ "$3" = kstructs ] && return 0
	done
	return 1
}

# the kernel headers that declare or define a function: the readers'
awk -f - $(find src/kernel -name '*.h' | sort) >"$TMP/readers" <<'EOF' ||
FNR == 1 { cmt = 0; pp = 0; depth = 0; stmt = "" }
{
	s = $0
	if (pp) { pp = (s ~ /\\$/); next }
	if (!cmt && s ~ /^[ \t]*#/) { pp = (s ~ /\\$/); next }
	while (s != "") {
		if (cmt) {
			i = index(s, "*/")
			if (!i)
				break
			s = substr(s, i + 2); cmt = 0; continue
		}
		c = substr(s, 1, 1); s = substr(s, 2)
		if (c == "/" && substr(s, 1, 1) == "*") { cmt = 1; s = substr(s, 2); continue }
		if (c == "/" && substr(s, 1, 1) == "/")
			break
		if (c == "{") { depth++; continue }
		if (c == "}") { depth--; continue }
		if (depth > 0)
			continue
		if (c == ";") {
			if (stmt !~ /^[ \t]*typedef/ && stmt ~ /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)
				found[FILENAME] = 1
			stmt = ""; continue
		}
		stmt = stmt c
	}
	stmt = stmt " "
	# a definition: its body opened after the parameters
	if (depth > 0 && stmt !~ /^[ \t]*typedef/ && stmt ~ /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/) {
		found[FILENAME] = 1; stmt = ""
	}
}
END { for (f in found) print f }
EOF
	hard_error "cannot read the headers of src/kernel"
grep -q . "$TMP/readers" || fail "no kernel header declares a function: the search is broken"

# layer_of FILE: its layer; a kernel header kstructs or kernel
layer_of() {
	case "$1" in
	src/kernel/*.h) grep -qxF "$1" "$TMP/readers" && echo kernel || echo kstructs ;;
	src/*/*) f=${1#src/}; echo "${f%%/*}" ;;
	*) echo main ;;
	esac
}

# every violation as "KEY<TAB>file:line: detail", KEY as the allow-list has it
: >"$TMP/found"
: >"$TMP/edges"
files=$(find src -name '*.[ch]' | sort)
[ -n "$files" ] || hard_error "no sources under src/"
nfiles=0 nincl=0
for f in $files; do
	nfiles=$((nfiles + 1))
	dir=${f%/*}
	case "$dir" in
	src) from=main ;;
	src/*/*) hard_error "$f: sources are one folder deep under src/" ;;
	src/*) from=${dir#src/} ;;
	esac
	# "LINE HEADER" of each #include "..."
	awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); print FNR, h
	}' "$f" >"$TMP/incl" || hard_error "cannot read $f"
	while read -r line h; do
		nincl=$((nincl + 1))
		case "$h" in
		*/*) path=src/$h ;;
		*)
			if [ -e "$dir/$h" ]; then
				path=$dir/$h
			elif [ -e "src/$h" ]; then
				path=src/$h
			else
				continue # config.h, generated
			fi ;;
		esac
		echo "$f $path" >>"$TMP/edges"
		to=$(layer_of "$path")
		may allowed "$from" "$to" && continue
		why="$from may include only $(allowed "$from")"
		[ -n "$(allowed "$from")" ] ||
			why="src/$from is no layer the rules at the top of this test know"
		printf '%s includes %s\t%s:%s: %s (%s)\n' "$f" "$h" "$f" "$line" \
			"#include \"$h\"" "$why" >>"$TMP/found"
	done <"$TMP/incl"
done
[ "$nincl" -gt 100 ] || fail "found only $nincl includes in $nfiles files: the search is broken"

# the closures: "FILE HEADER CHAIN" of every header reached through
# others (breadth first: the shortest chain)
awk '
{ n[$1]++; to[$1, n[$1]] = $2; files[$1] = 1 }
END {
	for (f in files) {
		split("", seen); split("", chain)
		q[1] = f; qn = 1; seen[f] = 1; chain[f] = f
		for (i = 1; i <= qn; i++) {
			h = q[i]
			for (j = 1; j <= n[h]; j++) {
				t = to[h, j]
				if (t in seen)
					continue
				seen[t] = 1; chain[t] = chain[h] " -> " t
				q[++qn] = t
				if (h != f)
					print f, t, chain[t]
			}
		}
	}
}' "$TMP/edges" | sort >"$TMP/reached" || hard_error "cannot follow the includes"
[ -s "$TMP/reached" ] || fail "no header is reached through another: the search is broken"
nreach=0
while read -r f h chain; do
	nreach=$((nreach + 1))
	grep -qxF "$f $h" "$TMP/edges" && continue # a direct include, above
	from=$(layer_of "$f")
	[ "$from" = kstructs ] && from=kernel
	to=$(layer_of "$h")
	may reaches "$from" "$to" && continue
	printf '%s reaches %s\t%s: %s (%s may reach only %s)\n' "$f" "${h#src/}" \
		"$f" "$chain" "$from" "$(reaches "$from")" >>"$TMP/found"
done <"$TMP/reached"

io='(^|[^A-Za-z0-9_>.])(open|openat|fopen|fdopen|read|pread|readlinkat|readlink|opendir|fdopendir|readdir|socket|ioctl|mnl_[a-z0-9_]+|[a-z][a-z0-9_]*_(read|open|query|scan)(_[a-z0-9_]+)?)[[:space:]]*\('
for f in $(find src/model -name '*.c' | sort); do
	# calls are indented (definitions are not); comments and string
	# literals emptied
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' -e 's/^[[:space:]]*\*.*//' \
		-e 's|^[[:space:]]*/\*.*||' -e 's/"\([^"\\]\|\\.\)*"/""/g' \
		-e 's/^[^[:space:]].*//' "$f" |
		grep -nE "$io" | while IFS=: read -r line text; do
		call=$(printf '%s\n' "$text" | grep -oE "$io" | head -1 |
			sed -E 's/^[^A-Za-z_]*//; s/[[:space:]]*\($//')
		printf '%s does I/O\t%s:%s: %s() (src/model does no I/O)\n' \
			"$f" "$f" "$line" "$call" >>"$TMP/found"
	done
done

# the allow-list: "KEY: reason" lines, # comments and blank lines aside
sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$allow" >"$TMP/allowed"
bad=$(grep -v -E '^src/[^ ]+ ((includes|reaches) [^ :]+|does I/O): [^[:space:]]' "$TMP/allowed")
[ -z "$bad" ] || fail "lines of $allow not of the form 'FILE includes HEADER: reason', 'FILE reaches HEADER: reason' or 'FILE does I/O: reason': $bad"
sed 's/: .*//' "$TMP/allowed" | sort >"$TMP/allowed.keys"
dup=$(uniq -d "$TMP/allowed.keys")
[ -z "$dup" ] || fail "listed twice in $allow: $dup"

cut -f1 "$TMP/found" | sort -u >"$TMP/found.keys"
status=0
new=$(comm -23 "$TMP/found.keys" "$TMP/allowed.keys")
if [ -n "$new" ]; then
	echo "$new" | while IFS= read -r key; do
		grep -F "$key	" "$TMP/found" | cut -f2- | sed 's/^/layer violation: /'
	done >&2
	status=1
fi
gone=$(comm -13 "$TMP/found.keys" "$TMP/allowed.keys")
if [ -n "$gone" ]; then
	echo "$gone" | sed "s|^|no longer occurs, remove it from $allow: |" >&2
	status=1
fi
[ "$status" = 0 ] ||
	fail "the layers do not hold (above); see the rules at the top of tests/install/layers.sh"
note "$nfiles files, $nincl includes, $nreach headers reached; $(wc -l <"$TMP/allowed.keys") known violations listed in $allow"
exit 0
