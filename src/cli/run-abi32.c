// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-abi32.c - `run --abi 32|both`: the selected benchmarks measured by
 * the 32-bit helper (ukbench-abi32, built with -m32 beside ukbench), so
 * that the i386 vDSO and the compat system calls of a 64-bit kernel sit
 * beside the native figures. Their paths carry "@32": "vdso@32".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "run-abi32.h"

int abi32_helper(char *path, size_t len)
{
	const char *env = getenv("UKBENCH_ABI32");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, X_OK) ? -1 : 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	snprintf(path, len, "%.*s/ukbench-abi32", slash ? (int)(slash - self) : 1,
		 slash ? self : ".");
	return access(path, X_OK) ? -1 : 0;
}

/* One line of the helper into a result. */
static int parse_line(char *line, struct rec_run *run)
{
	char *f[9], *save = NULL, *p = line;
	struct rec_result *r;
	int n = 0;

	for (; n < 9; n++) {
		f[n] = p;
		p = strchr(p, n < 8 ? '\t' : '\n');
		if (!p) {
			n++;
			break;
		}
		*p++ = 0;
	}
	if (n < 8)
		return -EINVAL;
	r = rec_add_result(run);
	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", f[0]);
	snprintf(r->benchmark, sizeof(r->benchmark), "%s", f[0]);
	snprintf(r->path, sizeof(r->path), "%s@32", f[1]);
	snprintf(r->unit, sizeof(r->unit), "call");
	snprintf(r->detail, sizeof(r->detail), "through the 32-bit ABI (ukbench-abi32)");
	r->status =
	    rec_status_parse(f[2]) < 0 ? UKB_ERROR : (enum ukb_status)rec_status_parse(f[2]);
	r->err = atoi(f[3]);
	r->batch_iters = strtoull(f[4], NULL, 10);
	r->measure_s = atof(f[5]);
	r->converged = atoi(f[6]);
	snprintf(r->reason, sizeof(r->reason), "%s", f[7]);
	if (n == 9 && f[8][0]) {
		size_t cap = 1;

		for (const char *c = f[8]; *c; c++)
			cap += *c == ',';
		r->samples = malloc(cap * sizeof(double));
		if (!r->samples)
			return -ENOMEM;
		for (char *tok = strtok_r(f[8], ",\n", &save); tok;
		     tok = strtok_r(NULL, ",\n", &save))
			r->samples[r->nsamples++] = atof(tok);
	}
	if (r->status == UKB_OK)
		rec_result_restat(r);
	return 0;
}

/*
 * The helper could not be started (a kernel without 32-bit support answers
 * ENOEXEC): every case is a row that says so, as for any path the machine
 * lacks.
 */
static int add_unavailable(const struct ukb_case *cases, size_t n, int err, struct rec_run *run)
{
	for (size_t i = 0; i < n; i++) {
		struct rec_result *r = rec_add_result(run);

		if (!r)
			return -ENOMEM;
		snprintf(r->name, sizeof(r->name), "%s", cases[i].name);
		snprintf(r->benchmark, sizeof(r->benchmark), "%s", cases[i].name);
		snprintf(r->path, sizeof(r->path), "%s@32", cases[i].path->name);
		snprintf(r->unit, sizeof(r->unit), "call");
		r->status = UKB_UNSUPPORTED;
		r->err = err;
		snprintf(r->reason, sizeof(r->reason), "%s",
			 err == ENOEXEC
			     ? "this kernel cannot run 32-bit programs (Exec format error)"
			     : strerror(err));
		r->cpu = -1;
	}
	return 0;
}

int run_abi32(const struct ukb_measure_opts *m, const struct ukb_case *cases, size_t n,
	      struct rec_run *run)
{
	char helper[PATH_MAX], num[7][32], **argv, line[1 << 20];
	int fds[2], efd[2], status, ret = 0, exec_err = 0;
	size_t a = 0;
	FILE *f;
	pid_t pid;

	if (abi32_helper(helper, sizeof(helper)))
		return -ENOENT;
	argv = calloc(n + 10, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	snprintf(num[0], sizeof(num[0]), "%.17g", m->precision);
	snprintf(num[1], sizeof(num[1]), "%.17g", m->budget_s);
	snprintf(num[2], sizeof(num[2]), "%.17g", m->warmup_s);
	snprintf(num[3], sizeof(num[3]), "%u", m->min_samples);
	snprintf(num[4], sizeof(num[4]), "%u", m->max_samples);
	snprintf(num[5], sizeof(num[5]), "%.17g", m->batch_ns);
	snprintf(num[6], sizeof(num[6]), "%u", m->cpu);
	argv[a++] = helper;
	for (int i = 0; i < 7; i++)
		argv[a++] = num[i];
	for (size_t i = 0; i < n; i++) {
		argv[a] = malloc(strlen(cases[i].name) + strlen(cases[i].path->name) + 2);
		if (!argv[a])
			break;
		sprintf(argv[a++], "%s/%s", cases[i].name, cases[i].path->name);
	}
	if (pipe(fds)) {
		ret = -errno;
		goto out;
	}
	/* the child's exec error comes back here; a successful exec closes it */
	if (pipe2(efd, O_CLOEXEC)) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		close(efd[0]);
		execv(helper, argv);
		exec_err = errno;
		if (write(efd[1], &exec_err, sizeof(exec_err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	close(efd[1]);
	if (pid > 0 && read(efd[0], &exec_err, sizeof(exec_err)) != sizeof(exec_err))
		exec_err = 0;
	close(efd[0]);
	if (exec_err) {
		close(fds[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ret = add_unavailable(cases, n, exec_err, run);
		goto out;
	}
	f = fdopen(fds[0], "r");
	while (f && fgets(line, sizeof(line), f) && !ret)
		ret = parse_line(line, run);
	if (f)
		fclose(f);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!ret && (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)))
		ret = -ECHILD;
out:
	for (size_t i = 8; i < a; i++)
		free(argv[i]);
	free(argv);
	return ret;
}
