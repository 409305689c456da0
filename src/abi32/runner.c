// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runner.c - ukbench-abi32: the benchmarks measured through the 32-bit
 * ABI of a 64-bit kernel (the i386 vDSO and system calls), for
 * `ukbench run --abi 32|both`.
 *
 * Built with -m32 from the same core and benchmarks, it takes the
 * measuring options and the exact NAME/PATH of each benchmark to run, and
 * writes one line per result on standard output, tab-separated:
 *   name path status errno batch_iters measure_s converged reason samples
 * where samples is a comma list of ns per call. The 64-bit front end
 * reads, stores and prints them. Benchmarks whose variants are made from
 * the command line (sizes, threads) are not measured here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "measure.h"
#include "registry.h"

static void print_field(const char *s)
{
	for (; *s; s++)
		putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
	putchar('\t');
}

static int run_one(const char *spec, const struct ukb_measure_opts *o,
		   const struct ukb_clock_info *clk)
{
	const char *slash = strrchr(spec, '/');
	size_t nb;
	const struct ukb_bench *const *t = ukb_registry(&nb);

	if (!slash)
		return -EINVAL;
	for (size_t i = 0; i < nb; i++) {
		size_t nv = ukb_bench_variant_count(t[i]);

		for (size_t k = 0; k < (nv ? nv : 1); k++) {
			const struct ukb_variant *v = nv ? &t[i]->variants[k] : NULL;
			char full[128];

			ukb_bench_fullname(t[i], v, full, sizeof(full));
			if (strlen(full) != (size_t)(slash - spec) ||
			    strncmp(full, spec, strlen(full)))
				continue;
			for (const struct ukb_path *p = t[i]->paths; p->name; p++) {
				struct ukb_result r;

				if (strcmp(p->name, slash + 1))
					continue;
				if (ukb_measure(t[i], v, p, o, clk, &r))
					return -ENOMEM;
				print_field(full);
				print_field(p->name);
				print_field(ukb_status_name(r.status));
				printf("%d\t%llu\t%.9g\t%d\t", -r.err,
				       (unsigned long long)r.batch_iters, r.measure_s, r.converged);
				print_field(r.reason);
				for (size_t s = 0; s < r.nsamples; s++)
					printf("%s%.17g", s ? "," : "", r.samples[s]);
				putchar('\n');
				ukb_result_release(&r);
				return 0;
			}
		}
	}
	/* not a benchmark this runner can make: say so as a row */
	printf("%.*s\t%s\tunsupported\t0\t0\t0\t0\tnot measured through the 32-bit ABI (its "
	       "variants come from the command line)\t\n",
	       (int)(slash - spec), spec, slash + 1);
	return 0;
}

int main(int argc, char **argv)
{
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	int i;

	ukb_measure_opts_init(&o);
	/* options: precision budget warmup min max batch_ns cpu, then specs */
	if (argc < 9) {
		fprintf(stderr, "usage: ukbench-abi32 PRECISION BUDGET WARMUP MIN MAX BATCH_NS CPU "
				"NAME/PATH...\n");
		return 2;
	}
	o.precision = atof(argv[1]);
	o.budget_s = atof(argv[2]);
	o.warmup_s = atof(argv[3]);
	o.min_samples = (unsigned)atol(argv[4]);
	o.max_samples = (unsigned)atol(argv[5]);
	o.batch_ns = atof(argv[6]);
	o.cpu = (unsigned)strtoul(argv[7], NULL, 10);
	if (o.cpu != UKB_CPU_ANY && ukb_pin_cpu(o.cpu))
		return 1;
	if (ukb_clock_probe(&clk))
		return 1;
	for (i = 8; i < argc; i++) {
		if (run_one(argv[i], &o, &clk))
			return 1;
		fflush(stdout);
	}
	return 0;
}
