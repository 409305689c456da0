# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - what the fault scripts share: sourced, not run.

# faults_work NAME: a scratch directory of its own, made the current one and
# removed on every exit (faults_cleanup runs first, when a script defines
# it); no user's store, a fixed width.
faults_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/ukbench-$1.XXXXXX") || exit 1
	trap 'command -v faults_cleanup >/dev/null && faults_cleanup; rm -rf "$work"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	cd "$work" || exit 1
	export XDG_DATA_HOME="$work/data" COLUMNS=100
	unset UKBENCH_DB
}

# faults_args NAME DEFAULT "$@": -n TRIALS (default DEFAULT) into $trials
# and -s SEED (default: now) into $seed; a bad option is exit 2.
faults_args() {
	_fa_name=$1 trials=$2
	shift 2
	seed=$(date +%s)
	OPTIND=1
	while getopts n:s: o; do
		case $o in
		n) trials=$OPTARG ;;
		s) seed=$OPTARG ;;
		*) echo "usage: $_fa_name [-n TRIALS] [-s SEED]" >&2; exit 2 ;;
		esac
	done
}

# rand N: R becomes a number in [0, N), the next of the sequence $seed starts
rand() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$(((seed / 65536) % $1))
}

# kill_moment K LIFE: $at, the ms into a command's LIFE ms when trial K
# kills it: even trials uniform over the whole life, odd ones in its last
# fifth and a little past, where the store's transaction is
kill_moment() {
	if [ $(($1 % 2)) = 0 ]; then
		rand $(($2 + 1))
		at=$R
	else
		rand $(($2 / 4 + 1))
		at=$(($2 * 4 / 5 + R))
	fi
}

# kill_at AT PID: SIGKILL to the session PID leads, AT ms from now, then
# reaped; $landed counts the kills that found it still running
kill_at() {
	sleep "$(printf "%d.%03d" $(($1 / 1000)) $(($1 % 1000)))"
	kill -s KILL -- -"$2" 2>/dev/null && landed=$((landed + 1))
	wait "$2" 2>/dev/null
}
