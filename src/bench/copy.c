// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * copy.c - the copy paths: read(2) and pread(2) of /dev/zero, which the
 * kernel serves with clear_user()/iov_iter_zero(), and write(2) to
 * /dev/null, which copies nothing, as libMicro's read_z and pread_z do.
 *
 * The "touch" variants write one byte to every page of the buffer after
 * each read: a read into a buffer whose pages were never written can be
 * served without faulting them in, and a change to the zeroing path can
 * look faster or slower depending on it.
 *
 * Every call's return value is checked: a short read or an error is
 * counted, and a batch with errors fails the benchmark with the count and
 * the first error, rather than producing a figure.
 * UKBENCH_ZERO_DEVICE names another file to read (a short file shows how
 * errors are reported).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ukbench.h"

struct copy {
	int fd;
	char *buf;
	size_t len, page;
	int touch;
};

static const char *zero_device(void)
{
	const char *p = getenv("UKBENCH_ZERO_DEVICE");

	return p && p[0] ? p : "/dev/zero";
}

static void copy_teardown(struct ukb_ctx *c)
{
	struct copy *k = c->priv;

	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k->buf);
	free(k);
	c->priv = NULL;
}

static int copy_open(struct ukb_ctx *c, const char *path, int flags, char *why, size_t len)
{
	struct copy *k = calloc(1, sizeof(*k));
	int err;

	if (!k)
		return -ENOMEM;
	c->priv = k;
	k->len = (size_t)c->arg;
	k->touch = c->arg2 != 0;
	k->page = (size_t)sysconf(_SC_PAGESIZE);
	k->fd = open(path, flags | O_CLOEXEC);
	if (k->fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot open '%s': %s", path, strerror(errno));
		copy_teardown(c);
		return err;
	}
	if (!k->len || posix_memalign((void **)&k->buf, k->page, k->len)) {
		/* say how much before the state that knows it goes */
		snprintf(why, len, "cannot allocate a buffer of %zu bytes", k->len);
		copy_teardown(c);
		return -ENOMEM;
	}
	/* write the buffer once, so the first batch does not pay its faults */
	memset(k->buf, 1, k->len);
	return 0;
}

static int read_setup(struct ukb_ctx *c, char *why, size_t len)
{
	return copy_open(c, zero_device(), O_RDONLY, why, len);
}

static int write_setup(struct ukb_ctx *c, char *why, size_t len)
{
	return copy_open(c, "/dev/null", O_WRONLY, why, len);
}

/* Fills ctx->why with what went wrong in a batch. */
static int batch_failed(struct ukb_ctx *c, const char *op, uint64_t errors, uint64_t n,
			ssize_t first, int first_errno)
{
	struct copy *k = c->priv;

	if (first < 0)
		snprintf(c->why, sizeof(c->why), "%s failed %llu of %llu times, first: %s", op,
			 (unsigned long long)errors, (unsigned long long)n, strerror(first_errno));
	else
		snprintf(c->why, sizeof(c->why),
			 "%s short %llu of %llu times, first: %zd of %zu bytes", op,
			 (unsigned long long)errors, (unsigned long long)n, first, k->len);
	return first < 0 ? -first_errno : -EIO;
}

static inline void touch_pages(const struct copy *k)
{
	for (size_t p = 0; p < k->len; p += k->page)
		((volatile char *)k->buf)[p] = 1;
}

enum copy_op { OP_READ, OP_PREAD, OP_WRITE };

/*
 * The one loop of every copy path. Always inlined with a constant @op, so
 * each path still gets a loop of its own with no branch on the operation.
 */
static inline __attribute__((always_inline)) int copy_loop(struct ukb_ctx *c, uint64_t n,
							   enum copy_op op)
{
	static const char *const names[] = { "read", "pread", "write" };
	struct copy *k = c->priv;
	uint64_t errors = 0;
	ssize_t first = 0;
	int first_errno = 0;

	for (uint64_t i = 0; i < n; i++) {
		ssize_t r = op == OP_READ    ? read(k->fd, k->buf, k->len)
			    : op == OP_PREAD ? pread(k->fd, k->buf, k->len, 0)
					     : write(k->fd, k->buf, k->len);

		if (r != (ssize_t)k->len && !errors++) {
			first = r;
			first_errno = errno;
		}
		if (op != OP_WRITE && k->touch)
			touch_pages(k);
	}
	return errors ? batch_failed(c, names[op], errors, n, first, first_errno) : 0;
}

static int read_run(struct ukb_ctx *c, uint64_t n)
{
	return copy_loop(c, n, OP_READ);
}

static int pread_run(struct ukb_ctx *c, uint64_t n)
{
	return copy_loop(c, n, OP_PREAD);
}

static int write_run(struct ukb_ctx *c, uint64_t n)
{
	return copy_loop(c, n, OP_WRITE);
}

static const long copy_sizes[] = { 1024, 10240, 102400, 1048576, 0 };

static const struct ukb_flagset touch_flags[] = {
	{ .name = "", .value = 0 },
	{ .name = "touch", .value = 1 },
	{ NULL },
};

/* read/write move at most MAX_RW_COUNT (INT_MAX rounded down to a page) */
#define COPY_MAX (1L << 30)

static const struct ukb_path copy_read_zero_paths[] = {
	{ .name = "read",
	  .run = read_run,
	  .setup = read_setup,
	  .teardown = copy_teardown,
	  .detail = "read(fd of /dev/zero, buf, size)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_copy_read_zero = {
	.name = "copy.read_zero",
	.summary = "read() of /dev/zero: the kernel's clear_user path (--size, --flags touch)",
	.flags = UKB_DEFAULT | UKB_BYTES,
	.paths = copy_read_zero_paths,
	.sizes = copy_sizes,
	.size_min = 1,
	.size_max = COPY_MAX,
	.flagsets = touch_flags,
};

static const struct ukb_path copy_pread_zero_paths[] = {
	{ .name = "pread",
	  .run = pread_run,
	  .setup = read_setup,
	  .teardown = copy_teardown,
	  .detail = "pread(fd of /dev/zero, buf, size, 0)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_copy_pread_zero = {
	.name = "copy.pread_zero",
	.summary = "pread() of /dev/zero (--size, --flags touch)",
	.flags = UKB_DEFAULT | UKB_BYTES,
	.paths = copy_pread_zero_paths,
	.sizes = copy_sizes,
	.size_min = 1,
	.size_max = COPY_MAX,
	.flagsets = touch_flags,
};

static const struct ukb_path copy_write_null_paths[] = {
	{ .name = "write",
	  .run = write_run,
	  .setup = write_setup,
	  .teardown = copy_teardown,
	  .detail = "write(fd of /dev/null, buf, size)" },
	{ NULL },
};

const struct ukb_bench ukb_bench_copy_write_null = {
	.name = "copy.write_null",
	.summary = "write() to /dev/null (--size)",
	.flags = UKB_DEFAULT | UKB_BYTES,
	.paths = copy_write_null_paths,
	.sizes = copy_sizes,
	.size_min = 1,
	.size_max = COPY_MAX,
};
