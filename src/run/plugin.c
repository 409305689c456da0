// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin.c - loading the plug-ins (see plugin.h).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-info.h"
#include "elf-sym.h"
#include "json-write.h"
#include "plugin.h"
#include "record.h"
#include "registry.h"
#include "ukbench.h"

#define PLUGINS_MAX 32

static struct loaded {
	char path[PATH_MAX];
	char build_id[128];
	const struct ukb_plugin *table;
} loaded[PLUGINS_MAX];
static size_t nloaded;
static char joined[PLUGINS_MAX * (PATH_MAX + 1)];

/* The GNU build id of the ELF file @path, as hex ("" when it has none). */
static void build_id_of(const char *path, char *buf, size_t len)
{
	char err[256];
	size_t size;
	char *img = read_file(path, &size, err, sizeof(err));
	struct ukb_elf e;

	buf[0] = 0;
	if (img && !ukb_elf_parse(&e, img, size))
		ukb_elf_build_id(&e, buf, len);
	free(img);
}

/* The message of a plug-in that cannot be loaded, into @err; -1. */
__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int plugin_load(const char *path, char *err, size_t len)
{
	char real[PATH_MAX], why[512];
	const struct ukb_plugin *t;
	struct loaded *l;
	void *h;
	size_t n = 0;

	if (!realpath(path, real))
		return fail(err, len, "--plugin %s: %s", path, strerror(errno));
	for (size_t i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i].path, real))
			return 0;
	if (nloaded == PLUGINS_MAX)
		return fail(err, len, "at most %d plug-ins", PLUGINS_MAX);
	h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return fail(err, len, "plug-in %s cannot be loaded: %s", path, dlerror());
	t = dlsym(h, "ukb_plugin");
	if (!t) {
		dlclose(h);
		return fail(err, len,
			    "plug-in %s has no table of benchmarks: it must define one with "
			    "UKB_PLUGIN(&bench, ...) (include/ukbench.h)",
			    path);
	}
	if (t->api_version != UKB_API_VERSION) {
		fail(err, len,
		     "plug-in %s was built against ukbench's API version %d, this ukbench has "
		     "version %d: build it again against this ukbench's ukbench.h",
		     path, t->api_version, UKB_API_VERSION);
		dlclose(h);
		return -1;
	}
	for (const struct ukb_bench *const *b = t->benchmarks; b && *b; b++, n++)
		if (ukb_registry_add(*b, why, sizeof(why)))
			/* what it added stays: the registry has no way back, and the run stops */
			return fail(err, len, "plug-in %s: %s", path, why);
	if (!n)
		return fail(err, len, "plug-in %s declares no benchmark", path);
	l = &loaded[nloaded++];
	snprintf(l->path, sizeof(l->path), "%s", real);
	build_id_of(real, l->build_id, sizeof(l->build_id));
	l->table = t;
	return 0;
}

int plugin_load_env(char *err, size_t len)
{
	const char *env = getenv("UKBENCH_PLUGIN_PATH");
	char dirs[4096];

	if (!env || !*env)
		return 0;
	snprintf(dirs, sizeof(dirs), "%s", env);
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		struct dirent **names;
		int n = scandir(d, &names, NULL, alphasort), bad = 0;

		if (n < 0)
			return fail(err, len, "UKBENCH_PLUGIN_PATH: %s: %s", d, strerror(errno));
		for (int i = 0; i < n; i++) {
			size_t l = strlen(names[i]->d_name);
			char path[PATH_MAX];

			if (!bad && l > 3 && !strcmp(names[i]->d_name + l - 3, ".so")) {
				snprintf(path, sizeof(path), "%s/%s", d, names[i]->d_name);
				bad = plugin_load(path, err, len);
			}
			free(names[i]);
		}
		free(names);
		if (bad)
			return -1;
	}
	return 0;
}

const char *plugin_paths(void)
{
	size_t o = 0;

	if (!nloaded)
		return NULL;
	for (size_t i = 0; i < nloaded && o < sizeof(joined); i++)
		o += (size_t)snprintf(joined + o, sizeof(joined) - o, "%s%s", i ? ":" : "",
				      loaded[i].path);
	return joined;
}

char *plugin_describe(void)
{
	struct jw w;

	if (!nloaded)
		return NULL;
	jw_init(&w, 0);
	jw_arr_begin(&w, NULL);
	for (size_t i = 0; i < nloaded; i++) {
		jw_obj_begin(&w, NULL);
		jw_str(&w, "path", loaded[i].path);
		jw_str(&w, "build_id", loaded[i].build_id[0] ? loaded[i].build_id : NULL);
		jw_arr_begin(&w, "benchmarks");
		for (const struct ukb_bench *const *b = loaded[i].table->benchmarks; *b; b++)
			jw_str(&w, NULL, (*b)->name);
		jw_arr_end(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	return jw_finish(&w, NULL);
}
