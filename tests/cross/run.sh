#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh - every architecture the users work on, with Debian's cross
# compilers and qemu-user:
#   1. shared objects with the architecture's vDSO names and version, linked
#      by its toolchain with --hash-style=sysv, gnu and both, read by the
#      host's ELF reader and checked against the toolchain's nm;
#   2. the core, the benchmarks and a test program built for it (static),
#      run under qemu-user, where a process has no vDSO;
#   3. 'ukbench vdso --file' on each image: its symbols against nm, and a
#      function's instructions (Capstone) against the toolchain's objdump,
#      instruction by instruction address; where this Capstone cannot
#      decode the architecture, the message that says so.
# Prints TAP; an architecture whose compiler is missing is skipped, named.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/build-cross"
host_cc=${CC:-cc}
i=0
status=0
mkdir -p "$out"

# triple:qemu:version
arches="i686-linux-gnu:i386:LINUX_2.6 powerpc-linux-gnu:ppc:LINUX_2.6.15 powerpc64-linux-gnu:ppc64:LINUX_2.6.15
powerpc64le-linux-gnu:ppc64le:LINUX_2.6.15 aarch64-linux-gnu:aarch64:LINUX_2.6.39
riscv64-linux-gnu:riscv64:LINUX_4.15 s390x-linux-gnu:s390x:LINUX_2.6.29"

core=$(ls "$top"/src/core/*.c)
bench=$(ls "$top"/src/bench/*.c)
inc="-I$top/include -I$top/src/core -I$top/src/bench"

tap() {
	i=$((i + 1))
	echo "$1 $i - $2"
}

# the host's reader of the images
"$host_cc" -std=gnu11 -O2 $inc -o "$out/elf-images" "$top/tests/cross/elf-images.c" \
	"$top/src/core/elf-sym.c" "$top/src/core/vdso.c" -lpthread || exit 1
pairs=""

for a in $arches; do
	triple=${a%%:*}
	rest=${a#*:}
	qemu=qemu-${rest%%:*}
	version=${rest#*:}
	d="$out/$triple"
	if ! command -v "$triple-gcc" >/dev/null; then
		tap ok "$triple # SKIP $triple-gcc is not installed"
		continue
	fi
	mkdir -p "$d"
	printf '%s {\n\tglobal:\n\t\t__vdso_*;\n\t\t__kernel_*;\n\tlocal: *;\n};\n' "$version" >"$d/vdso.lds"
	for style in sysv gnu both; do
		so="$d/vdso-$style.so"
		if "$triple-gcc" -O2 -nostdlib -shared -fPIC -Wl,--version-script="$d/vdso.lds" \
			-Wl,--hash-style=$style -o "$so" "$top/tests/fixtures/fake-vdso.c" 2>"$d/build.log" &&
			"$triple-nm" -D --defined-only "$so" >"$so.nm"; then
			pairs="$pairs $so $so.nm"
		else
			tap "not ok" "$triple: cannot link $style image: $(head -3 "$d/build.log")"
			status=1
		fi
	done
	if ! "$triple-gcc" -std=gnu11 -O2 -static -Wall -Wextra $inc -DUKB_VERSION='"cross"' \
		-o "$d/test-cross" "$top/tests/cross/test-cross.c" $core $bench -lm -lpthread \
		>"$d/build.log" 2>&1; then
		tap "not ok" "$triple: the core and benchmarks do not build"
		sed 's/^/#   /' "$d/build.log" | head -20
		status=1
		continue
	fi
	if grep -q "warning:" "$d/build.log"; then
		tap "not ok" "$triple: builds with warnings"
		grep "warning:" "$d/build.log" | sed 's/^/#   /' | head -10
		status=1
	else
		tap ok "$triple: the core and benchmarks build without a warning"
	fi
	if ! command -v "$qemu" >/dev/null; then
		tap ok "$triple under qemu # SKIP $qemu is not installed"
		continue
	fi
	if "$qemu" "$d/test-cross" >"$d/run.log" 2>&1; then
		tap ok "$triple under $qemu: $(grep -c '^ok' "$d/run.log") checks (no vDSO: reported, other paths measured)"
		# the labs' figures under the emulator, and why a path has none
		sed -n 's/^# \(lab\.\)/#   \1/p; s/^ok [0-9]* - \(lab\.[^:]*: \)\(.*\)$/#   \1n\/a: \2/p' "$d/run.log" |
			grep -v ": n/a: measured$"
	else
		tap "not ok" "$triple under $qemu"
		grep -v "^ok" "$d/run.log" | sed 's/^/#   /' | head -20
		status=1
	fi
done

# 'ukbench vdso --file': symbols and disassembly of every architecture
ukb="$top/${O:-build}/ukbench"
for a in $arches; do
	triple=${a%%:*}
	so="$out/$triple/vdso-both.so"
	if [ ! -x "$ukb" ] || [ ! -f "$so" ]; then
		tap ok "$triple: ukbench vdso --file # SKIP no ukbench build or no image"
		continue
	fi
	"$triple-nm" -D --defined-only "$so" | awk '$2 ~ /^[TtDdWw]$/ { sub(/@@/, "@", $3); a = $1; sub(/^0+/, "", a); print a, $3 }' |
		sort >"$out/$triple/nm.syms"
	"$ukb" vdso --file "$so" | awk 'f && NF == 5 { a = $1; sub(/^0+/, "", a); print a, $5 } /^address/ { f = 1 }' |
		sort >"$out/$triple/ukb.syms"
	if [ -s "$out/$triple/nm.syms" ] && cmp -s "$out/$triple/nm.syms" "$out/$triple/ukb.syms"; then
		tap ok "$triple: ukbench vdso --file lists nm's $(wc -l <"$out/$triple/nm.syms") symbols, addresses and versions"
	else
		tap "not ok" "$triple: ukbench vdso --file against nm"
		diff "$out/$triple/nm.syms" "$out/$triple/ukb.syms" | sed 's/^/#   /' | head -10
		status=1
	fi
	if [ "$triple" = powerpc64-linux-gnu ]; then
		# ELFv1: the toolchain exports a function descriptor (.opd); the
		# kernel's vDSO exports code addresses, which is what --disasm reads
		tap ok "$triple: --disasm # SKIP the ELFv1 fixture's symbols are function descriptors"
		continue
	fi
	if "$ukb" vdso --file "$so" --disasm __vdso_getcpu >"$out/$triple/disasm.log" 2>&1; then
		# objdump runs on to the next symbol: only the symbol's own bytes
		set -- $(sed -n 's/.*, \([0-9]*\) bytes at 0x\([0-9a-f]*\).*/\1 \2/p' "$out/$triple/disasm.log")
		"$triple-objdump" -d -z --start-address=0x$2 --stop-address=$((0x$2 + $1)) "$so" |
			awk -F '\t' '/^ *[0-9a-f]+:/ && NF >= 3 { a = $1; sub(/:$/, "", a); sub(/^ *0*/, "", a); print a }' >"$out/$triple/objdump.addr"
		awk '/^ *[0-9a-f]+:  / { a = $1; sub(/:$/, "", a); sub(/^0+/, "", a); print a }' \
			"$out/$triple/disasm.log" >"$out/$triple/ukb.addr"
		if [ -s "$out/$triple/objdump.addr" ] && cmp -s "$out/$triple/objdump.addr" "$out/$triple/ukb.addr"; then
			tap ok "$triple: --disasm __vdso_getcpu decodes objdump's $(wc -l <"$out/$triple/ukb.addr") instructions at its addresses"
		else
			tap "not ok" "$triple: --disasm __vdso_getcpu against objdump"
			diff "$out/$triple/objdump.addr" "$out/$triple/ukb.addr" | sed 's/^/#   /' | head -10
			sed 's/^/#   /' "$out/$triple/disasm.log" | head -10
			status=1
		fi
	elif grep -q "cannot disassemble\|without Capstone" "$out/$triple/disasm.log"; then
		tap ok "$triple: --disasm says why it cannot: $(cat "$out/$triple/disasm.log")"
	else
		tap "not ok" "$triple: --disasm __vdso_getcpu failed"
		sed 's/^/#   /' "$out/$triple/disasm.log" | head -10
		status=1
	fi
done

# every image of every architecture, read on the host
if [ -n "$pairs" ]; then
	"$out/elf-images" $pairs >"$out/images.log" 2>&1 || status=1
	while read -r line; do
		case $line in
		"ok "*) tap ok "image ${line#ok * - }" ;;
		"not ok "*) tap "not ok" "image ${line#not ok * - }" ;;
		esac
	done <"$out/images.log"
fi
echo "1..$i"
exit $status
