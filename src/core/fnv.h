/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fnv.h - FNV-1a, 64 bits: the digest of a run's record and of the
 * reference work's code. Not for anything an adversary chooses.
 */
#ifndef UKB_CORE_FNV_H
#define UKB_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define UKB_FNV_OFFSET 0xcbf29ce484222325ull

/* Adds @n bytes at @p to the hash *@h (start from UKB_FNV_OFFSET). */
static inline void ukb_fnv1a(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ull;
	}
}

#endif
