/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ukbench.h - how a benchmark is declared.
 *
 * This is the one header a benchmark needs, built-in or external. A
 * benchmark is a table entry (struct ukb_bench): a name, a summary, the
 * variants it is measured in (a clock id, a size) and the paths through
 * which the same operation is reached (the vDSO called directly, the C
 * library's wrapper, the raw system call). Each path brings its own run()
 * loop so that the loop stays as tight as a hand-written one: the harness
 * only times batches of run() from outside.
 *
 * Rules a benchmark follows:
 *  - run() performs exactly @iters operations and nothing else: no
 *    allocation, no printing, no timing. It returns 0, or -errno when the
 *    operation failed (the sample is then discarded and the result is an
 *    error, never a fast figure).
 *  - setup() prepares state and proves the path works with one real call;
 *    it returns 0, or -errno with a human reason in @why: the path is then
 *    reported as unavailable with that reason.
 *  - Nothing prints and nothing exits: the front end reports.
 */
#ifndef UKBENCH_H
#define UKBENCH_H

#include <stddef.h>
#include <stdint.h>

#define UKB_API_VERSION 1

struct ukb_bench;
struct ukb_path;

/*
 * One named variant of a benchmark: "monotonic" for CLOCK_MONOTONIC, or,
 * for a sized benchmark, one request size with one flag set and one thread
 * count ("256", "4_nonblock", "4_t8"), made by the harness from the
 * benchmark's sizes, flag sets and the command line.
 */
struct ukb_variant {
	const char *name;
	long arg;	  /* the clock id, or the request size in bytes */
	long arg2;	  /* the flag set's value */
	unsigned threads; /* for UKB_THREADED benchmarks: threads that run at once */
};

/* A named flag set of a sized benchmark: { "nonblock", GRND_NONBLOCK }. */
struct ukb_flagset {
	const char *name; /* "" for the plain one */
	long value;
};

/*
 * A numeric parameter of a benchmark (hackbench's groups, loops, ...),
 * set on the command line with -P name=value and read with ukb_param().
 */
struct ukb_param {
	const char *name;
	const char *help;
	long def, min, max;
};

/*
 * What a path's functions are handed. The harness owns it; the benchmark
 * may use @priv for its own state (allocated in setup, freed in teardown).
 */
struct ukb_ctx {
	const struct ukb_bench *bench;
	const struct ukb_variant *variant; /* NULL when the bench has none */
	const struct ukb_path *path;
	long arg;	    /* variant->arg, or 0 */
	long arg2;	    /* variant->arg2, or 0 */
	unsigned threads;   /* variant->threads, at least 1 */
	void *vfn;	    /* the resolved vDSO function when path->vdso_sym */
	void *priv;	    /* benchmark-owned */
	unsigned cpu;	    /* CPU the measuring thread is pinned to, or UKB_CPU_ANY */
	const long *params; /* values of bench->params, in order; NULL: defaults */
	/* UKB_SELF_TIMED benchmarks: the time run() measured itself, in ns */
	uint64_t elapsed_ns;
	/* run() may say here why it returned an error ("short read: ...") */
	char why[200];
};

/* The value of parameter @idx of the context's benchmark. */
static inline long ukb_param(const struct ukb_ctx *ctx, unsigned idx);

#define UKB_CPU_ANY (~0u)

typedef int (*ukb_run_fn)(struct ukb_ctx *ctx, uint64_t iters);

struct ukb_path {
	const char *name; /* "vdso", "libc", "syscall", or the benchmark's own */
	ukb_run_fn run;
	/*
	 * Base name of the vDSO function this path calls ("clock_gettime").
	 * The harness resolves it with the architecture's prefix and version
	 * and puts it in ctx->vfn before setup(); a missing symbol makes the
	 * path unavailable without calling setup().
	 */
	const char *vdso_sym;
	int (*setup)(struct ukb_ctx *ctx, char *why, size_t len);
	void (*teardown)(struct ukb_ctx *ctx);
	/* What this path really calls, shown by `list` and stored with results. */
	const char *detail;
};

enum ukb_bench_flags {
	UKB_DEFAULT = 1 << 0,	  /* part of the default suite */
	UKB_FIXED_BATCH = 1 << 1, /* one iteration is one sample; no calibration */
	/*
	 * run() makes ctx->threads threads each do @iters operations at once;
	 * a sample is the wall time over @iters, so the per-call figure is
	 * the latency one thread sees and threads / figure the throughput.
	 */
	UKB_THREADED = 1 << 2,
	/*
	 * run() times the part that matters itself (hackbench: from the moment
	 * every task is ready until all have finished, not their creation)
	 * and stores it in ctx->elapsed_ns.
	 */
	UKB_SELF_TIMED = 1 << 3,
	/* one iteration moves variant->arg bytes: report bytes/s too */
	UKB_BYTES = 1 << 4,
	/*
	 * The cost measured is the scheduling itself (a wake-up, a pipe
	 * round trip, hackbench): a batch in which the measuring thread was
	 * switched out is not disturbed but the thing measured, so every
	 * batch counts. Others leave such batches out of their figure.
	 */
	UKB_KEEPS_DISTURBED = 1 << 5,
};

struct ukb_bench {
	const char *name;		    /* family.function, e.g. "time.clock_gettime" */
	const char *summary;		    /* one line, shown by `list` */
	const char *unit;		    /* what one iteration is: "call" unless set */
	const struct ukb_variant *variants; /* NULL, or ended by { NULL } */
	const struct ukb_path *paths;	    /* ended by { NULL } */
	unsigned flags;
	/*
	 * Sized benchmarks: the variants are made from these instead. @sizes
	 * (ended by 0) are the default request sizes, `--size` replaces them
	 * within [size_min, size_max]; @flagsets (ended by { NULL }) are the
	 * named flag sets, the first the default, `--flags` chooses others.
	 */
	const long *sizes;
	long size_min, size_max;
	const struct ukb_flagset *flagsets;
	/* Parameters (ended by { NULL }), and a check of their values made
	 * before anything runs: 0, or -errno with the reason in @why. */
	const struct ukb_param *params;
	int (*validate)(const struct ukb_ctx *ctx, char *why, size_t len);
};

static inline long ukb_param(const struct ukb_ctx *ctx, unsigned idx)
{
	return ctx->params ? ctx->params[idx] : ctx->bench->params[idx].def;
}

/*
 * A plug-in: a shared object with benchmarks of its own, loaded by
 * `ukbench run --plugin FILE.so` (and list, and every .so of the
 * directories in UKBENCH_PLUGIN_PATH). It exports one table, named
 * ukb_plugin, which UKB_PLUGIN() makes:
 *
 *     UKB_PLUGIN(&my_bench, &my_other_bench);
 *
 * Its API version is checked at load; its benchmarks are validated as the
 * built-ins are, and a name that is taken already is refused. Build it
 * with `cc -shared -fPIC $(pkg-config --cflags ukbench) -o FILE.so FILE.c`.
 */
struct ukb_plugin {
	int api_version;			   /* UKB_API_VERSION, as it was built */
	const struct ukb_bench *const *benchmarks; /* ended by NULL */
};

#define UKB_PLUGIN(...)                                                                            \
	__attribute__((visibility("default"))) const struct ukb_plugin ukb_plugin = {              \
		UKB_API_VERSION, (const struct ukb_bench *const[]){ __VA_ARGS__, NULL }            \
	}

#endif /* UKBENCH_H */
