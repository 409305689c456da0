// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sched-pipe.c - two tasks passing a token over a pair of pipes.
 *
 * One iteration is a round trip: write a byte to the partner, read its
 * answer. What is measured is two wake-ups and two context switches (on
 * one CPU) or two cross-CPU wake-ups (on two), the path a scheduler change
 * moves. The partner is a process or a thread, created in setup and kept
 * for every batch; the pinned variants put both tasks on one CPU or on two
 * different ones (and restore the measuring thread's affinity afterwards).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ukbench.h"

enum { THREAD = 1 << 0, SAME_CPU = 1 << 1, CROSS_CPU = 1 << 2 };

struct pp {
	int to[2], from[2]; /* to the partner, from the partner */
	/* a write to a partner gone is an error to report, not a signal that kills */
	struct sigaction pipe_was;
	pid_t pid;
	pthread_t tid;
	int have_thread;
	cpu_set_t saved;
	int restore;
	int partner_cpu;
};

/* Echoes every byte until the pipe closes. */
static void echo(int in, int out)
{
	char c;

	for (;;) {
		ssize_t r = read(in, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || write(out, &c, 1) != 1)
			return;
	}
}

static void *partner_thread(void *arg)
{
	struct pp *p = arg;

	echo(p->to[0], p->from[1]);
	return NULL;
}

static void pin(pid_t who, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(who, sizeof(set), &set);
}

/* The first two CPUs this thread may use, into @a and @b (-1 if absent). */
static void two_cpus(const cpu_set_t *set, int *a, int *b)
{
	*a = *b = -1;
	for (int i = 0; i < CPU_SETSIZE && *b < 0; i++)
		if (CPU_ISSET(i, set)) {
			if (*a < 0)
				*a = i;
			else
				*b = i;
		}
}

static void pp_teardown(struct ukb_ctx *c)
{
	struct pp *p = c->priv;
	int status;

	if (!p)
		return;
	/* closing our ends ends the partner's loop */
	close(p->to[1]);
	close(p->from[0]);
	if (p->pid > 0)
		while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
			;
	if (p->have_thread)
		pthread_join(p->tid, NULL);
	if (p->to[0] >= 0)
		close(p->to[0]);
	if (p->from[1] >= 0)
		close(p->from[1]);
	if (p->restore)
		sched_setaffinity(0, sizeof(p->saved), &p->saved);
	sigaction(SIGPIPE, &p->pipe_was, NULL);
	free(p);
	c->priv = NULL;
}

static int pp_setup(struct ukb_ctx *c, char *why, size_t len)
{
	struct pp *p = calloc(1, sizeof(*p));
	int mode = (int)c->arg, me = -1, other = -1, err;

	if (!p)
		return -ENOMEM;
	if (mode & (SAME_CPU | CROSS_CPU)) {
		sched_getaffinity(0, sizeof(p->saved), &p->saved);
		two_cpus(&p->saved, &me, &other);
		if ((mode & CROSS_CPU) && other < 0) {
			snprintf(why, len, "needs two CPUs, this thread may use one");
			free(p);
			return -ENODEV;
		}
		if (c->cpu != UKB_CPU_ANY)
			me = (int)c->cpu;
		if (mode & SAME_CPU)
			other = me;
		else if (other == me)
			two_cpus(&p->saved, &other, &other);
		p->restore = 1;
		pin(0, me);
	}
	if (pipe2(p->to, O_CLOEXEC)) {
		free(p);
		return -errno;
	}
	if (pipe2(p->from, O_CLOEXEC)) {
		err = -errno;
		close(p->to[0]);
		close(p->to[1]);
		free(p);
		return err;
	}
	{
		struct sigaction ign = { .sa_handler = SIG_IGN };

		sigemptyset(&ign.sa_mask);
		sigaction(SIGPIPE, &ign, &p->pipe_was);
	}
	c->priv = p;
	if (mode & THREAD) {
		err = -pthread_create(&p->tid, NULL, partner_thread, p);
		p->have_thread = !err;
		if (!err && other >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(other, &set);
			pthread_setaffinity_np(p->tid, sizeof(set), &set);
		}
	} else {
		p->pid = fork();
		err = p->pid < 0 ? -errno : 0;
		if (p->pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			close(p->to[1]);
			close(p->from[0]);
			if (other >= 0)
				pin(0, other);
			echo(p->to[0], p->from[1]);
			_exit(0);
		}
		/*
		 * The partner's ends are its alone: should it die, the next read
		 * here sees the end of its pipe instead of waiting for a write
		 * only this process could still make.
		 */
		if (p->pid > 0) {
			close(p->to[0]);
			close(p->from[1]);
			p->to[0] = p->from[1] = -1;
		}
	}
	if (err) {
		snprintf(why, len, "cannot start the partner %s: %s",
			 mode & THREAD ? "thread" : "process", strerror(-err));
		pp_teardown(c);
	}
	return err;
}

static int pp_run(struct ukb_ctx *c, uint64_t n)
{
	struct pp *p = c->priv;
	char t = 'x';

	for (uint64_t i = 0; i < n; i++) {
		ssize_t w = write(p->to[1], &t, 1), r = w == 1 ? read(p->from[0], &t, 1) : -1;

		if (w != 1 || r != 1) {
			snprintf(c->why, sizeof(c->why),
				 "the token was lost after %llu round trips: %s",
				 (unsigned long long)i,
				 r == 0 || (w < 0 && errno == EPIPE) ? "the partner is gone"
								     : strerror(errno));
			return -EPIPE;
		}
	}
	return 0;
}

static const struct ukb_variant pp_variants[] = {
	{ .name = "process", .arg = 0 },
	{ .name = "thread", .arg = THREAD },
	{ .name = "process_same_cpu", .arg = SAME_CPU },
	{ .name = "process_cross_cpu", .arg = CROSS_CPU },
	{ .name = "thread_same_cpu", .arg = THREAD | SAME_CPU },
	{ .name = "thread_cross_cpu", .arg = THREAD | CROSS_CPU },
	{ NULL },
};

static const struct ukb_path pp_paths[] = {
	{ .name = "pipe",
	  .run = pp_run,
	  .setup = pp_setup,
	  .teardown = pp_teardown,
	  .detail = "a token over a pair of pipes, one round trip per call" },
	{ NULL },
};

const struct ukb_bench ukb_bench_sched_pipe = {
	.name = "sched.pipe",
	.summary = "two tasks pass a token over pipes: cost of one round trip",
	.unit = "round trip",
	.flags = UKB_DEFAULT | UKB_KEEPS_DISTURBED,
	.variants = pp_variants,
	.paths = pp_paths,
};
