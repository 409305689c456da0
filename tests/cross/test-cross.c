// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-cross.c - the core and the benchmarks on a foreign architecture,
 * run under qemu-user, which gives a process no vDSO (as vdso=0, some
 * emulators and sandboxes do). Libc only, TAP output: the vDSO paths must
 * say they are unavailable and why, the libc and system-call paths must
 * still measure, the statistics must hold, the naming rules must exist
 * for this machine.
 */
#include <elf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "measure.h"
#include "registry.h"
#include "stats.h"
#include "vdso.h"

static int n, failed;

static void ok(int cond, const char *what, const char *detail)
{
	printf("%s %d - %s%s%s\n", cond ? "ok" : "not ok", ++n, what, detail && *detail ? ": " : "",
	       detail ? detail : "");
	failed += !cond;
}

int main(void)
{
	struct ukb_measure_opts o;
	struct ukb_clock_info clk;
	const struct ukb_bench *b = ukb_registry_find("time.clock_gettime");
	const struct ukb_bench *sn = ukb_registry_find("syscall.null");
	double x[] = { 1, 2, 3, 4, 100 };
	struct ukb_stats st;
	char why[256] = "";
	int vdso = getauxval(AT_SYSINFO_EHDR) != 0;

	ok(!ukb_registry_validate(why, sizeof(why)), "the benchmark table is valid", why);
	ok(!ukb_clock_probe(&clk) && clk.read_cost_ns > 0, "the batch clock reads", NULL);
	ok(!ukb_stats_compute(x, 5, &st) && st.median == 3 && st.mean == 22 &&
	       st.outliers_high == 1 && fabs(ukb_t_quantile(0.975, 9) - 2.2621571627) < 1e-8,
	   "statistics", NULL);

	/* the vDSO: absent under qemu-user, and said so */
	if (!vdso) {
		ok(!ukb_vdso_func("clock_gettime", why, sizeof(why)) && strstr(why, "no vDSO"),
		   "no vDSO is a normal state", why);
	} else {
		ok(ukb_vdso_live_abi() != NULL, "the live vDSO has naming rules", NULL);
	}

	ukb_measure_opts_init(&o);
	o.budget_s = 0.02;
	o.warmup_s = 0.005;
	o.min_samples = 3;
	for (const struct ukb_path *p = b->paths; p->name; p++) {
		struct ukb_result r;
		char what[96];

		snprintf(what, sizeof(what), "time.clock_gettime.monotonic/%s", p->name);
		if (ukb_measure(b, &b->variants[1], p, &o, &clk, &r)) {
			ok(0, what, "out of memory");
			continue;
		}
		if (!strcmp(p->name, "vdso") && !vdso)
			ok(r.status == UKB_UNSUPPORTED && strstr(r.reason, "no vDSO"), what,
			   r.reason);
		else
			ok(r.status == UKB_OK && r.stats.mean > 0, what, r.reason);
		ukb_result_release(&r);
	}
	for (const struct ukb_path *p = sn->paths; p->name; p++) {
		struct ukb_result r;
		char what[96];

		snprintf(what, sizeof(what), "syscall.null/%s", p->name);
		ukb_measure(sn, NULL, p, &o, &clk, &r);
		ok(r.status == UKB_OK && r.stats.mean > 0, what, r.reason);
		ukb_result_release(&r);
	}
	/*
	 * The labs: each path measures, or says why not (an idiom not written
	 * for this architecture); the figures are the emulator's, printed
	 * for the reader, not checked.
	 */
	{
		static const char *const labs[] = { "lab.linkstack", "lab.align", "lab.calls",
						    "lab.div64" };

		for (size_t l = 0; l < sizeof(labs) / sizeof(labs[0]); l++) {
			const struct ukb_bench *lb = ukb_registry_find(labs[l]);

			if (!lb) {
				ok(0, labs[l], "not in the table");
				continue;
			}
			for (const struct ukb_path *p = lb->paths; p->name; p++) {
				/* lab.align: a loop at a line, and one across it */
				for (size_t v = 0; v < (lb->variants ? 2 : 1); v++) {
					const struct ukb_variant *var =
					    lb->variants ? &lb->variants[v ? 60 : 0] : NULL;
					struct ukb_result r;
					char what[96];

					snprintf(what, sizeof(what), "%s%s%s/%s", lb->name,
						 var ? "." : "", var ? var->name : "", p->name);
					if (ukb_measure(lb, var, p, &o, &clk, &r)) {
						ok(0, what, "out of memory");
						continue;
					}
					if (r.status == UKB_OK)
						printf("# %s: %.3f ns a%s %s\n", what, r.stats.mean,
						       lb->unit && strchr("aeiou", lb->unit[0])
							   ? "n"
							   : "",
						       lb->unit ? lb->unit : "call");
					ok((r.status == UKB_OK && r.stats.mean > 0) ||
					       (r.status == UKB_UNSUPPORTED && r.reason[0]),
					   what, r.status == UKB_OK ? "measured" : r.reason);
					ukb_result_release(&r);
				}
			}
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
