// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * failalloc.so - an LD_PRELOAD shim that makes one allocation fail.
 *
 *   UKB_FAIL_ALLOC=N      the Nth allocation (malloc, calloc, realloc,
 *                         reallocarray, posix_memalign, aligned_alloc,
 *                         memalign) of the process returns NULL, ENOMEM
 *   UKB_FAIL_ALLOC_LOG=F  at exit, appends "allocations A failed N hit H"
 *                         to F: how many there were, so a sweep knows its
 *                         range, and whether the failure happened at all
 *   UKB_FAIL_ALLOC_TRAP=1 raises SIGTRAP at the failure, for a debugger
 *
 * Only the process the shim was loaded into counts: a child it forks keeps
 * its own allocator and is not failed, and LD_PRELOAD is taken from the
 * environment so that programs it executes run unshimmed. The failure is
 * then the command's own, at one place, reproducible by its number.
 * glibc only: the real allocator is reached through its __libc_ names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static unsigned long count, fail_at, hit;
static int trap;
static pid_t owner;

static int fails(void)
{
	if (!fail_at || getpid() != owner)
		return 0;
	if (++count != fail_at)
		return 0;
	hit = 1;
	if (trap)
		raise(SIGTRAP);
	errno = ENOMEM;
	return 1;
}

static void report(void)
{
	const char *log = getenv("UKB_FAIL_ALLOC_LOG");
	char line[96];
	int fd, n;

	if (!log || getpid() != owner)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "allocations %lu failed %lu hit %lu\n", count,
		     fail_at == ~0UL ? 0 : fail_at, hit);
	if (write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

__attribute__((constructor)) static void setup(void)
{
	const char *n = getenv("UKB_FAIL_ALLOC");

	owner = getpid();
	/* counting alone (N = 0 never matches) still needs the counter on */
	fail_at = n ? strtoul(n, NULL, 10) : 0;
	if (!fail_at && getenv("UKB_FAIL_ALLOC_LOG"))
		fail_at = ~0UL;
	trap = getenv("UKB_FAIL_ALLOC_TRAP") != NULL;
	unsetenv("LD_PRELOAD");
	atexit(report);
}

void *malloc(size_t n)
{
	return fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	/* realloc(p, 0) frees: not an allocation that can fail */
	if (p && !n)
		return __libc_realloc(p, n);
	return fails() ? NULL : __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void *memalign(size_t align, size_t n)
{
	return fails() ? NULL : __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}
