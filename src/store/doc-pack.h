/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doc-pack.h - a run's JSON kept packed: by a fleet's server, and by the
 * local store for a run whose samples were pruned.
 *
 * The text is compressed (zstd, with its checksum). For a fleet's server
 * (DOC_FOR_SERVER) it is first the JSON that server keeps
 * (rec_json_for_server(): without what its rows hold or reading makes
 * again): a few times smaller than the server's own compression (lz4)
 * leaves it (docs/fleet.md has the sizes).
 */
#ifndef UKB_STORE_DOC_PACK_H
#define UKB_STORE_DOC_PACK_H

#include <stddef.h>

#define DOC_FOR_SERVER 1

/*
 * @doc (@len bytes of a run's JSON) packed, into a new *@out of *@outlen
 * bytes; @how: 0, or DOC_FOR_SERVER. -1 with a message in @err: not a
 * run's JSON, or out of memory.
 */
int doc_pack(const char *doc, size_t len, int how, unsigned char **out, size_t *outlen, char *err,
	     size_t errlen);

/*
 * The JSON text of a document kept by doc_pack(), NUL-terminated, into
 * a new *@out of *@outlen bytes; at most UKB_READ_MAX. -1 with a message
 * in @err: not such a document (damaged, or larger than a run can be).
 */
int doc_unpack(const unsigned char *z, size_t zlen, char **out, size_t *outlen, char *err,
	       size_t errlen);

#endif
