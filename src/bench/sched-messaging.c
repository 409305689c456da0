// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sched-messaging.c - the hackbench workload, measured properly.
 *
 * Groups of senders and receivers (20 and 20 by default): each sender
 * writes `loops` messages of `datasize` bytes to every receiver of its
 * group, over pipes or AF_UNIX socket pairs, from processes or threads.
 * The defaults are hackbench's (10 groups, 100 loops, 100 bytes, sockets,
 * processes), and every parameter has its hackbench name, so a result sits
 * beside `hackbench -g G -f F -l L -s S [--pipe] [--threads]`.
 *
 * One sample is one complete run. Its time starts when every task is
 * ready (created, connected, waiting) and ends when the last has finished:
 * creating 400 processes is not what a scheduler change is judged by.
 *
 * Every task that was started is ended and reaped, whatever happens: a
 * failed fork or thread creation (the error says how many of how many
 * started), a failed read or write, Ctrl-C. Children die with their parent
 * (PR_SET_PDEATHSIG) and never outlive a run; no descriptor survives one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "ukbench.h"

enum { P_GROUPS, P_FDS, P_LOOPS, P_DATASIZE };
enum { MODE_PIPE = 1 << 0, MODE_THREAD = 1 << 1 };

struct task {
	int fds[64]; /* a sender's write ends, or a receiver's read end in [0] */
	int nfds;
	int is_sender;
	pthread_t tid;
	pid_t pid;
	long err; /* threads: 0 or -errno */
};

struct hb {
	long groups, fds, loops, datasize;
	int mode;
	int ready[2], wakeup[2];
	volatile int abort_run;
};

/* ------------------------------------------------------------------ */
/* The work of one task                                                */

static int rw_all(int fd, char *buf, size_t len, int writing)
{
	while (len) {
		ssize_t r = writing ? write(fd, buf, len) : read(fd, buf, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		buf += r;
		len -= (size_t)r;
	}
	return 0;
}

/* Says it is ready, waits for the start, then sends or receives. */
static long task_work(struct hb *h, struct task *t)
{
	char buf[65536], c = 0;
	long err = 0;

	if (write(h->ready[1], &c, 1) != 1)
		return -errno;
	/*
	 * A process lets go of the ready pipe once it has said so: the
	 * controller then sees the end of it when every task is either ready
	 * or dead, and never waits for a task that was killed while starting.
	 */
	if (!(h->mode & MODE_THREAD)) {
		close(h->ready[1]);
		h->ready[1] = -1;
	}
	/* the controller closes its end of wakeup: read returns 0, go */
	while (read(h->wakeup[0], &c, 1) < 0 && errno == EINTR)
		;
	if (h->abort_run)
		return -ECANCELED;
	memset(buf, 'x', (size_t)h->datasize);
	if (t->is_sender) {
		for (long l = 0; l < h->loops && !err; l++)
			for (int i = 0; i < t->nfds && !err; i++)
				err = rw_all(t->fds[i], buf, (size_t)h->datasize, 1);
	} else {
		for (long m = 0; m < h->loops * h->fds && !err; m++)
			err = rw_all(t->fds[0], buf, (size_t)h->datasize, 0);
	}
	return err;
}

static void *thread_main(void *arg)
{
	struct task *t = arg;
	struct hb *h = (struct hb *)(uintptr_t)t->err;

	t->err = task_work(h, t);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Before anything starts: enough descriptors and tasks? Threads hold every
 * group's descriptors at once in this process; processes hold one group's
 * in the parent while it forks them.
 */
static int hb_validate(const struct ukb_ctx *c, char *why, size_t len)
{
	long groups = ukb_param(c, P_GROUPS), fds = ukb_param(c, P_FDS);
	int threads = c->arg & MODE_THREAD;
	long per_group = 2 * fds, need, tasks = 2 * fds * groups, limit;
	struct rlimit rl;

	if (fds > 64) {
		snprintf(why, len, "fds=%ld: at most 64 receivers per group", fds);
		return -EINVAL;
	}
	/* stdin/out/err, the ready and wakeup pipes, a margin for the store */
	need = 16 + (threads ? per_group * groups : per_group);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (long)rl.rlim_cur < need) {
		long fit = threads ? ((long)rl.rlim_cur - 16) / per_group : 0;

		if (threads && fit >= 1)
			snprintf(why, len,
				 "%ld groups of %ld in threads need %ld file descriptors, the "
				 "limit (RLIMIT_NOFILE, ulimit -n) is %llu: at most %ld groups fit",
				 groups, fds, need, (unsigned long long)rl.rlim_cur, fit);
		else if (threads)
			snprintf(
			    why, len,
			    "%ld groups of %ld in threads need %ld file descriptors, the "
			    "limit (RLIMIT_NOFILE, ulimit -n) is %llu: raise it to at least %ld",
			    groups, fds, need, (unsigned long long)rl.rlim_cur, 16 + per_group);
		else if ((long)rl.rlim_cur - 16 >= 2)
			snprintf(why, len,
				 "a group of %ld needs %ld file descriptors, the limit "
				 "(RLIMIT_NOFILE, ulimit -n) is %llu: at most fds=%ld fits",
				 fds, need, (unsigned long long)rl.rlim_cur,
				 ((long)rl.rlim_cur - 16) / 2);
		else
			/* not even one pair fits: say so, not a negative count */
			snprintf(why, len,
				 "a group of %ld needs %ld file descriptors, the limit "
				 "(RLIMIT_NOFILE, ulimit -n) is %llu: raise it to at least %ld",
				 fds, need, (unsigned long long)rl.rlim_cur, need);
		return -EMFILE;
	}
	limit = read_long("/proc/sys/kernel/threads-max");
	if (limit > 0 && tasks + 64 > limit) {
		snprintf(why, len,
			 "%ld groups of %ld need %ld tasks, the limit (kernel.threads-max) is %ld: "
			 "at most %ld groups fit",
			 groups, fds, tasks, limit, (limit - 64) / (2 * fds));
		return -EAGAIN;
	}
	if (!threads && geteuid() != 0 && !getrlimit(RLIMIT_NPROC, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < tasks + 64) {
		snprintf(why, len,
			 "%ld groups of %ld need %ld processes, the limit (RLIMIT_NPROC, ulimit "
			 "-u) is %llu: at most %ld groups fit",
			 groups, fds, tasks, (unsigned long long)rl.rlim_cur,
			 (long)rl.rlim_cur > 64 ? ((long)rl.rlim_cur - 64) / (2 * fds) : 0);
		return -EAGAIN;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* One run                                                             */

static int hb_setup(struct ukb_ctx *c, char *why, size_t len)
{
	struct hb *h;
	int err = hb_validate(c, why, len);

	if (err)
		return err;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->groups = ukb_param(c, P_GROUPS);
	h->fds = ukb_param(c, P_FDS);
	h->loops = ukb_param(c, P_LOOPS);
	h->datasize = ukb_param(c, P_DATASIZE);
	h->mode = (int)c->arg;
	c->priv = h;
	return 0;
}

static void hb_teardown(struct ukb_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

static int make_pair(int mode, int fd[2])
{
	if (mode & MODE_PIPE)
		return pipe2(fd, O_CLOEXEC) ? -errno : 0;
	return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd) ? -errno : 0;
}

/*
 * In a child: closes every descriptor of its group it does not use, and
 * the controller's ends, so that closing wakeup wakes everyone and a dead
 * sender's receiver sees the end of its stream.
 */
static void close_others(struct hb *h, struct task *t, int (*gp)[2])
{
	close(h->wakeup[1]);
	close(h->ready[0]);
	for (long r = 0; r < h->fds; r++)
		for (int e = 0; e < 2; e++) {
			int keep = 0;

			for (int i = 0; i < t->nfds; i++)
				keep |= t->fds[i] == gp[r][e];
			if (!keep)
				close(gp[r][e]);
		}
}

/* Starts one task as a process or a thread; 0 or -errno. */
static int start_task(struct hb *h, struct task *t, int (*gp)[2])
{
	if (h->mode & MODE_THREAD) {
		pthread_attr_t attr;
		int err;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 128 * 1024);
		t->err = (long)(uintptr_t)h;
		err = pthread_create(&t->tid, &attr, thread_main, t);
		pthread_attr_destroy(&attr);
		return -err;
	}
	pid_t parent = getpid();

	t->pid = fork();
	if (t->pid < 0)
		return -errno;
	if (t->pid == 0) {
		pid_t now;

		/*
		 * A child dies with its parent and on Ctrl-C, never lingers: a
		 * parent gone before the line below is seen by its pid (a getppid()
		 * that a filter refuses answers -1, and the signal still holds).
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		now = getppid();
		if (now != parent && now != -1)
			_exit(1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		close_others(h, t, gp);
		_exit(task_work(h, t) ? 1 : 0);
	}
	return 0;
}

/* Ends and reaps every started task; returns the first failure. */
static long reap(struct hb *h, struct task *tasks, long started, int killing)
{
	long first = 0;

	for (long i = 0; i < started; i++) {
		struct task *t = &tasks[i];

		if (h->mode & MODE_THREAD) {
			pthread_join(t->tid, NULL);
			if (t->err && !first && t->err != -ECANCELED)
				first = t->err;
			continue;
		}
		int status;

		if (killing)
			kill(t->pid, SIGKILL);
		while (waitpid(t->pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!killing && !first) {
			if (WIFSIGNALED(status))
				first = WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM
					    ? -EINTR
					    : -ECHILD;
			else if (WEXITSTATUS(status))
				first = -EIO;
		}
	}
	return first;
}

static void close_group(int (*pairs)[2], long n)
{
	for (long i = 0; i < n; i++) {
		if (pairs[i][0] >= 0)
			close(pairs[i][0]);
		if (pairs[i][1] >= 0)
			close(pairs[i][1]);
	}
}

/* Every group's pairs, receivers and senders; *@started counts the tasks. */
static long start_groups(struct hb *h, struct task *tasks, int (*pairs)[2], long *started)
{
	long err = 0;

	for (long g = 0; g < h->groups && !err; g++) {
		int(*gp)[2] = &pairs[g * h->fds];

		for (long r = 0; r < h->fds && !err; r++)
			err = make_pair(h->mode, gp[r]);
		for (long r = 0; r < h->fds && !err; r++) {
			struct task *t = &tasks[*started];

			t->fds[0] = gp[r][0];
			t->nfds = 1;
			err = start_task(h, t, gp);
			*started += !err;
		}
		for (long s = 0; s < h->fds && !err; s++) {
			struct task *t = &tasks[*started];

			t->is_sender = 1;
			for (long r = 0; r < h->fds; r++)
				t->fds[t->nfds++] = gp[r][1];
			err = start_task(h, t, gp);
			*started += !err;
		}
		/* processes have their copies now; threads share ours */
		if (!(h->mode & MODE_THREAD))
			close_group(gp, h->fds);
	}
	return err;
}

/* Waits for every task's "ready" byte; 0, or -errno with the count in c->why. */
static long wait_ready(struct hb *h, long ntasks, struct ukb_ctx *c)
{
	long ready = 0;
	char byte;

	while (ready < ntasks) {
		ssize_t r = read(h->ready[0], &byte, 1);

		if (r == 1) {
			ready++;
		} else if (!(r < 0 && errno == EINTR)) {
			long err = r < 0 ? -errno : -ECHILD;

			snprintf(c->why, sizeof(c->why), "%ld of %ld tasks got ready", ready,
				 ntasks);
			return err;
		}
	}
	return 0;
}

static int hb_run(struct ukb_ctx *c, uint64_t iters)
{
	struct hb *h = c->priv;
	long ntasks = 2 * h->fds * h->groups, started = 0;
	struct task *tasks = calloc((size_t)ntasks, sizeof(*tasks));
	int(*pairs)[2] = calloc((size_t)(h->fds * h->groups), sizeof(*pairs));
	uint64_t t0 = 0;
	long err = 0;

	(void)iters; /* one iteration is one run */
	if (!tasks || !pairs) {
		free(tasks);
		free(pairs);
		return -ENOMEM;
	}
	for (long i = 0; i < h->fds * h->groups; i++)
		pairs[i][0] = pairs[i][1] = -1;
	h->abort_run = 0;
	if (pipe2(h->ready, O_CLOEXEC)) {
		free(tasks);
		free(pairs);
		return -errno;
	}
	if (pipe2(h->wakeup, O_CLOEXEC)) {
		err = -errno;
		close(h->ready[0]);
		close(h->ready[1]);
		free(tasks);
		free(pairs);
		return (int)err;
	}

	err = start_groups(h, tasks, pairs, &started);
	if (err) {
		snprintf(c->why, sizeof(c->why), "started %ld of %ld tasks: %s: %s", started,
			 ntasks, h->mode & MODE_THREAD ? "pthread_create" : "fork",
			 strerror((int)-err));
		goto abort;
	}
	/* processes: a child that dies before it is ready shows as EOF here */
	if (!(h->mode & MODE_THREAD)) {
		close(h->ready[1]);
		h->ready[1] = -1;
	}
	err = wait_ready(h, ntasks, c);
	if (err)
		goto abort;
	/* go: every task wakes on the closed pipe */
	t0 = ukb_now_ns();
	close(h->wakeup[1]);
	h->wakeup[1] = -1;
	err = reap(h, tasks, started, 0);
	c->elapsed_ns = ukb_now_ns() - t0;
	if (err && !c->why[0])
		snprintf(c->why, sizeof(c->why), "a task failed: %s",
			 err == -EINTR ? "interrupted" : strerror((int)-err));
	goto out;
abort:
	/* wake everyone with nothing to do, end them, reap them */
	h->abort_run = 1;
	if (h->wakeup[1] >= 0) {
		close(h->wakeup[1]);
		h->wakeup[1] = -1;
	}
	if (h->mode & MODE_THREAD)
		close_group(pairs, h->fds * h->groups);
	reap(h, tasks, started, !(h->mode & MODE_THREAD));
out:
	if (h->mode & MODE_THREAD)
		close_group(pairs, h->fds * h->groups);
	close(h->ready[0]);
	if (h->ready[1] >= 0)
		close(h->ready[1]);
	close(h->wakeup[0]);
	if (h->wakeup[1] >= 0)
		close(h->wakeup[1]);
	free(tasks);
	free(pairs);
	return (int)err;
}

/* ------------------------------------------------------------------ */

static const struct ukb_param hb_params[] = {
	[P_GROUPS] = { .name = "groups",
		       .help = "groups of senders and receivers (hackbench -g)",
		       .def = 10,
		       .min = 1,
		       .max = 100000 },
	[P_FDS] = { .name = "fds",
		    .help = "senders and receivers per group (hackbench -f)",
		    .def = 20,
		    .min = 1,
		    .max = 64 },
	[P_LOOPS] = { .name = "loops",
		      .help = "messages each sender sends each receiver (hackbench -l)",
		      .def = 100,
		      .min = 1,
		      .max = 100000000 },
	[P_DATASIZE] = { .name = "datasize",
			 .help = "bytes per message (hackbench -s)",
			 .def = 100,
			 .min = 1,
			 .max = 65536 },
	{ NULL },
};

static const struct ukb_variant hb_variants[] = {
	{ .name = "socket_process", .arg = 0 },
	{ .name = "pipe_process", .arg = MODE_PIPE },
	{ .name = "socket_thread", .arg = MODE_THREAD },
	{ .name = "pipe_thread", .arg = MODE_PIPE | MODE_THREAD },
	{ NULL },
};

static const struct ukb_path hb_paths[] = {
	{ .name = "run",
	  .run = hb_run,
	  .setup = hb_setup,
	  .teardown = hb_teardown,
	  .detail = "hackbench: every sender writes to every receiver of its group" },
	{ NULL },
};

const struct ukb_bench ukb_bench_sched_messaging = {
	.name = "sched.messaging",
	.summary = "hackbench: groups of senders and receivers (-P groups=,fds=,loops=,datasize=)",
	.unit = "run",
	/* a run takes 0.2-0.6 s: not in the one-minute default suite */
	.flags = UKB_FIXED_BATCH | UKB_SELF_TIMED | UKB_KEEPS_DISTURBED,
	.variants = hb_variants,
	.paths = hb_paths,
	.params = hb_params,
	.validate = hb_validate,
};
