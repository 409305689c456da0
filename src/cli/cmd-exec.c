// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-exec.c - `ukbench exec [-r N] [--] COMMAND [ARGS...]`: any command,
 * repeated, with wall, user and system time, peak memory, exit status and
 * perf counters, each with mean, stddev, 95% CI, min, median and max.
 *
 * Each run forks a child that waits until the parent has opened the
 * counters on it (enabled at exec, inherited by everything it starts),
 * then executes the command. The wall time runs from that release to the
 * child's exit, observed through a pidfd so the wait adds nothing. The
 * counters are read once the child and its descendants have exited and
 * folded their counts in. Runs are stored and compared like benchmarks:
 * one result "exec.<command>", path "wall", one sample per run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "counters.h"
#include "describe.h"
#include "json-write.h"
#include "options.h"
#include "outfile.h"
#include "output.h"
#include "record.h"
#include "runref.h"
#include "stats.h"
#include "store.h"

enum {
	O_REPEAT = 1,
	O_WARMUP,
	O_EVENTS,
	O_NO_COUNTERS,
	O_TIMEOUT,
	O_ALLOW,
	O_LABEL,
	O_DB,
	O_NO_STORE,
	O_JSON
};

static const struct opt exec_opts_table[] = {
	{ "repeat", 'r', "N", "measured runs (default 10)", O_REPEAT },
	{ "warmup-runs", 0, "N", "runs first, not measured (default 1)", O_WARMUP },
	{ "events", 'e', "LIST", "counters by perf's names instead of the default set", O_EVENTS },
	{ "no-counters", 0, NULL, "no perf counters", O_NO_COUNTERS },
	{ "timeout", 0, "SEC", "end a run that takes longer (SIGTERM, then SIGKILL)", O_TIMEOUT },
	{ "allow-failure", 0, NULL, "a non-zero exit status does not fail the run", O_ALLOW },
	{ "label", 'l', "NAME", "label the run in the store", O_LABEL },
	{ "db", 0, "PATH", "the results database", O_DB },
	{ "no-store", 0, NULL, "do not store the run", O_NO_STORE },
	{ "json", 'j', "FILE", "write the run as JSON ('-': standard output)", O_JSON },
	{ NULL },
};

const struct command cmd_exec_def = {
	.name = "exec",
	.fn = cmd_exec,
	.summary = "run any command N times: times, memory, counters, CIs",
	.synopsis = "[options] [--] COMMAND [ARGS...]",
	.about = "Runs COMMAND N times and reports, each with mean ± 95% CI, stddev, min,\n"
		 "median and max: wall, user and system time, peak memory (max RSS), and\n"
		 "perf counters (task-clock, context switches, migrations, page faults,\n"
		 "cycles, instructions, branches, branch-misses, cache-misses; kernel side\n"
		 "and child processes included). It reads like `perf stat -r N`, with one\n"
		 "difference: ukbench's '±' is the 95% confidence interval of the mean;\n"
		 "perf prints the standard error of the mean relative to the mean and\n"
		 "calls it noise. The stddev is shown beside it.",
	.opts = exec_opts_table,
	.footer =
	    "exit status: 0; 1 when a run exited non-zero (without --allow-failure) or\n"
	    "timed out; 2 for bad usage; 127 when the command cannot be started.\n"
	    "\n"
	    "examples:\n"
	    "  ukbench exec -r 10 -- hackbench -g 1          # as perf stat -r 10 ./hackbench 1\n"
	    "  ukbench exec -l v6.12 -r 20 -- ./tb\n"
	    "  ukbench compare v6.11 v6.12                   # exec runs compare like any other\n",
};

struct exec_opts {
	unsigned long repeat, warmup;
	double timeout_s;
	int allow_failure, no_store, counters;
	const char *label, *db, *json;
	struct ukb_event ev[UKB_MAX_COUNTERS];
	unsigned nev;
};

/* What one run of the command gave. */
struct one_run {
	double wall_ns, user_ns, sys_ns, maxrss_kb;
	int status; /* as from waitpid */
	int timed_out;
	int exec_errno; /* the command could not be started */
	struct ukb_reading rd[UKB_MAX_COUNTERS];
	struct ukb_counters ctr;
};

/* The running command's process group, for signals to reach all of it. */
static volatile pid_t child_group;
static volatile sig_atomic_t stop_signal;

static void forward(int sig)
{
	stop_signal = sig;
	if (child_group > 0)
		kill(-child_group, sig);
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Waits for @pid up to @timeout_s (0: forever); 1 on exit, 0 on timeout. */
static int wait_exit(pid_t pid, double timeout_s)
{
	int pfd = pidfd_open_(pid), ret = 1;
	struct pollfd p = { .fd = pfd, .events = POLLIN };

	if (pfd < 0) {
		/* no pidfd: poll the child every millisecond */
		uint64_t end = ukb_now_ns() + (uint64_t)(timeout_s * 1e9);
		siginfo_t si;

		for (;;) {
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid)
				return 1;
			if (timeout_s > 0 && ukb_now_ns() > end)
				return 0;
			usleep(1000);
		}
	}
	while (poll(&p, 1, timeout_s > 0 ? (int)(timeout_s * 1000) : -1) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLIN))
		ret = 0;
	close(pfd);
	return ret;
}

static void run_once(const struct exec_opts *o, char **cmd, struct one_run *r)
{
	int go[2], fail[2], err = 0;
	struct rusage ru;
	uint64_t t0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(go, O_CLOEXEC) || pipe2(fail, O_CLOEXEC)) {
		r->exec_errno = errno;
		return;
	}
	pid = fork();
	if (pid < 0) {
		r->exec_errno = errno;
		close(go[0]);
		close(go[1]);
		close(fail[0]);
		close(fail[1]);
		return;
	}
	if (pid == 0) {
		char c;

		/* its own group: a timeout or Ctrl-C ends its descendants too */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(go[1]);
		close(fail[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		err = errno;
		if (write(fail[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(fail[1]);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	child_group = pid;
	if (o->nev)
		ukb_counters_open(&r->ctr, o->ev, o->nev, pid, 1, 1);
	t0 = ukb_now_ns();
	if (write(go[1], "g", 1) != 1)
		r->exec_errno = errno;
	close(go[1]);
	if (!wait_exit(pid, o->timeout_s)) {
		r->timed_out = 1;
		kill(-pid, SIGTERM);
		if (!wait_exit(pid, 1.0))
			kill(-pid, SIGKILL);
	}
	while (wait4(pid, &r->status, 0, &ru) < 0 && errno == EINTR)
		;
	/* whatever the command left running in its group goes with it */
	kill(-pid, SIGKILL);
	child_group = 0;
	r->wall_ns = (double)(ukb_now_ns() - t0);
	if (read(fail[0], &err, sizeof(err)) == (ssize_t)sizeof(err))
		r->exec_errno = err;
	close(fail[0]);
	r->user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
	r->sys_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
	r->maxrss_kb = (double)ru.ru_maxrss;
	if (o->nev) {
		ukb_counters_read(&r->ctr, r->rd);
		ukb_counters_close(&r->ctr);
	}
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

static void print_metric(const char *name, const double *x, size_t n, const char *unit,
			 double scale)
{
	struct ukb_stats st;
	char ci[32];

	if (ukb_stats_compute(x, n, &st))
		return;
	if (isfinite(st.ci95_rel))
		snprintf(ci, sizeof(ci), "± %5.2f%%", 100 * st.ci95_rel);
	else
		snprintf(ci, sizeof(ci), "%8s", "");
	printf("  %-18s %14.3f %-4s %s   (stddev %.3f, min %.3f, median %.3f, max %.3f)\n", name,
	       st.mean / scale, unit, ci, isfinite(st.stddev) ? st.stddev / scale : 0,
	       st.min / scale, st.median / scale, st.max / scale);
}

static struct rec_counter *add_metric(struct rec_result *res, const char *name, const double *x,
				      size_t n)
{
	struct rec_counter *c = rec_add_counter(res);
	double total = 0;

	if (!c)
		return NULL;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->status, sizeof(c->status), "ok");
	c->per_sample = malloc(n * sizeof(double));
	if (!c->per_sample)
		return NULL;
	for (size_t i = 0; i < n; i++)
		total += c->per_sample[i] = x[i];
	c->n = n;
	c->total = total;
	c->per_call = total / (double)n;
	return c;
}

static void command_line(char **cmd, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; cmd[i] && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", cmd[i]);
}

/* What `exec` ran, kept with the run as its settings (JSON text). */
static char *exec_settings(const struct exec_opts *o, const char *cmdline)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "command", cmdline);
	jw_uint(&w, "repeat", o->repeat);
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct exec_opts *o = ctx;
	char why[256], known[1024];
	int n;

	switch (id) {
	case O_REPEAT:
		return parse_uint("--repeat", arg, 1, 1000000, &o->repeat);
	case O_WARMUP:
		return parse_uint("--warmup-runs", arg, 0, 1000000, &o->warmup);
	case O_EVENTS:
		n = ukb_events_parse(arg, o->ev, UKB_MAX_COUNTERS, why, sizeof(why));
		if (n < 0) {
			ukb_events_known(known, sizeof(known));
			error("%s; known events: %s", why, known);
			return -1;
		}
		o->nev = (unsigned)n;
		return 0;
	case O_NO_COUNTERS:
		o->counters = 0;
		return 0;
	case O_TIMEOUT:
		return parse_double("--timeout", arg, 0.001, 1e6, &o->timeout_s);
	case O_ALLOW:
		o->allow_failure = 1;
		return 0;
	case O_LABEL:
		o->label = arg;
		return 0;
	case O_DB:
		o->db = arg;
		return 0;
	case O_NO_STORE:
		o->no_store = 1;
		return 0;
	case O_JSON:
		o->json = arg;
		return 0;
	}
	return -1;
}

/* 0, 1 after --help, -1 on bad usage; *@first is the command. */
static int parse(int argc, char **argv, struct exec_opts *o, int *first)
{
	int rc;

	o->repeat = 10;
	o->warmup = 1;
	o->counters = 1;
	/* posix: options end at the command */
	rc = opts_parse(&cmd_exec_def, argc, argv, 1, set_option, o, first);
	if (rc)
		return rc;
	if (*first >= argc) {
		error("'ukbench exec' needs a command; see 'ukbench exec --help'");
		return -1;
	}
	if (!o->counters)
		o->nev = 0;
	else if (!o->nev)
		o->nev = (unsigned)ukb_events_default(o->ev, UKB_MAX_COUNTERS);
	return 0;
}

int cmd_exec(int argc, char **argv)
{
	struct exec_opts o = { 0 };
	struct one_run *runs = NULL, first = { 0 };
	double *x = NULL;
	struct rec_run rec = { 0 };
	struct rec_result *res;
	struct ukb_env env;
	struct store *st = NULL;
	char cmdline[1024], name[120], path[4096], err[1024], *base;
	char **cmd;
	size_t failed = 0, timed_out = 0;
	int ret, at;

	ret = parse(argc, argv, &o, &at);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	ret = UKB_EXIT_USAGE;
	cmd = argv + at;
	command_line(cmd, cmdline, sizeof(cmdline));
	if (!o.no_store && !(st = store_open_cli(o.db, path, sizeof(path))))
		return UKB_EXIT_USAGE;
	runs = calloc(o.repeat, sizeof(*runs));
	x = calloc(o.repeat, sizeof(*x));
	if (!runs || !x) {
		ret = UKB_EXIT_FAIL;
		goto out;
	}

	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = forward;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	for (unsigned long i = 0; i < o.warmup + o.repeat; i++) {
		struct one_run *r = i < o.warmup ? &first : &runs[i - o.warmup];

		run_once(&o, cmd, r);
		if (stop_signal) {
			error("interrupted by signal %d in run %lu of %lu; nothing stored",
			      (int)stop_signal, i + 1, o.warmup + o.repeat);
			ret = 128 + (int)stop_signal;
			goto out;
		}
		if (r->exec_errno) {
			error("cannot run '%s': %s", cmd[0], strerror(r->exec_errno));
			ret = 127;
			goto out;
		}
		if (r->timed_out) {
			error("run %lu of '%s' timed out after %g s and was ended", i + 1, cmdline,
			      o.timeout_s);
			timed_out++;
		} else if (!WIFEXITED(r->status) || WEXITSTATUS(r->status)) {
			if (WIFEXITED(r->status))
				fprintf(stderr, "%s: run %lu of '%s' exited with status %d\n",
					o.allow_failure ? "note" : "error", i + 1, cmdline,
					WEXITSTATUS(r->status));
			else
				fprintf(stderr, "%s: run %lu of '%s' was killed by signal %d\n",
					o.allow_failure ? "note" : "error", i + 1, cmdline,
					WTERMSIG(r->status));
			failed++;
		}
	}

	printf("ukbench exec: '%s', %lu runs (%lu warm-up)\n\n", cmdline, o.repeat, o.warmup);
#define METRIC(label, field, unit, scale)                                                          \
	do {                                                                                       \
		for (unsigned long i = 0; i < o.repeat; i++)                                       \
			x[i] = runs[i].field;                                                      \
		print_metric(label, x, o.repeat, unit, scale);                                     \
	} while (0)
	METRIC("wall", wall_ns, "ms", 1e6);
	METRIC("user", user_ns, "ms", 1e6);
	METRIC("sys", sys_ns, "ms", 1e6);
	METRIC("max RSS", maxrss_kb, "MiB", 1024);
#undef METRIC
	for (unsigned k = 0; k < o.nev; k++) {
		const struct ukb_counters *c0 = &runs[0].ctr;

		if (c0->status[k] != UKB_CTR_OK) {
			printf("  %-18s %s\n", c0->ev[k].name, c0->reason[k]);
			continue;
		}
		for (unsigned long i = 0; i < o.repeat; i++) {
			struct ukb_reading zero = { 0 };

			if (ukb_counter_delta(&zero, &runs[i].rd[k], &x[i]))
				x[i] = NAN;
		}
		if (!strcmp(c0->ev[k].name, "task-clock") || !strcmp(c0->ev[k].name, "cpu-clock"))
			print_metric(c0->ev[k].name, x, o.repeat, "ms", 1e6);
		else
			print_metric(c0->ev[k].name, x, o.repeat, "", 1);
	}
	printf("\n  ± is the 95%% confidence interval of the mean (Student t, %lu runs);\n"
	       "  perf stat's ± is the standard error of the mean relative to the mean.\n",
	       o.repeat);
	if (failed)
		printf("  %zu of %lu runs exited non-zero%s\n", failed, o.warmup + o.repeat,
		       o.allow_failure ? " (allowed)" : "");
	if (timed_out)
		printf("  %zu runs timed out after %g s\n", timed_out, o.timeout_s);

	/* the record: one result, one sample per run, the rest as counters */
	ukb_env_capture(&env);
	rec_run_begin(&rec, &env, time(NULL), o.label);
	if (describe_run(&rec, &env, NULL, 0, NULL) || !(rec.settings = exec_settings(&o, cmdline)))
		goto out;
	base = strrchr(cmd[0], '/');
	snprintf(name, sizeof(name), "exec.%.100s", base ? base + 1 : cmd[0]);
	res = rec_add_result(&rec);
	if (!res)
		goto out;
	snprintf(res->name, sizeof(res->name), "%s", name);
	snprintf(res->benchmark, sizeof(res->benchmark), "exec");
	snprintf(res->path, sizeof(res->path), "wall");
	snprintf(res->unit, sizeof(res->unit), "run");
	snprintf(res->detail, sizeof(res->detail), "%.*s", (int)sizeof(res->detail) - 1, cmdline);
	snprintf(res->params, sizeof(res->params), "cmd=%.150s", cmdline);
	res->status = (failed && !o.allow_failure) || timed_out ? UKB_ERROR : UKB_OK;
	if (res->status == UKB_ERROR)
		snprintf(res->reason, sizeof(res->reason), "%zu runs failed, %zu timed out", failed,
			 timed_out);
	res->batch_iters = 1;
	res->samples = malloc(o.repeat * sizeof(double));
	if (!res->samples)
		goto out;
	for (unsigned long i = 0; i < o.repeat; i++)
		res->samples[i] = runs[i].wall_ns;
	res->nsamples = o.repeat;
	res->converged = 1;
	rec_result_restat(res);
#define SAVE(label, field)                                                                         \
	do {                                                                                       \
		for (unsigned long i = 0; i < o.repeat; i++)                                       \
			x[i] = runs[i].field;                                                      \
		add_metric(res, label, x, o.repeat);                                               \
	} while (0)
	SAVE("user-ns", user_ns);
	SAVE("sys-ns", sys_ns);
	SAVE("max-rss-kb", maxrss_kb);
#undef SAVE
	for (unsigned k = 0; k < o.nev; k++) {
		const struct ukb_counters *c0 = &runs[0].ctr;
		struct rec_counter *c;

		for (unsigned long i = 0; i < o.repeat; i++) {
			struct ukb_reading zero = { 0 };

			if (ukb_counter_delta(&zero, &runs[i].rd[k], &x[i]))
				x[i] = NAN;
		}
		c = add_metric(res, c0->ev[k].name, x, o.repeat);
		if (c && c0->status[k] != UKB_CTR_OK) {
			snprintf(c->status, sizeof(c->status), "%s",
				 ukb_counter_status_name(c0->status[k]));
			snprintf(c->reason, sizeof(c->reason), "%s", c0->reason[k]);
			c->per_call = NAN;
		}
	}

	ret = (failed && !o.allow_failure) || timed_out ? UKB_EXIT_FAIL : UKB_EXIT_OK;
	if (o.json) {
		struct outfile of;
		size_t len;
		char *text = rec_to_json(&rec, 1, &len);

		if (outfile_open(&of, o.json) || outfile_commit(&of, text, len))
			ret = UKB_EXIT_FAIL;
		free(text);
	}
	if (st) {
		if (store_save(st, &rec, err, sizeof(err))) {
			error("%s", err);
			ret = UKB_EXIT_FAIL;
		} else {
			printf("stored as run #%lld%s%s%s in %s\n", (long long)rec.id,
			       rec.label[0] ? " '" : "", rec.label, rec.label[0] ? "'" : "", path);
		}
	}
out:
	rec_run_release(&rec);
	store_close(st);
	free(runs);
	free(x);
	return ret;
}
