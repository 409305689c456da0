// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-formats.c - a comparison as JSON or CSV rows, or as a summary to
 * paste into a cover letter.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "cmp-formats.h"
#include "output.h"
#include "width.h"

#define MAIL_WIDTH 72

const char *const cmp_row_keys[] = {
	"base",
	"other",
	"name",
	"benchmark",
	"path",
	"base_ns",
	"other_ns",
	"change",
	"ci_low",
	"ci_high",
	"mde",
	"p",
	"p_mwu",
	"verdict",
	"replicated",
	"adjusted",
	"adjusted_change",
	"machine_change",
	"slope",
	"floor",
	"ci_low_without_floor",
	"ci_high_without_floor",
	"settings_differ",
	"state_base",
	"state_other",
	"reference_moved",
	"runs_base",
	"runs_other",
	"paired",
	NULL,
};

void cmp_rows_out(struct rows *out, const struct cmp_side *a, const struct cmp_side *b,
		  const struct cmp_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct rec_result *x = r->b ? r->b : r->a;

		rows_str(out, a->desc);
		rows_str(out, b->desc);
		rows_str(out, x->name);
		rows_str(out, x->benchmark);
		rows_str(out, x->path);
		rows_num(out, r->ok ? r->c.mean_a : NAN);
		rows_num(out, r->ok ? r->c.mean_b : NAN);
		rows_num(out, r->ok ? r->c.change : NAN);
		rows_num(out, r->ok ? r->c.ci_lo : NAN);
		rows_num(out, r->ok ? r->c.ci_hi : NAN);
		rows_num(out, r->ok ? r->c.mde : NAN);
		rows_num(out, r->ok ? r->c.p_welch : NAN);
		rows_num(out, r->ok ? r->c.p_mwu : NAN);
		rows_str(out, r->ok ? cmp_verdict_name(r) : cmp_why_not(r));
		rows_bool(out, r->ok && r->replicated);
		rows_bool(out, r->ok && r->adjusted);
		rows_num(out, r->ok && r->adjusted ? r->adj.change : NAN);
		rows_num(out, r->ok && r->ref.mean_a > 0 ? r->ref.change : NAN);
		rows_num(out, r->ok && r->adjusted ? r->beta : NAN);
		rows_num(out, r->ok ? r->floor : NAN);
		rows_num(out, r->ok ? r->c0.ci_lo : NAN);
		rows_num(out, r->ok ? r->c0.ci_hi : NAN);
		rows_bool(out, r->differ);
		rows_num(out, r->ok ? expm1(r->state[0]) : NAN);
		rows_num(out, r->ok ? expm1(r->state[1]) : NAN);
		rows_bool(out, r->ok && r->ref_moved);
		rows_num(out, r->ok ? (double)r->runs[0] : NAN);
		rows_num(out, r->ok ? (double)r->runs[1] : NAN);
		rows_bool(out, r->ok && r->paired);
	}
}

/*
 * @text folded at MAIL_WIDTH on spaces, continuation lines indented by
 * @indent, the first starting at column @col (written there already); its
 * control characters made visible (a label or a host may come from anyone).
 */
static void fold_from(FILE *f, const char *raw, int col, int indent)
{
	char buf[4096];
	const char *text = vis(raw, buf, sizeof(buf));
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (p == text) {
			/* the first word goes where the line stands */
		} else if (col && col + 1 + (int)w > MAIL_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void fold(FILE *f, const char *raw, int indent)
{
	fold_from(f, raw, 0, indent);
}

/* The warnings a side's environment carries (VM, load, governor...), each on its line. */
static void side_warnings(FILE *f, const struct cmp_side *s)
{
	const struct rec_env *env = rec_env(s->run);
	char line[768];

	for (size_t i = 0; i < env->nwarnings; i++) {
		snprintf(line, sizeof(line), "       warning (%s): %s", s->desc, env->warnings[i]);
		fold(f, line, 9);
	}
}

/* A time with its unit once: "22.69 ns", "7.59ms". */
static void time_text(char *buf, size_t len, double ns)
{
	format_ns(buf, len, ns);
	if (!strpbrk(buf, "ms"))
		strncat(buf, " ns", len - strlen(buf) - 1);
}

static void side_line(FILE *f, const char *role, const struct cmp_side *s)
{
	const struct rec_env *env = rec_env(s->run);
	const char *cpu = env->cpu_model ? env->cpu_model : "", *libc = env->libc ? env->libc : "";
	char line[768];
	size_t procs = 0;

	for (size_t i = 0; i < s->run->nresults; i++)
		if (s->run->results[i].nproc > procs)
			procs = s->run->results[i].nproc;
	snprintf(line, sizeof(line), "%s: %s, %s, Linux %s, %s, %s, %zu process%s, %s", role,
		 s->desc, s->run->host, s->run->kernel_release, cpu[0] ? cpu : "CPU unknown",
		 libc[0] ? libc : "libc unknown", procs ? procs : 1, procs > 1 ? "es" : "",
		 s->run->started);
	fold(f, line, 7);
}

void cmp_method_text(char *buf, size_t len, const struct cmp_opts *o, const char *floor_from)
{
	int n = snprintf(
	    buf, len,
	    "change = other/base - 1 of the two figures (a run's: the mean of its per-process "
	    "means; several runs': the mean of theirs, each weighed by how well it is known); "
	    "its %g%% CI, p and verdict come from one method, Welch's t on the log "
	    "ratio, with the floor: how far a run's mean moves between runs of the same thing "
	    "beyond what its processes show. Where marked ~, the path's slope on the reference "
	    "timed beside its batches is known: where the reference moved between the sides "
	    "no further than between this host's runs, the interval, p and verdict are those "
	    "of the change at one speed of the machine (the interval widened to hold the "
	    "change as measured); else the interval holds both, and a change is called only "
	    "where it stands both ways. "
	    "MDE: the change detected with 80%% power; improved or regressed needs p < %g and "
	    "a change beyond %g%%.",
	    100 * (1 - o->alpha), o->alpha, 100 * o->threshold);

	if (floor_from && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " Floor: %s.", floor_from);
}

void cmp_method_line(char *buf, size_t len, const struct cmp_opts *o)
{
	snprintf(buf, len,
		 "method: Welch's t on the log ratio, the floor added; a verdict needs p < %g "
		 "and a change beyond %g%% (--explain; docs/comparing.md)",
		 o->alpha, 100 * o->threshold);
}

/* The mail's first line: both sides; too long, one a line. */
static void mail_subject(FILE *f, const struct cmp_side *a, const struct cmp_side *b)
{
	char line[1100];

	/* fold() makes the descriptions visible: raw here */
	snprintf(line, sizeof(line), "ukbench: %s -> %s", a->desc, b->desc);
	if (strlen(line) > MAIL_WIDTH) {
		snprintf(line, sizeof(line), "ukbench: %s ->", a->desc);
		fold(f, line, 9);
		fprintf(f, "%9s", "");
		fold_from(f, b->desc, 9, 9);
	} else {
		fold(f, line, 9);
	}
	fputc('\n', f);
}

void cmp_mail(FILE *f, const struct cmp_side *a, const struct cmp_side *b,
	      const struct cmp_row *rows, size_t n, const struct cmp_opts *o,
	      const char *floor_from, int explain)
{
	char method[1024], fa[32], fb[32];
	size_t shown = 0, adjusted = 0;

	mail_subject(f, a, b);
	side_line(f, "base", a);
	side_warnings(f, a);
	side_line(f, "other", b);
	side_warnings(f, b);
	if (explain) {
		memcpy(method, "Method: ", 8);
		cmp_method_text(method + 8, sizeof(method) - 8, o, floor_from);
	} else {
		char line[400];

		cmp_method_line(line, sizeof(line), o);
		snprintf(method, sizeof(method), "%s.%s%s%s", line, floor_from ? " Floor: " : "",
			 floor_from ? floor_from : "", floor_from ? "." : "");
		method[0] = 'M';
	}
	fputc('\n', f);
	fold(f, method, 0);
	fputc('\n', f);
	if (cmp_settings_note(rows, n, o->force, method, sizeof(method))) {
		fold(f, method, 0);
		fputc('\n', f);
	}
	/* fold() makes the names visible */
	if (cmp_state_note(rows, n, "the base", "the other", method, sizeof(method))) {
		fold(f, method, 0);
		fputc('\n', f);
	}
	if (cmp_other_note(rows, n, method, sizeof(method))) {
		fold(f, method, 0);
		fputc('\n', f);
	}
	if (cmp_tell_note(rows, n, method, sizeof(method))) {
		fold(f, method, 0);
		fputc('\n', f);
	}
	if (cmp_ref_note(rows, n, method, sizeof(method))) {
		fold(f, method, 0);
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct rec_result *x = r->b ? r->b : r->a;
		char line[512], nm[512], pa[512];

		/* the parameters, which make the figure what it is */
		snprintf(line, sizeof(line), "%s/%s", x->name, x->path);
		vis(line, nm, sizeof(nm));
		vis(x->params, pa, sizeof(pa));
		fprintf(f, "%s%s%s%s\n    ", nm, pa[0] ? " (" : "", pa, pa[0] ? ")" : "");
		if (!r->ok) {
			fprintf(f, "%s\n", cmp_why_not(r));
			continue;
		}
		format_ns(fa, sizeof(fa), r->c.mean_a);
		time_text(fb, sizeof(fb), r->c.mean_b);
		snprintf(line, sizeof(line), "%s -> %s  %+.2f%% [%+.2f%%, %+.2f%%]  %s", fa, fb,
			 100 * r->c.change, 100 * r->c.ci_lo, 100 * r->c.ci_hi,
			 cmp_verdict_name(r));
		/* a wide interval puts the verdict on a line of its own */
		if (strlen(line) + 4 > MAIL_WIDTH) {
			char *v = strrchr(line, ' ');

			if (v) {
				*v = 0;
				fprintf(f, "%s\n    %s", line, v + 1);
				*v = ' ';
			}
		} else {
			fputs(line, f);
		}
		fprintf(f, "%s\n", r->adjusted ? " ~" : "");
		adjusted += r->adjusted;
		shown++;
	}
	if (!shown)
		fprintf(f, "(no path measured on both sides)\n");
	if (adjusted) {
		fputc('\n', f);
		fold(f,
		     "~ judged at one speed of the machine too: each process's mean over a "
		     "reference loop timed beside its batches, to the power the path was seen to "
		     "move with it ('ukbench compare --raw' leaves it out).",
		     0);
	}
}
