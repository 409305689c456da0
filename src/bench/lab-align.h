/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-align.h - what lab.align's loops are, for the notes that read its
 * figures (see lab-align.c).
 */
#ifndef UKB_BENCH_LAB_ALIGN_H
#define UKB_BENCH_LAB_ALIGN_H

/* Bytes of path @path's loop (its top to the end of its branch back) in
 * this program's build; -1: no such loop here. */
int lab_align_loop_bytes(const char *path);

/* Does a loop of @loop_bytes whose top is @offset past a line cross a
 * @window-byte boundary? */
int lab_align_straddles(int loop_bytes, int offset, int window);

#endif
