// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-efiresume.c - torpor-resume without resume=: the EFI variable
 * TorporHibernateLocation names the area (resume/bootargs.c take_efi()).  Its
 * main() (bootargs_main()) runs with a /proc/cmdline of the test's, a fake /sys
 * and /dev (fakesysfs.h) whose devices are regular files, and a plain directory
 * as efivarfs.  Never opens /dev/snapshot: every image here is refused or
 * discarded before the load.  Proves: the variable leads to the image (discarded
 * under noresume, attempted and refused otherwise); it is removed in both cases;
 * another kernel's variable discards the image (with torpor.force the image's
 * own check decides); a corrupt, short or oversized one
 * is removed and ignored; resume= wins over it; no EFI is the old normal boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bootargs.h"
#include "devname.h"
#include "devwait.h"
#include "efiloc.h"
#include "fakesysfs.h"
#include "image.h"
#include "tap.h"

#define DEV_BYTES (1 << 20)
#define UA "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
#define UB "1b4e28ba-2fa1-11d2-883f-0016d3cca428"

static char efidir[PATH_MAX];

/* A 1 MiB swap area @name with UUID @uuid whose header page @page holds a torpor root record */
static void put_image(const char *name, const char *uuid, unsigned int page)
{
	uint8_t *b = calloc(1, DEV_BYTES), *h = b + (size_t)page * 4096;
	struct torpor_root r;
	char rel[64];

	if (!b)
		die("calloc");
	h[1024] = 1;			/* swap_header version */
	h[1028] = 255;			/* last_page */
	uuid_bytes(uuid, h + 1024 + 12);
	memset(&r, 0, sizeof(r));
	r.version = TORPOR_FORMAT_VERSION;
	r.page_size = 4096;
	r.meta_bytes = sizeof(struct torpor_meta);
	r.nr_meta_extents = 1;
	r.meta_extents[0].offset = (uint64_t)(page + 1) * 4096;
	r.meta_extents[0].pages = 1;
	memcpy(r.orig_sig, SWAP_SIG, 10);
	image_root_encode(&r, h, 4096);
	snprintf(rel, sizeof(rel), "dev/%s", name);
	put_file(rel, b, DEV_BYTES);
	free(b);
}

/* Does device file @name still carry a torpor image at page @page? */
static int has_image(const char *name, unsigned int page)
{
	uint8_t h[4096];
	char p[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/dev/%s", root, name);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		die(p);
	n = pread(fd, h, sizeof(h), (off_t)page * 4096);
	close(fd);
	return n == (ssize_t)sizeof(h) && image_classify(h, sizeof(h)) == IMAGE_SIG_TORPOR;
}

/* The variable naming @uuid at @page, written by kernel @release */
static void put_var(const char *uuid, uint64_t page, const char *release)
{
	struct efiloc l;

	memset(&l, 0, sizeof(l));
	l.kind = EFILOC_UUID;
	snprintf(l.id, sizeof(l.id), "%s", uuid);
	snprintf(l.release, sizeof(l.release), "%s", release);
	l.offset_pages = page;
	l.image_format = TORPOR_FORMAT_VERSION;
	if (efiloc_write(efidir, &l) < 0)
		die("efiloc_write");
}

static int has_var(void)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", efidir, EFILOC_NAME);
	return access(p, F_OK) == 0;
}

/* torpor-resume's main() with @argv and @cmdline; what it said on stderr in @text */
static int run_main(const char *cmdline, int argc, char **argv, const char *efi, char *text,
		    size_t len)
{
	char p[PATH_MAX], log[PATH_MAX];
	struct bootargs_env env = { .cmdline_path = p, .efivars_dir = efi };
	int saved, fd, r;
	ssize_t n;

	put_text("proc/cmdline", cmdline);
	snprintf(p, sizeof(p), "%s/proc/cmdline", root);
	snprintf(log, sizeof(log), "%s/stderr", root);
	devwait_reset();
	fflush(stdout);
	fflush(stderr);
	saved = dup(2);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
		die(log);
	r = bootargs_main(argc, argv, &env);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, text, len - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	fputs(text, stderr);
	return r;
}

static char release[65];

static void case_noresume(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096];

	put_image("vda", UA, 0);
	put_var(UA, 0, release);
	run_main("root=/dev/vdz noresume", 1, argv, efidir, text, sizeof(text));
	tap_ok(!has_image("vda", 0), "efiresume: no resume=, noresume: the image the EFI variable "
	       "names is discarded");
	tap_ok(!has_var(), "efiresume: ... and the variable removed");
}

static void case_attempt(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096];

	put_image("vdb", UB, 0);
	put_var(UB, 0, release);
	run_main("root=/dev/vdz", 1, argv, efidir, text, sizeof(text));
	tap_ok(strstr(text, "rejected the hibernation image on /dev/vdb") && !has_image("vdb", 0),
	       "efiresume: no resume=: the image on the variable's UUID is read "
	       "(refused here: no meta) and discarded");
	tap_ok(!has_var(), "efiresume: ... and the variable removed");
}

static void case_other_kernel(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096];

	put_image("vda", UA, 0);
	put_var(UA, 0, "0.0.1-other");
	run_main("root=/dev/vdz", 1, argv, efidir, text, sizeof(text));
	tap_ok(!has_image("vda", 0) && strstr(text, "made by kernel 0.0.1-other") && !has_var(),
	       "efiresume: a variable from another kernel: image discarded, said, variable "
	       "removed");
}

static void case_other_kernel_force(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096];

	put_image("vda", UA, 0);
	put_var(UA, 0, "0.0.1-other");
	run_main("root=/dev/vdz torpor.force", 1, argv, efidir, text, sizeof(text));
	tap_ok(strstr(text, "rejected the hibernation image on /dev/vda") &&
	       !strstr(text, "made by kernel 0.0.1-other") && !has_image("vda", 0) && !has_var(),
	       "efiresume: a variable from another kernel with torpor.force: the image is read "
	       "and checked as on the resume= path (refused here: no meta), variable removed");
}

/* a variable of @len bytes: the valid one with @flip xor-ed into byte @at */
static void put_bad_var(size_t len, size_t at, uint8_t flip)
{
	uint8_t b[EFILOC_FILE_SIZE + 16];
	char rel[128];
	struct efiloc l;

	memset(&l, 0, sizeof(l));
	memset(b, 0, sizeof(b));
	l.kind = EFILOC_UUID;
	snprintf(l.id, sizeof(l.id), "%s", UA);
	snprintf(l.release, sizeof(l.release), "%s", release);
	l.image_format = TORPOR_FORMAT_VERSION;
	if (efiloc_encode(&l, b) < 0)
		die("efiloc_encode");
	b[at] ^= flip;
	snprintf(rel, sizeof(rel), "efivars/%s", EFILOC_NAME);
	put_file(rel, b, len);
}

static void case_bad_vars(void)
{
	static const struct { size_t len, at; uint8_t flip; const char *what; } bad[] = {
		{ EFILOC_FILE_SIZE, 40, 0x01, "a flipped bit" },
		{ EFILOC_FILE_SIZE - 1, 0, 0, "one byte short" },
		{ EFILOC_FILE_SIZE + 16, 0, 0, "16 bytes too long" },
		{ 3, 0, 0, "3 bytes" },
	};
	char *argv[] = { "torpor-resume", NULL }, text[4096];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_image("vda", UA, 0);
		put_bad_var(bad[i].len, bad[i].at, bad[i].flip);
		run_main("root=/dev/vdz", 1, argv, efidir, text, sizeof(text));
		tap_ok(strstr(text, "ignoring EFI variable") && !has_var() && has_image("vda", 0),
		       "efiresume: a variable with %s: ignored with one message, removed, no "
		       "image touched", bad[i].what);
	}
}

static void case_cmdline_wins(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096];

	put_image("vda", UA, 0);
	put_image("vdb", UB, 0);
	put_var(UA, 0, release);
	run_main("resume=UUID=" UB " noresume", 1, argv, efidir, text, sizeof(text));
	tap_ok(!has_image("vdb", 0) && has_image("vda", 0) && has_var(),
	       "efiresume: resume= on the command line wins: its image discarded, the "
	       "variable not read");
	(void)efiloc_remove(efidir);
}

static void case_hook_device(void)
{
	char *argv[] = { "torpor-resume", "--device=UUID=" UB, "--noresume", NULL }, text[4096];

	put_image("vda", UA, 0);
	put_image("vdb", UB, 0);
	put_var(UA, 0, release);
	run_main("root=/dev/vdz noresume", 3, argv, efidir, text, sizeof(text));
	tap_ok(!has_image("vda", 0) && !has_image("vdb", 0) && !has_var(),
	       "efiresume: the hook's --device (RESUME=) names another area: both images "
	       "discarded, the variable removed");
}

static void case_no_efi(void)
{
	char *argv[] = { "torpor-resume", NULL }, text[4096], none[PATH_MAX];

	put_image("vda", UA, 0);
	snprintf(none, sizeof(none), "%s/no-efi", root);
	run_main("root=/dev/vdz", 1, argv, none, text, sizeof(text));
	tap_ok(has_image("vda", 0) && !text[0], "efiresume: no EFI: normal boot, nothing said, "
	       "nothing touched (as before)");
	put_var(UA, 0, release);
	run_main("root=/dev/vdz", 1, argv, NULL, text, sizeof(text));
	tap_ok(has_image("vda", 0) && has_var(), "efiresume: no efivars directory given: the "
	       "variable is not read");
	(void)efiloc_remove(efidir);
}

int main(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		die("uname");
	snprintf(release, sizeof(release), "%s", u.release);
	snprintf(root, sizeof(root), "/tmp/torpor-efiresume-XXXXXX");
	if (!mkdtemp(root))
		die("mkdtemp");
	devname_root = root;
	mkdirs("dev");
	mkdirs("sys/class/block");
	mkdirs("sys/dev/block");
	mkdirs("efivars");
	snprintf(efidir, sizeof(efidir), "%s/efivars", root);
	add_block("vda", NULL, 0, 254, 0, DEV_BYTES / 512);
	add_block("vdb", NULL, 0, 254, 16, DEV_BYTES / 512);

	case_noresume();
	case_attempt();
	case_other_kernel();
	case_other_kernel_force();
	case_bad_vars();
	case_cmdline_wins();
	case_hook_device();
	case_no_efi();
	return tap_done();
}
