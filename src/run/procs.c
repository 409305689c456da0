// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procs.c - run_procs(): a plan measured in fresh processes of a worker.
 *
 * One process's batches share its address-space layout, its page
 * placement and its cache colouring, so their spread understates what a
 * second process or a second boot sees: between-process variance is often
 * larger than the within-process CI. Each process here is a worker (this
 * program run anew as `ukbench worker`, or the 32-bit helper) given the
 * plan as its arguments; it answers in the run JSON on a pipe. The results
 * are merged: samples pooled, each process's mean kept, the CI then taken
 * over the process means (record.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "runner.h"

/* What one worker process gave. */
struct child {
	pid_t pid;
	int exec_err; /* errno of a failed exec, else 0 */
	int status;   /* from waitpid */
	char *out;    /* its standard output */
	size_t len;
	int killed; /* by the deadline */
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * Reads all of @fd; asks the child to stop when @stop is set, and kills
 * it, all it started with it, at @deadline (now_s(); 0: none): a worker
 * whose own time limits could not end a path (a plug-in that blocks
 * SIGALRM) ends here.
 */
static int read_all(int fd, struct child *c, const struct run_ctl *ctl, double deadline)
{
	volatile sig_atomic_t *stop = ctl->stop;
	size_t cap = 0;
	int asked = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		/* the worker and all it started (hackbench's tasks) stop now */
		if (stop && *stop && !asked) {
			kill(-c->pid, SIGTERM);
			asked = 1;
		}
		if (c->len + 65536 > cap) {
			char *b = realloc(c->out, cap = cap ? 2 * cap : 1 << 20);

			if (!b)
				return -ENOMEM;
			c->out = b;
		}
		if (deadline > 0 && !c->killed && now_s() > deadline) {
			kill(-c->pid, SIGKILL);
			c->killed = 1;
		}
		/* a worker answers at its end: meanwhile the front end's clock moves */
		if ((ctl->tick || deadline > 0) && poll(&p, 1, 250) == 0) {
			if (ctl->tick)
				ctl->tick(ctl->arg);
			continue;
		}
		n = read(fd, c->out + c->len, cap - c->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		c->len += (size_t)n;
	}
	c->out[c->len] = 0;
	return 0;
}

/* Starts @exe with @argv, collects its output and status. 0 or -errno. */
static int spawn(const char *exe, char **argv, struct child *c, const struct run_ctl *ctl,
		 double deadline)
{
	int out[2], efd[2], err;

	memset(c, 0, sizeof(*c));
	if (pipe2(out, O_CLOEXEC))
		return -errno;
	/* the child's exec error comes back here; a successful exec closes it */
	if (pipe2(efd, O_CLOEXEC)) {
		err = -errno;
		close(out[0]);
		close(out[1]);
		return err;
	}
	c->pid = fork();
	if (c->pid == 0) {
		/*
		 * A group of its own, which a stop reaches whole; and it ends
		 * with this process, should this one be killed outright.
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(out[1], STDOUT_FILENO);
		execv(exe, argv);
		err = errno;
		if (write(efd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	err = c->pid < 0 ? -errno : 0;
	if (c->pid > 0)
		setpgid(c->pid, c->pid); /* as the child does: whichever runs first */
	close(out[1]);
	close(efd[1]);
	if (!err && read(efd[0], &c->exec_err, sizeof(c->exec_err)) != sizeof(c->exec_err))
		c->exec_err = 0;
	close(efd[0]);
	if (!err && !c->exec_err)
		err = read_all(out[0], c, ctl, deadline);
	close(out[0]);
	while (c->pid > 0 && waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	return err;
}

/* A counter of a later process added to the same counter of the first. */
static int merge_counter(struct rec_counter *d, const struct rec_counter *s)
{
	if (strcmp(d->status, "ok") || strcmp(s->status, "ok"))
		return 0;
	/* per call: weighted by the samples each process took */
	if (d->n + s->n)
		d->per_call = (d->per_call * (double)d->n + s->per_call * (double)s->n) /
			      (double)(d->n + s->n);
	d->total += s->total;
	return rec_append_numbers(&d->per_sample, &d->n, s->per_sample, s->n);
}

/* The mean of the figure's reference batches of @s and its SE (NAN: none). */
static void ref_stats(const struct rec_result *s, double *mean, double *se)
{
	int skip = rec_excludes_disturbed(s);
	double sum = 0, sq = 0;
	size_t n = 0;

	for (size_t i = 0; s->ref_samples && i < s->nsamples; i++)
		if (isfinite(s->ref_samples[i]) && !(skip && s->disturbed[i])) {
			sum += s->ref_samples[i];
			sq += s->ref_samples[i] * s->ref_samples[i];
			n++;
		}
	*mean = n ? sum / (double)n : NAN;
	*se = n > 1 ? sqrt((sq - sum * sum / (double)n) / (double)(n - 1) / (double)n) : NAN;
}

/* Adds one process's results to @m: samples pooled, its mean and SE kept. */
static int merge(struct rec_run *m, struct rec_run *one)
{
	for (size_t i = 0; i < one->nresults; i++) {
		struct rec_result *s = &one->results[i], *d = NULL;
		double mean = s->stats.mean, se = s->stats.stddev / sqrt((double)s->stats.n);
		double ref, ref_se;
		size_t nse, nref;

		/*
		 * A process that had fewer than two batches of its path run
		 * undisturbed (under heavy load, a short one) has only the
		 * time the thread did not run to show: its batches are kept,
		 * marked, and it gives no process mean.
		 */
		int gives = !rec_wholly_disturbed(s);

		ref_stats(s, &ref, &ref_se);
		for (size_t k = 0; k < m->nresults && !d; k++)
			if (!strcmp(m->results[k].name, s->name) &&
			    !strcmp(m->results[k].path, s->path))
				d = &m->results[k];
		if (!d) {
			d = rec_take_result(m, s);
			if (!d)
				return -ENOMEM;
			free(d->proc_means);
			free(d->proc_se);
			free(d->proc_ref);
			d->proc_means = d->proc_se = d->proc_ref = NULL;
			d->nproc = nse = nref = 0;
			if (d->status == UKB_OK && gives &&
			    (rec_append_numbers(&d->proc_means, &d->nproc, &mean, 1) ||
			     rec_append_numbers(&d->proc_se, &nse, &se, 1) ||
			     rec_append_numbers(&d->proc_ref, &nref, &ref, 1)))
				return -ENOMEM;
			continue;
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
		nse = nref = d->nproc;
		if (rec_append_samples(d, s) ||
		    (gives && (rec_append_numbers(&d->proc_se, &nse, &se, 1) ||
			       rec_append_numbers(&d->proc_ref, &nref, &ref, 1) ||
			       rec_append_numbers(&d->proc_means, &d->nproc, &mean, 1))))
			return -ENOMEM;
		for (size_t k = 0; k < d->ncounters && k < s->ncounters; k++)
			if (!strcmp(d->counters[k].name, s->counters[k].name) &&
			    merge_counter(&d->counters[k], &s->counters[k]))
				return -ENOMEM;
		d->measure_s += s->measure_s;
		d->converged = d->converged && s->converged;
	}
	return 0;
}

/* Every case a row that says why the worker could not run. */
static int add_unavailable(const struct run_plan *p, const struct worker *w, int err,
			   struct rec_run *run, const unsigned char *shown)
{
	for (size_t i = 0; i < p->ncases; i++) {
		struct rec_result *r;

		if (shown && shown[i])
			continue; /* delivered already, from processes that ran */
		r = rec_add_result(run);
		if (!r)
			return -ENOMEM;
		snprintf(r->name, sizeof(r->name), "%s", p->cases[i].name);
		snprintf(r->benchmark, sizeof(r->benchmark), "%s", p->cases[i].bench->name);
		snprintf(r->path, sizeof(r->path), "%s%s", p->cases[i].path->name, w->suffix);
		snprintf(r->unit, sizeof(r->unit), "call");
		r->status = UKB_UNSUPPORTED;
		r->err = err;
		if (err == ENOEXEC)
			snprintf(r->reason, sizeof(r->reason),
				 "this kernel cannot run %s (Exec format error)",
				 *w->suffix ? "32-bit programs" : "the worker");
		else
			snprintf(r->reason, sizeof(r->reason), "cannot run '%s': %s", w->exe,
				 strerror(err));
	}
	return 0;
}

/* The merged result of case @c, or NULL. */
static struct rec_result *merged(struct rec_run *m, const struct ukb_case *c)
{
	for (size_t i = 0; i < m->nresults; i++)
		if (!strcmp(m->results[i].name, c->name) &&
		    !strcmp(m->results[i].path, c->path->name) && m->results[i].name[0])
			return &m->results[i];
	return NULL;
}

/*
 * Moves the merged results of cases [@from, @to) into @run in the plan's
 * order (each process took its own), named and described for @w; a case
 * moved before is passed over. A figure is converged when the CI over its
 * processes is within the precision target.
 */
/*
 * The row of a case no process reached (each ended earlier in its order:
 * a benchmark's code called exit()), added to @m; NULL without memory.
 */
static struct rec_result *never_reached(struct rec_run *m, const struct ukb_case *c)
{
	struct rec_result *r = rec_add_result(m);

	if (!r)
		return NULL;
	snprintf(r->name, sizeof(r->name), "%s", c->name);
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", c->bench->name);
	snprintf(r->path, sizeof(r->path), "%s", c->path->name);
	snprintf(r->unit, sizeof(r->unit), "%s", c->bench->unit ? c->bench->unit : "call");
	r->status = UKB_ERROR;
	snprintf(r->reason, sizeof(r->reason),
		 "not measured: every process ended before it reached this path");
	return r;
}

static size_t plan_index(const struct run_plan *p, const struct worker *w,
			 const struct rec_result *r);

/* Has case @i of @p (through @w) a row in @run already? */
static int in_run(const struct rec_run *run, const struct run_plan *p, const struct worker *w,
		  size_t i)
{
	for (size_t k = 0; k < run->nresults; k++)
		if (plan_index(p, w, &run->results[k]) == i)
			return 1;
	return 0;
}

static int deliver(struct rec_run *m, const struct run_plan *p, const struct worker *w,
		   struct rec_run *run, const struct run_ctl *ctl, size_t from, size_t to)
{
	for (size_t i = from; i < to && i < p->ncases; i++) {
		struct rec_result *r = merged(m, &p->cases[i]);

		if (!r && !(ctl->stop && *ctl->stop) && !in_run(run, p, w, i))
			r = never_reached(m, &p->cases[i]);
		if (!r)
			continue;
		if (r->nproc < 2) {
			free(r->proc_means);
			free(r->proc_se);
			free(r->proc_ref);
			r->proc_means = r->proc_se = r->proc_ref = NULL;
			r->nproc = 0;
		}
		if (r->status == UKB_OK) {
			rec_result_restat(r);
			if (r->nproc >= 2)
				r->converged = r->stats.ci95_rel <= p->m.precision;
		}
		if (*w->suffix)
			strncat(r->path, w->suffix, sizeof(r->path) - strlen(r->path) - 1);
		if (w->detail)
			snprintf(r->detail, sizeof(r->detail), "%s", w->detail);
		if (!rec_take_result(run, r))
			return -ENOMEM;
		if (ctl->on_result)
			ctl->on_result(ctl->arg, run, run->nresults - 1);
	}
	return 0;
}

/*
 * One process of @w measuring @q: *@one gets what it gave (the caller
 * merges and releases it), *@wall_s how long it took. 0; 1 when it was
 * interrupted (what it finished is in *@one); 2 when the worker cannot be
 * executed at all (*@exec_err); -1 with @err.
 */
static int one_process(const struct run_plan *q, const struct worker *w, unsigned i, unsigned n,
		       struct rec_run *one, double *wall_s, int *exec_err,
		       const struct run_ctl *ctl, char *err, size_t errlen)
{
	struct timespec t0, t1;
	struct child c;
	char why[1024], **argv;
	double limit;
	int rc, ret = 0;

	memset(one, 0, sizeof(*one));
	*wall_s = 0;
	argv = plan_argv(q, w->argv0, w->nargv0);
	if (!argv) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* each case's time limit, and the process's own start and end */
	limit = (double)q->ncases * ukb_path_limit(&q->m) + 10;
	rc = spawn(w->exe, argv, &c, ctl, now_s() + limit);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*wall_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	plan_argv_free(argv);
	if (!rc && c.exec_err) {
		free(c.out);
		*exec_err = c.exec_err;
		return 2;
	}
	if (rc) {
		snprintf(err, errlen, "process %u of %u: %s", i + 1, n, strerror(-rc));
		ret = -1;
	} else if (c.killed) {
		snprintf(err, errlen,
			 "process %u of %u did not end within %.0f s, its paths' time limits "
			 "(--timeout) and 10 s: killed",
			 i + 1, n, limit);
		ret = -1;
	} else if (ctl->stop && *ctl->stop && c.len == 0) {
		/* stopped before it could answer: the run is interrupted, not broken */
		ret = 1;
	} else if (WIFSIGNALED(c.status) ||
		   (WEXITSTATUS(c.status) != 0 && WEXITSTATUS(c.status) < 128)) {
		snprintf(err, errlen, "process %u of %u failed (%s %d)", i + 1, n,
			 WIFEXITED(c.status) ? "exit status" : "signal",
			 WIFEXITED(c.status) ? WEXITSTATUS(c.status) : WTERMSIG(c.status));
		ret = -1;
	} else if (c.len == 0) {
		/* exit() is answered for (worker.c); _exit() and exit_group() are not */
		snprintf(err, errlen,
			 "process %u of %u ended (exit status %d) without answering: a "
			 "benchmark's code ended it (_exit(), or exit() on a thread of its own)",
			 i + 1, n, WEXITSTATUS(c.status));
		ret = -1;
	} else if (rec_from_json_text(one, c.out, c.len, w->exe, why, sizeof(why))) {
		snprintf(err, errlen, "process %u of %u: %s", i + 1, n, why);
		ret = -1;
	} else if (one->interrupted) {
		/* an interrupted process still gives the paths it finished */
		ret = 1;
	}
	free(c.out);
	return ret;
}

/*
 * A worker that cannot run: every case a row that says why, but those
 * delivered already (@shown, NULL: none) when a later process could not start.
 */
static int unavailable(const struct run_plan *p, const struct worker *w, int exec_err,
		       struct rec_run *m, struct rec_run *run, const struct run_ctl *ctl,
		       const unsigned char *shown)
{
	size_t before = run->nresults;
	int rc = add_unavailable(p, w, exec_err, run, shown);

	rec_run_release(m);
	for (size_t k = before; ctl->on_result && k < run->nresults; k++)
		ctl->on_result(ctl->arg, run, k);
	return rc ? -1 : 0;
}

/* --processes N: N processes, each measuring every case for its share. */
static int run_fixed(const struct run_plan *p, const struct worker *w, struct rec_run *m,
		     struct rec_run *run, const struct run_ctl *ctl, char *err, size_t errlen)
{
	unsigned n = p->procs > 1 ? p->procs : 1;
	struct run_plan q = *p;
	int ret = 0;

	for (unsigned i = 0; i < n && !ret && !(ctl->stop && *ctl->stop); i++) {
		struct rec_run one;
		double wall;
		int exec_err = 0;

		if (ctl->begin)
			ctl->begin(ctl->arg, i, n);
		q.seed++;
		ret = one_process(&q, w, i, n, &one, &wall, &exec_err, ctl, err, errlen);
		if (ret == 2) {
			rec_run_release(&one);
			return unavailable(p, w, exec_err, m, run, ctl, NULL) ? -1 : 3;
		}
		if (ret >= 0 && merge(m, &one)) {
			snprintf(err, errlen, "out of memory");
			ret = -1;
		}
		rec_run_release(&one);
	}
	return ret;
}

/*
 * The default: pilot processes, then as many processes of t* each as the
 * budget and the precision target ask for, each measuring only the paths
 * that do not have enough yet (alloc.h).
 */
/*
 * What process @one (@wall seconds, @measured of them measuring, @k paths)
 * taught of each path not yet done: its figure added, its time spent, and
 * whether it has enough. A path absent from it is left for the next
 * process while the run is @going, three times at most.
 */
static void take_process(const struct run_plan *p, struct alloc_path *ap, unsigned char *missed,
			 const struct rec_run *one, double wall, double measured, size_t k,
			 int going)
{
	double budget = p->m.budget_s;

	for (size_t c = 0; c < p->ncases; c++) {
		const struct rec_result *x = NULL;
		double ref, ref_se;

		if (ap[c].done)
			continue;
		for (size_t r = 0; r < one->nresults && !x; r++)
			if (!strcmp(one->results[r].name, p->cases[c].name) &&
			    !strcmp(one->results[r].path, p->cases[c].path->name))
				x = &one->results[r];
		/*
		 * absent: the process ended before it (a benchmark's code
		 * called exit() earlier in its order); the next process,
		 * without that path, measures it; three times absent is done
		 */
		if (!x && going && ++missed[c] < 3)
			continue;
		if (!x || x->status != UKB_OK || !x->stats.n) {
			/* not available, failed or stopped: nothing more to learn */
			ap[c].done = 1;
			continue;
		}
		if (!rec_wholly_disturbed(x)) {
			ref_stats(x, &ref, &ref_se);
			alloc_add(&ap[c], x->stats.mean, x->stats.stddev / sqrt((double)x->stats.n),
				  ref, ref_se, x->measure_s);
		}
		ap[c].spent_s += x->measure_s + wall / (double)k - measured / (double)k;
		ap[c].done = alloc_enough(&ap[c], p->m.precision, budget);
	}
}

static int run_auto(const struct run_plan *p, const struct worker *w, struct rec_run *m,
		    struct rec_run *run, const struct run_ctl *ctl, char *err, size_t errlen)
{
	struct alloc_path *ap = calloc(p->ncases + 1, sizeof(*ap));
	struct ukb_case *sub = calloc(p->ncases + 1, sizeof(*sub));
	unsigned char *shown = calloc(p->ncases + 1, 1);
	unsigned char *missed = calloc(p->ncases + 1, 1);
	double budget = p->m.budget_s, t, overhead = 0;
	struct run_plan q = *p;
	unsigned i = 0, guess;
	int ret = 0;

	if (!ap || !sub || !shown || !missed) {
		free(ap);
		free(sub);
		free(shown);
		free(missed);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the pilots: a tenth of the budget each, 10 ms to 0.1 s */
	t = budget / 10 < ALLOC_T_MIN ? ALLOC_T_MIN : budget / 10 > 0.1 ? 0.1 : budget / 10;
	guess = (unsigned)(budget / (t + 0.01)) + 1;
	while (!ret && !(ctl->stop && *ctl->stop) && i < 1000) {
		struct rec_run one;
		double wall = 0, measured = 0;
		size_t k = 0;
		int exec_err = 0;

		for (size_t c = 0; c < p->ncases; c++)
			if (!ap[c].done)
				sub[k++] = p->cases[c];
		if (!k)
			break;
		q.cases = sub;
		q.ncases = k;
		q.seed++;
		q.m.budget_s = q.m.min_time_s = t;
		if (ctl->begin)
			ctl->begin(ctl->arg, i, guess > i ? guess : i + 1);
		ret = one_process(&q, w, i, guess > i ? guess : i + 1, &one, &wall, &exec_err, ctl,
				  err, errlen);
		if (ret == 2) {
			rec_run_release(&one);
			ret = unavailable(p, w, exec_err, m, run, ctl, shown) ? -1 : 3;
			free(ap);
			free(sub);
			free(shown);
			free(missed);
			return ret;
		}
		for (size_t r = 0; r < one.nresults; r++)
			measured += one.results[r].measure_s;
		/* what a process costs a path beyond measuring it, averaged */
		overhead = (overhead * i + (wall > measured ? (wall - measured) / (double)k : 0)) /
			   (i + 1);
		take_process(p, ap, missed, &one, wall, measured, k,
			     ret >= 0 && !(ctl->stop && *ctl->stop));
		if (ret >= 0 && merge(m, &one)) {
			snprintf(err, errlen, "out of memory");
			ret = -1;
		}
		rec_run_release(&one);
		/*
		 * the paths that have enough are shown now, in the plan's order
		 * (a table grouped as every other one), each once every path
		 * before it has enough too: no later process measures them
		 */
		for (size_t c = 0; ret == 0 && c < p->ncases && ap[c].done; c++) {
			if (shown[c])
				continue;
			shown[c] = 1;
			if (deliver(m, p, w, run, ctl, c, c + 1)) {
				snprintf(err, errlen, "out of memory");
				ret = -1;
			}
		}
		if (++i >= ALLOC_PILOT) {
			/*
			 * every further process: the time that makes the interval
			 * least, estimated again from every process so far (four
			 * pilots alone can take one disturbed process for a spread)
			 */
			t = alloc_process_time(ap, p->ncases, overhead,
					       budget / ALLOC_MIN_PROCS < ALLOC_T_MAX
						   ? budget / ALLOC_MIN_PROCS
						   : ALLOC_T_MAX);
			if (i == ALLOC_PILOT)
				guess =
				    i + (unsigned)((budget - t * ALLOC_PILOT) / (t + overhead)) + 1;
		}
	}
	free(ap);
	free(sub);
	free(shown);
	free(missed);
	return ret;
}

/* The position in @p's plan of result @r of worker @w; p->ncases if none. */
static size_t plan_index(const struct run_plan *p, const struct worker *w,
			 const struct rec_result *r)
{
	for (size_t i = 0; i < p->ncases; i++) {
		size_t n = strlen(p->cases[i].path->name);

		if (!strcmp(r->name, p->cases[i].name) &&
		    !strncmp(r->path, p->cases[i].path->name, n) && !strcmp(r->path + n, w->suffix))
			return i;
	}
	return p->ncases;
}

/*
 * Results [@from, run->nresults) into the plan's order, as they were shown
 * in the order they ended: insertion sort, stable (a few hundred at most).
 */
static void plan_order(struct rec_run *run, size_t from, const struct run_plan *p,
		       const struct worker *w)
{
	for (size_t i = from + 1; i < run->nresults; i++) {
		struct rec_result x = run->results[i];
		size_t k = plan_index(p, w, &x), j = i;

		while (j > from && plan_index(p, w, &run->results[j - 1]) > k) {
			run->results[j] = run->results[j - 1];
			j--;
		}
		run->results[j] = x;
	}
}

int run_procs(const struct run_plan *p, const struct worker *w, struct rec_run *run,
	      const struct run_ctl *ctl, char *err, size_t errlen)
{
	struct rec_run m = { 0 };
	struct run_plan q = *p;
	size_t from = run->nresults;
	int ret;

	/* each process takes the paths in its own order */
	q.seed = p->seed ? p->seed : (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	ret = p->procs ? run_fixed(&q, w, &m, run, ctl, err, errlen)
		       : run_auto(&q, w, &m, run, ctl, err, errlen);
	if (ret == 3) {
		/* the worker could not run: every case says why */
		plan_order(run, from, p, w);
		return 0;
	}
	if (ret >= 0 && deliver(&m, p, w, run, ctl, 0, p->ncases)) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	plan_order(run, from, p, w);
	rec_run_release(&m);
	if (!ret && ctl->stop && *ctl->stop)
		ret = 1;
	return ret;
}
