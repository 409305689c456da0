// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abi32.c - ukbench-abi32: the worker, built as a static i386 program,
 * so that `run --abi 32|both` measures the i386 vDSO and the compat
 * system calls of a 64-bit kernel. It takes a plan and answers in the run
 * JSON, as a fresh process of ukbench does (see worker.c).
 */
#include "runner.h"

int main(int argc, char **argv)
{
	return worker_main(argc - 1, argv + 1);
}
