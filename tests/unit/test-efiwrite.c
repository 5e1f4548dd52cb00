// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-efiwrite.c - what torpor-suspend records in TorporHibernateLocation
 * (suspend/efiwrite.c): the swap area's UUID as text, its offset, this kernel;
 * an area without a UUID, or whose UUID a second device carries, is not
 * recorded; efivarfs usable only where it is writable; a hibernation that
 * does not write the variable removes one left behind.  A fake /sys and /dev
 * (fakesysfs.h) whose devices are regular files; a plain directory as efivarfs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "devname.h"
#include "efiloc.h"
#include "efiwrite.h"
#include "fakesysfs.h"
#include "image.h"
#include "tap.h"
#include "target.h"

#define DEV_BYTES (1 << 20)
#define UA "1b4e28ba-2fa1-11d2-883f-0016d3cca427"

/* a 1 MiB swap area @name with UUID @uuid (NULL: none) */
static void put_swap(const char *name, const char *uuid)
{
	uint8_t *b = calloc(1, DEV_BYTES);
	char rel[64];

	if (!b)
		die("calloc");
	b[1024] = 1;			/* swap_header version */
	b[1028] = 255;			/* last_page */
	if (uuid)
		uuid_bytes(uuid, b + 1024 + 12);
	memcpy(b + 4096 - 10, SWAP_SIG, 10);
	snprintf(rel, sizeof(rel), "dev/%s", name);
	put_file(rel, b, DEV_BYTES);
	free(b);
}

int main(void)
{
	struct hib_target t;
	struct efiloc l;
	struct utsname u;
	char spec[80], efi[300];

	snprintf(root, sizeof(root), "/tmp/torpor-efiwrite-XXXXXX");
	if (!mkdtemp(root) || uname(&u) < 0)
		die("mkdtemp");
	devname_root = root;
	mkdirs("dev");
	mkdirs("sys/class/block");
	mkdirs("sys/dev/block");
	add_block("vda", NULL, 0, 254, 0, DEV_BYTES / 512);
	add_block("vdb", NULL, 0, 254, 16, DEV_BYTES / 512);
	add_block("vdc", NULL, 0, 254, 32, DEV_BYTES / 512);
	put_swap("vda", UA);
	put_swap("vdb", NULL);

	memset(&t, 0, sizeof(t));
	t.dev = makedev(254, 0);
	t.offset_pages = 0;
	tap_ok(efiwrite_plan(&t, &l, spec, sizeof(spec)) == 0 && l.kind == EFILOC_UUID &&
	       !strcmp(l.id, UA) && l.offset_pages == 0 && !strcmp(l.release, u.release) &&
	       l.image_format == TORPOR_FORMAT_VERSION && !strcmp(spec, "UUID=" UA),
	       "efiwrite: a swap partition: its mkswap UUID, offset 0, this kernel (%s)", spec);
	t.dev = makedev(254, 16);
	tap_ok(efiwrite_plan(&t, &l, spec, sizeof(spec)) == -ENOENT,
	       "efiwrite: a swap area without a UUID is not recorded");
	put_swap("vdc", UA);
	t.dev = makedev(254, 0);
	tap_ok(efiwrite_plan(&t, &l, spec, sizeof(spec)) == -ENOTUNIQ,
	       "efiwrite: a UUID two devices carry is not recorded (the next boot would "
	       "discard the image)");

	snprintf(efi, sizeof(efi), "%s/efivars", root);
	efiwrite_dir = efi;
	tap_ok(!efiwrite_usable(), "efiwrite: no efivarfs directory: not usable");
	mkdirs("efivars");
	tap_ok(efiwrite_usable(), "efiwrite: a writable efivarfs directory: usable");
	/* efivarfs is root's to write: an ordinary user's --check and status ask for root */
	if (geteuid() != 0) {
		tap_ok(1, "efiwrite: usable as an ordinary user too # SKIP setuid needs root");
	} else {
		pid_t pid;
		int st = 0;

		if (chmod(root, 0755) < 0 || chmod(efi, 0755) < 0)
			die("chmod");
		pid = fork();
		if (pid == 0)
			_exit(setgid(65534) < 0 || setuid(65534) < 0 ? 2 : efiwrite_usable());
		tap_ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		       WEXITSTATUS(st) == 1, "efiwrite: an efivarfs mounted writable is usable, "
		       "as an ordinary user sees it too (%d)", WEXITSTATUS(st));
	}

	/* a variable left by a hibernation whose boot did not read it */
	t.dev = makedev(254, 32);
	memset(&l, 0, sizeof(l));
	l.kind = EFILOC_UUID;
	snprintf(l.id, sizeof(l.id), "%s", UA);
	snprintf(l.release, sizeof(l.release), "%s", u.release);
	l.image_format = TORPOR_FORMAT_VERSION;
	if (efiloc_write(efi, &l) < 0)
		die("efiloc_write");
	t.efi_location = 0;
	tap_ok(efiwrite_settle(&t) == 1 && efiloc_read(efi, &l) == -ENOENT,
	       "efiwrite: a hibernation that names the area otherwise removes a leftover "
	       "variable (the next boot would read it over RESUME=)");
	tap_ok(efiwrite_settle(&t) == 0, "efiwrite: ... and with none left, does nothing");
	t.efi_location = 1;
	t.efi = l;
	t.efi.offset_pages = 7;
	tap_ok(efiwrite_settle(&t) == 0 && efiloc_read(efi, &l) == 0 && l.offset_pages == 7,
	       "efiwrite: with the EFI location, the variable is written");
	efiwrite_dir = "/nonexistent/efivars";
	t.efi_location = 0;
	tap_ok(efiwrite_settle(&t) == 0, "efiwrite: no efivarfs: nothing to remove");
	return tap_done();
}
