// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vgetrandom.c - states for the vDSO getrandom(), allocated the kernel's way.
 *
 * The layout follows the kernel's own user (the vDSO selftest and glibc):
 * whole pages mapped with the kernel's mmap_prot and mmap_flags, cut into
 * states of size_of_opaque_state rounded up to the cache line, as many as
 * fit in a page without one crossing into the next. A state that crossed
 * a page could be half wiped by the kernel (MAP_DROPPABLE pages may be
 * reclaimed) and is refused by the vDSO with -EFAULT.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vgetrandom.h"

static size_t cache_line(void)
{
	long cl = -1;

#ifdef _SC_LEVEL1_DCACHE_LINESIZE
	cl = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
#endif
	/* 128 covers powerpc and s390x where the libc does not tell */
	return cl > 0 ? (size_t)cl : 128;
}

int ukb_vgr_pool_init(struct ukb_vgr_pool *p, ukb_vgetrandom_t fn, unsigned nstates, char *why,
		      size_t len)
{
	size_t pages;
	ssize_t ret;

	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	ret = fn(NULL, 0, 0, &p->params, ~0UL);
	if (ret) {
		int err = ret < 0 ? (int)-ret : (int)ret;

		snprintf(why, len, "vDSO getrandom refuses the parameters call: %s", strerror(err));
		return -err;
	}
	if (!p->params.size_of_opaque_state || p->params.size_of_opaque_state > p->page) {
		snprintf(why, len, "vDSO getrandom gives a state of %u bytes",
			 p->params.size_of_opaque_state);
		return -EINVAL;
	}
	p->stride = (p->params.size_of_opaque_state + cache_line() - 1) & ~(cache_line() - 1);
	if (p->stride > p->page)
		p->stride = p->params.size_of_opaque_state;
	p->per_page = p->page / p->stride;
	pages = (nstates + p->per_page - 1) / p->per_page;
	p->map_len = pages * p->page;
	p->map = mmap(NULL, p->map_len, (int)p->params.mmap_prot, (int)p->params.mmap_flags, -1, 0);
	if (p->map == MAP_FAILED) {
		int err = errno;

		p->map = NULL;
		snprintf(why, len,
			 "cannot map %zu bytes of getrandom states (prot 0x%x, flags 0x%x): %s",
			 p->map_len, p->params.mmap_prot, p->params.mmap_flags, strerror(err));
		return -err;
	}
	p->nstates = (unsigned)(pages * p->per_page);
	return 0;
}

void ukb_vgr_pool_release(struct ukb_vgr_pool *p)
{
	if (p->map)
		munmap(p->map, p->map_len);
	p->map = NULL;
	p->nstates = p->used = 0;
}

void *ukb_vgr_state(struct ukb_vgr_pool *p)
{
	size_t i;

	if (!p->map || p->used >= p->nstates)
		return NULL;
	i = p->used++;
	return (char *)p->map + (i / p->per_page) * p->page + (i % p->per_page) * p->stride;
}

int ukb_vgr_owns(const struct ukb_vgr_pool *p, const void *state)
{
	uintptr_t s = (uintptr_t)state, base = (uintptr_t)p->map, off, in_page;

	if (!p->map || s < base || s >= base + p->map_len)
		return 0;
	off = s - base;
	in_page = off % p->page;
	if (in_page % p->stride || in_page / p->stride >= p->per_page)
		return 0;
	return (off / p->page) * p->per_page + in_page / p->stride < p->used;
}

ssize_t ukb_vgr_call(const struct ukb_vgr_pool *p, void *state, void *buf, size_t len,
		     unsigned flags)
{
	if (!ukb_vgr_owns(p, state))
		return -EINVAL;
	return p->fn(buf, len, flags, state, p->params.size_of_opaque_state);
}
