#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernels.sh DIR - two real kernels for the tests of `ukbench vm`: the two
# newest of Debian's linux-image-*-cloud-amd64 packages this machine's apt
# knows, downloaded (apt-get download) and their vmlinuz unpacked into
# DIR (a build directory: nothing is installed, nothing in the tree
# changes). Kept there for the next run. Prints the two paths, or why it
# cannot, and exits non-zero.
set -u
dir=${1:?usage: kernels.sh DIR}
mkdir -p "$dir" || exit 1
have=$(ls "$dir"/vmlinuz-* 2>/dev/null | sort -V | tail -2)
if [ "$(echo "$have" | grep -c .)" = 2 ]; then
	echo "$have"
	exit 0
fi
command -v apt-cache >/dev/null && command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	{ echo "kernels.sh: no apt-get and dpkg-deb here (not Debian)" >&2; exit 1; }
pkgs=$(apt-cache search --names-only '^linux-image-[0-9][0-9.+a-z-]*-cloud-amd64$' 2>/dev/null |
	awk '{ print $1 }' | grep -v -- '-dbg$\|-unsigned$' | sort -V | tail -2)
[ "$(echo "$pkgs" | grep -c .)" = 2 ] ||
	{ echo "kernels.sh: apt knows fewer than two linux-image-*-cloud-amd64 packages" >&2; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
for p in $pkgs; do
	(cd "$work" && apt-get download -q "$p" >/dev/null 2>&1) ||
		{ echo "kernels.sh: cannot download $p (no network to Debian's archive?)" >&2; exit 1; }
done
for deb in "$work"/*.deb; do
	dpkg-deb --fsys-tarfile "$deb" | (cd "$work" && tar -x --wildcards './boot/vmlinuz-*') ||
		{ echo "kernels.sh: no vmlinuz in $deb" >&2; exit 1; }
done
mv "$work"/boot/vmlinuz-* "$dir"/ || exit 1
ls "$dir"/vmlinuz-* | sort -V | tail -2
