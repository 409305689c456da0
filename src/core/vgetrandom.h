/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vgetrandom.h - the vDSO getrandom() interface, as the kernel defines it.
 *
 *   ssize_t vgetrandom(void *buf, size_t len, unsigned flags,
 *                      void *opaque_state, size_t opaque_len);
 *
 * The caller first asks for the state's parameters (buf NULL, len 0,
 * flags 0, a struct vgetrandom_opaque_params, opaque_len ~0UL), then maps
 * states with exactly the protection and flags the kernel gave (since 6.11
 * they include MAP_DROPPABLE), each state rounded up to the cache line
 * size and none crossing a page boundary, one per thread, never shared.
 * A pool hands out only states it mapped: any other pointer is refused.
 */
#ifndef UKB_CORE_VGETRANDOM_H
#define UKB_CORE_VGETRANDOM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef ssize_t (*ukb_vgetrandom_t)(void *buf, size_t len, unsigned int flags, void *state,
				    size_t state_len);

/* The kernel's struct vgetrandom_opaque_params (include/uapi/linux/random.h). */
struct ukb_vgetrandom_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

struct ukb_vgr_pool {
	ukb_vgetrandom_t fn;
	struct ukb_vgetrandom_params params;
	size_t stride;	 /* state size rounded up to the cache line */
	size_t per_page; /* states in one page */
	size_t page;
	void *map;
	size_t map_len;
	unsigned nstates;
	unsigned used;
};

/*
 * Asks @fn for the state parameters and maps @nstates states. Returns 0,
 * or -errno with the reason in @why (-ENOSYS: the vDSO has the symbol but
 * no implementation behind it).
 */
int ukb_vgr_pool_init(struct ukb_vgr_pool *p, ukb_vgetrandom_t fn, unsigned nstates, char *why,
		      size_t len);
void ukb_vgr_pool_release(struct ukb_vgr_pool *p);

/* The next unused state, or NULL when all are handed out. */
void *ukb_vgr_state(struct ukb_vgr_pool *p);

/* Is @state one of the pool's states (mapped here, on a state boundary)? */
int ukb_vgr_owns(const struct ukb_vgr_pool *p, const void *state);

/*
 * One vDSO getrandom() call on a state of this pool; a state the pool did
 * not hand out is refused with -EINVAL before the vDSO sees it.
 */
ssize_t ukb_vgr_call(const struct ukb_vgr_pool *p, void *state, void *buf, size_t len,
		     unsigned flags);

#endif
