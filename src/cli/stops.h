/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stops.h - what every command does when it is told to stop.
 *
 * INT, TERM and HUP end a command that has not installed handlers of its
 * own (run, exec, calibrate and check do, to stop between batches) with a
 * message and 128+N. Nothing is half-written: the stores write in
 * transactions that the next open rolls back, and the one result file a
 * command may be writing (outfile.h) is registered here and removed.
 * SIGXFSZ is ignored, so that a file-size limit is a write that fails with
 * EFBIG, reported as any other error.
 */
#ifndef UKB_CLI_STOPS_H
#define UKB_CLI_STOPS_H

/* Installs the handlers; once, before a command runs. */
void stops_init(void);

/*
 * The temporary file being written (NULL: none). The string must stay
 * valid until it is replaced or cleared: the handler reads it.
 */
void stops_tmp_file(const char *path);

#endif
