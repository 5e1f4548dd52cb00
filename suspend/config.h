/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h - torpor-suspend's configuration file, /etc/torpor.conf
 *
 * Lines are "key = value", "# comment" (a '#' first on the line, after blanks)
 * or blank; CRLF line ends and a last line without '\n' are fine.  A '-' in a
 * key is read as '_'.  A key given twice is an error: the file decides which
 * disk receives all of memory, so two answers are refused rather than one
 * silently preferred.  Nothing here prints: errors come back in a
 * struct config_error, which config_describe() and config_hint() put in words.
 */
#ifndef SUSPEND_CONFIG_H
#define SUSPEND_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "packpool.h"

#define CONFIG_LINE_MAX		1024		/* bytes of one line, without its end */
#define CONFIG_FILE_MAX		(64 * 1024)	/* bytes of the whole file */
#define CONFIG_RESUME_MAX	256		/* resume value, with the NUL, as resume= */
#define CONFIG_PATH_MAX		256		/* image_file, with the NUL */
#define CONFIG_INITRAMFS_NONE	"none"		/* initramfs: do not check it */

/* what a bad poweroff value is not, for the messages of the file and --poweroff */
#define CONFIG_POWEROFF_WHY "not 'shutdown', 'reboot', 'platform' or 'hybrid'"

enum config_poweroff {
	CONFIG_POWEROFF_SHUTDOWN,		/* reboot(RB_POWER_OFF) */
	CONFIG_POWEROFF_REBOOT,			/* reboot(RB_AUTOBOOT) */
	CONFIG_POWEROFF_PLATFORM,		/* ACPI S4: PLATFORM_SUPPORT, POWER_OFF */
	CONFIG_POWEROFF_HYBRID,			/* suspend to RAM with the image written */
};

/* image_size = auto | max | kernel | BYTES; what a bad one is not */
#define CONFIG_IMAGE_SIZE_WHY "not 'auto', 'max', 'kernel' or a size in bytes (digits, " \
	"optionally followed by K, M or G)"

enum config_image_size {
	CONFIG_IMAGE_SIZE_AUTO,			/* the largest the area takes (imagechoice.h) */
	CONFIG_IMAGE_SIZE_MAX,			/* all of RAM: the kernel caps it at about half */
	CONFIG_IMAGE_SIZE_KERNEL,		/* /sys/power/image_size left as it is */
	CONFIG_IMAGE_SIZE_BYTES,		/* the bytes given */
};

/* What the file set; each has_* says whether its key was there. */
struct config {
	char resume[CONFIG_RESUME_MAX];		/* resume device spec */
	int has_resume;
	uint64_t resume_offset;			/* pages */
	int has_resume_offset;
	enum config_poweroff poweroff;
	int has_poweroff;
	enum config_image_size image_size_mode;
	uint64_t image_size;			/* bytes, for /sys/power/image_size */
	int has_image_size;
	int progress;				/* 1: show the progress line */
	int has_progress;
	struct pack_setting compress;		/* compress = lz4[:N] | lz4hc[:N] | none */
	int has_compress;
	unsigned threads;			/* compression threads, 0 = one per CPU */
	int has_threads;
	char image_file[CONFIG_PATH_MAX];	/* absolute path of the image file */
	int has_image_file;
	int discard_after_resume;		/* 1: discard the image file's pages after */
	int has_discard_after_resume;
	char initramfs[CONFIG_PATH_MAX];	/* absolute path of the next boot's initramfs,
						 * or CONFIG_INITRAMFS_NONE */
	int has_initramfs;
	int warm_back;				/* 1: bring back what was evicted, after */
	int has_warm_back;
};

enum config_err_kind {
	CONFIG_E_NONE,
	CONFIG_E_SYNTAX,			/* no '=', or no key before it */
	CONFIG_E_UNKNOWN_KEY,
	CONFIG_E_EMPTY_VALUE,
	CONFIG_E_BAD_VALUE,
	CONFIG_E_DUPLICATE,
	CONFIG_E_LONG_LINE,
	CONFIG_E_NUL,				/* a NUL byte: not a text file */
	CONFIG_E_TOO_BIG,			/* the file is over CONFIG_FILE_MAX */
};

struct config_error {
	enum config_err_kind kind;
	unsigned int line;			/* from 1; 0 for the file as a whole */
	unsigned int first_line;		/* CONFIG_E_DUPLICATE: where the key was first */
	char key[32];				/* the key as written, cut short */
	char value[64];				/* the bad value, cut short */
};

/**
 * config_parse() - parse the text of a configuration file
 * @text: the bytes (need not be NUL-terminated)
 * @len: how many
 * @ret: the settings, written on success only
 * @err: filled on failure (kind, line, key, value)
 *
 * Return: 0; -EINVAL for any error in the text (see @err->kind); -EFBIG when
 * @len is over CONFIG_FILE_MAX.
 */
int config_parse(const char *text, size_t len, struct config *ret, struct config_error *err);

/**
 * config_read() - read and parse a configuration file
 * @path: the file
 * @ret: the settings, written on success only
 * @err: filled when the text is wrong
 *
 * Return: 0; -ENOENT when @path does not exist (the caller decides whether that
 * matters); -EINVAL or -EFBIG as config_parse(); other -errno from open()/read().
 */
int config_read(const char *path, struct config *ret, struct config_error *err);

/**
 * config_override() - the settings @over has replace those of @base
 * @base: the file's settings, updated
 * @over: the command-line options' settings (each has_* says given)
 */
void config_override(struct config *base, const struct config *over);

/* The error in words, without file and line: "unknown key 'foo'". */
const char *config_describe(const struct config_error *e, char *buf, size_t len);

/* What to do about it, one line. */
const char *config_hint(const struct config_error *e, char *buf, size_t len);

/* "shutdown", "reboot", "platform" or "hybrid" */
const char *config_poweroff_name(enum config_poweroff p);

/**
 * config_parse_poweroff() / config_parse_bool() / config_parse_size() - one value
 * as the file and the command-line options take it.  Return 0 or -EINVAL.
 * Sizes are decimal bytes with an optional K, M or G (powers of 1024).
 */
int config_parse_poweroff(const char *s, enum config_poweroff *ret);
int config_parse_bool(const char *s, int *ret);
int config_parse_size(const char *s, uint64_t *ret);
/* "auto", "max", "kernel" or a size (@ret_bytes, 0 for a word); 0 or -EINVAL */
int config_parse_image_size(const char *s, enum config_image_size *ret_mode,
			    uint64_t *ret_bytes);
/* "auto" (0: one per online CPU) or 1..PACK_THREADS_MAX */
int config_parse_threads(const char *s, unsigned *ret);

#endif
