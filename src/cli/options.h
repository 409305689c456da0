/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - one option table per command.
 *
 * A command declares its options once, in a table of struct opt: the long
 * and short names, the value's name, one line of help and an id. From it
 * come the getopt_long() tables, the `--help` text, and (for the test that
 * checks them) the list every option must appear in. A command's
 * description and examples sit beside the table in struct command.
 */
#ifndef UKB_CLI_OPTIONS_H
#define UKB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/*
 * What an option does with its value. Most are bound to a member of the
 * command's options struct (the ctx opts_parse() is given) and set by the
 * parser itself, with the bounds in the table; OPT_K_CALL hands the id and
 * the value to the command's own set().
 */
enum opt_kind {
	OPT_K_CALL,	/* set(ctx, id, value) */
	OPT_K_BOOL,	/* int member = 1 */
	OPT_K_STRING,	/* const char * member = the value */
	OPT_K_UNSIGNED, /* unsigned member, the value in [lo, hi] */
	OPT_K_ULONG,	/* unsigned long member, the value in [lo, hi] */
	OPT_K_SIZE,	/* size_t member, the value in [lo, hi] */
	OPT_K_DOUBLE,	/* double member, the value in [lo, hi] */
	OPT_K_PERCENT,	/* double member = the value / 100, the value in [lo, hi] */
	OPT_K_CHOICE,	/* an enum member = the index of the value among arg's words */
	OPT_K_FUNC,	/* parse(o, value, member): a value of the option's own form */
};

struct opt {
	const char *name; /* long name, without "--" */
	int shrt;	  /* short letter, or 0 */
	const char *arg;  /* the value's name ("SEC"), NULL for a flag */
	const char *help; /* what it does, with its default; "\n" continues a line */
	int id;		  /* handed to the command's handler; 'h' is --help */
	enum opt_kind kind;
	size_t off;    /* where the member is in the command's options struct */
	double lo, hi; /* the bounds of a number */
	double scale;  /* a number is kept times this (0: as given; a percent: 1/100) */
	/*
	 * The default as one would type it: set through the option's own
	 * parser before the command line is read, and shown by --help as
	 * "(default DEF)". NULL: the member's own start, or a rule the help
	 * states in words.
	 */
	const char *def;
	size_t given; /* 1 + the offset of an int member set when the option is given; 0: none */
	size_t named; /* 1 + the offset of a const char * member given the option's name */
	/* OPT_K_FUNC: 0, or -1 with the error printed */
	int (*parse)(const struct opt *o, const char *arg, void *member);
};

/*
 * The offset of member F of struct T, refused at compile time unless it
 * has the size SZ that the kind writes.
 */
#define OPT__AT(T, F, SZ) (offsetof(T, F) + 0 * sizeof(char[sizeof(((T *)0)->F) == (SZ) ? 1 : -1]))

/* An option the command's set() handles, by its id; the table's end. */
#define OPT_CALL(L, S, A, H, ID)                                                                   \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .id = (ID)                      \
	}
#define OPT_END                                                                                    \
	{                                                                                          \
		.name = NULL                                                                       \
	}

/* Options bound to a member, as git's parse-options declares them. */
#define OPT_BOOL(L, S, H, T, F, ...)                                                               \
	{                                                                                          \
		.name = (L), .shrt = (S), .help = (H), .kind = OPT_K_BOOL,                         \
		.off = OPT__AT(T, F, sizeof(int)), __VA_ARGS__                                     \
	}
#define OPT_STRING(L, S, A, H, T, F, ...)                                                          \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_STRING,           \
		.off = OPT__AT(T, F, sizeof(const char *)), __VA_ARGS__                            \
	}
#define OPT_UNSIGNED(L, S, A, H, LO, HI, T, F, ...)                                                \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_UNSIGNED,         \
		.off = OPT__AT(T, F, sizeof(unsigned)), .lo = (LO), .hi = (HI), __VA_ARGS__        \
	}
#define OPT_ULONG(L, S, A, H, LO, HI, T, F, ...)                                                   \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_ULONG,            \
		.off = OPT__AT(T, F, sizeof(unsigned long)), .lo = (LO), .hi = (HI), __VA_ARGS__   \
	}
#define OPT_SIZE(L, S, A, H, LO, HI, T, F, ...)                                                    \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_SIZE,             \
		.off = OPT__AT(T, F, sizeof(size_t)), .lo = (LO), .hi = (HI), __VA_ARGS__          \
	}
#define OPT_DOUBLE(L, S, A, H, LO, HI, T, F, ...)                                                  \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_DOUBLE,           \
		.off = OPT__AT(T, F, sizeof(double)), .lo = (LO), .hi = (HI), __VA_ARGS__          \
	}
#define OPT_PERCENT(L, S, A, H, LO, HI, T, F, ...)                                                 \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_PERCENT,          \
		.off = OPT__AT(T, F, sizeof(double)), .lo = (LO), .hi = (HI), __VA_ARGS__          \
	}
/* FN(o, value, member) reads the value into the member of type MT */
#define OPT_FUNC(L, S, A, H, FN, MT, T, F, ...)                                                    \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (A), .help = (H), .kind = OPT_K_FUNC,             \
		.off = OPT__AT(T, F, sizeof(MT)), .parse = (FN), __VA_ARGS__                       \
	}
/*
 * What may follow a bound option's member: its default as typed (shown by
 * --help), a member set to 1 when the option is given, a scale for the
 * value ("USEC" kept in ns: 1000), a member that names it when given.
 */
#define OPT_DEF(D)	.def = (D)
#define OPT_GIVEN(T, F) .given = OPT__AT(T, F, sizeof(int)) + 1
#define OPT_SCALE(X)	.scale = (X)
/* F (a const char *) names the option when given: "alpha", for "--alpha is for ..." */
#define OPT_NAMED(T, F) .named = OPT__AT(T, F, sizeof(const char *)) + 1

/* WORDS: "table|json|csv", in the order of the enum's values */
#define OPT_CHOICE(L, S, WORDS, H, T, F, ...)                                                      \
	{                                                                                          \
		.name = (L), .shrt = (S), .arg = (WORDS), .help = (H), .kind = OPT_K_CHOICE,       \
		.off = OPT__AT(T, F, sizeof(int)), __VA_ARGS__                                     \
	}

/*
 * One letter, one meaning: a short option is the same long option in
 * every command that has it (tests/unit/test-options.c holds this), but
 * -r, the number of fresh processes: run's --processes, exec's --repeat
 * (each repetition a fresh process of the command).
 */

/*
 * An option that takes one of a few words names them as its value,
 * separated by '|' ("table|json|csv"): the parser refuses any other with
 * the list, --help shows them, and the completions offer them.
 */

/*
 * An old spelling still taken: using it works as the option it is now,
 * with a note on stderr saying which that is, so scripts keep working
 * while people learn the one name.
 */
struct opt_old {
	const char *name; /* the old long name, without "--" */
	int shrt;	  /* its old short letter, or 0 */
	const char *now;  /* the long name of the option that took its place */
};

/* OPT_FUNC's reader of a list of sizes ("1,64,4k,1m") into a new long * array, 0-terminated. */
int opt_parse_sizes(const struct opt *o, const char *arg, void *member);

/* @o's help with "(default DEF)" after it where the table gives one; in @buf or @o's own. */
const char *opt_help(const struct opt *o, char *buf, size_t len);

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;  /* one line for `ukbench --help`; NULL: hidden */
	const char *synopsis; /* "[options] [PATTERN...]" */
	const char *about;    /* what it does, a paragraph or two */
	const struct opt *opts;
	const char *footer;	   /* examples, ...; may be NULL */
	const struct opt_old *old; /* old spellings, {NULL} ended; may be NULL */
};

/* Every command, in the order `ukbench --help` lists them; NULL ended. */
extern const struct command *const commands[];

/* The command named @name, or NULL. */
const struct command *command_find(const char *name);

/* The command a typo most likely meant (a few edits away), or NULL. */
const char *command_closest(const char *name);

/*
 * Parses the options of @argc/@argv (argv[0] the command's name) by the
 * command's table, calling @set for each with its id and value. --help
 * prints the help and returns 1; a bad option prints an error and returns
 * -1, and so does a @set that returns non-zero. @posix: stop at the first
 * operand (exec's command line). 0 otherwise, with *@first the index of the
 * first operand. @set may be NULL when every option is bound to a member.
 */
int opts_parse(const struct command *c, int argc, char **argv, int posix,
	       int (*set)(void *ctx, int id, const char *arg), void *ctx, int *first);

/* The option of @c named @name, or NULL. */
const struct opt *opt_find(const struct command *c, const char *name);

/* The help text of @c to @f. */
void opts_help(FILE *f, const struct command *c);

#endif
