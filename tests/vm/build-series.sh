#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build-series.sh DIR - the kernels of tests/cli/t0325-vm-source.sh, built
# ahead of the test suites (tests/check.sh): the series from Debian's
# newest /usr/src/linux-source-*.tar.xz (tests/vm/series.sh) in DIR, and
# an x86-64 image of each of its five commits by tools/build-kernel, and
# an arm64 image of its last where Debian's cross compiler for arm64 is
# installed, kept in DIR. A full build takes minutes, and under a loaded suite more than
# a test file's limit; built here, the test finds them kept and boots
# them. Exits 0 when built, else 1 saying why (the test then builds what
# it needs itself, or skips with its reason).
set -u
dir=${1:?usage: build-series.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1)
[ -n "$tarball" ] || { echo "build-series.sh: no /usr/src/linux-source-*.tar.xz" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "build-series.sh: the series is built for x86-64" >&2; exit 1; }
tree=$(sh "$top/tests/vm/series.sh" "$tarball" "$dir") || exit 1
for c in master~4 master~3 master~2 master~1 master; do
	git -C "$tree" checkout -q -f "$c" &&
		"$top/tools/build-kernel" -C "$dir" "$tree" >/dev/null || { rc=1; break; }
done
git -C "$tree" checkout -q -f master
if [ -z "${rc:-}" ] && command -v aarch64-linux-gnu-gcc >/dev/null; then
	"$top/tools/build-kernel" -a arm64 -C "$dir" "$tree" >/dev/null || rc=1
fi
exit "${rc:-0}"
