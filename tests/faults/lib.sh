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
