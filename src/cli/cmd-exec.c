// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-exec.c - `ukbench exec [-r N] [--] COMMAND [ARGS...]`: any command,
 * repeated (src/run/exec.c runs it), with wall, user and system time, peak
 * memory, exit status and perf counters, each with mean, stddev, 95% CI,
 * min, median and max. Runs are stored and compared like benchmarks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "spool-push.h"
#include "cmp-table.h"
#include "clock.h"
#include "events.h"
#include "width.h"
#include "counters.h"
#include "comparison.h"
#include "exec.h"
#include "describe.h"
#include "json-write.h"
#include "kcidb-opts.h"
#include "options.h"
#include "outfile.h"
#include "output.h"
#include "progress.h"
#include "record.h"
#include "runner.h"
#include "runref.h"
#include "stats.h"
#include "store.h"

enum {
	O_EVENTS = 1,
	O_NO_COUNTERS,
	O_CMD,
	O_PREPARE,
	O_CLEANUP,
	O_NAME,
	O_SCAN,
};

#define MAX_CMDS 16

struct exec_opts {
	unsigned long repeat, warmup;
	double timeout_s;
	int allow_failure, no_store, counters;
	const char *label, *db, *json;
	enum out_format format;
	struct kcidb_ids kcidb;
	enum color_when color;
	struct ukb_event ev[UKB_MAX_COUNTERS];
	unsigned nev;
	const char *cmds[MAX_CMDS];  /* -c */
	const char *names[MAX_CMDS]; /* --command-name */
	unsigned nnames;
	const char *prepare, *cleanup;
	/* -L NAME=V1,V2,...: the commands it makes, each by the shell, and their names */
	const char *scan;
	char scan_cmds[MAX_CMDS][1024], scan_names[MAX_CMDS][100];
	unsigned ncmds;
	/*
	 * Where the figures for people go: standard output, or standard error
	 * when standard output carries the run for a program (-j -, --format
	 * json): what a machine reads holds nothing else. @wide: --wide.
	 */
	FILE *out;
	int wide, quiet;
};

static const struct opt exec_opts_table[] = {
	OPT_ULONG("repeat", 'r', "N",
		  "measured repetitions, each a fresh process of the\ncommand "
		  "(default 10), as perf stat -r",
		  1, 1000000, struct exec_opts, repeat),
	OPT_ULONG("warmup-runs", 0, "N", "runs first, not measured", 0, 1000000, struct exec_opts,
		  warmup, OPT_DEF("1")),
	OPT_CALL("events", 'e', "LIST", "counters by perf's names instead of the default set",
		 O_EVENTS),
	OPT_CALL("no-counters", 0, NULL, "no perf counters", O_NO_COUNTERS),
	OPT_DOUBLE("timeout", 0, "SEC", "end a run that takes longer (SIGTERM, then SIGKILL)",
		   0.001, 1e6, struct exec_opts, timeout_s),
	OPT_BOOL("allow-failure", 0, "a non-zero exit status does not fail the run",
		 struct exec_opts, allow_failure),
	OPT_STRING("label", 'l', "NAME", "label the run in the store", struct exec_opts, label),
	OPT_STRING("db", 0, "PATH", "the results database", struct exec_opts, db),
	OPT_BOOL("no-store", 0, "do not store the run", struct exec_opts, no_store),
	OPT_BOOL("quiet", 'q', "print no table and no progress, only errors", struct exec_opts,
		 quiet),
	OPT_STRING("json", 'j', "FILE", "write the run as JSON ('-': standard output)",
		   struct exec_opts, json),
	OPT_CHOICE(
	    "format", 'f', OUT_FORMATS,
	    "print the run as a table (default), or in a machine's\nformat on standard output, "
	    "the table then on standard\nerror",
	    struct exec_opts, format),
	KCIDB_OPTS(struct exec_opts, kcidb),
	OPT_BOOL("wide", 'W', "each figure and its spread on one line, however wide",
		 struct exec_opts, wide),
	OPT_CHOICE(
	    "color", 0, COLOR_WHEN,
	    "colour the verdicts: auto (a terminal, unless NO_COLOR\nis set), always or never",
	    struct exec_opts, color),
	OPT_CALL(
	    "cmd", 'c', "COMMAND",
	    "a shell command to measure (sh -c); given two or more\ntimes, they run interleaved in "
	    "a shuffled order\nand each is compared with the first",
	    O_CMD),
	OPT_CALL("prepare", 0, "CMD",
		 "a shell command run before every run (warm-ups too),\nnot measured: drop caches, "
		 "reset a device",
		 O_PREPARE),
	OPT_CALL("cleanup", 0, "CMD", "a shell command run once after the runs of each command",
		 O_CLEANUP),
	OPT_CALL(
	    "parameter-list", 'L', "NAME=V1,V2,...",
	    "one command a value, {NAME} in the command replaced\nby it; they run interleaved and "
	    "are compared with the\nfirst (exec -L g=1,2,4 -- hackbench -g {g})",
	    O_SCAN),
	OPT_CALL("command-name", 0, "NAME",
		 "name the command (once for each -c, in order): the\nresult is exec.NAME, as "
		 "history and compare know it",
		 O_NAME),
	OPT_END,
};

const struct command cmd_exec_def = {
	.name = "exec",
	.fn = cmd_exec,
	.summary = "run any command N times: times, memory, counters, CIs",
	.synopsis = "[options] [--] COMMAND [ARGS...]\n"
		    "   or: ukbench exec [options] -c CMD -c CMD...",
	.about = "Runs COMMAND N times and reports, each with mean ± 95% CI, stddev, min,\n"
		 "median and max: wall, user and system time, peak memory (max RSS), and\n"
		 "perf counters (task-clock, context switches, migrations, page faults,\n"
		 "cycles, instructions, branches, branch-misses, cache-misses; kernel side\n"
		 "and child processes included). It reads like `perf stat -r N`, with one\n"
		 "difference: ukbench's '±' is the 95% confidence interval of the mean;\n"
		 "perf prints the standard error of the mean relative to the mean and\n"
		 "calls it noise. The stddev is shown beside it.",
	.opts = exec_opts_table,
	.old = (const struct opt_old[]){ { "runs", 0, "repeat" }, { NULL, 0, NULL } },
	.footer = "examples:\n"
		  "  ukbench exec -r 10 -- hackbench -g 1     # perf stat -r 10 ./hackbench 1\n"
		  "  ukbench exec -l v6.12 -r 20 -- ./tb\n"
		  "  ukbench exec -r 20 -c ./tb-old -c ./tb-new  # A/B, interleaved\n"
		  "  ukbench exec -r 5 --prepare 'sync' --command-name g4 -- hackbench -g 4\n"
		  "  ukbench compare v6.11 v6.12              # exec runs compare as any other\n",
};

/* ------------------------------------------------------------------ */
/* Report                                                              */

static void print_metric(const struct exec_opts *o, const char *name, const double *x, size_t n,
			 const char *unit, double scale)
{
	struct ukb_stats st;
	char ci[80];

	if (ukb_stats_compute(x, n, &st))
		return;
	/* ours, then perf stat's: the standard error relative to the mean */
	if (isfinite(st.ci95_rel) && st.mean != 0 && isfinite(st.stddev) && n >= 2)
		snprintf(ci, sizeof(ci), "± %5.2f%%  ( +- %5.2f%% )", 100 * st.ci95_rel,
			 100 * st.stddev / sqrt((double)n) / fabs(st.mean));
	else if (isfinite(st.ci95_rel))
		snprintf(ci, sizeof(ci), "± %5.2f%%%14s", 100 * st.ci95_rel, "");
	else
		ci[0] = 0;
	/* the spread beside the mean where it fits (--wide), else under it */
	fprintf(o->out, "  %-18s %14.3f %-4s %s%s(stddev %.3f, min %.3f, median %.3f, max %.3f)\n",
		name, st.mean / scale, unit, ci,
		out_columns(o->out, o->wide) && out_columns(o->out, o->wide) < 106 ? "\n      "
										   : "   ",
		isfinite(st.stddev) ? st.stddev / scale : 0, st.min / scale, st.median / scale,
		st.max / scale);
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
	struct ukb_err e;
	int n;

	switch (id) {
	case O_EVENTS:
		if (!arg[0]) {
			error("option '--events' needs a list of events, got an empty one");
			return -1;
		}
		n = events_parse(arg, o->ev, UKB_MAX_COUNTERS, &e);
		if (n < 0)
			return error_hint(&e), -1;
		o->nev = (unsigned)n;
		return 0;
	case O_NO_COUNTERS:
		o->counters = 0;
		return 0;
	case O_CMD:
		if (o->ncmds == MAX_CMDS) {
			error("at most %d commands (-c) at once", MAX_CMDS);
			return -1;
		}
		if (!arg[0]) {
			error("option '--cmd' needs a command, got an empty one");
			return -1;
		}
		o->cmds[o->ncmds++] = arg;
		return 0;
	case O_PREPARE:
	case O_CLEANUP:
		if (!arg[0]) {
			error("option '--%s' needs a command, got an empty one",
			      id == O_PREPARE ? "prepare" : "cleanup");
			return -1;
		}
		*(id == O_PREPARE ? &o->prepare : &o->cleanup) = arg;
		return 0;
	case O_SCAN:
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1]) {
			error("-L takes NAME=V1,V2,... in one word ('-L g=1,2,4'; hyperfine "
			      "writes it '-L g 1,2,4'), got '%.40s'",
			      arg);
			return -1;
		}
		o->scan = arg;
		return 0;
	case O_NAME:
		if (o->nnames == MAX_CMDS) {
			error("at most %d command names at once", MAX_CMDS);
			return -1;
		}
		/* a name is part of a benchmark's name: a word, as the registry's are */
		if (!arg[0] || strlen(arg) > 24 ||
		    strspn(arg,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			strlen(arg)) {
			error("--command-name '%.40s': a name is 1 to 24 letters, digits, _ or -",
			      arg);
			return -1;
		}
		o->names[o->nnames++] = arg;
		return 0;
	}
	return -1;
}

/* 0, 1 after --help, -1 on bad usage; *@first is the command. */
static int parse(int argc, char **argv, struct exec_opts *o, int *first)
{
	int rc;

	o->repeat = 10;
	o->counters = 1;
	/* posix: options end at the command */
	rc = opts_parse(&cmd_exec_def, argc, argv, 1, set_option, o, first);
	if (rc)
		return rc;
	if (*first >= argc && !o->ncmds) {
		error("'ukbench exec' needs a command; see 'ukbench exec --help'");
		return -1;
	}
	if (*first < argc && o->ncmds) {
		error("give the commands either with -c or after --, not both");
		return -1;
	}

	if (!o->scan && o->nnames > (o->ncmds ? o->ncmds : 1)) {
		error("%u command names for %u command%s: one --command-name a command", o->nnames,
		      o->ncmds ? o->ncmds : 1, o->ncmds > 1 ? "s" : "");
		return -1;
	}
	for (unsigned a = 0; a < o->nnames; a++)
		for (unsigned b = 0; b < a; b++)
			if (!strcmp(o->names[a], o->names[b])) {
				error("--command-name '%s' given twice: each command its own",
				      o->names[a]);
				return -1;
			}
	if (!o->counters)
		o->nev = 0;
	else if (!o->nev)
		o->nev = (unsigned)ukb_events_default(o->ev, UKB_MAX_COUNTERS);
	return 0;
}

/* One command's plan, runs and failures. */
struct job {
	struct exec_plan p;
	char cmdline[1024], name[128];
	char *sh[4];
	struct exec_run *runs;
	size_t failed, timed_out;
};

/*
 * Runs the shell command @cmd (--prepare, --cleanup) to its end, not
 * measured; 0, or 1 with the error said (@what and when).
 */
static int run_helper(const char *opt, const char *cmd, const char *when)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGXFSZ, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		error("cannot run --%s '%s': %s", opt, cmd, strerror(errno));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	error("--%s '%s' %s %d %s; nothing stored", opt, cmd,
	      WIFEXITED(status) ? "exited with status" : "was killed by signal",
	      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), when);
	return 1;
}

/* Checks one run; returns 0, or the exit status that ends everything. */
static int check_run(const struct exec_opts *o, struct job *j, struct exec_run *r, unsigned long i)
{
	if (exec_stop) {
		error("interrupted by signal %d in run %lu of %lu; nothing stored", (int)exec_stop,
		      i + 1, o->warmup + o->repeat);
		return 128 + (int)exec_stop;
	}
	if (r->exec_errno) {
		error("cannot run '%s': %s", j->p.cmd[0], strerror(r->exec_errno));
		return 127;
	}
	if (r->timed_out) {
		error("run %lu of '%s' timed out after %g s and was ended", i + 1, j->cmdline,
		      o->timeout_s);
		j->timed_out++;
	} else if (!WIFEXITED(r->status) || WEXITSTATUS(r->status)) {
		fprintf(stderr, "%s: run %lu of '%s' %s %d\n", o->allow_failure ? "note" : "error",
			i + 1, j->cmdline,
			WIFEXITED(r->status) ? "exited with status" : "was killed by signal",
			WIFEXITED(r->status) ? WEXITSTATUS(r->status) : WTERMSIG(r->status));
		j->failed++;
	}
	return 0;
}

/*
 * Runs every command warm-up + repeat times. With several, each round
 * takes them in a new shuffled order, so that drift over time and what
 * one command leaves behind (caches, page cache) hit them all alike.
 * 0, or an exit status.
 */
/* The progress line on a terminal: which run, of which command, the time so far and left. */
struct progress {
	uint64_t t0, t_done; /* the start; when the last run ended */
	unsigned long done, total;
	const char *cmdline;
};

static void progress_tick(void *arg)
{
	const struct progress *pg = arg;
	double elapsed = (double)(ukb_now_ns() - pg->t0) / 1e9;
	double per = (double)(pg->t_done - pg->t0) / 1e9 / (double)(pg->done ? pg->done : 1);
	double left =
	    per * (double)(pg->total - pg->done) - (elapsed - (double)(pg->t_done - pg->t0) / 1e9);
	char where[64];

	snprintf(where, sizeof(where), "run %lu/%lu", pg->done + 1, pg->total);
	/* no estimate before a run has ended */
	progress_draw(where, elapsed, !pg->done ? -1 : left > 0 ? left : 0, pg->cmdline);
}

static int run_all(const struct exec_opts *o, struct job *jobs, unsigned njobs)
{
	size_t order[MAX_CMDS];
	uint64_t seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	struct progress pg = { ukb_now_ns(), 0, 0, (o->warmup + o->repeat) * njobs, NULL };
	int show = !o->quiet && isatty(STDERR_FILENO);

	for (unsigned long i = 0; i < o->warmup + o->repeat; i++) {
		ukb_shuffle(order, njobs, &seed);
		for (unsigned k = 0; k < njobs; k++) {
			struct job *j = &jobs[order[k]];
			struct exec_run warm, *r = i < o->warmup ? &warm : &j->runs[i - o->warmup];
			struct exec_plan plan;
			int rc;

			if (o->prepare) {
				char when[96];

				snprintf(when, sizeof(when), "before run %lu of '%.40s'", i + 1,
					 j->cmdline);
				if (run_helper("prepare", o->prepare, when))
					return UKB_EXIT_FAIL;
			}
			if (show) {
				pg.cmdline = j->cmdline;
				progress_tick(&pg);
			}
			/* the job's plan, with the progress line's tick where it is shown */
			plan = j->p;
			plan.tick = show ? progress_tick : NULL;
			plan.tick_arg = &pg;
			exec_once(&plan, r);
			pg.done++;
			pg.t_done = ukb_now_ns();
			if (show)
				progress_clear();
			rc = check_run(o, j, r, i);
			if (rc)
				return rc;
		}
	}
	for (unsigned k = 0; o->cleanup && k < njobs; k++) {
		char when[96];

		snprintf(when, sizeof(when), "after the runs of '%.40s'", jobs[k].cmdline);
		if (run_helper("cleanup", o->cleanup, when))
			return UKB_EXIT_FAIL;
	}
	return 0;
}

/* The figures, as `perf stat -r N` prints them, with CIs. */
static void report(const struct exec_opts *o, const struct job *j, double *x)
{
	static const struct {
		const char *name, *unit;
		double scale;
	} m[] = { { "wall", "ms", 1e6 },
		  { "user", "ms", 1e6 },
		  { "sys", "ms", 1e6 },
		  { "max RSS", "MiB", 1024 } };
	const struct exec_run *runs = j->runs;
	const struct ukb_counters *c0 = &runs[0].ctr;

	char shown[1024];

	fprintf(o->out, "ukbench exec: '%s', %lu runs (%lu warm-up)\n\n",
		vis(j->cmdline, shown, sizeof(shown)), o->repeat, o->warmup);
	for (unsigned k = 0; k < EXEC_NMETRICS + o->nev; k++) {
		const char *name = k < EXEC_NMETRICS ? m[k].name : c0->ev[k - EXEC_NMETRICS].name;
		int clock = k >= EXEC_NMETRICS &&
			    (!strcmp(name, "task-clock") || !strcmp(name, "cpu-clock"));

		if (k >= EXEC_NMETRICS && c0->status[k - EXEC_NMETRICS] != UKB_CTR_OK) {
			fprintf(o->out, "  %-18s %s\n", name, c0->reason[k - EXEC_NMETRICS]);
			continue;
		}
		exec_values(runs, o->repeat, k, x);
		print_metric(o, name, x, o->repeat,
			     k < EXEC_NMETRICS ? m[k].unit
			     : clock	       ? "ms"
					       : "",
			     k < EXEC_NMETRICS ? m[k].scale
			     : clock	       ? 1e6
					       : 1);
	}
	fprintf(o->out,
		"\n  ± is the 95%% confidence interval of the mean (Student t, %lu runs);\n"
		"  ( +- ) is perf stat's: the standard error of the mean relative to the mean.\n",
		o->repeat);
	if (j->failed)
		fprintf(o->out, "  %zu of %lu runs exited non-zero%s\n", j->failed,
			o->warmup + o->repeat, o->allow_failure ? " (allowed)" : "");
	if (j->timed_out)
		fprintf(o->out, "  %zu runs timed out after %g s\n", j->timed_out, o->timeout_s);
}

/* Each command's wall time against the first's, as `compare` does. */
static void report_ab(const struct exec_opts *o, const struct rec_run *rec, const struct job *jobs,
		      unsigned njobs)
{
	struct cmp_opts co = cmp_defaults();
	struct cmp_table ct;
	char shown[1024];

	fprintf(o->out,
		"\nthe commands, interleaved in a shuffled order each round; each against '%s'\n"
		"(%s), one run one observation:\n\n",
		vis(jobs[0].cmdline, shown, sizeof(shown)), jobs[0].name);
	cmp_table_begin(&ct, o->out, out_columns(o->out, o->wide));
	cmp_print_header(&ct);
	for (unsigned k = 1; k < njobs; k++) {
		struct cmp_row row = { .a = &rec->results[0], .b = &rec->results[k] };

		compare_row(&row, &co);
		cmp_print_row(&ct, &row, co.alpha, use_color(o->out, o->color));
	}
	for (unsigned k = 0; k < njobs; k++)
		fprintf(o->out, "  %-10s %s\n", jobs[k].name,
			vis(jobs[k].cmdline, shown, sizeof(shown)));
	/* as hyperfine says it: how many times faster, with the interval's half-width */
	fprintf(o->out, "\n");
	for (unsigned k = 1; k < njobs; k++) {
		struct cmp_row row = { .a = &rec->results[0], .b = &rec->results[k] };
		double r, lo, hi;
		int faster;

		compare_row(&row, &co);
		if (!row.ok || !isfinite(row.c.change)) {
			fprintf(o->out, "  %s against %s: not compared\n", jobs[k].name,
				jobs[0].name);
			continue;
		}
		faster = row.c.change < 0;
		/* the ratio the slower takes over the faster, and its interval */
		r = faster ? 1 / (1 + row.c.change) : 1 + row.c.change;
		lo = faster ? 1 / (1 + row.c.ci_hi) : 1 + row.c.ci_lo;
		hi = faster ? 1 / (1 + row.c.ci_lo) : 1 + row.c.ci_hi;
		fprintf(o->out, "  %s ran %.2f ± %.2f times %s than %s%s\n", jobs[k].name, r,
			(hi - lo) / 2, faster ? "faster" : "slower", jobs[0].name,
			row.c.ci_lo <= 0 && row.c.ci_hi >= 0
			    ? "\n    (the interval holds 1: no change told)"
			    : "");
	}
}

/* Writes the JSON and stores the record; 0, or -1 (printed). */
static int keep(const struct exec_opts *o, struct store *st, const char *path, struct rec_run *rec)
{
	int ret = 0;

	if (o->format != OUT_TABLE && print_run(stdout, 0, rec, o->format, &o->kcidb))
		ret = -1;
	if (o->json) {
		struct outfile of;
		size_t len;
		char *text = rec_to_json(rec, 1, &len);

		if (outfile_open(&of, o->json) || outfile_commit(&of, text, len))
			ret = -1;
		free(text);
	}
	if (!st)
		return ret;
	if (save_and_say(st, rec, o->out, path, 0))
		return -1;
	return ret;
}

/* @s with every "{@name}" replaced by @value, into @buf; -1 when it does not fit. */
static int substitute(const char *s, const char *name, const char *value, char *buf, size_t len)
{
	char key[64];
	size_t o = 0, kl;

	snprintf(key, sizeof(key), "{%s}", name);
	kl = strlen(key);
	while (*s) {
		const char *add = s;
		size_t n = 1;

		if (!strncmp(s, key, kl)) {
			add = value;
			n = strlen(value);
		}
		if (o + n >= len)
			return -1;
		memcpy(buf + o, add, n);
		o += n;
		s += add == value ? kl : 1;
	}
	buf[o] = 0;
	return 0;
}

/* @arg single-quoted for sh into @buf at @o; the new length. */
static size_t sh_quote(char *buf, size_t len, size_t o, const char *arg)
{
	o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "'");
	for (; *arg && o < len; arg++)
		o += (size_t)snprintf(buf + o, len - o, *arg == '\'' ? "'\\''" : "%c", *arg);
	return o + (size_t)snprintf(buf + o, o < len ? len - o : 0, "'");
}

/*
 * -L NAME=V1,V2,...: one shell command a value, {NAME} replaced, as if each
 * were given with -c (the command after -- quoted word by word), named
 * NAME=VALUE unless --command-name says otherwise. 0, or -1 (printed).
 */
static int expand_scan(struct exec_opts *o, char **cmd)
{
	char name[32], line[1024] = "";
	const char *eq = strchr(o->scan, '='), *v = eq + 1;
	size_t o2 = 0;

	if (o->ncmds > 1 || (!o->ncmds && !cmd[0])) {
		error("-L makes its commands from one: give one command, after -- or with -c");
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - o->scan), o->scan);
	if (o->ncmds)
		snprintf(line, sizeof(line), "%s", o->cmds[0]);
	else
		for (int i = 0; cmd[i]; i++) {
			if (i)
				o2 += (size_t)snprintf(
				    line + o2, o2 < sizeof(line) ? sizeof(line) - o2 : 0, " ");
			o2 = sh_quote(line, sizeof(line), o2, cmd[i]);
		}
	if (!strstr(line, "{") || !strstr(line, name)) {
		error("-L %s: the command has no {%s} to replace", name, name);
		return -1;
	}
	o->ncmds = 0;
	while (*v) {
		size_t n = strcspn(v, ",");
		char value[64];

		if (o->ncmds == MAX_CMDS) {
			error("-L: at most %d values", MAX_CMDS);
			return -1;
		}
		const char *quote = strchr(v, '\'');

		if (!n || n >= sizeof(value) || (quote && quote - v < (ptrdiff_t)n)) {
			error("-L %s: a value is 1 to %zu characters, no quote", name,
			      sizeof(value) - 1);
			return -1;
		}
		snprintf(value, sizeof(value), "%.*s", (int)n, v);
		if (substitute(line, name, value, o->scan_cmds[o->ncmds],
			       sizeof(o->scan_cmds[0]))) {
			error("-L %s: the command is too long with '%s'", name, value);
			return -1;
		}
		/* NAME=VALUE where it is short enough to be part of a result's name */
		if (strlen(name) + 1 + n <= 24)
			snprintf(o->scan_names[o->ncmds], sizeof(o->scan_names[0]), "%s=%s", name,
				 value);
		else
			snprintf(o->scan_names[o->ncmds], sizeof(o->scan_names[0]), "cmd%u",
				 o->ncmds + 1);
		o->cmds[o->ncmds] = o->scan_cmds[o->ncmds];
		o->ncmds++;
		v += n + (v[n] == ',');
	}
	return 0;
}

/* The jobs: the command after --, or each -c run by the shell. */
static int make_jobs(struct exec_opts *o, char **cmd, struct job *jobs, unsigned *njobs)
{
	*njobs = o->ncmds ? o->ncmds : 1;
	for (unsigned k = 0; k < *njobs; k++) {
		struct job *j = &jobs[k];

		if (o->ncmds) {
			j->sh[0] = "/bin/sh";
			j->sh[1] = "-c";
			j->sh[2] = (char *)o->cmds[k];
			snprintf(j->cmdline, sizeof(j->cmdline), "%s", o->cmds[k]);
			snprintf(j->name, sizeof(j->name), "exec.cmd%u", k + 1);
		} else {
			command_line(cmd, j->cmdline, sizeof(j->cmdline));
		}
		if (o->scan && k >= o->nnames)
			snprintf(j->name, sizeof(j->name), "exec.%s", o->scan_names[k]);
		if (k < o->nnames)
			snprintf(j->name, sizeof(j->name), "exec.%s", o->names[k]);
		j->p = (struct exec_plan){ .cmd = o->ncmds ? j->sh : cmd,
					   .cmdline = j->cmdline,
					   .timeout_s = o->timeout_s,
					   .ev = o->ev,
					   .nev = o->nev,
					   .name = o->ncmds > 1 || k < o->nnames ? j->name : NULL };
		j->runs = calloc(o->repeat, sizeof(*j->runs));
		if (!j->runs)
			return -1;
	}
	return 0;
}

/* The record: a result per command, one sample per run. 0, or -1. */
static int make_record(const struct exec_opts *o, struct job *jobs, unsigned njobs,
		       struct rec_run *rec, int *bad)
{
	struct ukb_env env;

	ukb_env_capture(&env);
	rec_run_begin(rec, &env, time(NULL), o->label);
	if (describe_run(rec, &env, NULL, 0, NULL) ||
	    !(rec->settings = exec_settings(o, jobs[0].cmdline)))
		return -1;
	*bad = 0;
	for (unsigned k = 0; k < njobs; k++) {
		struct job *j = &jobs[k];
		int failed = (j->failed && !o->allow_failure) || j->timed_out;
		char reason[128];

		snprintf(reason, sizeof(reason), "%zu runs failed, %zu timed out", j->failed,
			 j->timed_out);
		if (exec_record(&j->p, j->runs, o->repeat, failed, reason, rec))
			return -1;
		*bad |= failed;
	}
	return 0;
}

int cmd_exec(int argc, char **argv)
{
	struct exec_opts o = { 0 };
	struct job jobs[MAX_CMDS] = { 0 };
	struct rec_run rec = { 0 };
	struct store *st = NULL;
	char path[4096];
	unsigned njobs = 0;
	double *x = NULL;
	FILE *quiet = NULL;
	int ret, at, bad;

	ret = parse(argc, argv, &o, &at);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (o.scan && expand_scan(&o, argv + at))
		return UKB_EXIT_USAGE;
	if (o.scan && o.nnames > o.ncmds) {
		error("%u command names for the %u commands -L makes", o.nnames, o.ncmds);
		return UKB_EXIT_USAGE;
	}
	if (o.json && !strcmp(o.json, "-") && o.format != OUT_TABLE) {
		error("--json - and --format both want standard output");
		return UKB_EXIT_USAGE;
	}
	o.out = (o.json && !strcmp(o.json, "-")) || o.format != OUT_TABLE ? stderr : stdout;
	/* -q: the figures for people go nowhere; errors and a machine's format stay */
	if (o.quiet && !(o.out = quiet = fopen("/dev/null", "w"))) {
		error("/dev/null: %s", strerror(errno));
		return UKB_EXIT_FAIL;
	}
	if (!o.no_store && !(st = store_open_cli(o.db, path, sizeof(path)))) {
		if (quiet)
			fclose(quiet);
		return UKB_EXIT_USAGE;
	}
	ret = UKB_EXIT_FAIL;
	x = calloc(o.repeat, sizeof(*x));
	if (!x || make_jobs(&o, argv + at, jobs, &njobs))
		goto out;
	run_catch_stops(exec_forward);
	ret = run_all(&o, jobs, njobs);
	if (ret)
		goto out;
	for (unsigned k = 0; k < njobs; k++) {
		if (k)
			fprintf(o.out, "\n");
		report(&o, &jobs[k], x);
	}
	ret = UKB_EXIT_FAIL;
	if (make_record(&o, jobs, njobs, &rec, &bad)) {
		error("out of memory");
		goto out;
	}
	if (njobs > 1)
		report_ab(&o, &rec, jobs, njobs);
	ret = keep(&o, st, path, &rec) || bad ? UKB_EXIT_FAIL : UKB_EXIT_OK;
out:
	rec_run_release(&rec);
	store_close(st);
	for (unsigned k = 0; k < MAX_CMDS; k++)
		free(jobs[k].runs);
	free(x);
	if (quiet)
		fclose(quiet);
	return ret;
}
