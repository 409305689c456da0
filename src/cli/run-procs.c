// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-procs.c - `run --runs N`: the same measurement in N fresh processes.
 *
 * One process's batches share its address-space layout, its page
 * placement and its cache colouring, so their spread understates what a
 * second boot or a second binary would see: between-process variance is
 * often larger than the within-process CI (the vDSO's own data page
 * placement, ASLR, which physical pages back the buffers). Each process
 * here is this program executed anew (/proc/self/exe), with the same
 * settings, writing its JSON to a temporary file; the parent merges the
 * results: samples concatenated, each process's mean kept, the CI taken
 * over the process means.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "run-procs.h"

/* The argument vector of one child: `run` with the parent's settings. */
static char **child_argv(const struct ukb_measure_opts *m, const struct select_opts *sel,
			 const char *json, char **patterns, int npatterns, char (*num)[256])
{
	char **argv = calloc((size_t)npatterns + 32, sizeof(*argv));
	int a = 0, k = 0;

	if (!argv)
		return NULL;
	argv[a++] = "ukbench";
	argv[a++] = "run";
	argv[a++] = "--no-store";
	argv[a++] = "--quiet";
	argv[a++] = "--json";
	argv[a++] = (char *)json;
#define OPT(name, fmt, v)                                                                          \
	do {                                                                                       \
		snprintf(num[k], sizeof(num[k]), fmt, v);                                          \
		argv[a++] = name;                                                                  \
		argv[a++] = num[k++];                                                              \
	} while (0)
	OPT("--precision", "%.17g", 100 * m->precision);
	OPT("--budget", "%.17g", m->budget_s);
	OPT("--warmup", "%.17g", m->warmup_s);
	OPT("--min-samples", "%u", m->min_samples);
	OPT("--max-samples", "%u", m->max_samples);
	if (m->batch_ns > 0)
		OPT("--batch", "%.17g", m->batch_ns / 1000);
	if (m->cpu != UKB_CPU_ANY)
		OPT("--cpu", "%u", m->cpu);
	if (sel->threads)
		OPT("--threads", "%u", sel->threads);
	if (sel->flags) {
		argv[a++] = "--flags";
		argv[a++] = (char *)sel->flags;
	}
	if (sel->params) {
		argv[a++] = "-P";
		argv[a++] = (char *)sel->params;
	}
	if (m->nevents) {
		size_t o = 0;

		num[k][0] = 0;
		for (unsigned i = 0; i < m->nevents && o < sizeof(num[k]) - 1; i++)
			o += (size_t)snprintf(num[k] + o, sizeof(num[k]) - o, "%s%s", i ? "," : "",
					      m->events[i].name);
		argv[a++] = "--events";
		argv[a++] = num[k++];
	}
	if (sel->sizes) {
		size_t o = 0;

		num[k][0] = 0;
		for (const long *s = sel->sizes; *s && o < sizeof(num[k]) - 1; s++)
			o += (size_t)snprintf(num[k] + o, sizeof(num[k]) - o, "%s%ld",
					      s == sel->sizes ? "" : ",", *s);
		argv[a++] = "--size";
		argv[a++] = num[k++];
	}
#undef OPT
	argv[a++] = "--";
	for (int i = 0; i < npatterns; i++)
		argv[a++] = patterns[i];
	argv[a] = NULL;
	return argv;
}

/* Adds one process's results to the merged run. */
static int merge(struct rec_run *run, struct rec_run *one)
{
	for (size_t i = 0; i < one->nresults; i++) {
		struct rec_result *s = &one->results[i], *d = NULL;
		double *p;

		for (size_t k = 0; k < run->nresults && !d; k++)
			if (!strcmp(run->results[k].name, s->name) &&
			    !strcmp(run->results[k].path, s->path))
				d = &run->results[k];
		if (!d) {
			d = rec_add_result(run);
			if (!d)
				return -ENOMEM;
			*d = *s;
			d->samples = NULL;
			d->nsamples = 0;
			d->proc_means = NULL;
			d->nproc = 0;
		}
		if (s->status != UKB_OK || d->status != UKB_OK) {
			/* one process that could not measure makes the path fail */
			if (s->status != UKB_OK && d->status == UKB_OK) {
				d->status = s->status;
				d->err = s->err;
				snprintf(d->reason, sizeof(d->reason), "%s", s->reason);
			}
			continue;
		}
		p = realloc(d->samples, (d->nsamples + s->nsamples) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memcpy(p + d->nsamples, s->samples, s->nsamples * sizeof(*p));
		d->samples = p;
		d->nsamples += s->nsamples;
		p = realloc(d->proc_means, (d->nproc + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		d->proc_means = p;
		d->proc_means[d->nproc++] = s->stats.mean;
		d->measure_s += s->measure_s;
		d->converged = d->converged && s->converged;
	}
	return 0;
}

int run_in_processes(const struct ukb_measure_opts *m, const struct select_opts *sel,
		     char **patterns, int npatterns, unsigned nproc, struct rec_run *run,
		     volatile sig_atomic_t *stop, int progress)
{
	char tmp[PATH_MAX], num[16][256], err[1024];
	int ret = 0;

	for (unsigned i = 0; i < nproc && !*stop && !ret; i++) {
		struct rec_run one;
		char **argv;
		size_t len;
		char *text;
		int fd, status;
		pid_t pid;

		tmp_template(tmp, sizeof(tmp), "ukbench-proc");
		fd = mkstemp(tmp);
		if (fd < 0) {
			error("cannot create a temporary file: %s", strerror(errno));
			return -1;
		}
		close(fd);
		argv = child_argv(m, sel, tmp, patterns, npatterns, num);
		if (progress)
			fprintf(stderr, "\r\033[Kprocess %u/%u", i + 1, nproc);
		pid = argv ? fork() : -1;
		if (pid == 0) {
			execv("/proc/self/exe", argv);
			fprintf(stderr, "error: cannot execute /proc/self/exe: %s\n",
				strerror(errno));
			_exit(127);
		}
		free(argv);
		if (pid < 0) {
			error("cannot start process %u of %u: %s", i + 1, nproc, strerror(errno));
			unlink(tmp);
			return -1;
		}
		/* Ctrl-C reaches the child too (same process group); wait for it */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) && WEXITSTATUS(status) >= 128) {
			unlink(tmp);
			break; /* the child was interrupted: so are we */
		}
		if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1)) {
			error("process %u of %u failed (%s %d)", i + 1, nproc,
			      WIFEXITED(status) ? "exit status" : "signal",
			      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			unlink(tmp);
			return -1;
		}
		text = read_file(tmp, &len, err, sizeof(err));
		unlink(tmp);
		if (!text || rec_from_json_text(&one, text, len, tmp, err, sizeof(err))) {
			error("process %u of %u: %s", i + 1, nproc, err);
			free(text);
			return -1;
		}
		free(text);
		ret = merge(run, &one);
		rec_run_release(&one);
	}
	if (progress)
		fputs("\r\033[K", stderr);
	for (size_t k = 0; k < run->nresults; k++)
		if (run->results[k].status == UKB_OK)
			rec_result_restat(&run->results[k]);
	if (ret)
		error("out of memory");
	return ret ? -1 : 0;
}
