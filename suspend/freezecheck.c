// SPDX-License-Identifier: GPL-2.0-only
/*
 * freezecheck.c - what would stop the freeze or the way down, seen before
 * anything is frozen: a reader stuck in the kernel, /dev/snapshot's node and
 * state (--check), the power-off modes the firmware offers
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "config.h"
#include "devname.h"
#include "freezecheck.h"
#include "hibsay.h"
#include "msg.h"
#include "snapshot.h"
#include "util.h"

/* Does the sysfs file @path list @word ("[word]" when it is the current one)? */
static int sysfs_lists(const char *path, const char *word)
{
	char buf[256], *p;
	size_t len = strlen(word);
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = strtok(buf, " \n[]"); p; p = strtok(NULL, " \n[]"))
		if (strlen(p) == len && !memcmp(p, word, len))
			return 1;
	return 0;
}

/*
 * freezecheck_poweroff_mode() - platform and hybrid need the firmware's S4 and
 * S3: say beforehand when they are missing (warnings)
 */
void freezecheck_poweroff_mode(const struct hib_opts *o)
{
	if (o->poweroff == CONFIG_POWEROFF_PLATFORM && !sysfs_lists("/sys/power/disk", "platform"))
		msg_warn("--poweroff=platform: the firmware offers no ACPI S4 ('platform' is not "
			 "in /sys/power/disk): torpor-suspend will power off as with shutdown");
	if (o->poweroff == CONFIG_POWEROFF_HYBRID && !sysfs_lists("/sys/power/mem_sleep", "deep"))
		msg_warn("--poweroff=hybrid: this machine has no suspend to RAM (S3, 'deep' in "
			 "/sys/power/mem_sleep): torpor-suspend will power off after saving, as "
			 "with shutdown");
}

/**
 * freezecheck_snapshot_state() - can /dev/snapshot be used?  Its node and the
 * kernel's state, without opening it (so no root needed).
 * Return: 0; -ENOENT when there is no /dev/snapshot node; -EPERM when the kernel
 * disabled hibernation ("[disabled]" in /sys/power/disk).  Prints nothing.
 */
int freezecheck_snapshot_state(void)
{
	char state[64] = "";
	struct stat st;
	int fd, n;

	if (stat(SNAPSHOT_PATH, &st) < 0 || !S_ISCHR(st.st_mode))
		return -ENOENT;
	fd = open("/sys/power/disk", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : (int)read(fd, state, sizeof(state) - 1);
	if (fd >= 0)
		close(fd);
	if (n > 0 && strstr(state, "[disabled]"))
		return -EPERM;
	return 0;
}

/**
 * freezecheck_snapshot_node() - --check: freezecheck_snapshot_state(), told
 * Return: 0, or -errno (reported).
 */
int freezecheck_snapshot_node(void)
{
	int r = freezecheck_snapshot_state();

	if (r < 0)
		hibsay_open_error(r);
	return r;
}

/* How long the readers killed at a deadline have to end before the freeze. */
#define STUCK_WAIT_MS	1000

/*
 * freezecheck_stuck_readers() - a reader that the lookups killed at its
 * deadline (a device that does not answer) and that lives on is asleep in the
 * kernel until that device answers (devname_stuck()): SNAPSHOT_FREEZE's sync
 * would wait for it, for ever if the device never answers, and the freezer
 * could not freeze it.  Refused now, before anything is frozen, saying why.
 * One killed a moment ago is given STUCK_WAIT_MS to end.
 * Return: 0, or -EBUSY (reported).
 */
int freezecheck_stuck_readers(void)
{
	char name[64];
	size_t n;
	dev_t dev = 0;
	pid_t pid = 0;

	n = devname_stuck(STUCK_WAIT_MS, &dev, &pid);
	if (n == 0)
		return 0;
	devname_name(dev, name, sizeof(name));
	msg_error("cannot hibernate: process %d, which torpor-suspend started to read %s, is "
		  "stuck waiting for it (%s did not answer), and the kernel cannot freeze a "
		  "process in that state%s", (int)pid, name, name,
		  n > 1 ? "; so are others, for other devices" : "");
	msg_hint("hibernate again once %s answers or is removed and process %d has ended ('ps "
		 "-o pid,stat,wchan -p %d' shows it in state D until then)", name, (int)pid,
		 (int)pid);
	return -EBUSY;
}

/**
 * freezecheck_ready() - --check: what the hibernation would meet at the freeze
 * and after it, then "ready to hibernate" into @t
 * Return: 0, or -errno (reported).
 */
int freezecheck_ready(const struct hib_opts *o, const struct hib_target *t)
{
	int r;

	r = freezecheck_snapshot_node();
	if (r == 0)
		freezecheck_poweroff_mode(o);
	if (r == 0 && t->is_file)
		msg_info("ready to hibernate to swap file '%s' on %s (%llu MiB): "
			 "resume_offset=%llu", t->swap_path, t->dev_name, MIB(t->swap_bytes),
			 (unsigned long long)t->offset_pages);
	else if (r == 0)
		msg_info("ready to hibernate to swap partition '%s' on %s (%llu MiB)",
			 t->swap_path, t->dev_name, MIB(t->swap_bytes));
	return r;
}
