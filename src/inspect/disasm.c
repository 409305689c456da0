// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disasm.c - vDSO functions through Capstone, for every architecture the
 * vDSO exists on that Capstone decodes.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"

#ifdef HAVE_CAPSTONE
#include <capstone.h>

/* Capstone's architecture and mode for an image; 0, or -1 with why. */
static int cs_target(const struct ukb_elf *e, cs_arch *arch, cs_mode *mode, char *err, size_t len)
{
	cs_mode endian = e->big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;
	char name[32];

	switch (e->machine) {
	case EM_X86_64:
	case EM_386:
		*arch = CS_ARCH_X86;
		*mode = e->is64 ? CS_MODE_64 : CS_MODE_32;
		return 0;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64;
		*mode = CS_MODE_ARM | endian;
		return 0;
	case EM_ARM:
		*arch = CS_ARCH_ARM;
		*mode = CS_MODE_ARM | endian;
		return 0;
	case EM_PPC:
	case EM_PPC64:
		*arch = CS_ARCH_PPC;
		*mode = (e->is64 ? CS_MODE_64 : CS_MODE_32) | endian;
		return 0;
	case EM_S390:
		*arch = CS_ARCH_SYSZ;
		*mode = CS_MODE_BIG_ENDIAN;
		return 0;
	case EM_MIPS:
		*arch = CS_ARCH_MIPS;
		*mode = (e->is64 ? CS_MODE_MIPS64 : CS_MODE_MIPS32) | endian;
		return 0;
#if CS_API_MAJOR >= 5
	case EM_RISCV:
		*arch = CS_ARCH_RISCV;
		*mode = e->is64 ? CS_MODE_RISCV64 : CS_MODE_RISCV32;
		return 0;
#endif
	}
	snprintf(err, len, "Capstone %d.%d cannot disassemble %s code", CS_API_MAJOR, CS_API_MINOR,
		 ukb_elf_machine_name(e->machine, name, sizeof(name)));
	return -1;
}

const char *disasm_engine(char *buf, size_t len)
{
	int major, minor;

	cs_version(&major, &minor);
	snprintf(buf, len, "Capstone %d.%d", major, minor);
	return buf;
}

/* " <__vdso_foo+0x1c>" for the last hexadecimal number of a branch's operands. */
static void name_target(const struct img *im, const char *ops, char *buf, size_t len)
{
	const char *p = ops, *last = NULL;
	struct ukb_elf_symbol s;
	uint64_t va;

	buf[0] = 0;
	while ((p = strstr(p, "0x"))) {
		last = p;
		p += 2;
	}
	if (!last)
		return;
	va = strtoull(last, NULL, 16);
	if (image_symbol_at(im, va, &s))
		return;
	if (va == s.value)
		snprintf(buf, len, " <%s>", s.name);
	else
		snprintf(buf, len, " <%s+0x%" PRIx64 ">", s.name, va - s.value);
}

/*
 * Calls and branches: by Capstone's groups, and for s390 (whose relative
 * branches Capstone 4 leaves ungrouped) by mnemonic: j*, br*, bras*.
 */
static int is_branch(csh h, cs_arch arch, cs_insn *in)
{
	if (in->detail && (cs_insn_group(h, in, CS_GRP_JUMP) || cs_insn_group(h, in, CS_GRP_CALL) ||
			   cs_insn_group(h, in, CS_GRP_BRANCH_RELATIVE)))
		return 1;
	return arch == CS_ARCH_SYSZ && (in->mnemonic[0] == 'j' || !strncmp(in->mnemonic, "br", 2));
}

int disasm_range(const struct img *im, uint64_t va, uint64_t size, struct dis_insn **out, size_t *n,
		 char *err, size_t len)
{
	const struct ukb_elf *e = &im->elf;
	cs_arch arch;
	cs_mode mode;
	csh h;
	cs_insn *ins;
	uint64_t off;
	size_t count;

	*out = NULL;
	*n = 0;
	if (cs_target(e, &arch, &mode, err, len))
		return -1;
	if (ukb_elf_va_to_off(e, va, &off) || size > im->size - off) {
		snprintf(err, len, "address %#" PRIx64 " (+%" PRIu64 ") is not in the image", va,
			 size);
		return -1;
	}
	if (cs_open(arch, mode, &h) != CS_ERR_OK) {
		snprintf(err, len, "Capstone cannot open this architecture (mode %#x)",
			 (unsigned)mode);
		return -1;
	}
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(h, CS_OPT_SKIPDATA, CS_OPT_ON);
	count = cs_disasm(h, im->bytes + off, size, va, 0, &ins);
	if (!count) {
		snprintf(err, len, "Capstone decoded nothing at %#" PRIx64 ": %s", va,
			 cs_strerror(cs_errno(h)));
		cs_close(&h);
		return -1;
	}
	*out = calloc(count, sizeof(**out));
	if (!*out) {
		snprintf(err, len, "out of memory");
		cs_free(ins, count);
		cs_close(&h);
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		struct dis_insn *d = &(*out)[i];
		char target[160] = "";
		size_t at = 0;

		d->va = ins[i].address;
		d->size = ins[i].size;
		for (unsigned b = 0; b < ins[i].size && at + 4 < sizeof(d->hex); b++)
			at += (size_t)snprintf(d->hex + at, sizeof(d->hex) - at, "%s%02x",
					       b ? " " : "", ins[i].bytes[b]);
		if (is_branch(h, arch, &ins[i]))
			name_target(im, ins[i].op_str, target, sizeof(target));
		snprintf(d->text, sizeof(d->text), "%s%s%s%s", ins[i].mnemonic,
			 ins[i].op_str[0] ? " " : "", ins[i].op_str, target);
	}
	*n = count;
	cs_free(ins, count);
	cs_close(&h);
	return 0;
}

#else

const char *disasm_engine(char *buf, size_t len)
{
	snprintf(buf, len, "not built with Capstone");
	return buf;
}

int disasm_range(const struct img *im, uint64_t va, uint64_t size, struct dis_insn **out, size_t *n,
		 char *err, size_t len)
{
	(void)im;
	(void)va;
	(void)size;
	*out = NULL;
	*n = 0;
	snprintf(err, len,
		 "this ukbench was built without Capstone (libcapstone-dev): "
		 "no disassembly; 'ukbench vdso --dump FILE' and objdump -d can stand in");
	return -1;
}

#endif

void disasm_print(FILE *f, const struct img *im, const struct dis_insn *in, size_t n,
		  const unsigned long *samples, unsigned long total)
{
	int w = 4;

	(void)im;
	/* as wide as the highest address needs, as objdump prints them */
	for (uint64_t top = n ? in[n - 1].va : 0; top >> (4 * w); w++)
		;
	for (size_t i = 0; i < n; i++) {
		if (samples && total) {
			if (samples[i])
				fprintf(f, "%6.2f%% ", 100.0 * (double)samples[i] / (double)total);
			else
				fprintf(f, "        ");
		}
		fprintf(f, "%*" PRIx64 ":  %-24.24s  %s\n", w, in[i].va, in[i].hex, in[i].text);
	}
}
