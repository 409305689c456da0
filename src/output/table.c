// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * table.c - the table a kernel developer reads at a glance.
 *
 * One row per path, the paths of a benchmark grouped under its name, so
 * that vdso, libc and syscall sit side by side. The figure is the mean
 * cost per call with the half-width of its 95% confidence interval in %,
 * then the median (robust to the slow tail), calls per second and the
 * number of samples. A path that cannot run here is a row that says why.
 */
#include <math.h>
#include <string.h>

#include "desc.h"
#include "output.h"
#include "vdso.h"
#include "width.h"

/*
 * Two layouts: the wide one, every column (115 columns, --wide), and the
 * one that fits 80 columns, without the CPU time, calls/s and samples (in
 * the JSON and CSV, and with --wide), a benchmark name longer than its
 * column on a line of its own above its paths.
 */
struct table_layout {
	int name, path, mean, ci, proc, med, cpu, rate, n;
};

static const struct table_layout wide = { 35, 10, 10, 8, 8, 10, 9, 9, 8 },
				 narrow = { 28, 8, 10, 7, 7, 10, 0, 0, 0 },
				 compact = { 0, 8, 10, 7, 7, 10, 0, 0, 0 };

/*
 * Under 76 columns (the narrow layout's width), every benchmark name stands
 * on a line of its own and its paths are indented under it: 50 columns.
 */
void table_begin(struct table_out *t, FILE *f, int cols)
{
	t->f = f;
	t->cols = cols;
	t->lay = cols && cols < 76 ? &compact : cols && cols < 115 ? &narrow : &wide;
}

/* The indent of a row whose name is on the line above (compact). */
static void row_indent(const struct table_out *t)
{
	FILE *f = t->f;

	if (!t->lay->name)
		fputs("  ", f);
}

/* One row: a cell per column of the layout (a 0-wide column is left out). */
static void row_cells(const struct table_out *t, const char *const *cell)
{
	FILE *f = t->f;
	const int w[] = { t->lay->name, t->lay->path, t->lay->mean, t->lay->ci, t->lay->proc,
			  t->lay->med,	t->lay->cpu,  t->lay->rate, t->lay->n };
	int put = 0;

	row_indent(t);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		if (!w[i])
			continue;
		if (put++)
			fputc(' ', f);
		put_cell(f, cell[i], w[i], i >= 2);
	}
	fputc('\n', f);
}

/* Where the text under a row starts: past the name and path columns. */
static int under(const struct table_out *t)
{
	return t->lay != &wide ? 4 : t->lay->name + 1 + t->lay->path + 1;
}

void format_si(char *buf, size_t len, double v)
{
	static const char *const units[] = { "", " k", " M", " G", " T" };
	unsigned u = 0;

	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f%s", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v, units[u]);
}

/*
 * A relative figure in at most six characters, so that its cell (seven wide
 * in 80 columns) keeps the mark beside it: a short run's interval can pass 100%.
 */
static void format_pct(char *buf, size_t len, double rel, const char *mark)
{
	double p = 100 * rel;

	snprintf(buf, len, "%.*f%%%s", fabs(p) < 100 ? 2 : fabs(p) < 1000 ? 1 : 0, p, mark);
}

void format_ns(char *buf, size_t len, double ns)
{
	/* a whole run (sched.messaging) reads better in ms or s */
	if (ns >= 1e9)
		snprintf(buf, len, "%.3fs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.*f", ns < 10 ? 3 : ns < 1000 ? 2 : 1, ns);
}

/* The mean more than 20% from the median: what a slow tail does to it. */
/*
 * Is the interval @r prints wider than the precision asked, though its
 * processes met it? What moves between runs (the floor, the machine's
 * state) is in the interval, and no budget of one run narrows it.
 */
static int wider_than_asked(double precision, const struct rec_result *r)
{
	return precision > 0 && r->converged && r->status == UKB_OK &&
	       r->stats.ci95_rel > precision * (1 + 1e-9);
}

static int mean_far_from_median(const struct rec_result *r)
{
	return r->stats.median > 0 && isfinite(r->stats.mean) &&
	       fabs(r->stats.mean / r->stats.median - 1) > 0.20;
}

/* A member of the environment, or "?" where it was not recorded. */
static const char *or_unknown(const char *s)
{
	return s ? s : "?";
}

void table_header(struct table_out *t, const struct rec_run *run)
{
	t->precision = rec_settings(run)->precision;
	FILE *f = t->f;
	const struct rec_env *env = rec_env(run);
	const struct rec_settings *s = rec_settings(run);
	char line[2200];

	/* a CPU's name can be long: the line folds to the width, as warnings do */
	snprintf(line, sizeof(line), "ukbench %s on %s: Linux %s %s, %s", run->ukbench_version,
		 run->host, run->kernel_release, or_unknown(env->machine),
		 or_unknown(env->cpu_model));
	put_folded(f, line, 0, 2, t->cols);
	snprintf(line, sizeof(line), "clocksource %s, %s, %lld CPUs, virtualization: %s",
		 or_unknown(env->clocksource), or_unknown(env->libc), env->online_cpus,
		 or_unknown(env->virtualization));
	put_folded(f, line, 0, 2, t->cols);
	for (size_t i = 0; i < env->nwarnings; i++) {
		fputs("warning: ", f);
		put_folded(f, env->warnings[i], 9, 2, t->cols);
	}
	if (run->id || run->label[0]) {
		char l[512], when[64];
		int o = 0;

		/* a label's runs pooled: every run named, not the latest alone */
		if (run->npooled > 1) {
			o = snprintf(line, sizeof(line), "%zu runs pooled (", run->npooled);
			for (size_t i = 0; i < run->npooled && o < (int)sizeof(line) - 32; i++)
				o += snprintf(line + o, sizeof(line) - (size_t)o, "%s#%lld",
					      i ? ", " : "", (long long)run->pooled_ids[i]);
			o += snprintf(line + o, sizeof(line) - (size_t)o, "), ");
		} else if (run->id) {
			o = snprintf(line, sizeof(line), "run #%lld, ", (long long)run->id);
		}
		snprintf(line + o, sizeof(line) - (size_t)o, "%s%s%s%s %s",
			 run->label[0] ? "label '" : "", vis(run->label, l, sizeof(l)),
			 run->label[0] ? "', " : "",
			 run->npooled > 1 ? "the latest started" : "started",
			 vis(run->started, when, sizeof(when)));
		put_folded(f, line, 0, 2, t->cols);
	}
	if (s->command) {
		/* a run of `ukbench exec`: a command run N times, no precision or budget */
		char c[2048];

		snprintf(line, sizeof(line), "exec: '%s', %lld runs", vis(s->command, c, sizeof(c)),
			 s->repeat);
		put_folded(f, line, 0, 2, t->cols);
	} else {
		int o = snprintf(line, sizeof(line),
				 "precision %g%% (95%% CI of the mean), budget %.3g s per path, ",
				 100 * (isfinite(s->precision) ? s->precision : 0),
				 isfinite(s->budget_s) ? s->budget_s : 0);

		if (s->cpu < 0)
			snprintf(line + o, sizeof(line) - (size_t)o, "not pinned");
		else
			snprintf(line + o, sizeof(line) - (size_t)o, "pinned to CPU %lld", s->cpu);
		put_folded(f, line, 0, 2, t->cols);
	}
	fputc('\n', f);
	{
		static const char *const head[] = { "benchmark", "path",    "ns/call",
						    "±CI95",	 "±proc",   "median",
						    "cpu ns",	 "calls/s", "samples" };
		static const char *const exec_head[] = { "benchmark", "path",	"per run",
							 "±CI95",     "±proc",	"median",
							 "cpu",	      "runs/s", "runs" };

		if (!t->lay->name)
			fprintf(f, "benchmark\n");
		row_cells(t, s->command ? exec_head : head);
	}
}

/* The counters of a result, per call, and those that could not count. */
static void table_counters(const struct table_out *t, const struct rec_result *r)
{
	FILE *f = t->f;
	char line[2048];
	size_t o;

	if (!r->ncounters)
		return;
	o = (size_t)snprintf(line, sizeof(line), "per %s:", r->unit[0] ? r->unit : "call");
	for (size_t i = 0; i < r->ncounters && o < sizeof(line); i++) {
		const struct rec_counter *c = &r->counters[i];

		if (strcmp(c->status, "ok"))
			continue;
		if (!strcmp(c->name, "task-clock") || !strcmp(c->name, "cpu-clock"))
			o += (size_t)snprintf(line + o, sizeof(line) - o, " %s %.2f ns", c->name,
					      c->per_call);
		else
			o += (size_t)snprintf(line + o, sizeof(line) - o, " %s %.4g", c->name,
					      c->per_call);
	}
	/* instructions per cycle, where the CPU counts both */
	{
		double cyc = NAN, ins = NAN;

		for (size_t i = 0; i < r->ncounters; i++) {
			if (strcmp(r->counters[i].status, "ok"))
				continue;
			if (!strcmp(r->counters[i].name, "cycles") ||
			    !strcmp(r->counters[i].name, "cpu-cycles"))
				cyc = r->counters[i].per_call;
			if (!strcmp(r->counters[i].name, "instructions"))
				ins = r->counters[i].per_call;
		}
		if (isfinite(cyc) && isfinite(ins) && cyc > 0 && o < sizeof(line))
			snprintf(line + o, sizeof(line) - o, " IPC %.2f", ins / cyc);
	}
	fprintf(f, "%*s", under(t), "");
	put_folded(f, line, under(t), under(t) + 2, t->cols);
	/* the others, grouped by the reason the machine gave */
	for (size_t i = 0; i < r->ncounters; i++) {
		const struct rec_counter *c = &r->counters[i];
		int first = 1;

		if (!strcmp(c->status, "ok"))
			continue;
		for (size_t k = 0; k < i && first; k++)
			first = !strcmp(r->counters[k].status, "ok") ||
				strcmp(r->counters[k].reason, c->reason);
		if (!first)
			continue;
		o = (size_t)snprintf(line, sizeof(line), "%s:", c->reason);
		for (size_t k = i; k < r->ncounters && o < sizeof(line); k++)
			if (strcmp(r->counters[k].status, "ok") &&
			    !strcmp(r->counters[k].reason, c->reason))
				o += (size_t)snprintf(line + o, sizeof(line) - o, " %s",
						      r->counters[k].name);
		fprintf(f, "%*s", under(t), "");
		put_folded(f, line, under(t), under(t) + 2, t->cols);
	}
}

void table_row(const struct table_out *t, const struct rec_result *r, int first)
{
	FILE *f = t->f;
	char mean[32], ci[32], within[32], med[32], cpu[32], rate[32], n[32];
	const char *name = first ? r->name : "";
	static const char *const label[] = {
		[UKB_UNSUPPORTED] = "n/a",
		[UKB_SKIPPED] = "skipped",
		[UKB_ERROR] = "FAILED",
		[UKB_INTERRUPTED] = "stopped",
	};

	/* a name wider than its column stands on a line of its own */
	if (disp_width(name) > t->lay->name) {
		char v[512];

		fprintf(f, "%s\n", vis(name, v, sizeof(v)));
		name = "";
	}
	if (r->status != UKB_OK || !r->nsamples) {
		row_indent(t);
		if (t->lay->name) {
			put_cell(f, name, t->lay->name, 0);
			fputc(' ', f);
		}
		put_cell(f, r->path, t->lay->path, 0);
		fputc(' ', f);
		put_cell(f, r->status == UKB_OK ? "-" : label[r->status], t->lay->mean, 1);
		fputs("  ", f);
		put_folded(f, r->reason,
			   (t->lay->name ? t->lay->name + 1 : 2) + t->lay->path + t->lay->mean + 3,
			   under(t) + 2, t->cols);
		return;
	}
	format_ns(mean, sizeof(mean), r->stats.mean);
	/* ^: a mean far from the median (a slow tail, or a fast one) */
	if (mean_far_from_median(r))
		strncat(mean, "^", sizeof(mean) - strlen(mean) - 1);
	/*
	 * !: the interval printed is wider than the precision asked: its
	 * processes' part (more budget narrows it) or what moves between runs
	 * (the footer says which; compare's * is p < alpha)
	 */
	if (isfinite(r->stats.ci95_rel))
		format_pct(ci, sizeof(ci), r->stats.ci95_rel,
			   !r->converged || wider_than_asked(t->precision, r) ? "!" : "");
	else
		snprintf(ci, sizeof(ci), "-");
	/* what one process would have claimed: the within-process part */
	if (r->nproc >= 2 && isfinite(r->within_se))
		format_pct(within, sizeof(within), 1.96 * r->within_se / r->stats.mean, "");
	else
		snprintf(within, sizeof(within), "-");
	format_ns(med, sizeof(med), r->stats.median);
	/* threaded: every thread made the calls, so the rate is the aggregate */
	format_si(rate, sizeof(rate), (r->threads ? r->threads : 1) * 1e9 / r->stats.mean);
	/* the samples the figure is made of; the disturbed ones left out after a '+' */
	if (rec_excludes_disturbed(r))
		snprintf(n, sizeof(n), "%zu+%zu", r->stats.n, r->nsamples - r->stats.n);
	else
		snprintf(n, sizeof(n), "%zu", r->nsamples);
	if (isfinite(rec_cpu_per_call(r)))
		format_ns(cpu, sizeof(cpu), rec_cpu_per_call(r));
	else
		snprintf(cpu, sizeof(cpu), "-");
	{
		const char *const cell[] = { name, r->path, mean, ci, within, med, cpu, rate, n };

		row_cells(t, cell);
	}
	table_counters(t, r);
}

/*
 * The paths whose processes met the precision while the interval printed
 * did not: the rest is what a run's mean moves between runs (@floor, the
 * largest floor among them), which only more runs narrow.
 */
static void footer_between(const struct table_out *t, size_t n, double floor)
{
	char line[768];

	snprintf(line, sizeof(line),
		 "! %zu %s wider than the %g%% asked though %s processes met it: the rest "
		 "is what a run's mean moves between runs (the floor, up to %.2f%% a run, and "
		 "the machine's state), which no budget of one run narrows; runs of one label "
		 "pooled in compare narrow it, and 'ukbench calibrate' (or a label given "
		 "again) teaches this host's floor",
		 n, n == 1 ? "path prints an interval" : "paths print intervals",
		 100 * t->precision, n == 1 ? "its" : "their", 100 * floor);
	put_folded(t->f, line, 0, 2, t->cols ? t->cols : 80);
}

void table_footer(const struct table_out *t, const struct rec_run *run)
{
	FILE *f = t->f;
	size_t count[UKB_INTERRUPTED + 1] = { 0 }, unconverged = 0, far = 0, between = 0;
	double load = NAN, floor = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		count[run->results[i].status]++;
		if (run->results[i].status == UKB_OK && !run->results[i].converged)
			unconverged++;
		if (wider_than_asked(t->precision, &run->results[i])) {
			between++;
			floor = fmax(floor, run->results[i].floor_rel);
		}
		if (run->results[i].status == UKB_OK && mean_far_from_median(&run->results[i]))
			far++;
	}
	char line[1024];
	int o;

	o = snprintf(line, sizeof(line),
		     "%zu path%s in %.1f s: %zu measured, %zu not available here, %zu skipped, "
		     "%zu failed",
		     run->nresults, run->nresults == 1 ? "" : "s", run->duration_s, count[UKB_OK],
		     count[UKB_UNSUPPORTED], count[UKB_SKIPPED], count[UKB_ERROR]);
	if (count[UKB_INTERRUPTED] && o > 0 && (size_t)o < sizeof(line))
		snprintf(line + o, sizeof(line) - (size_t)o, ", %zu interrupted",
			 count[UKB_INTERRUPTED]);
	fputc('\n', f);
	put_folded(f, line, 0, 2, t->cols);
	if (unconverged) {
		const struct rec_env *env = rec_env(run);
		double ncpu = (double)env->online_cpus;

		if (env->nload)
			load = env->load[0];
		o = snprintf(line, sizeof(line),
			     "! %zu %s wider than the %g%% asked: give %s more time (--budget, now "
			     "%.3g s a path) or ask less (--precision)",
			     unconverged,
			     unconverged == 1 ? "path's processes left an interval"
					      : "paths' processes left intervals",
			     100 * rec_settings(run)->precision, unconverged == 1 ? "it" : "them",
			     rec_settings(run)->budget_s);
		if (isfinite(load) && ncpu > 0 && load >= ncpu && o > 0 && (size_t)o < sizeof(line))
			snprintf(line + o, sizeof(line) - (size_t)o,
				 "; the machine was loaded (load %.2f on %.0f CPUs): a quieter one "
				 "narrows them too",
				 load, ncpu);
		put_folded(f, line, 0, 2, t->cols ? t->cols : 80);
	}
	if (between)
		footer_between(t, between, floor);
	if (far) {
		snprintf(
		    line, sizeof(line),
		    "^ %zu %s more than 20%% from the median: a slow tail (or a fast one) that "
		    "the mean counts and the median does not; the median is the typical call",
		    far, far == 1 ? "path's mean is" : "paths' means are");
		put_folded(f, line, 0, 2, t->cols ? t->cols : 80);
	}
	table_disturbed(t, run);
}

/*
 * What was left out: the batches the measuring thread did not run
 * throughout (preempted, or its CPU taken by the hypervisor), over every
 * path that leaves them out; the path that lost the largest share; and
 * the benchmarks that keep every batch.
 */
void table_disturbed(const struct table_out *t, const struct rec_run *run)
{
	FILE *f = t->f;
	size_t total = 0, left = 0, kept = 0, worst = run->nresults;
	double share = 0;
	char line[512];

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		size_t d;

		if (r->status != UKB_OK || !r->nsamples)
			continue;
		if (r->keeps_disturbed) {
			kept++;
			continue;
		}
		d = rec_excludes_disturbed(r) ? r->nsamples - r->stats.n : 0;
		total += r->nsamples;
		left += d;
		if ((double)d / (double)r->nsamples > share) {
			share = (double)d / (double)r->nsamples;
			worst = i;
		}
	}
	if (left) {
		snprintf(line, sizeof(line),
			 "%zu of %zu batches (%.1f%%) were disturbed (the thread did not run "
			 "throughout: preempted, or its CPU stolen) and are left out of the "
			 "figures; the most from %s/%s (%.0f%%)",
			 left, total, 100.0 * (double)left / (double)total,
			 run->results[worst].name, run->results[worst].path, 100 * share);
		put_folded(f, line, 0, 2, t->cols);
	}
	if (share > 0.25) {
		snprintf(line, sizeof(line),
			 "warning: the machine is busy: up to %.0f%% of a path's batches were "
			 "disturbed; each figure is the mean of the others, and the CPU time "
			 "per call (--wide) is beside it",
			 100 * share);
		put_folded(f, line, 9, 2, t->cols);
	}
	if (kept) {
		snprintf(line, sizeof(line),
			 "%zu %s every batch, disturbed or not: the cost %s is the scheduling "
			 "itself",
			 kept, kept > 1 ? "paths keep" : "path keeps",
			 kept > 1 ? "they measure" : "it measures");
		put_folded(f, line, 0, 2, t->cols);
	}
}

/*
 * For threaded benchmarks: each thread count's aggregate rate against the
 * one-thread rate of the same benchmark, size and path.
 */
void table_scaling(const struct table_out *t, const struct rec_run *run)
{
	FILE *f = t->f;
	int header = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i], *one = NULL;
		char base[128], rate[32];
		size_t cut;

		if (!r->threads || r->status != UKB_OK || !r->nsamples)
			continue;
		/* the same name with _t1 in place of _tN */
		cut = strlen(r->name);
		while (cut && r->name[cut - 1] != 't')
			cut--;
		snprintf(base, sizeof(base), "%.*s1", (int)cut, r->name);
		one = rec_find(run, base, r->path);
		if (!header) {
			fprintf(f, "\nthread scaling (aggregate calls/s against one thread):\n");
			if (!t->lay->name)
				fprintf(f, "benchmark\n");
			row_indent(t);
			fprintf(f, "%-*s%s%-8s %8s %10s %12s %8s\n", t->lay->name,
				t->lay->name ? "benchmark" : "", t->lay->name ? " " : "", "path",
				"threads", "ns/call", "calls/s", "scaling");
			header = 1;
		}
		format_si(rate, sizeof(rate), r->threads * 1e9 / r->stats.mean);
		if (!t->lay->name)
			fprintf(f, "%s\n", r->name);
		row_indent(t);
		fprintf(f, "%-*s%s%-8s %8u %10.2f %12s ", t->lay->name, t->lay->name ? r->name : "",
			t->lay->name ? " " : "", r->path, r->threads, r->stats.mean, rate);
		if (one && one->status == UKB_OK && one->nsamples)
			fprintf(f, "%7.2fx\n",
				(r->threads / r->stats.mean) / (one->threads / one->stats.mean));
		else
			fprintf(f, "%8s\n", "-");
	}
}

/* For benchmarks that move bytes: the bytes per second of each path. */
void table_throughput(const struct table_out *t, const struct rec_run *run)
{
	FILE *f = t->f;
	int header = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct rec_result *r = &run->results[i];
		char rate[32];

		if (!r->bytes || r->status != UKB_OK || !r->nsamples)
			continue;
		int w = t->lay->name ? 35 : 0;

		if (!header) {
			fprintf(f, "\nthroughput:\n");
			if (!w)
				fprintf(f, "benchmark\n");
			row_indent(t);
			fprintf(f, "%-*s%s%-8s %12s %16s\n", w, w ? "benchmark" : "", w ? " " : "",
				"path", "bytes/call", "per second");
			header = 1;
		}
		format_si(rate, sizeof(rate), (double)r->bytes * 1e9 / r->stats.mean);
		if (!w)
			fprintf(f, "%s\n", r->name);
		row_indent(t);
		fprintf(f, "%-*s%s%-8s %12ld %13sB/s\n", w, w ? r->name : "", w ? " " : "", r->path,
			r->bytes, rate);
	}
}

void table_print(FILE *f, int cols, const struct rec_run *run)
{
	struct table_out t;

	table_begin(&t, f, cols);
	table_header(&t, run);
	for (size_t i = 0; i < run->nresults; i++)
		table_row(&t, &run->results[i],
			  i == 0 || strcmp(run->results[i].name, run->results[i - 1].name));
	table_footer(&t, run);
	table_scaling(&t, run);
	table_throughput(&t, run);
}
