/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * writer.h - write the snapshot stream into the swap area as a torpor image
 *
 * A pipeline of three stages, each a function over one block:
 *   read   (snapshot fd → raw block, one whole page per read())
 *   pack   (raw block → CRC + LZ4 → page-padded bytes in the staging buffer)
 *   flush  (staging buffer → swap slots from ALLOC_SWAP_PAGE → large pwrite()s)
 * The pack stage keeps no state besides its output, so running it on several
 * threads later means handing blocks to workers and flushing in order.
 */
#ifndef SUSPEND_WRITER_H
#define SUSPEND_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"

struct writer {
	int snap_fd;			/* /dev/snapshot, O_RDONLY */
	int dev_fd;			/* the resume device, O_RDWR (O_DIRECT when possible) */
	uint32_t ps;			/* page size */
	uint64_t header_offset;		/* byte offset of the swap header page */
	uint8_t *header_page;		/* that page as it was before we started */
	uint8_t *raw;			/* one uncompressed block */
	size_t raw_cap;
	uint8_t *out;			/* staging buffer of packed blocks */
	size_t out_cap, out_fill;
	uint8_t *meta_buf;		/* the encoded meta blob */
	size_t meta_cap;
	struct torpor_image img;	/* meta header and tables being built */
	uint32_t block_pages;		/* pages per block (writer_block_pages()) */
	uint32_t blocks_cap, ext_cap;
	uint64_t consumed;		/* stream bytes read so far */
	uint64_t slots;			/* swap slots taken */
	int header_written;		/* the header page was (maybe) overwritten */
	void (*progress)(uint64_t done, uint64_t total);
	/* once per block, before it is read: nonzero stops the write (-ECANCELED) */
	int (*poll)(uint64_t done, uint64_t total);
	int (*alloc_slot)(int snap_fd, uint64_t *ret_offset);	/* tests replace it */
	/*
	 * after data and map are flushed, before the root is written: nonzero
	 * cancels the commit (-ECANCELED); once it returned 0, nothing stops it
	 */
	int (*before_root)(void);
};

uint32_t writer_block_pages(uint64_t mem_bytes, uint32_t page_size);
int writer_init(struct writer *w, int dev_fd, uint64_t header_offset, uint32_t page_size,
		uint64_t mem_bytes);
size_t writer_buffer_bytes(const struct writer *w);
uint64_t writer_estimate_bytes(const struct writer *w);
int writer_check_header(struct writer *w, char ret_orig_sig[10]);
int writer_save(struct writer *w, int snap_fd, uint64_t stream_bytes);
int writer_commit(struct writer *w, const char orig_sig[10]);
int writer_abort(struct writer *w);
void writer_release(struct writer *w);

#endif
