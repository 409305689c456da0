// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp-kcidb.c - a comparison as KCIDB tests: a test a path of the other
 * run, on its build, its status the verdict:
 *
 *   regressed by more than the limit            FAIL
 *   the interval holds no regression of it      PASS
 *   neither: the limit is within the noise      DONE  (cannot tell, said in the comment)
 *   unreplicated, other state (no verdict)      DONE  (why in the comment)
 *   not measured on both sides                  SKIP  (why in the comment)
 *
 * The limit is --fail-on-regression's, else the threshold (-t), so that a
 * PASS says what `compare --fail-on-regression` exiting 0 says.
 *
 * Its number is the other side's figure; the base's, the change, its
 * interval, the MDE and p are under misc. Every comparison of one
 * `compare` goes into one document.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp-kcidb.h"
#include "fnv.h"
#include "json-write.h"

/* The limit a verdict is given at: --fail-on-regression's, else the threshold. */
static double limit_of(const struct cmp_opts *o)
{
	return o->limit >= 0 ? o->limit : o->threshold;
}

static const char *status_of(const struct cmp_row *r, double limit)
{
	if (!r->ok)
		return "SKIP";
	if (!cmp_claims(r))
		return "DONE";
	if (r->verdict == UKB_REGRESSED && r->c.change > limit)
		return "FAIL";
	/* correct: the interval holds no regression of the limit */
	return r->c.ci_hi < limit ? "PASS" : "DONE";
}

static void side_hash(uint64_t *h, const struct rec_run *r, const char *desc)
{
	ukb_fnv1a(h, r->uuid[0] ? r->uuid : desc, strlen(r->uuid[0] ? r->uuid : desc) + 1);
	if (r->npooled)
		ukb_fnv1a(h, r->pooled_ids, r->npooled * sizeof(*r->pooled_ids));
}

static char *row_misc(const struct cmp_side *a, const struct cmp_side *b, const struct cmp_row *r)
{
	struct jw w;

	jw_init(&w, 0);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "base", a->desc);
	jw_str(&w, "other", b->desc);
	if (a->run->uuid[0])
		jw_str(&w, "base_run", a->run->uuid);
	if (b->run->uuid[0])
		jw_str(&w, "other_run", b->run->uuid);
	jw_str(&w, "verdict", r->ok ? cmp_verdict_name(r) : cmp_why_not(r));
	if (r->ok) {
		kcidb_num(&w, "base_ns", r->c.mean_a);
		kcidb_num(&w, "other_ns", r->c.mean_b);
		kcidb_num(&w, "change", r->c.change);
		kcidb_num(&w, "ci_low", r->c.ci_lo);
		kcidb_num(&w, "ci_high", r->c.ci_hi);
		kcidb_num(&w, "mde", r->c.mde);
		kcidb_num(&w, "p", r->c.p_welch);
		kcidb_num(&w, "p_mwu", r->c.p_mwu);
		kcidb_num(&w, "floor", r->floor);
		jw_bool(&w, "replicated", r->replicated);
		jw_bool(&w, "adjusted", r->adjusted);
		jw_uint(&w, "runs_base", r->runs[0] ? r->runs[0] : 1);
		jw_uint(&w, "runs_other", r->runs[1] ? r->runs[1] : 1);
	}
	jw_obj_end(&w);
	return jw_finish(&w, NULL);
}

static void comment_of(const struct cmp_row *r, const char *base, double limit, char *buf,
		       size_t len)
{
	const char *st = status_of(r, limit);
	char fig[160];

	if (!r->ok) {
		snprintf(buf, len, "not compared with %s: %s", base, cmp_why_not(r));
		return;
	}
	snprintf(fig, sizeof(fig), "%+.2f%% [%+.2f%%, %+.2f%%] against %s (MDE %.2f%%)",
		 100 * r->c.change, 100 * r->c.ci_lo, 100 * r->c.ci_hi, base, 100 * r->c.mde);
	if (!cmp_claims(r))
		snprintf(buf, len, "%s, no verdict: %s", fig,
			 r->replicated ? "a side was measured in another state of the machine"
				       : "a side was measured in one process");
	else if (!strcmp(st, "DONE"))
		snprintf(buf, len,
			 "%s, cannot tell at %.3g%%: the interval holds a regression of it", fig,
			 100 * limit);
	else
		snprintf(buf, len, "%s: %s", cmp_verdict_name(r), fig);
}

int cmp_kcidb_add(struct cmp_kcidb *k, const struct cmp_side *a, const struct cmp_side *b,
		  const struct cmp_row *rows, size_t n, const struct cmp_opts *o)
{
	double limit = limit_of(o);
	struct cmp_kcidb_side *s;
	uint64_t h = UKB_FNV_OFFSET;
	void *p;

	if (!n)
		return 0;
	p = realloc(k->sides, (k->nsides + 1) * sizeof(*k->sides));
	if (!p)
		return -1;
	k->sides = p;
	s = &k->sides[k->nsides];
	memset(s, 0, sizeof(*s));
	s->src = malloc(sizeof(*s->src));
	if (!s->src)
		return -1;
	k->nsides++;
	kcidb_src_of(b->run, s->src);
	p = realloc(k->t, (k->n + n) * sizeof(*k->t));
	if (!p)
		return -1;
	k->t = p;
	side_hash(&h, a->run, a->desc);
	side_hash(&h, b->run, b->desc);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct rec_result *x = r->b ? r->b : r->a;
		struct kcidb_test *t = &k->t[k->n];
		char comment[512];

		comment_of(r, a->desc, limit, comment, sizeof(comment));
		*t = (struct kcidb_test){
			.src = s->src,
			.name = x->name,
			.path = x->path,
			.started = b->run->started,
			.status = status_of(r, limit),
			.seconds = r->ok ? r->c.mean_b * 1e-9 : NAN,
			.unit = x->unit,
			.misc = row_misc(a, b, r),
		};
		t->comment = strdup(comment);
		/* one comparison of the two sides (their runs, pooled or not), a path */
		snprintf(t->id, sizeof(t->id), "compare.%016" PRIx64 ".%zu", h, i);
		k->n++;
		if (!t->misc || !t->comment)
			return -1;
	}
	return 0;
}

int cmp_kcidb_print(FILE *f, const struct kcidb_ids *ids, const struct cmp_kcidb *k)
{
	return kcidb_print(f, ids, k->t, k->n);
}

void cmp_kcidb_release(struct cmp_kcidb *k)
{
	kcidb_tests_free(k->t, k->n);
	for (size_t i = 0; i < k->nsides; i++) {
		free(k->sides[i].src);
	}
	free(k->sides);
	memset(k, 0, sizeof(*k));
}
