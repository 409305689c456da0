// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inproc.c - run_inproc(): a plan measured in this process, case after
 * case, each result appended as it is known.
 */
#include <errno.h>

#include "runner.h"

int run_inproc(const struct run_plan *p, struct rec_run *run, const struct run_ctl *ctl)
{
	struct ukb_measure_opts m = p->m;
	struct ukb_clock_info clk;
	int err = ukb_clock_probe(&clk);

	m.stop = ctl->stop;
	m.progress = ctl->progress;
	m.progress_arg = ctl->arg;
	for (size_t i = 0; i < p->ncases && !err && !(ctl->stop && *ctl->stop); i++) {
		if (ctl->begin)
			ctl->begin(ctl->arg, i, p->ncases);
		err = run_case(&p->cases[i], &m, &clk, run);
		if (!err && ctl->on_result)
			ctl->on_result(ctl->arg, run, run->nresults - 1);
	}
	return err;
}
