/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * writer.h - write the snapshot stream into the swap area as a torpor image
 *
 * A pipeline of three stages over blocks of the stream:
 *   read   (snapshot fd → raw block, one whole page per read()), on the writer's thread
 *   pack   (raw block → LZ4 → hash of the stored bytes → page padded), on the
 *          pack workers (packpool.h), one per CPU, or inline with one CPU
 *   flush  (packed blocks, in stream order, gathered into a batch; swap slots
 *          from ALLOC_SWAP_PAGE for each of its pages; the batch written by
 *          the flusher thread (flusher.h) straight from the jobs' buffers while
 *          the next one gathers; then the jobs are free again)
 * Blocks come back from the workers in the order they were read, so the data
 * is byte for byte what one thread writes; only the slots may differ.
 */
#ifndef SUSPEND_WRITER_H
#define SUSPEND_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "flusher.h"
#include "image.h"
#include "packpool.h"

struct writer {
	int snap_fd;			/* /dev/snapshot, O_RDONLY */
	int dev_fd;			/* the resume device, O_RDWR (O_DIRECT when possible) */
	uint32_t ps;			/* page size */
	uint64_t header_offset;		/* byte offset of the swap header page */
	uint8_t *header_page;		/* that page as it was before we started */
	size_t raw_cap;			/* bytes of a whole block */
	struct pack_setting pack;	/* compression (compress=) */
	unsigned threads;		/* pack workers (0: pack on this thread) */
	struct pack_pool pool;
	struct flusher fl;
	uint64_t *meta_off;		/* a slot for each page of the meta blob */
	uint8_t *meta_buf;		/* the encoded meta blob */
	size_t meta_cap;
	struct torpor_image img;	/* meta header and tables being built */
	uint32_t block_pages;		/* pages per block (writer_block_pages()) */
	uint32_t blocks_cap, ext_cap;
	uint64_t consumed;		/* stream bytes read so far */
	uint64_t slots;			/* swap slots taken */
	uint64_t jobs_released;		/* pack jobs written and released, in writer_save() */
	size_t staged;			/* bytes in the batch being filled when writer_save() ended */
	unsigned threads_used;		/* pack workers that ran, after writer_save() */
	unsigned lingering;		/* threads the kernel had not released in time */
	/* where the time went, in ns, for -v: on the writer's thread ... */
	uint64_t t_read, t_alloc, t_wait_pack, t_copy, t_wait_write;
	/* ... and summed over the pack workers, on the flusher thread */
	uint64_t t_pack, t_write;
	/* and in writer_commit(): all of it, and the two fdatasync() in it */
	uint64_t t_commit, t_sync;
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

/* What writer_check_header() found at the swap header page, when it could read it */
enum writer_header {
	WRITER_HEADER_SWAP,		/* a swap area's (an old image of ours there replaced) */
	WRITER_HEADER_NOT_SWAP,		/* no swap signature, or another tool's image */
	WRITER_HEADER_BAD_PAGES,	/* mkswap -c's bad-page list would run under our root */
};

uint32_t writer_block_pages(uint64_t mem_bytes, uint32_t page_size);
int writer_init(struct writer *w, int dev_fd, uint64_t header_offset, uint32_t page_size,
		uint64_t mem_bytes);
int writer_setup_pack(struct writer *w, const struct pack_setting *s, unsigned threads);
size_t writer_buffer_bytes(const struct writer *w);
uint64_t writer_estimate_bytes(const struct writer *w);
int writer_check_header(struct writer *w, char ret_orig_sig[10], int invalidate);
int writer_save(struct writer *w, int snap_fd, uint64_t stream_bytes);
int writer_commit(struct writer *w, const char orig_sig[10]);
int writer_abort(struct writer *w);
void writer_forget_image(struct writer *w, const char orig_sig[10]);
void writer_release(struct writer *w);

#endif
