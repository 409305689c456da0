// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc-pack.c - a run's JSON kept packed (see doc-pack.h).
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "jv.h"
#include "doc-pack.h"
#include "record.h"
#include "store-backend.h"

/*
 * zstd's level 9: a default run's kept document (78 KB of JSON) in 15.0 KB
 * in 1.4 ms; 12 takes 5.5 ms for the same, 15 takes 14 ms for 13.3 KB,
 * which sixteen machines pushing at once to a small server would feel.
 */
#define PG_DOC_LEVEL 9

static const char *const proc_keys[] = { "process_means_ns", "process_ref_ns" };
static const char *const made_again[] = { "mean_ns",	   "ci95_ns",	 "ci95_rel",
					  "between_sd_ns", "per_second", "bytes_per_second" };

/* Drops from each result kept as a summary what doc-pack.h lists. */
static void keep(struct jv *run)
{
	struct jv *results = jv_get(run, "results");

	for (size_t i = 0; i < jv_len(results); i++) {
		struct jv *r = jv_at(results, i), *st = jv_get(r, "stats");

		if (!jv_get(r, "batches"))
			continue;
		for (size_t k = 0; k < sizeof(proc_keys) / sizeof(proc_keys[0]); k++)
			jv_del(r, proc_keys[k]);
		for (size_t k = 0; st && k < sizeof(made_again) / sizeof(made_again[0]); k++)
			jv_del(st, made_again[k]);
	}
}

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
	n = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, PG_DOC_LEVEL);
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
	struct jv_error e = { 0 };
	struct jv *run = jv_parse_span(doc, len, 1, NULL, &e);
	const char *why;
	char *text;
	size_t tlen, cap, n;

	*out = NULL;
	*outlen = 0;
	if (!run)
		return store_fail(err, errlen, "%s",
				  e.nomem ? "out of memory" : "the run's JSON cannot be read");
	if (!jv_is(run, JV_OBJECT) || !jv_is(jv_get(run, "results"), JV_ARRAY)) {
		jv_free(run);
		return store_fail(err, errlen, "the run's JSON has no results");
	}
	if (how == DOC_FOR_SERVER)
		keep(run);
	text = jv_text(run, 0);
	jv_free(run);
	if (!text)
		return store_fail(err, errlen, "out of memory");
	tlen = strlen(text);
	cap = ZSTD_compressBound(tlen);
	*out = malloc(cap);
	if (!*out) {
		free(text);
		return store_fail(err, errlen, "out of memory");
	}
	n = pack(*out, cap, text, tlen, &why);
	free(text);
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
