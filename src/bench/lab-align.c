// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-align.c - lab.align: does where a tight loop sits matter on this CPU?
 *
 * One tight loop, copied into executable memory so that its first
 * instruction (the target of its backward branch) sits N bytes past a
 * 64-byte line, N = 0 to 127: the variant is N. Two loops: __clear_user's
 * (a store of zero and a step of the pointer, a count down and a branch
 * back: what became slower when an unrelated patch moved it across a line)
 * and a chain of dependent adds. A figure is ns per iteration of the loop.
 *
 * Whether the loop straddles a 16-byte fetch window, a 32-byte uop-cache
 * window or a 64-byte line at offset N follows from its length
 * (lab_align_loop_bytes()); `ukbench run lab` names those offsets beside
 * the worst and the best. The copies are made W^X (lab-code.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab-align.h"
#include "lab-code.h"
#include "ukbench.h"

/*
 * Each template: start, the loop's top, the loop's end (after its branch
 * back), end. Position independent: relative branches only. Called as
 * fn(iterations >= 1, buffer of 8 * iterations bytes).
 */
#define TEMPLATE_SYMS(n)                                                                           \
	extern const unsigned char lab_align_##n##_start[], lab_align_##n##_loop[],                \
	    lab_align_##n##_loop_end[],                                                            \
	    lab_align_##n##_end[] __attribute__((visibility("hidden")))

#if defined(__x86_64__)
#define HAVE_ALIGN_LOOPS 1
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n\tmov %rsi, %rax\n"
	"lab_align_store_loop:\n\tmovq $0, (%rax)\n\taddq $8, %rax\n\tdecq %rdi\n\tjnz "
	"lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tret\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\txor %eax, %eax\n"
	"lab_align_add_loop:\n\taddq $1, %rax\n\tdecq %rdi\n\tjnz lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tret\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL "__clear_user's loop: movq $0,(%rax); addq $8,%rax; decq %rdi; jnz"
#define ADD_DETAIL   "addq $1,%rax; decq %rdi; jnz"
#elif defined(__i386__)
#define HAVE_ALIGN_LOOPS 1
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n\tmovl 4(%esp), %ecx\n\tmovl 8(%esp), %eax\n"
	"lab_align_store_loop:\n\tmovl $0, (%eax)\n\taddl $4, %eax\n\tdecl %ecx\n\tjnz "
	"lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tret\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\tmovl 4(%esp), %ecx\n\txorl %eax, %eax\n"
	"lab_align_add_loop:\n\taddl $1, %eax\n\tdecl %ecx\n\tjnz lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tret\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL	 "__clear_user's loop: movl $0,(%eax); addl $4,%eax; decl %ecx; jnz"
#define ADD_DETAIL	 "addl $1,%eax; decl %ecx; jnz"
#elif defined(__aarch64__)
#define HAVE_ALIGN_LOOPS 1
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n"
	"lab_align_store_loop:\n\tstr xzr, [x1], #8\n\tsubs x0, x0, #1\n\tb.ne "
	"lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tret\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\tmov x2, #0\n"
	"lab_align_add_loop:\n\tadd x2, x2, #1\n\tsubs x0, x0, #1\n\tb.ne lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tret\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL	 "str xzr,[x1],#8; subs x0,x0,#1; b.ne"
#define ADD_DETAIL	 "add x2,x2,#1; subs x0,x0,#1; b.ne"
#elif defined(__riscv) && __riscv_xlen == 64
#define HAVE_ALIGN_LOOPS 1
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n"
	"lab_align_store_loop:\n\tsd zero, 0(a1)\n\taddi a1, a1, 8\n\taddi a0, a0, -1\n\tbnez "
	"a0, lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tret\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\tli a2, 0\n"
	"lab_align_add_loop:\n\taddi a2, a2, 1\n\taddi a0, a0, -1\n\tbnez a0, "
	"lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tret\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL	 "sd zero,0(a1); addi a1,a1,8; addi a0,a0,-1; bnez"
#define ADD_DETAIL	 "addi a2,a2,1; addi a0,a0,-1; bnez"
#elif defined(__powerpc__)
#define HAVE_ALIGN_LOOPS 1
#ifdef __powerpc64__
#define PPC_STORE "std"
#else
#define PPC_STORE "stw"
#endif
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n\tli 0, 0\n\tmtctr 3\n"
	"lab_align_store_loop:\n\t" PPC_STORE " 0, 0(4)\n\taddi 4, 4, 8\n\tbdnz "
	"lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tblr\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\tli 5, 0\n\tmtctr 3\n"
	"lab_align_add_loop:\n\taddi 5, 5, 1\n\tbdnz lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tblr\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL PPC_STORE " 0,0(4); addi 4,4,8; bdnz"
#define ADD_DETAIL   "addi 5,5,1; bdnz"
#elif defined(__s390x__)
#define HAVE_ALIGN_LOOPS 1
__asm__(".pushsection .text\n"
	".globl lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	".hidden lab_align_store_start, lab_align_store_loop, lab_align_store_loop_end, "
	"lab_align_store_end\n"
	"lab_align_store_start:\n"
	"lab_align_store_loop:\n\tmvghi 0(%r3), 0\n\taghi %r3, 8\n\tbrctg %r2, "
	"lab_align_store_loop\n"
	"lab_align_store_loop_end:\n\tbr %r14\n"
	"lab_align_store_end:\n"
	".globl lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	".hidden lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end, "
	"lab_align_add_end\n"
	"lab_align_add_start:\n\tlghi %r4, 0\n"
	"lab_align_add_loop:\n\taghi %r4, 1\n\tbrctg %r2, lab_align_add_loop\n"
	"lab_align_add_loop_end:\n\tbr %r14\n"
	"lab_align_add_end:\n"
	".popsection\n");
#define STORE_DETAIL	 "mvghi 0(%r3),0; aghi %r3,8; brctg"
#define ADD_DETAIL	 "aghi %r4,1; brctg"
#endif

#ifdef HAVE_ALIGN_LOOPS
TEMPLATE_SYMS(store);
TEMPLATE_SYMS(add);
#else
#define STORE_DETAIL "__clear_user's loop (not written for this architecture)"
#define ADD_DETAIL   "a dependent add (not written for this architecture)"
#endif

/* iterations of the loop a call: the buffer is 8 bytes an iteration */
#define LOOP_ITERS 256
/* where the copies go: the offset from a 64-byte line, up to this */
#define ALIGN_OFFSETS 128

typedef unsigned long (*loop_fn)(unsigned long n, void *buf);

struct align {
	struct lab_code code;
	loop_fn fn;
	uint64_t *buf;
};

struct tpl {
	const unsigned char *start, *loop, *loop_end, *end;
};

static int template_of(const char *path, struct tpl *t)
{
#ifdef HAVE_ALIGN_LOOPS
	if (!strcmp(path, "store")) {
		*t = (struct tpl){ lab_align_store_start, lab_align_store_loop,
				   lab_align_store_loop_end, lab_align_store_end };
		return 0;
	}
	if (!strcmp(path, "add")) {
		*t = (struct tpl){ lab_align_add_start, lab_align_add_loop, lab_align_add_loop_end,
				   lab_align_add_end };
		return 0;
	}
#else
	(void)path;
	(void)t;
#endif
	return -1;
}

int lab_align_loop_bytes(const char *path)
{
	struct tpl t;

	return template_of(path, &t) ? -1 : (int)(t.loop_end - t.loop);
}

int lab_align_straddles(int loop_bytes, int offset, int window)
{
	return loop_bytes > 0 && offset % window + loop_bytes > window;
}

static void align_teardown(struct ukb_ctx *c)
{
	struct align *a = c->priv;

	if (!a)
		return;
	lab_code_unmap(&a->code);
	free(a->buf);
	free(a);
	c->priv = NULL;
}

static int align_setup(struct ukb_ctx *c, char *why, size_t len)
{
	struct align *a;
	struct tpl t;
	size_t before, size, at;
	int err;

	if (template_of(c->path->name, &t)) {
		snprintf(why, len, "the loop is not written for this architecture");
		return -ENOTSUP;
	}
	if (c->arg < 0 || c->arg >= ALIGN_OFFSETS) {
		snprintf(why, len, "offset %ld is not within 0 to %d", c->arg, ALIGN_OFFSETS - 1);
		return -EINVAL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	c->priv = a;
	a->buf = calloc(LOOP_ITERS, sizeof(*a->buf));
	if (!a->buf) {
		align_teardown(c);
		return -ENOMEM;
	}
	before = (size_t)(t.loop - t.start);
	size = (size_t)(t.end - t.start);
	err = lab_code_map(&a->code, 4096, why, len);
	if (err) {
		align_teardown(c);
		return err;
	}
	/* the loop's top at the offset from a line: the copy starts before it */
	at = 256 + (size_t)c->arg - before;
	memcpy(a->code.base + at, t.start, size);
	err = lab_code_seal(&a->code, why, len);
	if (err) {
		align_teardown(c);
		return err;
	}
	a->fn = (loop_fn)lab_code_entry(&a->code, a->code.base + at);
	/* one real call, to prove it runs and stores */
	a->buf[0] = ~0ull;
	a->fn(1, a->buf);
	/* the first 4 bytes: a 32-bit store writes those on either byte order */
	if (!strcmp(c->path->name, "store") && memcmp(a->buf, "\0\0\0\0", 4)) {
		snprintf(why, len, "the copied loop did not store");
		align_teardown(c);
		return -EIO;
	}
	return 0;
}

static int align_run(struct ukb_ctx *c, uint64_t n)
{
	struct align *a = c->priv;

	while (n) {
		uint64_t k = n < LOOP_ITERS ? n : LOOP_ITERS;

		a->fn((unsigned long)k, a->buf);
		n -= k;
	}
	return 0;
}

#define V(n)                                                                                       \
	{                                                                                          \
		.name = #n, .arg = n                                                               \
	}
static const struct ukb_variant align_variants[] = {
	V(0),	V(1),	V(2),	V(3),	V(4),	V(5),	V(6),	V(7),	  V(8),	  V(9),	  V(10),
	V(11),	V(12),	V(13),	V(14),	V(15),	V(16),	V(17),	V(18),	  V(19),  V(20),  V(21),
	V(22),	V(23),	V(24),	V(25),	V(26),	V(27),	V(28),	V(29),	  V(30),  V(31),  V(32),
	V(33),	V(34),	V(35),	V(36),	V(37),	V(38),	V(39),	V(40),	  V(41),  V(42),  V(43),
	V(44),	V(45),	V(46),	V(47),	V(48),	V(49),	V(50),	V(51),	  V(52),  V(53),  V(54),
	V(55),	V(56),	V(57),	V(58),	V(59),	V(60),	V(61),	V(62),	  V(63),  V(64),  V(65),
	V(66),	V(67),	V(68),	V(69),	V(70),	V(71),	V(72),	V(73),	  V(74),  V(75),  V(76),
	V(77),	V(78),	V(79),	V(80),	V(81),	V(82),	V(83),	V(84),	  V(85),  V(86),  V(87),
	V(88),	V(89),	V(90),	V(91),	V(92),	V(93),	V(94),	V(95),	  V(96),  V(97),  V(98),
	V(99),	V(100), V(101), V(102), V(103), V(104), V(105), V(106),	  V(107), V(108), V(109),
	V(110), V(111), V(112), V(113), V(114), V(115), V(116), V(117),	  V(118), V(119), V(120),
	V(121), V(122), V(123), V(124), V(125), V(126), V(127), { NULL },
};
#undef V

static const struct ukb_path align_paths[] = {
	{ .name = "store",
	  .run = align_run,
	  .setup = align_setup,
	  .teardown = align_teardown,
	  .detail = STORE_DETAIL },
	{ .name = "add",
	  .run = align_run,
	  .setup = align_setup,
	  .teardown = align_teardown,
	  .detail = ADD_DETAIL },
	{ NULL },
};

const struct ukb_bench ukb_bench_lab_align = {
	.name = "lab.align",
	.summary = "a tight loop copied to every offset 0-127 from a 64-byte line (the variant): "
		   "__clear_user's store loop and a dependent add; ns per iteration",
	.unit = "iteration",
	.variants = align_variants,
	.paths = align_paths,
};
