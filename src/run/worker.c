// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * worker.c - the child's side of run_procs(): a plan in, the run JSON out.
 *
 * The same code runs in a fresh process of ukbench (`ukbench worker`) and
 * as the static 32-bit helper, so it needs nothing but libc. The cases
 * are made anew from the plan's options by the same selection code the
 * parent used, then taken in the plan's order by exact name and path; a
 * case this build cannot make is a row that says so.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "affinity.h"
#include "describe.h"
#include "runner.h"

static volatile sig_atomic_t worker_stop;

static void on_signal(int sig)
{
	worker_stop = sig;
}

static const struct ukb_case *find_case(const struct ukb_selection *sel, const char *spec)
{
	const char *slash = strrchr(spec, '/');

	for (size_t i = 0; slash && i < sel->n; i++) {
		const struct ukb_case *c = &sel->cases[i];

		if (strlen(c->name) == (size_t)(slash - spec) &&
		    !strncmp(c->name, spec, (size_t)(slash - spec)) &&
		    !strcmp(c->path->name, slash + 1))
			return c;
	}
	return NULL;
}

/*
 * A benchmark's code that crashes (a plug-in's run() through a NULL
 * pointer) or never returns (a loop in its setup) ends its own path, not
 * the process: the signal, or the SIGALRM of the path's time limit, is
 * caught while the measuring thread runs it, on a stack of its own, and
 * the path is a row that says which. What it held is left as it was.
 */
static sigjmp_buf *guard_jb;
static pid_t guard_tid;
static volatile sig_atomic_t guard_timing; /* the limit's alarm may end the path */
static const int guard_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM };
#define NGUARD (sizeof(guard_signals) / sizeof(guard_signals[0]))

static void guard_handler(int sig)
{
	int on_guard = guard_jb && (pid_t)syscall(SYS_gettid) == guard_tid;

	if (sig == SIGALRM) {
		if (!guard_timing)
			return; /* the path ended as the alarm rang */
		if (on_guard)
			siglongjmp(*guard_jb, sig);
		/* a thread of the benchmark's got it: the measuring one must */
		syscall(SYS_tgkill, getpid(), guard_tid, SIGALRM);
		return;
	}
	if (on_guard)
		siglongjmp(*guard_jb, sig);
	/* another thread, or outside a measurement: as if never caught */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The alarm of the time limit, @s seconds from now; 0: none. */
static void guard_alarm(double s)
{
	struct itimerval it = { { 0, 0 },
				{ (time_t)s, (suseconds_t)((s - (double)(time_t)s) * 1e6) } };

	if (s > 0 && !it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void guard_on(sigjmp_buf *jb, struct sigaction *old)
{
	static char altstack[1 << 16];
	struct sigaction sa;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = guard_handler;
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	guard_tid = (pid_t)syscall(SYS_gettid);
	guard_jb = jb;
	for (size_t i = 0; i < NGUARD; i++)
		sigaction(guard_signals[i], &sa, &old[i]);
}

static void guard_off(const struct sigaction *old)
{
	guard_jb = NULL;
	for (size_t i = 0; i < NGUARD; i++)
		sigaction(guard_signals[i], &old[i], NULL);
}

/* The row of a case whose code was killed by @sig, ran past @limit_s (SIGALRM) or exited (0). */
static int add_crashed(struct rec_run *run, const struct ukb_case *c, int sig, double limit_s)
{
	struct rec_result *r = rec_add_result(run);

	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", c->name);
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", c->bench->name);
	snprintf(r->path, sizeof(r->path), "%s", c->path->name);
	snprintf(r->unit, sizeof(r->unit), "%s", c->bench->unit ? c->bench->unit : "call");
	r->status = UKB_ERROR;
	if (!sig)
		snprintf(r->reason, sizeof(r->reason),
			 "the benchmark's code called exit(): its process ended in it; the paths "
			 "it had not reached are left to the other processes");
	else if (sig == SIGALRM)
		snprintf(r->reason, sizeof(r->reason),
			 "not done within its time limit of %.3g s (--timeout): its setup or a "
			 "batch did not return; the other paths are measured",
			 limit_s);
	else
		snprintf(r->reason, sizeof(r->reason),
			 "killed by signal %d (%s) in the benchmark's code; the other paths are "
			 "measured",
			 sig, strsignal(sig));
	return 0;
}

/*
 * A benchmark's code that calls exit() (a plug-in's) ends the process
 * in the middle of a path. In a worker, the answer is then written with
 * what was measured and the path's row saying so, and the process ends
 * as if it had answered; in ukbench's own process (--processes 1), the
 * run cannot go on and says why, instead of ending quietly with 0.
 */
static const struct ukb_case *exit_case; /* measured now */
static struct rec_run *exit_run;	 /* the run being measured */
static int exit_answer = -1;		 /* a worker's answer; -1: ukbench itself */
static pid_t exit_pid;			 /* the process measuring exit_case */

static void on_exit_in_case(void)
{
	const struct ukb_case *c = exit_case;

	/* a child the benchmark's code forked ends as it asked, answering nothing */
	if (!c || getpid() != exit_pid)
		return;
	exit_case = NULL;
	guard_timing = 0;
	guard_alarm(0);
	if (exit_answer >= 0 && exit_run && !add_crashed(exit_run, c, 0, 0) &&
	    !rec_write_json(exit_answer, exit_run, 0))
		_exit(0);
	fflush(stdout);
	fprintf(stderr,
		"error: %s/%s: the benchmark's code called exit() while it was measured: the "
		"run ends here, nothing stored (with --processes 2 or more, only its path "
		"fails)\n",
		c->name, c->path->name);
	_exit(1);
}

int run_case(const struct ukb_case *c, struct ukb_measure_opts *m, const struct ukb_clock_info *clk,
	     struct rec_run *run)
{
	static int exit_hooked;
	static struct sigaction old[NGUARD]; /* kept across the jump back */
	struct ukb_result res;
	struct rec_result *r;
	sigjmp_buf jb;
	int err, sig;

	m->params = c->params;
	if (!exit_hooked)
		exit_hooked = !atexit(on_exit_in_case);
	sig = sigsetjmp(jb, 1);
	if (sig) {
		exit_case = NULL;
		guard_timing = 0;
		guard_alarm(0);
		guard_off(old);
		return add_crashed(run, c, sig, ukb_path_limit(m));
	}
	guard_on(&jb, old);
	exit_run = run;
	exit_pid = getpid();
	exit_case = c;
	guard_timing = 1;
	guard_alarm(ukb_path_limit(m));
	err = ukb_measure(c->bench, c->variant, c->path, m, clk, &res);
	exit_case = NULL;
	guard_timing = 0;
	guard_alarm(0);
	guard_off(old);
	r = err ? NULL : rec_add_measured(run, &res);
	if (r) {
		params_describe(c->bench, c->params, r->params, sizeof(r->params));
		/* the case's own name: a scanned one carries its value (-L) */
		snprintf(r->name, sizeof(r->name), "%s", c->name);
	} else if (!err)
		err = -ENOMEM;
	ukb_result_release(&res);
	return err;
}

static int add_missing(struct rec_run *run, const char *spec)
{
	const char *slash = strrchr(spec, '/');
	struct rec_result *r = rec_add_result(run);

	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%.*s", (int)(slash - spec), spec);
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", r->name);
	snprintf(r->path, sizeof(r->path), "%s", slash + 1);
	snprintf(r->unit, sizeof(r->unit), "call");
	r->status = UKB_UNSUPPORTED;
	snprintf(r->reason, sizeof(r->reason), "this build of ukbench (%d-bit) has no such case",
		 (int)(8 * sizeof(long)));
	return 0;
}

/*
 * Measures every spec of the plan into @run; 0 or -errno. Each is made
 * by its own selection (a NAME/PATH spec is a pattern that names exactly
 * it), so that one this build cannot make costs only its own row.
 */
/* @env: the machine's, recorded in the run (a guest's run is one of its own); or NULL */
static int measure_specs(struct run_plan *p, const char **specs, size_t nspecs, struct rec_run *run,
			 const struct ukb_env *env)
{
	struct ukb_clock_info clk;
	int err = ukb_clock_probe(&clk);

	if (!err && describe_run(run, env, &p->m, 1, &clk))
		err = -ENOMEM;
	for (size_t i = 0; i < nspecs && !err && !worker_stop; i++) {
		struct ukb_selection sel;
		const struct ukb_case *c = NULL;
		struct ukb_err e;
		char pat[256], *pp = pat;

		/* a scanned case is selected by its benchmark's name, found by its own */
		snprintf(pat, sizeof(pat), "%s", specs[i]);
		if (p->sel.scan) {
			const char *eq = strchr(p->sel.scan, '=');
			char key[80], *at, *slash;

			snprintf(key, sizeof(key), ".%.*s=", eq ? (int)(eq - p->sel.scan) : 0,
				 p->sel.scan);
			at = strstr(pat, key);
			slash = strrchr(pat, '/');
			if (at && slash && at < slash)
				memmove(at, slash, strlen(slash) + 1);
		}
		if (!ukb_select(&sel, 1, &pp, 0, &p->sel, 0, &e))
			c = find_case(&sel, specs[i]);
		if (!c) {
			ukb_selection_release(&sel);
			err = add_missing(run, specs[i]);
			continue;
		}
		err = run_case(c, &p->m, &clk, run);
		ukb_selection_release(&sel);
	}
	return err;
}

void run_catch_stops(void (*fn)(int sig))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * The specs in the order of one process, shuffled by its seed. Without
 * memory for that they stay in the plan's order: the order only spreads
 * drift over the paths, the figures are right either way.
 */
static void shuffle(const char **specs, size_t n, unsigned long seed)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	const char **copy = malloc((n ? n : 1) * sizeof(*copy));
	uint64_t state = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;

	if (!idx || !copy) {
		free(idx);
		free(copy);
		return;
	}
	memcpy(copy, specs, n * sizeof(*copy));
	ukb_shuffle(idx, n, &state);
	for (size_t i = 0; i < n; i++)
		specs[i] = copy[idx[i]];
	free(idx);
	free(copy);
}

int worker_main(int argc, char **argv)
{
	return worker_run(argc, argv, 0);
}

int worker_run(int argc, char **argv, int describe)
{
	struct run_plan p;
	struct rec_run run;
	struct ukb_env env;
	const char **specs = NULL;
	size_t nspecs;
	long *sizes = NULL;
	char err[512];
	int ret, answer;

	/*
	 * The answer on a descriptor of its own: what a benchmark's code
	 * prints (a plug-in's printf) goes to standard error, not into it.
	 */
	answer = dup(STDOUT_FILENO);
	if (answer < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		if (answer >= 0)
			close(answer);
		answer = STDOUT_FILENO;
	}
	exit_answer = answer;
	if (plan_parse(argc, argv, &p, &specs, &nspecs, &sizes, err, sizeof(err))) {
		fprintf(stderr, "ukbench worker: %s\n", err);
		free(specs);
		free(sizes);
		return 2;
	}
	run_catch_stops(on_signal);
	p.m.stop = &worker_stop;
	if (p.m.cpu != UKB_CPU_ANY && ukb_pin_cpu(p.m.cpu)) {
		fprintf(stderr, "ukbench worker: cannot pin to CPU %u\n", p.m.cpu);
		free(specs);
		free(sizes);
		return 2;
	}
	if (p.seed)
		shuffle(specs, nspecs, p.seed);
	/* a run of its own: the environment of this machine */
	if (describe)
		ukb_env_capture(&env);
	rec_run_begin(&run, describe ? &env : NULL, time(NULL), NULL);
	ret = measure_specs(&p, specs, nspecs, &run, describe ? &env : NULL);
	run.interrupted = worker_stop != 0;
	if (ret)
		fprintf(stderr, "ukbench worker: %s\n", strerror(-ret));
	else if (fflush(stdout), rec_write_json(answer, &run, 0))
		ret = -EIO;
	rec_run_release(&run);
	free(specs);
	free(sizes);
	if (worker_stop)
		return 128 + (int)worker_stop;
	return ret ? 1 : 0;
}
