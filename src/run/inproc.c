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
		const struct ukb_case *c = &p->cases[i];
		struct ukb_result res;
		struct rec_result *r;

		if (ctl->begin)
			ctl->begin(ctl->arg, i, p->ncases);
		m.params = c->params;
		err = ukb_measure(c->bench, c->variant, c->path, &m, &clk, &res);
		r = err ? NULL : rec_add_measured(run, &res);
		if (r)
			params_describe(c->bench, c->params, r->params, sizeof(r->params));
		else if (!err)
			err = -ENOMEM;
		ukb_result_release(&res);
		if (r && ctl->on_result)
			ctl->on_result(ctl->arg, run, run->nresults - 1);
	}
	return err;
}
