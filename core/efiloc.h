/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * efiloc.h - TorporHibernateLocation, the EFI variable that names the resume area
 * when the kernel command line does not (no resume=)
 *
 * torpor-suspend writes it before the freeze, torpor-resume reads it and removes it
 * before it uses it.  The file in efivarfs is a 4-byte attributes word
 * (NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS = 0x7), then
 * EFILOC_SIZE bytes, little-endian:
 *     0  magic "TORPORHL"           8  u16 version (1)      10  u16 size (144)
 *    12  u8 id kind (1 UUID=, 2 PARTUUID=)                 13  u8 image format
 *    14  u16 zero                  16  u64 resume offset in pages
 *    24  id[48]: the UUID text, NUL-padded
 *    72  release[68]: the kernel release (uname -r), NUL-padded
 *   140  u32 CRC-32 of bytes 0-139
 */
#ifndef CORE_EFILOC_H
#define CORE_EFILOC_H

#include <stddef.h>
#include <stdint.h>

#define EFILOC_GUID	"fffe292d-83bc-43f2-b2ca-553590a45322"	/* torpor's own, fixed */
#define EFILOC_NAME	"TorporHibernateLocation-" EFILOC_GUID
#define EFILOC_DIR	"/sys/firmware/efi/efivars"
#define EFILOC_ATTRS	0x7u
#define EFILOC_VERSION	1
#define EFILOC_SIZE	144		/* the variable's data, after the attributes word */
#define EFILOC_FILE_SIZE (4 + EFILOC_SIZE)
/*
 * torpor-resume carries this string: it reads the variable.  torpor-suspend looks
 * for it in the initramfs (suspend/initramfswalk.c); make check-klibc checks it.
 * As long as TORPOR_MARKER_PREFIX (core/image.h), so one carry holds either.
 */
#define EFILOC_MARKER	"torpor-resume efi-location=1"

enum efiloc_kind {
	EFILOC_UUID = 1,	/* the swap area's (or swap file's filesystem's) UUID= */
	EFILOC_PARTUUID = 2,	/* its partition's PARTUUID= */
};

struct efiloc {
	int kind;			/* enum efiloc_kind */
	char id[48];			/* the UUID text, NUL-terminated */
	uint64_t offset_pages;		/* resume_offset= */
	char release[68];		/* the kernel release that wrote the image */
	unsigned image_format;		/* TORPOR_FORMAT_VERSION of the image */
};

int efiloc_encode(const struct efiloc *l, uint8_t out[EFILOC_FILE_SIZE]);
int efiloc_decode(const uint8_t *buf, size_t len, struct efiloc *ret);
int efiloc_spec(const struct efiloc *l, char *out, size_t len);
int efiloc_read(const char *dir, struct efiloc *ret);
int efiloc_write(const char *dir, const struct efiloc *l);
int efiloc_remove(const char *dir);

#endif
