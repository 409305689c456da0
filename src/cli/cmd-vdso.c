// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-vdso.c - `ukbench vdso`: the live vDSO (or an image on disk) shown,
 * written out as an ELF file, or one function of it disassembled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "disasm.h"
#include "image.h"
#include "options.h"
#include "outfile.h"

enum { O_FILE = 1, O_DUMP, O_DISASM };

static const struct opt vdso_opts[] = {
	OPT_CALL("file", 0, "IMAGE", "an image on disk instead of the live vDSO (any architecture)",
		 O_FILE),
	OPT_CALL("dump", 0, "FILE", "write the live image to FILE as an ELF file (objdump -d FILE)",
		 O_DUMP),
	OPT_CALL("disasm", 'd', "SYMBOL",
		 "disassemble SYMBOL (__vdso_time, or time for the\n"
		 "architecture's name of it)",
		 O_DISASM),
	OPT_END,
};

const struct command cmd_vdso_def = {
	.name = "vdso",
	.fn = cmd_vdso,
	.summary = "show the vDSO: mappings, ELF facts, symbols; dump it; disassemble",
	.synopsis = "[--file IMAGE] [--dump FILE] [--disasm SYMBOL]",
	.about = "Shows the vDSO the kernel mapped into this process: its mapping and its data\n"
		 "pages' (vvar) from /proc/self/maps, the ELF class, byte order and machine,\n"
		 "the build id and the Linux version note, and every exported symbol with its\n"
		 "address, size, type and version. --file reads an image on disk instead, of\n"
		 "any architecture and byte order (the kernel builds arch/*/vdso*.so.dbg).\n"
		 "\n"
		 "--dump writes the live image as an ELF file that objdump, readelf and perf\n"
		 "read. --disasm decodes one function with Capstone, naming the targets of\n"
		 "calls and branches. Addresses are the image's own (link-time) addresses,\n"
		 "as objdump shows them; the live image's base is printed beside them.",
	.opts = vdso_opts,
	.footer = "examples:\n"
		  "  ukbench vdso\n"
		  "  ukbench vdso --disasm clock_gettime\n"
		  "  ukbench vdso --dump vdso.so && objdump -d vdso.so\n"
		  "  ukbench vdso --file arch/powerpc/kernel/vdso/vdso64.so.dbg \\\n"
		  "      --disasm __kernel_clock_gettime\n",
};

struct vdso_cli {
	const char *file, *dump, *disasm;
};

static int set_option(void *ctx, int id, const char *arg)
{
	struct vdso_cli *c = ctx;
	const char **slot = id == O_FILE ? &c->file : id == O_DUMP ? &c->dump : &c->disasm;

	if (!arg[0]) {
		error("--%s needs a value", id == O_FILE   ? "file"
					    : id == O_DUMP ? "dump"
							   : "disasm");
		return -1;
	}
	*slot = arg;
	return 0;
}

static int disasm(const struct img *im, const char *name)
{
	struct ukb_elf_symbol s;
	struct dis_insn *in;
	uint64_t off;
	size_t n;
	char err[512], engine[64];

	if (image_find(im, name, &s, &off)) {
		error("%s has no function '%s'", im->source, name);
		fprintf(stderr, "hint: 'ukbench vdso%s%s' lists its symbols\n",
			im->base ? "" : " --file ", im->base ? "" : im->source);
		return UKB_EXIT_USAGE;
	}
	if (!s.size && image_symbol_at(im, s.value, &s)) {
		error("'%s' has no size and nothing follows it", name);
		return UKB_EXIT_FAIL;
	}
	if (disasm_range(im, s.value, s.size, &in, &n, err, sizeof(err))) {
		error("%s", err);
		return UKB_EXIT_FAIL;
	}
	printf("%s%s%s, %llu bytes at %#llx", s.name, s.version[0] ? "@" : "", s.version,
	       (unsigned long long)s.size, (unsigned long long)s.value);
	if (im->base)
		printf(" (mapped at %#llx)", (unsigned long long)(im->base + off));
	printf(", %s:\n\n", disasm_engine(engine, sizeof(engine)));
	disasm_print(stdout, im, in, n, NULL, 0);
	free(in);
	return UKB_EXIT_OK;
}

int cmd_vdso(int argc, char **argv)
{
	struct vdso_cli c = { 0 };
	struct img im;
	char err[4200];
	int first, rc;

	rc = opts_parse(&cmd_vdso_def, argc, argv, 0, set_option, &c, &first);
	if (rc)
		return rc > 0 ? UKB_EXIT_OK : UKB_EXIT_USAGE;
	if (first < argc) {
		error("'ukbench vdso' takes no operands, got '%s'", argv[first]);
		fprintf(stderr, "hint: a function to disassemble goes after --disasm\n");
		return UKB_EXIT_USAGE;
	}
	if (c.file && c.dump) {
		error("--dump writes the live image; with --file, copy the file instead");
		return UKB_EXIT_USAGE;
	}
	/* a file given that is no image is input refused; the live one unread, a failure */
	if (c.file ? image_file(&im, c.file, err, sizeof(err))
		   : image_live(&im, err, sizeof(err))) {
		error("%s", err);
		return c.file ? UKB_EXIT_USAGE : UKB_EXIT_FAIL;
	}
	if (c.dump) {
		struct outfile o;

		rc = outfile_open_opt(&o, c.dump, "--dump", "the image") ||
			     outfile_commit(&o, (const char *)im.bytes, im.size)
			 ? UKB_EXIT_FAIL
			 : UKB_EXIT_OK;
		if (!rc)
			fprintf(stderr, "wrote the live vDSO, %zu bytes, to %s\n", im.size, c.dump);
	} else if (c.disasm) {
		rc = disasm(&im, c.disasm);
	} else {
		if (!c.file)
			image_print_maps(stdout);
		image_print(stdout, &im);
		rc = UKB_EXIT_OK;
	}
	image_release(&im);
	return rc;
}
