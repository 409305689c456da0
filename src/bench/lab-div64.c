// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-div64.c - lab.div64: nanoseconds into a struct timeval, four ways.
 *
 * The generic C vDSO's gettimeofday() turns a 64-bit count of nanoseconds
 * into seconds and microseconds. On a 32-bit CPU a 64-bit division is a
 * call into libgcc (__udivdi3, __umoddi3), which is what slowed the C
 * vDSO on powerpc 32 ("powerpc/32: Switch VDSO to C implementation");
 * the kernel avoids it. One figure is one
 * conversion of a value in [0, 4 s) (the nanoseconds past the last second
 * the vDSO's data gives), from a table the compiler cannot see through:
 *   div64:    tv_sec = ns / NSEC_PER_SEC, the remainder by %, a real
 *             division (the divisor hidden from the compiler, which would
 *             make a division by a constant a multiply);
 *   mulshift: the quotient by a multiply by the reciprocal and a shift,
 *             what compilers make of a division by a constant on a 64-bit
 *             CPU (by four 32-bit multiplies on a 32-bit one);
 *   iter:     the kernel's __iter_div_u64_rem(), a loop of subtractions,
 *             what the vDSO does, as the quotient is small;
 *   u32:      32-bit arithmetic alone: NSEC_PER_SEC is 2^9 * 1953125, so
 *             the quotient is (u32)(ns >> 9) / 1953125 while ns < 2^41.
 * The microseconds are (u32)remainder / 1000 in each. Run with --abi both
 * to see them through the 32-bit ABI beside the native one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "ukbench.h"

#define NSEC_PER_SEC 1000000000ull
#define TABLE	     64

struct tv {
	uint64_t sec;
	uint32_t usec;
};

static uint64_t table[TABLE];
static volatile uint64_t sink;

static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;

	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

static inline void by_div64(uint64_t ns, struct tv *t)
{
	/* a divisor the compiler cannot see: a real division, not its multiply */
	uint64_t d = NSEC_PER_SEC;

	__asm__("" : "+r"(d));
	t->sec = ns / d;
	t->usec = (uint32_t)(ns % d) / 1000;
}

static inline void by_mulshift(uint64_t ns, struct tv *t)
{
	/* GCC's quotient by 10^9: ((ns >> 9) * 0x44b82fa09b5a53) >> 64 >> 11 */
	uint64_t q = mulhi64(ns >> 9, 0x44b82fa09b5a53ull) >> 11;

	t->sec = q;
	t->usec = (uint32_t)(ns - q * NSEC_PER_SEC) / 1000;
}

static inline void by_iter(uint64_t ns, struct tv *t)
{
	uint32_t q = 0;

	while (ns >= NSEC_PER_SEC) {
		/* as the kernel's: the compiler must not make it a division */
		__asm__("" : "+rm"(ns));
		ns -= NSEC_PER_SEC;
		q++;
	}
	t->sec = q;
	t->usec = (uint32_t)ns / 1000;
}

static inline void by_u32(uint64_t ns, struct tv *t)
{
	uint32_t q = (uint32_t)(ns >> 9) / 1953125u;

	t->sec = q;
	t->usec = ((uint32_t)ns - q * 1000000000u) / 1000;
}

enum { DIV64, MULSHIFT, ITER, U32 };

static void convert(int how, uint64_t ns, struct tv *t)
{
	switch (how) {
	case DIV64:
		by_div64(ns, t);
		break;
	case MULSHIFT:
		by_mulshift(ns, t);
		break;
	case ITER:
		by_iter(ns, t);
		break;
	default:
		by_u32(ns, t);
	}
}

static int div64_setup(struct ukb_ctx *c, char *why, size_t len)
{
	static const uint64_t edges[] = {
		0, 1, 999, 999999999, 1000000000, 1000000001, 3999999999ull, 2199023255551ull,
	};
	int how = (int)(c->path - c->bench->paths);
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < TABLE; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		table[i] = (x >> 11) % (4 * NSEC_PER_SEC);
	}
	/* the path computes what the division does, on the table and the edges */
	for (size_t i = 0; i < TABLE + sizeof(edges) / sizeof(edges[0]); i++) {
		uint64_t ns = i < TABLE ? table[i] : edges[i - TABLE];
		struct tv want, got;

		/* the loop of subtractions is for small quotients only */
		if (how == ITER && ns >= 16 * NSEC_PER_SEC)
			continue;
		by_div64(ns, &want);
		convert(how, ns, &got);
		if (want.sec != got.sec || want.usec != got.usec) {
			snprintf(why, len,
				 "%s converts %llu ns wrongly: %llu s %u us, not %llu s %u us",
				 c->path->name, (unsigned long long)ns, (unsigned long long)got.sec,
				 got.usec, (unsigned long long)want.sec, want.usec);
			return -EIO;
		}
	}
	return 0;
}

#define DIV64_RUN(fn, conv)                                                                        \
	static int fn(struct ukb_ctx *c, uint64_t n)                                               \
	{                                                                                          \
		uint64_t acc = 0;                                                                  \
		struct tv t;                                                                       \
                                                                                                   \
		(void)c;                                                                           \
		for (uint64_t i = 0; i < n; i++) {                                                 \
			uint64_t ns = table[i % TABLE];                                            \
                                                                                                   \
			__asm__("" : "+r"(ns));                                                    \
			conv(ns, &t);                                                              \
			acc += t.sec + t.usec;                                                     \
		}                                                                                  \
		sink = acc;                                                                        \
		return 0;                                                                          \
	}
DIV64_RUN(div64_run, by_div64)
DIV64_RUN(mulshift_run, by_mulshift)
DIV64_RUN(iter_run, by_iter)
DIV64_RUN(u32_run, by_u32)

/* in the order of the enum above */
static const struct ukb_path div64_paths[] = {
	{ .name = "div64",
	  .run = div64_run,
	  .setup = div64_setup,
	  .detail = "ns / NSEC_PER_SEC and ns % NSEC_PER_SEC (libgcc's __udivdi3 on 32-bit)" },
	{ .name = "mulshift",
	  .run = mulshift_run,
	  .setup = div64_setup,
	  .detail = "a multiply by the reciprocal of 10^9 and a shift" },
	{ .name = "iter",
	  .run = iter_run,
	  .setup = div64_setup,
	  .detail = "__iter_div_u64_rem(): subtractions, as the vDSO does" },
	{ .name = "u32",
	  .run = u32_run,
	  .setup = div64_setup,
	  .detail = "32-bit arithmetic: (u32)(ns >> 9) / 1953125" },
	{ NULL },
};

const struct ukb_bench ukb_bench_lab_div64 = {
	.name = "lab.div64",
	.summary = "nanoseconds to a timeval by 64-bit division, multiply-and-shift, the vDSO's "
		   "subtractions or 32-bit arithmetic (--abi both: the 32-bit cost too)",
	.unit = "conversion",
	.paths = div64_paths,
};
