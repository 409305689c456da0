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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "measure.h"
#include "registry.h"

static const char calibrate_usage[] =
    "usage: ukbench calibrate [--rounds N] [--budget SEC] [--threshold PCT] [--test T]\n"
    "\n"
    "Measures which changes this machine can detect. Each round runs lab.spin\n"
    "twice unchanged (A/A: a flagged difference is a false alarm) and slowed\n"
    "by exactly 1%, 2% and 5% of work (A/B: a 'regressed' verdict is a\n"
    "detection), then reports the false-alarm rate and the detection rate at\n"
    "each size, and the smallest size detected in at least 90% of rounds.\n"
    "\n"
    "options:\n"
    "  -r, --rounds N        rounds (default 10)\n"
    "  -b, --budget SEC      measuring time per measurement (default 0.2)\n"
    "  -t, --threshold PCT   noise threshold of the verdict, in % (default 1)\n"
    "      --test welch|mwu  the test behind the verdict (default welch)\n"
    "\n"
    "examples:\n"
    "  ukbench calibrate\n"
    "  ukbench calibrate --rounds 30 --budget 1\n";

enum { AA, B1, B2, B5, NSIZES };

static const char *const size_name[NSIZES] = { "A/A", "+1%", "+2%", "+5%" };

int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "budget", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ "test", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct ukb_bench *spin;
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	unsigned long rounds = 10;
	double threshold = 0.01, change[NSIZES][1000];
	size_t flagged[NSIZES] = { 0 }, significant[NSIZES] = { 0 };
	int mwu = 0, c, smallest = -1;

	ukb_measure_opts_init(&o);
	o.budget_s = 0.2;
	o.warmup_s = 0.02;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:b:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_uint("--rounds", optarg, 1, 1000, &rounds))
				return UKB_EXIT_USAGE;
			break;
		case 'b':
			if (parse_double("--budget", optarg, 0.001, 3600, &o.budget_s))
				return UKB_EXIT_USAGE;
			break;
		case 't':
			if (parse_double("--threshold", optarg, 0, 100, &threshold))
				return UKB_EXIT_USAGE;
			threshold /= 100;
			break;
		case 'T':
			if (strcmp(optarg, "welch") && strcmp(optarg, "mwu")) {
				error("unknown test '%s': use welch or mwu", optarg);
				return UKB_EXIT_USAGE;
			}
			mwu = !strcmp(optarg, "mwu");
			break;
		case 'h':
			fputs(calibrate_usage, stdout);
			return UKB_EXIT_OK;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			return UKB_EXIT_USAGE;
		default:
			error("unknown option '%s'; see 'ukbench calibrate --help'",
			      argv[optind - 1]);
			return UKB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		error("'ukbench calibrate' takes no arguments, got '%s'", argv[optind]);
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
	return UKB_EXIT_OK;
}
