// SPDX-License-Identifier: GPL-2.0-only
/*
 * fitsample.c - compress a sample of the memory in use (see fitsample.h)
 *
 * Each window starts at a page chosen over all RAM ranges in bit-reversed
 * order, so that however few windows the time budget allows, they are spread
 * over all of memory.  From there it gathers up to a block of pages in use, in
 * physical order, as the snapshot stream holds them (free pages left out), and
 * compresses them as one block.  The pages read are other programs' memory:
 * the buffer is cleared before it is freed.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fitsample.h"

/* include/uapi/linux/kernel-page-flags.h */
#define KPF_BUDDY	10
#define KPF_HWPOISON	19
#define KPF_NOPAGE	20
#define KPF_OFFLINE	23

#define PHDRS_MAX_BYTES	(64u << 10)

static unsigned char host_elf_data(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one ? ELFDATA2LSB : ELFDATA2MSB;
}

static int overlaps(const struct fit_ram *a, uint64_t start, uint64_t end)
{
	return start < a->paddr + a->bytes && a->paddr < end;
}

/*
 * Keep [start, end) unless a range as large or larger overlaps it; the smaller
 * ones it overlaps go (the kernel's text segment lies inside a RAM range).
 */
static void keep_range(struct fit_ram *ram, size_t cap, size_t *n, uint64_t start,
		       uint64_t end, uint64_t file_off)
{
	size_t i, w;

	for (i = 0; i < *n; i++)
		if (overlaps(&ram[i], start, end) && ram[i].bytes >= end - start)
			return;
	for (i = 0, w = 0; i < *n; i++)
		if (!overlaps(&ram[i], start, end))
			ram[w++] = ram[i];
	*n = w;
	if (*n == cap)
		return;
	/* in order of address */
	for (i = *n; i > 0 && ram[i - 1].paddr > start; i--)
		ram[i] = ram[i - 1];
	ram[i].paddr = start;
	ram[i].bytes = end - start;
	ram[i].file_off = file_off;
	(*n)++;
}

/**
 * fitsample_parse_kcore() - the RAM ranges of /proc/kcore's ELF header
 * @buf: the file's first @len bytes (the ELF header and its program headers)
 * @ram: filled with up to @cap ranges, in order of address, whole pages
 *
 * A PT_LOAD segment with a physical address (p_paddr not all ones: RAM, and
 * the kernel's text, which lies within RAM and is dropped) is a RAM range;
 * vmalloc and module space have none.  Everything is checked: this is the
 * kernel's, but parsed as untrusted all the same.
 * Return: 0; -ENOEXEC when it is not a 64-bit core file of this byte order or
 * its program headers pass @len; -ENOENT when no segment has a physical address.
 */
int fitsample_parse_kcore(const uint8_t *buf, size_t len, uint32_t page_size,
			  struct fit_ram *ram, size_t cap, size_t *ret_n)
{
	uint64_t ps = page_size, start, end, off;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t i, n = 0;

	if (len < sizeof(eh) || !ps || (ps & (ps - 1)))
		return -ENOEXEC;
	memcpy(&eh, buf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != host_elf_data() || eh.e_type != ET_CORE)
		return -ENOEXEC;
	if (eh.e_phentsize != sizeof(ph) || eh.e_phoff > len ||
	    eh.e_phnum > (len - eh.e_phoff) / sizeof(ph))
		return -ENOEXEC;
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || ph.p_paddr == UINT64_MAX || !ph.p_filesz)
			continue;
		if (ph.p_paddr > UINT64_MAX - ph.p_filesz || ph.p_paddr > UINT64_MAX - ps)
			continue;
		start = (ph.p_paddr + ps - 1) & ~(ps - 1);
		end = (ph.p_paddr + ph.p_filesz) & ~(ps - 1);
		if (end <= start || ph.p_offset > UINT64_MAX - (start - ph.p_paddr))
			continue;
		off = ph.p_offset + (start - ph.p_paddr);
		if (off > UINT64_MAX - (end - start))
			continue;
		keep_range(ram, cap, &n, start, end, off);
	}
	if (!n)
		return -ENOENT;
	*ret_n = n;
	return 0;
}

/* @i with its log2(@k) low bits reversed */
static unsigned bit_reverse(unsigned i, unsigned k)
{
	unsigned r = 0, b;

	for (b = 1; b < k; b <<= 1) {
		r = (r << 1) | (i & 1);
		i >>= 1;
	}
	return r;
}

/**
 * fitsample_window() - where window @i of @k (a power of two) starts
 * @ret_range: the index of its RAM range in @ram, @ret_page: its page in there
 *
 * The windows split all pages of @ram into @k equal stretches, taken in
 * bit-reversed order: the first two are the start and the middle, the first
 * four the quarters, and so on.
 * Return: 0; -EINVAL for @k not a power of two, @i past it, or no pages.
 */
int fitsample_window(const struct fit_ram *ram, size_t n, uint32_t page_size, unsigned i,
		     unsigned k, size_t *ret_range, uint64_t *ret_page)
{
	uint64_t total = 0, pos, pages;
	unsigned b;
	size_t j;

	if (!page_size || !k || (k & (k - 1)) || i >= k)
		return -EINVAL;
	for (j = 0; j < n; j++)
		total += ram[j].bytes / page_size;
	if (!total)
		return -EINVAL;
	b = bit_reverse(i, k);
	pos = total / k * b + total % k * b / k;
	for (j = 0; j < n; j++) {
		pages = ram[j].bytes / page_size;
		if (pos < pages) {
			*ret_range = j;
			*ret_page = pos;
			return 0;
		}
		pos -= pages;
	}
	return -EINVAL;	/* cannot happen: pos < total */
}

/**
 * fitsample_in_use() - is a page with these /proc/kpageflags flags surely in use?
 * A free block of the buddy allocator flags its first page only; its other
 * pages have no flag at all, as have some pages the kernel allocated for
 * itself: a page without flags is left out.
 * Return: 1 or 0.
 */
int fitsample_in_use(uint64_t flags)
{
	const uint64_t not_used = 1ull << KPF_BUDDY | 1ull << KPF_HWPOISON | 1ull << KPF_NOPAGE |
				  1ull << KPF_OFFLINE;

	return flags && !(flags & not_used);
}

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* pread() all of @len, or -EIO */
static int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n;
	size_t done = 0;

	while (done < len) {
		n = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* The RAM ranges of the open /proc/kcore @fd; as fitsample_parse_kcore(). */
static int read_ranges(int fd, uint32_t ps, struct fit_ram *ram, size_t cap, size_t *ret_n)
{
	Elf64_Ehdr eh;
	uint8_t *buf;
	size_t len;
	int r;

	r = read_all(fd, &eh, sizeof(eh), 0);
	if (r < 0)
		return r;
	if (eh.e_phoff > PHDRS_MAX_BYTES ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > PHDRS_MAX_BYTES - eh.e_phoff)
		return -E2BIG;
	len = (size_t)(eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr));
	if (len < sizeof(eh))
		len = sizeof(eh);
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	r = read_all(fd, buf, len, 0);
	if (r == 0)
		r = fitsample_parse_kcore(buf, len, ps, ram, cap, ret_n);
	free(buf);
	return r;
}

/*
 * Gather up to @want pages in use from page @page of @range into @raw, a run
 * of neighbours in one read; the count of pages gathered, or -errno.
 */
static int gather(int kfd, int ffd, const struct fit_ram *range, uint64_t page, uint32_t ps,
		  uint64_t *flags, size_t scan, uint8_t *raw, size_t want)
{
	uint64_t first = range->paddr / ps + page;
	size_t i, got = 0, run = 0, run_start = 0;
	int r;

	if (scan > range->bytes / ps - page)
		scan = (size_t)(range->bytes / ps - page);
	r = read_all(ffd, flags, scan * sizeof(*flags), first * sizeof(*flags));
	if (r < 0)
		return r;
	for (i = 0; i <= scan && got + run < want; i++) {
		if (i < scan && fitsample_in_use(flags[i])) {
			if (!run++)
				run_start = i;
			continue;
		}
		if (!run)
			continue;
		r = read_all(kfd, raw + got * ps, run * ps, range->file_off + (page + run_start) * ps);
		if (r < 0)
			return r;
		got += run;
		run = 0;
	}
	if (run) {
		r = read_all(kfd, raw + got * ps, run * ps, range->file_off + (page + run_start) * ps);
		if (r < 0)
			return r;
		got += run;
	}
	return (int)got;
}

/*
 * May another window start after @cpu_ns of CPU time?  Within the budget, yes.
 * Past it, while fewer than FITSAMPLE_MIN_BLOCKS blocks were found, for up to
 * FITSAMPLE_MORE_NS more: on a slow machine the budget could run out in windows
 * that met free memory only, and then no sample means memory counts as
 * incompressible, and a hibernation that fits is refused (seen under TCG, a
 * 5 GiB guest with half of it in use: 3 blocks in 7 windows).  Zero budget, no
 * window.
 */
static int more_windows(const struct fit_sample *s, uint64_t cpu_ns, uint64_t budget_ns)
{
	if (cpu_ns < budget_ns)
		return 1;
	return budget_ns && s->blocks < FITSAMPLE_MIN_BLOCKS && cpu_ns < budget_ns + FITSAMPLE_MORE_NS;
}

/**
 * fitsample_take() - compress up to FITSAMPLE_WINDOWS blocks of memory in use
 * @kcore, @kpageflags: normally FITSAMPLE_KCORE and FITSAMPLE_KPAGEFLAGS
 * @block_pages: pages of the writer's blocks; @pack packs one as it would
 * @budget_ns: no window starts after this much CPU time of the thread (the
 *             cost to the machine; wall time also counts what other tasks take),
 *             or FITSAMPLE_MORE_NS more while too few blocks were found
 *             (more_windows())
 *
 * A window that cannot be read is skipped.  Logs nothing.  @ret is filled in
 * any case (its times too).
 * Return: FITSAMPLE_TAKEN (0); FITSAMPLE_TOO_FEW when fewer than
 * FITSAMPLE_MIN_BLOCKS blocks of pages in use were found in time: too few to
 * judge the rest by; -errno when a file cannot be opened or read (-EPERM under
 * lockdown, -ENOENT without /proc/kcore).
 */
int fitsample_take(const char *kcore, const char *kpageflags, uint32_t block_pages,
		   uint32_t page_size, uint64_t budget_ns, fitsample_pack_fn pack, void *ctx,
		   struct fit_sample *ret)
{
	struct fit_ram ram[FITSAMPLE_RAM_MAX];
	size_t n = 0, scan = (size_t)block_pages * FITSAMPLE_SCAN_BLOCKS, range, bytes;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t page, *flags = NULL;
	struct fit_sample s;
	uint8_t *raw = NULL;
	int kfd = -1, ffd = -1, r, got;
	unsigned i;

	memset(&s, 0, sizeof(s));
	if (!block_pages || !page_size)
		return -EINVAL;
	kfd = open(kcore, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return -errno;
	ffd = open(kpageflags, O_RDONLY | O_CLOEXEC);
	if (ffd < 0) {
		r = -errno;
		goto out;
	}
	r = read_ranges(kfd, page_size, ram, FITSAMPLE_RAM_MAX, &n);
	if (r < 0)
		goto out;
	raw = malloc((size_t)block_pages * page_size);
	flags = malloc(scan * sizeof(*flags));
	if (!raw || !flags) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < FITSAMPLE_WINDOWS && more_windows(&s, now_ns(CLOCK_THREAD_CPUTIME_ID) - c0,
						       budget_ns); i++) {
		if (fitsample_window(ram, n, page_size, i, FITSAMPLE_WINDOWS, &range, &page) < 0)
			break;
		s.windows++;
		got = gather(kfd, ffd, &ram[range], page, page_size, flags, scan, raw, block_pages);
		if (got <= 0)
			continue;
		bytes = pack(ctx, raw, (size_t)got * page_size);
		if (!bytes)
			continue;
		s.raw += (uint64_t)got * page_size;
		s.stored += bytes;
		s.blocks++;
	}
	r = s.blocks >= FITSAMPLE_MIN_BLOCKS ? FITSAMPLE_TAKEN : FITSAMPLE_TOO_FEW;
out:
	if (raw)
		explicit_bzero(raw, (size_t)block_pages * page_size);
	free(raw);
	free(flags);
	if (ffd >= 0)
		close(ffd);
	close(kfd);
	s.ns = now_ns(CLOCK_MONOTONIC) - t0;
	s.cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	*ret = s;
	return r;
}
