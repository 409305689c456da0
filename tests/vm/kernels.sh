#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernels.sh DIR [ARCH [COUNT]] - real kernels for the tests of `ukbench
# vm`: the newest COUNT (default 2) of Debian's linux-image-*-FLAVOUR
# packages (ARCH amd64 by default, or arm64: the cloud-ARCH flavour;
# ppc64el: powerpc64le; s390x: s390x), downloaded with apt-get and
# their vmlinuz (vmlinux on powerpc) unpacked into DIR (on s390x with its
# virtio console module beside it, virtio_console-RELEASE.ko: Debian builds
# it as a module) (a build directory: nothing is
# installed, nothing in the tree changes; for another architecture, apt's
# lists of it are kept in DIR too). Kept there for the next run. Prints
# the paths, or why it cannot, and exits non-zero.
set -u
dir=${1:?usage: kernels.sh DIR [ARCH [COUNT]]}
arch=${2:-amd64}
count=${3:-2}
mkdir -p "$dir" || exit 1
case $arch in
ppc64el) flavour=powerpc64le ;;
s390x) flavour=s390x ;;
*) flavour=cloud-$arch ;;
esac
have=$(ls "$dir"/vmlinu[xz]-*-"$flavour" 2>/dev/null | sort -V | tail -"$count")
# an s390x kernel unpacked before its module was: unpacked again
if [ "$arch" = s390x ]; then
	for k in $have; do
		[ -f "$dir/virtio_console-${k##*/vmlinuz-}.ko" ] || have=""
	done
fi
if [ "$(echo "$have" | grep -c .)" = "$count" ]; then
	echo "$have"
	exit 0
fi
command -v apt-cache >/dev/null && command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	{ echo "kernels.sh: no apt-get and dpkg-deb here (not Debian)" >&2; exit 1; }
apt=""
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	# another architecture's package lists, apart from the system's
	lists="$dir/apt-$arch"
	mkdir -p "$lists/lists/partial" "$lists/cache/archives/partial" || exit 1
	apt="-o APT::Architecture=$arch -o APT::Architectures::=$arch -o Dir::State::Lists=$lists/lists
		-o Dir::Cache=$lists/cache -o Dir::State::Status=/dev/null"
	# shellcheck disable=SC2086
	apt-get -q $apt update >"$lists/update.log" 2>&1 ||
		{ echo "kernels.sh: cannot read Debian's $arch package lists (no network?)" >&2; exit 1; }
fi
# shellcheck disable=SC2086
pkgs=$(apt-cache $apt search --names-only "^linux-image-[0-9][0-9.+a-z-]*-$flavour\$" 2>/dev/null |
	awk '{ print $1 }' | grep -v -- '-dbg$\|-unsigned$' | sort -V | tail -"$count")
[ "$(echo "$pkgs" | grep -c .)" = "$count" ] ||
	{ echo "kernels.sh: apt knows fewer than $count linux-image-*-$flavour packages" >&2; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
for p in $pkgs; do
	# shellcheck disable=SC2086
	(cd "$work" && apt-get $apt download -q "$p" >/dev/null 2>&1) ||
		{ echo "kernels.sh: cannot download $p (no network to Debian's archive?)" >&2; exit 1; }
done
for deb in "$work"/*.deb; do
	dpkg-deb --fsys-tarfile "$deb" | (cd "$work" && tar -x --wildcards './boot/vmlinu[xz]-*') ||
		{ echo "kernels.sh: no vmlinuz in $deb" >&2; exit 1; }
	if [ "$arch" = s390x ]; then
		dpkg-deb --fsys-tarfile "$deb" | (cd "$work" &&
			tar -x --wildcards './lib/modules/*/kernel/drivers/char/virtio_console.ko') ||
			{ echo "kernels.sh: no virtio_console.ko in $deb" >&2; exit 1; }
		for m in "$work"/lib/modules/*/kernel/drivers/char/virtio_console.ko; do
			r=${m#"$work"/lib/modules/}
			mv "$m" "$dir/virtio_console-${r%%/*}.ko" || exit 1
		done
	fi
done
mv "$work"/boot/vmlinu[xz]-* "$dir"/ || exit 1
ls "$dir"/vmlinu[xz]-*-"$flavour" | sort -V | tail -"$count"
