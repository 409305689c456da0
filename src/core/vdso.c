// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdso.c - the live vDSO: where it is, how big, and its functions.
 *
 * Symbol names and versions differ per architecture; the table below is
 * what each kernel's vdso.lds.S exports. The image is parsed once and kept:
 * the vDSO never moves during the life of a process.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "elf-sym.h"
#include "vdso.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

static const struct ukb_vdso_abi abis[] = {
	{ EM_X86_64, 1, "x86_64", "__vdso_", "LINUX_2.6" },
	{ EM_X86_64, 0, "x32", "__vdso_", "LINUX_2.6" },
	{ EM_386, 0, "i386", "__vdso_", "LINUX_2.6" },
	{ EM_AARCH64, 1, "arm64", "__kernel_", "LINUX_2.6.39" },
	{ EM_ARM, 0, "arm", "__vdso_", "LINUX_2.6" },
	{ EM_PPC64, 1, "powerpc64", "__kernel_", "LINUX_2.6.15" },
	{ EM_PPC, 0, "powerpc", "__kernel_", "LINUX_2.6.15" },
	{ EM_S390, 1, "s390x", "__kernel_", "LINUX_2.6.29" },
	{ EM_RISCV, -1, "riscv", "__vdso_", "LINUX_4.15" },
	{ EM_LOONGARCH, 1, "loongarch64", "__vdso_", "LINUX_5.10" },
	{ EM_MIPS, -1, "mips", "__vdso_", "LINUX_2.6" },
};

const struct ukb_vdso_abi *ukb_vdso_abi_for(unsigned machine, int is64)
{
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		if (abis[i].machine == machine && (abis[i].is64 < 0 || abis[i].is64 == is64))
			return &abis[i];
	return NULL;
}

void ukb_vdso_symname(const struct ukb_vdso_abi *abi, const char *func, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", abi ? abi->prefix : "", func);
}

/* ------------------------------------------------------------------ */
/* The live image                                                      */

static struct {
	pthread_once_t once;
	int err; /* 0, -ENOENT, -ENOEXEC */
	char why[200];
	const void *base;
	size_t size;
	struct ukb_elf elf;
	const struct ukb_vdso_abi *abi;
} live = { .once = PTHREAD_ONCE_INIT };

/* The [vdso] mapping's length from /proc/self/maps; 0 if not found. */
static size_t maps_size(uintptr_t base)
{
	char line[512];
	size_t size = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		if (!strstr(line, "[vdso]"))
			continue;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2 && lo == base && hi > lo)
			size = hi - lo;
		break;
	}
	fclose(f);
	return size;
}

/*
 * Without /proc, the extent is that of the image's own segments: the
 * kernel maps the whole image, so reading it is safe. The ELF header and
 * program headers are read natively here, before they can be checked:
 * this is the live image of this very process.
 */
static size_t segments_size(const unsigned char *img)
{
#if UINTPTR_MAX > 0xffffffffu
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Phdr *ph;
#else
	const Elf32_Ehdr *eh = (const void *)img;
	const Elf32_Phdr *ph;
#endif
	size_t end = (size_t)sysconf(_SC_PAGESIZE);

	if (memcmp(img, ELFMAG, SELFMAG))
		return 0;
	ph = (const void *)(img + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	return end;
}

static void live_init(void)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	int host64 = UINTPTR_MAX > 0xffffffffu;
	int hostbig = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	if (!base) {
		live.err = -ENOENT;
		snprintf(live.why, sizeof(live.why),
			 "no vDSO in this process (AT_SYSINFO_EHDR absent)");
		return;
	}
	live.base = (const void *)base;
	live.size = maps_size(base);
	if (!live.size)
		live.size = segments_size(live.base);
	live.err = ukb_elf_parse(&live.elf, live.base, live.size);
	if (live.err) {
		snprintf(live.why, sizeof(live.why), "malformed vDSO: %s", live.elf.err);
		return;
	}
	if (live.elf.is64 != host64 || live.elf.big_endian != hostbig) {
		live.err = -ENOEXEC;
		snprintf(live.why, sizeof(live.why), "vDSO is ELF%d %s-endian, this process is not",
			 live.elf.is64 ? 64 : 32, live.elf.big_endian ? "big" : "little");
		return;
	}
	live.abi = ukb_vdso_abi_for(live.elf.machine, live.elf.is64);
	if (!live.abi) {
		live.err = -ENOEXEC;
		snprintf(live.why, sizeof(live.why), "vDSO of unknown machine %u",
			 live.elf.machine);
	}
}

int ukb_vdso_image(const void **base, size_t *size, char *why, size_t len)
{
	pthread_once(&live.once, live_init);
	if (live.err) {
		if (why)
			snprintf(why, len, "%s", live.why);
		return live.err;
	}
	*base = live.base;
	*size = live.size;
	return 0;
}

const struct ukb_vdso_abi *ukb_vdso_live_abi(void)
{
	pthread_once(&live.once, live_init);
	return live.err ? NULL : live.abi;
}

/* ------------------------------------------------------------------ */
/* Function pointers                                                   */

/*
 * The 64-bit big-endian powerpc ABI (ELFv1) calls through function
 * descriptors; the vDSO exports plain code addresses, so each resolved
 * function gets a descriptor of its own, as glibc does. The TOC is unused
 * by vDSO code.
 */
#if defined(__powerpc64__) && (!defined(_CALL_ELF) || _CALL_ELF == 1)
struct opd {
	uintptr_t func, toc, env;
};
static struct opd opds[32];
static unsigned nopd;
static pthread_mutex_t opd_lock = PTHREAD_MUTEX_INITIALIZER;

static void *callable(void *code)
{
	void *fn = NULL;

	pthread_mutex_lock(&opd_lock);
	for (unsigned i = 0; i < nopd; i++)
		if (opds[i].func == (uintptr_t)code)
			fn = &opds[i];
	if (!fn && nopd < sizeof(opds) / sizeof(opds[0])) {
		opds[nopd].func = (uintptr_t)code;
		opds[nopd].toc = ~(uintptr_t)0;
		fn = &opds[nopd++];
	}
	pthread_mutex_unlock(&opd_lock);
	return fn;
}
#else
static void *callable(void *code)
{
	return code;
}
#endif

static struct {
	char func[32];
	void *fn;
	int flags;
} overrides[8];
static unsigned noverrides;

void ukb_vdso_override(const char *func, void *fn, int flags)
{
	if (noverrides == sizeof(overrides) / sizeof(overrides[0]))
		return;
	snprintf(overrides[noverrides].func, sizeof(overrides[0].func), "%s", func);
	overrides[noverrides].fn = fn;
	overrides[noverrides].flags = flags;
	noverrides++;
}

void ukb_vdso_override_clear(void)
{
	noverrides = 0;
}

void *ukb_vdso_func(const char *func, char *why, size_t len)
{
	char name[64];
	uint64_t off;
	int err;

	for (unsigned i = 0; i < noverrides; i++) {
		if (strcmp(overrides[i].func, func))
			continue;
		if (overrides[i].flags & UKB_VDSO_MISSING) {
			snprintf(why, len,
				 "'%s' not exported by this vDSO (simulated: UKBENCH_VDSO_HIDE)",
				 func);
			return NULL;
		}
		return overrides[i].fn;
	}

	pthread_once(&live.once, live_init);
	if (live.err) {
		snprintf(why, len, "%s", live.why);
		return NULL;
	}
	ukb_vdso_symname(live.abi, func, name, sizeof(name));
	/* lookups write the reason into the shared parse state */
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&lock);
	err = ukb_elf_lookup(&live.elf, name, live.abi->version, &off);
	if (err)
		snprintf(why, len, "%s in this vDSO", live.elf.err);
	pthread_mutex_unlock(&lock);
	if (err)
		return NULL;
	return callable((void *)((uintptr_t)live.base + (uintptr_t)off));
}

void ukb_vdso_symbol_of(const char *func, char *buf, size_t len)
{
	const struct ukb_vdso_abi *abi = func ? ukb_vdso_live_abi() : NULL;
	char name[64];

	buf[0] = 0;
	if (!func)
		return;
	if (!abi) {
		snprintf(buf, len, "%s", func);
		return;
	}
	ukb_vdso_symname(abi, func, name, sizeof(name));
	snprintf(buf, len, "%s@%s", name, abi->version);
}
