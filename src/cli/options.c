// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - getopt and --help from a command's option table.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exits.h"
#include "options.h"
#include "select.h"

const struct command *command_find(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* A typo is a few edits away: a third of the word, at least one, at most three. */
static int near(const char *typed, const char *name)
{
	size_t len = strlen(typed), limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;

	return ukb_edit_distance(typed, name) <= limit;
}

const char *command_closest(const char *name)
{
	const char *best = NULL;
	size_t bd = (size_t)-1;

	for (size_t i = 0; commands[i]; i++) {
		size_t d = ukb_edit_distance(name, commands[i]->name);

		if (commands[i]->summary && d < bd && near(name, commands[i]->name)) {
			bd = d;
			best = commands[i]->name;
		}
	}
	return best;
}

/* The long option of @c closest to @typed ("--precison", "lable"), or NULL. */
static const char *option_closest(const struct command *c, const char *typed)
{
	const char *best = NULL;
	size_t bd = (size_t)-1;
	char word[64];

	while (*typed == '-')
		typed++;
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(typed, "="), typed);
	if (!word[0])
		return NULL;
	for (const struct opt *o = c->opts; o && o->name; o++) {
		size_t d = ukb_edit_distance(word, o->name);

		if (d < bd && near(word, o->name)) {
			bd = d;
			best = o->name;
		}
	}
	for (const struct opt_old *o = c->old; o && o->name; o++) {
		size_t d = ukb_edit_distance(word, o->name);

		/* a typo of an old name is pointed to the new one */
		if (d < bd && near(word, o->name)) {
			bd = d;
			best = o->now;
		}
	}
	return best;
}

/*
 * Is @arg one of the words of o->arg ("table|json|csv")? Else the error
 * names them ("unknown format 'yaml': table, json or csv").
 */
static int value_allowed(const struct opt *o, const char *arg)
{
	const char *v = o->arg;
	char list[256];
	size_t n = 0, len = strlen(arg);
	int words = 0;

	for (const char *w = v; *w;) {
		size_t wl = strcspn(w, "|");

		if (wl == len && !strncmp(w, arg, len))
			return 1;
		w += wl + (w[wl] == '|');
		words++;
	}
	list[0] = 0;
	for (int k = 0; *v && n < sizeof(list); k++) {
		size_t wl = strcspn(v, "|");

		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%.*s",
				      k == 0	       ? ""
				      : k == words - 1 ? " or "
						       : ", ",
				      (int)wl, v);
		v += wl + (v[wl] == '|');
	}
	if (!strcmp(o->name, "format"))
		error("unknown format '%s': %s", arg, list);
	else
		error("--%s takes %s, not '%s'", o->name, list, arg);
	return 0;
}

/* The index of @arg among the words of @words ("table|json|csv"), or -1. */
static int word_index(const char *words, const char *arg)
{
	size_t len;
	int k = 0;

	if (!words || !arg)
		return -1;
	len = strlen(arg);
	for (const char *w = words; *w; k++) {
		size_t wl = strcspn(w, "|");

		if (wl == len && !strncmp(w, arg, len))
			return k;
		w += wl + (w[wl] == '|');
	}
	return -1;
}

/* An option bound to a member of @ctx: its value parsed, checked and set there. */
static int bind(const struct opt *o, const char *arg, void *ctx)
{
	char *at = (char *)ctx + o->off, name[64];
	unsigned long u;
	double d;

	snprintf(name, sizeof(name), "--%s", o->name);
	/* every kind but a flag takes a value: the table gives it a name */
	if (o->kind != OPT_K_BOOL && !arg)
		return -1;
	switch (o->kind) {
	case OPT_K_BOOL:
		*(int *)at = 1;
		return 0;
	case OPT_K_STRING:
		*(const char **)at = arg;
		return 0;
	case OPT_K_UNSIGNED:
		if (parse_uint(name, arg, (unsigned long)o->lo, (unsigned long)o->hi, &u))
			return -1;
		*(unsigned *)at = (unsigned)u;
		return 0;
	case OPT_K_ULONG:
	case OPT_K_SIZE:
		if (parse_uint(name, arg, (unsigned long)o->lo, (unsigned long)o->hi, &u))
			return -1;
		if (o->kind == OPT_K_ULONG)
			*(unsigned long *)at = u;
		else
			*(size_t *)at = u;
		return 0;
	case OPT_K_DOUBLE:
	case OPT_K_PERCENT:
		if (parse_double(name, arg, o->lo, o->hi, &d))
			return -1;
		*(double *)at = d * (o->scale ? o->scale : o->kind == OPT_K_PERCENT ? 0.01 : 1);
		return 0;
	case OPT_K_CHOICE:
		/* value_allowed() refused any other word */
		*(int *)at = word_index(o->arg, arg);
		return 0;
	case OPT_K_FUNC:
		return o->parse(o, arg, at);
	case OPT_K_CALL:
		break;
	}
	return -1;
}

/* Every default of the table, set as if typed: 0, or -1 (a table's mistake, printed). */
static int bind_defaults(const struct command *c, void *ctx)
{
	for (const struct opt *o = c->opts; o && o->name; o++)
		if (o->def && (o->kind == OPT_K_CALL || bind(o, o->def, ctx)))
			return error("the default of --%s, '%s', is not one it takes", o->name,
				     o->def);
	return 0;
}

int opt_parse_sizes(const struct opt *o, const char *arg, void *member)
{
	long **sizes = member;
	struct ukb_err e;
	char name[64];

	snprintf(name, sizeof(name), "--%s", o->name);
	free(*sizes);
	*sizes = NULL;
	if (parse_size_list(name, arg, sizes, &e))
		return error_hint(&e), -1;
	return 0;
}

const char *opt_help(const struct opt *o, char *buf, size_t len)
{
	if (!o->def)
		return o->help;
	snprintf(buf, len, "%s (default %s)", o->help, o->def);
	return buf;
}

/* An option's value longer than this is refused: no setting needs it. */
#define OPT_VALUE_MAX 4096

static const struct opt help_opt = OPT_CALL("help", 'h', NULL, "this text", 'h');

/* what getopt_long returns for --help: out of the range of the table's */
#define HELP_VAL ('h' | 0x10000)
/* ...and for old spelling i: OLD_VAL + i */
#define OLD_VAL 0x20000

/* Help beside its options has 80 - 27 columns. */
#define HELP_COLS 53

/*
 * The bytes of @h (of @n bytes) that fit HELP_COLS columns: cut at
 * its last space that fits, so that help stays within 80 columns.
 */
static int help_piece(const char *h, int n)
{
	int cols = 0, cut = -1;

	for (int i = 0; i < n; i++) {
		if (h[i] == ' ')
			cut = i;
		cols += ((unsigned char)h[i] & 0xc0) != 0x80;
		if (cols > HELP_COLS && cut > 0)
			return cut;
	}
	return n;
}

void opts_help(FILE *f, const struct command *c)
{
	fprintf(f, "usage: ukbench %s %s\n\n%s\n\noptions:\n", c->name, c->synopsis, c->about);
	for (const struct opt *o = c->opts;; o++) {
		const struct opt *e = o && o->name ? o : &help_opt;
		char left[64], text[1024];
		const char *h = opt_help(e, text, sizeof(text));
		char flow[1024];

		/* one paragraph, folded to the columns help has */
		snprintf(flow, sizeof(flow), "%s", h ? h : "");
		for (char *p = flow; *p; p++)
			if (*p == '\n')
				*p = ' ';
		h = h ? flow : NULL;

		snprintf(left, sizeof(left), "%c%c%s--%s%s%s", e->shrt ? '-' : ' ',
			 e->shrt ? e->shrt : ' ', e->shrt ? ", " : "  ", e->name, e->arg ? " " : "",
			 e->arg ? e->arg : "");
		/* continuation lines of the help line up under its start */
		for (int first = 1; h; first = 0) {
			int n = help_piece(h, (int)strlen(h));

			if (first && strlen(left) > 24)
				fprintf(f, "  %s\n%27s%.*s\n", left, "", n, h);
			else
				fprintf(f, "  %-24s %.*s\n", first ? left : "", n, h);
			h += n;
			if (*h == ' ')
				h++;
			if (!*h)
				h = NULL;
		}
		if (e == &help_opt)
			break;
	}
	for (const struct opt_old *o = c->old; o && o->name; o++) {
		char left[64];

		if (o == c->old)
			fputs("\nold spellings, still taken (with a note that they are old):\n", f);
		snprintf(left, sizeof(left), "%c%c%s--%s", o->shrt ? '-' : ' ',
			 o->shrt ? o->shrt : ' ', o->shrt ? ", " : "  ", o->name);
		fprintf(f, "  %-24s now --%s\n", left, o->now);
	}
	fputc('\n', f);
	exits_help(f, c->name);
	if (c->footer)
		fprintf(f, "\n%s", c->footer);
}

const struct opt *opt_find(const struct command *c, const char *name)
{
	for (const struct opt *o = c->opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* The option an old spelling (index @i of c->old) stands for, said on stderr. */
static const struct opt *old_hit(const struct command *c, size_t i, int by_letter)
{
	const struct opt_old *o = c->old ? &c->old[i] : NULL;
	const struct opt *now = o ? opt_find(c, o->now) : NULL;

	if (!now)
		return NULL;

	if (by_letter)
		fprintf(stderr, "note: -%c is the old spelling of --%s in 'ukbench %s'\n", o->shrt,
			o->now, c->name);
	else
		fprintf(stderr, "note: --%s is the old spelling of --%s\n", o->name, o->now);
	return now;
}

/*
 * getopt_long()'s table of @c's @n options (a table entry as 256 + its
 * index, --help as HELP_VAL, an old spelling as OLD_VAL + its index) and
 * their short letters into @shorts (of @len); NULL without memory.
 */
static struct option *long_options(const struct command *c, size_t n, int posix, char *shorts,
				   size_t len)
{
	struct option *lo = calloc(n + 1, sizeof(*lo));
	size_t k = 0, so = 0;

	if (!lo)
		return NULL;
	shorts[so++] = posix ? '+' : ':';
	if (posix)
		shorts[so++] = ':';
	for (const struct opt *o = c->opts;; o++) {
		const struct opt *e = o && o->name ? o : &help_opt;

		/* a table entry comes back as 256 + its index, --help as HELP_VAL */
		lo[k++] = (struct option){ e->name, e->arg ? required_argument : no_argument, NULL,
					   e == &help_opt ? HELP_VAL : 256 + (int)(e - c->opts) };
		if (e->shrt && so + 3 < len) {
			shorts[so++] = (char)e->shrt;
			if (e->arg)
				shorts[so++] = ':';
		}
		if (e == &help_opt)
			break;
	}
	for (const struct opt_old *o = c->old; o && o->name; o++) {
		const struct opt *now = opt_find(c, o->now);

		if (!now)
			continue;
		lo[k++] = (struct option){ o->name, now->arg ? required_argument : no_argument,
					   NULL, OLD_VAL + (int)(o - c->old) };
		if (o->shrt && so + 3 < len) {
			shorts[so++] = (char)o->shrt;
			if (now->arg)
				shorts[so++] = ':';
		}
	}
	shorts[so] = 0;
	return lo;
}

int opts_parse(const struct command *c, int argc, char **argv, int posix,
	       int (*set)(void *ctx, int id, const char *arg), void *ctx, int *first)
{
	size_t n = 1;
	struct option *lo;
	char shorts[160] = "";
	int ret = 0, ch, idx;

	for (const struct opt *o = c->opts; o && o->name; o++)
		n++;
	for (const struct opt_old *o = c->old; o && o->name; o++)
		n++;
	if (bind_defaults(c, ctx))
		return -1;
	lo = long_options(c, n, posix, shorts, sizeof(shorts));
	if (!lo)
		return error("out of memory");
	optind = 1;
	opterr = 0;
	while (!ret && (ch = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
		const struct opt *hit = NULL;

		if (ch == ':') {
			error("option '%s' needs a value", argv[optind - 1]);
			ret = -1;
			break;
		}
		if (ch == '?') {
			const char *typed = argv[optind - 1];
			const char *hint =
			    typed[0] == '-' && typed[1] == '-' ? option_closest(c, typed) : NULL;

			if (hint)
				error("unknown option '%s'; did you mean '--%s'? (see 'ukbench %s "
				      "--help')",
				      typed, hint, c->name);
			else
				error("unknown option '%s'; see 'ukbench %s --help'", typed,
				      c->name);
			ret = -1;
			break;
		}
		if (ch == HELP_VAL || ch == 'h') {
			opts_help(stdout, c);
			ret = 1;
			break;
		}
		if (ch >= OLD_VAL)
			hit = old_hit(c, (size_t)(ch - OLD_VAL), 0);
		else if (ch >= 256)
			hit = &c->opts[ch - 256];
		for (const struct opt_old *o = c->old; !hit && o && o->name; o++)
			if (o->shrt && o->shrt == ch)
				hit = old_hit(c, (size_t)(o - c->old), 1);
		for (const struct opt *o = c->opts; !hit && o && o->name; o++)
			if (o->shrt == ch)
				hit = o;
		if (hit && optarg && strlen(optarg) > OPT_VALUE_MAX) {
			error("--%s: a value of %zu bytes; an option's value holds at most %d",
			      hit->name, strlen(optarg), OPT_VALUE_MAX);
			ret = -1;
		} else if (hit && optarg && hit->arg && strchr(hit->arg, '|') &&
			   !value_allowed(hit, optarg)) {
			ret = -1;
		} else if (!hit) {
			ret = -1;
		} else if (hit->kind != OPT_K_CALL ? bind(hit, optarg, ctx)
			   : !set		   ? -1
						   : set(ctx, hit->id, optarg)) {
			ret = -1;
		} else {
			if (hit->given)
				*(int *)((char *)ctx + hit->given - 1) = 1;
			if (hit->named)
				*(const char **)((char *)ctx + hit->named - 1) = hit->name;
		}
	}
	free(lo);
	*first = optind;
	return ret;
}
