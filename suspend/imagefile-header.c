// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-header.c - the image file's header page, where the next boot reads
 * it: a swap signature, or an image no boot consumed (invalidated)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

#include "devname.h"
#include "image.h"
#include "imagefile-cmdline.h"
#include "imagefile-header.h"
#include "msg.h"

/* pread()/pwrite() of one aligned page with O_DIRECT, buffered where refused */
static int page_io(int fd, void *page, uint32_t ps, uint64_t off, int write)
{
	int fl = fcntl(fd, F_GETFL), direct = 0;
	ssize_t n;

	if (fl >= 0 && !(fl & O_DIRECT) && fcntl(fd, F_SETFL, fl | O_DIRECT) == 0)
		direct = 1;
	for (;;) {
		n = write ? pwrite(fd, page, ps, (off_t)off) : pread(fd, page, ps, (off_t)off);
		if (n < 0 && errno == EINVAL && direct) {
			(void)fcntl(fd, F_SETFL, fl);
			direct = 0;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	if (direct)
		(void)fcntl(fd, F_SETFL, fl);
	if (n < 0)
		return -errno;
	return (size_t)n == ps ? 0 : -EIO;
}

int imagefile_header_check(int fd, uint64_t off, uint32_t ps, int fix)
{
	struct torpor_root root;
	const char *sig = SWAP_SIG;
	void *page;
	int r;

	if (posix_memalign(&page, 4096, ps))
		return -ENOMEM;
	r = page_io(fd, page, ps, off, 0);
	if (r < 0)
		goto out;
	switch (image_classify(page, ps)) {
	case IMAGE_SIG_SWAP:
		r = IMAGEFILE_HEADER_SWAP;
		goto out;
	case IMAGE_SIG_TORPOR:
		break;
	default:
		r = IMAGEFILE_HEADER_FOREIGN;
		goto out;
	}
	r = IMAGEFILE_HEADER_IMAGE;
	if (!fix)
		goto out;
	/* as torpor-resume's loader_invalidate() */
	if (image_root_decode(page, ps, &root) == 0 &&
	    (!memcmp(root.orig_sig, SWAP_SIG, 10) || !memcmp(root.orig_sig, SWAP_SIG_OLD, 10)))
		sig = root.orig_sig;
	memset((uint8_t *)page + TORPOR_ROOT_OFFSET, 0, sizeof(struct torpor_root));
	memcpy((uint8_t *)page + ps - TORPOR_SIG_LEN, sig, 10);
	r = page_io(fd, page, ps, off, 1);
	if (r == 0 && fdatasync(fd) < 0)
		r = -errno;
	if (r == 0)
		r = IMAGEFILE_HEADER_IMAGE;
out:
	free(page);
	return r;
}

int imagefile_header_on_disk(int fd, const struct imagefile_loc *loc, uint32_t ps, int fix)
{
	int mode = fix ? O_RDWR : O_RDONLY, dev_fd, r;

	dev_fd = devname_open(loc->dev, mode | O_DIRECT);
	if (dev_fd < 0)
		dev_fd = devname_open(loc->dev, mode);
	if (dev_fd < 0)
		return imagefile_header_check(fd, 0, ps, fix);
	r = imagefile_header_check(dev_fd, loc->offset_pages * ps, ps, fix);
	close(dev_fd);
	if (fix)
		(void)posix_fadvise(fd, 0, ps, POSIX_FADV_DONTNEED);
	return r;
}

int imagefile_header_and_warn(int fd, const struct imagefile_loc *loc, const char *path, int fix)
{
	char line[160];
	int r;

	r = imagefile_header_on_disk(fd, loc, (uint32_t)sysconf(_SC_PAGESIZE), fix);
	if (r == IMAGEFILE_HEADER_SWAP)
		return 0;
	if (r == IMAGEFILE_HEADER_IMAGE && fix) {
		(void)imagefile_format_line(loc, line, sizeof(line), NULL, 0);
		msg_warn("an image that no boot resumed was left in '%s': discarded", path);
		msg_hint("the boot after a hibernation must have %s on its kernel command line, "
			 "and torpor in its initramfs", line);
		return 0;
	}
	if (r == IMAGEFILE_HEADER_IMAGE) {
		msg_error("image file '%s' holds an image that no boot resumed: the boot after "
			  "the hibernation did not look there", path);
		msg_hint("hibernating discards it; check the kernel command line below, and "
			 "that the initramfs has torpor");
		return -EEXIST;
	}
	if (r == IMAGEFILE_HEADER_FOREIGN) {
		msg_error("image file '%s' has no swap signature: not a swap area", path);
		msg_hint(fix ? "make it again with 'torpor-suspend --setup-image-file', then "
			 "correct resume_offset= ('torpor-suspend --print-cmdline')" :
			 "make it again with 'torpor-suspend --setup-image-file'");
		return -EMEDIUMTYPE;
	}
	msg_error("cannot %s the header of image file '%s': %s", r == -EIO || !fix ? "read" :
		  "read or restore", path, msg_errname(r));
	return r;
}
