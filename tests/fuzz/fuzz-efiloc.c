// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-efiloc.c - libFuzzer target for efiloc_decode()
 *
 * The input is the efivarfs file of TorporHibernateLocation.  When it decodes, the
 * strings are terminated and well formed, and encoding the result gives back the
 * input byte for byte (one valid encoding for each location).
 */
/* fuzz-sources: core/efiloc.c core/crc32.c */
#include <stdint.h>
#include <string.h>

#include "efiloc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t again[EFILOC_FILE_SIZE];
	char spec[64];
	struct efiloc l;

	if (efiloc_decode(data, size, &l) != 0)
		return 0;
	check(size == EFILOC_FILE_SIZE);
	check(strlen(l.id) < sizeof(l.id) && strlen(l.release) < sizeof(l.release));
	check(efiloc_spec(&l, spec, sizeof(spec)) == 0);
	check(efiloc_encode(&l, again) == 0);
	/* the attributes word may carry more bits than the ones written */
	check(!memcmp(again + 4, data + 4, EFILOC_SIZE));
	return 0;
}
