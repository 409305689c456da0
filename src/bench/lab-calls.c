// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-calls.c - lab.calls: what a call costs by the way it is made, the
 * question behind static calls ("Implement inline static calls on PPC32":
 * inline and out-of-line static calls under hackbench).
 *
 *   direct:     a direct call the compiler made;
 *   indirect:   a call through a function pointer;
 *   tramp:      a call to a trampoline that jumps to the target: the
 *               out-of-line static call, whose jump is what is patched;
 *   patched:    a call site written to call the target directly: the
 *               inline static call;
 *   retpol:     an indirect call through a retpoline thunk (x86), as
 *               kernels built with retpolines make every indirect call.
 * The target adds one to a register and returns. The generated code
 * (tramp, patched, retpol) is written W^X (lab-code.h) for x86_64,
 * i386, arm64 and powerpc (32 and 64, as its static calls: a trampoline
 * of one branch, a call site's bl); elsewhere those paths say it is not
 * written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab-code.h"
#include "ukbench.h"

/* ---- the compiler's calls ---- */

static __attribute__((noinline)) void target(void)
{
	__asm__ volatile("");
}

static void (*volatile target_ptr)(void) = target;

static int direct_run(struct ukb_ctx *c, uint64_t n)
{
	(void)c;
	for (uint64_t i = 0; i < n; i++)
		target();
	return 0;
}

static int indirect_run(struct ukb_ctx *c, uint64_t n)
{
	void (*f)(void) = target_ptr;

	(void)c;
	for (uint64_t i = 0; i < n; i++) {
		f();
		__asm__ volatile("" : "+r"(f));
	}
	return 0;
}

/* ---- generated call sites ---- */

/*
 * A site: fn(n >= 1) calls its callee n times in a loop of its own and
 * returns n, counted by the target: a figure is one call.
 */
typedef unsigned long (*site_fn)(unsigned long n);

struct gen {
	struct lab_code code;
	site_fn fn;
};

/* where each piece goes in the page */
enum { AT_TARGET = 0, AT_TRAMP = 64, AT_THUNK = 128, AT_SITE = 256 };

#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || defined(__powerpc__)
#define HAVE_GEN 1

struct emit {
	unsigned char *p, *base;
};

static void put(struct emit *e, const void *bytes, size_t n)
{
	memcpy(e->p, bytes, n);
	e->p += n;
}

static void put32(struct emit *e, uint32_t v)
{
	put(e, &v, 4);
}

#if defined(__x86_64__) || defined(__i386__)
/* call or jmp rel32 from e->p to @to */
static void rel32(struct emit *e, unsigned char op, const unsigned char *to)
{
	put(e, &op, 1);
	put32(e, (uint32_t)(int32_t)(to - (e->p + 4)));
}

static int generate(unsigned char *base, const char *path)
{
	struct emit e = { base + AT_TARGET, base };
	unsigned char *loop, *callee;
	int retpoline = !strcmp(path, "retpol");

#ifdef __x86_64__
	put(&e, "\x48\xff\xc2\xc3", 4); /* target: incq %rdx; ret */
#else
	put(&e, "\x42\xc3", 2); /* target: incl %edx; ret */
#endif
	e.p = base + AT_TRAMP; /* trampoline: jmp target */
	rel32(&e, 0xe9, base + AT_TARGET);
	/* the retpoline thunk of %eax/%rax: call 1f; 2: pause; lfence; jmp 2b; 1: mov %rax,(%rsp);
	 * ret */
	e.p = base + AT_THUNK;
	put(&e, "\xe8\x07\x00\x00\x00\xf3\x90\x0f\xae\xe8\xeb\xf9", 12);
#ifdef __x86_64__
	put(&e, "\x48\x89\x04\x24\xc3", 5);
#else
	put(&e, "\x89\x04\x24\xc3", 4);
#endif
	callee = !strcmp(path, "tramp") ? base + AT_TRAMP
		 : retpoline		? base + AT_THUNK
					: base + AT_TARGET;
	e.p = base + AT_SITE;
#ifdef __x86_64__
	put(&e, "\x31\xd2", 2); /* xorl %edx,%edx; the count is in %rdi */
	if (retpoline) {	/* movabs $target, %rax */
		uint64_t t = (uint64_t)(uintptr_t)(base + AT_TARGET);

		put(&e, "\x48\xb8", 2);
		put(&e, &t, 8);
	}
	loop = e.p;
	rel32(&e, 0xe8, callee);
	put(&e, "\x48\xff\xcf", 3); /* decq %rdi */
	put(&e, "\x75", 1);	    /* jnz loop */
	put(&e, &(signed char){ (signed char)(loop - (e.p + 1)) }, 1);
	put(&e, "\x48\x89\xd0\xc3", 4); /* movq %rdx,%rax; ret */
#else
	put(&e, "\x8b\x4c\x24\x04\x31\xd2", 6); /* movl 4(%esp),%ecx; xorl %edx,%edx */
	if (retpoline) {			/* movl $target, %eax */
		uint32_t t = (uint32_t)(uintptr_t)(base + AT_TARGET);

		put(&e, "\xb8", 1);
		put32(&e, t);
	}
	loop = e.p;
	rel32(&e, 0xe8, callee);
	put(&e, "\x49\x75", 2); /* decl %ecx; jnz loop */
	put(&e, &(signed char){ (signed char)(loop - (e.p + 1)) }, 1);
	put(&e, "\x89\xd0\xc3", 3); /* movl %edx,%eax; ret */
#endif
	return 0;
}
#elif defined(__powerpc__)
/* an I-form branch (b, bl) from @from to @to */
static uint32_t branch(uint32_t op, const unsigned char *from, const unsigned char *to)
{
	return op | ((uint32_t)(to - from) & 0x03fffffc);
}

/*
 * As powerpc's static calls (the PPC32 series above): the trampoline is a
 * branch to the target, the inline call site a bl to it.
 */
static int generate(unsigned char *base, const char *path)
{
	struct emit e = { base + AT_TARGET, base };
	unsigned char *loop, *callee;

	if (!strcmp(path, "retpol"))
		return -1;
	put32(&e, 0x38a50001); /* target: addi 5, 5, 1 */
	put32(&e, 0x4e800020); /* blr */
	e.p = base + AT_TRAMP; /* trampoline: b target */
	put32(&e, branch(0x48000000, e.p, base + AT_TARGET));
	callee = !strcmp(path, "tramp") ? base + AT_TRAMP : base + AT_TARGET;
	e.p = base + AT_SITE;
	put32(&e, 0x7c0802a6); /* mflr 0 */
	put32(&e, 0x38a00000); /* li 5, 0 */
	put32(&e, 0x7c6903a6); /* mtctr 3 */
	loop = e.p;
	put32(&e, branch(0x48000001, e.p, callee)); /* bl callee */
	/* bdnz loop */
	put32(&e, 0x42000000 | ((uint32_t)(loop - e.p) & 0xfffc));
	put32(&e, 0x7ca32b78); /* mr 3, 5 */
	put32(&e, 0x7c0803a6); /* mtlr 0 */
	put32(&e, 0x4e800020); /* blr */
	return 0;
}
#else /* arm64 */
static uint32_t branch(uint32_t op, const unsigned char *from, const unsigned char *to)
{
	return op | ((uint32_t)((to - from) / 4) & 0x3ffffff);
}

static int generate(unsigned char *base, const char *path)
{
	struct emit e = { base + AT_TARGET, base };
	unsigned char *loop, *callee;

	if (!strcmp(path, "retpol"))
		return -1;
	put32(&e, 0x91000442); /* target: add x2, x2, #1 */
	put32(&e, 0xd65f03c0); /* ret */
	e.p = base + AT_TRAMP; /* trampoline: b target */
	put32(&e, branch(0x14000000, e.p, base + AT_TARGET));
	callee = !strcmp(path, "tramp") ? base + AT_TRAMP : base + AT_TARGET;
	e.p = base + AT_SITE;
	put32(&e, 0xaa1e03e9); /* mov x9, x30 */
	put32(&e, 0xd2800002); /* mov x2, #0 */
	loop = e.p;
	put32(&e, branch(0x94000000, e.p, callee)); /* bl callee */
	put32(&e, 0xf1000400);			    /* subs x0, x0, #1 */
	/* b.ne loop */
	put32(&e, 0x54000001 | (((uint32_t)((loop - e.p) / 4) & 0x7ffff) << 5));
	put32(&e, 0xaa0203e0); /* mov x0, x2 */
	put32(&e, 0xaa0903fe); /* mov x30, x9 */
	put32(&e, 0xd65f03c0); /* ret */
	return 0;
}
#endif
#endif /* HAVE_GEN */

static void gen_teardown(struct ukb_ctx *c)
{
	struct gen *g = c->priv;

	if (!g)
		return;
	lab_code_unmap(&g->code);
	free(g);
	c->priv = NULL;
}

static int gen_setup(struct ukb_ctx *c, char *why, size_t len)
{
#ifdef HAVE_GEN
	struct gen *g = calloc(1, sizeof(*g));
	int err;

	if (!g)
		return -ENOMEM;
	c->priv = g;
	err = lab_code_map(&g->code, 4096, why, len);
	if (err) {
		gen_teardown(c);
		return err;
	}
	if (generate(g->code.base, c->path->name)) {
		snprintf(why, len,
			 "retpolines are x86's: no thunk is written for this architecture");
		gen_teardown(c);
		return -ENOTSUP;
	}
	err = lab_code_seal(&g->code, why, len);
	if (err) {
		gen_teardown(c);
		return err;
	}
	g->fn = (site_fn)lab_code_entry(&g->code, g->code.base + AT_SITE);
	/* one real call: the target was reached as many times as asked */
	if (g->fn(3) != 3) {
		snprintf(why, len, "the generated call site did not reach its target");
		gen_teardown(c);
		return -EIO;
	}
	return 0;
#else
	(void)c;
	snprintf(why, len, "no code generator is written for this architecture");
	return -ENOTSUP;
#endif
}

static int gen_run(struct ukb_ctx *c, uint64_t n)
{
	struct gen *g = c->priv;

	while (n) {
		uint64_t k = n < (1u << 20) ? n : (1u << 20);

		g->fn((unsigned long)k);
		n -= k;
	}
	return 0;
}

static const struct ukb_path calls_paths[] = {
	{ .name = "direct", .run = direct_run, .detail = "a direct call the compiler made" },
	{ .name = "indirect", .run = indirect_run, .detail = "a call through a function pointer" },
	{ .name = "tramp",
	  .run = gen_run,
	  .setup = gen_setup,
	  .teardown = gen_teardown,
	  .detail = "a call to a jump to the target (the out-of-line static call)" },
	{ .name = "patched",
	  .run = gen_run,
	  .setup = gen_setup,
	  .teardown = gen_teardown,
	  .detail = "a call site written to call the target (the inline static call)" },
	{ .name = "retpol",
	  .run = gen_run,
	  .setup = gen_setup,
	  .teardown = gen_teardown,
	  .detail = "an indirect call through a retpoline thunk (x86)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_lab_calls = {
	.name = "lab.calls",
	.summary = "a call made directly, through a pointer, a trampoline, a patched call site "
		   "or a retpoline (static calls out of line and inline): ns per call",
	.paths = calls_paths,
};
