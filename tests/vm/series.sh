#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# series.sh TARBALL DIR - a kernel tree for the tests of a patch before
# and after: TARBALL (Debian's linux-source-*.tar.xz) unpacked into
# DIR/tree as the git commit "base", and a series of four real commits on
# it, one of them a patch to the vDSO's clock_gettime that a reviewer
# would object to (it reads the sequence count 32 times more before
# every read of the clock):
#
#   1 Documentation: a word on the vDSO's clocks   (nothing rebuilt)
#   2 vdso: wait for a stable sequence count       (the regression)
#   3 timekeeping: a comment on the fast path      (a file rebuilt)
#   4 Documentation: the same, once more           (nothing rebuilt)
#
# Dates and author are fixed, so the commits' names are the same on every
# machine, and images built from them are found again in a cache. Made
# once: a DIR that holds the series is left as it is. Prints the tree's
# path; exits non-zero, saying why, when it cannot.
set -u
tarball=${1:?usage: series.sh TARBALL DIR}
dir=${2:?usage: series.sh TARBALL DIR}
tree="$dir/tree"
me=series.sh

export GIT_AUTHOR_NAME="ukbench tests" GIT_AUTHOR_EMAIL="tests@ukbench.invalid"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

if [ "$(git -C "$tree" log --format=%s -1 2>/dev/null)" = "Documentation: the vDSO's clocks, once more" ]; then
	git -C "$tree" checkout -q -f master && echo "$tree" && exit 0
fi
command -v git >/dev/null || { echo "$me: git is not installed" >&2; exit 1; }
rm -rf "$dir/tree" "$dir/.unpack" && mkdir -p "$dir/.unpack" || exit 1
tar -xf "$tarball" -C "$dir/.unpack" || { echo "$me: cannot unpack $tarball" >&2; exit 1; }
mv "$dir/.unpack/$(ls "$dir/.unpack")" "$tree" && rmdir "$dir/.unpack" || exit 1
[ -f "$tree/lib/vdso/gettimeofday.c" ] ||
	{ echo "$me: $tarball has no lib/vdso/gettimeofday.c (a kernel before 5.3?)" >&2; exit 1; }
cd "$tree" || exit 1
# Debian's tree ignores everything at its top (its packaging's .gitignore): -f
git init -q -b master . && git add -A -f && git commit -q -m base || exit 1

doc=Documentation/timers/timekeeping.rst
[ -f "$doc" ] || doc=Documentation/index.rst
printf '\n.. The vDSO reads these clocks without entering the kernel.\n' >>"$doc" &&
	git commit -q -a -m "Documentation: a word on the vDSO's clocks" || exit 1

# the regression: before do_hres() reads the clock, 32 more reads of the count
awk '
	/^__cvdso_clock_gettime_common\(/ { infn = 1 }
	infn && /^\treturn do_hres\(vd, clock, ts\);/ {
		print "\t/* wait for a stable sequence count before do_hres() reads it */"
		print "\tfor (msk = 0; msk < 2 * MAX_CLOCKS; msk++)"
		print "\t\tif (!(READ_ONCE(vd->seq) & 1))"
		print "\t\t\tbarrier();"
		print ""
		done = 1
	}
	{ print }
	END { exit !done }' lib/vdso/gettimeofday.c >gtod.c &&
	mv gtod.c lib/vdso/gettimeofday.c ||
	{ echo "$me: lib/vdso/gettimeofday.c is not as expected (no __cvdso_clock_gettime_common)" >&2; exit 1; }
git commit -q -a -m "vdso: wait for a stable sequence count" || exit 1

sed -i '0,/^\/\*\*$/s//\/**\n * (the fast path is read by the vDSO too)/' kernel/time/timekeeping.c &&
	git commit -q -a -m "timekeeping: a comment on the fast path" || exit 1

printf '\n.. It falls back to a system call for clocks it cannot read.\n' >>"$doc" &&
	git commit -q -a -m "Documentation: the vDSO's clocks, once more" || exit 1
echo "$tree"
