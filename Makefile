# SPDX-License-Identifier: GPL-2.0-or-later
#
# ukbench build. Plain make, out of tree:
#   make                  build/ukbench
#   make test             the quick loop: unit and CLI tests, one normal build
#   make check            every test: normal and sanitizer builds, cross, fuzz
#   make SAN=1 O=build-san   AddressSanitizer + UndefinedBehaviorSanitizer
#   make perf-check       the harness against hand-written loops (prints figures)
#   make stopping-sim     bias and coverage of stopping rules, by simulation
#   make validity         every pair of runs spread in time: A/A, coverage, a planted change, replication (VALIDITY_FROM=DIR: a kept run compared anew)
#   make sensitivity      the default suite's length, the headline under load against a plain loop
#   make ref-drift        how much of a path's drift the reference explains (REF_DRIFT_ARGS="SECONDS" or "--processes N")
#   make report-speed     a report of 84 paths written and shown in Chromium: times
#   make format-check     the code against .clang-format
#   make analyze          scan-build and gcc -fanalyzer over the product's code
#
# The core (src/core) needs libc, libm and pthread only; the front end
# links jansson, SQLite, libpq and zstd. Warnings are errors when CI=true or WERROR=1.

VERSION := 0.1.0
GITREV  := $(shell git rev-parse --short HEAD 2>/dev/null)
UKB_VERSION := $(VERSION)$(if $(GITREV),+g$(GITREV))

O       ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wformat=2 -Wmissing-prototypes -Wshadow
ifeq ($(CI),true)
WERROR  ?= 1
endif
ifeq ($(WERROR),1)
WARN    += -Werror
endif
# sanitizers go in their own variable, so that CFLAGS on the command line keeps them
ifeq ($(FUZZ),1)
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined
endif
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

# The parts, lowest first; each may include only those before it (make
# check runs tests/layers.sh to hold that):
#   core    measurement (libc, libm, pthread)
#   bench   the benchmarks, their registry and selection
#   record  the record of a run: its fields, its JSON (written and read), descriptions
#   run     the runners: in this process, in fresh ones, through the 32-bit ABI
#   store   the result store (SQLite, a fleet's PostgreSQL, the spool)
#   check   the vDSO checked against the system call
#   inspect the vDSO looked into: described, disassembled (Capstone), profiled
#   output  a run and a series written out: table, CSV, KTAP, gbench, text plots
#   compare two sides compared: rows, floors, their table, JSON, CSV, mail, markdown
#   report  what 'ukbench report' makes: an HTML page (gnuplot's SVG) or markdown
#   cli     the subcommands
PARTS    := core bench record run store check inspect output compare report cli
CPPFLAGS += -Iinclude $(addprefix -Isrc/,$(PARTS))
# Hidden by default: a name of ours (error, profile_release) must never be
# exported from the executable and take the place of a shared library's own
# (libkrb5, which libpq loads for GSSAPI, calls its profile_release).
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -fvisibility=hidden -MMD -MP

JSON_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
JSON_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
# libpq (libpq-dev): a fleet's PostgreSQL server
JSON_CFLAGS += $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
JSON_LIBS   += $(shell pkg-config --libs libpq 2>/dev/null || echo -lpq)
# zstd (libzstd-dev): the document a fleet's server keeps of a run, compressed
JSON_CFLAGS += $(shell pkg-config --cflags libzstd 2>/dev/null)
JSON_LIBS   += $(shell pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
# Capstone (libcapstone-dev) disassembles for 'ukbench vdso --disasm' and
# the profile; without it ukbench builds and says so where it would be used
CS_LIBS     := $(shell pkg-config --libs capstone 2>/dev/null)
CS_CFLAGS   := $(if $(CS_LIBS),-DHAVE_CAPSTONE $(shell pkg-config --cflags capstone))
# libpfm4 (libpfm4-dev) gives -e the event names of the machine's PMU
PFM_LIBS    := $(shell test -f /usr/include/perfmon/pfmlib_perf_event.h && echo -lpfm)
CS_CFLAGS   += $(if $(PFM_LIBS),-DHAVE_LIBPFM)
CS_LIBS     += $(PFM_LIBS)

CORE_SRC  := $(sort $(wildcard src/core/*.c))
BENCH_SRC := $(sort $(wildcard src/bench/*.c))
# what runs a plan and answers in the run JSON, with libc alone: linked into
# ukbench and into the static 32-bit helper
WORKER_SRC := src/record/record.c src/record/fields.c src/record/json-write.c \
	      src/record/rec-json-write.c src/record/describe.c src/run/plan.c src/run/worker.c
FRONT_SRC := $(filter-out $(WORKER_SRC) src/main/ukbench.c src/main/guest.c src/main/abi32.c,\
	     $(sort $(wildcard $(addsuffix /*.c,$(addprefix src/,record run store check inspect output compare report cli)))))
CLI_SRC   := $(WORKER_SRC) $(FRONT_SRC) src/main/ukbench.c
UNIT_SRC  := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))

obj = $(patsubst %.c,$(O)/%.o,$(1))

# The 32-bit helper (run --abi 32) is optional: it is built when a probe
# program using what it uses (time.h, pthread, libm) compiles and links
# statically with Debian's i686 cross compiler (which coexists with the
# other cross compilers; gcc-multilib does not), else with $(CC) -m32.
# Otherwise it is skipped with one line saying why; build/ukbench never
# depends on it. Not in sanitizer or fuzz builds.
ABI32_PROBE = printf '\043include <time.h>\n\043include <pthread.h>\n\043include <math.h>\nint main(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (int)sqrt((double)t.tv_sec) + (int)pthread_self();}\n' | \
	$(1) -static -x c - -o /dev/null -lm -lpthread >/dev/null 2>&1
ABI32_CC := $(if $(filter 1,$(SAN) $(FUZZ)),,$(shell \
	if command -v i686-linux-gnu-gcc >/dev/null && $(call ABI32_PROBE,i686-linux-gnu-gcc); then \
		echo i686-linux-gnu-gcc; \
	elif $(call ABI32_PROBE,$(CC) -m32); then echo '$(CC) -m32'; fi))
ABI32_OK := $(if $(ABI32_CC),yes)
ABI32_WHY := $(if $(filter 1,$(SAN) $(FUZZ)),not in a sanitizer or fuzz build,\
	$(if $(shell command -v i686-linux-gnu-gcc),i686-linux-gnu-gcc cannot link a static program (libc6-dev-i386-cross missing?),\
	no 32-bit compiler (gcc-i686-linux-gnu and libc6-dev-i386-cross, or gcc-multilib)))
ABI32_SRC = $(CORE_SRC) $(BENCH_SRC) $(WORKER_SRC) src/main/abi32.c

# The guest of `ukbench vm` (its initramfs's /init): the core, the
# benchmarks, the worker and the checks, static, libc alone. Built when
# this compiler links a static program; not in sanitizer or fuzz builds.
GUEST_SRC = $(CORE_SRC) $(BENCH_SRC) $(WORKER_SRC) $(sort $(wildcard src/check/*.c)) \
	    src/main/guest.c
GUEST_OK := $(if $(filter 1,$(SAN) $(FUZZ)),,$(shell $(call ABI32_PROBE,$(CC)) && echo yes))

# and guests for other machines' kernels under QEMU's emulator (arm64,
# ppc64el, s390x), each where Debian's cross compiler links a static
# program (not on that machine, where ukbench-guest is the one)
GUEST_CROSS_CC = $(if $(filter 1,$(SAN) $(FUZZ)),,$(shell \
	test "$$(uname -m)" != $(1) && command -v $(2) >/dev/null && \
	$(call ABI32_PROBE,$(2)) && echo $(2)))
GUEST_A64_CC := $(call GUEST_CROSS_CC,aarch64,aarch64-linux-gnu-gcc)
GUEST_PPC_CC := $(call GUEST_CROSS_CC,ppc64le,powerpc64le-linux-gnu-gcc)
GUEST_S390_CC := $(call GUEST_CROSS_CC,s390x,s390x-linux-gnu-gcc)
GUESTS_CROSS = $(if $(GUEST_A64_CC),$(O)/ukbench-guest-aarch64) \
	$(if $(GUEST_PPC_CC),$(O)/ukbench-guest-ppc64le) $(if $(GUEST_S390_CC),$(O)/ukbench-guest-s390x)

all: $(O)/ukbench $(if $(ABI32_OK),$(O)/ukbench-abi32,abi32-skipped) \
	$(if $(GUEST_OK),$(O)/ukbench-guest,guest-skipped) \
	$(GUESTS_CROSS) $(O)/man/ukbench.1

guest-skipped:
	@echo "note: the guest of 'ukbench vm' is not built: $(if $(filter 1,$(SAN) $(FUZZ)),not in a sanitizer or fuzz build,$(CC) cannot link a static program (libc6-dev))"

$(O)/ukbench-guest-aarch64: GUEST_XCC = $(GUEST_A64_CC)
$(O)/ukbench-guest-ppc64le: GUEST_XCC = $(GUEST_PPC_CC)
$(O)/ukbench-guest-s390x: GUEST_XCC = $(GUEST_S390_CC)
$(O)/ukbench-guest-aarch64 $(O)/ukbench-guest-ppc64le $(O)/ukbench-guest-s390x: \
		$(GUEST_SRC) $(wildcard include/*.h $(addsuffix /*.h,$(addprefix src/,$(PARTS))))
	@mkdir -p $(dir $@)
	$(GUEST_XCC) -static -std=gnu11 $(WARN) -O2 $(CPPFLAGS) -DUKB_VERSION='"$(UKB_VERSION)"' \
		-o $@ $(GUEST_SRC) -lm -lpthread

$(O)/ukbench-guest: $(GUEST_SRC) $(wildcard include/*.h $(addsuffix /*.h,$(addprefix src/,$(PARTS))))
	@mkdir -p $(dir $@)
	$(CC) -static -std=gnu11 $(WARN) -O2 $(CPPFLAGS) -DUKB_VERSION='"$(UKB_VERSION)"' \
		-o $@ $(GUEST_SRC) -lm -lpthread

abi32-skipped:
	@echo "note: the 32-bit helper (run --abi 32) is not built: $(strip $(ABI32_WHY))"

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(JSON_CFLAGS) $(CS_CFLAGS) -c -o $@ $<

# The version is compiled into one object, src/core/version.o, rebuilt
# when the stamp's text changes (a commit, a release), never left stale.
$(O)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(UKB_VERSION)' | cmp -s - $@ || echo '$(UKB_VERSION)' >$@
$(O)/src/core/version.o: $(O)/version.stamp
$(O)/src/core/version.o: CPPFLAGS += -DUKB_VERSION='"$(UKB_VERSION)"'

$(O)/libukbcore.a: $(call obj,$(CORE_SRC))
	rm -f $@ && $(AR) rcs $@ $^

$(O)/libukbbench.a: $(call obj,$(BENCH_SRC))
	rm -f $@ && $(AR) rcs $@ $^

$(O)/ukbench-abi32: $(ABI32_SRC) $(wildcard include/*.h $(addsuffix /*.h,$(addprefix src/,$(PARTS))))
	@mkdir -p $(dir $@)
	$(ABI32_CC) -static -std=gnu11 $(WARN) -O2 $(CPPFLAGS) -DUKB_VERSION='"$(UKB_VERSION)"' \
		-o $@ $(ABI32_SRC) -lm -lpthread

# everything above the benchmarks but main(), so that tests can link it
$(O)/libukbcli.a: $(call obj,$(WORKER_SRC) $(FRONT_SRC))
	rm -f $@ && $(AR) rcs $@ $^

$(O)/ukbench: $(O)/src/main/ukbench.o $(O)/libukbcli.a $(O)/libukbbench.a $(O)/libukbcore.a
	$(CC) $(LDFLAGS) -o $@ $^ $(JSON_LIBS) $(CS_LIBS) -lsqlite3 -lm -lpthread

# ------------------------------------------------------------------
# Tests

UNIT_LIBS := $(O)/libukbbench.a $(O)/libukbcore.a -lcmocka -ldl -lm -lpthread

$(O)/tests/test-stats: $(O)/tests/unit/test-stats.o $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lgsl -lgslcblas -lm

$(O)/tests/test-compare: $(O)/tests/unit/test-compare.o $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lgsl -lgslcblas -lm

$(O)/tests/test-check: $(O)/tests/unit/test-check.o $(O)/libukbcli.a $(O)/libukbbench.a \
		$(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(JSON_LIBS) $(CS_LIBS) -lsqlite3 -lm -lpthread

$(O)/tests/test-store $(O)/tests/test-options $(O)/tests/test-select $(O)/tests/test-sensitivity \
		$(O)/tests/test-output $(O)/tests/test-report $(O)/tests/test-inspect \
		$(O)/tests/test-vm: $(O)/tests/%: $(O)/tests/unit/%.o \
		$(O)/libukbcli.a $(O)/libukbbench.a $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(JSON_LIBS) $(CS_LIBS) -lsqlite3 -lm -lpthread

$(O)/tests/%: $(O)/tests/unit/%.o $(O)/libukbbench.a $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -ldl -lm -lpthread

# ELF images made by the real toolchain, for the vDSO parser's tests
FIXTURES := $(O)/fixtures/vdso-sysv.so $(O)/fixtures/vdso-gnu.so $(O)/fixtures/vdso-both.so \
	    $(O)/fixtures/vdso-otherver.so
FIXTURE_LD = -nostdlib -shared -fPIC -Wl,--version-script=tests/fixtures/vdso.lds

$(O)/fixtures/vdso-sysv.so: tests/fixtures/fake-vdso.c tests/fixtures/vdso.lds
	@mkdir -p $(dir $@)
	$(CC) -O2 $(FIXTURE_LD) -Wl,--hash-style=sysv -o $@ $<
$(O)/fixtures/vdso-gnu.so: tests/fixtures/fake-vdso.c tests/fixtures/vdso.lds
	@mkdir -p $(dir $@)
	$(CC) -O2 $(FIXTURE_LD) -Wl,--hash-style=gnu -o $@ $<
$(O)/fixtures/vdso-both.so: tests/fixtures/fake-vdso.c tests/fixtures/vdso.lds
	@mkdir -p $(dir $@)
	$(CC) -O2 $(FIXTURE_LD) -Wl,--hash-style=both -o $@ $<
$(O)/fixtures/vdso-otherver.so: tests/fixtures/fake-vdso.c tests/fixtures/other.lds
	@mkdir -p $(dir $@)
	$(CC) -O2 -nostdlib -shared -fPIC -Wl,--version-script=tests/fixtures/other.lds \
		-Wl,--hash-style=both -o $@ $<

$(O)/tests/seccomp-exec: tests/tools/seccomp-exec.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -o $@ $<

$(O)/tests/reseed: tests/tools/reseed.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -o $@ $<

# fails one allocation of a command, for tests/faults/alloc.sh (glibc)
$(O)/tests/failalloc.so: tests/tools/failalloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -shared -fPIC -o $@ $<

# the example plug-in, as a user builds one (README, ukbench-plugin(7))
$(O)/examples/plugin-prctl.so: examples/plugin-prctl.c include/ukbench.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -shared -fPIC -Iinclude -o $@ $<

tests: all doc $(O)/examples/plugin-prctl.so $(UNIT_BIN) $(FIXTURES) $(O)/perf-check $(O)/stopping-sim $(O)/tests/seccomp-exec $(O)/tests/reseed $(O)/tests/failalloc.so \
	$(O)/plain-loop $(O)/seccomp-slow $(O)/ref-drift

check:
	tests/check.sh

# the quick loop: one normal build, unit and command-line tests
test: tests
	UKB_TEST_JOBS=$${UKB_TEST_JOBS:-$$(nproc)} tests/run-suite.sh $(O)

# Every architecture: cross-built with Debian's compilers, run under qemu-user
check-cross:
	tests/cross/run.sh

# ------------------------------------------------------------------
# Fuzzing (clang's libFuzzer): make fuzz [FUZZ_SECONDS=N]

FUZZ_TARGETS := elf json options vm
FUZZ_SECONDS ?= 20

$(O)/fuzz/fuzz-elf: $(O)/tests/fuzz/fuzz-elf.o $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=fuzzer,address,undefined -o $@ $^ -lm -lpthread

$(O)/fuzz/fuzz-%: $(O)/tests/fuzz/fuzz-%.o $(O)/libukbcli.a $(O)/libukbbench.a $(O)/libukbcore.a
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(JSON_LIBS) $(CS_LIBS) -lsqlite3 -lm -lpthread

fuzz-build: $(addprefix $(O)/fuzz/fuzz-,$(FUZZ_TARGETS))

fuzz:
	$(MAKE) -s O=build-fuzz CC=clang FUZZ=1 WERROR=0 CFLAGS="-O1 -g" fuzz-build
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# ------------------------------------------------------------------
# Figures

$(O)/perf-check: $(O)/tools/perf-check.o $(O)/libukbbench.a $(O)/libukbcore.a
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread

perf-check: $(O)/perf-check
	$(O)/perf-check

# the stopping rule and the unit of replication, by simulation
$(O)/stopping-sim: $(O)/tests/validation/stopping-sim.o $(O)/libukbcore.a
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread

stopping-sim: $(O)/stopping-sim
	$(O)/stopping-sim

# how much of a path's drift the reference explains, and the previous one
$(O)/ref-drift: $(O)/tests/validation/ref-drift.o $(O)/libukbcore.a
	$(CC) $(LDFLAGS) -o $@ $^ -lm -lpthread

ref-drift: $(O)/ref-drift
	$(O)/ref-drift $(REF_DRIFT_ARGS)

# a report of 84 paths written and opened in headless Chromium: how long
report-speed: all
	tests/report/speed.sh $(O)/ukbench

# what verdicts are worth on this machine, with the real pipeline
validity: all $(O)/plain-loop $(O)/seccomp-slow
	tests/validation/validity.sh

# sides alternating in time: run against neighbour, and as two groups
alternation: all $(O)/seccomp-slow
	UKBENCH=$(O)/ukbench tests/validation/alternation.sh

# the plain loop a developer writes, and a change planted in system-call
# entry: what validity.sh and sensitivity.sh measure ukbench against
$(O)/plain-loop $(O)/seccomp-slow: $(O)/%: tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# the suite's length and the headline under load against a plain loop: figures
sensitivity: all $(O)/plain-loop
	tests/validation/sensitivity.sh

analyze:
	tests/analyze/run.sh

format-check:
	clang-format --dry-run -Werror src/*/*.c include/*.h src/*/*.h \
		tests/unit/*.c tests/fixtures/*.c tests/fuzz/*.c tests/tools/*.c tests/cross/*.c tests/validation/*.c tools/*.c

# The man pages and the completions, made by ukbench from its option tables
doc: $(O)/man/ukbench.1

# made by 'make' too, so that 'man -l build/man/ukbench-run.1' works after
# a build; ukbench.1 last, as it stands for them all
$(O)/man/ukbench.1: $(O)/ukbench
	@mkdir -p $(O)/man $(O)/completion
	@for c in $$($(O)/ukbench --help | sed -n 's/^   \([a-z][a-z0-9-]*\) .*/\1/p'); do \
		$(O)/ukbench __doc man $$c >$(O)/man/ukbench-$$c.1 || exit 1; \
	done
	@$(O)/ukbench __doc bash >$(O)/completion/ukbench
	@$(O)/ukbench __doc zsh >$(O)/completion/_ukbench
	@$(O)/ukbench __doc man >$@.tmp && mv $@.tmp $@

PREFIX ?= /usr/local
INSTALLED = bin/ukbench bin/ukbench-abi32 bin/ukbench-guest bin/ukbench-guest-aarch64 \
	bin/ukbench-guest-ppc64le bin/ukbench-guest-s390x \
	include/ukbench.h lib/pkgconfig/ukbench.pc share/man/man7/ukbench-plugin.7 \
	share/man/man1/ukbench*.1 \
	share/bash-completion/completions/ukbench share/zsh/vendor-completions/_ukbench \
	share/doc/ukbench

# make install [PREFIX=/usr/local] [DESTDIR=]: binaries, man pages, completions, docs
install: all doc
	install -D -m 755 $(O)/ukbench $(DESTDIR)$(PREFIX)/bin/ukbench
	$(if $(ABI32_OK),install -D -m 755 $(O)/ukbench-abi32 $(DESTDIR)$(PREFIX)/bin/ukbench-abi32)
	$(if $(GUEST_OK),install -D -m 755 $(O)/ukbench-guest $(DESTDIR)$(PREFIX)/bin/ukbench-guest)
	$(foreach g,$(GUESTS_CROSS),install -D -m 755 $(g) $(DESTDIR)$(PREFIX)/bin/$(notdir $(g));)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(O)/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -D -m 644 $(O)/completion/ukbench $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ukbench
	install -D -m 644 $(O)/completion/_ukbench $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_ukbench
	install -D -m 644 docs/ukbench-plugin.7 $(DESTDIR)$(PREFIX)/share/man/man7/ukbench-plugin.7
	install -D -m 644 include/ukbench.h $(DESTDIR)$(PREFIX)/include/ukbench.h
	@mkdir -p $(DESTDIR)$(PREFIX)/lib/pkgconfig
	printf 'prefix=%s\nincludedir=$${prefix}/include\n\nName: ukbench\nDescription: %s\nVersion: %s\nCflags: -I$${includedir}\n' \
		'$(PREFIX)' 'plug-ins of ukbench: benchmarks of your own' '$(VERSION)' \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/ukbench.pc
	install -D -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/ukbench/README.md
	install -D -m 644 docs/ARCHITECTURE.md $(DESTDIR)$(PREFIX)/share/doc/ukbench/ARCHITECTURE.md

uninstall:
	cd $(DESTDIR)$(PREFIX) && rm -rf $(INSTALLED)

clean:
	rm -rf build build-san build-fuzz build-cross

.PHONY: alternation sensitivity ref-drift report-speed analyze doc uninstall all abi32-skipped tests test check stopping-sim validity check-cross fuzz fuzz-build perf-check format-check install clean FORCE guest-skipped
FORCE:
.SECONDARY:

# the compiler's dependency files of our own objects only: the build
# directory also keeps kernel trees (tests/vm), whose files are not ours
-include $(wildcard $(O)/*.d) $(shell find $(O)/src $(O)/tests $(O)/tools -name '*.d' -type f 2>/dev/null)
