// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-mountinfo.c - the mountinfo parser: fields, optional fields, escapes, mount
 * points of any length, malformed lines; the reader on files with long, unterminated,
 * bad and over-long lines, and on this machine's /proc/self/mountinfo; and what
 * torpor-suspend collects from it here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mountinfo.h"
#include "unescape.h"
#include "mounts.h"
#include "tap.h"

/* parse a copy of @text; the copy stays alive until the next call */
static int parse(const char *text, struct mountinfo_entry *e)
{
	static char *buf;

	free(buf);
	buf = strdup(text);
	if (!buf)
		return -ENOMEM;
	return mountinfo_parse_line(buf, e);
}

static void test_fields(void)
{
	struct mountinfo_entry e;

	tap_ok(parse("29 1 254:3 / / rw,relatime shared:1 - ext4 /dev/vda3 rw,errors=remount-ro\n",
		     &e) == 0 && e.id == 29 && e.parent == 1 && e.major == 254 && e.minor == 3 &&
	       !strcmp(e.root, "/") && !strcmp(e.mount_point, "/") &&
	       !strcmp(e.mount_opts, "rw,relatime") && !strcmp(e.optional, "shared:1") &&
	       !strcmp(e.fstype, "ext4") && !strcmp(e.source, "/dev/vda3") &&
	       !strcmp(e.super_opts, "rw,errors=remount-ro"), "mountinfo: every field of an ext4 line");
	tap_ok(parse("40 29 0:33 / /run rw - tmpfs tmpfs rw,size=1k", &e) == 0 && e.major == 0 &&
	       e.minor == 33 && !strcmp(e.optional, "") && !strcmp(e.fstype, "tmpfs") &&
	       !strcmp(e.source, "tmpfs") && !strcmp(e.super_opts, "rw,size=1k"),
	       "mountinfo: no optional fields, no final newline");
	tap_ok(parse("41 29 0:45 /@home /home rw shared:7 master:2 propagate_from:3 unbindable - "
		     "btrfs /dev/mapper/root rw,subvol=/@home\n", &e) == 0 &&
	       !strcmp(e.optional, "shared:7 master:2 propagate_from:3 unbindable") &&
	       !strcmp(e.root, "/@home") && !strcmp(e.fstype, "btrfs") &&
	       !strcmp(e.source, "/dev/mapper/root") && !strcmp(e.super_opts, "rw,subvol=/@home"),
	       "mountinfo: four optional fields, btrfs with an anonymous device");
	tap_ok(parse("42 29 0:50 / /mnt/x rw - tmpfs  rw\n", &e) == 0 && !strcmp(e.source, "") &&
	       !strcmp(e.super_opts, "rw"), "mountinfo: an empty source (mount -t tmpfs \"\")");
	tap_ok(parse("43 29 0:51 / /mnt/f rw,nosuid - fuse.sshfs me@host:/ rw,user_id=0\n", &e) == 0 &&
	       !strcmp(e.fstype, "fuse.sshfs") && !strcmp(e.source, "me@host:/"),
	       "mountinfo: a FUSE subtype");
	tap_ok(parse("4294967295 0 4095:1048575 / /x ro - ext4 /dev/sda1 ro\n", &e) == 0 &&
	       e.id == 4294967295u && e.major == 4095 && e.minor == 1048575,
	       "mountinfo: numbers up to UINT_MAX");
}

static void test_escapes(void)
{
	struct mountinfo_entry e;
	char s[] = "a\\040b\\011c\\012d\\134e\\08f\\x\\";

	tap_ok(unescape_octal(s) == 0 && !strcmp(s, "a b\tc\nd\\e\\08f\\x\\"),
	       "mountinfo: \\040 \\011 \\012 \\134 decoded, other backslashes kept");
	tap_ok(parse("50 29 8:1 /a\\040dir /mnt/my\\040disk\\040-\\040x rw - ext4 /dev/sd\\134b "
		     "rw\n", &e) == 0 && !strcmp(e.root, "/a dir") &&
	       !strcmp(e.mount_point, "/mnt/my disk - x") && !strcmp(e.source, "/dev/sd\\b") &&
	       !strcmp(e.fstype, "ext4") && !strcmp(e.super_opts, "rw"),
	       "mountinfo: an escaped \" - \" in a mount point is no separator");
	tap_ok(parse("51 29 8:1 / /mnt/a\\012b rw - ext4 /dev/sdb rw\n", &e) == 0 &&
	       !strcmp(e.mount_point, "/mnt/a\nb"), "mountinfo: an escaped newline");
	tap_ok(parse("52 29 8:1 / /mnt/a\\000b rw - ext4 /dev/sdb rw\n", &e) == -EINVAL,
	       "mountinfo: an escape that decodes to NUL is refused");
}

static void test_long(void)
{
	struct mountinfo_entry e;
	size_t lens[] = { 255, 256, 300, 5000, 70000 }, i, n;
	char *line, *mp;
	int ok;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		n = lens[i];
		mp = malloc(n + 1);
		line = malloc(n + 200);
		if (!mp || !line) {
			tap_ok(0, "mountinfo: memory");
			return;
		}
		memset(mp, 'm', n);
		mp[0] = '/';
		mp[n] = '\0';
		snprintf(line, n + 200, "60 29 8:2 / %s rw,noatime shared:3 - xfs /dev/sdc1 rw,attr2\n",
			 mp);
		ok = mountinfo_parse_line(line, &e) == 0 && strlen(e.mount_point) == n &&
		     !strcmp(e.mount_opts, "rw,noatime") && !strcmp(e.fstype, "xfs") &&
		     !strcmp(e.source, "/dev/sdc1") && !strcmp(e.super_opts, "rw,attr2");
		tap_ok(ok, "mountinfo: a mount point of %zu characters shifts no field", n);
		free(mp);
		free(line);
	}
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"",
		"\n",
		"garbage\n",
		"29 1 254:3 / / rw,relatime shared:1 ext4 /dev/vda3 rw\n",	/* no "-" */
		"29 1 254:3 / / rw - ext4 /dev/vda3\n",			/* no super options */
		"29 1 254:3 / / rw - ext4\n",
		"29 1 254:3 / / rw -\n",
		"29 1 254:3 / / rw - ext4 /dev/vda3 rw extra\n",
		"29 1 254:3 / /\n",
		"x29 1 254:3 / / rw - ext4 /dev/vda3 rw\n",
		"29 1 254 / / rw - ext4 /dev/vda3 rw\n",
		"29 1 254:x / / rw - ext4 /dev/vda3 rw\n",
		"29 1 254:3: / / rw - ext4 /dev/vda3 rw\n",
		"29 1 :3 / / rw - ext4 /dev/vda3 rw\n",
		"-29 1 254:3 / / rw - ext4 /dev/vda3 rw\n",
		"4294967296 1 254:3 / / rw - ext4 /dev/vda3 rw\n",
		"29 1 254:3 / / rw  - ext4 /dev/vda3 rw\n",		/* an empty optional field */
		"29 1 254:3 / / rw shared:1  - ext4 /dev/vda3 rw\n",
		"29  1 254:3 / / rw - ext4 /dev/vda3 rw\n",
		"29 1 254:3 / / rw -  /dev/vda3 rw\n",			/* an empty fstype */
		"29 1 254:3 / / rw - ext4 /dev/vda3 \n",		/* empty super options */
		"29 1 254:3 / / rw - ext\\000 /dev/vda3 rw\n",
	};
	struct mountinfo_entry e;
	size_t i;
	int all = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &e) != -EINVAL) {
			all = 0;
			tap_ok(0, "mountinfo: accepted malformed line %zu '%s'", i, bad[i]);
		}
	}
	tap_ok(all, "mountinfo: %zu malformed lines refused", i);
	tap_ok(parse("29 1 254:3 / / rw -x - ext4 /dev/vda3 rw\n", &e) == 0 &&
	       !strcmp(e.optional, "-x"), "mountinfo: an optional field starting with '-' is no separator");
}

static void test_options(void)
{
	tap_ok(mountinfo_has_option("rw,relatime", "rw") && mountinfo_has_option("ro,rw", "rw") &&
	       mountinfo_has_option("rw", "rw"), "mountinfo: rw found first, last, alone");
	tap_ok(!mountinfo_has_option("ro,relatime", "rw") && !mountinfo_has_option("rwx,ro", "rw") &&
	       !mountinfo_has_option("ro,xrw", "rw") && !mountinfo_has_option("", "rw"),
	       "mountinfo: rw not found in ro, rwx, xrw, nothing");
}

/* write @len bytes of @text to a new temporary file; its path in @path */
static int scratch(char *path, const char *text, size_t len)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void test_reader(void)
{
	char path[] = "/tmp/torpor-mountinfo-XXXXXX";
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	size_t biglen = MOUNTINFO_LINE_MAX + 10, longlen = 100000, off = 0;
	char *text = malloc(biglen + longlen + 1000);
	int r1, r2, r3, r4, r5, r6;
	unsigned int l4, l5;

	if (!text) {
		tap_ok(0, "reader: memory");
		return;
	}
	off += sprintf(text + off, "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n");
	off += sprintf(text + off, "2 1 0:5 / /l");
	memset(text + off, 'l', longlen);
	off += longlen;
	off += sprintf(text + off, " rw - tmpfs tmpfs rw\n");
	off += sprintf(text + off, "not a mountinfo line\n");
	off += sprintf(text + off, "3 1 0:6 / /h");
	memset(text + off, 'h', biglen);
	off += biglen;
	off += sprintf(text + off, " rw - tmpfs tmpfs rw\n");
	off += sprintf(text + off, "4 1 8:2 / /last rw - vfat /dev/sda2 rw");	/* no newline */
	if (scratch(path, text, off) < 0 || mountinfo_open(&rd, path) < 0) {
		tap_ok(0, "reader: scratch file");
		free(text);
		return;
	}
	r1 = mountinfo_next(&rd, &e);
	tap_ok(r1 == 1 && e.id == 1 && !strcmp(e.source, "/dev/sda1") && rd.lineno == 1,
	       "reader: first line");
	r2 = mountinfo_next(&rd, &e);
	tap_ok(r2 == 1 && e.id == 2 && strlen(e.mount_point) == longlen + 2 &&
	       !strcmp(e.fstype, "tmpfs"), "reader: a line of %zu bytes", longlen);
	r3 = mountinfo_next(&rd, &e);
	tap_ok(r3 == -EINVAL && rd.lineno == 3, "reader: a malformed line is -EINVAL, line 3 (%d)",
	       r3);
	r4 = mountinfo_next(&rd, &e);
	l4 = rd.lineno;
	tap_ok(r4 == -E2BIG && l4 == 4, "reader: a line over %u bytes is -E2BIG, line %u",
	       MOUNTINFO_LINE_MAX, l4);
	r5 = mountinfo_next(&rd, &e);
	l5 = rd.lineno;
	tap_ok(r5 == 1 && e.id == 4 && !strcmp(e.mount_point, "/last") && !strcmp(e.super_opts, "rw") &&
	       l5 == 5, "reader: then the last line, without its newline");
	r6 = mountinfo_next(&rd, &e);
	tap_ok(r6 == 0 && mountinfo_next(&rd, &e) == 0, "reader: then the end, twice");
	mountinfo_close(&rd);
	unlink(path);
	free(text);

	tap_ok(mountinfo_open(&rd, "/nonexistent/mountinfo") == -ENOENT, "reader: a missing file");
	mountinfo_close(&rd);
}

static void test_proc(void)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	int r, n = 0, bad = 0, root = 0;

	if (mountinfo_open(&rd, MOUNTINFO_PATH) < 0) {
		tap_ok(0, "reader: open %s", MOUNTINFO_PATH);
		return;
	}
	while ((r = mountinfo_next(&rd, &e)) != 0) {
		if (r < 0) {
			bad++;
			continue;
		}
		n++;
		root |= !strcmp(e.mount_point, "/");
	}
	mountinfo_close(&rd);
	tap_ok(n > 0 && !bad && root, "reader: this machine's mountinfo: %d mounts, / among them, "
	       "%d bad lines", n, bad);
}

static void test_collect(void)
{
	struct mounts m;
	uint32_t i;
	int r, ok = 1;

	r = mounts_collect(&m);
	for (i = 0; i < m.nr_sync; i++)
		ok &= m.sync[i].fd >= 0 && m.sync[i].fstype[0] && m.sync[i].where[0] == '/' &&
		      strncmp(m.sync[i].fstype, "fuse", 4) != 0;
	for (i = 0; i < m.nr_unstamped; i++)
		ok &= m.unstamped[i].fd < 0 && m.unstamped[i].err < 0;
	tap_ok(r == 0 && ok && !m.bad_line, "mounts: this machine: %u stamps, %u unstamped, %u to "
	       "sync, %u not", m.nr_fs, m.nr_unstamped, m.nr_sync, m.nr_unsynced);
	mounts_release(&m);
	tap_ok(!m.fs && !m.sync && !m.nr_sync, "mounts: released");
}

int main(void)
{
	test_fields();
	test_escapes();
	test_long();
	test_malformed();
	test_options();
	test_reader();
	test_proc();
	test_collect();
	return tap_done();
}
