/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pefile.h - find a named section in a PE/COFF file (a unified kernel image:
 * the EFI stub with the kernel in .linux, its release in .uname and the
 * initramfs in .initrd)
 *
 * Only the headers are parsed: the DOS header's pointer to the PE signature,
 * the COFF header, and the section table after the optional header.  The file
 * is untrusted: every offset and size is checked against the buffer and the
 * file's size.  Nothing here prints.
 */
#ifndef SUSPEND_PEFILE_H
#define SUSPEND_PEFILE_H

#include <stddef.h>
#include <stdint.h>

#define PE_HEADERS_MAX	(64 * 1024)	/* the headers are looked for in these first bytes */

struct pe_section {
	uint64_t offset;		/* where its data starts in the file */
	uint64_t size;			/* its bytes there */
};

/* what pe_find_section() found */
enum pe_find {
	PE_FOUND,		/* the section: @ret is set */
	PE_NOT_PE,		/* no "MZ", or no "PE\0\0" where the DOS header points */
	PE_NO_SECTION,		/* a PE file without that section */
};

/**
 * pe_find_section() - the section @name (at most 8 bytes) of a PE file
 * @p: the file's first bytes (PE_HEADERS_MAX, or the whole file when shorter)
 * @len: their number
 * @file_size: the whole file's size
 * @ret: where the section's data is
 *
 * The size is the section's VirtualSize (its data without the file
 * alignment's padding), cut to its SizeOfRawData: what a loader reads of it.
 *
 * Return: an enum pe_find; -EBADMSG when its headers or the section lie outside
 * @p or the file; -EINVAL for a @name longer than 8 bytes or @len over @file_size.
 */
int pe_find_section(const uint8_t *p, size_t len, uint64_t file_size, const char *name,
		    struct pe_section *ret);

#endif
