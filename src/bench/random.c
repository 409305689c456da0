// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * random.c - getrandom(): the vDSO, the C library and the system call, at
 * several request sizes and flags, and scaling across threads.
 *
 * random.getrandom times one thread's calls. random.getrandom_mt runs T
 * threads at once, each with its own buffer and, on the vdso path, its own
 * state (a state is never shared: the vDSO marks it in use and falls back
 * to the system call when it finds it busy); a sample is the wall time for
 * every thread to make the batch's calls, so the per-call figure is what
 * one thread sees and T / figure is the aggregate rate.
 *
 * Setup checks what a user of the numbers relies on: the vDSO path returns
 * the length asked, its output is not constant, and after fork() parent and
 * child draw different bytes (the state is wiped in the child).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ukbench.h"
#include "vgetrandom.h"

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 41))
#define LIBC_GETRANDOM "the C library's getrandom() (glibc 2.41+: through the vDSO)"
#elif defined(__GLIBC__)
#define LIBC_GETRANDOM "the C library's getrandom() (glibc before 2.41: the system call)"
#else
#define LIBC_GETRANDOM "the C library's getrandom()"
#endif

enum kind { VDSO, LIBC, SYSCALL };

struct worker {
	pthread_t tid;
	struct ctx *c;
	void *buf;
	void *state;
	long err;
};

struct ctx {
	enum kind kind;
	size_t len;
	unsigned flags;
	void *buf;
	struct ukb_vgr_pool pool;
	void *state;
	/* threads: a generation counter starts a batch, a count ends it */
	unsigned nthreads, started;
	struct worker *w;
	pthread_mutex_t lock;
	pthread_cond_t go, finished_cv;
	unsigned generation, finished;
	uint64_t iters;
	int quit;
};

static enum kind kind_of(const struct ukb_ctx *c)
{
	return !strcmp(c->path->name, "vdso")	? VDSO
	       : !strcmp(c->path->name, "libc") ? LIBC
						: SYSCALL;
}

/* One call through @k; the length written, or -errno. */
static long draw(struct ctx *c, enum kind k, void *buf, void *state)
{
	long r;

	switch (k) {
	case VDSO:
		return ukb_vgr_call(&c->pool, state, buf, c->len, c->flags);
	case LIBC:
		r = getrandom(buf, c->len, c->flags);
		return r < 0 ? -errno : r;
	case SYSCALL:
		r = syscall(SYS_getrandom, buf, c->len, c->flags);
		return r < 0 ? -errno : r;
	}
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static int check_length(struct ctx *c, enum kind k, void *state, char *why, size_t len)
{
	long r = draw(c, k, c->buf, state);

	if (r == (long)c->len)
		return 0;
	if (r < 0)
		snprintf(why, len, "getrandom(%zu) failed: %s", c->len, strerror((int)-r));
	else
		snprintf(why, len, "getrandom(%zu) returned %ld bytes", c->len, r);
	return r < 0 ? (int)r : -EIO;
}

/* 16 draws of up to 16 bytes: at least two must differ. */
static int check_not_constant(struct ctx *c, void *state, char *why, size_t len)
{
	unsigned char first[16], next[16];
	size_t n = c->len < 16 ? c->len : 16;
	size_t saved = c->len;
	int differ = 0;

	c->len = n;
	if (draw(c, VDSO, first, state) != (long)n)
		differ = -1;
	for (int i = 0; i < 15 && !differ; i++) {
		if (draw(c, VDSO, next, state) != (long)n)
			differ = -1;
		else
			differ = memcmp(first, next, n) != 0;
	}
	c->len = saved;
	if (differ == 1)
		return 0;
	snprintf(why, len, "vDSO getrandom returned the same %zu bytes 16 times", n);
	return -EIO;
}

/* Parent and child draw right after fork(): their bytes must differ. */
static int check_fork(struct ctx *c, void *state, char *why, size_t len)
{
	unsigned char mine[16], theirs[16];
	size_t saved = c->len;
	int fds[2], status, ret = 0;
	pid_t pid;

	if (pipe(fds))
		return 0; /* cannot check; not a fault of the vDSO */
	c->len = sizeof(mine);
	pid = fork();
	if (pid == 0) {
		long r = draw(c, VDSO, theirs, state);

		if (r != (long)sizeof(theirs) || write(fds[1], theirs, sizeof(theirs)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0 && draw(c, VDSO, mine, state) == (long)sizeof(mine) &&
	    read(fds[0], theirs, sizeof(theirs)) == (ssize_t)sizeof(theirs) &&
	    !memcmp(mine, theirs, sizeof(mine))) {
		snprintf(why, len,
			 "after fork() parent and child drew the same bytes from the vDSO");
		ret = -EIO;
	}
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	c->len = saved;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Threads                                                             */

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ctx *c = w->c;
	unsigned seen = 0;

	for (;;) {
		uint64_t iters;

		pthread_mutex_lock(&c->lock);
		while (c->generation == seen && !c->quit)
			pthread_cond_wait(&c->go, &c->lock);
		seen = c->generation;
		iters = c->iters;
		pthread_mutex_unlock(&c->lock);
		if (c->quit)
			return NULL;
		for (uint64_t i = 0; i < iters && !w->err; i++) {
			long r = draw(c, c->kind, w->buf, w->state);

			if (r != (long)c->len)
				w->err = r < 0 ? r : -EIO;
		}
		pthread_mutex_lock(&c->lock);
		if (++c->finished == c->started)
			pthread_cond_signal(&c->finished_cv);
		pthread_mutex_unlock(&c->lock);
	}
}

/* Ends and joins every started worker; safe after a partial start. */
static void stop_workers(struct ctx *c)
{
	pthread_mutex_lock(&c->lock);
	c->quit = 1;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->lock);
	for (unsigned i = 0; i < c->started; i++) {
		pthread_join(c->w[i].tid, NULL);
		free(c->w[i].buf);
	}
	free(c->w);
	c->w = NULL;
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->go);
	pthread_cond_destroy(&c->finished_cv);
}

static int start_workers(struct ctx *c, char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_attr_t attr;
	cpu_set_t all;
	unsigned i;
	int err = 0;

	c->w = calloc(c->nthreads, sizeof(*c->w));
	if (!c->w)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->go, NULL);
	pthread_cond_init(&c->finished_cv, NULL);
	/* workers may run anywhere, even when the measuring thread is pinned */
	CPU_ZERO(&all);
	for (long k = 0; k < ncpu && k < CPU_SETSIZE; k++)
		CPU_SET(k, &all);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(all), &all);
	for (i = 0; i < c->nthreads; i++) {
		c->w[i].c = c;
		c->w[i].buf = malloc(c->len);
		c->w[i].state = c->kind == VDSO ? ukb_vgr_state(&c->pool) : NULL;
		if (!c->w[i].buf || (c->kind == VDSO && !c->w[i].state)) {
			free(c->w[i].buf);
			err = -ENOMEM;
			break;
		}
		err = -pthread_create(&c->w[i].tid, &attr, worker_main, &c->w[i]);
		if (err) {
			free(c->w[i].buf);
			break;
		}
		c->started++;
	}
	pthread_attr_destroy(&attr);
	if (c->started < c->nthreads) {
		snprintf(why, len, "started %u of %u threads: %s", c->started, c->nthreads,
			 strerror(-err));
		stop_workers(c);
		return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Paths                                                               */

static void random_teardown(struct ukb_ctx *uc)
{
	struct ctx *c = uc->priv;

	if (!c)
		return;
	if (c->w)
		stop_workers(c);
	ukb_vgr_pool_release(&c->pool);
	free(c->buf);
	free(c);
	uc->priv = NULL;
}

static int random_setup(struct ukb_ctx *uc, char *why, size_t len)
{
	struct ctx *c = calloc(1, sizeof(*c));
	int err = 0;

	if (!c)
		return -ENOMEM;
	uc->priv = c;
	c->kind = kind_of(uc);
	c->len = (size_t)uc->arg;
	c->flags = (unsigned)uc->arg2;
	c->nthreads = uc->bench->flags & UKB_THREADED ? uc->threads : 0;
	if (!c->len) {
		snprintf(why, len, "no request size given");
		err = -EINVAL;
		goto out;
	}
	c->buf = malloc(c->len);
	if (!c->buf) {
		err = -ENOMEM;
		goto out;
	}
	if (c->kind == VDSO) {
		err = ukb_vgr_pool_init(&c->pool, (ukb_vgetrandom_t)uc->vfn,
					c->nthreads ? c->nthreads + 1 : 1, why, len);
		if (err)
			goto out;
		c->state = ukb_vgr_state(&c->pool);
	}
	err = check_length(c, c->kind, c->state, why, len);
	if (!err && c->kind == VDSO)
		err = check_not_constant(c, c->state, why, len);
	if (!err && c->kind == VDSO)
		err = check_fork(c, c->state, why, len);
	if (!err && c->nthreads)
		err = start_workers(c, why, len);
out:
	if (err)
		random_teardown(uc);
	return err;
}

static int vdso_run(struct ukb_ctx *uc, uint64_t n)
{
	struct ctx *c = uc->priv;
	ukb_vgetrandom_t fn = c->pool.fn;
	size_t slen = c->pool.params.size_of_opaque_state;

	/* the state was checked to be the pool's in setup: call directly */
	for (uint64_t i = 0; i < n; i++)
		fn(c->buf, c->len, c->flags, c->state, slen);
	return 0;
}

static int libc_run(struct ukb_ctx *uc, uint64_t n)
{
	struct ctx *c = uc->priv;

	for (uint64_t i = 0; i < n; i++)
		getrandom(c->buf, c->len, c->flags);
	return 0;
}

static int syscall_run(struct ukb_ctx *uc, uint64_t n)
{
	struct ctx *c = uc->priv;

	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getrandom, c->buf, c->len, c->flags);
	return 0;
}

static int threads_run(struct ukb_ctx *uc, uint64_t n)
{
	struct ctx *c = uc->priv;

	pthread_mutex_lock(&c->lock);
	c->iters = n;
	c->finished = 0;
	c->generation++;
	pthread_cond_broadcast(&c->go);
	while (c->finished < c->started)
		pthread_cond_wait(&c->finished_cv, &c->lock);
	pthread_mutex_unlock(&c->lock);
	for (unsigned i = 0; i < c->nthreads; i++)
		if (c->w[i].err)
			return (int)c->w[i].err;
	return 0;
}

/* ------------------------------------------------------------------ */

static const long getrandom_sizes[] = { 4, 256, 0 };
static const long getrandom_mt_sizes[] = { 4, 0 };

static const struct ukb_flagset getrandom_flags[] = {
	{ .name = "", .value = 0 },
	{ .name = "nonblock", .value = GRND_NONBLOCK },
	{ .name = "insecure", .value = GRND_INSECURE },
	{ NULL },
};

/* getrandom() returns at most this many bytes per call */
#define GETRANDOM_MAX 33554431L

static const struct ukb_path random_getrandom_paths[] = {
	{ .name = "vdso",
	  .run = vdso_run,
	  .vdso_sym = "getrandom",
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = "direct call into the vDSO, with a state of its own" },
	{ .name = "libc",
	  .run = libc_run,
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = LIBC_GETRANDOM },
	{ .name = "syscall",
	  .run = syscall_run,
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = "syscall(SYS_getrandom)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_random_getrandom = {
	.name = "random.getrandom",
	.summary = "getrandom(buf, size, flags) at each request size (--size, --flags)",
	.flags = UKB_DEFAULT,
	.paths = random_getrandom_paths,
	.sizes = getrandom_sizes,
	.size_min = 1,
	.size_max = GETRANDOM_MAX,
	.flagsets = getrandom_flags,
};

static const struct ukb_path random_getrandom_mt_paths[] = {
	{ .name = "vdso",
	  .run = threads_run,
	  .vdso_sym = "getrandom",
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = "direct call into the vDSO, one state per thread" },
	{ .name = "libc",
	  .run = threads_run,
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = LIBC_GETRANDOM },
	{ .name = "syscall",
	  .run = threads_run,
	  .setup = random_setup,
	  .teardown = random_teardown,
	  .detail = "syscall(SYS_getrandom)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_random_getrandom_mt = {
	.name = "random.getrandom_mt",
	.summary = "getrandom() in 1..N threads at once (--threads N, default: online CPUs)",
	.flags = UKB_DEFAULT | UKB_THREADED,
	.paths = random_getrandom_mt_paths,
	.sizes = getrandom_mt_sizes,
	.size_min = 1,
	.size_max = GETRANDOM_MAX,
	.flagsets = getrandom_flags,
};
