// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootargs.c - torpor-resume's arguments and the kernel command line, merged
 * into the options of restore_run(), which it calls (the rules: main.c)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <sys/vfs.h>

#include "bootargs.h"
#include "cmdline.h"
#include "decimal.h"
#include "efiloc.h"
#include "image.h"
#include "msg.h"
#include "restore.h"
#include "version.h"

#define DEFAULT_WAIT 5
#define EFIVARFS_MAGIC 0xde5e81e4u

static void usage(void)
{
	printf("usage: torpor-resume [--device=DEV] [--offset=N] [--wait=SECONDS]\n"
	       "                     [--noresume] [--force] [-v]\n"
	       "       torpor-resume --dump [DEV] [--offset=N] [-v]\n"
	       "       torpor-resume --help | --version\n"
	       "Restore a torpor hibernation image; run from the initramfs.\n"
	       "Defaults come from resume=, resume_offset=, noresume, torpor.wait=,\n"
	       "torpor.force and torpor.debug on the kernel command line; a malformed\n"
	       "one (or --offset/--wait value) discards the image instead of restoring it.\n"
	       "Without resume=, the EFI variable TorporHibernateLocation that\n"
	       "torpor-suspend wrote names the device and offset; it is used once.\n"
	       "--dump describes the image on DEV (else the resume device) and changes\n"
	       "nothing.\n");
}

/* A usage error, already named on its own line: the pointer to --help; returns 2. */
static int try_help(void)
{
	fputs("Try 'torpor-resume --help' for more information.\n", stderr);
	return 2;
}

/* What the arguments gave, so that /proc/cmdline fills in only the rest. */
struct given {
	int device, offset, wait;
	int help;			/* --help or --version: printed, exit 0 */
	const char *dev_arg[2];		/* the first two devices named (--device, --dump DEV) */
	int offset_bad;			/* --offset was malformed */
	const char *malformed;		/* the first malformed argument, NULL if none */
};

static int parse_num(const char *s, unsigned long long max, unsigned long long *ret)
{
	return decimal_parse(s, strlen(s), max, ret);
}

/* A device named by --device= or --dump DEV: the last one is used */
static void name_device(const char *dev, struct restore_opts *o, struct given *g)
{
	if (!g->dev_arg[0])
		g->dev_arg[0] = dev;
	else if (!g->dev_arg[1])
		g->dev_arg[1] = dev;
	snprintf(o->device, sizeof(o->device), "%s", dev);
	g->device = 1;
}

/* --dump's device (--dump=DEV, or the word after --dump); 0, or 2 for a usage error. */
static int dump_device(const char *dev, struct restore_opts *o, struct given *g)
{
	if (!dev[0] || strlen(dev) >= sizeof(o->device)) {
		msg_error("invalid device '%s' for --dump", dev);
		return 2;
	}
	name_device(dev, o, g);
	return 0;
}

/* After the arguments: modes that cannot go together; 0, or 2 (reported). */
static int check_modes(const struct restore_opts *o, const struct given *g)
{
	/* in either order: --dump describes one device (the boot takes the last --device) */
	if (o->dump && g->dev_arg[1]) {
		msg_error("two devices to dump: '%s' and '%s'", g->dev_arg[0], g->dev_arg[1]);
		return 2;
	}
	if (o->dump && o->noresume) {
		msg_error("--dump and --noresume cannot be given together: --dump changes nothing");
		return 2;
	}
	if (g->malformed && o->dump) {
		msg_error("invalid argument '%s'", g->malformed);
		return 2;
	}
	return 0;
}

/* Returns 0, 2 for a usage error (reported), or sets g->help after --help or --version. */
static int parse_args(int argc, char **argv, struct restore_opts *o, struct given *g)
{
	unsigned long long v;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--device=", 9)) {
			name_device(a + 9, o, g);
		} else if (!strncmp(a, "--offset=", 9)) {
			/* hooks pass resume_offset= on: a bad one is a doubt, not a usage error */
			if (parse_num(a + 9, ULLONG_MAX, &v) == 0) {
				o->offset = v;
				g->offset = 1;
			} else {
				g->offset_bad = 1;
				if (!g->malformed)
					g->malformed = a;
			}
		} else if (!strncmp(a, "--wait=", 7)) {
			/* as torpor.wait=: the dracut hook passes what is left of it */
			if (parse_num(a + 7, INT_MAX, &v) == 0) {
				o->wait_seconds = (int)v;
				g->wait = 1;
			} else if (!g->malformed) {
				g->malformed = a;
			}
		} else if (!strcmp(a, "--noresume")) {
			o->noresume = 1;
		} else if (!strcmp(a, "--force")) {
			o->force = 1;
		} else if (!strcmp(a, "--dump")) {
			o->dump = 1;
			/* --dump DEV: the next word, unless it is an option */
			if (i + 1 < argc && argv[i + 1][0] != '-' &&
			    dump_device(argv[++i], o, g))
				return 2;
		} else if (!strncmp(a, "--dump=", 7)) {
			o->dump = 1;
			if (dump_device(a + 7, o, g))
				return 2;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			msg_set_debug(1);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			g->help = 1;
			return 0;
		} else if (!strcmp(a, "--version")) {
			puts(VERSION_LINE("torpor-resume"));
			g->help = 1;
			return 0;
		} else {
			msg_error("%s '%s'", a[0] == '-' ? "unknown option" : "unexpected argument",
				  a);
			return 2;
		}
	}
	return check_modes(o, g);
}

/* resume= and resume_offset= where the arguments leave them out, or name another area */
static void take_resume(const struct torpor_cmdline *cl, struct restore_opts *o,
			const struct given *g)
{
	if (cl->resume[0]) {
		/*
		 * The kernel command line as the kernel reads it (and torpor-suspend,
		 * which wrote the image there) wins over the hook's --device and
		 * --offset: its shell keeps quotes, reads past "--" and may add a
		 * configured RESUME=.  A different area the hook names is discarded.
		 */
		uint64_t off = cl->has_resume_offset ? cl->resume_offset : 0;

		if ((g->device && strcmp(o->device, cl->resume)) || (g->offset && o->offset != off)) {
			snprintf(o->other_device, sizeof(o->other_device), "%s",
				 g->device ? o->device : cl->resume);
			o->other_offset = g->offset ? o->offset : off;
		}
		snprintf(o->device, sizeof(o->device), "%s", cl->resume);
		o->offset = off;
	} else if (!g->offset && cl->has_resume_offset) {
		o->offset = cl->resume_offset;
	}
}

/*
 * Is efivarfs mounted on @dir?  If not, mount it (the initramfs has none).
 * Without @mount_it (tests) @dir is taken as it is.  0, or -errno.
 */
static int efivars_ready(const char *dir, int mount_it)
{
	struct statfs st;

	if (statfs(dir, &st) < 0)
		return -errno;	/* no /sys/firmware/efi: not an EFI boot */
	if (!mount_it || (unsigned int)st.f_type == EFIVARFS_MAGIC)
		return 0;
	if (mount("efivarfs", dir, "efivarfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -errno;
	return 0;
}

/*
 * No resume= on the command line: torpor-suspend may have named the area in
 * its EFI variable.  It is read once and removed before it is used, whatever
 * comes next (a restore, a discard, noresume, a missing device), so that no
 * later boot meets it.  It counts as resume= and resume_offset= would, over
 * the hook's --device and --offset; written by another kernel, its image is
 * discarded, unless torpor.force (then the image's own kernel check decides, as
 * on the resume= path).  Everything it says is checked (efiloc_decode()).
 */
static void take_efi(const struct bootargs_env *env, struct restore_opts *o,
		     const struct given *g)
{
	static char reason[200];
	struct utsname u;
	struct efiloc l;
	char spec[sizeof(o->device)];
	int r, rm;

	r = efivars_ready(env->efivars_dir, env->mount_efivars);
	if (r < 0) {
		/* not an EFI boot, or no efivarfs in this kernel: nothing to read */
		msg_debug("no resume=, and no efivarfs at %s: %s", env->efivars_dir,
			  msg_errname(r));
		return;
	}
	r = efiloc_read(env->efivars_dir, &l);
	if (r == -ENOENT) {
		msg_debug("no resume= and no EFI variable %s", EFILOC_NAME);
		return;
	}
	rm = r == 0 || r == -EMSGSIZE || r == -EBADMSG || r == -EPROTO ?
	     efiloc_remove(env->efivars_dir) : 0;
	if (rm < 0)
		msg_error("cannot remove EFI variable '%s': %s", EFILOC_NAME, msg_errname(rm));
	if (r == 0)
		r = efiloc_spec(&l, spec, sizeof(spec));
	if (r < 0) {
		msg_error("ignoring EFI variable '%s': %s, continuing boot", EFILOC_NAME,
			  r == -EPROTO ? "written by another torpor version" :
			  r == -EMSGSIZE ? "not the size of a torpor hibernation location" :
			  r == -EBADMSG ? "not a valid torpor hibernation location" :
			  msg_errname(r));
		return;
	}
	if ((g->device && strcmp(o->device, spec)) || (g->offset && o->offset != l.offset_pages)) {
		snprintf(o->other_device, sizeof(o->other_device), "%s",
			 g->device ? o->device : spec);
		o->other_offset = g->offset ? o->offset : l.offset_pages;
	}
	snprintf(o->device, sizeof(o->device), "%s", spec);
	o->offset = l.offset_pages;
	msg_debug("EFI variable %s names %s, offset %llu, kernel %s", EFILOC_NAME, spec,
		  (unsigned long long)l.offset_pages, l.release);
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	/* as on the resume= path, torpor.force leaves the kernel to the image's own check */
	if (strcmp(u.release, l.release) && o->force) {
		msg_debug("the EFI variable says kernel %s, this is %s: torpor.force, the "
			  "image's own kernel check decides", l.release, u.release);
	} else if (strcmp(u.release, l.release)) {
		snprintf(reason, sizeof(reason), "the hibernation was made by kernel %s (EFI "
			 "variable), this is %s", l.release, u.release);
		if (!o->discard_reason)
			o->discard_reason = reason;
	}
}

/* Fill in what the arguments left out from the command line; returns why not to restore. */
static const char *merge_cmdline(int r, const struct torpor_cmdline *cl, struct restore_opts *o,
				 const struct given *g)
{
	if (r < 0) {
		msg_error("cannot read /proc/cmdline: %s", msg_errname(r));
		return "kernel command line unreadable";
	}
	if (cl->noresume)
		o->noresume = 1;
	/* --dump DEV inspects DEV: the command line names the running system's own area */
	if (!o->dump || !g->device)
		take_resume(cl, o, g);
	if (!g->wait && cl->wait_seconds >= 0)
		o->wait_seconds = cl->wait_seconds;
	if (cl->debug)
		msg_set_debug(1);
	if (g->malformed) {
		msg_error("malformed argument '%s': not a number", g->malformed);
		return "malformed argument";
	}
	if (cl->malformed_why) {
		msg_error("malformed kernel parameter '%s': %s", cl->malformed, cl->malformed_why);
		msg_hint("correct it on the kernel command line (in the boot loader)");
		return "malformed kernel command line";
	}
	/* --force, like a restore, only when every parameter is well formed */
	if (cl->force)
		o->force = 1;
	return NULL;
}

/**
 * bootargs_main() - torpor-resume's main(), the kernel command line and EFI
 * variable read where @env says
 * Return: its exit status.
 */
int bootargs_main(int argc, char **argv, const struct bootargs_env *env)
{
	struct restore_opts o;
	struct torpor_cmdline cl;
	struct given g;
	int r;

	memset(&o, 0, sizeof(o));
	memset(&g, 0, sizeof(g));
	memset(&cl, 0, sizeof(cl));
	o.wait_seconds = -1;
	msg_init(1);
	r = parse_args(argc, argv, &o, &g);
	if (r)
		return try_help();
	if (g.help)
		return 0;
	/* at boot, the version heads whatever is said (nothing when there is no image) */
	msg_set_banner(o.dump ? NULL : VERSION_LINE("torpor-resume"));
	r = cmdline_read(env->cmdline_path, &cl);
	o.discard_reason = merge_cmdline(r, &cl, &o, &g);
	if (!cl.resume[0] && !o.dump && env->efivars_dir)
		take_efi(env, &o, &g);
	if (o.wait_seconds < 0)
		o.wait_seconds = DEFAULT_WAIT;
	if (o.discard_reason && !o.device[0] && !o.dump) {
		msg_warn("no resume device known (no --device, no well-formed resume=): "
			 "no image can be discarded, continuing boot");
		msg_flush();
		return 0;
	}
	r = restore_run(&o);
	/*
	 * A malformed offset was read as the kernel reads it (its leading digits);
	 * the image may as well be at the start of a swap partition: discard there too.
	 */
	if (o.discard_reason && !o.dump && o.offset && !g.offset &&
	    (g.offset_bad || cl.resume_offset_bad)) {
		o.offset = 0;
		o.wait_seconds = 0;
		restore_run(&o);
	}
	msg_flush();
	/* the boot always goes on; only --dump reports failure in its status */
	return o.dump && r < 0 ? 1 : 0;
}
