#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `ukbench vm`: two real kernels from Debian's archive (tests/vm/kernels.sh
# fetches them into the build directory) booted under QEMU's emulator,
# twice each, alternating; each boot stored as a run of its own with the
# kernel release the guest reported and the emulator's facts; compared,
# each boot one observation. `--check` inside a guest. A kernel that
# panics, an image that is no kernel, a missing emulator: each said, none
# hung, nothing left behind. Plans are small: the test takes a minute.
. "$(dirname "$0")/../lib.sh"

kernels="${UKB_BUILD:-$(dirname "$UKBENCH")}/vm-kernels"

# the system emulator for x86-64 (Debian's qemu-system-x86)
prereq_QEMU_X86() {
	qemu-system-x86_64 -version >/dev/null 2>&1 && return 0
	prereq_why="qemu-system-x86_64 is not installed (qemu-system-x86)"
	return 1
}

# two x86-64 kernels of Debian's, unpacked into the build directory
prereq_KERNELS() {
	out=$(sh "$UKB_TOP/tests/vm/kernels.sh" "$kernels" amd64 2 2>&1) && return 0
	prereq_why=$(echo "$out" | tail -1)
	return 1
}

# an arm64 kernel of Debian's, QEMU's arm64 emulator, the guest cross-built for it
prereq_ARM64() {
	prereq_ARM64_GUEST || return 1
	out=$(sh "$UKB_TOP/tests/vm/kernels.sh" "$kernels" arm64 1 2>&1) && return 0
	prereq_why=$(echo "$out" | tail -1)
	return 1
}

need=QEMU_X86,GUEST,NOT_SANITIZER_SUITE,KERNELS
if test_have_prereq "$need"; then
	k1=$(ls "$kernels"/vmlinuz-*-cloud-amd64 | sort -V | tail -2 | head -1)
	k2=$(ls "$kernels"/vmlinuz-*-cloud-amd64 | sort -V | tail -1)
	r1=${k1##*/vmlinuz-}
	r2=${k2##*/vmlinuz-}
fi
db="$TEST_ROOT/vm.db"

test_expect_success "$need" 'two kernels, two boots each, alternating: four runs, each its release' '
	ukbench vm --db "$db" --accel tcg --boots 2 -k "$k1" -k "$k2" -b 0.05 -p 2 \
		syscall.null time.clock_gettime.monotonic >out 2>err &&
	cat out err &&
	test "$(grep -c "^boot [1-4]: .*(tcg), kernel up in [0-9.]* s, .* 5 paths, stored as run #" out)" = 4 &&
	grep -q "emulator" err &&
	test "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE label = '\''$r1'\'' AND kernel_release = '\''$r1'\''")" = 2 &&
	test "$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE label = '\''$r2'\'' AND kernel_release = '\''$r2'\''")" = 2 &&
	test "$(sqlite3 "$db" "SELECT count(DISTINCT json_extract(environment, '\''$.boot_id'\'')) FROM runs")" = 4 &&
	grep -q "each boot one observation: ukbench compare --all '\''$r1'\'' '\''$r2'\''" out
'

test_expect_success "$need" 'each run keeps the emulator, its version, the guest and the host' '
	ukbench show --db "$db" -f json 1 >r.json &&
	jq -e ".settings.precision == 0.02 and .settings.budget_s == 0.05" r.json &&
	jq -e ".settings.vm.accel == \"tcg\" and (.settings.vm.qemu | startswith(\"QEMU emulator version\"))
		and .settings.vm.memory_mb == 512 and .settings.vm.cpus == 1
		and (.settings.vm.host.kernel_release | length > 0)
		and .host == \"ukbench-guest\" and .environment.machine == \"x86_64\"" r.json &&
	test "$(sqlite3 "$db" "SELECT DISTINCT source FROM runs")" = vm
'

test_expect_success "JSONSCHEMA,$need" 'a run of vm is valid by docs/schema, and by KCIDB'"'"'s' '
	ukbench show --db "$db" -f json 2 >r2.json &&
	"${PYTHON:-/usr/bin/python3}" "$UKB_TOP/tests/schema/validate.py" ukbench-run.schema.json r2.json &&
	ukbench show --db "$db" -f kcidb 2 >k2.json &&
	"$UKB_TOP/tests/schema/kcidb-validate.py" k2.json &&
	img=$(jq -r .settings.vm.image r2.json) &&
	jq -e --arg img "$img" --arg rel "$(jq -r .environment.kernel_release r2.json)" \
		".builds[0].misc.image == \$img and .builds[0].architecture == \"x86_64\"
		and .checkouts[0].id == (\"ukbench:\" + \$rel)
		and (.builds | length) == 1 and (.builds[0].id as \$b | all(.tests[]; .build_id == \$b))" k2.json
'

test_expect_success "$need" 'compare --all: each boot one observation' '
	ukbench compare --db "$db" --all "$r1" "$r2" >cmp &&
	cat cmp &&
	grep -q "2 boots" cmp &&
	grep -q "^floor: none added: each side.s boots are its observations" cmp &&
	grep -q "^syscall.null  *syscall " cmp &&
	grep -q "^time.clock_gettime.monotonic  *vdso " cmp
'

test_expect_success "$need" 'vm --check: the vDSO checked against the system call in the guest' '
	{ ukbench vm --check --accel tcg --boots 1 -k "$k2" >out 2>err; rc=$?; } &&
	cat out err &&
	test "$rc" = 0 &&
	grep -q "^  ok verify clock_gettime" out &&
	grep -q "^  ok abi " out &&
	! grep -q "^  FAILED" out &&
	n=$(grep -c "^  ok " out) &&
	grep -q "^  $n ok, 0 FAILED, [0-9]* skipped, [0-9]* known behaviour$" out
'

test_expect_success "$need" 'a kernel that panics: said, with its panic line, not hung' '
	test_expect_code 1 ukbench vm --no-store --accel tcg --boots 1 --timeout 120 \
		--append rdinit=/nothing-here -k "$k1" -b 0.05 syscall.null 2>err &&
	cat err &&
	grep -q "the kernel panicked after [0-9.]* s: Kernel panic - not syncing" err &&
	grep -q "the console.s end:" err
'

test_expect_success "$need" 'an image that is no kernel, a missing emulator, no kernel at all' '
	test_expect_code 2 ukbench vm --no-store --accel tcg --boots 1 -k "$UKBENCH" syscall.null 2>err &&
	grep -q "not a kernel image ukbench boots (an x86-64 bzImage, an arm64 Image, a ppc64 or s390x vmlinux)" err &&
	test_expect_code 1 ukbench vm --no-store --qemu /nonexistent/qemu -k "$k1" 2>err &&
	grep -q "install Debian.s qemu-system-x86" err &&
	test_expect_code 2 ukbench vm syscall.null 2>err &&
	grep -q "needs a kernel to boot" err &&
	test_expect_code 2 ukbench vm -k /nonexistent 2>err &&
	grep -q "No such file" err
'

test_expect_success "$need" 'interrupted: the emulator goes with it, nothing stored' '
	rm -f sidfile
	test_in_session sidfile "$UKBENCH" vm --db "$TEST_ROOT/int.db" --accel tcg --boots 3 \
		-k "$k1" -b 0.5 syscall.null >out 2>err &
	pid=$!
	sid=$(test_session_id sidfile)
	test_session_runs "$sid" "qemu-system-[^ ]* .* -kernel " 60 &&
	kill -s INT -- -"$sid"
	wait $pid; rc=$?
	cat err &&
	test "$rc" = 130 &&
	grep -q "interrupted by signal 2 after 1 boots" err &&
	! grep -q "QEMU failed" err &&
	test_session_empty "$sid" 5 &&
	test "$(sqlite3 "$TEST_ROOT/int.db" "SELECT count(*) FROM runs")" = 0
'

test_expect_success "$need" 'auto: KVM tried first, the emulator when KVM does not boot' '
	ukbench vm --db "$TEST_ROOT/auto.db" --boots 1 -k "$k1" -b 0.05 syscall.null >out 2>err &&
	cat out err &&
	accel=$(ukbench show --db "$TEST_ROOT/auto.db" -f json | jq -r .settings.vm.accel) &&
	case $accel in
	kvm) ! grep -q "emulator" err ;;
	tcg) grep -q "QEMU.s emulator (TCG) boots the kernels\|no KVM here" err ;;
	*) false ;;
	esac
'

# git bisect run over commits that select one of the two kernels (as a
# kernel tree's commits would build one): the good kernel measured once,
# each step booting the commit's kernel under the commit's label. Under
# the emulator boots differ by tens of percent, so a step may well answer
# "cannot tell" (skip); what must hold is that each step boots the kernel
# its commit names, answers 0, 1 or 125 (never an error), and the
# bisection ends with a commit or with why it cannot name one.
test_expect_success "GIT,$need" 'git bisect run: vm boots each commit'"'"'s kernel, compare --bisect answers' '
	bdb="$TEST_ROOT/bisect.db" &&
	ukbench vm --db "$bdb" --accel tcg --boots 2 -l good -k "$k1" -b 0.05 syscall.null >/dev/null 2>&1 &&
	git init -q repo && cd repo &&
	git config user.email t@example.org && git config user.name t &&
	for i in 1 2 3 4; do
		if [ $i -ge 3 ]; then echo "$k2" >kernel; else echo "$k1" >kernel; fi &&
		git add kernel && git commit -q --allow-empty -m "commit $i" || return 1
	done &&
	cat >../step.sh <<-EOF &&
	c=\$(git rev-parse --short HEAD)
	"$UKBENCH" vm --db "$bdb" --accel tcg --boots 2 -l "\$c" -k "\$(cat kernel)" -b 0.05 \\
		syscall.null >/dev/null 2>&1 || exit 125
	"$UKBENCH" compare --db "$bdb" --all --bisect 3 good "\$c" syscall.null
	rc=\$?
	echo "\$c \$(basename \$(cat kernel)) \$rc" >>../steps
	exit \$rc
	EOF
	git bisect start HEAD HEAD~3 >/dev/null &&
	{ git bisect run sh ../step.sh >../bisect.out 2>&1 || true; } &&
	cat ../bisect.out ../steps &&
	test -s ../steps &&
	while read -r c k rc; do
		case $rc in 0 | 1 | 125) ;; *) echo "step $c exited $rc"; return 1 ;; esac &&
		rel=$(sqlite3 "$bdb" "SELECT DISTINCT kernel_release FROM runs WHERE label = '"'"'$c'"'"'") &&
		test "vmlinuz-$rel" = "$k" || { echo "$c booted $rel, not $k"; return 1; }
	done <../steps &&
	{ grep -q "is the first bad commit" ../bisect.out ||
		grep -q "only .skip.ped commits left to test" ../bisect.out; } &&
	git bisect reset >/dev/null
'

need64=QEMU_X86,GUEST,NOT_SANITIZER_SUITE,ARM64
if test_have_prereq "$need64"; then
	ka=$(ls "$kernels"/vmlinuz-*-cloud-arm64 | sort -V | tail -1)
	ra=${ka##*/vmlinuz-}
fi

test_expect_success "$need64" 'an arm64 kernel under the emulator: measured, and its vDSO checked' '
	ukbench vm --db "$TEST_ROOT/a64.db" --boots 1 -k "$ka" -b 0.05 syscall.null \
		time.clock_gettime.monotonic >out 2>err &&
	cat out err &&
	grep -q "the aarch64 kernels boot under QEMU.s emulator (TCG)" err &&
	grep -q "^boot 1: .*, Linux $ra (tcg), .* 5 paths, stored as run #1" out &&
	ukbench show --db "$TEST_ROOT/a64.db" -f json >a.json &&
	jq -e ".environment.machine == \"aarch64\" and .vdso.prefix == \"__kernel_\"" a.json &&
	ukbench vm --check --boots 1 -k "$ka" >chk 2>err &&
	grep -q "^  ok verify clock_gettime monotonic: " chk &&
	grep -q "^  ok verify getrandom" chk &&
	! grep -q "^  FAILED" chk &&
	grep -q "^  [0-9]* ok, 0 FAILED, [0-9]* skipped, [0-9]* known behaviour$" chk
'

# Debian's ppc64el and s390x kernels, QEMU's emulators of them, the guests cross-built
prereq_PPC64EL() { cross_kit ppc64el ppc64le qemu-system-ppc64 qemu-system-ppc; }
prereq_S390X() { cross_kit s390x s390x qemu-system-s390x qemu-system-misc; }
cross_kit() {
	if ! $3 -version >/dev/null 2>&1; then
		prereq_why="$3 is not installed ($4)"
		return 1
	fi
	if [ ! -x "$(dirname "$UKBENCH")/ukbench-guest-$2" ]; then
		prereq_why="ukbench-guest-$2 was not built (Debian's cross compiler for $1 and its libc6-dev)"
		return 1
	fi
	out=$(sh "$UKB_TOP/tests/vm/kernels.sh" "$kernels" "$1" 1 2>&1) && return 0
	prereq_why=$(echo "$out" | tail -1)
	return 1
}

test_expect_success "PPC64EL,GUEST,NOT_SANITIZER_SUITE" 'a ppc64el kernel on pseries: its vDSO checked, its paths measured' '
	kp=$(ls "$kernels"/vmlinux-*-powerpc64le | sort -V | tail -1) &&
	ukbench vm --check --boots 1 -k "$kp" >chk 2>err &&
	cat chk err &&
	grep -q "the ppc64le kernels boot under QEMU.s emulator (TCG)" err &&
	grep -q "^  ok verify clock_gettime monotonic: " chk &&
	grep -q "^  ok verify gettimeofday" chk &&
	! grep -q "^  FAILED" chk &&
	grep -q "^  [0-9]* ok, 0 FAILED, [0-9]* skipped, [0-9]* known behaviour$" chk &&
	ukbench vm --db p.db --boots 1 -k "$kp" -b 0.05 time.clock_gettime.monotonic >out 2>err &&
	ukbench show --db p.db -f json >p.json &&
	jq -e ".environment.machine == \"ppc64le\" and .vdso.prefix == \"__kernel_\"
		and (.results | map(select(.status == \"ok\")) | length) == 3" p.json
'

# Debian's s390x kernel builds virtio_console as a module: without it the
# guest has no port to answer on, and vm says what to give; with --module
# the guest loads it first
test_expect_success "S390X,GUEST,NOT_SANITIZER_SUITE" 'an s390x kernel: without its console module, said; with it, checked and measured' '
	ks=$(ls "$kernels"/vmlinuz-*-s390x | sort -V | tail -1) &&
	mod="$kernels/virtio_console-${ks##*/vmlinuz-}.ko" &&
	test_expect_code 1 ukbench vm --check --boots 1 -k "$ks" >chk 2>err &&
	cat err &&
	grep -q "the s390x kernels boot under QEMU.s emulator (TCG)" err &&
	grep -q "  | ukbench-guest: no port for the answer" err &&
	grep -q "hint: the kernel seems to lack a virtio console: CONFIG_VIRTIO_CCW and CONFIG_VIRTIO_CONSOLE=y, or its module given with --module virtio_console.ko" err &&
	{ ukbench vm --check --boots 1 -k "$ks" --module "$mod" >chk 2>err || { cat chk err; false; }; } &&
	grep -q "^  ok verify clock_gettime monotonic: " chk &&
	! grep -q "^  FAILED" chk &&
	grep -q "^  [0-9]* ok, 0 FAILED, [0-9]* skipped, [0-9]* known behaviour$" chk &&
	{ ukbench vm --db s.db --boots 1 -k "$ks" --module "$mod" -b 0.05 \
		time.clock_gettime.monotonic >out 2>err || { cat out err; false; }; } &&
	ukbench show --db s.db -f json >s.json &&
	{ jq -e ".environment.machine == \"s390x\" and .vdso.prefix == \"__kernel_\"
		and (.results | map(select(.status == \"ok\")) | length) == 3" s.json ||
		{ jq -c "[.results[] | [.name, .path, .status, .reason]]" s.json; false; }; } &&
	# a module for no kernel given, a file that is none: refused before a boot
	test_expect_code 2 ukbench vm --check -k "$ks" --module /etc/passwd 2>err &&
	grep -q "not a kernel module (a 64-bit ELF relocatable object" err
'

# An emulator of the test's own, which QEMU's arguments reach: what the
# runner makes of a guest that answers, one that hangs, one that is silent.
fake_qemu() {
	cat >"$1" <<-EOF
	#!/bin/sh
	# the two serial ports: -serial file:/dev/fd/N
	con= ans= cpu=
	while [ \$# -gt 0 ]; do
		case \$1 in
		-version) echo "QEMU emulator version 0.0 (a test's own)"; exit 0 ;;
		-serial) if [ -z "\$con" ]; then con=\${2#file:}; else ans=\${2#file:}; fi; shift ;;
		-cpu) cpu=\$2; shift ;;
		esac
		shift
	done
	$2
	EOF
	chmod +x "$1"
}

test_expect_success GUEST 'the runner: an answer kept, a hung guest killed at --timeout, silence said' '
	cp "$UKB_TOP/tests/golden/runs/before-1.json" answer.json &&
	# the start of a bzImage: the magic of its boot header at 0x202
	{ head -c 514 /dev/zero; printf HdrS; head -c 64 /dev/zero; } >fake.img &&
	fake_qemu answers "echo \"Linux version 9.9.9-test\" >\"\$con\"; cat $PWD/answer.json >\"\$ans\"" &&
	ukbench vm --db "$TEST_ROOT/fake.db" --qemu ./answers --accel tcg --boots 1 \
		-k fake.img -l fake syscall.null >out 2>err &&
	cat out &&
	grep -q "^boot 1: .*, Linux 6.18.0-golden (tcg), kernel up in [0-9.]* s, .* 5 paths, stored as run #1 .fake." out &&
	test "$(sqlite3 "$TEST_ROOT/fake.db" "SELECT count(*) FROM runs WHERE label = '\''fake'\'' AND source = '\''vm'\''")" = 1 &&
	jq -e ".settings.vm.qemu == \"QEMU emulator version 0.0 (a test'\''s own)\"" \
		<"$(ukbench show --db "$TEST_ROOT/fake.db" -f json >shown.json && echo shown.json)" &&
	fake_qemu hangs "echo \"Linux version 9.9.9-test\" >\"\$con\"; exec sleep 60" &&
	start=$(date +%s) &&
	test_expect_code 1 ukbench vm --no-store --qemu ./hangs --accel tcg --boots 1 --timeout 2 \
		-k fake.img syscall.null 2>err &&
	test $(($(date +%s) - start)) -lt 20 &&
	grep -q "the boot ran out of time after" err &&
	fake_qemu quiet "exit 0" &&
	test_expect_code 1 ukbench vm --no-store --qemu ./quiet --accel tcg --boots 1 \
		-k fake.img syscall.null 2>err &&
	grep -q "powered off without an answer after .* (the kernel printed no line)" err
'

# KVM as nested guests see it: "-cpu host" fails on IA32_ARCH_CAPABILITIES;
# the model without it boots. An emulator of the test's own plays it.
prereq_KVM_DEV() {
	if [ "$(uname -m)" != x86_64 ] || ! { exec 3<>/dev/kvm; } 2>/dev/null; then
		prereq_why="/dev/kvm cannot be opened on this x86-64 host (vm tries KVM only where it can)"
		return 1
	fi
	exec 3>&-
	return 0
}

test_expect_success GUEST,KVM_DEV 'KVM: a CPU model without the MSR QEMU cannot set, tried and kept' '
	# each boot answers a run of its own: no UUID, the store gives one
	jq "del(.uuid)" "$UKB_TOP/tests/golden/runs/before-1.json" >answer.json &&
	{ head -c 514 /dev/zero; printf HdrS; head -c 64 /dev/zero; } >fake.img &&
	fake_qemu msr "case \$cpu in
		host) echo \"qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69\" >&2; exit 1 ;;
		host,-arch-capabilities) echo \"Linux version 9.9.9-test\" >\"\$con\"; cat $PWD/answer.json >\"\$ans\" ;;
		*) exit 3 ;;
		esac" &&
	ukbench vm --db "$TEST_ROOT/msr.db" --qemu ./msr --boots 2 -k fake.img -l msr syscall.null >out 2>err &&
	cat out err &&
	grep -q "^warning: KVM: QEMU failed before the kernel started (qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69); trying -cpu host,-arch-capabilities$" err &&
	test "$(grep -c "trying -cpu" err)" = 1 &&
	test "$(grep -c "^boot [12]: .* (kvm, -cpu host,-arch-capabilities), kernel up in" out)" = 2 &&
	ukbench runs --db "$TEST_ROOT/msr.db" -f json | jq -r ".[].id" >ids &&
	for id in $(cat ids); do
		ukbench show --db "$TEST_ROOT/msr.db" "$id" -f json |
			jq -e ".settings.vm.accel == \"kvm\" and .settings.vm.cpu == \"host,-arch-capabilities\"" >/dev/null || return 1
	done &&
	test "$(wc -l <ids)" = 2
'

test_expect_success GUEST 'vm --check: a failed check in the guest is counted, and fails' '
	{ head -c 514 /dev/zero; printf HdrS; head -c 64 /dev/zero; } >fake.img &&
	printf "ok verify clock_gettime realtime: 384 reads\nFAILED verify time : off by 2 s\nskipped verify getcpu : not in this vDSO\n" >answer.txt &&
	fake_qemu answers "echo \"Linux version 9.9.9-test\" >\"\$con\"; cat $PWD/answer.txt >\"\$ans\"" &&
	test_expect_code 1 ukbench vm --check --qemu ./answers --accel tcg --boots 1 -k fake.img >out 2>err &&
	cat out err &&
	grep -q "^  FAILED verify time : off by 2 s$" out &&
	grep -q "^  1 ok, 1 FAILED, 1 skipped, 0 known behaviour$" out
'

test_done
