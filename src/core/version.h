/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version.h - which ukbench this is: the release and the commit it was
 * built from ("0.1.0+g1234abc"). One object holds it, rebuilt whenever it
 * changes (the Makefile's version stamp), so that a run records the
 * version that measured it, the man pages and reports name the same one.
 */
#ifndef UKB_CORE_VERSION_H
#define UKB_CORE_VERSION_H

const char *ukb_version(void);

#endif
