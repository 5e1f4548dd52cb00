// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-confarea.c - the area the next boot's initramfs names when nothing else
 * does (initramfs-tools' RESUME=): fake initramfs images (cpio), a fake /sys
 * and /dev (fakesysfs.h), a fake /proc/swaps and command line.  Taken: a sure
 * RESUME= device name of an active swap area (a swap file with resume_offset=
 * on the command line).  Not taken: RESUME=none, unset, unsure or no device
 * name, a device that is no active swap area, a swap file without
 * resume_offset=, an image without initramfs-tools' hook; resume= on the
 * command line wins, and noresume reads nothing.  torpor-suspend --status
 * agrees: in Debian's installer state (RESUME= only) the next hibernation
 * writes the area RESUME= names, the next boot reads it, and it is ready.  The
 * build check reads the same RESUME= in the tree mkinitramfs is building
 * (initramfstree.c): taken, the last conf.d file winning as in /init, and not
 * taken without torpor's boot script.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "checksay.h"
#include "cmdline.h"
#include "confarea.h"
#include "decompress.h"
#include "devname.h"
#include "efiwrite.h"
#include "fakesysfs.h"
#include "image.h"
#include "initramfstree.h"
#include "status.h"
#include "tap.h"
#include "target.h"

#define U_FS	"5c0ffee0-1111-4222-8333-444455556666"	/* the swap file's filesystem */
#define U_PART	"5c0ffee0-1111-4222-8333-444455558888"	/* a swap partition (udev's link) */
#define U_DISK	"5c0ffee0-1111-4222-8333-444455557777"	/* a device with no swap on it */

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/lib/torpor"
#endif

/* where torpor-resume is installed: --status looks for it there (statusinitrd.c) */
static const char *bin = LIBEXECDIR "/torpor-resume";

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		die(cmd);
}

/* A swap header carrying @uuid on fake device @rel (as probe.c reads mkswap's) */
static void swap_header(const char *rel, const char *uuid)
{
	size_t len = 16 * 4096;
	uint8_t *b = calloc(1, len);

	if (!b)
		die("calloc");
	b[1024] = 1;				/* version */
	b[1028] = 15;				/* last_page */
	uuid_bytes(uuid, b + 1024 + 12);
	memcpy(b + 4096 - 10, "SWAPSPACE2", 10);
	put_file(rel, b, len);
	free(b);
}

/*
 * Image @name.cpio: torpor-resume of this format, initramfs-tools' hook
 * (@hook) and conf/conf.d/resume holding @conf (NULL: none)
 */
static void image(const char *name, int hook, const char *conf)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "t=%s/%s && rm -rf $t && mkdir -p $t/usr/lib/torpor $t/conf/conf.d && "
		 "ln -s usr/lib $t/lib && mkdir -p $t$(dirname %s) && "
		 "echo 'MODULES=most' >$t/conf/initramfs.conf && "
		 "printf 'x%s\\0y' >$t%s && chmod 755 $t%s", root, name, bin,
		 TORPOR_RESUME_MARKER, bin, bin);
	sh(cmd);
	if (hook) {
		snprintf(cmd, sizeof(cmd),
			 "t=%s/%s && mkdir -p $t/scripts/local-top && "
			 "printf '#!/bin/sh\\ntorpor=%s\\n' >$t/scripts/local-top/torpor && "
			 "chmod 755 $t/scripts/local-top/torpor", root, name, bin);
		sh(cmd);
	}
	if (conf) {
		snprintf(cmd, sizeof(cmd), "printf '%%s\\n' '%s' >%s/%s/conf/conf.d/resume", conf,
			 root, name);
		sh(cmd);
	}
	snprintf(cmd, sizeof(cmd), "cd %s/%s && find . | LC_ALL=C sort | "
		 "cpio -o -H newc --quiet >%s/%s.cpio", root, name, root, name);
	sh(cmd);
}

/* confarea_find() with command line @line and image @name.cpio */
static enum confarea_result find(const char *line, const char *name, struct confarea *a)
{
	char cmdline[300], path[300];

	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", root);
	snprintf(path, sizeof(path), "%s/%s.cpio", root, name);
	put_text("cmdline", line);
	return confarea_find(cmdline, path, bin, a);
}

static void put_status(struct status *s, char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);

	if (!f)
		die("open_memstream");
	status_print(f, s, 0);
	fclose(f);
}

/*
 * Tree @name as mkinitramfs has it when its hooks run: conf/initramfs.conf,
 * conf/conf.d/resume holding @conf, torpor's boot script naming @script_bin
 * (NULL: none); then the area its RESUME= names, with command line @line
 */
static enum confarea_result tree(const char *name, const char *conf, const char *script_bin,
				 const char *line, struct confarea *a)
{
	char cmd[2048], cmdline[300];
	int r;

	snprintf(cmd, sizeof(cmd), "t=%s/%s && rm -rf $t && mkdir -p $t/conf/conf.d "
		 "$t/scripts/local-top && echo 'MODULES=most' >$t/conf/initramfs.conf && "
		 "printf '%%s\\n' '%s' >$t/conf/conf.d/resume", root, name, conf);
	sh(cmd);
	if (script_bin) {
		snprintf(cmd, sizeof(cmd), "t=%s/%s && printf '#!/bin/sh\\ntorpor=%s\\n' "
			 ">$t/scripts/local-top/torpor && chmod 755 $t/scripts/local-top/torpor",
			 root, name, script_bin);
		sh(cmd);
	}
	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", root);
	put_text("cmdline", line);
	memset(a, 0, sizeof(*a));
	snprintf(a->path, sizeof(a->path), "%s/%s", root, name);
	r = initramfs_tree_read(a->path, bin, &a->rep);
	return confarea_take(cmdline, r, a);
}

static void test_tree(const char *line, const char *swapfile, dev_t fs)
{
	struct confarea *a = calloc(1, sizeof(*a));
	enum confarea_result r;
	char cmd[600];

	if (!a)
		die("calloc");
	r = tree("tree", "RESUME=UUID=" U_FS, bin, line, a);
	tap_ok(r == CONFAREA_FOUND && !strcmp(a->spec, "UUID=" U_FS) && a->target.dev == fs &&
	       !strcmp(a->target.swap_path, swapfile) &&
	       !strcmp(a->rep.resume_conf_file, "conf/conf.d/resume"),
	       "tree: the RESUME= of the image being built names the active swap area: taken (%d)",
	       r);
	/* hooks/resume's zz-resume-auto comes after resume in name order: /init takes it */
	put_text("tree/conf/conf.d/zz-resume-auto", "RESUME=UUID=" U_DISK "\n");
	snprintf(cmd, sizeof(cmd), "%s/cmdline", root);
	r = confarea_take(cmd, initramfs_tree_read(a->path, bin, &a->rep), a);
	tap_ok(r == CONFAREA_NOT_SWAP && !strcmp(a->rep.resume_conf_file,
						  "conf/conf.d/zz-resume-auto"),
	       "tree: the last conf.d file's RESUME= wins, as in /init (%d, %s)", r,
	       a->rep.resume_conf_file);
	r = tree("noscript", "RESUME=UUID=" U_FS, NULL, line, a);
	tap_ok(r == CONFAREA_NOT_ITOOLS,
	       "tree: no torpor boot script to read RESUME=: not taken (%d)", r);
	r = tree("otherbin", "RESUME=UUID=" U_FS, "/opt/elsewhere/torpor-resume", line, a);
	tap_ok(r == CONFAREA_NOT_ITOOLS,
	       "tree: a boot script running another torpor-resume: not taken (%d)", r);
	r = tree("treenone", "RESUME=none", bin, line, a);
	tap_ok(r == CONFAREA_NONE, "tree: RESUME=none: not taken (%d)", r);
	memset(a, 0, sizeof(*a));
	snprintf(a->path, sizeof(a->path), "%s/absent", root);
	r = confarea_take(cmd, initramfs_tree_read(a->path, bin, &a->rep), a);
	tap_ok(r == CONFAREA_UNREAD && a->err == -ENOENT,
	       "tree: a tree that is not there: nothing taken (%d, %d)", r, a->err);
	free(a);
}

/* status_collect() as torpor-suspend --status calls it when nothing names the area */
static void collect(const struct status_env *env, const struct hib_opts *o, struct status *s)
{
	status_collect(env, o, "resume= on the kernel command line", NULL, s);
	/* this host may have no /dev/snapshot: the rest is judged as where it has one */
	s->snapshot_err = 0;
	status_judge(s);
}

/*
 * torpor-suspend --status with command line @line, nothing else naming the
 * area, and the next boot's initramfs @name.cpio (torpor.conf's initramfs):
 * the area RESUME= names, told as such, agreed with, and ready
 */
static void test_status(const char *line, const char *swapfile)
{
	struct status_env env = { .unit_root = root, .logind_timeout_ms = 5000,
				  .decompress_path = DECOMPRESS_PATH, .boot_dir = root,
				  .initrd_budget_ms = STATUS_INITRD_BUDGET_MS, .is_root = 1 };
	struct status *s = calloc(1, sizeof(*s));
	char cmdline[300], busctl[300], want[600], *text = NULL;
	struct hib_opts o;

	if (!s)
		die("calloc");
	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", root);
	snprintf(busctl, sizeof(busctl), "%s/busctl", root);
	env.cmdline = cmdline;
	env.busctl = busctl;
	put_text("cmdline", line);
	put_text("busctl", "#!/bin/sh\necho 's \"yes\"'\n");
	snprintf(want, sizeof(want), "chmod 755 %s", busctl);
	sh(want);
	put_text("usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf",
		 "[Service]\nExecStart=\nExecStart=/usr/lib/torpor/torpor-sleep hibernate\n");
	memset(&o, 0, sizeof(o));
	snprintf(o.initramfs, sizeof(o.initramfs), "%.200s/uuid.cpio", root);
	collect(&env, &o, s);
	put_status(s, &text);
	snprintf(want, sizeof(want), "next hibernation writes:  %s (swap file on ", swapfile);
	tap_ok(s->area_err == 0 && !strcmp(s->spec, "UUID=" U_FS) && s->area.is_file &&
	       !strcmp(s->area.swap_path, swapfile) && strstr(text, want) &&
	       strstr(text, "RESUME= in the initramfs's conf/conf.d/resume)\n"),
	       "status: nothing but RESUME= names the area: the next hibernation writes it, "
	       "and says it came from the initramfs's RESUME= (%d)", s->area_err);
	tap_ok(s->next == NEXTBOOT_UNNAMED && s->next_by_conf &&
	       strstr(text, "next boot reads:          ") &&
	       strstr(text, " (RESUME= in the initramfs's conf/conf.d/resume)   agrees\n"),
	       "status: the next boot reads the same area, from RESUME=: agrees");
	tap_ok(s->ready && strstr(text, "ready:                    yes\n"),
	       "status: Debian's installer state, RESUME= only: ready (%s)", s->problem);
	if (!s->ready || !s->next_by_conf || s->area_err)
		printf("# %s", text);
	free(text);
	text = NULL;
	/* RESUME=none: no area, and the lines say why */
	image("none", 1, "RESUME=none");
	snprintf(o.initramfs, sizeof(o.initramfs), "%.200s/none.cpio", root);
	collect(&env, &o, s);
	put_status(s, &text);
	tap_ok(s->area_err == -EINVAL && !s->ready &&
	       strstr(text, "torpor.conf, RESUME=none in the initramfs)\n") &&
	       strstr(s->problem, "RESUME=none in the initramfs"),
	       "status: RESUME=none: no area, and says why (%s)", s->problem);
	free(text);
	free(s);
}

/* image() whose torpor-resume reads the EFI variable and whose hook runs it without resume= */
static void image_efi(const char *name, const char *conf)
{
	char cmd[2048];

	image(name, 1, conf);
	snprintf(cmd, sizeof(cmd), "t=%s/%s && printf '%s\\0' >>$t%s && "
		 "printf '[ -d /sys/firmware/efi/efivars ] || exit 0\\n' >>$t/scripts/local-top/torpor && "
		 "cd $t && find . | LC_ALL=C sort | cpio -o -H newc --quiet >%s/%s.cpio",
		 root, name, EFILOC_MARKER, bin, root, name);
	sh(cmd);
}

/*
 * torpor-suspend --status on an EFI boot (efiwrite_dir writable) whose next
 * initramfs reads TorporHibernateLocation: as --check, the EFI variable names
 * the area to the next boot (torpor.conf's, or the only active swap area when
 * nothing names one); RESUME=none stays refused
 */
static void test_status_efi(const char *line, const char *swapfile)
{
	struct status_env env = { .unit_root = root, .logind_timeout_ms = 5000,
				  .decompress_path = DECOMPRESS_PATH, .boot_dir = root,
				  .initrd_budget_ms = STATUS_INITRD_BUDGET_MS, .is_root = 1 };
	struct status *s = calloc(1, sizeof(*s));
	static char efi[300];
	char cmdline[300], busctl[300], swaps[300], text[700], *out = NULL;
	const char *saved = target_swaps;
	struct hib_opts o;

	if (!s)
		die("calloc");
	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", root);
	snprintf(busctl, sizeof(busctl), "%s/busctl", root);
	env.cmdline = cmdline;
	env.busctl = busctl;
	put_text("cmdline", line);
	snprintf(text, sizeof(text), "mkdir -p %s/efivars", root);
	sh(text);
	snprintf(efi, sizeof(efi), "%s/efivars", root);
	efiwrite_dir = efi;
	/* one active swap area: the swap file */
	snprintf(swaps, sizeof(swaps), "%s/swaps1", root);
	snprintf(text, sizeof(text), "Filename Type Size Used Priority\n%s file 1024 0 -2\n",
		 swapfile);
	put_text("swaps1", text);
	target_swaps = swaps;
	image_efi("efi", NULL);
	memset(&o, 0, sizeof(o));
	snprintf(o.initramfs, sizeof(o.initramfs), "%.200s/efi.cpio", root);
	/* torpor.conf names the area, the command line has no resume= */
	snprintf(o.resume, sizeof(o.resume), "UUID=" U_FS);
	o.has_offset = 1;
	o.offset = 0;
	cmdline_read(cmdline, &s->nb.cl);
	o.offset = s->nb.cl.resume_offset;
	status_collect(&env, &o, "resume in torpor.conf", NULL, s);
	s->snapshot_err = 0;
	status_judge(s);
	put_status(s, &out);
	tap_ok(s->area_err == 0 && s->next == NEXTBOOT_UNNAMED && s->next_by_efi &&
	       strstr(out, "(EFI variable TorporHibernateLocation, written when hibernating)   "
		      "agrees\n") && s->ready,
	       "status: EFI, torpor.conf names the area, no resume=: the EFI variable names it "
	       "to the next boot, as --check says (%s)", s->problem);
	if (!s->next_by_efi)
		printf("# %s", out);
	free(out);
	out = NULL;
	/* nothing names one: the only active swap area, as torpor-suspend takes it */
	memset(&o, 0, sizeof(o));
	snprintf(o.initramfs, sizeof(o.initramfs), "%.200s/efi.cpio", root);
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	s->snapshot_err = 0;
	status_judge(s);
	put_status(s, &out);
	tap_ok(s->area_err == 0 && s->area.is_file && !strcmp(s->area.swap_path, swapfile) &&
	       s->next_by_efi && strstr(out, "the only active swap area") && s->ready,
	       "status: EFI, nothing names the area: the only active swap area, named by the EFI "
	       "variable (%d, %s)", s->area_err, s->problem);
	if (s->area_err || !s->next_by_efi)
		printf("# %s", out);
	free(out);
	out = NULL;
	/* the only swap is zram (Fedora's): torpor-suspend refuses it, so does status */
	snprintf(text, sizeof(text), "%s/dev/zram0", root);
	if (geteuid() != 0 || mknod(text, S_IFBLK | 0600, makedev(251, 0)) < 0) {
		tap_ok(1, "status: EFI, only zram: not taken # SKIP mknod needs root");
	} else {
		add_block("zram0", NULL, 0, 251, 0, 128);
		snprintf(text, sizeof(text), "Filename Type Size Used Priority\n"
			 "%s/dev/zram0 partition 1024 0 100\n", root);
		put_text("swaps1", text);
		status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
		s->snapshot_err = 0;
		status_judge(s);
		tap_ok(s->area_err == -EINVAL && !s->ready && !s->area_by_efi,
		       "status: EFI, the only swap area is zram: not taken, not ready (%d)",
		       s->area_err);
	}
	/* RESUME=none: initramfs-tools makes it noresume, no EFI variable helps */
	image_efi("efinone", "RESUME=none");
	snprintf(o.initramfs, sizeof(o.initramfs), "%.200s/efinone.cpio", root);
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	s->snapshot_err = 0;
	status_judge(s);
	tap_ok(s->area_err == -EINVAL && !s->ready && !s->next_by_efi,
	       "status: EFI, RESUME=none: no area, not ready (%d)", s->area_err);
	efiwrite_dir = "/nonexistent/efivars";
	target_swaps = saved;
	free(out);
	free(s);
}

/*
 * what checksay_hint_swaps(@conf) says with @swaps as /proc/swaps, read from
 * stderr (@conf: also the initramfs-tools way to name a swap partition)
 */
static void hint_conf_with(const char *swaps, int conf, char *buf, size_t len)
{
	char path[300], file[300];
	const char *saved = target_swaps;
	FILE *f;
	int fd, old;
	size_t n;

	snprintf(path, sizeof(path), "%s/hint-swaps", root);
	snprintf(file, sizeof(file), "%s/hint-out", root);
	f = fopen(path, "w");
	if (f) {
		fputs(swaps, f);
		fclose(f);
	}
	target_swaps = path;
	fflush(stderr);
	old = dup(2);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (old < 0 || fd < 0 || dup2(fd, 2) < 0)
		die("redirect stderr");
	close(fd);
	checksay_hint_swaps(conf);
	fflush(stderr);
	dup2(old, 2);
	close(old);
	target_swaps = saved;
	buf[0] = '\0';
	f = fopen(file, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
}

static void hint_with(const char *swaps, char *buf, size_t len)
{
	hint_conf_with(swaps, 0, buf, len);
}

/* zram, which holds no image, is never offered for resume=; alone, the image file is */
static void test_hint_zram(void)
{
	char out[2048];

	hint_with("Filename Type Size Used Priority\n/dev/zram0 partition 4194300 0 100\n",
		  out, sizeof(out));
	tap_ok(strstr(out, "zram is the only swap: hibernate into an image file") &&
	       strstr(out, "--setup-image-file") && !strstr(out, "resume=/dev/zram0"),
	       "hint: zram the only swap: the image file, not resume=/dev/zram0");
	hint_with("Filename Type Size Used Priority\n/dev/zram0 partition 4194300 0 100\n"
		  "/dev/vdb partition 1048572 0 -2\n", out, sizeof(out));
	tap_ok(strstr(out, "add resume=/dev/vdb") && !strstr(out, "zram0") &&
	       !strstr(out, "image file"),
	       "hint: zram beside a disk area: resume= for the disk's only");
	/* nothing names the area: RESUME= in initramfs-tools' conf.d is a way too, but not to zram */
	hint_conf_with("Filename Type Size Used Priority\n/dev/vdb partition 1048572 0 -2\n", 1,
		       out, sizeof(out));
	tap_ok(strstr(out, "add resume=/dev/vdb") &&
	       strstr(out, "/etc/initramfs-tools/conf.d/resume"),
	       "hint: a disk area: resume=, or RESUME= in initramfs-tools' conf.d");
	hint_conf_with("Filename Type Size Used Priority\n/dev/zram0 partition 4194300 0 100\n", 1,
		       out, sizeof(out));
	tap_ok(strstr(out, "zram is the only swap: hibernate into an image file") &&
	       !strstr(out, "swap partition") && !strstr(out, "initramfs-tools"),
	       "hint: zram the only swap: no swap partition to name in initramfs-tools' conf.d");
}

int main(void)
{
	char swaps[300], swapfile[300], text[700], line[100];
	struct confarea *a = calloc(1, sizeof(*a));
	enum confarea_result r;
	uint64_t page = 7;
	int oerr = 0;
	struct stat st;
	dev_t fs;

	snprintf(root, sizeof(root), "/tmp/test-confarea.XXXXXX");
	if (!a || !mkdtemp(root) || system("command -v cpio >/dev/null") != 0) {
		printf("not ok 1 - confarea: setup (a directory, cpio)\n");
		return 1;
	}
	devname_root = root;
	efiwrite_dir = "/nonexistent/efivars";	/* not this host's: test_status_efi() sets one */
	/* the swap file's filesystem is a fake device that carries U_FS */
	snprintf(swapfile, sizeof(swapfile), "%s/swapfile", root);
	put_text("swapfile", "not read: its page comes from resume_offset=\n");
	if (stat(swapfile, &st) < 0)
		die("stat");
	fs = st.st_dev;
	/* the page the file begins at, where FIEMAP tells: resume_offset= must say it */
	if (target_file_location(swapfile, &fs, &oerr, &page) != 1 || fs != st.st_dev)
		die("target_file_location");
	if (oerr < 0)
		page = 7;
	snprintf(line, sizeof(line), "root=/dev/vda ro resume_offset=%llu\n",
		 (unsigned long long)page);
	add_block("vdf", NULL, 0, major(fs), minor(fs), 128);
	swap_header("dev/vdf", U_FS);
	add_block("vdg", NULL, 0, 254, 96, 128);
	swap_header("dev/vdg", U_DISK);
	snprintf(swaps, sizeof(swaps), "%s/swaps", root);
	snprintf(text, sizeof(text), "Filename Type Size Used Priority\n%s file 1024 0 -2\n"
		 "%s/dev/swapnode partition 2048 0 -3\n", swapfile, root);
	put_text("swaps", text);
	target_swaps = swaps;

	image("uuid", 1, "RESUME=UUID=" U_FS);
	r = find(line, "uuid", a);
	tap_ok(r == CONFAREA_FOUND && !strcmp(a->spec, "UUID=" U_FS) && a->target.dev == fs &&
	       a->target.is_file && a->target.offset_pages == page &&
	       !strcmp(a->target.swap_path, swapfile) &&
	       !strcmp(a->rep.resume_conf_file, "conf/conf.d/resume"),
	       "confarea: RESUME=UUID= of the active swap file's filesystem, resume_offset= on "
	       "the command line: taken (%d)", r);
	r = find("root=/dev/vda ro\n", "uuid", a);
	tap_ok(r == CONFAREA_NO_OFFSET && !strcmp(a->target.swap_path, swapfile),
	       "confarea: the same swap file without resume_offset=: not taken (%d)", r);
	r = find("root=/dev/vda resume=/dev/vdz resume_offset=7\n", "uuid", a);
	tap_ok(r == CONFAREA_CMDLINE && !a->path[0] && !a->spec,
	       "confarea: resume= on the command line wins, the initramfs is not read (%d)", r);
	r = find("root=/dev/vda noresume resume_offset=7\n", "uuid", a);
	tap_ok(r == CONFAREA_NORESUME && !a->path[0] && !a->spec,
	       "confarea: noresume: the initramfs is not read (%d)", r);

	/* a swap partition: its node must be a block device (mknod needs root) */
	snprintf(text, sizeof(text), "%s/dev/swapnode", root);
	if (geteuid() != 0 || mknod(text, S_IFBLK | 0600, makedev(254, 112)) < 0) {
		tap_ok(1, "confarea: RESUME=UUID= of an active swap partition # SKIP mknod "
		       "needs root");
	} else {
		put_link("../../swapnode", "dev/disk/by-uuid/" U_PART);
		image("part", 1, "RESUME=UUID=" U_PART);
		r = find("root=/dev/vda ro quiet\n", "part", a);
		tap_ok(r == CONFAREA_FOUND && a->target.dev == makedev(254, 112) &&
		       !a->target.is_file && a->target.offset_pages == 0 &&
		       !strcmp(a->target.swap_path, text),
		       "confarea: RESUME=UUID= of an active swap partition: taken (%d)", r);
	}
	image("disk", 1, "RESUME=UUID=" U_DISK);
	r = find(line, "disk", a);
	tap_ok(r == CONFAREA_NOT_SWAP && a->dev == makedev(254, 96) && a->err == TARGET_NONE,
	       "confarea: RESUME= of a device with no active swap area: not taken (%d)", r);
	image("nodev", 1, "RESUME=PARTUUID=00000000-0000-0000-0000-00000000dead");
	r = find("root=/dev/vda\n", "nodev", a);
	tap_ok(r == CONFAREA_NO_DEVICE && a->err < 0,
	       "confarea: RESUME= naming no device here: not taken (%d, %d)", r, a->err);
	image("none", 1, "RESUME=none");
	r = find("root=/dev/vda\n", "none", a);
	tap_ok(r == CONFAREA_NONE, "confarea: RESUME=none: not taken (%d)", r);
	image("unset", 1, NULL);
	r = find("root=/dev/vda\n", "unset", a);
	tap_ok(r == CONFAREA_UNSET, "confarea: no RESUME=: not taken (%d)", r);
	image("unsure", 1, "RESUME=$SWAP");
	r = find("root=/dev/vda\n", "unsure", a);
	tap_ok(r == CONFAREA_UNSURE, "confarea: RESUME=$SWAP, not read here: not taken (%d)", r);
	image("auto", 1, "RESUME=auto");
	r = find("root=/dev/vda\n", "auto", a);
	tap_ok(r == CONFAREA_NOT_NAME, "confarea: RESUME=auto is no device name: not taken (%d)",
	       r);
	image("majmin", 1, "RESUME=254:96");
	r = find("root=/dev/vda\n", "majmin", a);
	tap_ok(r == CONFAREA_NOT_NAME, "confarea: RESUME=MAJ:MIN, a number that can change: not "
	       "taken (%d)", r);
	image("nohook", 0, "RESUME=UUID=" U_FS);
	r = find(line, "nohook", a);
	tap_ok(r == CONFAREA_NOT_ITOOLS,
	       "confarea: no initramfs-tools hook runs torpor-resume: RESUME= not taken (%d)", r);
	test_status(line, swapfile);
	test_status_efi(line, swapfile);
	test_tree(line, swapfile, fs);
	r = find("root=/dev/vda\n", "missing", a);
	tap_ok(r == CONFAREA_UNREAD && a->err == -ENOENT,
	       "confarea: the initramfs cannot be read: nothing taken (%d, %d)", r, a->err);

	test_hint_zram();

	snprintf(text, sizeof(text), "rm -rf %s", root);
	sh(text);
	free(a);
	return tap_done();
}
