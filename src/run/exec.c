// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * exec.c - running any command, measured (see exec.h).
 *
 * Each run forks a child that waits until the parent has opened the
 * counters on it (enabled at exec, inherited by everything it starts),
 * then executes the command. The wall time runs from that release to the
 * child's exit, observed through a pidfd so the wait adds nothing. The
 * counters are read once the child and its descendants have exited and
 * folded their counts in.
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
#include <unistd.h>

#include "clock.h"
#include "exec.h"

/* The running command's process group, for signals to reach all of it. */
static volatile pid_t child_group;
volatile sig_atomic_t exec_stop;

void exec_forward(int sig)
{
	exec_stop = sig;
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

/*
 * Waits for @pid up to @timeout_s (0: forever), calling @o's tick every
 * quarter of a second; 1 on exit, 0 on timeout.
 */
static int wait_exit(const struct exec_plan *o, pid_t pid, double timeout_s)
{
	int pfd = pidfd_open_(pid), ret = 1;
	struct pollfd p = { .fd = pfd, .events = POLLIN };
	uint64_t end = ukb_now_ns() + (uint64_t)(timeout_s * 1e9), last = ukb_now_ns();

	if (pfd < 0) {
		/* no pidfd: poll the child every millisecond */
		siginfo_t si;

		for (;;) {
			memset(&si, 0, sizeof(si));
			if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid)
				return 1;
			if (timeout_s > 0 && ukb_now_ns() > end)
				return 0;
			if (o->tick && ukb_now_ns() - last > 250000000ull) {
				o->tick(o->tick_arg);
				last = ukb_now_ns();
			}
			usleep(1000);
		}
	}
	for (;;) {
		uint64_t now = ukb_now_ns();
		int left = timeout_s > 0 ? (now >= end ? 0 : (int)((end - now) / 1000000) + 1) : -1;
		int r;

		if (o->tick && (left < 0 || left > 250))
			left = 250;
		r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		/* another error of poll is not waited on forever: taken as a timeout */
		if (r != 0 || (timeout_s > 0 && ukb_now_ns() >= end))
			break;
		if (o->tick)
			o->tick(o->tick_arg);
	}
	if (!(p.revents & POLLIN))
		ret = 0;
	close(pfd);
	return ret;
}

void exec_once(const struct exec_plan *o, struct exec_run *r)
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
		signal(SIGHUP, SIG_DFL);
		/* the command meets a file-size limit as it would anywhere else */
		signal(SIGXFSZ, SIG_DFL);
		close(go[1]);
		close(fail[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(o->cmd[0], o->cmd);
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
	if (!wait_exit(o, pid, o->timeout_s)) {
		r->timed_out = 1;
		kill(-pid, SIGTERM);
		if (!wait_exit(o, pid, 1.0))
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

void exec_values(const struct exec_run *runs, size_t n, unsigned m, double *x)
{
	for (size_t i = 0; i < n; i++) {
		const struct exec_run *r = &runs[i];
		struct ukb_reading zero = { 0 };

		switch (m) {
		case EXEC_WALL:
			x[i] = r->wall_ns;
			break;
		case EXEC_USER:
			x[i] = r->user_ns;
			break;
		case EXEC_SYS:
			x[i] = r->sys_ns;
			break;
		case EXEC_RSS:
			x[i] = r->maxrss_kb;
			break;
		default:
			if (ukb_counter_delta(&zero, &r->rd[m - EXEC_NMETRICS], &x[i]))
				x[i] = NAN;
		}
	}
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

/* user, sys, max RSS and every counter, as counters of @res */
static int add_metrics(const struct exec_plan *p, const struct exec_run *runs, size_t n,
		       struct rec_result *res, double *x)
{
	static const char *const names[] = { "", "user-ns", "sys-ns", "max-rss-kb" };
	const struct ukb_counters *c0 = &runs[0].ctr;

	for (unsigned m = EXEC_USER; m < EXEC_NMETRICS + p->nev; m++) {
		unsigned k = m - EXEC_NMETRICS;
		struct rec_counter *c;

		exec_values(runs, n, m, x);
		c = add_metric(res, m < EXEC_NMETRICS ? names[m] : c0->ev[k].name, x, n);
		if (!c)
			return -ENOMEM;
		if (m >= EXEC_NMETRICS && c0->status[k] != UKB_CTR_OK) {
			snprintf(c->status, sizeof(c->status), "%s",
				 ukb_counter_status_name(c0->status[k]));
			snprintf(c->reason, sizeof(c->reason), "%s", c0->reason[k]);
			c->per_call = NAN;
		}
	}
	return 0;
}

int exec_record(const struct exec_plan *p, const struct exec_run *runs, size_t n, int failed,
		const char *reason, struct rec_run *rec)
{
	const char *base = strrchr(p->cmd[0], '/');
	struct rec_result *res = rec_add_result(rec);
	double *x = calloc(n ? n : 1, sizeof(*x));
	int err;

	if (!res || !x) {
		free(x);
		return -ENOMEM;
	}
	if (p->name)
		snprintf(res->name, sizeof(res->name), "%s", p->name);
	else
		snprintf(res->name, sizeof(res->name), "exec.%.100s", base ? base + 1 : p->cmd[0]);
	snprintf(res->benchmark, sizeof(res->benchmark), "exec");
	snprintf(res->path, sizeof(res->path), "wall");
	snprintf(res->unit, sizeof(res->unit), "run");
	snprintf(res->detail, sizeof(res->detail), "%.*s", (int)sizeof(res->detail) - 1,
		 p->cmdline);
	snprintf(res->params, sizeof(res->params), "cmd=%.150s", p->cmdline);
	res->status = failed ? UKB_ERROR : UKB_OK;
	if (failed)
		snprintf(res->reason, sizeof(res->reason), "%s", reason);
	res->batch_iters = 1;
	res->samples = malloc(n * sizeof(double));
	if (!res->samples) {
		free(x);
		return -ENOMEM;
	}
	exec_values(runs, n, EXEC_WALL, res->samples);
	res->nsamples = n;
	res->converged = 1;
	/* every run is a fresh process: each is one observation for compare */
	res->proc_means = malloc(n * sizeof(double));
	if (!res->proc_means) {
		free(x);
		return -ENOMEM;
	}
	memcpy(res->proc_means, res->samples, n * sizeof(double));
	res->nproc = n;
	rec_result_restat(res);
	err = add_metrics(p, runs, n, res, x);
	free(x);
	return err;
}
