// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-initramfs.c - the cpio reader (archives made by cpio -o and by hand:
 * truncated, bad magic, huge sizes, names without NUL), the initramfs reader
 * (early cpio plus each compressor's rest, symlinks, hard links, later archives
 * replacing earlier entries, each hook, a stuck or missing decompressor) and
 * where the initramfs is looked for
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bootentry.h"
#include "cpio.h"
#include "decompress.h"
#include "efiloc.h"
#include "efiwrite.h"
#include "hibernate.h"
#include "image.h"
#include "initramfs.h"
#include "le.h"
#include "pefile.h"
#include "tap.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/lib/torpor"	/* as bootready.c */
#endif

static char dir[64];
static const char *bin = "/usr/lib/torpor/torpor-resume";

/* Run a shell command; its status */
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static int have(const char *tool)
{
	return sh("command -v %s >/dev/null 2>&1", tool) == 0;
}

static void skip(const char *what, const char *tool)
{
	tap_ok(1, "%s # SKIP %s is not installed", what, tool);
}

/* ---- the cpio reader ---- */

struct seen {
	int entries;
	char names[8][64];
	char data[4096];
	size_t data_len;
};

static int saw_entry(void *ctx, const struct cpio_entry *e)
{
	struct seen *s = ctx;

	if (s->entries < 8)
		snprintf(s->names[s->entries], sizeof(s->names[0]), "%.63s", e->name);
	s->entries++;
	return 1;
}

static int saw_data(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n,
		    uint32_t off)
{
	struct seen *s = ctx;

	if (s->data_len + n <= sizeof(s->data)) {
		memcpy(s->data + s->data_len, p, n);
		s->data_len += n;
	}
	return 0;
}

static uint8_t *load(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*ret_len = (size_t)n;
	return buf;
}

/* Feed @p in pieces of @piece bytes; the status of the first short or failed feed */
static ssize_t feed(struct cpio_reader *r, const uint8_t *p, size_t len, size_t piece)
{
	size_t at = 0, n;
	ssize_t used;

	while (at < len) {
		n = len - at < piece ? len - at : piece;
		used = cpio_feed(r, p + at, n);
		if (used < 0)
			return used;
		at += (size_t)used;
		if ((size_t)used < n)
			return (ssize_t)at;
	}
	return (ssize_t)at;
}

/* A header by hand: magic, then the 13 fields */
static size_t header(char *out, const char *magic, unsigned mode, unsigned size, unsigned namesize)
{
	return (size_t)sprintf(out, "%s%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
			       magic, 1u, mode, 0u, 0u, 1u, 0u, size, 0u, 0u, 0u, 0u, namesize, 0u);
}

static void test_cpio_tool(void)
{
	static const size_t pieces[] = { 1, 3, 110, 4096, 1 << 20 };
	struct cpio_reader r;
	struct seen s;
	char path[128];
	uint8_t *a;
	size_t len, i;
	ssize_t got;

	if (!have("cpio")) {
		skip("cpio: an archive made by cpio -o -H newc", "cpio");
		return;
	}
	sh("mkdir -p %s/t1/d && printf 'hello, world' >%s/t1/d/f && ln -s d/f %s/t1/l && "
	   "cd %s/t1 && find . | LC_ALL=C sort | cpio -o -H newc --quiet >%s/t1.cpio && "
	   "find . | LC_ALL=C sort | cpio -o -H crc --quiet >%s/t1crc.cpio", dir, dir, dir, dir,
	   dir, dir);
	snprintf(path, sizeof(path), "%s/t1.cpio", dir);
	a = load(path, &len);
	if (!tap_ok(a != NULL, "cpio: cpio -o made an archive"))
		return;
	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		memset(&s, 0, sizeof(s));
		cpio_init(&r, saw_entry, saw_data, &s);
		got = feed(&r, a, len, pieces[i]);
		tap_ok(got == (ssize_t)len && cpio_finish(&r) == 0 && s.entries == 4 &&
		       r.archives == 1 && !strcmp(s.names[2], "d/f") &&
		       s.data_len == strlen("hello, world") + 3 &&
		       !memcmp(s.data, "hello, world", 12) && !memcmp(s.data + 12, "d/f", 3),
		       "cpio: newc read in pieces of %zu bytes: 4 entries, data and link target",
		       pieces[i]);
	}
	/* cut anywhere, the stream is unfinished unless the cut falls between entries */
	for (i = 1; i < len - 512; i++) {
		cpio_init(&r, NULL, NULL, NULL);
		got = cpio_feed(&r, a, i);
		if (got != (ssize_t)i || (cpio_finish(&r) == 0 && memcmp(a + i, "0707", 4)))
			break;
	}
	tap_ok(i >= len - 512, "cpio: an archive cut inside any entry is unfinished");
	free(a);
	snprintf(path, sizeof(path), "%s/t1crc.cpio", dir);
	a = load(path, &len);
	memset(&s, 0, sizeof(s));
	cpio_init(&r, saw_entry, saw_data, &s);
	tap_ok(a && cpio_feed(&r, a, len) == (ssize_t)len && cpio_finish(&r) == 0 &&
	       s.entries == 4, "cpio: the crc format (070702) is read too");
	free(a);
}

static void test_cpio_hand(void)
{
	char buf[1024], big[CPIO_NAME_MAX + 256];
	struct cpio_reader r;
	struct seen s;
	size_t n;

	n = header(buf, "070707", 0100644, 0, 2);
	memcpy(buf + n, "a\0", 2);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 2) == -EBADMSG, "cpio: old magic 070707 refused");

	n = header(buf, "070701", 0100644, 0, 2);
	buf[20] = 'g';
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 2) == -EBADMSG, "cpio: a field not in hex refused");

	n = header(buf, "070701", 0100644, 0, 0);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n) == -EBADMSG, "cpio: namesize 0 refused");

	n = header(big, "070701", 0100644, 0, CPIO_NAME_MAX + 1);
	memset(big + n, 'a', CPIO_NAME_MAX + 1);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)big, n + CPIO_NAME_MAX + 1) == -EBADMSG,
	       "cpio: a name longer than PATH_MAX refused");

	/* 4 bytes of name and 2 of padding */
	n = header(buf, "070701", 0100644, 0, 4);
	memcpy(buf + n, "abcd\0\0", 6);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 6) == -EBADMSG, "cpio: a name without its NUL refused");

	n = header(buf, "070701", 0100644, 0, 4);
	memcpy(buf + n, "a\0b\0\0\0", 6);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 6) == -EBADMSG, "cpio: a NUL inside a name refused");

	/* a size of 4 GiB - 1 with 16 bytes of data: unfinished, nothing read past them */
	n = header(buf, "070701", 0100644, 0xffffffffu, 2);
	memcpy(buf + n, "a\0", 2);
	memset(buf + n + 2, 'x', 16);
	memset(&s, 0, sizeof(s));
	cpio_init(&r, saw_entry, saw_data, &s);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 18) == (ssize_t)(n + 18) && cpio_finish(&r) ==
	       -EBADMSG && s.data_len == 16, "cpio: a huge size is passed only as far as the data goes");

	/* a trailer, zeros, then something that is no archive: the reader stops there */
	n = header(buf, "070701", 0100644, 0, 11);
	memcpy(buf + n, "TRAILER!!!\0", 11);
	n += 11 + 3;	/* to a multiple of 4 */
	memset(buf + n - 3, 0, 3 + 8);
	memcpy(buf + n + 8, "\x28\xb5\x2f\xfd", 4);
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 12) == (ssize_t)(n + 8) && r.archives == 1 &&
	       cpio_finish(&r) == 0, "cpio: stops at compressed data after the trailer and zeros");
	/* a '0' off the 4-byte grid is no header */
	buf[n + 5] = '0';
	cpio_init(&r, NULL, NULL, NULL);
	tap_ok(cpio_feed(&r, (uint8_t *)buf, n + 12) == (ssize_t)(n + 5),
	       "cpio: a '0' at an offset not a multiple of 4 starts no archive");
}

/* ---- the initramfs reader ---- */

/* A fake torpor-resume at tree @t: random bytes around the marker @marker ("" for none) */
static void fake_resume(const char *t, const char *path, const char *marker, unsigned pad)
{
	sh("mkdir -p %s/%s && head -c %u /dev/urandom >%s/%s/torpor-resume && "
	   "printf '%s\\0' >>%s/%s/torpor-resume && head -c 999 /dev/urandom >>%s/%s/torpor-resume && "
	   "chmod 755 %s/%s/torpor-resume", t, path, pad, t, path, marker, t, path, t, path, t, path);
}

static void itools_hook(const char *t, int in_order)
{
	sh("mkdir -p %s/scripts/local-top && printf '#!/bin/sh\\ntorpor=%s\\n' "
	   ">%s/scripts/local-top/torpor && chmod 755 %s/scripts/local-top/torpor && "
	   "printf '/scripts/local-top/%s \"$@\"\\n[ -e /conf/param.conf ] && . /conf/param.conf\\n' "
	   ">%s/scripts/local-top/ORDER", t, bin, t, t, in_order ? "torpor" : "other", t);
}

/* tree @name (in dir) into archive @out (appended to it with @append) */
static void pack(const char *name, const char *out, int append)
{
	sh("cd %s/%s && find . | LC_ALL=C sort | cpio -o -H newc --quiet %s %s/%s", dir, name,
	   append ? ">>" : ">", dir, out);
}

static int inspect(const char *file, struct initramfs_report *rep)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return initramfs_inspect(path, bin, DECOMPRESS_PATH, 20000, rep);
}

/* A fresh tree @name with torpor-resume (@marker, NULL for none) and, with
 * @hook, initramfs-tools' hook; lib is a symlink to usr/lib */
static void tree(const char *name, const char *marker, int hook)
{
	char t[128];

	snprintf(t, sizeof(t), "%s/%s", dir, name);
	sh("rm -rf %s && mkdir -p %s/usr/lib %s/conf && ln -s usr/lib %s/lib && "
	   "echo x >%s/conf/initramfs.conf", t, t, t, t, t);
	if (marker)
		fake_resume(t, "usr/lib/torpor", marker, 5000);
	if (hook)
		itools_hook(t, 1);
}

static int verdict(const char *file, enum initramfs_verdict want, struct initramfs_report *rep)
{
	int r = inspect(file, rep);

	if (r < 0)
		printf("# %s: %d %s\n", file, r, rep->detail);
	return r == 0 && rep->verdict == want;
}

static void test_verdicts(void)
{
	struct initramfs_report rep;
	const char *saved = bin;
	char t[128];

	tree("good", TORPOR_RESUME_MARKER, 1);
	pack("good", "good.cpio", 0);
	tap_ok(verdict("good.cpio", INITRAMFS_OK, &rep) && rep.hook_host == INITRAMFS_HOST_ITOOLS &&
	       rep.hosts == INITRAMFS_HOST_ITOOLS && !rep.compression,
	       "initramfs: torpor-resume of this format and initramfs-tools' hook: ok");
	bin = "/lib/torpor/torpor-resume";
	tap_ok(verdict("good.cpio", INITRAMFS_OK, &rep),
	       "initramfs: the path is followed through the image's lib -> usr/lib symlink");
	bin = "/usr/local/lib/torpor/torpor-resume";
	tap_ok(verdict("good.cpio", INITRAMFS_NO_RESUME, &rep),
	       "initramfs: torpor-resume elsewhere than LIBEXECDIR: missing");
	bin = saved;

	tree("nobin", NULL, 1);
	pack("nobin", "nobin.cpio", 0);
	tap_ok(verdict("nobin.cpio", INITRAMFS_NO_RESUME, &rep), "initramfs: no torpor-resume");

	tree("old", TORPOR_MARKER_PREFIX "1", 1);
	pack("old", "old.cpio", 0);
	tap_ok(verdict("old.cpio", INITRAMFS_OTHER_FORMAT, &rep) && rep.formats == 1u << 1,
	       "initramfs: a torpor-resume of format 1 only: another format");
	tree("multi", TORPOR_MARKER_PREFIX "1,2,3", 1);
	pack("multi", "multi.cpio", 0);
	tap_ok(verdict("multi.cpio", INITRAMFS_OK, &rep) && rep.formats == 0xe,
	       "initramfs: a marker naming formats 1, 2 and 3 reads this one");

	tree("nomark", "", 1);
	pack("nomark", "nomark.cpio", 0);
	tap_ok(verdict("nomark.cpio", INITRAMFS_NO_MARKER, &rep),
	       "initramfs: a torpor-resume without marker (an older torpor)");

	tree("noexec", TORPOR_RESUME_MARKER, 1);
	sh("chmod 644 %s/noexec%s", dir, bin);
	pack("noexec", "noexec.cpio", 0);
	tap_ok(verdict("noexec.cpio", INITRAMFS_NOT_EXECUTABLE, &rep),
	       "initramfs: a torpor-resume that is not executable");

	tree("nohook", TORPOR_RESUME_MARKER, 0);
	pack("nohook", "nohook.cpio", 0);
	tap_ok(verdict("nohook.cpio", INITRAMFS_NO_HOOK, &rep), "initramfs: no hook runs it");

	tree("noorder", TORPOR_RESUME_MARKER, 0);
	snprintf(t, sizeof(t), "%s/noorder", dir);
	itools_hook(t, 0);
	pack("noorder", "noorder.cpio", 0);
	tap_ok(verdict("noorder.cpio", INITRAMFS_HOOK_NOT_RUN, &rep) &&
	       rep.hook_host == INITRAMFS_HOST_ITOOLS,
	       "initramfs: initramfs-tools' hook not in scripts/local-top/ORDER: not run");

	/* a later archive replaces the file: the kernel unpacks the last one */
	sh("cp %s/good.cpio %s/over.cpio", dir, dir);
	pack("old", "over.cpio", 1);
	tap_ok(verdict("over.cpio", INITRAMFS_OTHER_FORMAT, &rep),
	       "initramfs: a later archive's torpor-resume replaces the earlier one");
	sh("cp %s/old.cpio %s/over2.cpio", dir, dir);
	pack("good", "over2.cpio", 1);
	tap_ok(verdict("over2.cpio", INITRAMFS_OK, &rep), "initramfs: and the other way round");
}

static void test_hosts(void)
{
	struct initramfs_report rep;
	char t[128];

	tree("dracut", TORPOR_RESUME_MARKER, 0);
	snprintf(t, sizeof(t), "%s/dracut", dir);
	sh("rm -f %s/conf/initramfs.conf && mkdir -p %s/usr/lib/dracut/hooks/pre-mount && "
	   "printf 'torpor_pre_mount() {\\n    local _bin=%s\\n}\\n' "
	   ">%s/usr/lib/dracut/hooks/pre-mount/05-torpor-pre-mount.sh && "
	   "printf '#!/bin/sh\\n' >%s/init && chmod 755 %s/init", t, t, bin, t, t, t);
	pack("dracut", "dracut.cpio", 0);
	tap_ok(verdict("dracut.cpio", INITRAMFS_OK, &rep) && rep.hook_host == INITRAMFS_HOST_DRACUT &&
	       rep.hosts == INITRAMFS_HOST_DRACUT, "initramfs: dracut's pre-mount hook: ok");
	/* dracut-ng's hook directory, reached through lib -> usr/lib? no: var/lib */
	sh("mkdir -p %s/var/lib/dracut/hooks && mv %s/usr/lib/dracut/hooks/pre-mount "
	   "%s/var/lib/dracut/hooks/", t, t, t);
	pack("dracut", "dracut-ng.cpio", 0);
	tap_ok(verdict("dracut-ng.cpio", INITRAMFS_OK, &rep),
	       "initramfs: dracut-ng's var/lib/dracut/hooks too");
	sh("mv %s/var/lib/dracut/hooks/pre-mount %s/var/lib/dracut/hooks/pre-pivot", t, t);
	pack("dracut", "dracut-pivot.cpio", 0);
	tap_ok(verdict("dracut-pivot.cpio", INITRAMFS_NO_HOOK, &rep),
	       "initramfs: the script in another hook directory does not count");
	/* dracut's systemd module: /init links to systemd, a unit runs the hooks */
	sh("mv %s/var/lib/dracut/hooks/pre-pivot %s/var/lib/dracut/hooks/pre-mount && "
	   "mkdir -p %s/usr/lib/systemd/system && printf '\\177ELF' >%s/usr/lib/systemd/systemd && "
	   "rm %s/init && ln -s usr/lib/systemd/systemd %s/init", t, t, t, t, t, t);
	pack("dracut", "dracut-sd-nounit.cpio", 0);
	tap_ok(verdict("dracut-sd-nounit.cpio", INITRAMFS_NO_SHELL_INIT, &rep) &&
	       rep.hook_host == INITRAMFS_HOST_DRACUT && strstr(rep.init, "systemd"),
	       "initramfs: dracut with systemd at /init and no dracut-pre-mount.service: "
	       "not run (/init is %s)", rep.init);
	sh("printf '[Service]\\nExecStart=-/bin/dracut-pre-mount\\n' "
	   ">%s/usr/lib/systemd/system/dracut-pre-mount.service", t);
	pack("dracut", "dracut-sd.cpio", 0);
	tap_ok(verdict("dracut-sd.cpio", INITRAMFS_OK, &rep),
	       "initramfs: dracut's systemd mode runs pre-mount hooks from dracut-pre-mount.service");

	tree("cpio", TORPOR_RESUME_MARKER, 0);
	snprintf(t, sizeof(t), "%s/cpio", dir);
	sh("rm -f %s/conf/initramfs.conf && mkdir -p %s/hooks && touch %s/init_functions && "
	   "printf 'run_hook() {\\n    local bin=%s\\n}\\n' >%s/hooks/torpor && "
	   "printf 'EARLYHOOKS=\"\"\\nHOOKS=\"base udev torpor-x\"\\n' >%s/config && "
	   "printf '#!/usr/bin/ash\\n. /init_functions\\n' >%s/init && chmod 755 %s/init", t, t,
	   t, bin, t, t, t, t);
	pack("cpio", "cpio-nohooks.cpio", 0);
	tap_ok(verdict("cpio-nohooks.cpio", INITRAMFS_HOOK_NOT_RUN, &rep) &&
	       rep.hook_host == INITRAMFS_HOST_MKINITCPIO && rep.hosts == INITRAMFS_HOST_MKINITCPIO,
	       "initramfs: mkinitcpio's hooks/torpor without torpor in HOOKS: not run");
	sh("printf 'EARLYHOOKS=\"\"\\nHOOKS=\"base udev torpor\"\\nLATEHOOKS=\"\"\\n' >%s/config", t);
	pack("cpio", "cpio.cpio", 0);
	tap_ok(verdict("cpio.cpio", INITRAMFS_OK, &rep), "initramfs: mkinitcpio with torpor in HOOKS: ok");
	/* the systemd hook links /init to systemd; hooks/torpor and HOOKS stay */
	sh("mkdir -p %s/usr/lib/systemd && printf '\\177ELF' >%s/usr/lib/systemd/systemd && "
	   "rm %s/init && ln -s usr/lib/systemd/systemd %s/init", t, t, t, t);
	pack("cpio", "cpio-systemd.cpio", 0);
	tap_ok(verdict("cpio-systemd.cpio", INITRAMFS_NO_SHELL_INIT, &rep) &&
	       rep.hook_host == INITRAMFS_HOST_MKINITCPIO && strstr(rep.init, "systemd"),
	       "initramfs: mkinitcpio's systemd hook at /init: hooks/torpor not run (/init is %s)",
	       rep.init);
	/* sd-torpor beside torpor in HOOKS: its unit runs under the systemd hook */
	sh("mkdir -p %s/usr/lib/systemd/system/initrd.target.wants && "
	   "printf '[Service]\\nExecStart=%s\\n' >%s/usr/lib/systemd/system/torpor-restore.service && "
	   "ln -s /usr/lib/systemd/system/torpor-restore.service "
	   "%s/usr/lib/systemd/system/initrd.target.wants/", t, bin, t, t);
	pack("cpio", "cpio-sdtorpor.cpio", 0);
	tap_ok(verdict("cpio-sdtorpor.cpio", INITRAMFS_OK, &rep) && rep.unit &&
	       rep.hook_host == INITRAMFS_HOST_MKINITCPIO,
	       "initramfs: mkinitcpio's systemd hook with sd-torpor's unit: ok");
	sh("rm -r %s/usr/lib/systemd %s/init", t, t);
	pack("cpio", "cpio-noinit.cpio", 0);
	tap_ok(verdict("cpio-noinit.cpio", INITRAMFS_NO_SHELL_INIT, &rep) &&
	       !strcmp(rep.init, "missing"), "initramfs: mkinitcpio without /init: not run");
}

/* torpor-restore.service, run where systemd is /init (dracut's systemd mode) */
static void test_unit(void)
{
	struct initramfs_report rep;
	char t[128];

	tree("sdunit", TORPOR_RESUME_MARKER, 0);
	snprintf(t, sizeof(t), "%s/sdunit", dir);
	sh("rm -f %s/conf/initramfs.conf && mkdir -p %s/usr/lib/dracut %s/usr/lib/systemd/system && "
	   "touch %s/usr/lib/dracut/dracut-lib.sh && "
	   "printf '\\177ELF' >%s/usr/lib/systemd/systemd && ln -s usr/lib/systemd/systemd %s/init && "
	   "printf '[Service]\\nExecStart=%s\\n' >%s/usr/lib/systemd/system/torpor-restore.service",
	   t, t, t, t, t, t, bin, t);
	pack("sdunit", "unit-unwanted.cpio", 0);
	tap_ok(verdict("unit-unwanted.cpio", INITRAMFS_HOOK_NOT_RUN, &rep) && rep.unit,
	       "initramfs: torpor-restore.service that no target wants: not run");
	/* dracut's systemctl add-wants: a link in /etc, through lib -> usr/lib */
	sh("mkdir -p %s/etc/systemd/system/initrd.target.wants && "
	   "ln -s /lib/systemd/system/torpor-restore.service "
	   "%s/etc/systemd/system/initrd.target.wants/torpor-restore.service", t, t);
	pack("sdunit", "unit.cpio", 0);
	tap_ok(verdict("unit.cpio", INITRAMFS_OK, &rep) && rep.unit &&
	       rep.hook_host == INITRAMFS_HOST_DRACUT,
	       "initramfs: torpor-restore.service wanted by initrd.target: ok");
	sh("ln -sfn /usr/lib/systemd/system/other.service "
	   "%s/etc/systemd/system/initrd.target.wants/torpor-restore.service", t);
	pack("sdunit", "unit-dangling.cpio", 0);
	tap_ok(verdict("unit-dangling.cpio", INITRAMFS_HOOK_NOT_RUN, &rep) && rep.unit,
	       "initramfs: a .wants link that leads elsewhere does not enable it");
	sh("ln -sfn /lib/systemd/system/torpor-restore.service "
	   "%s/etc/systemd/system/initrd.target.wants/torpor-restore.service && "
	   "printf '[Service]\\nExecStart=/usr/bin/true\\n' "
	   ">%s/usr/lib/systemd/system/torpor-restore.service", t, t);
	pack("sdunit", "unit-other.cpio", 0);
	tap_ok(verdict("unit-other.cpio", INITRAMFS_NO_HOOK, &rep),
	       "initramfs: a torpor-restore.service that runs something else: no hook");
	sh("printf '[Service]\\nExecStart=%s\\n' >%s/usr/lib/systemd/system/torpor-restore.service && "
	   "rm %s/init && printf '#!/bin/sh\\n' >%s/init && chmod 755 %s/init", bin, t, t, t, t);
	pack("sdunit", "unit-shell.cpio", 0);
	tap_ok(verdict("unit-shell.cpio", INITRAMFS_NO_HOOK, &rep),
	       "initramfs: the unit under a shell /init (which runs no unit): no hook");
}

/*
 * sdunit's tree as dracut's systemd mode makes it (systemd at /init, the unit
 * wanted by initrd.target), then @change run in it: is its verdict @want?
 */
static int unit_case(const char *change, enum initramfs_verdict want)
{
	struct initramfs_report rep;
	char t[128];

	snprintf(t, sizeof(t), "%s/sdunit", dir);
	sh("cd %s && rm -rf etc/systemd usr/lib/systemd opt init && "
	   "mkdir -p usr/lib/systemd/system etc/systemd/system/initrd.target.wants && "
	   "printf '\\177ELF' >usr/lib/systemd/systemd && ln -s usr/lib/systemd/systemd init && "
	   "printf '[Unit]\\nDescription=x\\n\\n[Service]\\nExecStart=%s\\n' "
	   ">usr/lib/systemd/system/torpor-restore.service && "
	   "ln -s /lib/systemd/system/torpor-restore.service "
	   "etc/systemd/system/initrd.target.wants/torpor-restore.service && %s", t, bin, change);
	pack("sdunit", "case.cpio", 0);
	if (!verdict("case.cpio", want, &rep))
		printf("# verdict %d, not %d, after: %s\n", rep.verdict, want, change);
	return rep.verdict == want;
}

/* where the unit would not run, or not run torpor-resume: not proven */
static void test_unit_odd(void)
{
	char sh_bin[256];

	tap_ok(unit_case("true", INITRAMFS_OK), "unit: as dracut makes it: ok");
	tap_ok(unit_case("rm init", INITRAMFS_NO_HOOK), "unit: no /init: no hook");
	tap_ok(unit_case("rm init && printf '\\177ELFx' >init && chmod 755 init",
			 INITRAMFS_NO_HOOK), "unit: /init a program, not systemd: no hook");
	tap_ok(unit_case("rm init && ln -s usr/bin/busybox init", INITRAMFS_NO_HOOK),
	       "unit: /init a link to another program: no hook");
	tap_ok(unit_case("mv etc/systemd/system/initrd.target.wants "
			 "etc/systemd/system/shutdown.target.wants", INITRAMFS_HOOK_NOT_RUN),
	       "unit: linked in shutdown.target.wants/ only: not run");
	tap_ok(unit_case("mv etc/systemd/system/initrd.target.wants "
			 "etc/systemd/system/initrd.target.requires", INITRAMFS_OK),
	       "unit: linked in initrd.target.requires/: ok");
	snprintf(sh_bin, sizeof(sh_bin), "printf '[Service]\\nExecStart=%s-old\\n' "
		 ">usr/lib/systemd/system/torpor-restore.service", bin);
	tap_ok(unit_case(sh_bin, INITRAMFS_NO_HOOK), "unit: ExecStart=<bin>-old: no hook");
	snprintf(sh_bin, sizeof(sh_bin), "printf '[Service]\\n# %s\\nExecStart=/bin/true\\n' "
		 ">usr/lib/systemd/system/torpor-restore.service", bin);
	tap_ok(unit_case(sh_bin, INITRAMFS_NO_HOOK),
	       "unit: the binary named in a comment, ExecStart=/bin/true: no hook");
	snprintf(sh_bin, sizeof(sh_bin), "printf '[Service]\\nExecStart=/bin/true %s\\n' "
		 ">usr/lib/systemd/system/torpor-restore.service", bin);
	tap_ok(unit_case(sh_bin, INITRAMFS_NO_HOOK),
	       "unit: the binary as another program's argument: no hook");
	snprintf(sh_bin, sizeof(sh_bin), "printf '[Service]\\nExecStart = -%s --x\\n' "
		 ">usr/lib/systemd/system/torpor-restore.service", bin);
	tap_ok(unit_case(sh_bin, INITRAMFS_OK), "unit: ExecStart = -<bin> --x (a prefix): ok");
	tap_ok(unit_case("ln -s /dev/null etc/systemd/system/torpor-restore.service",
			 INITRAMFS_NO_HOOK), "unit: masked in /etc (a link to /dev/null): no hook");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Service]\\nExecStart=\\nExecStart=/bin/true\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_NO_HOOK),
	       "unit: a drop-in that replaces ExecStart: no hook");
	tap_ok(unit_case("mkdir -p usr/lib/systemd/system/torpor-restore.service.d && "
			 "printf '[Service]\\nEnvironment=A=1\\n' "
			 ">usr/lib/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_OK),
	       "unit: a drop-in that leaves ExecStart: ok");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Unit]\\nConditionKernelCommandLine=never\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_NO_HOOK),
	       "unit: a drop-in with a Condition*= of its own (it may skip the unit): no hook");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Unit]\\nAssertPathExists=/x\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_NO_HOOK),
	       "unit: a drop-in with an Assert*=: no hook");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Service]\\nExecStartPre=/bin/false\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_NO_HOOK),
	       "unit: a drop-in with an ExecStartPre= (it may fail first): no hook");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Service]\\nExecCondition=/bin/false\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_NO_HOOK),
	       "unit: a drop-in with an ExecCondition=: no hook");
	tap_ok(unit_case("mkdir -p etc/systemd/system/torpor-restore.service.d && "
			 "printf '[Service]\\nConditionX=1\\n[Install]\\nAssertY=1\\n' "
			 ">etc/systemd/system/torpor-restore.service.d/x.conf", INITRAMFS_OK),
	       "unit: Condition-like names outside [Unit]: ok");
	snprintf(sh_bin, sizeof(sh_bin), "mkdir -p usr/lib/systemd/system/torpor-restore.service.d "
		 "&& printf '[Service]\\nExecStart=\\nExecStart=%s --device=/dev/vdb1\\n' "
		 ">usr/lib/systemd/system/torpor-restore.service.d/hostonly.conf", bin);
	tap_ok(unit_case(sh_bin, INITRAMFS_OK),
	       "unit: dracut's host-only drop-in (ExecStart=<bin> --device=): ok");
	tap_ok(unit_case("mkdir -p opt/x/systemd/system/initrd.target.wants && "
			 "mv usr/lib/systemd/system/torpor-restore.service opt/x/systemd/system/ && "
			 "rm -r etc/systemd/system/initrd.target.wants && "
			 "ln -s /opt/x/systemd/system/torpor-restore.service "
			 "opt/x/systemd/system/initrd.target.wants/", INITRAMFS_NO_HOOK),
	       "unit: only under /opt/x/systemd/system (no unit directory): no hook");
	tap_ok(unit_case("mkdir -p opt/x/initrd.target.wants && "
			 "mv etc/systemd/system/initrd.target.wants/torpor-restore.service "
			 "opt/x/initrd.target.wants/", INITRAMFS_HOOK_NOT_RUN),
	       "unit: wanted from a directory systemd does not read: not run");
}

static void test_links(void)
{
	struct initramfs_report rep;
	char t[128];

	/* GNU cpio puts a hard link's data with its last name: torpor-resume comes first */
	tree("hard", TORPOR_RESUME_MARKER, 1);
	snprintf(t, sizeof(t), "%s/hard", dir);
	sh("ln %s%s %s/zz-copy", t, bin, t);
	pack("hard", "hard.cpio", 0);
	tap_ok(verdict("hard.cpio", INITRAMFS_OK, &rep),
	       "initramfs: a hard link whose data comes with its other name");
	/* the marker across the reader's 4 KiB windows and 256 KiB chunks */
	tree("edge", NULL, 1);
	snprintf(t, sizeof(t), "%s/edge", dir);
	fake_resume(t, "usr/lib/torpor", TORPOR_RESUME_MARKER, 4096 - 10);
	pack("edge", "edge.cpio", 0);
	tap_ok(verdict("edge.cpio", INITRAMFS_OK, &rep), "initramfs: a marker across 4 KiB windows");
	fake_resume(t, "usr/lib/torpor", TORPOR_RESUME_MARKER, 256 * 1024 - 600);
	pack("edge", "edge2.cpio", 0);
	tap_ok(verdict("edge2.cpio", INITRAMFS_OK, &rep), "initramfs: a marker across read chunks");
}

/* torpor-resume's release, from its version line beside the marker (--status shows it) */
static void test_version(void)
{
	static const char line[] = "torpor-resume 0.2+deb13u1 (image format 2, build 0649d6b)";
	struct initramfs_report rep;
	char t[128];

	snprintf(t, sizeof(t), "%s/ver", dir);
	tree("ver", TORPOR_RESUME_MARKER, 1);
	pack("ver", "ver0.cpio", 0);
	tap_ok(verdict("ver0.cpio", INITRAMFS_OK, &rep) && !rep.resume_version[0],
	       "initramfs: no version line: no release (the marker's prefix is none)");
	sh("printf '%s\\0' >>%s%s", line, t, bin);
	pack("ver", "ver1.cpio", 0);
	tap_ok(verdict("ver1.cpio", INITRAMFS_OK, &rep) &&
	       !strcmp(rep.resume_version, "0.2+deb13u1"),
	       "initramfs: torpor-resume's release from its version line (got '%s')",
	       rep.resume_version);
	/* the line across the reader's 4 KiB windows: 1028 bytes of marker and noise follow
	   the pad, then the 58-byte line starts 35 bytes before the window's end */
	tree("ver", NULL, 1);
	fake_resume(t, "usr/lib/torpor", TORPOR_RESUME_MARKER, 4096 - 1028 - 35);
	sh("printf '%s\\0' >>%s%s", line, t, bin);
	pack("ver", "ver2.cpio", 0);
	tap_ok(verdict("ver2.cpio", INITRAMFS_OK, &rep) &&
	       !strcmp(rep.resume_version, "0.2+deb13u1"),
	       "initramfs: a version line across 4 KiB windows (got '%s')", rep.resume_version);
	/* a line that is not one: no " (image format " after the release */
	tree("ver", TORPOR_RESUME_MARKER, 1);
	sh("printf 'torpor-resume 9.9 was here\\0torpor-resume %%s\\0' >>%s%s", t, bin);
	pack("ver", "ver3.cpio", 0);
	tap_ok(verdict("ver3.cpio", INITRAMFS_OK, &rep) && !rep.resume_version[0],
	       "initramfs: 'torpor-resume WORD' without the format after it: no release");
	/* a hard link whose data comes with its other name carries the release too */
	tree("ver", TORPOR_RESUME_MARKER, 1);
	sh("printf '%s\\0' >>%s%s && ln %s%s %s/zz-copy", line, t, bin, t, bin, t);
	pack("ver", "ver4.cpio", 0);
	tap_ok(verdict("ver4.cpio", INITRAMFS_OK, &rep) &&
	       !strcmp(rep.resume_version, "0.2+deb13u1"),
	       "initramfs: a hard link's release, from its other name (got '%s')",
	       rep.resume_version);
}

/* early (uncompressed) cpio, then @tool's rest, which the reader runs @tool for */
static void test_compressed(const char *label, const char *tool, const char *cmd,
			    const char *format)
{
	struct initramfs_report rep;
	char name[64];

	if (!have(tool)) {
		skip(label, tool);
		return;
	}
	snprintf(name, sizeof(name), "%s.img", format);
	sh("rm -rf %s/early && mkdir -p %s/early/kernel/x86/microcode && "
	   "echo ucode >%s/early/kernel/x86/microcode/GenuineIntel.bin", dir, dir, dir);
	pack("early", name, 0);
	sh("%s <%s/good.cpio >>%s/%s", cmd, dir, dir, name);
	tap_ok(verdict(name, INITRAMFS_OK, &rep) && rep.compression &&
	       !strcmp(rep.compression, format) && rep.entries > 10 && rep.tool_status == 0,
	       "initramfs: early cpio, then %s", label);
}

/*
 * What follows a compressed stream is read too, as the kernel does: a plain
 * archive (after zeros to a multiple of 4) or another stream.  @cmd compresses.
 */
static void test_appended(const char *tool, const char *cmd)
{
	struct initramfs_report rep;
	char t[128];

	if (!have(tool)) {
		skip("initramfs: an archive after a compressed stream", tool);
		return;
	}
	snprintf(t, sizeof(t), "%s/hookonly", dir);
	sh("rm -rf %s && mkdir -p %s", t, t);
	itools_hook(t, 1);
	pack("hookonly", "hookonly.cpio", 0);
	/* the hook comes in the archive after the stream: it is there */
	sh("%s <%s/nohook.cpio >%s/app1.img && truncate -s %%4 %s/app1.img && "
	   "cat %s/hookonly.cpio >>%s/app1.img", cmd, dir, dir, dir, dir, dir);
	tap_ok(verdict("app1.img", INITRAMFS_OK, &rep),
	       "initramfs: a plain archive after a %s stream is read (the hook in it)", tool);
	/* a torpor-resume of another format after it replaces the good one */
	sh("%s <%s/good.cpio >%s/app2.img && truncate -s %%4 %s/app2.img && "
	   "head -c 16 /dev/zero >>%s/app2.img && cat %s/old.cpio >>%s/app2.img", cmd, dir, dir, dir,
	   dir, dir, dir);
	tap_ok(verdict("app2.img", INITRAMFS_OTHER_FORMAT, &rep),
	       "initramfs: a later archive after a %s stream replaces torpor-resume", tool);
}

/* (alarm: the old code waited in open() for a writer; the test fails instead of hanging) */
static void on_alarm(int sig)
{
	static const char m[] = "not ok - initramfs: a FIFO was opened waiting for a writer\n";

	(void)sig;
	(void)!write(1, m, sizeof(m) - 1);
	_exit(1);
}

/*
 * A FIFO where the initramfs is looked for (--initramfs=, torpor.conf, a name in
 * /boot that --status reads) is no regular file, said at once: never opened
 * blocking, which would wait for a writer for ever
 */
static void test_fifo(void)
{
	struct initramfs_report rep;
	char path[128];
	int r;

	snprintf(path, sizeof(path), "%s/fifo.img", dir);
	if (mkfifo(path, 0600) < 0) {
		skip("initramfs: a FIFO", "mkfifo");
		return;
	}
	signal(SIGALRM, on_alarm);
	alarm(10);
	r = initramfs_inspect(path, bin, DECOMPRESS_PATH, 300, &rep);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	tap_ok(r == -EINVAL && strstr(rep.detail, "not a regular file"),
	       "initramfs: a FIFO is not a regular file, said without waiting: %d %s", r,
	       rep.detail);
	unlink(path);
}

static void test_failures(void)
{
	struct initramfs_report rep;
	char path[128], t[128];
	int r;

	if (have("zstd")) {
		/* cut in the middle: the data ends inside an entry */
		sh("zstd -q -c <%s/good.cpio | head -c 3000 >%s/cut.img", dir, dir);
		tap_ok(inspect("cut.img", &rep) == -EBADMSG && strstr(rep.detail, "zstd"),
		       "initramfs: a cut zstd stream: %s", rep.detail);
		/* a decompressor that never ends is killed at the deadline */
		sh("mkdir -p %s/bin && printf '#!/bin/sh\\nexec sleep 1000\\n' >%s/bin/zstd && "
		   "chmod 755 %s/bin/zstd && zstd -q -c <%s/good.cpio >%s/z.img", dir, dir, dir, dir,
		   dir);
		snprintf(path, sizeof(path), "%s/z.img", dir);
		snprintf(t, sizeof(t), "%s/bin", dir);
		r = initramfs_inspect(path, bin, t, 300, &rep);
		tap_ok(r == -ETIMEDOUT && strstr(rep.detail, "within"),
"initramfs: a stuck decompressor is killed at the deadline: %s",
		       rep.detail);
		r = initramfs_inspect(path, bin, "/nonexistent", 300, &rep);
		tap_ok(r == -ENOPKG && strstr(rep.detail, "not installed"),
		       "initramfs: no decompressor: %s", rep.detail);
	} else {
		skip("initramfs: a cut zstd stream", "zstd");
	}
	if (have("xz")) {
		/* four xz streams, each taking a second: the bound is for them all */
		sh("mkdir -p %s/slow && printf '#!/bin/sh\\nsleep 1\\nexec xz \"$@\"\\n' "
		   ">%s/slow/xz && chmod 755 %s/slow/xz && : >%s/four.img && for i in 1 2 3 4; do "
		   "xz -c --check=crc32 <%s/good.cpio >>%s/four.img; done", dir, dir, dir, dir, dir,
		   dir);
		snprintf(path, sizeof(path), "%s/four.img", dir);
		snprintf(t, sizeof(t), "%s/slow", dir);
		r = initramfs_inspect(path, bin, t, 2500, &rep);
		tap_ok(r == -ETIMEDOUT, "initramfs: one bound for all the streams of a file: %d %s",
		       r, rep.detail);
		r = initramfs_inspect(path, bin, t, 20000, &rep);
		tap_ok(r == 0 && rep.verdict == INITRAMFS_OK,
		       "initramfs: and four slow streams within it are read: %d %s", r, rep.detail);
	} else {
		skip("initramfs: one bound for all the streams of a file", "xz");
	}
	sh("cp %s/good.cpio %s/junk.img && printf 'JUNKJUNK' >>%s/junk.img", dir, dir, dir);
	tap_ok(inspect("junk.img", &rep) == -EPROTONOSUPPORT,
	       "initramfs: data after the archive that is not compressed: %s", rep.detail);
	sh("head -c 1000 %s/good.cpio >%s/short.img", dir, dir);
	tap_ok(inspect("short.img", &rep) == -EBADMSG, "initramfs: a cut archive: %s", rep.detail);
	sh(": >%s/empty.img", dir);
	tap_ok(inspect("empty.img", &rep) == -EBADMSG, "initramfs: an empty file: %s", rep.detail);
	tap_ok(inspect("missing.img", &rep) == -ENOENT, "initramfs: a missing file: -ENOENT");
	test_fifo();
}

/* The decompressor runs with an environment of its own, not the caller's */
static void test_environment(void)
{
	struct initramfs_report rep;
	int ok;

	if (!have("xz")) {
		skip("initramfs: the caller's XZ_DEFAULTS does not reach xz", "xz");
		return;
	}
	sh("xz -c --check=crc32 <%s/good.cpio >%s/env.img", dir, dir);
	/* a limit xz cannot decompress within: it fails at once when it sees it */
	setenv("XZ_DEFAULTS", "--memlimit-decompress=1KiB", 1);
	ok = verdict("env.img", INITRAMFS_OK, &rep);
	unsetenv("XZ_DEFAULTS");
	tap_ok(ok, "initramfs: the caller's XZ_DEFAULTS does not reach xz");
}

/* ---- unified kernel images ---- */

struct sect {
	const char *name;
	const void *data;
	size_t len;
};

#define PE_TABLE	0x148	/* DOS header 0x40, "PE\0\0", COFF 20, PE32+ optional 0xf0 */
#define PE_DATA		0x400
#define ALIGN512(n)	(((n) + 511) & ~(size_t)511)

/* A PE file in memory: @n sections, their data at 512-byte steps from PE_DATA */
static uint8_t *make_pe(const struct sect *s, int n, size_t *ret_len)
{
	size_t total = PE_DATA, off = PE_DATA;
	uint8_t *p, *e;
	int i;

	for (i = 0; i < n; i++)
		total += ALIGN512(s[i].len);
	p = calloc(1, total);
	if (!p)
		return NULL;
	p[0] = 'M';
	p[1] = 'Z';
	put_le32(p + 0x3c, 0x40);
	memcpy(p + 0x40, "PE\0\0", 4);
	put_le16(p + 0x44, 0x8664);
	put_le16(p + 0x46, (uint16_t)n);
	put_le16(p + 0x54, 0xf0);
	put_le16(p + 0x58, 0x20b);
	for (i = 0; i < n; i++) {
		e = p + PE_TABLE + 40 * i;
		memcpy(e, s[i].name, strlen(s[i].name));
		put_le32(e + 8, (uint32_t)s[i].len);
		put_le32(e + 12, (uint32_t)(0x10000 * (i + 1)));
		put_le32(e + 16, (uint32_t)ALIGN512(s[i].len));
		put_le32(e + 20, (uint32_t)off);
		memcpy(p + off, s[i].data, s[i].len);
		off += ALIGN512(s[i].len);
	}
	*ret_len = total;
	return p;
}

static int write_pe(const char *path, const struct sect *s, int n)
{
	size_t len;
	uint8_t *p = make_pe(s, n, &len);
	FILE *f = fopen(path, "wb");
	int ok = p && f && fwrite(p, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	free(p);
	return ok;
}

static void test_pefile(void)
{
	static const char initrd[] = "0707010000", uname[] = "6.8.0-1-amd64";
	const struct sect secs[] = { { ".uname", uname, sizeof(uname) - 1 },
				     { ".initrd", initrd, sizeof(initrd) - 1 },
				     { "12345678", "x", 1 } };
	struct pe_section sec = { 0, 0 };
	uint8_t *p;
	size_t len;

	p = make_pe(secs, 3, &len);
	if (!tap_ok(p != NULL, "pefile: a PE file built"))
		return;
	tap_ok(pe_find_section(p, len, len, ".initrd", &sec) == PE_FOUND &&
	       sec.offset == PE_DATA + 512 && sec.size == sizeof(initrd) - 1,
	       "pefile: .initrd found, VirtualSize bytes");
	tap_ok(pe_find_section(p, len, len, ".init", &sec) == PE_NO_SECTION,
	       "pefile: a name's prefix is no match");
	tap_ok(pe_find_section(p, len, len, "12345678", &sec) == PE_FOUND && sec.size == 1,
	       "pefile: a name of all 8 bytes");
	tap_ok(pe_find_section(p, PE_TABLE + 40 * 2, len, ".uname", &sec) == -EBADMSG,
	       "pefile: a section table cut by the buffer is malformed");
	/* VirtualSize 0: SizeOfRawData; larger than it: cut to it */
	put_le32(p + PE_TABLE + 40 + 8, 0);
	tap_ok(pe_find_section(p, len, len, ".initrd", &sec) == PE_FOUND && sec.size == 512,
	       "pefile: VirtualSize 0 takes SizeOfRawData");
	put_le32(p + PE_TABLE + 40 + 8, 0x7fffffff);
	tap_ok(pe_find_section(p, len, len, ".initrd", &sec) == PE_FOUND && sec.size == 512,
	       "pefile: VirtualSize past SizeOfRawData is cut to it");
	/* data past the end of the file */
	put_le32(p + PE_TABLE + 40 + 20, 0xfffffe00u);
	tap_ok(pe_find_section(p, len, len, ".initrd", &sec) == -EBADMSG,
	       "pefile: a section past the file's end is malformed");
	put_le32(p + PE_TABLE + 40 + 20, (uint32_t)len - 100);
	tap_ok(pe_find_section(p, len, len, ".initrd", &sec) == -EBADMSG,
	       "pefile: a section across the file's end is malformed");
	put_le16(p + 0x46, 97);
	tap_ok(pe_find_section(p, len, len, ".uname", &sec) == -EBADMSG,
	       "pefile: more sections than a loader takes is malformed");
	put_le16(p + 0x46, 3);
	put_le16(p + 0x54, 0xffff);
	tap_ok(pe_find_section(p, len, len, ".uname", &sec) == -EBADMSG,
	       "pefile: an optional header past the buffer is malformed");
	put_le32(p + 0x3c, 0xffffffffu);
	tap_ok(pe_find_section(p, len, len, ".uname", &sec) == PE_NOT_PE,
	       "pefile: a PE offset past the buffer: not a PE file");
	put_le32(p + 0x3c, 0x40);
	p[0x41] = 'X';
	tap_ok(pe_find_section(p, len, len, ".uname", &sec) == PE_NOT_PE,
	       "pefile: no PE signature: not a PE file");
	tap_ok(pe_find_section((const uint8_t *)"0707010000", 10, 10, ".initrd", &sec) == PE_NOT_PE,
	       "pefile: a cpio archive is no PE file");
	free(p);
}

/* A UKI at @path of release @uname ("" for no .uname section): @initrd's file
 * (in dir) as its .initrd, random bytes as its .linux after it */
static int make_uki(const char *path, const char *uname, const char *initrd)
{
	static uint8_t linux_sec[8192];
	struct sect s[3];
	char file[128];
	uint8_t *data = NULL;
	size_t len = 0;
	int n = 0, ok;

	memset(linux_sec, 0xa5, sizeof(linux_sec));
	/* an x86 boot header naming the release, as bzImage has */
	memcpy(linux_sec + 0x202, "HdrS", 4);
	put_le16(linux_sec + 0x20e, 0x1000);
	snprintf((char *)linux_sec + 0x1200, 100, "%s (builder@host) #1 SMP", uname[0] ? uname :
		 "6.1.0-other");
	if (uname[0])
		s[n++] = (struct sect){ ".uname", uname, strlen(uname) };
	if (initrd) {
		snprintf(file, sizeof(file), "%s/%s", dir, initrd);
		data = load(file, &len);
		if (!data)
			return 0;
		s[n++] = (struct sect){ ".initrd", data, len };
	}
	s[n++] = (struct sect){ ".linux", linux_sec, sizeof(linux_sec) };
	ok = write_pe(path, s, n);
	free(data);
	return ok;
}

static void test_uki(void)
{
	struct initramfs_report rep;
	char path[128];
	int r;

	snprintf(path, sizeof(path), "%s/uki-plain.efi", dir);
	tap_ok(make_uki(path, "6.8.0-1-amd64", "good.cpio") &&
	       verdict("uki-plain.efi", INITRAMFS_OK, &rep) && rep.uki && !rep.compression,
	       "uki: a plain .initrd section is read, and nothing after it");
	snprintf(path, sizeof(path), "%s/uki-nohook.efi", dir);
	tap_ok(make_uki(path, "6.8.0-1-amd64", "nohook.cpio") &&
	       verdict("uki-nohook.efi", INITRAMFS_NO_HOOK, &rep) && rep.uki,
	       "uki: its .initrd is judged: no hook");
	if (have("zstd")) {
		sh("zstd -q -c <%s/good.cpio >%s/good.zst", dir, dir);
		snprintf(path, sizeof(path), "%s/uki-zstd.efi", dir);
		tap_ok(make_uki(path, "6.8.0-1-amd64", "good.zst") &&
		       verdict("uki-zstd.efi", INITRAMFS_OK, &rep) && rep.uki &&
		       rep.tool_status == 0, "uki: a zstd .initrd, the tool fed the section only");
	} else {
		skip("uki: a zstd .initrd", "zstd");
	}
	snprintf(path, sizeof(path), "%s/uki-none.efi", dir);
	r = make_uki(path, "6.8.0-1-amd64", NULL) ? inspect("uki-none.efi", &rep) : 0;
	tap_ok(r == -EPROTONOSUPPORT && strstr(rep.detail, ".initrd"),
	       "uki: a PE file without .initrd: %s", rep.detail);
}

/* hibernate_check_initramfs() on @o, @unnamed: its result, what it printed into @out */
static int check_said(const struct hib_opts *o, int unnamed, char *out, size_t len)
{
	char path[128];
	int saved, fd, r;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (saved < 0 || fd < 0)
		return -EIO;
	dup2(fd, 2);
	close(fd);
	r = hibernate_check_initramfs(o, unnamed, makedev(7, 3));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, out, len - 1) : -1;
	out[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return r;
}

/* What torpor-suspend says: the opt-out warns, a UKI is named as one */
static void test_messages(void)
{
	struct hib_opts o;
	char out[4096];
	int r;

	memset(&o, 0, sizeof(o));
	snprintf(o.initramfs, sizeof(o.initramfs), "none");
	r = check_said(&o, 0, out, sizeof(out));
	tap_ok(r == 0 && strstr(out, "torpor: warning: not checking the initramfs the next boot "
				"runs ('initramfs = none' in torpor.conf)") &&
	       strstr(out, "loses the hibernated session"),
	       "message: initramfs = none skips the check with a warning");
	snprintf(o.initramfs, sizeof(o.initramfs), "%s/uki-nohook.efi", dir);
	r = check_said(&o, 0, out, sizeof(out));
	tap_ok(r == -ENOEXEC && strstr(out, "torpor: the initramfs in unified kernel image '") &&
	       strstr(out, "torpor: hint: then rebuild the unified kernel image"),
	       "message: a refused UKI is named as one, with how to rebuild it");
}

/* tree() with torpor-resume at LIBEXECDIR, where bootready.c looks */
static void tree_libexec(const char *name, int hook)
{
	char t[128];

	snprintf(t, sizeof(t), "%s/%s", dir, name);
	tree(name, NULL, hook);
	fake_resume(t, LIBEXECDIR + 1, TORPOR_RESUME_MARKER, 5000);
}

/* @name in dir, judged by hibernate_check_initramfs() when no resume= names the area */
static int unnamed_said(const char *name, char *out, size_t len)
{
	struct hib_opts o;

	memset(&o, 0, sizeof(o));
	if (!strcmp(name, "none"))
		snprintf(o.initramfs, sizeof(o.initramfs), "none");
	else
		snprintf(o.initramfs, sizeof(o.initramfs), "%s/%s", dir, name);
	return check_said(&o, 1, out, len);
}

/*
 * No resume= on the command line: only initramfs-tools' hook reads the device
 * from the image's own configuration (RESUME=); the unit and the other hooks
 * read the command line only, so the next boot would not look for the image
 */
static void test_unnamed(void)
{
	const char *saved = bin;
	struct hib_opts o;
	char out[4096], t[128];
	int r;

	bin = LIBEXECDIR "/torpor-resume";
	efiwrite_dir = "/nonexistent/efivars";	/* no EFI here */
	tree_libexec("un-itools", 1);
	snprintf(t, sizeof(t), "%s/un-itools", dir);
	/* hooks/resume's conf.d/resume; zz-resume-auto (later in name order) wins */
	sh("mkdir -p %s/conf/conf.d && printf '# from /etc\\nRESUME=UUID=0b2c\\n' "
	   ">%s/conf/conf.d/resume && printf 'export RESUME=\"7:3\"\\r\\n' "
	   ">%s/conf/conf.d/zz-resume-auto", t, t, t);
	pack("un-itools", "un-itools.cpio", 0);
	r = unnamed_said("un-itools.cpio", out, sizeof(out));
	tap_ok(r == 0, "no resume=: initramfs-tools' RESUME= (the last file sourced) names the "
	       "area written: ok (%d)", r);
	sh("rm %s/conf/conf.d/zz-resume-auto", t);
	pack("un-itools", "un-itools-other.cpio", 0);
	r = unnamed_said("un-itools-other.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "initramfs-tools' RESUME=UUID=0b2c in initramfs '") &&
	       strstr(out, "does not name the area written (device 7:3)"),
	       "no resume=: initramfs-tools' RESUME= names another device: refused");
	sh("printf 'RESUME=none\\n' >%s/conf/conf.d/resume", t);
	pack("un-itools", "un-itools-none.cpio", 0);
	r = unnamed_said("un-itools-none.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "names no resume device (RESUME=none)"),
	       "no resume=: initramfs-tools' RESUME=none: refused");
	sh("rm %s/conf/conf.d/resume", t);
	pack("un-itools", "un-itools-unset.cpio", 0);
	r = unnamed_said("un-itools-unset.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "names no resume device (RESUME=not set)") &&
	       strstr(out, "torpor: hint: put resume="),
	       "no resume=: no RESUME= in initramfs-tools' configuration (no swap when it was "
	       "built): refused");
	sh("printf 'RESUME=7:3\\n' >%s/conf/conf.d/resume && "
	   "printf '[ -e /x ] && RESUME=8:1\\n' >%s/conf/conf.d/zz-other", t, t);
	pack("un-itools", "un-itools-cond.cpio", 0);
	r = unnamed_said("un-itools-cond.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "cannot be read here"),
	       "no resume=: a RESUME= set under a condition is not guessed at: refused");
	sh("rm %s/conf/conf.d/zz-other && printf 'RESUME=$SWAP\\n' >%s/conf/conf.d/zz-other", t, t);
	pack("un-itools", "un-itools-var.cpio", 0);
	r = unnamed_said("un-itools-var.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "cannot be read here"),
	       "no resume=: RESUME=$SWAP (shell, not a device) is not guessed at: refused");

	tree_libexec("un-unit", 0);
	snprintf(t, sizeof(t), "%s/un-unit", dir);
	sh("rm -f %s/conf/initramfs.conf && mkdir -p %s/usr/lib/dracut "
	   "%s/usr/lib/systemd/system/initrd.target.wants && touch %s/usr/lib/dracut/dracut-lib.sh && "
	   "printf '\\177ELF' >%s/usr/lib/systemd/systemd && ln -s usr/lib/systemd/systemd %s/init && "
	   "printf '[Service]\\nExecStart=%s\\n' >%s/usr/lib/systemd/system/torpor-restore.service && "
	   "ln -s ../torpor-restore.service %s/usr/lib/systemd/system/initrd.target.wants/",
	   t, t, t, t, t, t, bin, t, t);
	pack("un-unit", "un-unit.cpio", 0);
	memset(&o, 0, sizeof(o));
	snprintf(o.initramfs, sizeof(o.initramfs), "%s/un-unit.cpio", dir);
	r = check_said(&o, 0, out, sizeof(out));
	tap_ok(r == 0, "resume= names the area: torpor-restore.service is ok (%d)", r);
	r = unnamed_said("un-unit.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "torpor: the kernel command line has no resume=, "
				      "and torpor-restore.service in initramfs '") &&
	       strstr(out, "reads only the command line: the next boot would not look for the "
		      "image") &&
	       strstr(out, "torpor: hint: put resume= (and resume_offset= for a swap file) on the "
		      "kernel command line ('torpor-suspend --print-cmdline' prints it)"),
	       "no resume=: torpor-restore.service (reads the command line only) is refused");

	sh("rm -r %s/usr/lib/systemd %s/init && printf '#!/bin/sh\\n' >%s/init && "
	   "chmod 755 %s/init && mkdir -p %s/usr/lib/dracut/hooks/pre-mount && "
	   "printf 'torpor_pre_mount() {\\n    local _bin=%s\\n}\\n' "
	   ">%s/usr/lib/dracut/hooks/pre-mount/05-torpor-pre-mount.sh", t, t, t, t, t, bin, t);
	pack("un-unit", "un-dracut.cpio", 0);
	r = unnamed_said("un-dracut.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "and the dracut hook in initramfs '"),
	       "no resume=: dracut's pre-mount hook (getarg resume=) is refused");

	tree_libexec("un-cpio", 0);
	snprintf(t, sizeof(t), "%s/un-cpio", dir);
	sh("rm -f %s/conf/initramfs.conf && mkdir -p %s/hooks && touch %s/init_functions && "
	   "printf 'run_hook() {\\n    local bin=%s\\n}\\n' >%s/hooks/torpor && "
	   "printf 'HOOKS=\"base udev torpor\"\\n' >%s/config && "
	   "printf '#!/usr/bin/ash\\n' >%s/init && chmod 755 %s/init", t, t, t, bin, t, t, t, t);
	pack("un-cpio", "un-cpio.cpio", 0);
	r = unnamed_said("un-cpio.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "and the mkinitcpio hook in initramfs '"),
	       "no resume=: mkinitcpio's busybox hook (getarg resume=) is refused");

	r = unnamed_said("none", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "the kernel command line has no resume=, and the "
				      "initramfs is not checked") &&
	       strstr(out, "torpor: hint: put resume="),
	       "no resume=: initramfs = none cannot prove the next boot looks: refused");
	memset(&o, 0, sizeof(o));
	o.no_initramfs = 1;
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "the initramfs is not checked"),
	       "no resume=: --check --no-initramfs cannot prove it either: refused");
	bin = saved;
}

/* tree_libexec() whose torpor-resume also carries EFILOC_MARKER (with @efi) */
static void tree_efi(const char *name, int efi)
{
	char t[128];

	snprintf(t, sizeof(t), "%s/%s", dir, name);
	tree(name, NULL, 0);
	sh("rm -f %s/conf/initramfs.conf", t);
	fake_resume(t, LIBEXECDIR + 1, TORPOR_RESUME_MARKER, 5000);
	if (efi)
		sh("printf '%s\\0' >>%s%s && head -c 300 /dev/urandom >>%s%s", EFILOC_MARKER, t,
		   bin, t, bin);
}

/*
 * No resume= on an EFI boot (efiwrite_dir a writable directory): an initramfs
 * whose torpor-resume reads TorporHibernateLocation and whose hook runs it
 * without resume= lets torpor-suspend write the variable (1); an older
 * torpor-resume or hook, or no EFI, is refused as before.
 */
static void test_unnamed_efi(void)
{
	const char *saved = bin;
	char out[4096], t[128], efi[160];
	struct hib_opts o;
	int r;

	bin = LIBEXECDIR "/torpor-resume";
	snprintf(efi, sizeof(efi), "%s/efivars", dir);
	sh("mkdir -p %s", efi);
	efiwrite_dir = efi;

	tree_efi("efi-unit", 1);
	snprintf(t, sizeof(t), "%s/efi-unit", dir);
	sh("mkdir -p %s/usr/lib/dracut %s/usr/lib/systemd/system/initrd.target.wants && "
	   "touch %s/usr/lib/dracut/dracut-lib.sh && printf '\\177ELF' >%s/usr/lib/systemd/systemd && "
	   "ln -s usr/lib/systemd/systemd %s/init && "
	   "printf '[Service]\\nExecStart=%s\\n' >%s/usr/lib/systemd/system/torpor-restore.service && "
	   "ln -s ../torpor-restore.service %s/usr/lib/systemd/system/initrd.target.wants/",
	   t, t, t, t, t, bin, t, t);
	pack("efi-unit", "efi-unit.cpio", 0);
	r = unnamed_said("efi-unit.cpio", out, sizeof(out));
	tap_ok(r == 1, "efi: no resume=, torpor-restore.service and a torpor-resume that reads "
	       "the EFI variable: the variable will name the area (%d)", r);

	tree_efi("efi-old", 0);
	snprintf(t, sizeof(t), "%s/efi-old", dir);
	sh("cp -a %s/efi-unit/usr/lib/systemd %s/efi-unit/usr/lib/dracut %s/usr/lib/ && "
	   "ln -s usr/lib/systemd/systemd %s/init", dir, dir, t, t);
	pack("efi-old", "efi-old.cpio", 0);
	r = unnamed_said("efi-old.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "its torpor-resume does not read it"),
	       "efi: a torpor-resume without the EFI marker: refused, said why");

	tree_efi("efi-dracut", 1);
	snprintf(t, sizeof(t), "%s/efi-dracut", dir);
	sh("printf '#!/bin/sh\\n' >%s/init && chmod 755 %s/init && "
	   "mkdir -p %s/usr/lib/dracut/hooks/pre-mount && touch %s/usr/lib/dracut/dracut-lib.sh && "
	   "printf 'torpor_pre_mount() {\\n    local _bin=%s\\n}\\n' "
	   ">%s/usr/lib/dracut/hooks/pre-mount/05-torpor-pre-mount.sh", t, t, t, t, bin, t);
	pack("efi-dracut", "efi-dracut-old.cpio", 0);
	r = unnamed_said("efi-dracut-old.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "its hook does not run torpor-resume without resume="),
	       "efi: an older dracut hook (returns without resume=): refused, said why");
	sh("printf '    [ -d /sys/firmware/efi/efivars ] || return 0\\n' "
	   ">>%s/usr/lib/dracut/hooks/pre-mount/05-torpor-pre-mount.sh", t);
	pack("efi-dracut", "efi-dracut.cpio", 0);
	r = unnamed_said("efi-dracut.cpio", out, sizeof(out));
	tap_ok(r == 1, "efi: this torpor's dracut hook: the variable will name the area (%d)", r);

	/* initramfs-tools: its RESUME= first, the EFI variable only where it does not name the area */
	tree_libexec("efi-itools", 1);
	snprintf(t, sizeof(t), "%s/efi-itools", dir);
	sh("printf '%s\\0' >>%s%s && printf '[ -d /sys/firmware/efi/efivars ] || exit 0\\n' "
	   ">>%s/scripts/local-top/torpor && mkdir -p %s/conf/conf.d && "
	   "printf 'RESUME=7:3\\n' >%s/conf/conf.d/resume", EFILOC_MARKER, t, bin, t, t, t);
	pack("efi-itools", "efi-itools.cpio", 0);
	r = unnamed_said("efi-itools.cpio", out, sizeof(out));
	tap_ok(r == 0, "efi: initramfs-tools' RESUME= names the area: it does, no EFI variable "
	       "(%d)", r);
	sh("printf 'RESUME=UUID=0b2c\\n' >%s/conf/conf.d/resume", t);
	pack("efi-itools", "efi-itools-other.cpio", 0);
	r = unnamed_said("efi-itools-other.cpio", out, sizeof(out));
	tap_ok(r == 1, "efi: initramfs-tools' RESUME= names another area: the EFI variable "
	       "will name it (%d)", r);
	sh("rm %s/conf/conf.d/resume", t);
	pack("efi-itools", "efi-itools-unset.cpio", 0);
	r = unnamed_said("efi-itools-unset.cpio", out, sizeof(out));
	tap_ok(r == 1, "efi: no RESUME=: the EFI variable will name the area (%d)", r);
	/* initramfs-tools' /init turns RESUME=none into noresume: the image would be discarded */
	sh("printf 'RESUME=none\\n' >%s/conf/conf.d/resume", t);
	pack("efi-itools", "efi-itools-none.cpio", 0);
	r = unnamed_said("efi-itools-none.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "names no resume device (RESUME=none)"),
	       "efi: initramfs-tools' RESUME=none (noresume at boot): refused, no EFI variable "
	       "(%d)", r);
	/* a RESUME= not read here may be none at boot: no EFI variable either */
	sh("printf '[ -e /x ] && RESUME=none\\n' >%s/conf/conf.d/resume", t);
	pack("efi-itools", "efi-itools-unsure.cpio", 0);
	r = unnamed_said("efi-itools-unsure.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "cannot be read here"),
	       "efi: initramfs-tools' RESUME= not read here (may be none): refused (%d)", r);

	/* the build check reads the tree being built: the same answer as for its image */
	sh("rm -f %s/conf/conf.d/resume", t);
	memset(&o, 0, sizeof(o));
	o.no_initramfs = 1;
	o.initramfs_tree = t;
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == 1, "efi: the tree being built, no RESUME=: the EFI variable will name the "
	       "area, as for its image (%d: %s)", r, out);
	sh("printf 'RESUME=none\\n' >%s/conf/conf.d/resume", t);
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "(RESUME=none)"),
	       "efi: the tree being built, RESUME=none: refused (%d)", r);
	/* the marker across two of the pieces torpor-resume is read in */
	sh("rm -f %s/conf/conf.d/resume && head -c 65530 /dev/zero >%s%s && printf '%s\\0' >>%s%s",
	   t, t, bin, EFILOC_MARKER, t, bin);
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == 1, "efi: the tree being built, the marker across a 64 KiB boundary (%d)", r);
	sh("head -c 65530 /dev/zero >%s%s", t, bin);
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "its torpor-resume does not read it"),
	       "efi: the tree being built, a torpor-resume without the marker: refused (%d)", r);
	sh("printf '%s\\0' >>%s%s && sed -i /efivars/d %s/scripts/local-top/torpor",
	   EFILOC_MARKER, t, bin, t);
	r = check_said(&o, 1, out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "its hook does not run torpor-resume without resume="),
	       "efi: the tree being built, an older boot script: refused, said why (%d)", r);

	efiwrite_dir = "/nonexistent/efivars";
	r = unnamed_said("efi-unit.cpio", out, sizeof(out));
	tap_ok(r == -EINVAL && strstr(out, "reads only the command line"),
	       "efi: no EFI: the same initramfs is refused as before");
	bin = saved;
}

static void test_find_boot(void)
{
	char root[128], buf[256], tried[2048], want[256];
	const char *rel = "6.8.0-1-amd64";

	snprintf(root, sizeof(root), "%s/esp", dir);
	/* a stale initramfs by the generators' name, which the boot loader does not load */
	sh("mkdir -p %s/boot/efi/EFI/Linux %s/etc/kernel && touch %s/boot/initramfs-%s.img && "
	   "echo 0123456789abcdef0123456789abcdef >%s/etc/machine-id", root, root, root, rel, root);
	tap_ok(initramfs_find(root, rel, "root=/dev/vda1 ro", buf, sizeof(buf), tried,
			      sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-6.8.0-1-amd64.img") &&
	       strstr(tried, "/boot/efi/EFI/Linux/*.efi"),
	       "find: no UKI nor kernel-install entry: the generators' name");
	/* kernel-install's type 1 layout, by machine ID, then by entry token */
	sh("mkdir -p %s/efi/0123456789abcdef0123456789abcdef/%s && "
	   "touch %s/efi/0123456789abcdef0123456789abcdef/%s/initrd", root, rel, root, rel);
	tap_ok(initramfs_find(root, rel, NULL, buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/efi/0123456789abcdef0123456789abcdef/6.8.0-1-amd64/"
		       "initrd"), "find: kernel-install's MACHINE-ID/RELEASE/initrd before it");
	sh("echo debian >%s/etc/kernel/entry-token && mkdir -p %s/boot/debian/%s && "
	   "touch %s/boot/debian/%s/initrd", root, root, rel, root, rel);
	tap_ok(initramfs_find(root, rel, NULL, buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/debian/6.8.0-1-amd64/initrd"),
	       "find: the entry token of /etc/kernel/entry-token first");
	/* UKIs: the one whose .uname is this release, before all of those */
	snprintf(buf, sizeof(buf), "%s/boot/efi/EFI/Linux/a-other.efi", root);
	make_uki(buf, "6.1.0-9-amd64", "good.cpio");
	snprintf(buf, sizeof(buf), "%s/boot/efi/EFI/Linux/b-this.EFI", root);
	make_uki(buf, rel, "good.cpio");
	snprintf(want, sizeof(want), "%s", buf);
	tap_ok(initramfs_find(root, rel, NULL, buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf, want), "find: the UKI whose .uname is the release, before all");
	/* without .uname: the release in the .linux kernel's boot header */
	sh("rm %s", want);
	snprintf(buf, sizeof(buf), "%s/boot/efi/EFI/Linux/c-nouname.efi", root);
	make_uki(buf, "", "good.cpio");
	tap_ok(initramfs_find(root, "6.1.0-other", NULL, buf, sizeof(buf), tried,
			      sizeof(tried)) == 0 && strstr(buf, "c-nouname.efi"),
	       "find: a UKI without .uname, by its kernel's boot header");
	/* GRUB names the kernel file: the initramfs beside it, not the UKIs */
	sh("touch %s/boot/initramfs-6.1.0-other.img", root);
	tap_ok(initramfs_find(root, "6.1.0-other", "BOOT_IMAGE=/vmlinuz-6.1.0-other ro", buf,
			      sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-6.1.0-other.img"),
	       "find: with BOOT_IMAGE= (GRUB) the file beside the kernel comes first");
}

/* A kernel file at @path whose x86 boot header names @release */
static void write_kernel(const char *path, const char *release)
{
	uint8_t k[4096];
	FILE *f;

	memset(k, 0x90, sizeof(k));
	memcpy(k + 0x202, "HdrS", 4);
	put_le16(k + 0x20e, 0x600);
	snprintf((char *)k + 0x800, 200, "%s (builder@host) #1 SMP PREEMPT_DYNAMIC", release);
	f = fopen(path, "wb");
	if (f) {
		fwrite(k, 1, sizeof(k), f);
		fclose(f);
	}
}

/* systemd-boot's type 1 entries (Arch's: vmlinuz-linux, initramfs-linux.img) */
static void test_find_entries(void)
{
	char root[128], buf[256], tried[2048], path[256];
	const char *rel = "6.8.1-arch1-1";

	snprintf(root, sizeof(root), "%s/sdboot", dir);
	sh("mkdir -p %s/boot/loader/entries %s/sys/firmware/efi/efivars && "
	   "touch %s/boot/amd-ucode.img %s/boot/initramfs-linux.img "
	   "%s/boot/initramfs-linux-fallback.img %s/boot/initramfs-linux-lts.img && "
	   "printf 'title Arch\nlinux /vmlinuz-linux\ninitrd /amd-ucode.img\n"
	   "initrd /initramfs-linux.img\noptions root=/dev/vda2 rw\n' "
	   ">%s/boot/loader/entries/arch.conf && "
	   "printf 'title Arch (fallback)\nlinux   /vmlinuz-linux\ninitrd  /initramfs-linux-fallback.img\n' "
	   ">%s/boot/loader/entries/arch-fallback.conf && "
	   "printf 'linux /vmlinuz-linux-lts\ninitrd /initramfs-linux-lts.img\n' "
	   ">%s/boot/loader/entries/a-lts.conf && "
	   "printf 'timeout 3\ndefault  arch.conf\n' >%s/boot/loader/loader.conf",
	   root, root, root, root, root, root, root, root, root, root);
	snprintf(path, sizeof(path), "%s/boot/vmlinuz-linux", root);
	write_kernel(path, rel);
	snprintf(path, sizeof(path), "%s/boot/vmlinuz-linux-lts", root);
	write_kernel(path, "6.6.20-1-lts");
	tap_ok(initramfs_find(root, rel, "root=/dev/vda2 rw", buf, sizeof(buf), tried,
			      sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-linux.img"),
	       "find: systemd-boot's default entry for this kernel: its last initrd");
	tap_ok(initramfs_find(root, "6.6.20-1-lts", NULL, buf, sizeof(buf), tried,
			      sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-linux-lts.img"),
	       "find: the entry whose kernel is of the release, not the default");
	/* the entry systemd-boot says it booted wins over the default */
	sh("printf '\\007\\0\\0\\0a\\0r\\0c\\0h\\0-\\0f\\0a\\0l\\0l\\0b\\0a\\0c\\0k\\0.\\0c\\0o\\0n\\0f\\0\\0\\0' "
	   ">'%s/sys/firmware/efi/efivars/LoaderEntrySelected-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f'",
	   root);
	tap_ok(initramfs_find(root, rel, NULL, buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-linux-fallback.img"),
	       "find: the entry systemd-boot booted (LoaderEntrySelected) first");
}

static void test_find(void)
{
	char root[128], buf[256], tried[512];

	snprintf(root, sizeof(root), "%s/root", dir);
	sh("mkdir -p %s/boot && touch %s/boot/initrd.img-6.1.0-9-amd64 "
	   "%s/boot/initramfs-linux.img %s/boot/initramfs-6.9.0-arch1.img", root, root, root, root);
	tap_ok(initramfs_find(root, "6.1.0-9-amd64", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-9-amd64 ro",
			      buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initrd.img-6.1.0-9-amd64"),
	       "find: Debian's initrd.img-RELEASE");
	tap_ok(initramfs_find(root, "6.9.0-arch1", "ro BOOT_IMAGE=(hd0,gpt1)/vmlinuz-linux rw",
			      buf, sizeof(buf), tried, sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-linux.img"),
	       "find: Arch's BOOT_IMAGE=/vmlinuz-linux boots initramfs-linux.img");
	tap_ok(initramfs_find(root, "6.9.0-arch1", NULL, buf, sizeof(buf), tried,
			      sizeof(tried)) == 0 &&
	       !strcmp(buf + strlen(root), "/boot/initramfs-6.9.0-arch1.img"),
	       "find: dracut's initramfs-RELEASE.img");
	tap_ok(initramfs_find(root, "7.0", "BOOT_IMAGE=/vmlinuz-other", buf, sizeof(buf), tried,
			      sizeof(tried)) == -ENOENT && strstr(tried, "initrd.img-other, ") &&
	       strstr(tried, "initramfs-7.0.img"), "find: none there, the paths tried listed: %s",
	       tried);
}

int main(void)
{
	struct initramfs_report rep;

	snprintf(dir, sizeof(dir), "/tmp/torpor-initramfs-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_cpio_tool();
	test_cpio_hand();
	test_pefile();
	if (have("cpio")) {
		test_verdicts();
		test_hosts();
		test_unit();
		test_unit_odd();
		test_links();
		test_version();
		test_compressed("gzip", "gzip", "gzip -c", "gzip");
		test_compressed("zstd", "zstd", "zstd -q -c", "zstd");
		test_compressed("xz", "xz", "xz -c --check=crc32", "xz");
		test_compressed("lzma", "unlzma", "xz -c --format=lzma", "lzma");
		test_compressed("bzip2", "bzip2", "bzip2 -c", "bzip2");
		test_compressed("lz4 (legacy)", "lz4", "lz4 -l -c", "lz4");
		test_compressed("lzop", "lzop", "lzop -c", "lzo");
		test_appended("zstd", "zstd -q -c");
		test_appended("xz", "xz -c --check=crc32");
		test_appended("gzip", "gzip -n -c");
		/* (zstd would read both: it decompresses xz too) */
		if (have("zstd") && have("xz")) {
			sh("xz -c --check=crc32 <%s/nohook.cpio >%s/two.img && "
			   "zstd -q -c <%s/hookonly.cpio >>%s/two.img", dir, dir, dir, dir);
			tap_ok(verdict("two.img", INITRAMFS_OK, &rep) && rep.tool_status == 0,
			       "initramfs: a zstd stream after an xz stream is read too");
		} else {
			skip("initramfs: a zstd stream after an xz stream", "zstd or xz");
		}
		test_failures();
		test_environment();
		test_uki();
		test_messages();
		test_unnamed();
		test_unnamed_efi();
		test_find_boot();
		test_find_entries();
	} else {
		skip("initramfs: every archive test", "cpio");
	}
	test_find();
	if (!getenv("KEEP"))
		sh("rm -rf %s", dir);
	return tap_done();
}
