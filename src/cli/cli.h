/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what the subcommands share: messages, exit codes, option values,
 * benchmark selection.
 *
 * Only this layer prints and decides exit codes; the core returns errors.
 */
#ifndef UKB_CLI_CLI_H
#define UKB_CLI_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "select.h"
#include "ukbench.h"

enum ukb_exit {
	UKB_EXIT_OK = 0,
	UKB_EXIT_FAIL = 1,  /* a benchmark failed */
	UKB_EXIT_USAGE = 2, /* bad command line or input: nothing was run */
	UKB_EXIT_INTERRUPTED = 130,
};

/* Subcommands: argv[0] is the subcommand's name. Each has its definition
 * (options, help) in cmd_NAME_def, listed in commands.c. */
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_fleet_init(int argc, char **argv);
int cmd_fleet_prune(int argc, char **argv);
int cmd_prune(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_vdso(int argc, char **argv);
int cmd_worker(int argc, char **argv);
int cmd_doc(int argc, char **argv);

struct command;
extern const struct command cmd_run_def, cmd_list_def, cmd_check_def, cmd_exec_def, cmd_compare_def,
    cmd_history_def, cmd_runs_def, cmd_show_def, cmd_import_def, cmd_calibrate_def, cmd_env_def,
    cmd_vdso_def, cmd_report_def, cmd_push_def, cmd_fleet_init_def, cmd_fleet_prune_def,
    cmd_prune_def, cmd_vm_def;

/*
 * Colour: --color auto|always|never, in this order (OPT_CHOICE); auto
 * colours a terminal unless NO_COLOR is set and not empty.
 */
enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
#define COLOR_WHEN "auto|always|never"

/* Whether to colour what goes to @f, as --color said. */
int use_color(FILE *f, enum color_when when);

/* git-style messages on stderr: "error: ...", "warning: ..."; error() is -1 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * An error or warning named a fault of the machine (out of memory, an I/O
 * error, a full disk): main() exits 1 for it, never 2, which says the
 * input was refused.
 */
extern int fault_said;
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Option values: parse @arg for option @opt within [min, max]. On a
 * malformed or out-of-range value, print an error naming both and return
 * -1; the caller exits with UKB_EXIT_USAGE.
 */
int parse_double(const char *opt, const char *arg, double min, double max, double *out);
int parse_uint(const char *opt, const char *arg, unsigned long min, unsigned long max,
	       unsigned long *out);

/* Prints @e as an error, and its hint when it has one. */
void error_hint(const struct ukb_err *e);

#endif
