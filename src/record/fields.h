/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - one declaration per field of a result.
 *
 * The table in fields.c is the one place a result's scalar fields are
 * named: the JSON writer and reader, the SQL columns of the store (its
 * INSERT and SELECT lists) and the CSV columns are all made from it.
 * Adding a field to struct rec_result means one line there (and, for the
 * store, the schema version the column arrived in).
 *
 * Statistics are derived: written to JSON ("stats"), SQL and CSV from
 * stat_fields[], never read back (they are recomputed from the samples).
 */
#ifndef UKB_RECORD_FIELDS_H
#define UKB_RECORD_FIELDS_H

#include <stddef.h>

#include "record.h"

enum rec_ftype {
	RF_STR,	   /* char array */
	RF_INT,	   /* int */
	RF_UINT,   /* unsigned */
	RF_LONG,   /* long */
	RF_U64,	   /* uint64_t */
	RF_DOUBLE, /* double */
	RF_BOOL,   /* int, 0 or 1 */
	RF_STATUS, /* enum ukb_status, as its name */
};

enum rec_fflags {
	RF_NULL_EMPTY = 1 << 0, /* "" is null in JSON */
	RF_NULL_ZERO = 1 << 1,	/* 0 is null in JSON and SQL */
	RF_NULL_NEG = 1 << 2,	/* a negative value is null in JSON and SQL */
	RF_CSV = 1 << 3,	/* a CSV column, before the statistics */
	RF_CSV_TAIL = 1 << 5,	/* a CSV column, after the statistics */
	RF_REQUIRED = 1 << 4,	/* must be present and non-empty when read */
};

struct rec_field {
	const char *json; /* member name in the run JSON */
	const char *sql;  /* column of the results table */
	enum rec_ftype type;
	size_t off, size; /* in struct rec_result */
	unsigned flags;
	int since; /* store schema version that added the column */
};

extern const struct rec_field rec_fields[];
extern const size_t rec_nfields;

/* A derived statistic: JSON member (also the CSV column), SQL column or NULL. */
struct stat_field {
	const char *json;
	const char *sql;
	double (*get)(const struct rec_result *r); /* NAN where it does not exist */
	unsigned flags;				   /* RF_CSV */
};

extern const struct stat_field stat_fields[];
extern const size_t stat_nfields;

/* Is the field of @r null (by its flags)? */
int rec_field_is_null(const struct rec_field *f, const struct rec_result *r);

/* The field's value as a double / a string (RF_STR, RF_STATUS). */
double rec_field_num(const struct rec_field *f, const struct rec_result *r);
const char *rec_field_str(const struct rec_field *f, const struct rec_result *r);

/*
 * Sets a numeric field from @v (checked against the type's range; a
 * status from its name with rec_field_set_str). 0, or -ERANGE.
 */
int rec_field_set_num(const struct rec_field *f, struct rec_result *r, double v);
/* Sets a string or status field; -EINVAL for an unknown status name. */
int rec_field_set_str(const struct rec_field *f, struct rec_result *r, const char *s);

#endif
