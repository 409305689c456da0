// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-calibrate.c - `ukbench calibrate`: what size of change can this
 * machine tell from noise?
 *
 * Each round measures lab.spin twice unchanged (an A/A comparison: any
 * verdict other than "no change" or "within noise" is a false alarm) and
 * once slowed by 1%, 2% and 5% of work (A/B: a "regressed" verdict is a
 * detection). The five are measured interleaved, a batch of each in turn,
 * so that drift over time hits them alike: what is left is the noise the
 * statistics must see through. The comparisons use the same statistics
 * and verdict as `compare`. Runs made at different times also carry the
 * machine's drift; `run --runs` measures that.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "compare.h"
#include "measure.h"
#include "registry.h"

enum { O_ROUNDS = 1, O_BUDGET, O_THRESHOLD, O_TEST };

static const struct opt calibrate_opts[] = {
	{ "rounds", 'r', "N", "rounds (default 10)", O_ROUNDS },
	{ "budget", 'b', "SEC", "measuring time per measurement (default 0.2)", O_BUDGET },
	{ "threshold", 't', "PCT", "noise threshold of the verdict, in % (default 1)",
	  O_THRESHOLD },
	{ "test", 0, "welch|mwu", "the test behind the verdict (default welch)", O_TEST },
	{ NULL },
};

const struct command cmd_calibrate_def = {
	.name = "calibrate",
	.fn = cmd_calibrate,
	.summary = "measure which change sizes this machine can detect",
	.synopsis = "[--rounds N] [--budget SEC] [--threshold PCT] [--test T]",
	.about = "Measures which changes this machine can detect. Each round runs lab.spin\n"
		 "twice unchanged (A/A: a flagged difference is a false alarm) and slowed\n"
		 "by exactly 1%, 2% and 5% of work (A/B: a 'regressed' verdict is a\n"
		 "detection), then reports the false-alarm rate and the detection rate at\n"
		 "each size, and the smallest size detected in at least 90% of rounds.",
	.opts = calibrate_opts,
	.footer = "examples:\n"
		  "  ukbench calibrate\n"
		  "  ukbench calibrate --rounds 30 --budget 1\n",
};

struct calibrate_cli {
	unsigned long rounds;
	double budget_s, threshold;
	int mwu;
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct calibrate_cli *c = ctx;

	switch (id) {
	case O_ROUNDS:
		return parse_uint("--rounds", arg, 1, 1000, &c->rounds);
	case O_BUDGET:
		return parse_double("--budget", arg, 0.001, 3600, &c->budget_s);
	case O_THRESHOLD:
		if (parse_double("--threshold", arg, 0, 100, &c->threshold))
			return -1;
		c->threshold /= 100;
		return 0;
	case O_TEST:
		if (strcmp(arg, "welch") && strcmp(arg, "mwu")) {
			error("unknown test '%s': use welch or mwu", arg);
			return -1;
		}
		c->mwu = !strcmp(arg, "mwu");
		return 0;
	}
	return -1;
}

enum { AA, B1, B2, B5, NSIZES };

static const char *const size_name[NSIZES] = { "A/A", "+1%", "+2%", "+5%" };

/* The rates of every size, and the smallest size told from noise. */
static void print_rates(unsigned long rounds, double (*change)[1000], const size_t *flagged,
			const size_t *significant)
{
	int smallest = -1;

	printf("%-6s %8s %8s %8s %12s   %s\n", "size", "rounds", "flagged", "rate", "significant",
	       "median measured change");
	for (int s = AA; s < NSIZES; s++) {
		double sorted[1000], rate = (double)flagged[s] / (double)rounds;

		memcpy(sorted, change[s], rounds * sizeof(double));
		for (size_t i = 1; i < rounds; i++)
			for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
				double tmp = sorted[j];

				sorted[j] = sorted[j - 1];
				sorted[j - 1] = tmp;
			}
		printf("%-6s %8lu %8zu %7.0f%% %11.0f%%   %+.2f%%  %s\n", size_name[s], rounds,
		       flagged[s], 100 * rate, 100.0 * (double)significant[s] / (double)rounds,
		       100 * sorted[rounds / 2], s == AA ? "(false alarms)" : "(detections)");
		if (s != AA && smallest < 0 && rate >= 0.9)
			smallest = s;
	}
	printf("\nfalse-alarm rate on A/A: %.0f%%\n", 100.0 * (double)flagged[AA] / (double)rounds);
	if (smallest > 0)
		printf("on this machine, changes below %s are not reliably told from noise (at "
		       "this budget and threshold)\n",
		       size_name[smallest] + 1);
	else
		printf("on this machine, even 5%% changes are not reliably told from noise at this "
		       "budget: raise --budget\n");
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_cli cli = { .rounds = 10, .budget_s = 0.2, .threshold = 0.01 };
	const struct ukb_bench *spin;
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	unsigned long rounds;
	double threshold, change[NSIZES][1000];
	size_t flagged[NSIZES] = { 0 }, significant[NSIZES] = { 0 };
	int mwu, first, rc;

	rc = opts_parse(&cmd_calibrate_def, argc, argv, 0, set_option, &cli, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	ukb_measure_opts_init(&o);
	o.budget_s = cli.budget_s;
	o.warmup_s = 0.02;
	rounds = cli.rounds;
	threshold = cli.threshold;
	mwu = cli.mwu;
	if (first < argc) {
		error("'ukbench calibrate' takes no arguments, got '%s'", argv[first]);
		return UKB_EXIT_USAGE;
	}
	spin = ukb_registry_find("lab.spin");
	if (!spin || ukb_clock_probe(&clk))
		return UKB_EXIT_FAIL;
	/* a fixed sample count keeps every comparison equally strong */
	o.precision = 0;
	o.min_samples = 20;

	printf("calibrate: lab.spin, %lu rounds, %g s per measurement, %s (p < 0.05), noise "
	       "threshold %g%%\n\n",
	       rounds, o.budget_s, mwu ? "Mann-Whitney U test" : "Welch's t-test", 100 * threshold);
	for (unsigned long r = 0; r < rounds; r++) {
		/* A, A', and the three slowed copies, measured interleaved */
		const struct ukb_variant *const v[NSIZES + 1] = {
			&spin->variants[0], &spin->variants[0], &spin->variants[1],
			&spin->variants[2], &spin->variants[3],
		};
		struct ukb_result res[NSIZES + 1];
		int bad = 0;

		if (ukb_measure_interleaved(spin, v, &spin->paths[0], NSIZES + 1, &o, &clk, res))
			return UKB_EXIT_FAIL;
		for (int i = 0; i <= NSIZES; i++)
			if (res[i].status != UKB_OK && !bad++)
				error("cannot measure lab.spin: %s", res[i].reason);
		for (int sz = AA; !bad && sz < NSIZES; sz++) {
			struct ukb_cmp cmp;
			enum ukb_verdict vd;

			ukb_compare(res[0].samples, res[0].nsamples, res[sz + 1].samples,
				    res[sz + 1].nsamples, &cmp);
			vd = ukb_verdict_of(cmp.change, mwu ? cmp.p_mwu : cmp.p_welch, 0.05,
					    threshold);
			change[sz][r] = cmp.change;
			/* significant at all, in the direction of the change made */
			if ((mwu ? cmp.p_mwu : cmp.p_welch) < 0.05 && (sz == AA || cmp.change > 0))
				significant[sz]++;
			if (sz == AA ? vd == UKB_IMPROVED || vd == UKB_REGRESSED
				     : vd == UKB_REGRESSED)
				flagged[sz]++;
		}
		for (int i = 0; i <= NSIZES; i++)
			ukb_result_release(&res[i]);
		if (bad)
			return UKB_EXIT_FAIL;
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\rround %lu/%lu", r + 1, rounds);
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");

	print_rates(rounds, change, flagged, significant);
	return UKB_EXIT_OK;
}
