/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - a run as it is kept: what `run` measured, what the store and
 * JSON files hold, what compare, history and show read.
 *
 * A record owns all its memory and refers to no registry entry, so a run
 * read back from a database or a file made on another machine is the same
 * thing as one just measured. The environment, settings, clock and vDSO
 * descriptions are kept as JSON text, stored as they came; desc.h reads
 * the environment and settings once into typed members for the rest of
 * the program. This module needs nothing but libc: the 32-bit helper and
 * the fresh processes of `run --processes` build records too.
 */
#ifndef UKB_RECORD_RECORD_H
#define UKB_RECORD_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "env.h"
#include "measure.h"
#include "stats.h"

/* A counter of a result, as kept. */
struct rec_counter {
	char name[48];	 /* as the event was given (ukb_event.name) */
	char status[16]; /* "ok", "not supported", "not permitted", "not counted", "error" */
	char reason[128];
	double total;	 /* scaled, over every measured call */
	double per_call; /* NAN unless counted */
	double *per_sample;
	size_t n;
};

/*
 * What the host's stored runs taught of a path (learn.h), as compare uses
 * it; not kept.
 */
enum { REC_WIDE_BUSY = 1 << 0 };

struct rec_floor {
	/* the floor (relative SD of a run's mean) as measured, its degrees of freedom */
	double raw, raw_df;
	/* at one speed of the machine, the path's slope on the reference and its SE */
	double adj, adj_df, beta, se_beta;
	int slope_judged; /* the host's runs judged the slope (beta 0: it does not pay) */
	/* the machine's usual speed (log reference), its robust SD and runs; 0 runs: unknown */
	double ref_level, ref_sd;
	size_t ref_runs;
	/*
	 * how much more this result's processes spread than the path's usually
	 * do on this host (learn_scale(), at least 1), and that usual relative
	 * SD of its process means (0: not known); a run's floor is the floors
	 * above times its scale
	 */
	double scale, usual;
	/*
	 * the same of the references timed beside its batches (user-space
	 * work no kernel change moves): how much more they spread than usual,
	 * and that usual (0: not known)
	 */
	double ref_scale, ref_usual;
	/*
	 * measured busy while the floor was learned from quiet runs only
	 * (REC_WIDE_BUSY): the floor is at least the prior's
	 */
	int wide;
	int busy; /* measured busy: its thread waited (cmp_busy_during()) */
	/*
	 * the run's disorder: the median over its paths of how much more their
	 * processes spread than usual (learn_scale()); 0: not known
	 */
	double run_disorder;
};

struct rec_result {
	char name[128];	     /* benchmark[.variant] */
	char benchmark[128]; /* without the variant */
	char variant[64];    /* "" when none */
	char path[32];
	char unit[16];
	char detail[128];
	char vdso_symbol[96];
	enum ukb_status status;
	int err; /* errno (positive) behind a non-OK status, or 0 */
	char reason[256];
	int cpu;	  /* -1: not pinned */
	unsigned threads; /* threads at once (threaded benchmarks); 0: one, not threaded */
	long bytes;	  /* bytes one call moves (copy benchmarks); 0: not counted */
	char params[160]; /* the benchmark's parameters: "groups=10 loops=100"; "" if none */
	uint64_t batch_iters;
	double batch_ns;
	uint64_t warmup_batches;
	double measure_s;
	int converged;
	struct ukb_stats stats; /* valid when status is OK and nsamples > 0 */
	double *samples;	/* ns per iteration, in the order taken */
	size_t nsamples;
	/*
	 * A summary (the fleet's copy of a run, rec_to_json_summary()): the
	 * samples and the figures beside them were left out, @nsamples still
	 * counts the batches and @stats are as the run computed them; the
	 * process means, which compare reads, are all kept. Then @sum holds
	 * what the left-out figures gave.
	 */
	int summary;
	struct {
		size_t disturbed; /* rec_disturbed_count() */
		double cpu_ns;	  /* rec_cpu_per_call() */
		double waited;	  /* rec_waited_share() */
		double ref_ns;	  /* rec_ref_mean() over every batch */
	} sum;
	/*
	 * Beside each sample, NULL when not known (older records): the CPU
	 * time of the measuring thread per iteration (NAN where unknown), and
	 * the batch's mark (enum ukb_disturbance: 0, the thread ran throughout).
	 * The statistics leave the marked batches out (ukb_figure_stats()),
	 * unless the benchmark keeps them (@keeps_disturbed: its cost is the
	 * scheduling itself). Every batch is kept.
	 */
	double *cpu_samples;
	uint8_t *disturbed;
	int keeps_disturbed;
	/*
	 * The reference work timed after each batch (reference.h), ns per
	 * reference iteration (NAN where not known); NULL when not known.
	 */
	double *ref_samples;
	/*
	 * The unit of replication is the process: a run measures each path in
	 * several fresh processes (`run --processes N`, 5 by default). Then the
	 * samples are those of every process, concatenated; each process's
	 * mean and the standard error of that mean are kept, in order; and the
	 * figure is the mean of the process means, its CI from their spread
	 * (t with N - 1 degrees of freedom). With one process (nproc 0) the CI
	 * is that of the batches, which cannot show how much another process
	 * would differ.
	 */
	double *proc_means;
	double *proc_se; /* NULL when not known (older records) */
	/*
	 * Each process's mean of the reference work timed beside its batches
	 * (reference.h; NAN where not known); NULL when not known. compare
	 * takes each process's mean over its reference's to take the
	 * machine's own drift out of a change.
	 */
	double *proc_ref;
	/*
	 * `run --profile`: where the measured loop spent its time, as the JSON
	 * object of the run's "profile" member (event, samples, shares, the
	 * vDSO instructions sampled); NULL when not profiled. Owned.
	 */
	char *profile;
	size_t nproc;
	/* derived by rec_result_restat() when nproc >= 2 */
	double between_sd; /* SD of the process means */
	double within_se;  /* root mean square of the processes' own standard errors */
	/*
	 * How much this path's mean moves between runs of the same thing
	 * beyond what the processes of one run show (relative SD): what the
	 * host's stored runs taught, else the prior (learn.h); 0 when not
	 * included. The CI includes it.
	 */
	double floor_rel;
	double floor_df; /* its degrees of freedom; 0: exact (or not kept: older records) */
	/*
	 * The part of the CI, relative, that holds how far the machine ran
	 * from its usual speed during the run (its reference against the
	 * host's, times the path's slope on it); 0 when not known.
	 */
	double state_rel;
	/* compare, not kept: what the host's runs taught of this path */
	struct rec_floor fl;
	/* pooled over runs of several boots (compare --all): each process mean is then
	 * one boot's mean; 0 or 1 otherwise */
	size_t boots;
	/*
	 * Runs of one label pooled into this figure (compare): each moved by
	 * the floor on its own, so the floor of their mean is floor/sqrt(runs).
	 * 0 or 1: one run.
	 */
	size_t pooled;
	/*
	 * compare, not kept: beside each process mean of a figure pooled from
	 * runs of one boot, which of them it came from (0 .. pooled - 1), so
	 * that the runs' own spread can be set against the floor
	 * (comparison.c); NULL for one run, or for boots pooled. Owned.
	 */
	size_t *proc_run;
	struct rec_counter *counters;
	size_t ncounters;
};

struct rec_run {
	int64_t id; /* in the store; 0 when not stored */
	/*
	 * The run's name everywhere: made when it starts (a random UUID,
	 * version 4), kept in its JSON, by every store it enters and by the
	 * fleet's server, so that the same run is never stored twice. "" for
	 * a record of an older ukbench, until a store gives it one.
	 */
	char uuid[40];
	char label[128]; /* "" when none */
	char host[128];
	char started[32]; /* UTC, ISO 8601 */
	char ukbench_version[64];
	char kernel_release[128];
	char source[512]; /* "run", or the file it was imported from */
	double duration_s;
	int interrupted;
	/* JSON text of each description, owned; NULL when unknown */
	char *environment, *settings, *clock, *vdso;
	/* the environment and settings as read by desc.h, on first use; owned */
	struct rec_desc *desc;
	struct rec_result *results;
	size_t nresults;
	/*
	 * the stored runs pooled into this one (compare), newest first: their
	 * ids and when each started (as started), owned
	 */
	int64_t *pooled_ids;
	char (*pooled_started)[32];
	size_t npooled;
	/* a summary's digest, as its whole run gave it (rec_run_digest()); "" otherwise */
	char digest[24];
};

/*
 * Starts the record of a run being measured: its start time, label, and
 * host, kernel and version from @env (NULL: left empty). The descriptions
 * are set by the caller.
 */
void rec_run_begin(struct rec_run *run, const struct ukb_env *env, time_t started,
		   const char *label);

/* A new random UUID (version 4) into @buf (37 bytes or more); 0, or -errno. */
int rec_new_uuid(char *buf, size_t len);

/* Is @s a UUID as rec_new_uuid() writes them (lower-case hex, 8-4-4-4-12)? */
int rec_uuid_valid(const char *s);

/* Appends what ukb_measure() produced (copied); NULL on ENOMEM. */
struct rec_result *rec_add_measured(struct rec_run *run, const struct ukb_result *u);

/* Adds an empty result to @run; NULL on ENOMEM. */
struct rec_result *rec_add_result(struct rec_run *run);

/*
 * Moves everything @src owns into a new result of @run (@src is left
 * empty). NULL on ENOMEM, @src then untouched.
 */
struct rec_result *rec_take_result(struct rec_run *run, struct rec_result *src);

/* Appends @k figures of @v to the array *@a of *@n; 0 or -ENOMEM (untouched). */
int rec_append_numbers(double **a, size_t *n, const double *v, size_t k);

/*
 * Appends the samples of @s to those of @d, with their CPU times and marks
 * (NAN and 0 where one side does not know them). 0 or -ENOMEM.
 */
int rec_append_samples(struct rec_result *d, const struct rec_result *s);

/* Samples of @r with a mark; its CPU time per call over every batch (NAN: unknown). */
size_t rec_disturbed_count(const struct rec_result *r);
double rec_cpu_per_call(const struct rec_result *r);

/*
 * The share of its batches' wall time the thread was not running: 1 less
 * the CPU time over the wall time, summed over every batch whose CPU time
 * is known (NAN: none is, or the benchmark is threaded: its CPU time is
 * that of every thread), 0 at least.
 */
double rec_waited_share(const struct rec_result *r);

/* The mean of the known reference samples of @r[from, to) (NAN: none). */
double rec_ref_mean(const struct rec_result *r, size_t from, size_t to);

/*
 * @r's process references into @out[0..nproc): each where known, else the
 * mean of those known of the same run (proc_run; ukb_fill_unknown()). A
 * process whose every reference batch was disturbed, as happens in a
 * disordered state of the machine, met the machine as the run's others
 * did as far as anything tells. -1 when @r has none, or a run of it too
 * few known.
 */
int rec_proc_refs(const struct rec_result *r, double *out);

/*
 * Where the processes of the run that @r's process @i came from end (a
 * pooled figure's proc_run: a run's processes lie together); @r->nproc
 * for a figure of one run.
 */
size_t rec_run_end(const struct rec_result *r, size_t i);

/* Are the statistics of @r over its undisturbed batches only? */
int rec_excludes_disturbed(const struct rec_result *r);

/*
 * Did fewer than two of @r's batches run undisturbed, where its figure is
 * of undisturbed batches only (its statistics then fell back to every
 * batch, the time the thread did not run included)? Such a process has no
 * mean of its own to give.
 */
int rec_wholly_disturbed(const struct rec_result *r);

/* Frees what one result owns and zeroes it. */
void rec_result_release(struct rec_result *r);

/* Adds a counter to @r; NULL on ENOMEM. */
struct rec_counter *rec_add_counter(struct rec_result *r);

/*
 * Recomputes a result's statistics from its samples, and with two process
 * means or more, the mean, CI and nested variance from them.
 */
void rec_result_restat(struct rec_result *r);

/* Frees everything @run owns and zeroes it. */
void rec_run_release(struct rec_run *run);

/* How rec_run_release() frees a run's desc (set by desc.c, which makes them). */
struct rec_desc;
extern void (*rec_desc_release)(struct rec_desc *d);

/* "ok" -> UKB_OK ...; -1 when unknown. */
int rec_status_parse(const char *s);

/* The result of @run named @name through @path, or NULL. */
/*
 * What @run measured, as 16 hex digits (FNV-1a): its host, start, version,
 * kernel and every figure of every result, bit for bit (a run's JSON keeps
 * them exactly). The label is left out: a run imported with --label is the
 * same run. How the store and import know a run they have seen.
 */
void rec_run_digest(const struct rec_run *run, char *buf, size_t len);

const struct rec_result *rec_find(const struct rec_run *run, const char *name, const char *path);

/* ------------------------------------------------------------------ */
/* JSON (schema "ukbench-run"): the one serialised form of a run, written
 * by rec-json-write.c (libc only), read by rec-json-read.c (json-c).     */

#define UKB_JSON_SCHEMA		"ukbench-run"
#define UKB_JSON_SCHEMA_VERSION 1

/*
 * The record as a JSON document, every sample included, pretty or on one
 * line. NULL on ENOMEM; the caller frees.
 */
char *rec_to_json(const struct rec_run *run, int pretty, size_t *len);

/*
 * The record as a summary, on one line: what compare, history, show and
 * report read (the figures, every process's mean, SE and reference, the
 * counters per call, the descriptions) without the batches' samples of a
 * result measured in two processes or more, whose process means are its
 * replicates: a fraction of the whole (docs/fleet.md has the sizes). A
 * fleet's server keeps it; the run's digest goes with it. NULL on ENOMEM.
 */
char *rec_to_json_summary(const struct rec_run *run, size_t *len);

/*
 * @len bytes of a run's JSON as a fleet's server keeps them: of each
 * result kept as a summary (with "batches"), without what the server holds
 * in its rows (process_means_ns, process_ref_ns) and the figures reading
 * makes again from them (stats.mean_ns, ci95_ns, ci95_rel, between_sd_ns,
 * per_second, bytes_per_second); a result with its samples as it is. A new
 * text, or NULL with @err: not a run's JSON, or out of memory.
 */
char *rec_json_for_server(const char *text, size_t len, char *err, size_t errlen);

/* Can @r be kept as a summary (ok, measured in two processes or more)? */
int rec_summarizable(const struct rec_result *r);

/* Writes rec_to_json() to @fd, whole; 0 or -errno. */
int rec_write_json(int fd, const struct rec_run *run, int pretty);

/*
 * Reads @text (from @file, for messages) into @run. On error returns -1
 * with a message in @err naming the file and, for syntax errors, the line
 * and column: truncated, not JSON, another schema or version, a field of
 * the wrong type.
 */
int rec_from_json_text(struct rec_run *run, const char *text, size_t len, const char *file,
		       char *err, size_t errlen);

/*
 * As rec_from_json_text(), but a summary's result may come without its
 * processes' means and references (process_means_ns, process_ref_ns): a
 * fleet's server keeps them in its rows, not twice. Such a result has
 * nproc 0; the caller gives them and makes its figures again
 * (rec_result_restat()).
 */
int rec_from_json_beside(struct rec_run *run, const char *text, size_t len, const char *file,
			 char *err, size_t errlen);

#define UKB_READ_MAX (256 << 20)

/*
 * Reads the whole file @path, at most UKB_READ_MAX bytes; NULL with @err
 * on failure. Caller frees.
 */
char *read_file(const char *path, size_t *len, char *err, size_t errlen);

#endif
