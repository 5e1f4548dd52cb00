// SPDX-License-Identifier: GPL-2.0-only
/*
 * crc32.c - CRC-32 over image blocks and records
 *
 * Slicing-by-8: eight 256-entry tables built once on first use, so the resume
 * side verifies hundreds of MiB at boot without a hardware CRC instruction.
 */
#include <string.h>

#include "crc32.h"
#include "le.h"

static uint32_t table[8][256];
static int table_ready;

static void build_table(void)
{
	uint32_t c;
	int i, j;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (j = 0; j < 8; j++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			table[j][i] = (table[j - 1][i] >> 8) ^ table[0][table[j - 1][i] & 0xff];
	table_ready = 1;
}

uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t a, b;

	if (!table_ready)
		build_table();
	crc = ~crc;
	while (len >= 8) {
		a = get_le32(p) ^ crc;
		b = get_le32(p + 4);
		crc = table[7][a & 0xff] ^ table[6][(a >> 8) & 0xff] ^
		      table[5][(a >> 16) & 0xff] ^ table[4][a >> 24] ^
		      table[3][b & 0xff] ^ table[2][(b >> 8) & 0xff] ^
		      table[1][(b >> 16) & 0xff] ^ table[0][b >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
