/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pg-doc.h - the document a fleet's server keeps of a run.
 *
 * A run's JSON as pushed (a summary, or whole with every sample) less
 * what the server holds elsewhere or what reading it makes again, then
 * compressed (zstd): a default run's summary of about 90 KiB is kept in
 * about 15, where the server's own compression (lz4) left 38.
 *
 * Of each result kept as a summary (one with "batches"), it drops:
 *   process_means_ns, process_ref_ns   held in the result's row
 *                                      (process_means, process_ref)
 *   stats.mean_ns, ci95_ns, ci95_rel,  made again from the processes'
 *   between_sd_ns                      means when the run is read
 *                                      (rec_result_restat())
 *   stats.per_second,                  written from the mean; never read
 *   bytes_per_second
 * A result with its samples keeps everything: they are what it is made of.
 */
#ifndef UKB_STORE_PG_DOC_H
#define UKB_STORE_PG_DOC_H

#include <stddef.h>

/*
 * @doc (@len bytes of a run's JSON) as the server keeps it, into a new
 * *@out of *@outlen bytes. -1 with a message in @err: not a run's JSON,
 * or out of memory.
 */
int pg_doc_pack(const char *doc, size_t len, unsigned char **out, size_t *outlen, char *err,
		size_t errlen);

/*
 * The JSON text of a document kept by pg_doc_pack(), NUL-terminated, into
 * a new *@out of *@outlen bytes; at most UKB_READ_MAX. -1 with a message
 * in @err: not such a document (damaged, or larger than a run can be).
 */
int pg_doc_unpack(const unsigned char *z, size_t zlen, char **out, size_t *outlen, char *err,
		  size_t errlen);

#endif
