/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdso.h - finding functions in the vDSO the kernel mapped into this process.
 *
 * ukbench does its own lookup rather than asking the C library, so that the
 * `vdso` path calls exactly the kernel's function, whatever the libc does.
 * The image is found through getauxval(AT_SYSINFO_EHDR); its extent is read
 * from /proc/self/maps where that is mounted, else from its PT_LOAD
 * segments. A process without a vDSO (vdso=0, qemu-user, some sandboxes)
 * is a normal state: lookups fail with -ENOENT and a reason.
 */
#ifndef UKB_CORE_VDSO_H
#define UKB_CORE_VDSO_H

#include <stddef.h>

/* The names the kernel gives vDSO functions on one architecture. */
struct ukb_vdso_abi {
	unsigned machine; /* e_machine */
	int is64;	  /* ELF class, -1: either */
	const char *arch;
	const char *prefix;  /* "__vdso_" or "__kernel_" */
	const char *version; /* "LINUX_2.6", ... */
};

/* The naming rules for images of @machine and class; NULL if unknown. */
const struct ukb_vdso_abi *ukb_vdso_abi_for(unsigned machine, int is64);

/* Builds the symbol name of @func for @abi into @buf ("__vdso_time"). */
void ukb_vdso_symname(const struct ukb_vdso_abi *abi, const char *func, char *buf, size_t len);

/*
 * Resolves @func ("clock_gettime") in the live vDSO. Returns a callable
 * pointer, or NULL with the reason in @why ("no vDSO in this process",
 * "'__vdso_getrandom' not found"). Thread-safe after the first call.
 */
void *ukb_vdso_func(const char *func, char *why, size_t len);

/* The live image: 0 and its base and size, -ENOENT (none), -ENOEXEC. */
int ukb_vdso_image(const void **base, size_t *size, char *why, size_t len);

/* The live image's naming rules, or NULL when there is no usable vDSO. */
const struct ukb_vdso_abi *ukb_vdso_live_abi(void);

/*
 * The symbol the live vDSO exports @func as, "__vdso_time@LINUX_2.6";
 * @func itself where the architecture is unknown, "" for NULL.
 */
void ukb_vdso_symbol_of(const char *func, char *buf, size_t len);

/*
 * Test hook: makes ukb_vdso_func() return @fn for @func instead of the
 * kernel's (NULL @fn: pretend the symbol is missing). Used by tests to
 * prove that checks and benchmarks notice a wrong or absent function.
 * ukb_vdso_override_clear() restores the real lookup.
 */
enum { UKB_VDSO_MISSING = 1 };
void ukb_vdso_override(const char *func, void *fn, int flags);
void ukb_vdso_override_clear(void);

#endif
