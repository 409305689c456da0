// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-table.c - the table a kernel developer reads at a glance.
 *
 * One row per path, the paths of a benchmark grouped under its name, so
 * that vdso, libc and syscall sit side by side. The figure is the mean
 * cost per call with the half-width of its 95% confidence interval in %,
 * then the median (robust to the slow tail), calls per second and the
 * number of samples. A path that cannot run here is a row that says why.
 */
#include <math.h>
#include <string.h>

#include "output.h"
#include "vdso.h"

#define ROW_FMT "%-35s %-8s %10s %8s %10s %9s %8s\n"

void format_si(char *buf, size_t len, double v)
{
	static const char *const units[] = { "", " k", " M", " G", " T" };
	unsigned u = 0;

	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f%s", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v, units[u]);
}

static void format_ns(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.*f", ns < 10 ? 3 : ns < 1000 ? 2 : ns < 1e6 ? 1 : 0, ns);
}

void vdso_symbol_of(const struct ukb_path *p, char *buf, size_t len)
{
	const struct ukb_vdso_abi *abi = p->vdso_sym ? ukb_vdso_live_abi() : NULL;
	char name[64];

	buf[0] = 0;
	if (!p->vdso_sym)
		return;
	if (!abi) {
		snprintf(buf, len, "%s", p->vdso_sym);
		return;
	}
	ukb_vdso_symname(abi, p->vdso_sym, name, sizeof(name));
	snprintf(buf, len, "%s@%s", name, abi->version);
}

void table_header(FILE *f, const struct ukb_run_info *run)
{
	const struct ukb_env *env = run->env;
	const struct ukb_measure_opts *o = run->opts;

	fprintf(f, "ukbench %s on %s: Linux %s %s, %s\n", env->ukbench_version, env->hostname,
		env->kernel_release, env->machine, env->cpu_model);
	fprintf(f, "clocksource %s, %s, %d CPUs, virtualization: %s\n", env->clocksource, env->libc,
		env->online_cpus, env->virtualization);
	for (unsigned i = 0; i < env->nwarnings; i++)
		fprintf(f, "warning: %s\n", env->warnings[i]);
	fprintf(f, "precision %g%% (95%% CI of the mean), budget %g s per path, ",
		100 * o->precision, o->budget_s);
	if (o->cpu == UKB_CPU_ANY)
		fprintf(f, "not pinned\n\n");
	else
		fprintf(f, "pinned to CPU %u\n\n", o->cpu);
	fprintf(f, ROW_FMT, "benchmark", "path", "ns/call", "±CI95", "median", "calls/s",
		"samples");
}

void table_row(FILE *f, const struct ukb_result *r, int first)
{
	char mean[32], ci[32], med[32], rate[32], n[32];
	const char *name = first ? r->name : "";

	switch (r->status) {
	case UKB_OK:
		format_ns(mean, sizeof(mean), r->stats.mean);
		if (isfinite(r->stats.ci95_rel))
			snprintf(ci, sizeof(ci), "%.2f%%%s", 100 * r->stats.ci95_rel,
				 r->converged ? "" : "*");
		else
			snprintf(ci, sizeof(ci), "-");
		format_ns(med, sizeof(med), r->stats.median);
		format_si(rate, sizeof(rate), 1e9 / r->stats.mean);
		snprintf(n, sizeof(n), "%zu", r->nsamples);
		fprintf(f, ROW_FMT, name, r->path->name, mean, ci, med, rate, n);
		break;
	case UKB_UNSUPPORTED:
		fprintf(f, "%-35s %-8s %10s  %s\n", name, r->path->name, "n/a", r->reason);
		break;
	case UKB_SKIPPED:
		fprintf(f, "%-35s %-8s %10s  %s\n", name, r->path->name, "skipped", r->reason);
		break;
	case UKB_ERROR:
		fprintf(f, "%-35s %-8s %10s  %s\n", name, r->path->name, "FAILED", r->reason);
		break;
	case UKB_INTERRUPTED:
		fprintf(f, "%-35s %-8s %10s  %s\n", name, r->path->name, "stopped", r->reason);
		break;
	}
}

void table_footer(FILE *f, const struct ukb_run_info *run)
{
	size_t count[UKB_INTERRUPTED + 1] = { 0 }, unconverged = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		count[run->results[i].status]++;
		if (run->results[i].status == UKB_OK && !run->results[i].converged)
			unconverged++;
	}
	fprintf(
	    f,
	    "\n%zu paths in %.1f s: %zu measured, %zu not available here, %zu skipped, %zu failed",
	    run->nresults, run->duration_s, count[UKB_OK], count[UKB_UNSUPPORTED],
	    count[UKB_SKIPPED], count[UKB_ERROR]);
	if (count[UKB_INTERRUPTED])
		fprintf(f, ", %zu interrupted", count[UKB_INTERRUPTED]);
	fprintf(f, "\n");
	if (unconverged)
		fprintf(f,
			"* %zu did not reach %g%% within the budget: raise --budget or lower "
			"--precision\n",
			unconverged, 100 * run->opts->precision);
}
