// SPDX-License-Identifier: GPL-2.0-only
/*
 * pefile.c - find a named section in a PE/COFF file
 *
 * Layout (the PE/COFF specification): at 0x3c the DOS header holds the offset
 * of "PE\0\0"; the 20-byte COFF header follows, with the number of sections at
 * +2 and the optional header's size at +16; the section table comes after the
 * optional header, 40 bytes a section: the name (8 bytes, NUL-padded),
 * VirtualSize at +8, SizeOfRawData at +16 and PointerToRawData at +20.
 */
#include <errno.h>
#include <string.h>

#include "le.h"
#include "pefile.h"

#define DOS_LFANEW	0x3c
#define COFF_LEN	20
#define SECTION_LEN	40
#define SECTIONS_MAX	96		/* the PE loader's limit */

int pe_find_section(const uint8_t *p, size_t len, uint64_t file_size, const char *name,
		    struct pe_section *ret)
{
	size_t nlen = strlen(name), i;
	uint64_t pe, table, nr, vsize, raw, off;
	const uint8_t *s;

	if (nlen > 8 || len > file_size)
		return -EINVAL;
	if (len < DOS_LFANEW + 4 || p[0] != 'M' || p[1] != 'Z')
		return PE_NOT_PE;
	pe = get_le32(p + DOS_LFANEW);
	if (pe + 4 + COFF_LEN > len)
		return pe + 4 > len || memcmp(p + pe, "PE\0\0", 4) ? PE_NOT_PE : -EBADMSG;
	if (memcmp(p + pe, "PE\0\0", 4))
		return PE_NOT_PE;
	nr = get_le16(p + pe + 4 + 2);
	table = pe + 4 + COFF_LEN + get_le16(p + pe + 4 + 16);
	if (nr > SECTIONS_MAX || table + nr * SECTION_LEN > len)
		return -EBADMSG;
	for (i = 0; i < nr; i++) {
		s = p + table + i * SECTION_LEN;
		if (memcmp(s, name, nlen) || (nlen < 8 && s[nlen]))
			continue;
		vsize = get_le32(s + 8);
		raw = get_le32(s + 16);
		off = get_le32(s + 20);
		if (vsize && vsize < raw)
			raw = vsize;
		if (off > file_size || raw > file_size - off)
			return -EBADMSG;
		ret->offset = off;
		ret->size = raw;
		return PE_FOUND;
	}
	return PE_NO_SECTION;
}
