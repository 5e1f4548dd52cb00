// SPDX-License-Identifier: GPL-2.0-only
/* imagedump.c - --dump: the image's header and map, described on stdout */
#include <stdio.h>

#include "fsstamp.h"
#include "imagedump.h"

/**
 * imagedump_print() - describe the image of @l, read from @name
 *
 * The root record always; the meta blob and its tables when it was read.
 */
void imagedump_print(const struct loader *l, const char *name)
{
	const struct torpor_root *r = &l->img.root;
	const struct torpor_meta *m = &l->img.meta;
	uint32_t i;

	printf("device=%s\nheader_offset=%llu\nroot_offset=%llu\n", name,
	       (unsigned long long)l->header_offset,
	       (unsigned long long)(l->header_offset + TORPOR_ROOT_OFFSET));
	printf("version=%u\npage_size=%u\nmeta_bytes=%llu\nmeta_hash=0x%016llx\n", r->version,
	       r->page_size, (unsigned long long)r->meta_bytes, (unsigned long long)r->meta_hash);
	for (i = 0; i < r->nr_meta_extents; i++)
		printf("meta_extent=%llu %u\n", (unsigned long long)r->meta_extents[i].offset,
		       r->meta_extents[i].pages);
	if (!l->have_meta)
		return;
	printf("release=%s\nkversion=%s\nmachine=%s\n", m->release, m->kversion, m->machine);
	printf("algorithm=%s\nblock_pages=%u\nstream_bytes=%llu\nstored_bytes=%llu\n"
	       "data_pages=%llu\nnr_blocks=%u\nnr_extents=%u\nnr_fs=%u\nmem_pages=%llu\n"
	       "created=%llu\n", m->algorithm == TORPOR_ALG_LZ4 ? "lz4" : "none",
	       m->block_pages, (unsigned long long)m->stream_bytes,
	       (unsigned long long)m->stored_bytes, (unsigned long long)m->data_pages,
	       m->nr_blocks, m->nr_extents, m->nr_fs, (unsigned long long)m->mem_pages,
	       (unsigned long long)m->created);
	printf("features=0x%02x%s\n", m->features,
	       m->features & TORPOR_META_LATE_CHECK ? " late-check" : "");
	for (i = 0; i < m->nr_fs; i++) {
		char uuid[37];

		fsstamp_uuid_str(l->img.fs[i].uuid, uuid);
		printf("fs=%s %llu %llu\n", uuid, (unsigned long long)l->img.fs[i].mount_count,
		       (unsigned long long)l->img.fs[i].mount_time);
	}
	for (i = 0; i < m->nr_extents; i++)
		printf("extent=%llu %u\n", (unsigned long long)l->img.extents[i].offset,
		       l->img.extents[i].pages);
	for (i = 0; i < m->nr_blocks; i++)
		printf("block=%u %llu %u %s 0x%016llx\n", i,
		       (unsigned long long)loader_block_offset(l, i), l->img.blocks[i].stored_len,
		       l->img.blocks[i].flags & TORPOR_BLOCK_RAW ? "raw" : "lz4",
		       (unsigned long long)l->img.blocks[i].hash);
}
