// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfs.c - read the next boot's initramfs as the kernel unpacks it
 *
 * The file, or the .initrd section of a UKI, is read from its start to its end:
 * uncompressed cpio archives and compressed streams, one after the other.  The
 * entries go to the walk (initramfswalk.c), which keeps what matters;
 * initramfs_inspect() then has it judged (initramfsjudge.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "crc32.h"
#include "decompress.h"
#include "initramfs.h"
#include "initramfsjudge.h"
#include "initramfswalk.h"
#include "monoclock.h"
#include "pefile.h"
#include "streamend.h"

#define CHUNK		(256 * 1024)

/* Feed @n bytes of a decompressed stream; 0 or -errno (detail filled) */
static int feed_unpacked(struct cpio_reader *r, const uint8_t *p, size_t n, const char *format,
			 struct initramfs_report *rep)
{
	uint64_t at = r->off;
	ssize_t used = cpio_feed(r, p, n);

	if (used >= 0 && (size_t)used == n)
		return 0;
	if (used == -ENOMEM)
		return -ENOMEM;
	snprintf(rep->detail, sizeof(rep->detail), "%s in the %s-compressed archives, at byte %llu "
		 "of their data", used < 0 ? "a malformed cpio entry" : "data that is no cpio archive",
		 format, (unsigned long long)(used < 0 ? at : r->off));
	return -EBADMSG;
}

/* Where the initramfs is read from, and how */
struct source {
	int fd;
	uint64_t start, end;		/* the whole file, or a UKI's .initrd section */
	const char *dirs;		/* the decompressors' */
	int timeout_ms;			/* for all its streams together */
	long long deadline_ms;		/* CLOCK_MONOTONIC */
	uint8_t *buf;			/* CHUNK bytes */
};

/*
 * Where the compressed stream at @off ends: from its framing (zstd, xz) before
 * it is decompressed, from its trailer (gzip: the CRC32 and size of @out_bytes
 * of output) after; else at the end (bzip2, lzma, lzo, lz4: what follows
 * their stream is not read).
 */
static uint64_t stream_end(const struct source *src, uint64_t off, const char *format, int after,
			   uint32_t crc, uint64_t out_bytes)
{
	uint64_t len;

	if (!after && streamend_framed(src->fd, off, src->end, format, &len) == 0)
		return off + len;
	if (after && !strcmp(format, "gzip") &&
	    streamend_gzip(src->fd, off, src->end, crc, (uint32_t)out_bytes, &len) == 0)
		return off + len;
	return src->end;
}

/* The compressed stream at *@off, which moves to its end; 0 or -errno (detail filled) */
static int read_compressed(struct walk *w, const struct source *src, uint64_t *off,
			   struct initramfs_report *rep)
{
	const struct decompress_tool *t;
	uint64_t end, out_bytes = 0;
	struct cpio_reader r;
	struct decompress d;
	uint32_t crc = 0;
	long long left;
	ssize_t n;
	int rc;

	n = pread(src->fd, src->buf, 8, (off_t)*off);
	t = decompress_detect(src->buf, n > 0 ? (size_t)n : 0);
	if (!t) {
		snprintf(rep->detail, sizeof(rep->detail), "at byte %llu: neither a cpio archive "
			 "nor data compressed as the kernel unpacks", (unsigned long long)*off);
		return -EPROTONOSUPPORT;
	}
	rep->compression = t->format;
	end = stream_end(src, *off, t->format, 0, 0, 0);
	left = src->deadline_ms - mono_ms();
	rc = decompress_start(&d, t, src->fd, *off, end, src->dirs, left > 1 ? (int)left : 1);
	if (rc < 0) {
		snprintf(rep->detail, sizeof(rep->detail), "it is compressed with %s from byte %llu "
			 "on, and '%s' %s", t->format, (unsigned long long)*off, t->argv[0],
			 rc == -ENOENT ? "is not installed" : "could not be run");
		return rc == -ENOENT ? -ENOPKG : rc;
	}
	cpio_init(&r, walk_on_entry, walk_on_data, w);
	while ((n = decompress_read(&d, src->buf, CHUNK)) > 0) {
		if (rep->unpacked_bytes + r.off + (uint64_t)n > INITRAMFS_UNPACKED_MAX) {
			snprintf(rep->detail, sizeof(rep->detail), "more than %llu GiB of %s-"
				 "compressed data", INITRAMFS_UNPACKED_MAX >> 30, t->format);
			n = -EFBIG;
			break;
		}
		if (end == src->end && !strcmp(t->format, "gzip"))
			crc = crc32_update(crc, src->buf, (size_t)n);
		out_bytes += (uint64_t)n;
		rc = feed_unpacked(&r, src->buf, (size_t)n, t->format, rep);
		if (rc < 0) {
			n = rc;
			break;
		}
	}
	rep->tool_status = decompress_finish(&d);
	rep->unpacked_bytes += r.off;
	rep->entries += r.entries;
	if (n == -ETIMEDOUT)
		snprintf(rep->detail, sizeof(rep->detail), "%s did not finish decompressing it "
			 "within %d s", t->argv[0], src->timeout_ms / 1000);
	if (n < 0)
		return (int)n;
	/* a tool that fails at trailing bytes (gzip at zero padding) has said all before */
	if (cpio_finish(&r) < 0 || !r.entries) {
		snprintf(rep->detail, sizeof(rep->detail), "its %s-compressed archives end %s "
			 "(%s exited with status %d)", t->format, r.entries ? "inside an entry" :
			 "before any entry", t->argv[0], rep->tool_status);
		return -EBADMSG;
	}
	*off = end == src->end ? stream_end(src, *off, t->format, 1, crc, out_bytes) : end;
	return 0;
}

/* Uncompressed archives from *@off on, up to the end or to data that starts
 * none (*@off then points at it); 0 or -errno (detail filled) */
static int read_plain(struct walk *w, const struct source *src, uint64_t *off,
		      struct initramfs_report *rep)
{
	struct cpio_reader r;
	uint64_t want, first;
	ssize_t n, used;

	cpio_init(&r, walk_on_entry, walk_on_data, w);
	/* a header starts at a multiple of 4 from the start of the initramfs */
	r.off = first = *off - src->start;
	while (*off < src->end) {
		want = src->end - *off < CHUNK ? src->end - *off : CHUNK;
		n = pread(src->fd, src->buf, (size_t)want, (off_t)*off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			snprintf(rep->detail, sizeof(rep->detail), "the file is cut short");
			return -EBADMSG;
		}
		used = cpio_feed(&r, src->buf, (size_t)n);
		if (used == -ENOMEM)
			return -ENOMEM;
		if (used < 0) {
			snprintf(rep->detail, sizeof(rep->detail), "a malformed cpio entry at byte "
				 "%llu", (unsigned long long)(src->start + r.off));
			return -EBADMSG;
		}
		*off += (uint64_t)used;
		if (used < n)
			break;
	}
	rep->unpacked_bytes += r.off - first;
	rep->entries += r.entries;
	if (*off == src->end && cpio_finish(&r) < 0) {
		snprintf(rep->detail, sizeof(rep->detail), "the file ends inside a cpio entry");
		return -EBADMSG;
	}
	return 0;
}

/* The whole initramfs: uncompressed archives and compressed streams, one
 * after the other, as the kernel unpacks them; 0 or -errno */
static int read_all(struct walk *w, const struct source *src, struct initramfs_report *rep)
{
	uint64_t off = src->start;
	int r;

	while (off < src->end) {
		r = read_plain(w, src, &off, rep);
		if (r == 0 && off < src->end)
			r = read_compressed(w, src, &off, rep);
		if (r < 0)
			return r;
	}
	if (!rep->entries) {
		snprintf(rep->detail, sizeof(rep->detail), "the file ends before any cpio entry");
		return -EBADMSG;
	}
	return 0;
}

/* A unified kernel image carries the initramfs in its .initrd section; 0 or -errno */
static int find_initrd(struct source *src, uint64_t size, struct initramfs_report *rep)
{
	struct pe_section sec;
	ssize_t n;
	int r;

	src->start = 0;
	src->end = size;
	do
		n = pread(src->fd, src->buf, size < PE_HEADERS_MAX ? size : PE_HEADERS_MAX, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r = pe_find_section(src->buf, (size_t)n, size, ".initrd", &sec);
	if (r == PE_NOT_PE)
		return 0;
	if (r != PE_FOUND) {
		snprintf(rep->detail, sizeof(rep->detail), "a PE file (a unified kernel image?) %s",
			 r == PE_NO_SECTION ? "without an .initrd section" :
			 "whose section table is malformed");
		return -EPROTONOSUPPORT;
	}
	src->start = sec.offset;
	src->end = sec.offset + sec.size;
	rep->uki = 1;
	return 0;
}

int initramfs_inspect(const char *path, const char *resume_path, const char *tool_dirs,
		      int timeout_ms, struct initramfs_report *ret)
{
	struct source src = { .dirs = tool_dirs, .timeout_ms = timeout_ms,
			      .deadline_ms = mono_ms() + timeout_ms };
	struct walk *w;
	struct stat st;
	int fd, r;

	memset(ret, 0, sizeof(*ret));
	/* O_NONBLOCK: a FIFO there is said to be no regular file, not waited on for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	src.fd = fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(ret->detail, sizeof(ret->detail), "not a regular file");
		goto out_close;
	}
	ret->file_bytes = (uint64_t)st.st_size;
	if (ret->file_bytes > INITRAMFS_FILE_MAX) {
		snprintf(ret->detail, sizeof(ret->detail), "larger than %llu MiB",
			 INITRAMFS_FILE_MAX >> 20);
		r = -EFBIG;
		goto out_close;
	}
	w = calloc(1, sizeof(*w));
	src.buf = malloc(CHUNK);
	r = w && src.buf ? find_initrd(&src, ret->file_bytes, ret) : -ENOMEM;
	if (r == 0)
		r = read_all(w, &src, ret);
	if (r == 0)
		r = initramfs_judge(w, resume_path, ret);
	ret->hosts = w ? w->hosts : 0;
	if (w)
		walk_free(w);
	free(w);
	free(src.buf);
out_close:
	close(fd);
	return r;
}

const char *initramfs_host_name(unsigned host)
{
	switch (host) {
	case INITRAMFS_HOST_ITOOLS:
		return "initramfs-tools";
	case INITRAMFS_HOST_DRACUT:
		return "dracut";
	case INITRAMFS_HOST_MKINITCPIO:
		return "mkinitcpio";
	}
	return NULL;
}
