/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * initramfs.h - the initramfs `ukbench vm` boots a kernel with: a cpio
 * archive in the "newc" format the kernel unpacks (Documentation/
 * filesystems/ramfs-rootfs-initramfs.rst), made here, holding the static
 * guest program as /init, the plan it runs as /plan, the directories it
 * mounts on and /dev/console. Nothing else is needed in the guest.
 */
#ifndef UKB_RUN_INITRAMFS_H
#define UKB_RUN_INITRAMFS_H

#include <stddef.h>
#include <stdio.h>

/* A file of the archive beside /init and /plan: a kernel module. */
struct initramfs_file {
	const void *data;
	size_t len;
};

/*
 * Writes the archive to @f: /init with the @init_len bytes of @init,
 * /plan with the lines of @plan[0..nplan), and the @nmods modules of
 * @mods as /modules/00.ko, 01.ko, ... in their order, which the guest
 * loads before it opens its port. 0, or -1 on a write error.
 */
int initramfs_write(FILE *f, const void *init, size_t init_len, const char *const *plan,
		    size_t nplan, const struct initramfs_file *mods, size_t nmods);

#endif
