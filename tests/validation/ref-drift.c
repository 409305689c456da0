// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ref-drift.c - how much of a path's drift a reference explains: the
 * figures behind the choice of the reference work (src/core/reference.c).
 *
 *   ref-drift [SECONDS [WINDOW]]     (default 120 s, 10-second windows)
 *
 * Times, round after round in one process, a 1 ms batch of getppid() (a
 * system call), a 1 ms batch of clock_gettime(CLOCK_MONOTONIC) (the vDSO),
 * and 250 us of each reference: the one it timed before (a multiply-add
 * and a table load behind the architecture's instruction barrier), and
 * the three it times now beside every batch (a chain of calls and
 * returns, for every path but those below; the same chain followed by 40
 * dependent additions, for the paths that make a system call; the chain
 * with the barrier and the load in its leaves, for the paths that call
 * the vDSO), and the plain chain as it lay before, every function on a
 * 64-byte line. Per
 * window, the median of each; then, over the windows, how far each path
 * moved (the SD of its log median) and how much of that each reference
 * leaves unexplained (the SD of the residual of the path's log on the
 * reference's, through the mean) with the slope. A machine that
 * does not move says little: run it on a shared machine, or beside busy
 * loops, for a few minutes. Under the table, the same for other work
 * timed beside them that is not the reference (loads chasing through the
 * cache and the TLB, a trap to the hypervisor): what a path's move is not.
 *
 *   ref-drift --processes N [SECONDS]      (N >= 10; default 1.5 s each)
 *
 * The same in N fresh processes one after another, each laid out anew by
 * exec, each giving the medians of its SECONDS of rounds: how far the
 * paths move between processes and between groups of five (as between
 * runs), and what each reference leaves of it. This is the move that the
 * floor of a comparison holds.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "reference.h"

/* the previous reference work, as it was */
static volatile uint32_t table[1024];

static void old_ref(uint64_t n)
{
	uint32_t x = 1, s = 0;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		ukb_ref_barrier();
		s += table[(x >> 8) & 1023];
	}
	table[0] = s;
}

/* the chain of calls with every function on a 64-byte line of its own, as it lay before */
#define LINE __attribute__((noinline, aligned(64)))
static LINE uint32_t line_leaf(uint32_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 1103515245u + 12345u;
}

static LINE uint32_t line_mid(uint32_t x)
{
	return line_leaf(x) + line_leaf(x ^ 1u);
}

static LINE uint32_t line_top(uint32_t x)
{
	return line_mid(x) + line_mid(x + 7u);
}

static LINE void calls_lines(uint64_t n)
{
	uint32_t s = 0;

	for (uint64_t i = 0; i < n; i++)
		s += line_top(s);
	table[1] = s;
}

static void sys_batch(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void vdso_batch(uint64_t n)
{
	struct timespec ts;

	for (uint64_t i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
}

static void calls(uint64_t n)
{
	ukb_ref_run(UKB_REF_CALLS, n);
}

static void calls_barrier(uint64_t n)
{
	ukb_ref_run(UKB_REF_CALLS_BARRIER, n);
}

static void calls_loop(uint64_t n)
{
	ukb_ref_run(UKB_REF_CALLS_LOOP, n);
}

/*
 * Other work, timed beside them to show what does not track a path: loads
 * chasing one another through 64 KiB, one to a cache line (the second
 * level's share of the core, which another tenant's data evicts); through
 * one line in each of 512 pages (the TLB's reach, which an address space
 * switched on the core flushes or evicts); and on x86 CPUID, which traps
 * to the hypervisor (its exits and the host's entry code, which a guest's
 * system call passes through under PVM). None is the reference: on an AMD
 * EPYC guest under PVM none took out more of the system call's move
 * between windows than the chain of calls did.
 */
#define CHASE_NODES 1024 /* 64 KiB */
#define PAGE_NODES  512	 /* 2 MiB */
static uint32_t chase_next[CHASE_NODES * 16];
static uint32_t *page_next;

/* a cycle through @n nodes @stride words apart, in an order fixed by an LCG */
static void cycle(uint32_t *next, uint32_t n, uint32_t stride, uint32_t skew)
{
	uint32_t *order = malloc(n * sizeof(*order)), x = 12345;

	if (!order)
		return;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j, t;

		x = x * 1103515245u + 12345u;
		j = (x >> 8) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	/* each node at its own offset within its stride, so that they spread over the sets */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = order[i], b = order[(i + 1) % n];

		next[a * stride + (a * skew) % stride] = b * stride + (b * skew) % stride;
	}
	free(order);
}

static uint32_t chase_at, page_at;

static void chase(uint64_t n)
{
	uint32_t at = chase_at;

	for (uint64_t i = 0; i < n; i++)
		at = ((volatile uint32_t *)chase_next)[at];
	chase_at = at;
}

static void pages(uint64_t n)
{
	uint32_t at = page_at;

	for (uint64_t i = 0; i < n; i++)
		at = ((volatile uint32_t *)page_next)[at];
	page_at = at;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_TRAP 1
static void trap(uint64_t n)
{
	unsigned a = 0, b = 0, c = 0, d = 0;

	for (uint64_t i = 0; i < n; i++)
		__cpuid_count(0, 0, a, b, c, d);
	table[2] = a + b + c + d;
}
#else
#define HAVE_TRAP 0
#endif

static int other_init(void)
{
	cycle(chase_next, CHASE_NODES, 16, 1);
	page_next = calloc((size_t)PAGE_NODES * 1024, sizeof(*page_next));
	if (!page_next)
		return -1;
	cycle(page_next, PAGE_NODES, 1024, 16);
	chase_at = 0;
	while (!chase_next[chase_at])
		chase_at++;
	page_at = 0;
	while (!page_next[page_at])
		page_at++;
	return 0;
}

typedef void (*work_fn)(uint64_t);

enum { SYS, VDSO, OLD, LINES, CALLS, BAR, LOOP, CHASE, PAGES, TRAP, NWORK };
static const work_fn work[NWORK] = {
	sys_batch, vdso_batch, old_ref, calls_lines, calls, calls_barrier, calls_loop, chase, pages,
#if HAVE_TRAP
	trap,
#endif
};
static const double target_ns[NWORK] = { 1e6,	1e6,   2.5e5, 2.5e5, 2.5e5,
					 2.5e5, 2.5e5, 2.5e5, 2.5e5, 2.5e5 };

static uint64_t iters_for(work_fn f, double ns)
{
	uint64_t n = 16;

	for (;;) {
		uint64_t t0 = ukb_now_ns(), t;

		f(n);
		t = ukb_now_ns() - t0;
		if ((double)t >= ns / 4 || n >= (1ull << 32))
			return (uint64_t)ceil((double)n * ns / (double)(t ? t : 1));
		n *= 2;
	}
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* slope through the mean of y on x, and the SD of what it leaves */
static void fit(const double *y, const double *x, size_t n, double *slope, double *left)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i] / (double)n;
		my += y[i] / (double)n;
	}
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	*slope = sxx > 0 ? sxy / sxx : 0;
	for (size_t i = 0; i < n; i++) {
		double r = (y[i] - my) - *slope * (x[i] - mx);

		ss += r * r;
	}
	*left = n > 2 ? sqrt(ss / (double)(n - 2)) : NAN;
}

static double sd(const double *v, size_t n)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

/* medians (logs) of each work over @secs of rounds, into @out */
static int medians(const uint64_t *iters, double secs, double *out)
{
	uint64_t end = ukb_now_ns() + (uint64_t)(secs * 1e9);
	size_t n = 0, cap = 4096;
	double *v[NWORK];
	int k;

	for (k = 0; k < NWORK; k++)
		if (!(v[k] = malloc(cap * sizeof(double))))
			break;
	if (k < NWORK) {
		while (k--)
			free(v[k]);
		return -1;
	}
	do {
		for (k = 0; k < NWORK; k++) {
			uint64_t t0 = ukb_now_ns();

			if (!work[k]) {
				v[k][n] = 1;
				continue;
			}
			work[k](iters[k]);
			v[k][n] = (double)(ukb_now_ns() - t0) / (double)iters[k];
		}
		n++;
	} while (ukb_now_ns() < end && n < cap);
	for (k = 0; k < NWORK; k++) {
		qsort(v[k], n, sizeof(double), cmp_dbl);
		out[k] = log(n % 2 ? v[k][n / 2] : (v[k][n / 2 - 1] + v[k][n / 2]) / 2);
		free(v[k]);
	}
	return 0;
}

/* one table: how far each path moved over the @n rows of @med, what each of @ref left */
static void table_of(double (*med)[NWORK], size_t n, const int *ref, const char *const *rname,
		     int nref)
{
	static const char *const name[] = { "getppid() system call", "clock_gettime() vDSO" };
	double *x[NWORK], *y = malloc(n * sizeof(double));
	int k;

	for (k = 0; k < nref; k++)
		if (!(x[k] = malloc(n * sizeof(double))))
			break;
	if (k < nref || !y) {
		while (k--)
			free(x[k]);
		free(y);
		return;
	}
	for (size_t w = 0; w < n; w++)
		for (k = 0; k < nref; k++)
			x[k][w] = med[w][ref[k]];
	printf("%-22s %7s ", "", "moved");
	for (k = 0; k < nref; k++)
		printf(" %-15s", rname[k]);
	printf("\n%-22s %7s ", "path", "(SD)");
	for (k = 0; k < nref; k++)
		printf(" %6s %8s", "slope", "left");
	printf("\n");
	for (int p = 0; p < 2; p++) {
		printf("%-22s", name[p]);
		for (size_t w = 0; w < n; w++)
			y[w] = med[w][p == 0 ? SYS : VDSO];
		printf(" %6.2f%% ", 100 * sd(y, n));
		for (k = 0; k < nref; k++) {
			double sl, left;

			fit(y, x[k], n, &sl, &left);
			printf(" %6.2f %7.2f%%", sl, 100 * left);
		}
		printf("\n");
	}
	printf("moved (SD):");
	for (k = 0; k < nref; k++)
		printf("%s %s %.2f%%", k ? "," : "", rname[k], 100 * sd(x[k], n));
	printf("\n");
	for (k = 0; k < nref; k++)
		free(x[k]);
	free(y);
}

/* how far each path moved over the @n rows of @med, what each reference left */
static void report(double (*med)[NWORK], size_t n, const char *what)
{
	static const char *const rname[] = { "previous",      "calls,lines", "calls",
					     "calls+barrier", "calls+loop",  "chase 64K",
					     "pages 2M",      "cpuid trap" };
	static const int ref[] = { OLD, LINES, CALLS, BAR, LOOP, CHASE, PAGES, TRAP };

	printf("between %zu %s\n", n, what);
	table_of(med, n, ref, rname, 5);
	printf("other work, not the reference:\n");
	table_of(med, n, ref + 5, rname + 5, HAVE_TRAP ? 3 : 2);
}

/* what the columns are, under the tables */
static void legend(void)
{
	printf("ukbench times calls+loop (the packed chain, then 40 dependent additions) beside "
	       "system calls, calls+barrier beside vDSO calls, calls (packed) beside other "
	       "paths; calls,lines is the chain with every function on a 64-byte line\n");
}

static void calibrate(uint64_t *iters)
{
	for (int k = 0; k < NWORK; k++)
		iters[k] = work[k] ? iters_for(work[k], target_ns[k]) : 1;
}

/* one fresh process (exec'd, so laid out anew) measuring @secs: its medians */
static int one_process(const char *self, const char *secs, double *out)
{
	int fd[2], st, ok = 0;
	pid_t pid;
	FILE *f;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(self, self, "--one", secs, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (f) {
		ok = 1;
		for (int k = 0; k < NWORK && ok; k++)
			ok = fscanf(f, "%lf", &out[k]) == 1 && isfinite(out[k]);
		fclose(f);
	} else {
		close(fd[0]);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		ok = 0;
	return ok ? 0 : -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: ref-drift [SECONDS [WINDOW]]: three windows at least\n"
			"       ref-drift --processes N [SECONDS]: N >= 10 processes of SECONDS "
			"(default 1.5)\n");
	return 2;
}

/* @np fresh processes of @secs each, one after another; then by groups of five */
static int processes(const char *np, const char *secs)
{
	char *end;
	long n = strtol(np, &end, 10);
	double s = atof(secs);
	size_t g = 0, got = 0;
	double(*med)[NWORK], (*grp)[NWORK];

	if (*end || n < 10 || n > 100000 || !(s > 0))
		return usage();
	med = calloc((size_t)n, sizeof(*med));
	grp = calloc((size_t)n / 5 + 1, sizeof(*grp));
	if (!med || !grp) {
		free(med);
		free(grp);
		return 1;
	}
	printf("ref-drift: %ld fresh processes of %g s, each the medians of its 1 ms batches "
	       "(the references 250 us)\n",
	       n, s);
	fflush(stdout);
	for (long i = 0; i < n; i++)
		if (!one_process("/proc/self/exe", secs, med[got]))
			got++;
	if (got < (size_t)n)
		printf("%zu of %ld processes failed and are left out\n", (size_t)n - got, n);
	for (size_t i = 0; i + 5 <= got; i += 5, g++)
		for (int k = 0; k < NWORK; k++) {
			for (size_t j = 0; j < 5; j++)
				grp[g][k] += med[i + j][k] / 5;
		}
	if (got >= 3)
		report(med, got, "processes");
	if (g >= 3)
		report(grp, g, "groups of five processes (the means of their logs)");
	legend();
	free(med);
	free(grp);
	return got >= 3 ? 0 : 1;
}

int main(int argc, char **argv)
{
	uint64_t iters[NWORK];
	double(*med)[NWORK], secs, win;
	size_t nwin;

	if (other_init())
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--one")) {
		double out[NWORK];

		calibrate(iters);
		if (medians(iters, atof(argv[2]), out))
			return 1;
		for (int k = 0; k < NWORK; k++)
			printf("%.9g\n", out[k]);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--processes"))
		return argc == 3 || argc == 4 ? processes(argv[2], argc == 4 ? argv[3] : "1.5")
					      : usage();
	secs = argc > 1 ? atof(argv[1]) : 120;
	win = argc > 2 ? atof(argv[2]) : 10;
	nwin = secs > 0 && win > 0 ? (size_t)(secs / win + 1e-9) : 0;
	if (nwin < 3 || argc > 3)
		return usage();
	med = calloc(nwin, sizeof(*med));
	if (!med)
		return 1;
	calibrate(iters);
	printf("ref-drift: %.0f s in %zu windows of %.0f s, medians of 1 ms batches (the "
	       "references 250 us)\n",
	       secs, nwin, win);
	fflush(stdout);
	for (size_t w = 0; w < nwin; w++)
		if (medians(iters, win, med[w])) {
			free(med);
			return 1;
		}
	report(med, nwin, "windows");
	legend();
	free(med);
	return 0;
}
