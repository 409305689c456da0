// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - samples to places: the live vDSO's symbols and instructions,
 * kernel symbols from /proc/kallsyms, this process's mappings.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "image.h"
#include "profile.h"

struct ksym {
	uint64_t addr;
	char name[64];
};

struct mapping {
	uint64_t lo, hi;
	char name[128];
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Kernel text symbols with real addresses; none where kptr_restrict hides them. */
static struct ksym *load_kallsyms(size_t *n)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct ksym *k = NULL;
	size_t cap = 0;
	char line[256];

	*n = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[64];

		if (sscanf(line, "%llx %c %63s", &a, &type, name) != 3 || !a ||
		    (type != 't' && type != 'T'))
			continue;
		if (*n == cap) {
			struct ksym *p = realloc(k, (cap ? 2 * cap : 65536) * sizeof(*p));

			if (!p)
				break;
			k = p;
			cap = cap ? 2 * cap : 65536;
		}
		k[*n].addr = a;
		snprintf(k[*n].name, sizeof(k[*n].name), "%s", name);
		(*n)++;
	}
	fclose(f);
	if (*n)
		qsort(k, *n, sizeof(*k), by_addr);
	return k;
}

static const char *ksym_of(const struct ksym *k, size_t n, uint64_t ip)
{
	size_t lo = 0, hi = n;

	if (!n || ip < k[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (k[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return k[lo].name;
}

static struct mapping *load_maps(size_t *n)
{
	FILE *f = fopen("/proc/self/maps", "r");
	struct mapping *m = NULL;
	char line[512];

	*n = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;
		char perms[8], path[400] = "";
		struct mapping *p;
		const char *base;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %399s", &lo, &hi, perms, path) < 3 ||
		    perms[2] != 'x')
			continue;
		p = realloc(m, (*n + 1) * sizeof(*p));
		if (!p)
			break;
		m = p;
		base = strrchr(path, '/');
		m[*n].lo = lo;
		m[*n].hi = hi;
		snprintf(m[*n].name, sizeof(m[*n].name), "%s",
			 path[0] ? (base ? base + 1 : path) : "[anon]");
		(*n)++;
	}
	fclose(f);
	return m;
}

static int add_where(struct profile *p, const char *name)
{
	struct prof_where *w;

	for (size_t i = 0; i < p->nwhere; i++)
		if (!strcmp(p->where[i].name, name)) {
			p->where[i].n++;
			return 0;
		}
	w = realloc(p->where, (p->nwhere + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	p->where = w;
	snprintf(w[p->nwhere].name, sizeof(w[0].name), "%s", name);
	w[p->nwhere++].n = 1;
	return 0;
}

static int add_vdso_ip(struct profile *p, uint64_t va)
{
	struct prof_ip *v;

	for (size_t i = 0; i < p->nvdso; i++)
		if (p->vdso[i].va == va) {
			p->vdso[i].n++;
			return 0;
		}
	v = realloc(p->vdso, (p->nvdso + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->vdso = v;
	v[p->nvdso].va = va;
	v[p->nvdso++].n = 1;
	return 0;
}

static int most_first(const void *a, const void *b)
{
	const struct prof_where *x = a, *y = b;

	return x->n > y->n ? -1 : x->n < y->n;
}

static int by_va(const void *a, const void *b)
{
	const struct prof_ip *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

int profile_build(const struct ukb_sampler *s, struct profile *p)
{
	struct img im;
	char err[256], name[200];
	size_t nk = 0, nm = 0;
	struct ksym *k = NULL;
	struct mapping *m = load_maps(&nm);
	int have_vdso = !image_live(&im, err, sizeof(err)), ret = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->event, sizeof(p->event), "%s", s->event);
	p->freq = s->freq;
	p->kernel_sampled = s->kernel;
	p->lost = s->lost;
	p->total = s->n;
	for (size_t i = 0; i < s->n && !ret; i++) {
		uint64_t ip = s->s[i].ip;

		if (s->s[i].kernel) {
			const char *ks;

			if (!k && !nk)
				k = load_kallsyms(&nk), nk = nk ? nk : 1;
			ks = k ? ksym_of(k, nk, ip) : NULL;
			snprintf(name, sizeof(name), "[kernel]%s%s", ks ? " " : "", ks ? ks : "");
			ret = add_where(p, name);
			continue;
		}
		if (have_vdso && ip >= im.base && ip - im.base < im.size) {
			uint64_t va = image_off_to_va(&im, ip - im.base);
			struct ukb_elf_symbol sym;

			if (!image_symbol_at(&im, va, &sym))
				snprintf(name, sizeof(name), "[vdso] %s", sym.name);
			else
				snprintf(name, sizeof(name), "[vdso]");
			ret = add_where(p, name);
			if (!ret)
				ret = add_vdso_ip(p, va);
			continue;
		}
		snprintf(name, sizeof(name), "[unknown]");
		for (size_t j = 0; j < nm; j++)
			if (ip >= m[j].lo && ip < m[j].hi) {
				snprintf(name, sizeof(name), "%s", m[j].name);
				break;
			}
		ret = add_where(p, name);
	}
	free(k);
	free(m);
	if (ret) {
		profile_release(p);
		return ret;
	}
	qsort(p->where, p->nwhere, sizeof(*p->where), most_first);
	qsort(p->vdso, p->nvdso, sizeof(*p->vdso), by_va);
	return 0;
}

void profile_release(struct profile *p)
{
	free(p->where);
	free(p->vdso);
	memset(p, 0, sizeof(*p));
}

static double pct(unsigned long n, unsigned long total)
{
	return total ? 100.0 * (double)n / (double)total : 0;
}

/* The annotated disassembly of the sampled vDSO function @sym. */
static void annotate(FILE *f, const struct img *im, const struct profile *p,
		     const struct ukb_elf_symbol *sym)
{
	struct dis_insn *in;
	unsigned long *cnt, in_sym = 0;
	size_t n;
	char err[300];

	if (disasm_range(im, sym->value, sym->size, &in, &n, err, sizeof(err))) {
		fprintf(f, "  (no disassembly: %s)\n", err);
		return;
	}
	cnt = calloc(n ? n : 1, sizeof(*cnt));
	if (!cnt) {
		free(in);
		return;
	}
	for (size_t k = 0; k < p->nvdso; k++)
		for (size_t i = 0; i < n; i++)
			if (p->vdso[k].va >= in[i].va && p->vdso[k].va < in[i].va + in[i].size) {
				cnt[i] += p->vdso[k].n;
				in_sym += p->vdso[k].n;
				break;
			}
	fprintf(f, "\n%s, %lu samples (%.1f%% of all), per instruction:\n\n", sym->name, in_sym,
		pct(in_sym, p->total));
	disasm_print(f, im, in, n, cnt, in_sym);
	free(cnt);
	free(in);
}

void profile_print(FILE *f, const struct profile *p, size_t top)
{
	struct img im;
	char err[256];
	uint64_t done[32];
	size_t ndone = 0;

	fprintf(f, "%lu samples of %s at %u Hz%s%s\n", p->total, p->event, p->freq,
		p->kernel_sampled ? ""
				  : " (user space only: perf_event_paranoid forbids the kernel)",
		p->lost ? ", some lost" : "");
	for (size_t i = 0; i < p->nwhere && i < top; i++)
		fprintf(f, "  %6.2f%%  %s\n", pct(p->where[i].n, p->total), p->where[i].name);
	if (p->nwhere > top)
		fprintf(f, "  (%zu more places)\n", p->nwhere - top);
	if (!p->nvdso || image_live(&im, err, sizeof(err)))
		return;
	/* each sampled function once, in address order */
	for (size_t k = 0; k < p->nvdso && ndone < 32; k++) {
		struct ukb_elf_symbol sym;
		int seen = 0;

		if (image_symbol_at(&im, p->vdso[k].va, &sym))
			continue;
		for (size_t d = 0; d < ndone; d++)
			seen |= done[d] == sym.value;
		if (seen)
			continue;
		done[ndone++] = sym.value;
		annotate(f, &im, p, &sym);
	}
}
