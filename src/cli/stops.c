// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stops.c - the default way a command stops on INT, TERM and HUP (see
 * stops.h). The handler only calls what is async-signal-safe: unlink(),
 * write() and _exit(). Leaving without unwinding is safe here because
 * every store writes in transactions (SQLite rolls an unfinished one back
 * when the file is next opened; a PostgreSQL server drops it with the
 * connection, and the run waits in the spool), and the result file is
 * written under a temporary name that the handler removes.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "stops.h"

static const char *volatile tmp_path;

void stops_tmp_file(const char *path)
{
	tmp_path = path;
}

static void say(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));

	(void)r;
}

static void on_stop(int sig)
{
	const char *name = sig == SIGINT    ? "signal 2 (SIGINT)"
			   : sig == SIGTERM ? "signal 15 (SIGTERM)"
					    : "signal 1 (SIGHUP)";
	const char *tmp = tmp_path;

	if (tmp)
		unlink(tmp);
	say("error: interrupted by ");
	say(name);
	say(": stopped, nothing half-written\n");
	_exit(128 + sig);
}

void stops_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);
	sa.sa_handler = on_stop;
	/* as run's own handlers do: whoever started us may have ignored them */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
