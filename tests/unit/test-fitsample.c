// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-fitsample.c - the compression sample: /proc/kcore's RAM ranges, the
 * windows' spread, which pages count as in use, and a whole sample taken from
 * a made-up kcore and kpageflags (only pages in use reach the compressor, in
 * order), plus the pack pool's trial packing
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fitsample.h"
#include "packpool.h"
#include "tap.h"

#define PS 4096u

/* an ELF core header with @n program headers at 64 */
static size_t core_header(uint8_t *buf, const Elf64_Phdr *ph, unsigned n)
{
	Elf64_Ehdr eh;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_phoff = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (uint16_t)n;
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + sizeof(eh), ph, n * sizeof(*ph));
	return sizeof(eh) + n * sizeof(*ph);
}

static Elf64_Phdr load(uint64_t vaddr, uint64_t paddr, uint64_t bytes, uint64_t off)
{
	Elf64_Phdr p;

	memset(&p, 0, sizeof(p));
	p.p_type = PT_LOAD;
	p.p_vaddr = vaddr;
	p.p_paddr = paddr;
	p.p_filesz = p.p_memsz = bytes;
	p.p_offset = off;
	return p;
}

static void test_parse(void)
{
	uint8_t buf[4096];
	Elf64_Phdr ph[6];
	struct fit_ram ram[8];
	size_t n = 0, len;

	/* as x86-64's kcore: text (inside RAM), vmalloc, RAM below 640K, RAM from 1M */
	ph[0] = load(0xffffffff81000000, 0x1000000, 32 << 20, 0x7fff81001000);
	ph[1] = load(0xffffc90000000000, UINT64_MAX, 1ull << 45, 0x490000001000);
	ph[2] = load(0xffff888000001000, 0x1000, 0x9e000, 0x7800001000 + 0x1000);
	ph[3] = load(0xffff888000100000, 0x100000, 0x3fee0000, 0x7800001000 + 0x100000);
	ph[4] = load(0, 0, 0, 0);
	ph[4].p_type = PT_NOTE;
	len = core_header(buf, ph, 5);
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == 0 && n == 2 &&
	       ram[0].paddr == 0x1000 && ram[0].bytes == 0x9e000 &&
	       ram[0].file_off == 0x7800002000 && ram[1].paddr == 0x100000 &&
	       ram[1].bytes == 0x3fee0000, "fitsample: RAM ranges kept in order, the text "
	       "inside one dropped, vmalloc and notes skipped (%zu)", n);

	/* text first, then the RAM range around it: the larger one wins */
	ph[0] = load(0xffffffff81000000, 0x1000000, 32 << 20, 0x100);
	ph[1] = load(0xffff888000100000, 0x100000, 0x3fee0000, 0x200000);
	len = core_header(buf, ph, 2);
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == 0 && n == 1 &&
	       ram[0].paddr == 0x100000, "fitsample: a RAM range replaces the text inside it");

	/* unaligned ends are cut to whole pages; a range with no whole page is skipped */
	ph[0] = load(0, 0x1800, 0x3000, 0x10000);
	ph[1] = load(0, 0x100800, 0x400, 0x20000);
	len = core_header(buf, ph, 2);
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == 0 && n == 1 &&
	       ram[0].paddr == 0x2000 && ram[0].bytes == 0x2000 && ram[0].file_off == 0x10800,
	       "fitsample: ranges cut to whole pages, their file offset moved with them");

	ph[0] = load(0, 0x1000, 0x1000, 0x1000);
	len = core_header(buf, ph, 1);
	tap_ok(fitsample_parse_kcore(buf, len - 1, PS, ram, 8, &n) == -ENOEXEC,
	       "fitsample: program headers past the buffer refused");
	buf[EI_CLASS] = ELFCLASS32;
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == -ENOEXEC,
	       "fitsample: a 32-bit core refused");
	buf[EI_CLASS] = ELFCLASS64;
	buf[0] = 0;
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == -ENOEXEC,
	       "fitsample: no ELF magic refused");
	ph[0] = load(0xffffc90000000000, UINT64_MAX, 1 << 20, 0x1000);
	ph[1] = load(0, UINT64_MAX - 0x800, 0x10000, 0x1000);
	ph[1].p_paddr = UINT64_MAX - 0x10;
	len = core_header(buf, ph, 2);
	tap_ok(fitsample_parse_kcore(buf, len, PS, ram, 8, &n) == -ENOENT,
	       "fitsample: no physical range (or one wrapping around) is -ENOENT");
	tap_ok(fitsample_parse_kcore(buf, 10, PS, ram, 8, &n) == -ENOEXEC,
	       "fitsample: a truncated header refused");
}

static void test_windows(void)
{
	struct fit_ram ram[2] = { { 0x1000, 16 * PS, 0 }, { 0x100000, 48 * PS, 0 } };
	uint64_t page = 0, seen[32];
	size_t range = 9, i;
	int ok = 1;

	tap_ok(fitsample_window(ram, 2, PS, 0, 32, &range, &page) == 0 && range == 0 && page == 0,
	       "fitsample: window 0 starts at the first page");
	tap_ok(fitsample_window(ram, 2, PS, 1, 32, &range, &page) == 0 && range == 1 &&
	       page == 16, "fitsample: window 1 starts in the middle of RAM (range 1, page 16)");
	tap_ok(fitsample_window(ram, 2, PS, 2, 32, &range, &page) == 0 && range == 1 && page == 0,
	       "fitsample: window 2 starts at the first quarter (range 1, page 0)");
	for (i = 0; i < 32; i++) {
		if (fitsample_window(ram, 2, PS, (unsigned)i, 32, &range, &page) < 0)
			ok = 0;
		seen[i] = (range ? 16 : 0) + page;
	}
	for (i = 0; ok && i < 32; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (seen[j] == seen[i])
				ok = 0;
	}
	tap_ok(ok, "fitsample: the 32 windows of 64 pages start at 32 different pages");
	tap_ok(fitsample_window(ram, 2, PS, 0, 24, &range, &page) == -EINVAL &&
	       fitsample_window(ram, 2, PS, 32, 32, &range, &page) == -EINVAL &&
	       fitsample_window(ram, 0, PS, 0, 32, &range, &page) == -EINVAL,
	       "fitsample: not a power of two, past the count, or no RAM refused");
}

static void test_flags(void)
{
	tap_ok(fitsample_in_use(1ull << 5 | 1ull << 12), "fitsample: an anonymous LRU page is in use");
	tap_ok(fitsample_in_use(1ull << 7), "fitsample: a slab page is in use");
	tap_ok(fitsample_in_use(1ull << 32), "fitsample: a reserved page is in use");
	tap_ok(!fitsample_in_use(1ull << 10), "fitsample: a free block's first page is not");
	tap_ok(!fitsample_in_use(0), "fitsample: a page without flags (a free block's tail) is not");
	tap_ok(!fitsample_in_use(1ull << 20) && !fitsample_in_use(1ull << 23 | 1) &&
	       !fitsample_in_use(1ull << 19 | 1ull << 5), "fitsample: no page, offline or "
	       "poisoned pages are not");
}

/* what the fake compressor saw */
static uint8_t seen[FITSAMPLE_WINDOWS * 8 * PS];	/* 32 windows of 8 pages at most */
static size_t seen_len, packs;
static int in_order = 1;

static size_t record_pack(void *ctx, const uint8_t *raw, size_t len)
{
	size_t i;

	(void)ctx;
	for (i = PS; i < len; i += PS)
		if (raw[i] <= raw[i - PS])
			in_order = 0;
	if (seen_len + len <= sizeof(seen))
		memcpy(seen + seen_len, raw, len);
	seen_len += len;
	packs++;
	return (len / PS + 1) / 2 * PS;	/* "half", page-padded */
}

static void test_take(void)
{
	char kpath[] = "/tmp/torpor-kcore-XXXXXX", fpath[] = "/tmp/torpor-kpf-XXXXXX";
	uint8_t hdr[512], page[PS];
	uint64_t flags[64];
	Elf64_Phdr ph[1];
	struct fit_sample s;
	size_t len, i;
	int kfd = mkstemp(kpath), ffd = mkstemp(fpath), ok = 1, r;

	/* 64 pages of RAM at physical page 16, in the file from 8192; every 3rd in use */
	ph[0] = load(0xffff888000010000, 16 * PS, 64 * PS, 8192);
	len = core_header(hdr, ph, 1);
	if (kfd < 0 || ffd < 0 || pwrite(kfd, hdr, len, 0) != (ssize_t)len)
		ok = 0;
	for (i = 0; i < 64; i++) {
		memset(page, i % 3 ? 0xee : (int)i, PS);
		flags[i] = i % 3 ? (i % 2 ? 1ull << 10 : 0) : 1ull << 5;
		if (pwrite(kfd, page, PS, 8192 + i * PS) != PS)
			ok = 0;
	}
	if (ffd >= 0 && pwrite(ffd, flags, sizeof(flags), 16 * 8) != sizeof(flags))
		ok = 0;
	r = fitsample_take(kpath, fpath, 8, PS, 1000000000ull, record_pack, NULL, &s);
	tap_ok(ok && r == FITSAMPLE_TAKEN && s.blocks > 0 && s.raw == seen_len && s.raw <= sizeof(seen) &&
	       s.stored <= s.raw,
	       "fitsample: a sample taken from a made-up kcore (%u blocks, %llu bytes)",
	       s.blocks, (unsigned long long)s.raw);
	for (i = 0; i < seen_len / PS; i++) {
		/* each page is one of the pages in use, whole */
		if (seen[i * PS] % 3 || seen[i * PS] == 0xee ||
		    memcmp(seen + i * PS, seen + i * PS + 1, PS - 1))
			ok = 0;
	}
	tap_ok(ok && seen_len, "fitsample: only pages in use reach the compressor, whole");
	tap_ok(in_order, "fitsample: in physical order within a block");
	tap_ok(s.windows == FITSAMPLE_WINDOWS && packs == s.blocks,
	       "fitsample: every window looked at, each block packed once");

	tap_ok(fitsample_take(kpath, fpath, 8, PS, 0, record_pack, NULL, &s) ==
	       FITSAMPLE_TOO_FEW && s.windows == 0, "fitsample: no time, no window: too few");
	/*
	 * a budget spent before enough blocks were found (windows in free memory, a slow
	 * machine): the windows go on, up to FITSAMPLE_MORE_NS more, until they are found
	 */
	r = fitsample_take(kpath, fpath, 8, PS, 1, record_pack, NULL, &s);
	tap_ok(r == FITSAMPLE_TAKEN && s.blocks >= FITSAMPLE_MIN_BLOCKS &&
	       s.blocks < FITSAMPLE_WINDOWS,
	       "fitsample: a budget spent early: windows go on until %d blocks are found "
	       "(%d, %u blocks in %u windows)", FITSAMPLE_MIN_BLOCKS, r, s.blocks, s.windows);
	/* pages 0 and 1 in use only: the windows starting there find them, no other */
	memset(flags, 0, sizeof(flags));
	flags[0] = flags[1] = 1ull << 5;
	tap_ok(pwrite(ffd, flags, sizeof(flags), 16 * 8) == sizeof(flags) &&
	       fitsample_take(kpath, fpath, 8, PS, 1000000000ull, record_pack, NULL, &s) ==
	       FITSAMPLE_TOO_FEW && s.blocks == 1, "fitsample: fewer than %d blocks found: too few",
	       FITSAMPLE_MIN_BLOCKS);
	memset(flags, 0, sizeof(flags));
	if (pwrite(ffd, flags, sizeof(flags), 16 * 8) != sizeof(flags))
		ok = 0;
	tap_ok(ok && fitsample_take(kpath, fpath, 8, PS, 1000000000ull, record_pack, NULL, &s) ==
	       FITSAMPLE_TOO_FEW, "fitsample: no page in use anywhere: too few");
	tap_ok(fitsample_take("/nonexistent/kcore", fpath, 8, PS, 1000000000ull, record_pack,
			      NULL, &s) == -ENOENT, "fitsample: no kcore: -ENOENT");
	if (ffd >= 0 && ftruncate(ffd, 8) == 0) {
		memset(flags, 0xff, 8);
		r = fitsample_take(kpath, fpath, 8, PS, 1000000000ull, record_pack, NULL, &s);
		tap_ok(r == FITSAMPLE_TOO_FEW, "fitsample: a short flags file skips the windows "
		       "(%d)", r);
	}
	if (kfd >= 0)
		close(kfd);
	if (ffd >= 0)
		close(ffd);
	unlink(kpath);
	unlink(fpath);
}

static void test_trial(void)
{
	struct pack_setting lz4 = { PACK_LZ4, 1 }, none = { PACK_NONE, 0 };
	struct pack_pool p;
	uint8_t *raw = malloc(64 * PS);
	size_t i, n;

	if (!raw || pack_pool_init(&p, &lz4, 2, 64 * PS, PS, 4) < 0) {
		tap_ok(0, "pack: pool for the trial");
		free(raw);
		return;
	}
	memset(raw, 0, 64 * PS);
	n = pack_pool_trial(&p, raw, 64 * PS);
	tap_ok(n == PS, "pack: a block of zeros takes one page (%zu)", n);
	srand(7);
	for (i = 0; i < 64 * PS; i++)
		raw[i] = (uint8_t)rand();
	n = pack_pool_trial(&p, raw, 64 * PS);
	tap_ok(n == 64 * PS, "pack: a random block is stored raw, its size (%zu)", n);
	for (i = 0; i < 64 * PS; i += PS)
		memset(raw + i, 'a', PS / 2);
	n = pack_pool_trial(&p, raw, 64 * PS);
	tap_ok(n > 32 * PS && n < 40 * PS && n % PS == 0,
	       "pack: half-random pages take about half, page-padded (%zu pages)", n / PS);
	tap_ok(pack_pool_trial(&p, raw, 65 * PS) == 0, "pack: more than a block is refused");
	pack_pool_free(&p);
	if (pack_pool_init(&p, &none, 0, 64 * PS, PS, 4) == 0) {
		memset(raw, 0, 64 * PS);
		tap_ok(pack_pool_trial(&p, raw, 64 * PS) == 64 * PS,
		       "pack: with compress=none a block takes its size");
		pack_pool_free(&p);
	}
	free(raw);
}

int main(void)
{
	test_parse();
	test_windows();
	test_flags();
	test_take();
	test_trial();
	return tap_done();
}
