// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostcheck.c - does torpor-suspend run on the host: in init's PID and mount
 * namespace, under init's root (hibernate_check_namespaces(), hibernate.h)
 *
 * In a container the power-off ends only the container (the kernel's reboot()
 * in a child PID namespace kills its init and us at once): closing
 * /dev/snapshot would then thaw a machine whose swap header names the image.
 * And a mount namespace of our own, or a chroot, hides filesystems we must sync
 * and stamp.  Each check fails closed: what cannot be verified is refused.  A
 * root shell on the host reads /proc/1/ns/mnt and /proc/1/root; where they are
 * hidden (an LSM, a sandbox, no /proc) we are in the very place these checks
 * are for.  Only the test build may go on past an EACCES (testhook.h).
 */
#include <errno.h>
#include <sys/stat.h>

#include "hibernate.h"
#include "mounts.h"
#include "msg.h"
#include "testhook.h"

#define PROC_PID_INIT_INO	0xEFFFFFFCu

/* The namespace or root @what could not be compared: -errno @r from @path. */
static int say_unverified(const char *what, const char *path, int r)
{
	if ((r == -EACCES || r == -EPERM) && testhook_ns_unreadable(path))
		return 0;
	msg_error("cannot tell whether torpor-suspend runs %s: '%s': %s", what, path,
		  msg_errname(r));
	if (r == -ENOENT)
		msg_hint("mount /proc ('mount -t proc proc /proc') and run torpor-suspend on the "
			 "host, outside any chroot or container");
	else
		msg_hint("run torpor-suspend as root on the host, outside any container, chroot "
			 "or sandbox (one that hides init's /proc entries is refused too)");
	return r;
}

static int same_mount_ns(void)
{
	struct stat self, init;

	if (stat("/proc/self/ns/mnt", &self) < 0)
		return say_unverified("in init's mount namespace", "/proc/self/ns/mnt", -errno);
	if (stat("/proc/1/ns/mnt", &init) < 0)
		return say_unverified("in init's mount namespace", "/proc/1/ns/mnt", -errno);
	if (self.st_ino != init.st_ino || self.st_dev != init.st_dev) {
		msg_error("torpor-suspend runs in a mount namespace other than init's: it "
			  "would not see every mounted filesystem to sync and guard");
		msg_hint("run torpor-suspend in the host's mount namespace (not from a "
			 "service with PrivateMounts= or a container)");
		return -EPERM;
	}
	return 0;
}

/**
 * hibernate_check_namespaces() - refuse in a container, another mount namespace
 * or a chroot, or where that cannot be told
 * Return: 0, or -errno (reported).
 */
int hibernate_check_namespaces(void)
{
	struct stat self;
	int r;

	if (stat("/proc/self/ns/pid", &self) < 0) {
		r = say_unverified("in a PID namespace of its own", "/proc/self/ns/pid", -errno);
		if (r < 0)
			return r;
	} else if (self.st_ino != PROC_PID_INIT_INO) {
		msg_error("torpor-suspend runs in a PID namespace of its own (a container): "
			  "powering off there would end only the container");
		msg_hint("run torpor-suspend on the host, outside any container");
		return -EPERM;
	}
	/* before the mount namespace: a chroot made in one of its own is named as such */
	r = mounts_chrooted("/", "/proc/1/root");
	if (r < 0)
		r = say_unverified("in a chroot", "/proc/1/root", r);
	if (r < 0)
		return r;
	if (r == 1) {
		msg_error("torpor-suspend runs in a chroot (its / is not init's): filesystems "
			  "mounted outside it would be neither synced nor guarded");
		msg_hint("run torpor-suspend outside the chroot, in the host's own root");
		return -EPERM;
	}
	return same_mount_ns();
}
