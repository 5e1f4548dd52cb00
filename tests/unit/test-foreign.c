// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-foreign.c - a filesystem torpor-suspend cannot see is never taken for none
 *
 * mounts_foreign() fails closed: a mountinfo line that did not parse, a /sys/fs
 * that is not sysfs (a chroot's empty /sys) or that is missing are errors, not
 * "nothing foreign".  mounts_check_sysfs() tells sysfs from another filesystem,
 * mounts_chrooted() a chroot from init's root.  On this machine, an empty list
 * of known devices makes every ext4/xfs/btrfs listed in /sys/fs foreign.  In a
 * chroot without /sys or /proc (as root, or in a user namespace of our own),
 * both refuse.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mounts.h"
#include "tap.h"

/* How many entries of /sys/fs/@type are block devices (what mounts_foreign() sees). */
static int count_devices(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "/sys/class/block/%s/dev", d->d_name) <
		    (int)sizeof(path) && access(path, F_OK) == 0)
			n++;
	closedir(dp);
	return n;
}

static int count_btrfs(void)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp = opendir("/sys/fs/btrfs");
	int n = 0;

	if (!dp)
		return 0;
	while ((d = readdir(dp)))
		if (strlen(d->d_name) == 36 &&
		    snprintf(path, sizeof(path), "/sys/fs/btrfs/%s/devices", d->d_name) <
		    (int)sizeof(path))
			n += count_devices(path) > 0;
	closedir(dp);
	return n;
}

static void test_checks(void)
{
	char tmp[] = "/tmp/test-foreign.XXXXXX";
	int sysfs = mounts_check_sysfs("/sys/fs");

	tap_ok(sysfs == 0, "sysfs: /sys/fs is sysfs here (%d)", sysfs);
	if (!mkdtemp(tmp)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	tap_ok(mounts_check_sysfs(tmp) == -EMEDIUMTYPE, "sysfs: a plain directory is not sysfs");
	tap_ok(mounts_check_sysfs("/nonexistent/sys/fs") == -ENOENT, "sysfs: a missing one is an error");
	tap_ok(mounts_chrooted("/", "/") == 0, "chroot: / against itself is no chroot");
	tap_ok(mounts_chrooted("/", tmp) == 1, "chroot: another directory as init's root is a chroot");
	tap_ok(mounts_chrooted("/", "/nonexistent/proc/1/root") == -ENOENT,
	       "chroot: an init root that cannot be stat'ed is an error, not 'no chroot'");
	rmdir(tmp);
}

static void test_foreign_here(void)
{
	struct mounts m;
	char name[NAME_MAX + 1] = "";
	const char *type = NULL;
	int want, r;

	/* nothing known: every ext4, xfs and btrfs the kernel lists is foreign */
	memset(&m, 0, sizeof(m));
	want = count_devices("/sys/fs/ext4") + count_devices("/sys/fs/xfs") + count_btrfs() > 0;
	r = mounts_foreign(&m, name, sizeof(name), &type);
	tap_ok(r == want && (!want || (name[0] && type)),
	       "foreign: with no device known, %s (got %d: %s %s)",
	       want ? "the first filesystem in /sys/fs is foreign" : "nothing is listed",
	       r, name, type ? type : "-");
	m.bad_line = 3;
	r = mounts_foreign(&m, name, sizeof(name), &type);
	tap_ok(r == -EBADMSG, "foreign: a mountinfo line that did not parse is an error (%d)", r);

	/* everything this namespace mounts, known: whatever the answer, it is one */
	r = mounts_collect(&m);
	tap_ok(r == 0, "foreign: mounts_collect here (%d)", r);
	r = mounts_foreign(&m, name, sizeof(name), &type);
	tap_ok(r == 0 || r == 1, "foreign: this machine's mounts give an answer (%d%s%s)", r,
	       r == 1 ? ", foreign: " : "", r == 1 ? name : "");
	mounts_release(&m);
}

/* In the child: chroot into an empty directory; 0, or the failed step. */
static int in_chroot(const char *dir)
{
	struct mounts m;
	char name[NAME_MAX + 1];
	const char *type;
	int r;

	if (geteuid() != 0 && unshare(CLONE_NEWUSER) < 0)
		return 70;	/* no way to chroot: skipped */
	if (chroot(dir) < 0 || chdir("/") < 0)
		return 70;
	memset(&m, 0, sizeof(m));
	r = mounts_foreign(&m, name, sizeof(name), &type);
	if (r != -ENOENT)
		return 1;	/* no /sys: an error, never "nothing foreign" */
	r = mounts_chrooted("/", "/proc/1/root");
	if (r != -ENOENT)
		return 2;	/* no /proc: cannot tell, so an error */
	return 0;
}

static void test_chroot(void)
{
	char tmp[] = "/tmp/test-foreign.XXXXXX";
	int st = -1;
	pid_t pid;

	if (!mkdtemp(tmp)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(in_chroot(tmp));
	if (pid > 0)
		waitpid(pid, &st, 0);
	rmdir(tmp);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 70) {
		tap_ok(1, "# SKIP chroot: neither root nor a user namespace of our own");
		return;
	}
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "chroot without /sys and /proc: mounts_foreign and mounts_chrooted both refuse "
	       "(failed step: %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(void)
{
	test_checks();
	test_foreign_here();
	test_chroot();
	return tap_done();
}
