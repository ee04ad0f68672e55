#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What bash completion offers on a stalltop command line, as a Tab would:
#
#   bash complete.bash FILE WORD...          load bash-completion, then FILE
#   bash complete.bash --load DATADIR WORD...
#                     let bash-completion find the completion itself, as it
#                     does on demand, in DATADIR/bash-completion/completions
#
# completes the last WORD (give '' to complete an empty word) of
# "stalltop WORD..." in the current directory and prints the candidates,
# one a line. Status 2 when the completion cannot be loaded.

main=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}
[ -r "$main" ] || { echo "complete.bash: no $main (bash-completion)" >&2; exit 2; }
. "$main"

if [ "$1" = --load ]; then
	# only DATADIR: not the user's own completions, not the system's
	export BASH_COMPLETION_USER_DIR=/nonexistent XDG_DATA_DIRS=$2
	shift 2
	if declare -F _comp_load >/dev/null; then
		_comp_load stalltop
	else
		__load_completion stalltop
	fi || { echo "complete.bash: bash-completion did not find stalltop's completion" >&2; exit 2; }
else
	. "$1" || exit 2
	shift
fi

spec=$(complete -p stalltop 2>/dev/null)
func=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
[ -n "$func" ] || { echo "complete.bash: no completion function for stalltop: $spec" >&2; exit 2; }

# outside a real completion compopt fails: the options it sets do not
# change the candidates
compopt() { builtin compopt "$@" 2>/dev/null || :; }

# bash splits "--sort=i" into the words --sort, = and i
COMP_WORDS=(stalltop "$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=stalltop
prev=
for w; do
	if [ "$w" = = ] || [ "$prev" = = ]; then
		COMP_LINE+=$w
	else
		COMP_LINE+=" $w"
	fi
	prev=$w
done
COMP_POINT=${#COMP_LINE}
COMP_TYPE=9
COMP_KEY=9
COMPREPLY=()
"$func" stalltop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
