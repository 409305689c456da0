/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h - for the unit tests of writers: what a call wrote to the
 * FILE *f it is given, as one string in @text (the test frees it).
 */
#ifndef UKB_TESTS_CAPTURE_H
#define UKB_TESTS_CAPTURE_H

#include <stdio.h>

#define CAPTURE(text, call)                                                                        \
	do {                                                                                       \
		size_t len_ = 0;                                                                   \
		FILE *f = open_memstream(&(text), &len_);                                          \
		assert_non_null(f);                                                                \
		call;                                                                              \
		fclose(f);                                                                         \
	} while (0)

#endif
