/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.h - the sampler: one benchmark path in, every sample out.
 *
 * Method (the why is in measure.c):
 *  1. resolve the vDSO symbol and run the path's setup(), which proves the
 *     path works with one real call;
 *  2. calibrate the batch size so one batch is long against the clock;
 *  3. warm up (caches, branch predictors, frequency, page faults);
 *  4. sample: time batches until the 95% CI of the mean per iteration is
 *     within the precision target, or the time budget is spent, and never
 *     fewer than the minimum count; around each batch, outside the timed
 *     region, read what says whether the thread ran throughout it
 *     (disturb.h), and keep the batch with its mark and its CPU time;
 *  5. compute statistics over the batches the thread ran throughout
 *     (every batch for benchmarks whose cost is the scheduling itself);
 *     outliers among them are counted, not dropped.
 */
#ifndef UKB_CORE_MEASURE_H
#define UKB_CORE_MEASURE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "ukbench.h"
#include "clock.h"
#include "counters.h"
#include "disturb.h"
#include "reference.h"
#include "sampler.h"
#include "stats.h"

struct ukb_result;

/*
 * A run's defaults, declared once: ukb_measure_opts_init() takes them, and
 * the options' rows show them as text (UKB_DEF_TEXT).
 */
#define UKB_PRECISION_PCT_DEF 1
#define UKB_WARMUP_S_DEF      0.05
#define UKB_MIN_SAMPLES_DEF   10
#define UKB_MAX_SAMPLES_DEF   1000000
#define UKB_DEF_TEXT_(x)      #x
#define UKB_DEF_TEXT(x)	      UKB_DEF_TEXT_(x)

struct ukb_measure_opts {
	double precision; /* target relative CI95 half-width, e.g. 0.01 */
	double budget_s;  /* measuring time per benchmark path, at most */
	/*
	 * Measuring time before the precision target may stop sampling: long
	 * enough to average over preemption and timer ticks, so that a lucky
	 * run of undisturbed batches never ends a measurement early.
	 */
	double min_time_s;
	double warmup_s;      /* warm-up time, calibration included */
	unsigned min_samples; /* never stop with fewer samples */
	unsigned max_samples; /* never keep more (memory bound) */
	double batch_ns;      /* batch length target; 0: derived from the clock */
	unsigned cpu;	      /* recorded in the result; pinning is the caller's */
	/*
	 * The longest one path may take, its setup included; 0: the default,
	 * ukb_path_limit(). Enforced by the caller (a plug-in's loop that
	 * never returns is not this file's to stop).
	 */
	double limit_s;
	const long *params; /* parameter values of the benchmark measured; NULL: defaults */
	const struct ukb_event *events; /* counters read around every batch; NULL: none */
	unsigned nevents;
	volatile sig_atomic_t *stop; /* set asynchronously to stop (Ctrl-C) */
	/* called after every sample, outside the timed region; may be NULL */
	void (*progress)(void *arg, const struct ukb_result *r);
	void *progress_arg;
};

/*
 * Defaults: 1% precision, 1 s budget, at least 0.2 s measured, 50 ms
 * warm-up, 10..1000000 samples.
 */
void ukb_measure_opts_init(struct ukb_measure_opts *o);

/* A path's time limit under @o: o->limit_s, else 30 s and ten times its
 * budget and warm-up (a loaded machine's slowest honest path within it). */
double ukb_path_limit(const struct ukb_measure_opts *o);

enum ukb_status {
	UKB_OK,
	UKB_UNSUPPORTED, /* the machine lacks it: no vDSO, no symbol, ENOSYS */
	UKB_SKIPPED,	 /* present but not permitted: EPERM, EACCES, seccomp */
	UKB_ERROR,	 /* it ran and failed: no figure is reported */
	UKB_INTERRUPTED, /* stopped by the user before it finished */
};

const char *ukb_status_name(enum ukb_status s);

/* One counter of a result: its fate, and what it counted. */
struct ukb_counter_result {
	struct ukb_event ev;
	enum ukb_counter_status status;
	char reason[128];
	double total;	    /* over every measured batch, scaled */
	double per_call;    /* total / iterations */
	double *per_sample; /* per call, batch by batch */
	size_t n;
};

struct ukb_result {
	char name[128]; /* bench name, plus "." variant */
	const struct ukb_bench *bench;
	const struct ukb_variant *variant;
	const struct ukb_path *path;

	enum ukb_status status;
	int err;	  /* -errno behind a non-OK status */
	char reason[256]; /* why, for a human */

	uint64_t batch_iters; /* iterations per batch */
	double batch_ns;      /* batch length the calibration aimed at */
	size_t warmup_batches;
	double *samples; /* ns per iteration of every measured batch, in order */
	/*
	 * Beside each sample: the CPU time of the thread per iteration (NAN:
	 * not known), and its mark (enum ukb_disturbance; 0: the thread ran
	 * throughout the batch).
	 */
	double *cpu_samples;
	uint8_t *disturbed;
	/*
	 * The reference work timed right after each batch (reference.h), ns
	 * per reference iteration; NAN where that reference batch was
	 * disturbed or none was run (benchmarks that keep every batch).
	 */
	double *ref_samples;
	size_t nsamples, cap;
	size_t ndisturbed;   /* samples with a mark */
	int keeps_disturbed; /* the figure counts every batch (UKB_KEEPS_DISTURBED) */
	double measure_s;    /* wall time spent sampling */
	int converged;	     /* precision target reached */
	unsigned cpu;
	struct ukb_stats stats;
	unsigned ncounters;
	struct ukb_counter_result counters[UKB_MAX_COUNTERS];
};

/*
 * Measures @path of @bench in @variant (NULL when the bench has none) into
 * @res, which the caller releases with ukb_result_release(). The returned
 * value is 0 when a status was reached (check res->status), -ENOMEM when
 * not even that was possible.
 */
int ukb_measure(const struct ukb_bench *bench, const struct ukb_variant *variant,
		const struct ukb_path *path, const struct ukb_measure_opts *opts,
		const struct ukb_clock_info *clk, struct ukb_result *res);

/*
 * Only checks that @path can run here (vDSO symbol, setup's probe call),
 * measuring nothing. Returns 1 when it can; otherwise @res says why.
 */
int ukb_probe(const struct ukb_bench *bench, const struct ukb_variant *variant,
	      const struct ukb_path *path, unsigned cpu, struct ukb_result *res);

/*
 * The benchmark's own check of its parameters (fd and process limits),
 * made before anything runs. 0, or -errno with the reason in @why.
 */
int ukb_validate(const struct ukb_bench *bench, const struct ukb_variant *variant,
		 const struct ukb_path *path, const long *params, char *why, size_t len);

void ukb_result_release(struct ukb_result *res);

/*
 * A figure's batches. Statistics leave out the batches whose thread did not
 * run throughout (@disturbed[i] != 0; @disturbed may be NULL: none), unless
 * @keep_all, or unless fewer than two would remain (then every batch counts,
 * as on a machine so loaded that no batch ran undisturbed). Returns 1 when
 * disturbed batches were left out, 0 when every batch counted, -errno.
 */
int ukb_figure_stats(const double *samples, const uint8_t *disturbed, size_t n, int keep_all,
		     struct ukb_stats *st);

/*
 * Runs @path's batches (calibrated as ukb_measure() does) for @seconds
 * with the sampler @smp (opened by the caller) enabled, so that its
 * samples fall in the measured loop. Nothing is timed for a figure:
 * res->nsamples counts the batches run, res->status says whether the
 * path could run here. Returns 0.
 */
int ukb_profile(const struct ukb_bench *bench, const struct ukb_variant *variant,
		const struct ukb_path *path, const struct ukb_measure_opts *o,
		const struct ukb_clock_info *clk, double seconds, struct ukb_sampler *smp,
		struct ukb_result *res);

/* Fills the name of @bench in @variant into @buf. */
void ukb_bench_fullname(const struct ukb_bench *bench, const struct ukb_variant *variant, char *buf,
			size_t len);

/* Number of variants of @bench; 0 when it has none. */
size_t ukb_bench_variant_count(const struct ukb_bench *bench);

#endif
