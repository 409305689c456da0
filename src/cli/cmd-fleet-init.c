// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-fleet-init.c - `ukbench fleet-init --db TARGET`: makes or migrates the
 * fleet schema on a PostgreSQL server, as its owner, and grants the roles
 * the boards push with and the people read with what they need and no more.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "options.h"
#include "store.h"

struct fleet_opts {
	const char *db, *writer, *reader;
};

static const struct opt fleet_opts_table[] = {
	OPT_STRING(
	    "db", 0, "TARGET",
	    "the server: postgresql://HOST/DB?..., or postgres:SERVICE\n(default: $UKBENCH_DB)",
	    struct fleet_opts, db),
	OPT_STRING(
	    "writer", 0, "ROLE",
	    "grant ROLE what pushing needs: INSERT on runs and results,\nthe schema's version, "
	    "and pruning (ukbench_prune(), see\nfleet-prune); no UPDATE, DELETE or DDL",
	    struct fleet_opts, writer),
	OPT_STRING("reader", 0, "ROLE", "grant ROLE SELECT on the fleet's tables, and nothing else",
		   struct fleet_opts, reader),
	OPT_END,
};

const struct command cmd_fleet_init_def = {
	.name = "fleet-init",
	.fn = cmd_fleet_init,
	.summary = "make the fleet's schema on a PostgreSQL server; grant roles",
	.synopsis = "--db TARGET [--writer ROLE] [--reader ROLE]",
	.about = "Makes the tables of a fleet's server (or migrates them to this ukbench's\n"
		 "schema version) in one transaction, as the database's owner, and grants the\n"
		 "roles (made beforehand, with CREATE ROLE ... LOGIN) their part: a writer\n"
		 "may insert runs, read the schema's version and prune old runs' detail\n"
		 "(fleet-prune), a reader may select. Running it again is harmless. A\n"
		 "migration that rewrites the results (to schema 6: a year of a thousand\n"
		 "machines in about a minute) vacuums them after, so that history reads its\n"
		 "index alone again.",
	.opts = fleet_opts_table,
	.footer = "example:\n"
		  "  ukbench fleet-init --db postgresql://lab.example/ukbench \\\n"
		  "      --writer ukb_push --reader ukb_read\n",
};

int cmd_fleet_init(int argc, char **argv)
{
	struct fleet_opts o = { 0 };
	char msg[512], err[1024], conninfo[2048];
	int first, ret;

	ret = opts_parse(&cmd_fleet_init_def, argc, argv, 0, NULL, &o, &first);
	if (ret)
		return ret > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (!o.db)
		o.db = getenv("UKBENCH_DB");
	if (first < argc || !o.db || !store_is_fleet(o.db) || (o.writer && !o.writer[0]) ||
	    (o.reader && !o.reader[0])) {
		error("'ukbench fleet-init' needs --db TARGET (or UKBENCH_DB) naming a server "
		      "(postgresql://HOST/DB, "
		      "or postgres:SERVICE), and roles that are not empty; see 'ukbench fleet-init "
		      "--help'");
		return UKB_EXIT_USAGE;
	}
	/* A URI libpq cannot read, or one holding a secret, is bad usage. */
	if (store_fleet_conninfo(o.db, conninfo, sizeof(conninfo), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_USAGE;
	}
	if (store_fleet_init(o.db, o.writer, o.reader, msg, sizeof(msg), err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	printf("%s\n", msg);
	if (o.writer)
		printf("granted %s: INSERT on runs and results, SELECT on ukbench_schema, "
		       "EXECUTE on ukbench_prune()\n",
		       o.writer);
	if (o.reader)
		printf("granted %s: SELECT on ukbench_schema, runs and results\n", o.reader);
	return UKB_EXIT_OK;
}
