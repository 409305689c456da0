// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab-code.c - code made at run time, never writable and executable at
 * once (see lab-code.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "lab-code.h"

int lab_code_map(struct lab_code *c, size_t len, char *why, size_t whylen)
{
	void *p;

	memset(c, 0, sizeof(*c));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		snprintf(why, whylen, "cannot map %zu bytes for the code: %s", len, strerror(err));
		return -err;
	}
	c->base = p;
	c->len = len;
	return 0;
}

int lab_code_seal(struct lab_code *c, char *why, size_t whylen)
{
	if (mprotect(c->base, c->len, PROT_READ | PROT_EXEC)) {
		int err = errno;

		snprintf(why, whylen,
			 "the system refuses executable memory (mprotect PROT_EXEC: %s): the "
			 "lab writes its code W^X, writable then executable, never both, and a "
			 "policy (seccomp, SELinux's execmem) forbids even that",
			 strerror(err));
		return -err;
	}
	c->sealed = 1;
	__builtin___clear_cache((char *)c->base, (char *)c->base + c->len);
	return 0;
}

void *lab_code_entry(struct lab_code *c, void *at)
{
#if defined(__powerpc64__) && (!defined(_CALL_ELF) || _CALL_ELF == 1)
	void *toc;

	if (c->ndesc >= LAB_CODE_ENTRIES)
		return NULL;
	__asm__("mr %0, 2" : "=r"(toc));
	c->desc[c->ndesc][0] = at;
	c->desc[c->ndesc][1] = toc;
	c->desc[c->ndesc][2] = NULL;
	return c->desc[c->ndesc++];
#else
	(void)c;
	return at;
#endif
}

void lab_code_unmap(struct lab_code *c)
{
	if (c->base)
		munmap(c->base, c->len);
	memset(c, 0, sizeof(*c));
}
