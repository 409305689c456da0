// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure.c - calibration, warm-up and adaptive sampling of one path.
 *
 * Why batches: one call of a vDSO function lasts a few nanoseconds, less
 * than the cost of the clock read that would time it. So N calls are timed
 * together, with the clock read before and after the loop and never inside
 * it, and the sample is the batch time divided by N. Nothing is
 * subtracted: the loop's own cost (measured by harness.empty, well under a
 * nanosecond) stays in, as it does in the hand-written loop a developer
 * would compare against, and the two clock reads are amortized over a
 * batch at least a thousand times longer than they are.
 *
 * Why adaptive: the sample count needed for a given precision depends on
 * the noise of the machine, which is not known in advance. Sampling stops
 * once the 95% confidence interval of the mean is within the target, so a
 * quiet benchmark finishes early and a noisy one uses its whole budget and
 * says it did not converge. Every batch is kept and goes to the output;
 * the statistics leave out the batches in which the measuring thread did
 * not run throughout (ukb_figure_stats()), unless the benchmark's cost is
 * that scheduling itself.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "vdso.h"

void ukb_measure_opts_init(struct ukb_measure_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->precision = UKB_PRECISION_PCT_DEF / 100.0;
	o->budget_s = 1.0;
	o->min_time_s = 0.2;
	o->warmup_s = UKB_WARMUP_S_DEF;
	o->min_samples = UKB_MIN_SAMPLES_DEF;
	o->max_samples = UKB_MAX_SAMPLES_DEF;
	o->cpu = UKB_CPU_ANY;
}

double ukb_path_limit(const struct ukb_measure_opts *o)
{
	return o->limit_s > 0 ? o->limit_s : 30 + 10 * (o->budget_s + o->warmup_s);
}

const char *ukb_status_name(enum ukb_status s)
{
	switch (s) {
	case UKB_OK:
		return "ok";
	case UKB_UNSUPPORTED:
		return "unsupported";
	case UKB_SKIPPED:
		return "skipped";
	case UKB_ERROR:
		return "error";
	case UKB_INTERRUPTED:
		return "interrupted";
	}
	return "?";
}

void ukb_bench_fullname(const struct ukb_bench *bench, const struct ukb_variant *variant, char *buf,
			size_t len)
{
	if (variant)
		snprintf(buf, len, "%s.%s", bench->name, variant->name);
	else
		snprintf(buf, len, "%s", bench->name);
}

size_t ukb_bench_variant_count(const struct ukb_bench *b)
{
	size_t n = 0;

	while (b->variants && b->variants[n].name)
		n++;
	return n;
}

void ukb_result_release(struct ukb_result *res)
{
	for (unsigned i = 0; i < res->ncounters; i++)
		free(res->counters[i].per_sample);
	res->ncounters = 0;
	free(res->samples);
	free(res->cpu_samples);
	free(res->disturbed);
	free(res->ref_samples);
	res->samples = res->cpu_samples = res->ref_samples = NULL;
	res->disturbed = NULL;
	res->nsamples = res->cap = res->ndisturbed = 0;
}

int ukb_figure_stats(const double *x, const uint8_t *dist, size_t n, int keep_all,
		     struct ukb_stats *st)
{
	size_t k = 0;
	double *u;
	int err;

	for (size_t i = 0; dist && !keep_all && i < n; i++)
		k += !dist[i];
	if (!dist || keep_all || k == n || k < 2)
		return ukb_stats_compute(x, n, st);
	u = malloc(k * sizeof(*u));
	if (!u)
		return -ENOMEM;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (!dist[i])
			u[k++] = x[i];
	err = ukb_stats_compute(u, k, st);
	free(u);
	return err ? err : 1;
}

/*
 * One batch as taken: its time per iteration, CPU time per iteration, mark,
 * and the reference's time per iteration beside it.
 */
static int push_sample(struct ukb_result *res, double v, double cpu, unsigned mark, double ref)
{
	if (res->nsamples == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 256;
		double *s = realloc(res->samples, cap * sizeof(*s));
		double *c;
		uint8_t *d;

		if (!s)
			return -ENOMEM;
		res->samples = s;
		c = realloc(res->cpu_samples, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		res->cpu_samples = c;
		c = realloc(res->ref_samples, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		res->ref_samples = c;
		d = realloc(res->disturbed, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		res->disturbed = d;
		res->cap = cap;
	}
	res->cpu_samples[res->nsamples] = cpu;
	res->ref_samples[res->nsamples] = ref;
	res->disturbed[res->nsamples] = (uint8_t)mark;
	res->ndisturbed += mark != 0;
	res->samples[res->nsamples++] = v;
	return 0;
}

/*
 * A benchmark's code that forks (a plug-in's run()) and whose child
 * returns instead of ending would go on measuring in the child and answer
 * twice, or print a second table. A child made by fork() while a path's
 * code may run is marked; when it comes back to the harness it ends here,
 * the first such child of a path saying why: the one line the core writes,
 * since that child has no caller to hand an error to.
 */
static volatile sig_atomic_t in_code;	   /* a path's setup, run or teardown may run */
static volatile sig_atomic_t forked_child; /* this process is such a child */
static unsigned long code_forks;	   /* the parent's count, as the next child sees it */

static void fork_parent(void)
{
	if (in_code)
		code_forks++;
}

static void fork_child(void)
{
	if (in_code)
		forked_child = 1;
}

static void code_enter(void)
{
	static int hooked;

	/* a child's exit() would write out again what stdio still holds */
	fflush(NULL);
	if (!hooked)
		hooked = !pthread_atfork(NULL, fork_parent, fork_child);
	in_code = 1;
}

/* After a path's code returned: a forked child that came back ends here. */
static inline void code_back(const struct ukb_ctx *ctx)
{
	char msg[400];
	int len;

	if (__builtin_expect(!forked_child, 1))
		return;
	if (!code_forks) {
		len = snprintf(msg, sizeof(msg),
			       "warning: %s/%s: a process its code forked returned into ukbench "
			       "instead of ending (_exit() it): ended with status 127\n",
			       ctx->bench->name, ctx->path->name);
		/* nothing to do when even this fails: the child ends either way */
		if (len > 0)
			(void)!write(2, msg, (size_t)len);
	}
	_exit(127);
}

/* teardown() of a prepared path, the last of its code */
static void teardown(struct ukb_ctx *ctx)
{
	code_enter();
	if (ctx->path->teardown)
		ctx->path->teardown(ctx);
	code_back(ctx);
	in_code = 0;
}

/* Times one batch of @n iterations; returns 0 and the time in *ns, or -errno. */
static int time_batch(struct ukb_ctx *ctx, uint64_t n, uint64_t *ns)
{
	uint64_t t0, t1;
	int err;

	t0 = ukb_now_ns();
	err = ctx->path->run(ctx, n);
	t1 = ukb_now_ns();
	code_back(ctx);
	*ns = ctx->bench->flags & UKB_SELF_TIMED ? ctx->elapsed_ns : t1 - t0;
	return err;
}

/*
 * Iterations of reference work @w for a reference batch: measured once in
 * a process (the first path to need it), since it is the same work for all.
 */
static uint64_t ref_iters(enum ukb_ref_work w)
{
	static uint64_t n[UKB_REF_NWORKS];

	if (!n[w])
		n[w] = ukb_ref_calibrate(w, UKB_REF_BATCH_NS);
	return n[w];
}

/*
 * The reference batch after a path's batch: ns per reference iteration,
 * or NAN when the thread did not run throughout it.
 */
static double ref_batch(const struct ukb_disturb *d, enum ukb_ref_work w)
{
	struct ukb_mark a, b;
	uint64_t n = ref_iters(w), t0, t1;
	double cpu;

	ukb_mark_read(d, &a);
	t0 = ukb_now_ns();
	ukb_ref_run(w, n);
	t1 = ukb_now_ns();
	ukb_mark_read(d, &b);
	if (ukb_disturbed(d, &a, &b, t1 - t0, &cpu))
		return NAN;
	return (double)(t1 - t0) / (double)n;
}

/*
 * The work a path gets (reference.h): the chain with the barrier for a
 * path that calls the vDSO; the chain and the loop for one that makes a
 * system call (a path named "syscall", or of the syscall and copy
 * benchmarks, whose every path enters the kernel); the chain otherwise.
 */
static enum ukb_ref_work ref_work(const struct ukb_result *res)
{
	const char *b = res->bench ? res->bench->name : "";

	if (res->path && res->path->vdso_sym)
		return UKB_REF_CALLS_BARRIER;
	if ((res->path && !strcmp(res->path->name, "syscall")) || !strncmp(b, "syscall.", 8) ||
	    !strncmp(b, "copy.", 5))
		return UKB_REF_CALLS_LOOP;
	return UKB_REF_CALLS;
}

/*
 * The reference after a path's batch marked @mark. It is timed only after
 * a batch the thread ran throughout, so that it always follows a stretch
 * of running: right after the thread comes back, its short batch would pay
 * for refilling caches that the longer path batch hardly notices, and
 * would read the machine slower than it is.
 */
static double ref_after(const struct ukb_result *res, const struct ukb_disturb *d, unsigned mark)
{
	if (res->keeps_disturbed || mark)
		return NAN;
	return ref_batch(d, ref_work(res));
}

/*
 * A measured batch: the marks are read around it, outside the timed
 * region (disturb.h), so they cost the figure nothing. *@cpu gets the CPU
 * time per iteration (NAN: not known), *@mark the judgement.
 */
static int marked_batch(struct ukb_ctx *ctx, const struct ukb_disturb *d, uint64_t n, uint64_t *ns,
			double *cpu, unsigned *mark)
{
	struct ukb_mark a, b;
	int err;

	ukb_mark_read(d, &a);
	err = time_batch(ctx, n, ns);
	ukb_mark_read(d, &b);
	*mark = ukb_disturbed(d, &a, &b, *ns, cpu);
	*cpu = *cpu >= 0 ? *cpu / (double)n : NAN;
	return err;
}

/* A status and its reason: @prefix (a literal, may be "") before @why. */
static void set_status(struct ukb_result *res, enum ukb_status st, int err, const char *prefix,
		       const char *why)
{
	res->status = st;
	res->err = err;
	snprintf(res->reason, sizeof(res->reason), "%s%s", prefix, why);
}

/* A setup failure: not permitted is a skip, absent is unsupported. */
static enum ukb_status setup_status(int err)
{
	switch (-err) {
	case EPERM:
	case EACCES:
		return UKB_SKIPPED;
	case ENOSYS:
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
	case EINVAL:
		return UKB_UNSUPPORTED;
	default:
		return UKB_ERROR;
	}
}

/*
 * Batch length: at least 1 ms, and a thousand times the clock's resolution
 * and read cost, so that neither moves a per-call figure by more than
 * 0.1%. One millisecond also keeps a timer interrupt (every 1 to 10 ms) to
 * a fraction of the batches, where it shows as an outlier, rather than in
 * every batch, where it would hide in the mean.
 */
static double batch_target(const struct ukb_measure_opts *o, const struct ukb_clock_info *clk)
{
	double t = 1e6;

	if (o->batch_ns > 0)
		return o->batch_ns;
	if (1000 * clk->resolution_ns > t)
		t = 1000 * clk->resolution_ns;
	if (1000 * clk->read_cost_ns > t)
		t = 1000 * clk->read_cost_ns;
	return t;
}

static int calibrate(struct ukb_ctx *ctx, struct ukb_result *res, double target,
		     volatile sig_atomic_t *stop)
{
	uint64_t n = 1, ns;
	int err;

	if (ctx->bench->flags & UKB_FIXED_BATCH) {
		res->batch_iters = 1;
		return 0;
	}
	for (;;) {
		double factor;

		err = time_batch(ctx, n, &ns);
		if (err)
			return err;
		res->warmup_batches++;
		if ((double)ns >= target || n >= (1ull << 40) || (stop && *stop))
			break;
		/* grow towards the target, by 2x to 100x per step */
		factor = ns ? 1.1 * target / (double)ns : 100;
		if (factor < 2)
			factor = 2;
		if (factor > 100)
			factor = 100;
		n = (uint64_t)ceil((double)n * factor);
	}
	res->batch_iters = n;
	return 0;
}

static int warm_up(struct ukb_ctx *ctx, struct ukb_result *res, double warmup_ns, uint64_t start,
		   volatile sig_atomic_t *stop)
{
	uint64_t ns;
	int err;

	while ((double)(ukb_now_ns() - start) < warmup_ns && !(stop && *stop)) {
		err = time_batch(ctx, res->batch_iters, &ns);
		if (err)
			return err;
		res->warmup_batches++;
	}
	return 0;
}

/*
 * Counters are read before and after every batch, outside the timed
 * region, so a sample's counts belong to exactly its calls. Children and
 * threads started after they open are counted once they have exited.
 */
static void counters_begin(struct ukb_counters *c, struct ukb_result *res,
			   const struct ukb_measure_opts *o)
{
	ukb_counters_open(c, o->events, o->nevents, 0, 1, 0);
	res->ncounters = c->n;
	for (unsigned i = 0; i < c->n; i++) {
		res->counters[i].ev = c->ev[i];
		res->counters[i].status = c->status[i];
		snprintf(res->counters[i].reason, sizeof(res->counters[i].reason), "%s",
			 c->reason[i]);
	}
}

static int counters_add(struct ukb_result *res, const struct ukb_reading *a,
			const struct ukb_reading *b, uint64_t iters)
{
	for (unsigned i = 0; i < res->ncounters; i++) {
		struct ukb_counter_result *cr = &res->counters[i];
		double d;
		double *p;

		if (cr->status != UKB_CTR_OK && cr->status != UKB_CTR_NOT_COUNTED)
			continue;
		if (ukb_counter_delta(&a[i], &b[i], &d)) {
			/* multiplexed out for this whole batch: nothing to say */
			d = NAN;
		}
		p = realloc(cr->per_sample, (cr->n + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		cr->per_sample = p;
		cr->per_sample[cr->n++] = d / (double)iters;
		if (isfinite(d))
			cr->total += d;
	}
	return 0;
}

static void counters_end(struct ukb_counters *c, struct ukb_result *res, uint64_t iters)
{
	for (unsigned i = 0; i < res->ncounters; i++) {
		struct ukb_counter_result *cr = &res->counters[i];
		size_t counted = 0;

		for (size_t k = 0; k < cr->n; k++)
			counted += isfinite(cr->per_sample[k]);
		if (cr->status == UKB_CTR_OK && cr->n && !counted) {
			cr->status = UKB_CTR_NOT_COUNTED;
			snprintf(cr->reason, sizeof(cr->reason),
				 "not counted (multiplexed to zero: the PMU had no room)");
		}
		cr->per_call =
		    iters && counted ? cr->total / (double)(iters / cr->n * counted) : NAN;
	}
	ukb_counters_close(c);
}

static int sample(struct ukb_ctx *ctx, struct ukb_result *res, const struct ukb_measure_opts *o)
{
	struct ukb_running run = { 0 };
	struct ukb_counters ctrs = { 0 };
	struct ukb_reading before[UKB_MAX_COUNTERS], after[UKB_MAX_COUNTERS];
	struct ukb_disturb dist;
	uint64_t start = ukb_now_ns(), ns;
	double budget = o->budget_s * 1e9, elapsed, cpu;
	unsigned mark;
	int err;

	ukb_disturb_probe(&dist, !!(ctx->bench->flags & UKB_THREADED));
	res->keeps_disturbed = !!(ctx->bench->flags & UKB_KEEPS_DISTURBED);
	if (o->nevents)
		counters_begin(&ctrs, res, o);

	for (;;) {
		if (o->stop && *o->stop) {
			res->status = UKB_INTERRUPTED;
			snprintf(res->reason, sizeof(res->reason), "interrupted after %zu samples",
				 res->nsamples);
			break;
		}
		if (ctrs.n)
			ukb_counters_read(&ctrs, before);
		err = marked_batch(ctx, &dist, res->batch_iters, &ns, &cpu, &mark);
		if (ctrs.n)
			ukb_counters_read(&ctrs, after);
		if (!err && ctrs.n)
			err = counters_add(res, before, after, res->batch_iters);
		if (!err)
			err = push_sample(res, (double)ns / (double)res->batch_iters, cpu, mark,
					  ref_after(res, &dist, mark));
		if (err) {
			ukb_counters_close(&ctrs);
			return err;
		}
		/*
		 * The stopping rule sees what the figure will be made of: the
		 * batches the thread ran throughout (every batch where the
		 * benchmark keeps them all).
		 */
		if (!mark || res->keeps_disturbed)
			ukb_running_add(&run, res->samples[res->nsamples - 1]);
		elapsed = (double)(ukb_now_ns() - start);
		res->measure_s = elapsed / 1e9;
		if (o->progress)
			o->progress(o->progress_arg, res);

		if (res->nsamples >= o->max_samples)
			break;
		if (run.n < o->min_samples) {
			/* a slow benchmark may overrun, but not without bound */
			if (elapsed < 10 * budget)
				continue;
			break;
		}
		/*
		 * The precision target ends sampling only after the minimum
		 * time: checked after every batch from the first, a target is
		 * met first by a stretch of batches that happens to hold no
		 * preemption, and such stretches are fast ones, so an early stop
		 * would bias the mean low and its interval narrow.
		 */
		if (elapsed >= o->min_time_s * 1e9 && ukb_running_ci95_rel(&run) <= o->precision) {
			res->converged = 1;
			break;
		}
		if (elapsed >= budget) {
			res->converged = ukb_running_ci95_rel(&run) <= o->precision;
			break;
		}
	}
	if (ctrs.n)
		counters_end(&ctrs, res, res->batch_iters * res->nsamples);
	return 0;
}

/*
 * Resolves the vDSO symbol and runs setup(). Returns 1 when the path is
 * ready (teardown owed), 0 when @res holds why it is not.
 */
static int prepare(struct ukb_ctx *ctx, struct ukb_result *res)
{
	const struct ukb_path *path = ctx->path;
	char why[sizeof(res->reason)] = "";
	int err;

	if (path->vdso_sym) {
		ctx->vfn = ukb_vdso_func(path->vdso_sym, why, sizeof(why));
		if (!ctx->vfn) {
			set_status(res, UKB_UNSUPPORTED, -ENOENT, "", why);
			return 0;
		}
	}
	code_forks = 0; /* each path's first such child says why */
	if (path->setup) {
		code_enter();
		err = path->setup(ctx, why, sizeof(why));
		code_back(ctx);
		if (err) {
			in_code = 0;
			if (!why[0])
				snprintf(why, sizeof(why), "setup failed: %s", strerror(-err));
			/* not permitted: a policy (seccomp, LSM) blocks it; say so */
			set_status(res, setup_status(err), err,
				   setup_status(err) == UKB_SKIPPED ? "blocked: " : "", why);
			return 0;
		}
	}
	code_enter();
	return 1;
}

static void result_init(struct ukb_result *res, struct ukb_ctx *ctx, const struct ukb_bench *bench,
			const struct ukb_variant *variant, const struct ukb_path *path,
			unsigned cpu, const long *params)
{
	memset(res, 0, sizeof(*res));
	ukb_bench_fullname(bench, variant, res->name, sizeof(res->name));
	res->bench = bench;
	res->variant = variant;
	res->path = path;
	res->cpu = cpu;
	memset(ctx, 0, sizeof(*ctx));
	ctx->bench = bench;
	ctx->variant = variant;
	ctx->path = path;
	ctx->arg = variant ? variant->arg : 0;
	ctx->arg2 = variant ? variant->arg2 : 0;
	ctx->threads = variant && variant->threads ? variant->threads : 1;
	ctx->cpu = cpu;
	ctx->params = params;
}

int ukb_probe(const struct ukb_bench *bench, const struct ukb_variant *variant,
	      const struct ukb_path *path, unsigned cpu, struct ukb_result *res)
{
	struct ukb_ctx ctx;

	result_init(res, &ctx, bench, variant, path, cpu, NULL);
	if (prepare(&ctx, res))
		teardown(&ctx);
	return res->status == UKB_OK;
}

int ukb_validate(const struct ukb_bench *bench, const struct ukb_variant *variant,
		 const struct ukb_path *path, const long *params, char *why, size_t len)
{
	struct ukb_result res;
	struct ukb_ctx ctx;

	if (!bench->validate)
		return 0;
	result_init(&res, &ctx, bench, variant, path, UKB_CPU_ANY, params);
	return bench->validate(&ctx, why, len);
}

/*
 * A path made ready to run batches: the result set up, the path prepared,
 * the batch calibrated. 1 with teardown owed and *@err the calibration's
 * error, 0 when @res holds why the path is not available.
 */
static int begin_path(struct ukb_ctx *ctx, struct ukb_result *res, const struct ukb_bench *bench,
		      const struct ukb_variant *variant, const struct ukb_path *path,
		      const struct ukb_measure_opts *o, const struct ukb_clock_info *clk, int *err)
{
	result_init(res, ctx, bench, variant, path, o->cpu, o->params);
	res->batch_ns = batch_target(o, clk);
	if (!prepare(ctx, res))
		return 0;
	*err = calibrate(ctx, res, res->batch_ns, o->stop);
	return 1;
}

int ukb_measure(const struct ukb_bench *bench, const struct ukb_variant *variant,
		const struct ukb_path *path, const struct ukb_measure_opts *o,
		const struct ukb_clock_info *clk, struct ukb_result *res)
{
	struct ukb_ctx ctx;
	uint64_t start = ukb_now_ns();
	int err;

	if (!begin_path(&ctx, res, bench, variant, path, o, clk, &err))
		return 0;
	if (!err)
		err = warm_up(&ctx, res, o->warmup_s * 1e9, start, o->stop);
	if (!err)
		err = sample(&ctx, res, o);
	teardown(&ctx);

	if (err == -ENOMEM && !res->samples)
		return err;
	/* a run that failed because the user stopped it was interrupted, not broken */
	if (err && o->stop && *o->stop) {
		set_status(res, UKB_INTERRUPTED, -EINTR,
			   "interrupted: ", ctx.why[0] ? ctx.why : strerror(-err));
		return 0;
	}
	if (err) {
		set_status(res, UKB_ERROR, err, "", ctx.why[0] ? ctx.why : strerror(-err));
		return 0;
	}
	if (res->status == UKB_OK && !res->nsamples) {
		set_status(res, UKB_INTERRUPTED, -EINTR, "", "interrupted before the first sample");
		return 0;
	}
	if (res->nsamples)
		ukb_figure_stats(res->samples, res->disturbed, res->nsamples, res->keeps_disturbed,
				 &res->stats);
	return 0;
}

int ukb_profile(const struct ukb_bench *bench, const struct ukb_variant *variant,
		const struct ukb_path *path, const struct ukb_measure_opts *o,
		const struct ukb_clock_info *clk, double seconds, struct ukb_sampler *smp,
		struct ukb_result *res)
{
	struct ukb_ctx ctx;
	uint64_t start, ns;
	int err;

	if (!begin_path(&ctx, res, bench, variant, path, o, clk, &err))
		return 0;
	start = ukb_now_ns();
	if (!err)
		ukb_sampler_enable(smp);
	while (!err && (double)(ukb_now_ns() - start) < seconds * 1e9 && !(o->stop && *o->stop)) {
		err = time_batch(&ctx, res->batch_iters, &ns);
		res->nsamples++;
		ukb_sampler_drain(smp);
	}
	ukb_sampler_disable(smp);
	res->measure_s = (double)(ukb_now_ns() - start) / 1e9;
	teardown(&ctx);
	if (err)
		set_status(res, UKB_ERROR, err, "", ctx.why[0] ? ctx.why : strerror(-err));
	return 0;
}
