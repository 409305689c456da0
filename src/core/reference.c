// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reference.c - the reference work timed beside every batch (see
 * reference.h). Plain C but for one instruction barrier: what matters is
 * that it is the same work in every run on a machine, not what it costs.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "fnv.h"
#include "reference.h"

/*
 * The work: a chain of calls and returns, three deep (seven calls an
 * iteration), each doing a multiply-add (UKB_REF_CALLS); for the paths
 * that call the vDSO, the same chain whose every leaf also waits at the
 * architecture's instruction barrier and loads from a 4 KiB table
 * (UKB_REF_CALLS_BARRIER). No system call, no kernel code.
 *
 * Why calls: a system call and a vDSO call are calls and returns too (into
 * the kernel's entry, through its return thunks, back), and what slows
 * them on a shared machine (the other hardware thread of the core
 * competing for the return predictor and the front end, another tenant's
 * code evicting the branch history) slows a call chain as well. Why a
 * barrier for the vDSO: its clock reads are ordered (lfence; rdtsc on x86,
 * isb on arm64), and a reference that waits as they wait moves as they do.
 *
 * Why a loop after the chain for the paths that make a system call: some
 * hosts put a vCPU for milliseconds at a time into a state where a system
 * call slows far more than a chain of calls does, and a loop of dependent
 * additions slows with it. What each candidate left unexplained, and on
 * which machines, is in docs/method.md; tests/validation/ref-drift.c
 * (make ref-drift) measures it on the machine at hand.
 */
static volatile uint32_t sink;

/*
 * Where the work lies is part of it: a chain of calls costs what the
 * lines and fetch windows its branches fall on make it cost, and what it
 * explains of a path moves with that, so the work must not move when
 * code elsewhere in the binary changes. The plain chain lies packed in a
 * section of its own, its functions 16 bytes apart from the start of a
 * 64-byte line, its calls and returns sharing fetch windows as they did
 * where the builds that tracked the system call best had put them; the
 * chain with the barrier starts a line with every function. The same in
 * every build of one compiler, and the kind a run records (ukb_ref_kind())
 * says where each lay.
 */
#define UKB_REF_SECTION section(".text.ukb_ref")
#define UKB_REF_PACKED	__attribute__((noinline, aligned(16), UKB_REF_SECTION))
#define UKB_REF_CODE	__attribute__((noinline, aligned(64)))
/* 4 KiB: in the first-level data cache of every CPU ukbench runs on */
static volatile uint32_t table[1024];

/* first in its section, which it starts on a 64-byte line */
static __attribute__((noinline, aligned(64), UKB_REF_SECTION)) uint32_t ref_leaf(uint32_t x)
{
	/* opaque to the compiler: the call stays a call */
	__asm__ volatile("" : "+r"(x));
	return x * 1103515245u + 12345u;
}

static UKB_REF_PACKED uint32_t ref_mid(uint32_t x)
{
	return ref_leaf(x) + ref_leaf(x ^ 1u);
}

static UKB_REF_PACKED uint32_t ref_top(uint32_t x)
{
	return ref_mid(x) + ref_mid(x + 7u);
}

static UKB_REF_PACKED uint32_t ref_loop(uint64_t iters)
{
	uint32_t s = 0;

	for (uint64_t i = 0; i < iters; i++)
		s += ref_top(s);
	return s;
}

static UKB_REF_CODE uint32_t bar_leaf(uint32_t x)
{
	uint32_t y = x * 1103515245u + 12345u;

	ukb_ref_barrier();
	return y + table[(y >> 8) & 1023];
}

static UKB_REF_CODE uint32_t bar_mid(uint32_t x)
{
	return bar_leaf(x) + bar_leaf(x ^ 1u);
}

static UKB_REF_CODE uint32_t bar_top(uint32_t x)
{
	return bar_mid(x) + bar_mid(x + 7u);
}

static UKB_REF_CODE uint32_t bar_loop(uint64_t iters)
{
	uint32_t s = 0;

	for (uint64_t i = 0; i < iters; i++)
		s += bar_top(s);
	return s;
}

/*
 * 40 dependent additions, each held in a register by an empty asm so that
 * the compiler keeps the loop as it is written (no closed form, no
 * vector), and its exit branch.
 */
static UKB_REF_PACKED uint32_t add_loop(uint32_t x)
{
	for (uint32_t i = 0; i < 40; i++) {
		__asm__ volatile("" : "+r"(x), "+r"(i));
		x++;
	}
	return x;
}

static UKB_REF_PACKED uint32_t calls_add_loop(uint64_t iters)
{
	uint32_t s = 0;

	for (uint64_t i = 0; i < iters; i++)
		s += add_loop(ref_top(s));
	return s;
}

void ukb_ref_run(enum ukb_ref_work w, uint64_t iters)
{
	sink = w == UKB_REF_CALLS_BARRIER ? bar_loop(iters)
	       : w == UKB_REF_CALLS_LOOP  ? calls_add_loop(iters)
					  : ref_loop(iters);
}

const char *ukb_ref_kind(void)
{
	static char kind[96];
	/* the work's code as it lies in this binary, and where it lies in its line */
	const void *code[] = { (const void *)ref_leaf, (const void *)ref_mid,
			       (const void *)ref_top,  (const void *)ref_loop,
			       (const void *)bar_leaf, (const void *)bar_mid,
			       (const void *)bar_top,  (const void *)bar_loop,
			       (const void *)add_loop, (const void *)calls_add_loop };
	uint64_t h = UKB_FNV_OFFSET;

	if (kind[0])
		return kind;
	for (size_t i = 0; i < sizeof(code) / sizeof(code[0]); i++) {
		uintptr_t at;

#if defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 1
		/* a function's address is that of its descriptor: the code's is its first word */
		code[i] = *(const void *const *)code[i];
#endif
		at = (uintptr_t)code[i] & 63;

		ukb_fnv1a(&h, &at, sizeof(at));
		ukb_fnv1a(&h, code[i], 64);
	}
	snprintf(kind, sizeof(kind), "%s@%08x", UKB_REF_KIND, (unsigned)(h ^ (h >> 32)));
	return kind;
}

uint64_t ukb_ref_calibrate(enum ukb_ref_work w, double target_ns)
{
	uint64_t n = 64, best = UINT64_MAX;

	/* grow to the target, then keep the fastest of a few tries */
	for (;;) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(w, n);
		t = ukb_now_ns() - t0;
		if ((double)t >= target_ns / 4 || n >= (1ull << 32))
			break;
		n *= 4;
	}
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = ukb_now_ns(), t;

		ukb_ref_run(w, n);
		t = ukb_now_ns() - t0;
		if (t && t < best)
			best = t;
	}
	if (best == UINT64_MAX)
		return n;
	return (uint64_t)ceil((double)n * target_ns / (double)best);
}
