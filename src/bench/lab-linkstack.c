// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-linkstack.c - lab.linkstack: what getting the program counter costs
 * the returns that follow it.
 *
 * A CPU predicts a return from a stack of the addresses its calls pushed
 * (the return stack buffer, the link stack). Code that needs its own
 * address (position-independent code, the vDSO finding its data page) may
 * get it by a call that never returns: the address pushed is never popped,
 * and every return after it may be predicted from the wrong entry. That
 * was powerpc's `bcl 20,31,$+8` in the vDSO, which the hardware does not
 * treat as the special `$+4` form (the getrandom() vDSO series for
 * powerpc, "Wire up getrandom() vDSO implementation on powerpc").
 *
 * Each path gets the program counter at the bottom of a chain of @depth
 * nested calls, then returns up through them; one figure is one such
 * chain, in ns:
 *   next:  a call to the very next instruction, its address read (x86's
 *          `call 1f; 1: pop`, powerpc's `bcl 20,31,$+4`, arm64 and
 *          riscv's branch-and-link to the next instruction);
 *   skip:  a call to the instruction after the next, which never returns
 *          (powerpc's `bcl 20,31,$+8`);
 *   thunk: a balanced call to a function that returns its return
 *          address (i386's __x86.get_pc_thunk);
 *   pcrel: no call at all, where the architecture reads the PC directly
 *          (x86_64's lea, arm64's adr, riscv's auipc, s390x's larl).
 * With -e branch-misses (where the CPU counts them) the mispredicted
 * returns show as branch misses per chain.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ukbench.h"

typedef unsigned long (*leaf_fn)(void);

#define NOINLINE __attribute__((noinline))

#if defined(__x86_64__)
/* the calls go below the red zone, which the compiler may be using */
__asm__(".pushsection .text\n.type lab_ls_thunk, @function\n"
	"lab_ls_thunk:\n\tmovq (%rsp), %rax\n\tret\n.popsection\n");
static NOINLINE unsigned long pc_next(void)
{
	unsigned long pc;

	__asm__ volatile("leaq -128(%%rsp), %%rsp\n\tcall 1f\n1:\tpopq %0\n\tleaq 128(%%rsp), %%rsp"
			 : "=r"(pc)
			 :
			 : "memory");
	return pc;
}
static NOINLINE unsigned long pc_skip(void)
{
	unsigned long pc;

	__asm__ volatile("leaq -128(%%rsp), %%rsp\n\tcall 1f\n\tnop\n1:\tpopq %0\n\tleaq "
			 "128(%%rsp), %%rsp"
			 : "=r"(pc)
			 :
			 : "memory");
	return pc;
}
static NOINLINE unsigned long pc_thunk(void)
{
	unsigned long pc;

	__asm__ volatile("leaq -128(%%rsp), %%rsp\n\tcall lab_ls_thunk\n\tleaq 128(%%rsp), %%rsp"
			 : "=a"(pc)
			 :
			 : "memory");
	return pc;
}
static NOINLINE unsigned long pc_rel(void)
{
	unsigned long pc;

	__asm__ volatile("leaq 0(%%rip), %0" : "=r"(pc));
	return pc;
}
#define HAVE_CALLS 1
#define HAVE_PCREL 1
#elif defined(__i386__)
__asm__(".pushsection .text\n.type lab_ls_thunk, @function\n"
	"lab_ls_thunk:\n\tmovl (%esp), %eax\n\tret\n.popsection\n");
static NOINLINE unsigned long pc_next(void)
{
	unsigned long pc;

	__asm__ volatile("call 1f\n1:\tpopl %0" : "=r"(pc) : : "memory");
	return pc;
}
static NOINLINE unsigned long pc_skip(void)
{
	unsigned long pc;

	__asm__ volatile("call 1f\n\tnop\n1:\tpopl %0" : "=r"(pc) : : "memory");
	return pc;
}
static NOINLINE unsigned long pc_thunk(void)
{
	unsigned long pc;

	__asm__ volatile("call lab_ls_thunk" : "=a"(pc) : : "memory");
	return pc;
}
#define HAVE_CALLS 1
#define NO_PCREL   "i386 has no PC-relative addressing: the PC is read only by a call"
#elif defined(__aarch64__)
__asm__(".pushsection .text\n.type lab_ls_thunk, %function\n"
	"lab_ls_thunk:\n\tmov x0, x30\n\tret\n.popsection\n");
static NOINLINE unsigned long pc_next(void)
{
	unsigned long pc;

	__asm__ volatile("bl 1f\n1:\tmov %0, x30" : "=r"(pc) : : "x30", "memory");
	return pc;
}
static NOINLINE unsigned long pc_skip(void)
{
	unsigned long pc;

	__asm__ volatile("bl 1f\n\tnop\n1:\tmov %0, x30" : "=r"(pc) : : "x30", "memory");
	return pc;
}
static NOINLINE unsigned long pc_thunk(void)
{
	unsigned long pc;

	__asm__ volatile("bl lab_ls_thunk\n\tmov %0, x0" : "=r"(pc) : : "x0", "x30", "memory");
	return pc;
}
static NOINLINE unsigned long pc_rel(void)
{
	unsigned long pc;

	__asm__ volatile("adr %0, ." : "=r"(pc));
	return pc;
}
#define HAVE_CALLS 1
#define HAVE_PCREL 1
#elif defined(__riscv)
__asm__(".pushsection .text\n.type lab_ls_thunk, @function\n"
	"lab_ls_thunk:\n\tmv a0, ra\n\tret\n.popsection\n");
static NOINLINE unsigned long pc_next(void)
{
	unsigned long pc;

	__asm__ volatile("jal ra, 1f\n1:\tmv %0, ra" : "=r"(pc) : : "ra", "memory");
	return pc;
}
static NOINLINE unsigned long pc_skip(void)
{
	unsigned long pc;

	__asm__ volatile(".option push\n.option norvc\n\tjal ra, 1f\n\tnop\n1:\tmv %0, ra\n"
			 ".option pop"
			 : "=r"(pc)
			 :
			 : "ra", "memory");
	return pc;
}
static NOINLINE unsigned long pc_thunk(void)
{
	unsigned long pc;

	__asm__ volatile("jal ra, lab_ls_thunk\n\tmv %0, a0" : "=r"(pc) : : "a0", "ra", "memory");
	return pc;
}
static NOINLINE unsigned long pc_rel(void)
{
	unsigned long pc;

	__asm__ volatile("auipc %0, 0" : "=r"(pc));
	return pc;
}
#define HAVE_CALLS 1
#define HAVE_PCREL 1
#elif defined(__powerpc__)
__asm__(".pushsection .text\n"
	"lab_ls_thunk:\n\tmflr 3\n\tblr\n.popsection\n");
static NOINLINE unsigned long pc_next(void)
{
	unsigned long pc;

	__asm__ volatile("bcl 20, 31, 1f\n1:\tmflr %0" : "=r"(pc) : : "lr", "memory");
	return pc;
}
static NOINLINE unsigned long pc_skip(void)
{
	unsigned long pc;

	__asm__ volatile("bcl 20, 31, 1f\n\tnop\n1:\tmflr %0" : "=r"(pc) : : "lr", "memory");
	return pc;
}
static NOINLINE unsigned long pc_thunk(void)
{
	unsigned long pc;

	__asm__ volatile("bl lab_ls_thunk\n\tmr %0, 3" : "=r"(pc) : : "r3", "lr", "memory");
	return pc;
}
#define HAVE_CALLS 1
#define NO_PCREL   "powerpc reads the PC only by a branch and link (addpcis is POWER9's, not here)"
#elif defined(__s390x__)
static NOINLINE unsigned long pc_rel(void)
{
	unsigned long pc;

	__asm__ volatile("larl %0, ." : "=r"(pc));
	return pc;
}
#define HAVE_PCREL 1
#endif

#ifndef HAVE_CALLS
#define pc_next	 NULL
#define pc_skip	 NULL
#define pc_thunk NULL
#endif
#ifndef HAVE_PCREL
#define pc_rel NULL
#endif

enum { P_DEPTH };

static const struct ukb_param linkstack_params[] = {
	{ "depth", "nested calls and returns around the reading of the PC", 8, 0, 64 },
	{ NULL },
};

struct chain {
	leaf_fn leaf;
	int depth;
};

/* each level a real call and return: through a pointer the compiler cannot see */
static unsigned long nest(int k, leaf_fn leaf);
static unsigned long (*volatile nest_ptr)(int, leaf_fn) = nest;

static NOINLINE unsigned long nest(int k, leaf_fn leaf)
{
	unsigned long r;

	if (k <= 0)
		return leaf();
	r = nest_ptr(k - 1, leaf);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

static leaf_fn leaf_of(const char *path)
{
	return !strcmp(path, "next")	? pc_next
	       : !strcmp(path, "skip")	? pc_skip
	       : !strcmp(path, "thunk") ? pc_thunk
	       : !strcmp(path, "pcrel") ? pc_rel
					: NULL;
}

static struct chain chains[4];

static int linkstack_setup(struct ukb_ctx *c, char *why, size_t len)
{
	leaf_fn leaf = leaf_of(c->path->name);
	unsigned long pc;
	struct chain *ch;

	if (!leaf) {
#ifdef NO_PCREL
		if (!strcmp(c->path->name, "pcrel"))
			snprintf(why, len, "%s", NO_PCREL);
		else
#endif
			snprintf(why, len, "the idiom is not written for this architecture");
		return -ENOTSUP;
	}
	ch = &chains[c->path - c->bench->paths];
	ch->leaf = leaf;
	ch->depth = (int)ukb_param(c, P_DEPTH);
	c->priv = ch;
	/* one real chain: the PC read is an address in this program */
	pc = nest(ch->depth, leaf) - (unsigned long)ch->depth;
	if (!pc) {
		snprintf(why, len, "the program counter read as 0");
		return -EIO;
	}
	return 0;
}

static int linkstack_run(struct ukb_ctx *c, uint64_t n)
{
	const struct chain *ch = c->priv;
	unsigned long sink = 0;

	for (uint64_t i = 0; i < n; i++)
		sink += nest(ch->depth, ch->leaf);
	__asm__ volatile("" : : "r"(sink));
	return 0;
}

static const struct ukb_path linkstack_paths[] = {
	{ .name = "next",
	  .run = linkstack_run,
	  .setup = linkstack_setup,
	  .detail = "a call to the next instruction, its address read (bcl 20,31,$+4)" },
	{ .name = "skip",
	  .run = linkstack_run,
	  .setup = linkstack_setup,
	  .detail = "a call past the next instruction, never returned (bcl 20,31,$+8)" },
	{ .name = "thunk",
	  .run = linkstack_run,
	  .setup = linkstack_setup,
	  .detail = "a balanced call to a function returning its return address" },
	{ .name = "pcrel",
	  .run = linkstack_run,
	  .setup = linkstack_setup,
	  .detail = "the PC read without a call (lea, adr, auipc, larl)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_lab_linkstack = {
	.name = "lab.linkstack",
	.summary = "the program counter read by a call that returns, one that does not, or none, "
		   "then -P depth returns: ns per chain (-e branch-misses: mispredicted returns)",
	.unit = "chain",
	.paths = linkstack_paths,
	.params = linkstack_params,
};
