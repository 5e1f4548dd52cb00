/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpio.h - a streaming reader of cpio "newc" and "crc" archives, as the kernel
 * unpacks an initramfs (init/initramfs.c)
 *
 * The bytes come in pieces of any size (a file, a decompressor's pipe); the
 * reader calls back once per entry and with the entry's data.  Archives may
 * follow each other, with zero bytes between them.  Everything is untrusted:
 * each header field must be 8 hex digits, a name 1..CPIO_NAME_MAX bytes with
 * its NUL last and none before.  Nothing here prints.
 */
#ifndef SUSPEND_CPIO_H
#define SUSPEND_CPIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CPIO_HEADER_LEN		110	/* "070701" and 13 fields of 8 hex digits */
#define CPIO_NAME_MAX		4096	/* a name's bytes with its NUL: the kernel's PATH_MAX */
#define CPIO_TRAILER		"TRAILER!!!"

struct cpio_entry {
	char name[CPIO_NAME_MAX];	/* as stored, NUL-terminated */
	uint32_t ino;
	uint32_t mode;			/* type and permission bits */
	uint32_t nlink;
	uint32_t devmajor;		/* of the file's device: with ino, a hard link's key */
	uint32_t devminor;
	uint32_t size;			/* bytes of data */
};

struct cpio_reader;

/*
 * Called for each entry but the trailer: return 1 to get its data through
 * on_data, 0 to skip it, or -errno to stop (cpio_feed() returns it).
 */
typedef int (*cpio_entry_fn)(void *ctx, const struct cpio_entry *e);
/* A piece of the entry's data, @off bytes into it; 0 or -errno to stop. */
typedef int (*cpio_data_fn)(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n,
			    uint32_t off);

enum cpio_state {
	CPIO_BETWEEN,			/* before an archive or after a trailer: zeros */
	CPIO_HEADER,
	CPIO_NAME,			/* the name and the padding after it */
	CPIO_DATA,
	CPIO_DATA_PAD,
};

struct cpio_reader {
	enum cpio_state state;
	uint64_t off;			/* bytes of the stream consumed */
	size_t have;			/* bytes of the header or name collected */
	uint32_t name_len;		/* the name's bytes with padding */
	uint32_t left;			/* data or padding bytes still to pass */
	int want;			/* on_entry asked for this entry's data */
	uint64_t entries;		/* entries seen, trailers included */
	uint64_t archives;		/* trailers seen */
	uint8_t hdr[CPIO_HEADER_LEN];
	struct cpio_entry e;
	cpio_entry_fn on_entry;
	cpio_data_fn on_data;
	void *ctx;
};

/* Start reading a stream; the callbacks may be NULL. */
void cpio_init(struct cpio_reader *r, cpio_entry_fn on_entry, cpio_data_fn on_data, void *ctx);

/**
 * cpio_feed() - the next @len bytes of the stream
 *
 * Return: the bytes consumed.  Fewer than @len only between archives, at a byte
 * that starts none (not zero, and not a '0' at an offset that is a multiple of
 * 4): compressed data follows, or junk (the caller tells).  -EBADMSG for a
 * malformed header or name; what a callback returned, when it stopped.
 */
ssize_t cpio_feed(struct cpio_reader *r, const uint8_t *p, size_t len);

/* Did the stream end between archives?  0, or -EBADMSG (cut inside an entry). */
int cpio_finish(const struct cpio_reader *r);

#endif
