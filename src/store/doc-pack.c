// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc-pack.c - a run's JSON kept packed (see doc-pack.h).
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "doc-pack.h"
#include "record.h"
#include "store-backend.h"

/*
 * zstd's level 9: levels above it gain a few percent of size for several
 * times the time, which sixteen machines pushing at once to a small server
 * would feel (docs/fleet.md has the figures).
 */
#define DOC_LEVEL 9

/*
 * @len bytes of @text into @out (@cap bytes), with zstd's checksum: a
 * damaged document is refused, not read as another. Its size, or 0 with
 * *@why.
 */
static size_t pack(unsigned char *out, size_t cap, const char *text, size_t len, const char **why)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t n;

	*why = "out of memory";
	if (!c)
		return 0;
	n = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, DOC_LEVEL);
	if (!ZSTD_isError(n))
		n = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	if (!ZSTD_isError(n))
		n = ZSTD_compress2(c, out, cap, text, len);
	ZSTD_freeCCtx(c);
	if (ZSTD_isError(n)) {
		*why = ZSTD_getErrorName(n);
		return 0;
	}
	return n;
}

int doc_pack(const char *doc, size_t len, int how, unsigned char **out, size_t *outlen, char *err,
	     size_t errlen)
{
	const char *why;
	char *kept = NULL;
	size_t cap, n;

	*out = NULL;
	*outlen = 0;
	if (how == DOC_FOR_SERVER) {
		kept = rec_json_for_server(doc, len, err, errlen);
		if (!kept)
			return -1;
		doc = kept;
		len = strlen(kept);
	}
	cap = ZSTD_compressBound(len);
	*out = malloc(cap);
	if (!*out) {
		free(kept);
		return store_fail(err, errlen, "out of memory");
	}
	n = pack(*out, cap, doc, len, &why);
	free(kept);
	if (!n) {
		free(*out);
		*out = NULL;
		return store_fail(err, errlen, "the run's document cannot be compressed: %s", why);
	}
	*outlen = n;
	return 0;
}

int doc_unpack(const unsigned char *z, size_t zlen, char **out, size_t *outlen, char *err,
	       size_t errlen)
{
	unsigned long long size = ZSTD_getFrameContentSize(z, zlen);
	size_t n;

	*out = NULL;
	*outlen = 0;
	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
		return store_fail(err, errlen, "a document that is not one ukbench keeps");
	if (size > UKB_READ_MAX)
		return store_fail(err, errlen, "a document of %llu bytes, more than a run can be",
				  size);
	*out = malloc((size_t)size + 1);
	if (!*out)
		return store_fail(err, errlen, "out of memory");
	n = ZSTD_decompress(*out, (size_t)size, z, zlen);
	if (ZSTD_isError(n) || n != size) {
		free(*out);
		*out = NULL;
		return store_fail(err, errlen, "a damaged document: %s",
				  ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short");
	}
	(*out)[n] = '\0';
	*outlen = n;
	return 0;
}
