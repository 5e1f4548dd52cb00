// SPDX-License-Identifier: GPL-2.0-only
/*
 * torpor-suspend - hibernate this machine into its swap area
 *
 * Usage: torpor-suspend [--config=FILE] [--resume=DEV] [--resume-offset=N]
 *                       [--poweroff=MODE] [--reboot] [--image-size=SIZE]
 *                       [--[no-]progress] [--check] [--print-cmdline] [-v]
 *                       [--image-file=PATH] [--setup-image-file[=SIZE]]
 *                       [--[no-]discard-after-resume] [--[no-]warm-back]
 *                       [--initramfs=PATH] [--no-initramfs [--initramfs-tree=DIR]]
 *        torpor-suspend --status [--json]
 *        torpor-suspend --help | --version
 *
 * Steps:
 *  1. resolve everything first: the settings (arguments, else the configuration
 *     file, SYSCONFDIR/torpor.conf or --config=, where any wrong line is an
 *     error, exit 1), the resume device and offset (arguments, else the file,
 *     else resume= / resume_offset= from /proc/cmdline, where a malformed one is
 *     an error, exit 1, else, without noresume, initramfs-tools' RESUME= in the
 *     initramfs the next boot runs: areacheck.c), the active swap area there,
 *     the swap header page, the initramfs the next boot runs (it must hold a
 *     torpor-resume of this image format and its hook: initramfs.h), this
 *     kernel's identity; allocate every buffer;
 *     before the device, refuse in a container, another mount namespace or a
 *     chroot, or where that cannot be told (hibernate.c);
 *  2. mlockall(), open /dev/snapshot read-only, SET_SWAP_AREA, FREEZE,
 *     CREATE_IMAGE;
 *  3. CREATE_IMAGE said 1: write the image (data, meta, flush, root, flush) and
 *     power off (or reboot, or ACPI S4; or hybrid: suspend to RAM, and on the
 *     wake-up put the swap header back, flush, thaw, exit 0);  it said 0: we
 *     were just restored: FREE, UNFREEZE, report, exit 0;
 *  4. any failure before power-off: discard what was written, unfreeze, say
 *     what failed, exit 1.  So does SIGINT, SIGTERM, SIGHUP or SIGQUIT, or Esc
 *     on a console, VT or serial line (not a pseudo-terminal), before the root
 *     record is written; after it they are ignored and every other signal is
 *     blocked.  SIGTSTP, SIGTTIN and SIGTTOU are blocked.  Exit 2 is a usage error
 *     (one line naming it, then a pointer to --help): an unknown option, a bad
 *     value, or two of the modes --check, --print-cmdline, --setup-image-file.
 * --print-cmdline stops after step 1, without the namespace and chroot checks
 * (it only prints), and prints the resume= parameters that name the swap area
 * (printcmd.c); --check stops after step 1 too.  Run by an ordinary user,
 * --check makes the checks that need no root, names the others and exits 1
 * (usercheck.c).  --status tells the setup's facts and the first problem, read
 * only and for any user (status.h), and exits 0 when ready, else 1.
 * With an image file (image_file in the file, or --image-file=), the resume
 * device and offset are the file's, and it is swap only around steps 1-4
 * (imagefile.c); --setup-image-file makes it and prints its resume= line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmdline.h"
#include "config.h"
#include "decimal.h"
#include "devname.h"
#include "hibernate.h"
#include "decompress.h"
#include "imagefile.h"
#include "msg.h"
#include "printcmd.h"
#include "status.h"
#include "usercheck.h"
#include "version.h"
#include "warmback.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define DEFAULT_CONFIG SYSCONFDIR "/torpor.conf"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: torpor-suspend [options]\n"
		"Hibernate: write memory to the resume swap area and power off.\n\n"
		"  --config=FILE        configuration file (default " DEFAULT_CONFIG ");\n"
		"                       options override it\n"
		"  --resume=DEV         resume device (/dev/NAME, UUID=, LABEL=, PARTUUID=,\n"
		"                       PARTLABEL=, MAJ:MIN); default: resume in the file, else\n"
		"                       resume= on the kernel command line, else RESUME= in\n"
		"                       the initramfs (initramfs-tools)\n"
		"  --resume-offset=N    page offset of a swap file's header; default:\n"
		"                       resume_offset in the file, else on the command line\n"
		"  --poweroff=MODE      after saving: shutdown (power off, the default), reboot,\n"
		"                       platform (ACPI S4) or hybrid (suspend to RAM; on wake-up\n"
		"                       the image is discarded, after a power loss it resumes)\n"
		"  --reboot             the same as --poweroff=reboot\n"
		"  --image-size=SIZE    /sys/power/image_size during the hibernation: auto (the\n"
		"                       default: the largest the area takes compressed), max,\n"
		"                       kernel (as it is), or bytes (K, M, G suffixes)\n"
		"  --progress, --no-progress   show (the default) or hide the saving progress\n"
		"  --compress=ALG       lz4 (the default), lz4:N (faster, larger; N up to\n"
		"                       65537), lz4hc[:N] (slower, smaller; N 1-12), none\n"
		"  --threads=N          compression threads: auto (one per CPU, the default)\n"
		"                       or 1-16\n"
		"  --check              only check the setup (device, swap area, kernel\n"
		"                       support); change nothing\n"
		"  --status             tell this machine's setup: the area the next hibernation\n"
		"                       writes and the next boot reads, the image there now,\n"
		"                       each kernel's initramfs, systemctl hibernate, logind;\n"
		"                       exit 0 when ready, 1 when not; read only, any user\n"
		"  --json               with --status: one JSON object instead of the lines\n"
		"  --print-cmdline      print the resume= (and resume_offset=) kernel parameters\n"
		"                       for the swap area; change nothing\n"
		"  --image-file=PATH    hibernate into this image file, made swap only while\n"
		"                       the image is written (for systems that swap to zram);\n"
		"                       default: image_file in the file, else none\n"
		"  --setup-image-file[=SIZE]   make the image file (image_file, else\n"
		"                       " IMAGEFILE_DEFAULT "), SIZE bytes (K, M, G suffixes;\n"
		"                       default half of RAM), and print its resume= line\n"
		"  --initramfs=PATH     the initramfs the next boot runs (or its unified\n"
		"                       kernel image), checked for torpor-resume; default:\n"
		"                       initramfs in the file, else found by the running\n"
		"                       kernel's release\n"
		"  --no-initramfs       with --check: leave the initramfs out (for the\n"
		"                       generators' hooks, which check while they build one)\n"
		"  --initramfs-tree=DIR   with --check --no-initramfs: the initramfs-tools\n"
		"                       image being built in DIR; with no resume= on the\n"
		"                       command line, its RESUME= names the area\n"
		"  --discard-after-resume, --no-discard-after-resume   after the resume (or a\n"
		"                       failure), discard the image file's pages, or zero them\n"
		"                       where the disk cannot; or not (the default)\n"
		"  --warm-back, --no-warm-back   after the resume, bring back in the background\n"
		"                       the memory and file pages creating the image evicted\n"
		"                       (the default), or not\n"
		"  -v, --verbose        debug messages\n"
		"  -h, --help           this text\n"
		"      --version        the version, image format and build\n");
}

/* The second line of every usage error (after the one naming it); returns 2. */
static int try_help(void)
{
	fputs("Try 'torpor-suspend --help' for more information.\n", stderr);
	return 2;
}

static int parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	int r;

	r = decimal_parse(s, strlen(s), UINT64_MAX, &v);
	if (r == 0)
		*ret = v;
	return r;
}

/* resume= / resume_offset= from /proc/cmdline where no option gave them; 0 or 1 (reported) */
static int from_cmdline(struct hib_opts *o)
{
	struct torpor_cmdline cl;
	const char *bad = NULL;
	int r;

	r = cmdline_read("/proc/cmdline", &cl);
	if (r < 0) {
		msg_debug("cannot read /proc/cmdline: %s", msg_errname(r));
		return 0;
	}
	/* a malformed value is an error only where it would be used */
	if (!o->resume[0] && cl.resume_bad)
		bad = "resume=: longer than 255 bytes";
	else if (!o->has_offset && cl.resume_offset_bad)
		bad = "resume_offset=: not a decimal page number";
	if (bad) {
		msg_error("malformed kernel parameter %s", bad);
		msg_hint("correct it on the kernel command line, or give --resume= and "
			 "--resume-offset=");
		return 1;
	}
	if (!o->resume[0])
		snprintf(o->resume, sizeof(o->resume), "%s", cl.resume);
	if (!o->has_offset && cl.has_resume_offset) {
		o->offset = cl.resume_offset;
		o->has_offset = 1;
	}
	return 0;
}

/* What only the options give; the settings themselves go to a struct config. */
struct given {
	const char *config;		/* --config=, NULL for the default file */
	int print_cmdline;
	int status;			/* --status */
	int json;			/* --json */
	int setup_image;		/* --setup-image-file */
	int no_initramfs;		/* --no-initramfs */
	const char *initramfs_tree;	/* --initramfs-tree=DIR */
	uint64_t setup_bytes;		/* its SIZE, 0 for the default */
	const char *warm_back_run;	/* --warm-back-run=FD,FD: the warm-back's child */
};

/* Read the configuration file; 0, or 1 after reporting why not. */
static int load_config(const char *path, int explicit, struct config *c)
{
	struct config_error e;
	char what[200], hint[200];
	int r;

	memset(c, 0, sizeof(*c));
	r = config_read(path, c, &e);
	if (r == -ENOENT && !explicit) {
		msg_debug("no configuration file %s, using the defaults", path);
		return 0;
	}
	if (r == -EINVAL || r == -EFBIG) {
		config_describe(&e, what, sizeof(what));
		if (e.line)
			msg_error("%s:%u: %s", path, e.line, what);
		else
			msg_error("%s: %s", path, what);
		msg_hint("%s", config_hint(&e, hint, sizeof(hint)));
		return 1;
	}
	if (r < 0) {
		msg_error("cannot read configuration file '%s': %s", path, msg_errname(r));
		return 1;
	}
	return 0;
}

/* The settings, options over file, as hibernate_run() takes them. */
static void to_opts(const struct config *c, struct hib_opts *o)
{
	if (c->has_resume)
		snprintf(o->resume, sizeof(o->resume), "%s", c->resume);
	o->offset = c->resume_offset;
	o->has_offset = c->has_resume_offset;
	o->poweroff = c->has_poweroff ? c->poweroff : CONFIG_POWEROFF_SHUTDOWN;
	o->image_size = c->image_size;
	o->image_size_mode = c->has_image_size ? c->image_size_mode : CONFIG_IMAGE_SIZE_AUTO;
	o->no_progress = c->has_progress && !c->progress;
	o->pack.kind = PACK_LZ4;
	o->pack.level = 1;
	if (c->has_compress)
		o->pack = c->compress;
	o->threads = c->has_threads ? c->threads : 0;
	if (c->has_initramfs)
		snprintf(o->initramfs, sizeof(o->initramfs), "%s", c->initramfs);
	o->warm_back = c->has_warm_back ? c->warm_back : 1;
}

/* A path option (--image-file=, --initramfs=) into @dst; 0, or 2 for a usage error (reported). */
static int set_path(const char *name, const char *arg, char *dst, size_t size, int *has)
{
	if (strlen(arg) >= size || arg[0] != '/') {
		msg_error("invalid --%s '%s': not an absolute path of at most %zu bytes", name, arg,
			  size - 1);
		return 2;
	}
	snprintf(dst, size, "%s", arg);
	*has = 1;
	return 0;
}

/* One option that sets a value of @c; 0, or 2 for a usage error (reported). */
static int parse_setting(int opt, struct config *c)
{
	switch (opt) {
	case 'r':
		if (strlen(optarg) >= sizeof(c->resume)) {
			msg_error("invalid --resume: longer than %zu bytes", sizeof(c->resume) - 1);
			return 2;
		}
		snprintf(c->resume, sizeof(c->resume), "%s", optarg);
		c->has_resume = 1;
		break;
	case 'o':
		if (parse_u64(optarg, &c->resume_offset) < 0) {
			msg_error("invalid --resume-offset '%s': not a page number", optarg);
			return 2;
		}
		c->has_resume_offset = 1;
		break;
	case 'P':
		if (config_parse_poweroff(optarg, &c->poweroff) < 0) {
			msg_error("invalid --poweroff '%s': %s", optarg, CONFIG_POWEROFF_WHY);
			return 2;
		}
		c->has_poweroff = 1;
		break;
	case 'R':
		c->poweroff = CONFIG_POWEROFF_REBOOT;
		c->has_poweroff = 1;
		break;
	case 'S':
		if (config_parse_image_size(optarg, &c->image_size_mode, &c->image_size) < 0) {
			msg_error("invalid --image-size '%s': %s", optarg, CONFIG_IMAGE_SIZE_WHY);
			return 2;
		}
		c->has_image_size = 1;
		break;
	case 'p':
	case 'n':
		c->progress = opt == 'p';
		c->has_progress = 1;
		break;
	case 'Z':
		if (pack_setting_parse(optarg, &c->compress) < 0) {
			msg_error("invalid --compress '%s': not lz4, lz4:N, lz4hc, lz4hc:N or none",
				  optarg);
			return 2;
		}
		c->has_compress = 1;
		break;
	case 'T':
		if (config_parse_threads(optarg, &c->threads) < 0) {
			msg_error("invalid --threads '%s': not 'auto' or a number from 1 to %d",
				  optarg, PACK_THREADS_MAX);
			return 2;
		}
		c->has_threads = 1;
		break;
	case 'I':
		return set_path("image-file", optarg, c->image_file, sizeof(c->image_file),
				&c->has_image_file);
	case 'i':
		return set_path("initramfs", optarg, c->initramfs, sizeof(c->initramfs),
				&c->has_initramfs);
	case 'D':
	case 'd':
		c->discard_after_resume = opt == 'D';
		c->has_discard_after_resume = 1;
		break;
	case 'W':
	case 'w':
		c->warm_back = opt == 'W';
		c->has_warm_back = 1;
		break;
	default:
		return 2;
	}
	return 0;
}

/* One option into @g, @o, or @c (parse_setting()); 0, or 2 for a usage error (reported). */
static int parse_option(int opt, struct config *c, struct hib_opts *o, struct given *g)
{
	switch (opt) {
	case 'C':
		g->config = optarg;
		break;
	case 'F':
		g->setup_image = 1;
		if (optarg && (config_parse_size(optarg, &g->setup_bytes) < 0 ||
			       g->setup_bytes < IMAGEFILE_MIN_BYTES)) {
			msg_error("invalid --setup-image-file '%s': not a size of at least 1M",
				  optarg);
			return 2;
		}
		break;
	case 'N':
		g->no_initramfs = 1;
		break;
	case 'B':
		g->initramfs_tree = optarg;
		break;
	case 'c':
		o->check_only = 1;
		break;
	case 'L':
		g->print_cmdline = 1;
		break;
	case 's':
		g->status = 1;
		break;
	case 'J':
		g->json = 1;
		break;
	case 'v':
		msg_set_debug(1);
		break;
	case 'X':
		g->warm_back_run = optarg;
		break;
	default:
		return parse_setting(opt, c);
	}
	return 0;
}

/* Two modes given, each a whole job of its own: 2 (reported), else 0. */
static int check_modes(const struct hib_opts *o, const struct given *g)
{
	const char *m[4];
	int n = 0;

	if (o->check_only)
		m[n++] = "--check";
	if (g->print_cmdline)
		m[n++] = "--print-cmdline";
	if (g->setup_image)
		m[n++] = "--setup-image-file";
	if (g->status)
		m[n++] = "--status";
	if (g->json && !g->status) {
		msg_error("--json goes with --status only");
		return 2;
	}
	if (n < 2)
		return 0;
	msg_error("%s and %s cannot be given together: each is a whole job of its own",
		  m[0], m[1]);
	return 2;
}

/*
 * getopt_long() found no option in @arg (the word it read), or the option
 * lacks its value (@missing): say which, in one error line (its own messages,
 * off, lack our prefix).
 */
static void say_bad_option(const struct option *opts, const char *arg, int missing)
{
	size_t len = strcspn(arg, "="), used = 0;
	char names[128] = "";
	int i, hits = 0, first = 0;

	if (strncmp(arg, "--", 2)) {
		msg_error("%s option '-%c'", missing ? "missing value for" : "unknown", optopt);
		return;
	}
	if (missing) {
		msg_error("missing value for option '%s'", arg);
		return;
	}
	/* NAME as getopt_long() reads it: the whole name of an option, else the start of some */
	for (i = 0; opts[i].name; i++) {
		if (strncmp(opts[i].name, arg + 2, len - 2))
			continue;
		if (strlen(opts[i].name) == len - 2) {
			hits = 1;
			first = i;
			break;
		}
		if (hits++ == 0)
			first = i;
		if (hits <= 3 && used < sizeof(names))
			used += snprintf(names + used, sizeof(names) - used, "%s--%s",
					 hits > 1 ? ", " : "", opts[i].name);
	}
	if (hits > 1)
		msg_error("ambiguous option '%.*s': it begins %s%s", (int)len, arg, names,
			  hits > 3 ? ", ..." : "");
	else if (hits == 1 && arg[len] == '=')
		/* --NAME=VALUE for an option that takes none */
		msg_error("option '--%s' takes no value", opts[first].name);
	else
		msg_error("unknown option '%.*s'", (int)len, arg);
}

/*
 * The options into @cli, @o and @g; -1 to go on, else the exit status: 0 after
 * --help or --version, 2 after a usage error (reported, with the --help hint).
 */
static int parse_args(int argc, char **argv, struct config *cli, struct hib_opts *o,
		      struct given *g)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'C' },
		{ "resume", required_argument, NULL, 'r' },
		{ "resume-offset", required_argument, NULL, 'o' },
		{ "poweroff", required_argument, NULL, 'P' },
		{ "reboot", no_argument, NULL, 'R' },
		{ "image-size", required_argument, NULL, 'S' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'n' },
		{ "compress", required_argument, NULL, 'Z' },
		{ "threads", required_argument, NULL, 'T' },
		{ "image-file", required_argument, NULL, 'I' },
		{ "setup-image-file", optional_argument, NULL, 'F' },
		{ "discard-after-resume", no_argument, NULL, 'D' },
		{ "no-discard-after-resume", no_argument, NULL, 'd' },
		{ "warm-back", no_argument, NULL, 'W' },
		{ "no-warm-back", no_argument, NULL, 'w' },
		{ "warm-back-run", required_argument, NULL, 'X' },
		{ "initramfs", required_argument, NULL, 'i' },
		{ "no-initramfs", no_argument, NULL, 'N' },
		{ "initramfs-tree", required_argument, NULL, 'B' },
		{ "check", no_argument, NULL, 'c' },
		{ "print-cmdline", no_argument, NULL, 'L' },
		{ "status", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'J' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, at = 1;

	/* "+": no operands are taken, so none is moved past the options */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:vh", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'V') {
			puts(VERSION_LINE("torpor-suspend"));
			return 0;
		}
		if (c == '?' || c == ':')
			say_bad_option(opts, argv[at], c == ':');
		if (c == '?' || c == ':' || parse_option(c, cli, o, g))
			return try_help();
		at = optind;
	}
	if (optind < argc) {
		msg_error("unexpected argument '%s'", argv[optind]);
		return try_help();
	}
	return check_modes(o, g) ? try_help() : -1;
}

/*
 * --status: the facts, told (status.h); any user, read only.  0 when ready, 1
 * when not (or not known without root).
 */
static int status_run(const struct config *cli, const struct config *conf, struct hib_opts *o,
		      int json)
{
	struct status_env env = {
		.cmdline = "/proc/cmdline", .boot_dir = "/boot", .unit_root = "",
		.busctl = "busctl", .logind_timeout_ms = 5000, .decompress_path = DECOMPRESS_PATH,
		.initrd_budget_ms = STATUS_INITRD_BUDGET_MS, .is_root = geteuid() == 0,
		.now = time(NULL),
	};
	const char *image_file = conf->has_image_file ? conf->image_file : NULL;
	const char *from = image_file ? (cli->has_image_file ? "--image-file" : "torpor.conf") :
			   cli->has_resume ? "--resume" : conf->has_resume ? "torpor.conf" :
			   "resume= on the kernel command line";
	struct status *s;
	int ready;

	if (!image_file && (!o->resume[0] || !o->has_offset))
		(void)from_cmdline(o);
	s = malloc(sizeof(*s));
	if (!s) {
		msg_error("cannot check the status: %s", msg_errname(-ENOMEM));
		return 1;
	}
	status_collect(&env, o, from, image_file, s);
	if (json)
		status_print_json(stdout, s, env.now);
	else
		status_print(stdout, s, env.now);
	fflush(stdout);
	ready = s->ready;
	free(s);
	return ready ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct config conf, cli;
	struct hib_opts o;
	struct given g;
	int r;

	memset(&o, 0, sizeof(o));
	memset(&g, 0, sizeof(g));
	memset(&cli, 0, sizeof(cli));
	msg_init(0);
	r = parse_args(argc, argv, &cli, &o, &g);
	if (r >= 0)
		return r;
	if (g.warm_back_run)
		return warmback_child_main(g.warm_back_run);
	if (load_config(g.config ? g.config : DEFAULT_CONFIG, g.config != NULL, &conf))
		return 1;
	config_override(&conf, &cli);
	to_opts(&conf, &o);
	if (g.no_initramfs && !o.check_only) {
		msg_error("--no-initramfs goes with --check only: a hibernation always checks the "
			  "initramfs");
		return try_help();
	}
	if (g.initramfs_tree && !g.no_initramfs) {
		msg_error("--initramfs-tree goes with --check --no-initramfs only: it names the "
			  "initramfs being built, not the one the next boot runs");
		return try_help();
	}
	o.no_initramfs = g.no_initramfs;
	o.initramfs_tree = g.initramfs_tree;
	if (g.status)
		return status_run(&cli, &conf, &o, g.json);
	/* an ordinary user's --check: what needs no root, and never a path to the hibernation */
	if (o.check_only && geteuid() != 0) {
		if (!conf.has_image_file && (!o.resume[0] || !o.has_offset))
			(void)from_cmdline(&o);
		(void)usercheck_run(&o, conf.has_image_file ? conf.image_file : NULL);
		return 1;
	}
	if (g.setup_image)
		return imagefile_setup_run(conf.has_image_file ? conf.image_file :
					   IMAGEFILE_DEFAULT, g.setup_bytes) == 0 ? 0 : 1;
	if (conf.has_image_file && o.check_only)
		return imagefile_check_run(conf.image_file, &o) == 0 ? 0 : 1;
	if (conf.has_image_file && g.print_cmdline)
		return imagefile_print_cmdline(conf.image_file) == 0 ? 0 : 1;
	/* with an image file, the next boot's /proc/cmdline is checked, never merged */
	if (conf.has_image_file)
		return imagefile_hibernate_run(&o, conf.image_file,
					       conf.discard_after_resume) == 0 ? 0 : 1;
	if (conf.discard_after_resume)
		msg_warn("discard_after_resume applies only to an image file (image_file or "
			 "--image-file): ignored");
	if ((!o.resume[0] || !o.has_offset) && from_cmdline(&o))
		return 1;
	/* nothing names the area: the next boot's initramfs may (initramfs-tools' RESUME=) */
	if (!o.resume[0] && hibernate_take_conf_area(&o, g.print_cmdline) < 0)
		return 1;
	if (g.print_cmdline)
		return printcmd_run(&o) == 0 ? 0 : 1;
	return hibernate_run(&o) == 0 ? 0 : 1;
}

