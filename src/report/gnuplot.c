// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gnuplot.c - one gnuplot process for every plot of a report.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

extern char **environ;

int gp_open(struct gnuplot *g)
{
	memset(g, 0, sizeof(*g));
	g->f = open_memstream(&g->script, &g->len);
	return g->f ? 0 : -ENOMEM;
}

void gp_plot(struct gnuplot *g, int width, int height)
{
	if (g->nplots)
		fprintf(g->f, "reset\n");
	fprintf(g->f,
		"set terminal svg size %d,%d fixed noenhanced font 'sans,11' background "
		"'#ffffff'\n",
		width, height);
	g->nplots++;
}

void gp_data(struct gnuplot *g, const char *name, const double *x, const double *v, size_t n)
{
	fprintf(g->f, "%s << EOD\n", name);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]) || (x && !isfinite(x[i])))
			continue;
		if (x)
			fprintf(g->f, "%.17g ", x[i]);
		fprintf(g->f, "%.17g\n", v[i]);
	}
	fprintf(g->f, "EOD\n");
}

/* A memory file holding @len bytes of @text, read from its start; -1 on error. */
static int memfile(const char *name, const char *text, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len) {
		ssize_t w = write(fd, text, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		text += w;
		len -= (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole content of @fd into a new NUL-ended buffer; NULL on error. */
static char *slurp(int fd, size_t *len)
{
	struct stat sb;
	char *buf;
	size_t at = 0;

	if (fstat(fd, &sb) || lseek(fd, 0, SEEK_SET) < 0)
		return NULL;
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf)
		return NULL;
	while (at < (size_t)sb.st_size) {
		ssize_t r = read(fd, buf + at, (size_t)sb.st_size - at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		at += (size_t)r;
	}
	buf[at] = 0;
	*len = at;
	return buf;
}

/* Finds the documents in g->out: each starts with "<?xml". */
static int split(struct gnuplot *g)
{
	const char *p = g->out;
	size_t k = 0;

	g->start = calloc(g->nplots + 1, sizeof(*g->start));
	g->size = calloc(g->nplots + 1, sizeof(*g->size));
	if (!g->start || !g->size)
		return -1;
	while ((p = strstr(p, "<?xml")) && k < g->nplots) {
		const char *next = strstr(p + 5, "<?xml");

		g->start[k] = (size_t)(p - g->out);
		g->size[k] = next ? (size_t)(next - p) : g->outlen - g->start[k];
		k++;
		p += 5;
	}
	return k == g->nplots ? 0 : -1;
}

/* gnuplot's first message line, without its blanks, into @err. */
static void first_message(const char *msg, char *err, size_t errlen)
{
	const char *line = msg;

	while (*line) {
		size_t n = strcspn(line, "\n");
		const char *t = line;

		while (t < line + n && (*t == ' ' || *t == '\t' || *t == '^'))
			t++;
		if (t < line + n) {
			snprintf(err, errlen, "gnuplot: %.*s", (int)(line + n - t), t);
			return;
		}
		line += n + (line[n] == '\n');
	}
	snprintf(err, errlen, "gnuplot failed without a message");
}

int gp_run(struct gnuplot *g, const char *program, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	const char *prog = program ? program : "gnuplot";
	char *argv[] = { (char *)prog, "-d", NULL }, *msg;
	int in, out, errfd, rc, status;
	size_t mlen;
	pid_t pid;

	if (fflush(g->f) || ferror(g->f)) {
		snprintf(err, errlen, "writing the plots' script: %s", strerror(ENOMEM));
		return -1;
	}
	in = memfile("ukbench-plot-script", g->script, g->len);
	out = memfd_create("ukbench-plot-svg", MFD_CLOEXEC);
	errfd = memfd_create("ukbench-plot-messages", MFD_CLOEXEC);
	if (in < 0 || out < 0 || errfd < 0) {
		snprintf(err, errlen, "memory files for gnuplot: %s", strerror(errno));
		rc = -1;
		goto close;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, errfd, 2);
	rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		if (rc == ENOENT && !program)
			snprintf(err, errlen,
				 "gnuplot is not installed (Debian: apt install "
				 "gnuplot-nox)");
		else if (rc == ENOENT)
			snprintf(err, errlen, "%s: no such program", prog);
		else
			snprintf(err, errlen, "cannot run %s: %s", prog, strerror(rc));
		rc = -1;
		goto close;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	g->out = slurp(out, &g->outlen);
	msg = slurp(errfd, &mlen);
	rc = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (msg && mlen)
			first_message(msg, err, errlen);
		else if (WIFSIGNALED(status))
			snprintf(err, errlen, "%s was killed by signal %d", prog, WTERMSIG(status));
		else
			snprintf(err, errlen, "%s failed (exit %d)", prog,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		rc = -1;
	} else if (!g->out || split(g)) {
		snprintf(err, errlen, "%s made %s plots than it was asked for", prog,
			 g->out ? "fewer" : "no");
		rc = -1;
	}
	free(msg);
close:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (errfd >= 0)
		close(errfd);
	return rc;
}

const char *gp_svg(const struct gnuplot *g, size_t i, size_t *len)
{
	if (!g->start || i >= g->nplots)
		return NULL;
	*len = g->size[i];
	return g->out + g->start[i];
}

void gp_close(struct gnuplot *g)
{
	if (g->f)
		fclose(g->f);
	free(g->script);
	free(g->out);
	free(g->start);
	free(g->size);
	memset(g, 0, sizeof(*g));
}
