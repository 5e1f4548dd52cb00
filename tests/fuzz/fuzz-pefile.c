// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-pefile.c - libFuzzer target for the PE section parser (suspend/pefile.c)
 * and a UKI's kernel release (suspend/bootentry.c)
 *
 * The input is a PE file.  pe_find_section() runs on it whole and on its first
 * bytes only (the byte after the input's first names how many, in 256s); a
 * section it finds must lie inside the file, and the two runs may differ only
 * where the cut hides the headers.  bootentry_uki_release() reads the same
 * bytes from a memfd: a release it returns is a non-empty word.
 */
/* fuzz-sources: suspend/pefile.c suspend/bootentry.c */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../suspend/bootentry.h"
#include "../../suspend/pefile.h"
#include "fuzz.h"

static const char *const names[] = { ".initrd", ".uname", ".linux", "12345678", "" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct pe_section a, b;
	size_t cut, i, n;
	char rel[128];
	int ra, rb;

	if (size < 1)
		return 0;
	cut = (size_t)data[0] * 256;
	data++;
	size--;
	n = size < PE_HEADERS_MAX ? size : PE_HEADERS_MAX;
	if (cut > n)
		cut = n;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ra = pe_find_section(data, n, size, names[i], &a);
		rb = pe_find_section(data, cut, size, names[i], &b);
		if (ra == PE_FOUND)
			check(a.offset <= size && a.size <= size - a.offset);
		if (rb == PE_FOUND)
			check(b.offset <= size && b.size <= size - b.offset);
		/* what the first bytes show is what the whole shows */
		if (rb == PE_FOUND)
			check(ra == PE_FOUND && a.offset == b.offset && a.size == b.size);
		check(ra == PE_FOUND || ra == PE_NOT_PE || ra == PE_NO_SECTION || ra == -EBADMSG);
	}
	if (fd < 0)
		fd = memfd_create("fuzz-pefile", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (bootentry_uki_release(fd, size, rel, sizeof(rel)) == 0) {
		n = strnlen(rel, sizeof(rel));
		check(n > 0 && n < sizeof(rel) && !strchr(rel, ' '));
	}
	return 0;
}
