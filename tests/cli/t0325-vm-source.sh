#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A patch before and after, for real: Debian's kernel source (the
# linux-source package) made a git tree with a series of four commits, one
# of them a patch that slows the vDSO's clock_gettime (tests/vm/series.sh);
# kernels built from it by tools/build-kernel (cached in the build
# directory: the first build takes minutes, the rest seconds), booted by
# `ukbench vm` under QEMU's emulator, checked, compared, and the series
# bisected by `git bisect run` with `compare --bisect`. Under the emulator
# a figure is the time of emulated instructions: a patch that adds work to
# a path shows, as here; a cache or TLB effect would not.
. "$(dirname "$0")/../lib.sh"

cache="${UKB_BUILD:-$(dirname "$UKBENCH")}/vm-source"
build_kernel="$UKB_TOP/tools/build-kernel"

# Debian's kernel source and what building it needs
prereq_KERNEL_SOURCE() {
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1)
	if [ -z "$tarball" ]; then
		prereq_why="no /usr/src/linux-source-*.tar.xz (Debian's linux-source)"
		return 1
	fi
	for t in make gcc flex bison bc git; do
		if ! command -v $t >/dev/null; then
			prereq_why="'$t' is not installed (a kernel build needs make gcc flex bison bc, the series git)"
			return 1
		fi
	done
	if [ ! -f /usr/include/gelf.h ]; then
		prereq_why="libelf-dev is not installed (the kernel's objtool needs it)"
		return 1
	fi
	return 0
}

prereq_QEMU_X86() {
	qemu-system-x86_64 -version >/dev/null 2>&1 && return 0
	prereq_why="qemu-system-x86_64 is not installed (qemu-system-x86)"
	return 1
}

prereq_X86_64() {
	[ "$(uname -m)" = x86_64 ] && return 0
	prereq_why="the series is built for x86-64, the machine of this host's guest; this is $(uname -m)"
	return 1
}

need=X86_64,KERNEL_SOURCE,QEMU_X86,GUEST,NOT_SANITIZER_SUITE
db="$TEST_ROOT/src.db"
boots="--accel tcg -b 0.3 -p 1"

test_expect_success "$need" 'the series from the source package; a kernel without and with the patch' '
	tree=$(sh "$UKB_TOP/tests/vm/series.sh" "$tarball" "$cache") &&
	test "$(git -C "$tree" log --format=%s | head -5 | tr "\n" "|")" = \
		"Documentation: the vDSO'"'"'s clocks, once more|timekeeping: a comment on the fast path|vdso: wait for a stable sequence count|Documentation: a word on the vDSO'"'"'s clocks|base|" &&
	git -C "$tree" checkout -q -f master~3 &&
	"$build_kernel" -C "$cache" "$tree" >before 2>err && cat err &&
	git -C "$tree" checkout -q -f master~2 &&
	"$build_kernel" -C "$cache" "$tree" >after 2>err && cat err &&
	git -C "$tree" checkout -q -f master &&
	cp before after "$TEST_ROOT"/ &&
	test -s "$(cat before)" && test -s "$(cat after)" &&
	! cmp -s "$(cat before)" "$(cat after)" &&
	# the same state of the tree again: the image kept, nothing built
	git -C "$tree" checkout -q -f master~2 &&
	test "$("$build_kernel" -C "$cache" "$tree" 2>err)" = "$(cat after)" &&
	! grep -q building err &&
	git -C "$tree" checkout -q -f master
'
before=$(cat "$TEST_ROOT/before" 2>/dev/null)
after=$(cat "$TEST_ROOT/after" 2>/dev/null)

test_expect_success "$need" 'vm --check passes on both kernels' '
	test -n "$before" &&
	for k in "$before" "$after"; do
		ukbench vm --check --accel tcg -k "$k" >out 2>err || { cat out err; exit 1; }
		grep -q "^  [0-9]* ok, 0 FAILED" out || { cat out; exit 1; }
	done
'

# the tree built for another architecture of the threads: arm64, by
# Debian's cross compiler, booted under QEMU's arm64 emulator
prereq_ARM64_SOURCE() {
	if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
		prereq_why="aarch64-linux-gnu-gcc is not installed (gcc-aarch64-linux-gnu)"
		return 1
	fi
	prereq_ARM64_GUEST
}

test_expect_success "$need,ARM64_SOURCE" 'the tree built for arm64 too: vm --check passes on it' '
	test -n "$before" &&
	tree=$(sh "$UKB_TOP/tests/vm/series.sh" "$tarball" "$cache") &&
	git -C "$tree" checkout -q -f master &&
	"$build_kernel" -a arm64 -C "$cache" "$tree" >arm64 2>err || { cat err; exit 1; } &&
	k=$(cat arm64) &&
	test "$(od -An -c -j 56 -N 4 "$k" | tr -d " ")" = ARMd &&
	ukbench vm --check -k "$k" >out 2>err || { cat out err; exit 1; } &&
	grep -q "the aarch64 kernels boot under QEMU.s emulator (TCG)" err &&
	grep -q "^  ok verify clock_gettime monotonic: " out &&
	grep -q "^  [0-9]* ok, 0 FAILED" out
'

# What load cannot change: no verdict is wrong. The emulator's boots on a
# quiet host tell the patch (+182%, MDE 7%: docs/kernels.md); on a host
# loaded twice over their MDE passes 100%, and "cannot tell" is the truth.
test_expect_success "$need" 'compared boot by boot: the vDSO path regressed, the system call not' '
	test -n "$before" &&
	ukbench vm --db "$db" $boots --boots 5 -k "$before" -l before -k "$after" -l after \
		syscall.null time.clock_gettime.monotonic >out 2>err &&
	test "$(grep -c "^boot [0-9]*: .*stored as run" out)" = 10 &&
	ukbench compare --db "$db" --all --alpha 0.01 before after >cmp &&
	cat cmp >&2 &&
	ukbench compare --db "$db" --all --alpha 0.01 -f json before after >cmp.json &&
	jq -e "map(select(.name == \"time.clock_gettime.monotonic\" and .path == \"vdso\"))[0] |
		.verdict == \"regressed\" or (.mde > 1 and .verdict != \"improved\"
		and .verdict != \"no change\" and .verdict != \"within noise\")" cmp.json &&
	jq -e "map(select(.name == \"syscall.null\" and .path == \"syscall\"))[0] | .verdict != \"regressed\"" cmp.json
'

# Each step boots the good kernel and the commit's alternating, so that the
# host's drift falls on both; a step that cannot tell boots both again, up
# to three rounds (an emulator on a loaded host moves by tens of percent
# from boot to boot), before it says skip.
test_expect_success "$need" 'git bisect run names the commit of the patch' '
	test -n "$before" &&
	tree="$cache/tree" &&
	cat >step.sh <<-EOF &&
	c=\$(git rev-parse --short HEAD)
	k=\$("$build_kernel" -C "$cache" .) || exit 125
	for round in 1 2 3; do
		"$UKBENCH" vm --db "$db" $boots --boots 3 -k "$before" -l good -k "\$k" -l "\$c" \
			time.clock_gettime.monotonic >/dev/null 2>&1 || exit 125
		"$UKBENCH" compare --db "$db" --all --bisect 25 good "\$c" time.clock_gettime.monotonic/vdso
		rc=\$?
		[ \$rc = 125 ] || exit \$rc
	done
	exit 125
	EOF
	(cd "$tree" && git bisect start master master~4 >/dev/null &&
		git bisect run sh "$OLDPWD/step.sh" >"$OLDPWD/bisect" 2>&1; git bisect reset master >/dev/null 2>&1) &&
	cat bisect &&
	patch=$(git -C "$tree" rev-parse master~2) &&
	if grep -q "^[0-9a-f]* is the first bad commit" bisect; then
		grep -q "^$patch is the first bad commit" bisect
	else
		# every step a skip (a loaded host): the patch among those left, none blamed
		grep -q "only .skip.ped commits left" bisect &&
		sed -n "/could be any of/,/cannot bisect/p" bisect | grep -q "^$patch$"
	fi
'

test_expect_success 'build-kernel: bad usage 2, what cannot be built 1, said' '
	test_expect_code 2 "$build_kernel" -a sparc . 2>err &&
	grep -q "no configuration for .sparc." err &&
	test_expect_code 2 "$build_kernel" -C "$TEST_ROOT/c" "$TEST_ROOT/nosuch" 2>err &&
	grep -q "neither a directory nor a tarball" err &&
	mkdir notatree &&
	test_expect_code 2 "$build_kernel" -C "$TEST_ROOT/c" notatree 2>err &&
	grep -q "not a kernel tree" err &&
	test_expect_code 2 "$build_kernel" -j x . 2>err &&
	grep -q "positive number" err &&
	"$build_kernel" --help >help &&
	grep -q "^usage\|^build-kernel" help
'

test_expect_success GUEST,NOT_SANITIZER_SUITE 'vm: a kernel that prints nothing is given up at its deadline, its lack said' '
	cat >silent-qemu <<-\EOF &&
	#!/bin/sh
	# a machine whose kernel never prints
	[ "$1" = -version ] && { echo "QEMU emulator version 0 (silent)"; exit 0; }
	exec sleep 60
	EOF
	chmod +x silent-qemu &&
	: >fake.img && printf "HdrS" | dd of=fake.img bs=1 seek=514 conv=notrunc 2>/dev/null &&
	test_expect_code 1 ukbench vm --db s.db --accel tcg --qemu ./silent-qemu --timeout 2 \
		--boots 3 -k fake.img syscall.null >out 2>err &&
	cat err &&
	grep -q "fake.img: the kernel printed nothing after 2.0 s" err &&
	grep -q "hint: the kernel seems to lack a serial console: CONFIG_SERIAL_8250" err &&
	grep -q "fake.img: not booted again" err &&
	test "$(grep -c "printed nothing" err)" = 1
'

test_done
