// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-run.c - `ukbench run`: measure the selected paths, print the table,
 * write the JSON.
 *
 * Everything that can be refused is refused before the first benchmark
 * runs: the patterns, the option values, the CPU, the JSON file (created
 * under a temporary name next to its destination and renamed into place
 * at the end, so an interrupted run never leaves half a file or clobbers
 * an older one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "cli.h"
#include "output.h"
#include "record.h"
#include "store.h"
#include "comparison.h"
#include "runref.h"
#include "run-procs.h"
#include "run-abi32.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const char run_usage[] =
    "usage: ukbench run [options] [PATTERN...]\n"
    "\n"
    "Measures each selected benchmark path and prints its mean cost per call\n"
    "with the 95% confidence interval, the median, calls/s and the sample count.\n"
    "Calls are timed in batches (CLOCK_MONOTONIC_RAW read outside the loop);\n"
    "batches are taken until the CI is within the precision target or the\n"
    "budget is spent. No pattern runs the default suite (about a minute at most).\n"
    "\n"
    "PATTERN is NAME or NAME/PATH: NAME a glob or a dotted prefix of a benchmark\n"
    "name, PATH a glob on the path (vdso, libc, syscall). See 'ukbench list'.\n"
    "\n"
    "options:\n"
    "  -p, --precision PCT    target half-width of the 95% CI, in % (default 1)\n"
    "  -b, --budget SEC       measuring time per path at most (default 1)\n"
    "  -w, --warmup SEC       warm-up per path, calibration included (default 0.05)\n"
    "  -n, --min-samples N    never fewer samples than this (default 10)\n"
    "      --max-samples N    never more samples than this (default 1000000)\n"
    "      --batch USEC       length of one timed batch (default: 1 ms, or 1000x\n"
    "                         the clock's resolution and read cost if longer)\n"
    "  -c, --cpu N            pin the measuring thread to CPU N\n"
    "  -j, --json FILE        write settings, environment and every sample as JSON\n"
    "                         ('-' for standard output; the table then goes to stderr)\n"
    "  -q, --quiet            print no table and no progress, only errors\n"
    "  -h, --help             this text\n"
    "\n"
    "exit status: 0 all measured or not available here, 1 a benchmark failed,\n"
    "2 bad usage (nothing was run), 130 interrupted.\n"
    "\n"
    "examples:\n"
    "  ukbench run                                  # the default suite\n"
    "  ukbench run time.gettimeofday                # all paths of one benchmark\n"
    "  ukbench run 'time.clock_gettime.*/vdso'      # every clock, vDSO path only\n"
    "  ukbench run -c 1 -p 0.5 -b 3 syscall.null    # pinned, tighter, longer\n"
    "  ukbench run --json before.json time          # keep every sample\n";

struct run_opts {
	struct ukb_measure_opts m;
	const char *json;
	const char *label;
	const char *db;
	enum out_format format;
	int quiet;
	int no_store;
	const char *baseline;
	double fail_pct; /* < 0: off */
	unsigned runs;
	struct select_opts sel;
	struct ukb_event events[UKB_MAX_COUNTERS];
	int abi; /* 1 << 0: native, 1 << 1: 32-bit */
};

static int parse_args(int argc, char **argv, struct run_opts *ro)
{
	static const struct option longopts[] = {
		{ "precision", required_argument, NULL, 'p' },
		{ "budget", required_argument, NULL, 'b' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "min-samples", required_argument, NULL, 'n' },
		{ "max-samples", required_argument, NULL, 'M' },
		{ "batch", required_argument, NULL, 'B' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "json", required_argument, NULL, 'j' },
		{ "label", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'D' },
		{ "no-store", no_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "baseline", required_argument, NULL, 'L' },
		{ "runs", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' },
		{ "flags", required_argument, NULL, 'g' },
		{ "threads", required_argument, NULL, 't' },
		{ "param", required_argument, NULL, 'P' },
		{ "counters", no_argument, NULL, 'C' },
		{ "events", required_argument, NULL, 'e' },
		{ "abi", required_argument, NULL, 'a' },
		{ "fail-on-regression", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long u;
	double d;
	int c;

	ukb_measure_opts_init(&ro->m);
	ro->fail_pct = -1;
	ro->abi = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:b:w:n:c:j:l:f:r:P:e:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_double("--precision", optarg, 0.001, 100, &d))
				return -1;
			ro->m.precision = d / 100;
			break;
		case 'b':
			if (parse_double("--budget", optarg, 0.001, 86400, &ro->m.budget_s))
				return -1;
			break;
		case 'w':
			if (parse_double("--warmup", optarg, 0, 3600, &ro->m.warmup_s))
				return -1;
			break;
		case 'n':
			if (parse_uint("--min-samples", optarg, 2, 10000000, &u))
				return -1;
			ro->m.min_samples = (unsigned)u;
			break;
		case 'M':
			if (parse_uint("--max-samples", optarg, 2, 100000000, &u))
				return -1;
			ro->m.max_samples = (unsigned)u;
			break;
		case 'B':
			if (parse_double("--batch", optarg, 1, 60e6, &d))
				return -1;
			ro->m.batch_ns = d * 1000;
			break;
		case 'c':
			if (parse_uint("--cpu", optarg, 0, 65535, &u))
				return -1;
			ro->m.cpu = (unsigned)u;
			break;
		case 'j':
			ro->json = optarg;
			break;
		case 'l':
			ro->label = optarg;
			break;
		case 'D':
			ro->db = optarg;
			break;
		case 'S':
			ro->no_store = 1;
			break;
		case 'f':
			if (parse_format(optarg, &ro->format)) {
				error("unknown format '%s': use table, json, csv, ktap or gbench",
				      optarg);
				return -1;
			}
			break;
		case 'L':
			ro->baseline = optarg;
			break;
		case 'r':
			if (parse_uint("--runs", optarg, 1, 1000, &u))
				return -1;
			ro->runs = (unsigned)u;
			break;
		case 's':
			free((void *)ro->sel.sizes);
			if (parse_size_list("--size", optarg, (long **)&ro->sel.sizes))
				return -1;
			break;
		case 'g':
			ro->sel.flags = optarg;
			break;
		case 'P':
			ro->sel.params = optarg;
			break;
		case 'a':
			if (!strcmp(optarg, "64"))
				ro->abi = 1;
			else if (!strcmp(optarg, "32"))
				ro->abi = 2;
			else if (!strcmp(optarg, "both"))
				ro->abi = 3;
			else {
				error("--abi takes 64, 32 or both, got '%s'", optarg);
				return -1;
			}
			break;
		case 'C':
			ro->m.nevents = (unsigned)ukb_events_default(ro->events, UKB_MAX_COUNTERS);
			ro->m.events = ro->events;
			break;
		case 'e': {
			char why[256], known[1024];
			int n = ukb_events_parse(optarg, ro->events, UKB_MAX_COUNTERS, why,
						 sizeof(why));

			if (n < 0) {
				ukb_events_known(known, sizeof(known));
				error("%s; known events: %s", why, known);
				return -1;
			}
			ro->m.nevents = (unsigned)n;
			ro->m.events = ro->events;
			break;
		}
		case 't':
			if (parse_uint("--threads", optarg, 1, 4096, &u))
				return -1;
			ro->sel.threads = (unsigned)u;
			break;
		case 'F':
			if (parse_double("--fail-on-regression", optarg, 0, 1000, &ro->fail_pct))
				return -1;
			break;
		case 'q':
			ro->quiet = 1;
			break;
		case 'h':
			fputs(run_usage, stdout);
			exit(UKB_EXIT_OK);
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			error("unknown option '%s'; see 'ukbench run --help'", argv[optind - 1]);
			return -1;
		}
	}
	if (ro->fail_pct >= 0 && !ro->baseline) {
		error("--fail-on-regression needs --baseline RUN to compare with");
		return -1;
	}
	if (ro->m.min_samples > ro->m.max_samples) {
		error("--min-samples %u is above --max-samples %u", ro->m.min_samples,
		      ro->m.max_samples);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* JSON destination                                                    */

struct json_dest {
	const char *path;
	char tmp[4096];
	FILE *f;
};

static int json_open(struct json_dest *d, const char *path)
{
	int fd;

	d->path = path;
	d->f = NULL;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		d->f = stdout;
		return 0;
	}
	if (snprintf(d->tmp, sizeof(d->tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(d->tmp)) {
		error("--json path is too long");
		return -1;
	}
	fd = mkstemp(d->tmp);
	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	d->f = fdopen(fd, "w");
	if (!d->f) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(d->tmp);
		return -1;
	}
	return 0;
}

static int json_close(struct json_dest *d, const struct rec_run *run)
{
	struct json_object *doc;
	int err;

	if (!d->f)
		return 0;
	doc = rec_to_json(run);
	err = json_print(d->f, doc) ? -EIO : 0;
	json_object_put(doc);
	if (d->f == stdout)
		return fflush(stdout) || err ? -1 : 0;
	if (fclose(d->f))
		err = -errno;
	if (!err && rename(d->tmp, d->path))
		err = -errno;
	if (err) {
		error("cannot write '%s': %s", d->path, strerror(-err));
		unlink(d->tmp);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */

struct progress {
	int on;
	size_t index, total;
	uint64_t last_ns;
};

static void progress_cb(void *arg, const struct ukb_result *r)
{
	struct progress *p = arg;
	uint64_t now = ukb_now_ns();

	if (now - p->last_ns < 100000000ull)
		return;
	p->last_ns = now;
	fprintf(stderr, "\r\033[K[%zu/%zu] %s/%s: %zu samples, %.1f s", p->index + 1, p->total,
		r->name, r->path->name, r->nsamples, r->measure_s);
}

static void progress_clear(struct progress *p)
{
	if (p->on && p->last_ns) {
		fputs("\r\033[K", stderr);
		p->last_ns = 0;
	}
}

/* ------------------------------------------------------------------ */

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Opens the store unless told not to; refuses a bad database up front. */
static int open_store(const struct run_opts *ro, struct store **st, char *path, size_t len)
{
	char err[1024];

	*st = NULL;
	if (ro->no_store)
		return 0;
	if (store_default_path(ro->db, path, len, err, sizeof(err)) ||
	    store_open(path, st, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	return 0;
}

static int store_run(struct store *st, const char *path, struct rec_run *run, int quiet, FILE *out)
{
	char err[1024];

	if (!st)
		return 0;
	if (run->interrupted) {
		if (!quiet)
			fprintf(out, "not stored: the run was interrupted\n");
		return 0;
	}
	if (store_save(st, run, err, sizeof(err))) {
		error("%s", err);
		return -1;
	}
	if (!quiet)
		fprintf(out, "stored as run #%lld%s%s%s in %s\n", (long long)run->id,
			run->label[0] ? " '" : "", run->label, run->label[0] ? "'" : "", path);
	return 0;
}

/*
 * Compares @run with @base and fills @verdicts (per result, NULL or a
 * message) with the paths that regressed beyond @fail_pct. Returns their
 * number.
 */
static size_t check_baseline(const struct rec_run *base, const char *desc,
			     const struct rec_run *run, double fail_pct, char (*msg)[512],
			     const char **verdicts)
{
	struct cmp_opts o = { .test = CMP_WELCH, .alpha = 0.05, .threshold = 0.01 };
	struct cmp_row *rows;
	size_t n, bad = 0;

	compare_runs(base, run, &o, &rows, &n);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];

		if (!r->ok || r->verdict != UKB_REGRESSED || 100 * r->c.change <= fail_pct)
			continue;
		for (size_t k = 0; k < run->nresults; k++) {
			if (&run->results[k] != r->b)
				continue;
			snprintf(msg[k], sizeof(msg[k]),
				 "regressed %+.2f%% against %s (95%% CI %+.2f%%..%+.2f%%, p %.2g), "
				 "limit %g%%",
				 100 * r->c.change, desc, 100 * r->c.ci_lo, 100 * r->c.ci_hi, r->p,
				 fail_pct);
			verdicts[k] = msg[k];
			bad++;
		}
	}
	free(rows);
	return bad;
}

#define MAX_PARAMS 16

/*
 * Resolves -P for every case and runs each benchmark's own check of its
 * parameters (descriptors, tasks), before anything runs. @vals gets
 * MAX_PARAMS values per case. 0, or -1 with the error printed.
 */
static int resolve_params(const struct run_opts *ro, const struct ukb_case *cases, size_t n,
			  long *vals)
{
	char why[512];

	/* every -P name must belong to some selected benchmark */
	for (const char *p = ro->sel.params; p && *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");
		int known = 0;

		for (size_t i = 0; i < n && !known; i++)
			for (const struct ukb_param *q = cases[i].bench->params; q && q->name; q++)
				known |= strlen(q->name) == klen && !strncmp(q->name, p, klen);
		if (!known) {
			error("no selected benchmark has a parameter '%.*s'", (int)klen, p);
			return -1;
		}
		p += len + (p[len] == ',');
	}
	for (size_t i = 0; i < n; i++) {
		long *v = &vals[i * MAX_PARAMS];

		if (params_resolve(cases[i].bench, ro->sel.params, 0, v))
			return -1;
		if (ukb_validate(cases[i].bench, cases[i].variant, cases[i].path, v, why,
				 sizeof(why))) {
			error("%s: %s", cases[i].name, why);
			return -1;
		}
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts ro = { 0 };
	struct ukb_case *cases = NULL;
	struct ukb_clock_info clk;
	struct ukb_env env;
	struct json_dest jd = { 0 };
	struct progress prog = { 0 };
	struct rec_run run = { 0 };
	struct store *st = NULL;
	long *pvals = NULL;
	struct rec_run base = { 0 };
	const char **verdicts = NULL;
	char(*vmsg)[512] = NULL;
	char dbpath[4096], basedesc[256];
	size_t regressed = 0;
	size_t ncases = 0;
	uint64_t t0;
	FILE *out;
	int ret = UKB_EXIT_USAGE, err, failed = 0, table;

	if (parse_args(argc, argv, &ro) ||
	    select_cases(argc - optind, argv + optind, 1, &ro.sel, &cases, &ncases)) {
		free((void *)ro.sel.sizes);
		return UKB_EXIT_USAGE;
	}
	pvals = calloc(ncases * MAX_PARAMS + 1, sizeof(*pvals));
	if (!pvals || resolve_params(&ro, cases, ncases, pvals))
		goto out;
	if (ro.m.cpu != UKB_CPU_ANY) {
		err = ukb_pin_cpu(ro.m.cpu);
		if (err) {
			error("cannot pin to CPU %u: %s (%ld CPUs online)", ro.m.cpu,
			      strerror(-err), sysconf(_SC_NPROCESSORS_ONLN));
			goto out;
		}
	}
	if (ro.json && !strcmp(ro.json, "-") && ro.format != OUT_TABLE) {
		error("--json - and --format both want standard output");
		goto out;
	}
	if (ro.abi & 2) {
		char helper[4096];

		if (abi32_helper(helper, sizeof(helper))) {
			error("--abi %s needs the 32-bit helper '%s', which was not built: "
			      "this machine's compiler cannot build i386 code (install "
			      "gcc-i686-linux-gnu and libc6-dev-i386-cross, then rebuild)",
			      ro.abi == 2 ? "32" : "both", helper);
			goto out;
		}
		if (ro.runs > 1) {
			error("--abi 32 and --runs cannot be combined yet");
			goto out;
		}
	}
	if (open_store(&ro, &st, dbpath, sizeof(dbpath)))
		goto out;
	if (ro.baseline) {
		struct store *bst = st;

		if (!bst && !(bst = store_open_cli(ro.db, dbpath, sizeof(dbpath))))
			goto out;
		err = runref_load(bst, ro.baseline, 0, &base, basedesc, sizeof(basedesc));
		if (bst != st)
			store_close(bst);
		if (err)
			goto out;
	}
	if (json_open(&jd, ro.json))
		goto out;

	/* the table goes where the machine-readable output does not */
	out = jd.f == stdout ? stderr : stdout;
	table = !ro.quiet && ro.format == OUT_TABLE;
	prog.on = !ro.quiet && isatty(STDERR_FILENO);
	prog.total = ncases;
	ro.m.stop = &stop_signal;
	ro.m.progress = prog.on ? progress_cb : NULL;
	ro.m.progress_arg = &prog;
	install_signals();

	ukb_env_capture(&env);
	err = ukb_clock_probe(&clk);
	if (err) {
		error("cannot read CLOCK_MONOTONIC_RAW: %s", strerror(-err));
		ret = UKB_EXIT_FAIL;
		goto out;
	}
	rec_run_begin(&run, json_env(&env), json_settings(&ro.m), json_clock(&clk), json_vdso(),
		      time(NULL), ro.label);
	if (table) {
		table_header(out, &run);
		fflush(out);
	}

	t0 = ukb_now_ns();
	if (ro.runs > 1) {
		if (run_in_processes(&ro.m, &ro.sel, argv + optind, argc - optind, ro.runs, &run,
				     &stop_signal, prog.on)) {
			ret = UKB_EXIT_FAIL;
			goto out;
		}
		for (size_t i = 0; i < run.nresults; i++) {
			failed |= run.results[i].status == UKB_ERROR;
			if (table)
				table_row(out, &run.results[i],
					  i == 0 ||
					      strcmp(run.results[i].name, run.results[i - 1].name));
		}
	}
	for (size_t i = 0; (ro.abi & 1) && ro.runs <= 1 && i < ncases && !stop_signal; i++) {
		struct ukb_result res;
		struct rec_result *r;

		prog.index = i;
		ro.m.params = &pvals[i * MAX_PARAMS];
		err =
		    ukb_measure(cases[i].bench, cases[i].variant, cases[i].path, &ro.m, &clk, &res);
		r = err ? NULL : rec_add_measured(&run, &res);
		if (r)
			params_describe(cases[i].bench, ro.m.params, r->params, sizeof(r->params));
		ukb_result_release(&res);
		if (!r) {
			error("cannot measure '%s/%s': out of memory", cases[i].name,
			      cases[i].path->name);
			ret = UKB_EXIT_FAIL;
			goto out;
		}
		progress_clear(&prog);
		if (r->status == UKB_ERROR)
			failed = 1;
		if (table) {
			table_row(out, r, i == 0 || strcmp(cases[i].name, cases[i - 1].name));
			fflush(out);
		}
	}
	if ((ro.abi & 2) && !stop_signal) {
		size_t first = run.nresults;

		err = run_abi32(&ro.m, cases, ncases, &run);
		if (err && err != -ECHILD) {
			error("cannot measure through the 32-bit ABI: %s", strerror(-err));
			ret = UKB_EXIT_FAIL;
			goto out;
		}
		if (err == -ECHILD && !stop_signal)
			failed = 1;
		for (size_t i = first; i < run.nresults; i++) {
			failed |= run.results[i].status == UKB_ERROR;
			if (table)
				table_row(out, &run.results[i],
					  i == first ||
					      strcmp(run.results[i].name, run.results[i - 1].name));
		}
	}
	run.duration_s = (double)(ukb_now_ns() - t0) / 1e9;
	run.interrupted = stop_signal != 0;
	if (ro.baseline) {
		verdicts = calloc(run.nresults + 1, sizeof(*verdicts));
		vmsg = calloc(run.nresults + 1, sizeof(*vmsg));
		if (verdicts && vmsg && ro.fail_pct >= 0)
			regressed =
			    check_baseline(&base, basedesc, &run, ro.fail_pct, vmsg, verdicts);
	}
	if (table) {
		table_footer(out, &run);
		table_scaling(out, &run);
		table_throughput(out, &run);
		if (ro.runs > 1)
			fprintf(out,
				"each figure pools %u fresh processes; ±CI95 is over their means\n",
				ro.runs);
	} else if (!ro.quiet && ro.format == OUT_KTAP && ktap_print(stdout, &run, verdicts))
		failed = 1;
	else if (!ro.quiet && ro.format != OUT_KTAP && print_run(stdout, &run, ro.format))
		failed = 1;
	for (size_t i = 0; verdicts && i < run.nresults; i++)
		if (verdicts[i])
			error("%s/%s %s", run.results[i].name, run.results[i].path, verdicts[i]);
	if (regressed)
		failed = 1;

	ret = failed ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	if (json_close(&jd, &run))
		ret = UKB_EXIT_FAIL;
	jd.f = NULL;
	if (store_run(st, dbpath, &run, !table, out))
		ret = UKB_EXIT_FAIL;
	if (stop_signal) {
		error("interrupted by signal %d after %zu of %zu paths%s", (int)stop_signal,
		      run.nresults, ncases, ro.json ? "; the JSON holds what was measured" : "");
		ret = 128 + (int)stop_signal;
	}
out:
	if (jd.f && jd.f != stdout) {
		fclose(jd.f);
		unlink(jd.tmp);
	}
	store_close(st);
	rec_run_release(&run);
	rec_run_release(&base);
	free(verdicts);
	free(vmsg);
	free(cases);
	free(pvals);
	free((void *)ro.sel.sizes);
	return ret;
}
