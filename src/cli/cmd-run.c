// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-run.c - `ukbench run`: validate, run, report, store.
 *
 * Everything that can be refused is refused before the first benchmark
 * runs: the patterns, the option values, each benchmark's parameters, the
 * CPU, the store, the JSON file. The measuring itself is the runners'
 * (src/run); what is printed, the output's (src/output).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "affinity.h"
#include "cli.h"
#include "spool-push.h"
#include "cmp-floor.h"
#include "cmp-scan.h"
#include "width.h"
#include "events.h"
#include "comparison.h"
#include "desc.h"
#include "describe.h"
#include "kcidb-opts.h"
#include "options.h"
#include "plugin-opts.h"
#include "plugin.h"
#include "progress.h"
#include "outfile.h"
#include "run-profile.h"
#include "output.h"
#include "runner.h"
#include "figure-notes.h"
#include "run-notes.h"
#include "runref.h"
#include "store.h"

enum {
	O_PARAM = 1,
	O_SCAN,
	O_PLUGIN,
};

/*
 * --quick: a first figure of every path in seconds. What it gives up is
 * said under the table: time (a twentieth of a second a path, spread over
 * the pilot processes alone) and precision (5%), so wider intervals.
 */
#define QUICK_BUDGET_S	0.05
#define QUICK_PRECISION 0.05

struct run_opts {
	struct run_plan plan; /* the measuring settings and the cases */
	const char *json, *label, *db, *baseline;
	enum out_format format;
	struct kcidb_ids kcidb;
	int quiet, no_store;
	double fail_pct;     /* < 0: off */
	int abi;	     /* 1 << 0: native, 1 << 1: 32-bit */
	const char *profile; /* --profile PATTERN, or NULL */
	int wide;
	double profile_s;
	char helper[PATH_MAX];
	struct ukb_selection sel;
	long *sizes;
	char *params; /* every -P, joined */
	int budget_given, min_given, precision_given, quick;
	int abi_word;	    /* --abi: 0 64, 1 32, 2 both */
	int counters;	    /* --counters */
	const char *events; /* -e LIST */
};

static const struct opt run_opts[] = {
	OPT_PERCENT("precision", 'p', "PCT", "target half-width of the 95% CI, in %", 0.001, 100,
		    struct run_opts, plan.m.precision, OPT_DEF(UKB_DEF_TEXT(UKB_PRECISION_PCT_DEF)),
		    OPT_GIVEN(struct run_opts, precision_given)),
	OPT_DOUBLE("budget", 'b', "SEC",
		   "measuring time per path, spread over the processes\n(default: 36 s over the "
		   "paths selected, 0.4 to 5 s\neach)",
		   0.001, 86400, struct run_opts, plan.m.budget_s,
		   OPT_GIVEN(struct run_opts, budget_given)),
	OPT_DOUBLE("warmup", 0, "SEC", "warm-up per path, calibration included", 0, 3600,
		   struct run_opts, plan.m.warmup_s, OPT_DEF(UKB_DEF_TEXT(UKB_WARMUP_S_DEF))),
	OPT_DOUBLE("timeout", 0, "SEC",
		   "the longest one path may take in a process, its setup\nincluded (default: 30 s "
		   "and ten times its budget):\na path past it is an error row, the others are "
		   "measured",
		   0.001, 1e6, struct run_opts, plan.m.limit_s),
	OPT_UNSIGNED(
	    "min-samples", 0, "N",
	    "never fewer undisturbed samples than this in a process\n(default " UKB_DEF_TEXT(
		UKB_MIN_SAMPLES_DEF) "; 3 when the processes are chosen)",
	    2, 10000000, struct run_opts, plan.m.min_samples,
	    OPT_GIVEN(struct run_opts, min_given)),
	OPT_UNSIGNED("max-samples", 0, "N", "never more samples than this", 2, 100000000,
		     struct run_opts, plan.m.max_samples,
		     OPT_DEF(UKB_DEF_TEXT(UKB_MAX_SAMPLES_DEF))),
	OPT_DOUBLE("batch", 0, "USEC",
		   "length of one timed batch (default: 1 ms, or 1000x\nthe clock's resolution and "
		   "read cost if longer)",
		   1, 60e6, struct run_opts, plan.m.batch_ns, OPT_SCALE(1000)),
	OPT_UNSIGNED("cpu", 'C', "N", "pin the measuring thread to CPU N", 0, 65535,
		     struct run_opts, plan.m.cpu),
	OPT_CALL("plugin", 0, "FILE.so",
		 "load benchmarks of your own from a shared object built\nagainst ukbench.h (see "
		 "ukbench-plugin(7)); once for each",
		 O_PLUGIN),
	OPT_UNSIGNED(
	    "processes", 'r', "N",
	    "fresh processes per path, each taking the paths in its\nown order; the CI is over "
	    "their means (default: chosen\nper path: 4 pilots, then as many of the length that\n"
	    "makes the interval least as the budget and the\nprecision ask). 1: this process only, "
	    "variation\nbetween processes not measured",
	    1, 1000, struct run_opts, plan.procs),
	OPT_CHOICE("abi", 0, "64|32|both",
		   "measure through the native ABI, the 32-bit one (the\ni386 vDSO and compat "
		   "system calls), or both",
		   struct run_opts, abi_word),
	OPT_FUNC("size", 's', "LIST", "request sizes of sized benchmarks: 1,64,4k,1m",
		 opt_parse_sizes, long *, struct run_opts, sizes),
	OPT_STRING("flags", 0, "LIST", "flag sets of sized benchmarks: 0,nonblock,insecure,...",
		   struct run_opts, plan.sel.flags),
	OPT_UNSIGNED("threads", 0, "N", "threaded benchmarks: 1, 2, 4, ... up to N (default: CPUs)",
		     1, 4096, struct run_opts, plan.sel.threads),
	OPT_CALL("param", 'P', "NAME=V,...", "benchmark parameters (see 'ukbench list')", O_PARAM),
	OPT_CALL("parameter-list", 'L', "NAME=V1,V2,...",
		 "measure each benchmark that has parameter NAME once a\nvalue "
		 "(sched.messaging.X.groups=V, "
		 "stored and compared\nas any path), each compared with the first value",
		 O_SCAN),
	OPT_BOOL("counters", 0, "count the default perf events per call", struct run_opts,
		 counters),
	OPT_STRING("events", 'e', "LIST",
		   "count these perf events per call: cycles,instructions,...", struct run_opts,
		   events),
	OPT_STRING(
	    "json", 'j', "FILE",
	    "write settings, environment and every sample as JSON\n('-' for standard output; the "
	    "table then goes to stderr)",
	    struct run_opts, json),
	OPT_CHOICE("format", 'f', OUT_FORMATS,
		   "print table (default), json, csv, ktap, gbench, lava\n(a lava-test-case line "
		   "a path) or kcidb (KCIDB v5)",
		   struct run_opts, format),
	KCIDB_OPTS(struct run_opts, kcidb),
	OPT_STRING("label", 'l', "NAME", "a name for this run in the store ('before', 'v6.18')",
		   struct run_opts, label),
	OPT_STRING("db", 0, "PATH", "the store (default: $UKBENCH_DB, else the XDG data dir)",
		   struct run_opts, db),
	OPT_BOOL("no-store", 0, "do not store this run", struct run_opts, no_store),
	OPT_STRING("baseline", 0, "RUN", "compare each path with this stored run or JSON file",
		   struct run_opts, baseline),
	OPT_DOUBLE(
	    "fail-on-regression", 0, "PCT",
	    "with --baseline: exit 1 when a path is significantly\nslower by more than PCT %, 125 "
	    "when a path cannot\nbe told from noise at PCT %",
	    0, 1000, struct run_opts, fail_pct),
	OPT_BOOL("quiet", 'q', "print no table and no progress, only errors", struct run_opts,
		 quiet),
	OPT_BOOL(
	    "quick", 'Q',
	    "a first figure of every path in seconds: 0.05 s a path,\nprecision 5% (unless -b or "
	    "-p say otherwise); wider\nintervals, not for a figure to post",
	    struct run_opts, quick),
	OPT_BOOL("wide", 'W',
		 "every column (calls/s, samples), however wide; otherwise\nthe table fits the "
		 "terminal, "
		 "or 80 columns",
		 struct run_opts, wide),
	OPT_STRING(
	    "profile", 0, "PATTERN",
	    "after measuring, sample the paths PATTERN matches\n(cpu-clock, or cycles where a PMU "
	    "exists) and show\nwhere the time goes: vDSO symbols and instructions,\nthe kernel, "
	    "ukbench; kept with the run. Without\nother patterns, PATTERN is also what is measured",
	    struct run_opts, profile),
	OPT_DOUBLE("profile-time", 0, "SEC", "sampling time per profiled path", 0.01, 3600,
		   struct run_opts, profile_s, OPT_DEF("1")),
	OPT_END,
};

const struct command cmd_run_def = {
	.name = "run",
	.fn = cmd_run,
	.summary = "measure benchmarks and print per-call cost with 95% CIs",
	.synopsis = "[options] [PATTERN...]",
	.about = "Measures each selected benchmark path and prints its mean cost per call\n"
		 "with the 95% confidence interval and the median (with --wide, or where the\n"
		 "terminal is wide enough, calls/s and the sample count too).\n"
		 "Calls are timed in batches (CLOCK_MONOTONIC_RAW read outside the loop);\n"
		 "batches are taken until the CI is within the precision target or the\n"
		 "budget is spent. No pattern runs the default suite (about a minute at most).\n"
		 "Every run is stored (see 'ukbench runs') unless --no-store.\n"
		 "\n"
		 "PATTERN is NAME or NAME/PATH: NAME a glob or a dotted prefix of a benchmark\n"
		 "name, PATH a glob on the path (vdso, libc, syscall). See 'ukbench list'.",
	.opts = run_opts,
	.old = (const struct opt_old[]){ { "runs", 0, "processes" }, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench run                                  # the default suite\n"
		  "  ukbench run time.gettimeofday                # all paths of one benchmark\n"
		  "  ukbench run 'time.clock_gettime.*/vdso'      # every clock, vDSO path only\n"
		  "  ukbench run -C 1 -p 0.5 -b 3 syscall.null    # pinned, tighter, longer\n"
		  "  ukbench run --label before -r 5              # before a patch\n"
		  "  ukbench run --json before.json time          # keep every sample\n"
		  "  ukbench run -L groups=1,2,4 sched.messaging.pipe_process  # a scan\n",
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* --counters or -e LIST: the events counted per call. 0, or -1 (printed). */
static int set_events(struct run_opts *ro)
{
	struct run_plan *p = &ro->plan;
	struct ukb_err e;
	int n;

	if (!ro->events && !ro->counters)
		return 0;
	if (ro->events && !ro->events[0])
		return error("option '--events' needs a list of events, got an empty one");
	n = !ro->events ? ukb_events_default(p->events, UKB_MAX_COUNTERS)
			: events_parse(ro->events, p->events, UKB_MAX_COUNTERS, &e);
	if (n < 0) {
		if (!ro->events)
			return error("the default events cannot be set up");
		return error_hint(&e), -1;
	}
	p->m.nevents = (unsigned)n;
	p->m.events = p->events;
	return 0;
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct run_opts *ro = ctx;

	switch (id) {
	case O_PARAM: {
		/* -P a=1 -P b=2 is -P a=1,b=2: every -P counts */
		size_t len = (ro->params ? strlen(ro->params) + 1 : 0) + strlen(arg) + 1;
		char *p = malloc(len);

		if (!p)
			return error("out of memory");
		snprintf(p, len, "%s%s%s", ro->params ? ro->params : "", ro->params ? "," : "",
			 arg);
		free(ro->params);
		ro->params = p;
		ro->plan.sel.params = p;
		return 0;
	}
	case O_SCAN:
		if (ro->plan.sel.scan)
			return error("-L is given once: one parameter a run");
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return error("-L expects NAME=V1,V2,... (-L groups=1,2,4), got '%s'", arg),
			       -1;
		ro->plan.sel.scan = arg;
		return 0;
	case O_PLUGIN:
		return plugin_load_said(arg);
	}
	return -1;
}

/* Everything that can be refused, before anything runs. 0, 1 (--help) or -1. */
static int validate(struct run_opts *ro, int argc, char **argv)
{
	struct ukb_err e;
	int first, rc;

	ukb_measure_opts_init(&ro->plan.m);
	ro->plan.procs = 0; /* chosen per path */
	ro->fail_pct = -1;
	rc = opts_parse(&cmd_run_def, argc, argv, 0, set_option, ro, &first);
	if (rc)
		return rc;
	ro->abi = ro->abi_word + 1; /* 64: 1 << 0, 32: 1 << 1, both */
	ro->plan.sel.sizes = ro->sizes;
	if (ro->profile && !ro->profile[0])
		return error("--profile needs a pattern, as run takes them");
	if (set_events(ro))
		return -1;
	if (ro->fail_pct >= 0 && !ro->baseline)
		return error("--fail-on-regression needs --baseline RUN to compare with");
	if (ro->plan.m.min_samples > ro->plan.m.max_samples)
		return error("--min-samples %u is above --max-samples %u", ro->plan.m.min_samples,
			     ro->plan.m.max_samples),
		       -1;
	if (ro->json && !strcmp(ro->json, "-") && ro->format != OUT_TABLE)
		return error("--json - and --format both want standard output");
	if (ro->profile && first == argc) {
		/* what is profiled is what is measured */
		char *only[] = { (char *)ro->profile };

		if (ukb_select(&ro->sel, 1, only, 1, &ro->plan.sel, 1, &e))
			return error_hint(&e), -1;
	} else if (ukb_select(&ro->sel, argc - first, argv + first, 1, &ro->plan.sel, 1, &e)) {
		return error_hint(&e), -1;
	}
	ro->plan.cases = ro->sel.cases;
	ro->plan.plugins = plugin_paths();
	if (ro->plan.plugins && (ro->abi & 2))
		warning("the plug-ins are not loaded in the 32-bit helper: their paths are "
			"measured through the native ABI only");
	ro->plan.ncases = ro->sel.n;
	if (!ro->budget_given)
		ro->plan.m.budget_s = ro->quick ? QUICK_BUDGET_S : plan_default_budget(ro->sel.n);
	if (ro->quick && !ro->precision_given)
		ro->plan.m.precision = QUICK_PRECISION;
	if ((ro->abi & 2) && abi32_helper(ro->helper, sizeof(ro->helper)))
		return error("--abi %s needs the 32-bit helper '%s', which was not built: this "
			     "machine's compiler cannot build i386 code (install "
			     "gcc-i686-linux-gnu and libc6-dev-i386-cross, then rebuild)",
			     ro->abi == 2 ? "32" : "both", ro->helper),
		       -1;
	if (ro->plan.m.cpu != UKB_CPU_ANY && (rc = ukb_pin_cpu(ro->plan.m.cpu)))
		return error("cannot pin to CPU %u: %s (%ld CPUs online)", ro->plan.m.cpu,
			     strerror(-rc), sysconf(_SC_NPROCESSORS_ONLN)),
		       -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Running: the results stream into the table as each is known         */

struct view {
	FILE *out; /* the table, or NULL */
	struct table_out table;
	int progress;
	uint64_t last_ns;
	/* for the progress line's estimate */
	uint64_t t0;
	size_t ncases, done;
	double per_case_s; /* budget and warm-up of one path, over every process */
	const char *what;  /* "", or " (32-bit ABI)" */
	/* the process running, for the line a tick redraws */
	char head[64];
	double frac0, frac1;	   /* how far, when it began and when it ends */
	uint64_t proc_t0, proc_ns; /* when it began; how long the one before took */
	/* what the store knows of the movement between runs on this host */
	struct store *st;
	double precision;
	size_t from_learned, from_prior;
	/* paths whose floor held the machine's speed by the reference */
	size_t at_speed;
	/* paths whose interval held their reference's move from the host's first runs */
	size_t early;
};

/*
 * Adds to a replicated figure what no run can see of itself: how much the
 * path's mean moves between runs of the same thing on this host, learned
 * from its stored runs, else assumed (cmp-floor.h), and how far the
 * machine's state during the run moves it.
 */
static void apply_floor(struct view *v, const struct rec_run *run, struct rec_result *r)
{
	struct floor_pick p;
	double d;

	if (r->status != UKB_OK || r->nproc < 2)
		return;
	floor_pick(v->st, run, r, NULL, 0, &p);
	if (p.error[0])
		warning("%s", p.error);
	floor_apply(&p, r);
	v->from_learned += p.source == FLOOR_LEARNED;
	v->from_prior += p.source == FLOOR_PRIOR;
	floor_of_run(r, &d);
	v->at_speed += isfinite(d) && r->fl.beta > 0;
	v->early += !isfinite(d) && r->state_rel > 0;
	/*
	 * converged stays what the processes reached: the floor is how far a
	 * run moves, which no budget narrows, so it does not ask for more
	 */
}

/* The progress line: what is running, how far, the time so far and the rest. */
static void progress_line(struct view *v, double frac, const char *head, const char *what)
{
	double elapsed = (double)(ukb_now_ns() - v->t0) / 1e9, left;

	if (frac > 0.02)
		left = elapsed / frac - elapsed;
	else
		left = (double)v->ncases * v->per_case_s - elapsed;
	progress_draw(head, elapsed, left < 0 ? 0 : left, what);
}

static void on_result(void *arg, struct rec_run *run, size_t i)
{
	struct view *v = arg;
	struct rec_result *r = &run->results[i];

	v->done++;
	apply_floor(v, run, r);
	if (v->progress && v->last_ns) {
		progress_clear();
		v->last_ns = 0;
	}
	if (v->out) {
		table_row(&v->table, r,
			  i == 0 || strcmp(r->name, run->results[i - 1].name) ||
			      strcmp(strchr(r->path, '@') ?: "",
				     strchr(run->results[i - 1].path, '@') ?: ""));
		fflush(v->out);
	}
}

static void on_begin(void *arg, size_t i, size_t n)
{
	struct view *v = arg;

	if (v->progress && n > 1 && v->what[0]) {
		uint64_t now = ukb_now_ns();
		char what[96];

		if (i > 0 && v->proc_t0)
			v->proc_ns = now - v->proc_t0;
		v->proc_t0 = now;
		v->frac0 = (double)i / (double)n;
		v->frac1 = (double)(i + 1) / (double)n;
		snprintf(v->head, sizeof(v->head), "process %zu/%zu", i + 1, n);
		snprintf(what, sizeof(what), "%zu paths%s", v->ncases, v->what);
		progress_line(v, v->frac0, v->head, what);
		v->last_ns = 1;
	}
}

/* While a worker measures: the clock and the estimate move, once a second at least. */
static void on_tick(void *arg)
{
	struct view *v = arg;
	uint64_t now = ukb_now_ns();
	double part;
	char what[96];

	if (!v->progress || !v->head[0])
		return;
	part = v->proc_ns ? (double)(now - v->proc_t0) / (double)v->proc_ns : 0;
	snprintf(what, sizeof(what), "%zu paths%s", v->ncases, v->what);
	progress_line(v, v->frac0 + (v->frac1 - v->frac0) * (part < 1 ? part : 1), v->head, what);
	v->last_ns = 1;
}

static void on_progress(void *arg, const struct ukb_result *r)
{
	struct view *v = arg;
	uint64_t now = ukb_now_ns();

	if (!v->progress || now - v->last_ns < 100000000ull)
		return;
	v->last_ns = now;
	{
		char head[64], what[256];
		double part = v->per_case_s > 0 ? r->measure_s / v->per_case_s : 0;

		snprintf(head, sizeof(head), "%zu/%zu paths", v->done, v->ncases);
		snprintf(what, sizeof(what), "%s/%s, %zu samples", r->name, r->path->name,
			 r->nsamples);
		progress_line(
		    v,
		    v->ncases ? ((double)v->done + (part < 1 ? part : 1)) / (double)v->ncases : 0,
		    head, what);
	}
}

/*
 * The plan one process of several gets: its share of the budget, measured
 * whole (no early stop, so no lucky stretch ends it), and of the warm-up.
 */
static struct run_plan process_plan(const struct run_plan *p, int min_given)
{
	struct run_plan q = *p;

	if (p->procs == 0) {
		plan_choose_processes(&q, min_given);
		return q;
	}
	if (p->procs < 2)
		return q;
	q.m.budget_s = p->m.budget_s / p->procs;
	q.m.min_time_s = q.m.budget_s;
	q.m.warmup_s = p->m.warmup_s / p->procs > 0.005 ? p->m.warmup_s / p->procs : 0.005;
	return q;
}

/* Runs the plan through every ABI asked for; 0, or -1 (printed). */
static int measure(struct run_opts *ro, struct rec_run *run, struct view *v)
{
	static const char *const self_argv[] = { "ukbench", "worker" };
	static const char *const abi32_argv[] = { "ukbench-abi32" };
	const struct worker self = { "/proc/self/exe", self_argv, 2, "", NULL };
	const struct worker abi32 = { ro->helper, abi32_argv, 1, "@32",
				      "through the 32-bit ABI (ukbench-abi32)" };
	struct run_ctl ctl = { &stop_signal, on_result, on_progress, on_begin, v, on_tick };
	struct run_plan each = process_plan(&ro->plan, ro->min_given);
	char err[1024];
	int rc = 0;

	if ((ro->abi & 1) && ro->plan.procs == 1) {
		rc = run_inproc(&ro->plan, run, &ctl);
		if (rc < 0)
			error("cannot measure: %s", strerror(-rc));
	} else if (ro->abi & 1) {
		v->what = " (fresh processes)";
		rc = run_procs(&each, &self, run, &ctl, err, sizeof(err));
		if (rc < 0)
			error("%s", err);
	}
	if (rc >= 0 && (ro->abi & 2) && !stop_signal) {
		v->what = " (32-bit ABI)";
		rc = run_procs(&each, &abi32, run, &ctl, err, sizeof(err));
		if (rc < 0)
			error("through the 32-bit ABI: %s", err);
	}
	if (v->progress && v->last_ns)
		progress_clear();
	return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Reporting and storing                                                */

/*
 * Compares @run with the baseline, as `compare --fail-on-regression`
 * does, and fills @verdicts (per result, NULL or a message in @msg) with
 * the paths that regressed beyond the limit. Returns the exit status
 * automation gets: 0, 1 (regressed) or 125 (cannot tell at the limit).
 */
static int check_baseline(const struct run_opts *ro, const struct rec_run *base, const char *desc,
			  const struct rec_run *run, char (*msg)[512], const char **verdicts)
{
	struct cmp_opts o = cmp_defaults();
	struct cmp_row *rows;
	size_t n;
	int status;

	o.limit = ro->fail_pct / 100;
	if (ro->fail_pct < 0)
		return 0;
	compare_runs(base, run, &o, &rows, &n);
	if (!rows) {
		error("out of memory comparing with the baseline");
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		size_t k = r->b ? (size_t)(r->b - run->results) : run->nresults;

		if (!r->ok || k >= run->nresults)
			continue;
		if (r->outcome == CMP_CANNOT_TELL)
			warning(
			    "%s/%s: %+.2f%% against %s (95%% CI %+.2f%%..%+.2f%%) cannot be told "
			    "from noise at %g%%",
			    r->b->name, r->b->path, 100 * r->c.change, desc, 100 * r->c.ci_lo,
			    100 * r->c.ci_hi, ro->fail_pct);
		if (r->outcome != CMP_REGRESSED)
			continue;
		snprintf(msg[k], sizeof(msg[k]),
			 "regressed %+.2f%% against %s (95%% CI %+.2f%%..%+.2f%%, p %.2g), "
			 "limit %g%%",
			 100 * r->c.change, desc, 100 * r->c.ci_lo, 100 * r->c.ci_hi, r->c.p_welch,
			 ro->fail_pct);
		verdicts[k] = msg[k];
	}
	status = cmp_exit_status(rows, n);
	free(rows);
	return status;
}

/* The outputs other than the streamed table; 0, or -1 on a write error. */
static int report(const struct run_opts *ro, const struct rec_run *run, FILE *out, int table,
		  const struct view *v, const char *const *verdicts)
{
	int w = ro->wide;

	if (table) {
		table_footer(&v->table, run);
		table_scaling(&v->table, run);
		table_throughput(&v->table, run);
		if (ro->plan.sel.scan)
			cmp_scan_print(out, w, run, ro->plan.sel.scan);
		char state[768];

		if (!floor_state_note(run, state, sizeof(state)))
			state[0] = 0;
		run_notes_print(
		    out, w, run,
		    &(struct run_notes){ .procs = ro->plan.procs,
					 .quick = ro->quick,
					 .budget_s = ro->plan.m.budget_s,
					 .precision = ro->plan.m.precision,
					 .default_budget_s = plan_default_budget(ro->sel.n),
					 .store_read = v->st != NULL,
					 .from_learned = v->from_learned,
					 .from_prior = v->from_prior,
					 .prior = LEARN_PRIOR_FLOOR,
					 .at_speed = v->at_speed,
					 .early = v->early,
					 .state = state });
		lab_notes_print(out, w, run);
		return 0;
	}
	if (ro->quiet)
		return 0;
	if (ro->format == OUT_KTAP)
		return ktap_print(stdout, run, verdicts);
	return print_run(stdout, 0, run, ro->format, &ro->kcidb);
}

static int store_run(const struct run_opts *ro, struct store *st, const char *path,
		     struct rec_run *run, FILE *out, int table)
{
	int say;

	if (!st)
		return 0;
	if (run->interrupted) {
		if (table)
			fprintf(out, "not stored: the run was interrupted\n");
		return 0;
	}
	say = table || (!ro->quiet && ro->format == OUT_TABLE);
	return save_and_say(st, run, say ? out : NULL, path, !say);
}

/* The state of one `run`, released in one place. */
struct run_state {
	struct run_opts ro;
	struct store *st;
	struct rec_run run, base;
	struct outfile json;
	char dbpath[PATH_MAX], basedesc[256];
	const char **verdicts;
	char (*vmsg)[512];
};

/* Opens the store, loads the baseline, opens the JSON file; 0 or -1. */
static int prepare(struct run_state *s)
{
	struct run_opts *ro = &s->ro;
	struct store *bst;
	char err[1024];

	if (!ro->no_store &&
	    (store_default_path(ro->db, s->dbpath, sizeof(s->dbpath), err, sizeof(err)) ||
	     store_open(s->dbpath, &s->st, err, sizeof(err))))
		return error("%s", err);
	if (ro->baseline) {
		bst = s->st ? s->st : store_open_cli(ro->db, s->dbpath, sizeof(s->dbpath));
		if (!bst)
			return -1;
		err[0] = runref_load(bst, ro->baseline, RUNREF_BOOT, &s->base, s->basedesc,
				     sizeof(s->basedesc));
		if (bst != s->st)
			store_close(bst);
		if (err[0])
			return -1;
	}
	return outfile_open(&s->json, ro->json);
}

/* Where the floors come from: the store's repeated labels and calibrate. */
static void view_floors(struct view *v, struct run_state *s)
{
	v->st = s->st;
	v->precision = s->ro.plan.m.precision;
}

/* The plug-ins loaded, in the run's settings (settings.plugins); 0, or -1 on ENOMEM. */
static int settings_add_plugins(struct rec_run *run)
{
	char *list = plugin_describe();
	int ret;

	if (!list)
		return 0;
	ret = rec_settings_put(run, "plugins", list);
	free(list);
	return ret;
}

/* Starts the record: environment, settings, clock, vDSO; 0 or -1. */
static int begin_record(struct run_state *s)
{
	struct ukb_clock_info clk;
	struct ukb_env env;
	int err;

	ukb_env_capture(&env);
	err = ukb_clock_probe(&clk);
	if (err)
		return error("cannot read CLOCK_MONOTONIC_RAW: %s", strerror(-err));
	rec_run_begin(&s->run, &env, time(NULL), s->ro.label);
	if (describe_run(&s->run, &env, &s->ro.plan.m, s->ro.plan.procs, &clk) ||
	    settings_add_plugins(&s->run))
		return error("out of memory");
	return 0;
}

static void run_state_release(struct run_state *s)
{
	outfile_abort(&s->json);
	store_close(s->st);
	rec_run_release(&s->run);
	rec_run_release(&s->base);
	ukb_selection_release(&s->ro.sel);
	free(s->ro.sizes);
	free(s->ro.params);
	free(s->verdicts);
	free(s->vmsg);
}

/* The view the results stream into; whether the table is printed. */
static int view_init(struct view *v, const struct run_state *s)
{
	int table = !s->ro.quiet && s->ro.format == OUT_TABLE;

	/* the table goes where the machine-readable output does not */
	v->out = s->json.f == stdout ? stderr : stdout;
	v->progress = !s->ro.quiet && isatty(STDERR_FILENO);
	v->t0 = ukb_now_ns();
	v->ncases = s->ro.plan.ncases * (s->ro.abi == 3 ? 2 : 1);
	v->per_case_s = s->ro.plan.m.budget_s + s->ro.plan.m.warmup_s;
	return table;
}

/* The record begun, every path measured, the table streamed; 0 or -1. */
static int measure_step(struct run_state *s, struct view *v, int table)
{
	uint64_t t0;

	if (begin_record(s))
		return -1;
	if (table) {
		table_begin(&v->table, v->out, out_columns(v->out, s->ro.wide));
		table_header(&v->table, &s->run);
	} else {
		v->out = NULL;
	}
	view_floors(v, s);
	t0 = ukb_now_ns();
	if (measure(&s->ro, &s->run, v))
		return -1;
	s->run.duration_s = (double)(ukb_now_ns() - t0) / 1e9;
	s->run.interrupted = stop_signal != 0;
	return 0;
}

/*
 * What the run tells: each failure, the verdicts against the baseline, the
 * notes under the table or the machine's format, the profile, the JSON
 * file. 1 when something failed, else 0 with *@regress 125 when a path
 * cannot be told from noise at the limit; -1 out of memory.
 */
static int report_step(struct run_state *s, struct view *v, int table, int *regress)
{
	FILE *out = table ? v->out : stdout;
	int failed = 0;
	size_t len;
	char *text;

	for (size_t i = 0; i < s->run.nresults; i++) {
		const struct rec_result *r = &s->run.results[i];

		failed |= r->status == UKB_ERROR;
		/* without the table, a failure still says why */
		if (r->status == UKB_ERROR && !table)
			error("%s/%s failed: %s", r->name, r->path, r->reason);
	}
	s->verdicts = calloc(s->run.nresults + 1, sizeof(*s->verdicts));
	s->vmsg = calloc(s->run.nresults + 1, sizeof(*s->vmsg));
	if (!s->verdicts || !s->vmsg) {
		error("out of memory");
		return -1;
	}
	if (s->ro.baseline) {
		/* 1: regressed beyond the limit; 125: cannot be told from noise at it */
		int st =
		    check_baseline(&s->ro, &s->base, s->basedesc, &s->run, s->vmsg, s->verdicts);

		if (st == 1)
			failed = 1;
		else
			*regress = st;
	}
	if (report(&s->ro, &s->run, out, table, v, s->verdicts))
		failed = 1;
	if (s->ro.profile && !stop_signal &&
	    run_profiles(&s->ro.plan, s->ro.profile, s->ro.profile_s, &s->run,
			 s->ro.quiet ? NULL : (table ? v->out : stderr), &stop_signal)) {
		error("out of memory");
		failed = 1;
	}
	for (size_t i = 0; i < s->run.nresults; i++)
		if (s->verdicts[i])
			error("%s/%s %s", s->run.results[i].name, s->run.results[i].path,
			      s->verdicts[i]);
	text = s->json.f ? rec_to_json(&s->run, 1, &len) : NULL;
	if (s->json.f && outfile_commit(&s->json, text, len))
		failed = 1;
	free(text);
	return failed;
}

int cmd_run(int argc, char **argv)
{
	struct run_state s = { 0 };
	struct view v = { .what = "" };
	int ret = UKB_EXIT_USAGE, failed, regress = 0, table, rc;

	/* the options and the paths; the store, the baseline, the JSON file */
	rc = validate(&s.ro, argc, argv);
	/*
	 * A stop from here on ends the run as an interrupted one: caught
	 * before the JSON's temporary file exists, so that a signal never
	 * leaves it behind (nothing is measured once one has come).
	 */
	if (!rc)
		run_catch_stops(on_signal);
	if (rc || prepare(&s))
		goto out;
	ret = UKB_EXIT_FAIL;
	table = view_init(&v, &s);
	if (measure_step(&s, &v, table))
		goto out;
	failed = report_step(&s, &v, table, &regress);
	if (failed < 0)
		goto out;
	/* saved, and pushed when the store is a fleet's spool */
	if (store_run(&s.ro, s.st, s.dbpath, &s.run, table ? v.out : stderr, table))
		failed = 1;
	ret = failed ? UKB_EXIT_FAIL : regress;
	if (stop_signal) {
		error("interrupted by signal %d after %zu of %zu paths%s", (int)stop_signal,
		      s.run.nresults, s.ro.plan.ncases,
		      s.ro.json ? "; the JSON holds what was measured" : "");
		ret = 128 + (int)stop_signal;
	}
out:
	if (rc > 0)
		ret = UKB_EXIT_OK;
	run_state_release(&s);
	return ret;
}
