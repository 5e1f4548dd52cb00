// SPDX-License-Identifier: GPL-2.0-only
/* test-config.c - /etc/torpor.conf: good files, each error with its line, overrides, odd bytes */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "tap.h"

static struct config c;
static struct config_error e;

static int parse(const char *text)
{
	memset(&c, 0x5a, sizeof(c));
	return config_parse(text, strlen(text), &c, &e);
}

/* parse @text, expect error @kind on @line; the description must contain @want */
static void expect_err(const char *text, enum config_err_kind kind, unsigned int line,
		       const char *want, const char *what)
{
	char buf[200];
	int r = parse(text);

	config_describe(&e, buf, sizeof(buf));
	tap_ok(r == -EINVAL && e.kind == kind && e.line == line && strstr(buf, want),
	       "config: %s: line %u, '%s' (got %d, kind %d, line %u, '%s')", what, line, want, r,
	       e.kind, e.line, buf);
}

static void test_good(void)
{
	tap_ok(parse("# torpor.conf\n\n"
		     "resume = UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01\n"
		     "   resume_offset=34816   \n"
		     "\t# indented comment\n"
		     "poweroff\t=\treboot\n"
		     "image_size = 2G\n"
		     "progress = no\n") == 0 && c.has_resume &&
	       !strcmp(c.resume, "UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01") &&
	       c.has_resume_offset && c.resume_offset == 34816 && c.has_poweroff &&
	       c.poweroff == CONFIG_POWEROFF_REBOOT && c.has_image_size &&
	       c.image_size == 2ULL << 30 && c.has_progress && c.progress == 0,
	       "config: every key, blanks, tabs and comments");
	tap_ok(parse("") == 0 && !c.has_resume && !c.has_resume_offset && !c.has_poweroff &&
	       !c.has_image_size && !c.has_progress, "config: an empty file sets nothing");
	tap_ok(parse("# only\n   \n\t\n#\n") == 0 && !c.has_resume,
	       "config: comments and blank lines only set nothing");
	tap_ok(parse("resume = /dev/vdb") == 0 && !strcmp(c.resume, "/dev/vdb"),
	       "config: the last line without a newline is read");
	tap_ok(parse("resume = /dev/vdb\r\nresume-offset = 7\r\n") == 0 &&
	       !strcmp(c.resume, "/dev/vdb") && c.resume_offset == 7,
	       "config: CRLF line ends; '-' in a key is '_'");
	tap_ok(parse("poweroff = shutdown\nprogress = yes\nimage_size = 0\n") == 0 &&
	       c.poweroff == CONFIG_POWEROFF_SHUTDOWN && c.progress == 1 && c.image_size == 0,
	       "config: poweroff shutdown, progress yes, image_size 0");
	tap_ok(parse("image_size = 512M\n") == 0 && c.image_size == 512ULL << 20 &&
	       parse("image_size = 4k\n") == 0 && c.image_size == 4096 &&
	       parse("image_size = 123456789\n") == 0 && c.image_size == 123456789,
	       "config: image_size suffixes K, M, none");
	tap_ok(parse("image_size = auto\n") == 0 && parse("image_size = max\n") == 0 &&
	       parse("image_size = kernel\n") == 0, "config: image_size auto, max, kernel read");
	tap_ok(parse("image_size = max\n") == 0 && c.has_image_size &&
	       c.image_size_mode == CONFIG_IMAGE_SIZE_MAX &&
	       parse("image_size = kernel\n") == 0 && c.image_size_mode == CONFIG_IMAGE_SIZE_KERNEL &&
	       parse("image_size = auto\n") == 0 && c.image_size_mode == CONFIG_IMAGE_SIZE_AUTO &&
	       parse("image_size = 1G\n") == 0 && c.image_size_mode == CONFIG_IMAGE_SIZE_BYTES &&
	       c.image_size == 1ULL << 30, "config: image_size's word or bytes kept apart");
	tap_ok(parse("resume_offset = 18446744073709551615\n") == 0 &&
	       c.resume_offset == 18446744073709551615ULL, "config: resume_offset up to 2^64-1");
	tap_ok(parse("resume = LABEL=swap#1\n") == 0 && !strcmp(c.resume, "LABEL=swap#1"),
	       "config: a '#' inside a value is part of it");
}

/* a file config_parse() refuses, and how: what expect_err() takes */
struct bad_file {
	const char *text;
	enum config_err_kind kind;
	unsigned int line;
	const char *want;
	const char *what;
};

static void test_errors(void)
{
	char line[CONFIG_LINE_MAX + 64];
	const struct bad_file bad[] = {
		{ "# a\n\n\n\n\n\nfoo = 1\n", CONFIG_E_UNKNOWN_KEY, 7, "unknown key 'foo'",
		  "unknown key" },
		{ "resume = /dev/vdb\njust words\n", CONFIG_E_SYNTAX, 2, "expected 'key = value'",
		  "a line without '='" },
		{ "\n = /dev/vdb\n", CONFIG_E_SYNTAX, 2, "expected", "no key before '='" },
		{ "progress =\n", CONFIG_E_EMPTY_VALUE, 1, "no value for 'progress'",
		  "an empty value" },
		{ "\nresume = /dev/vdb # swap\n", CONFIG_E_BAD_VALUE, 2,
		  "invalid value '/dev/vdb # swap' for 'resume'", "a comment after a value" },
		{ "resume_offset = 12x\n", CONFIG_E_BAD_VALUE, 1, "not a decimal page number",
		  "resume_offset not a number" },
		{ "resume_offset = -1\n", CONFIG_E_BAD_VALUE, 1, "for 'resume_offset'",
		  "resume_offset negative" },
		{ "resume_offset = 18446744073709551616\n", CONFIG_E_BAD_VALUE, 1,
		  "for 'resume_offset'", "resume_offset over 2^64-1" },
		{ "poweroff = off\n", CONFIG_E_BAD_VALUE, 1, "not 'shutdown', 'reboot'",
		  "poweroff not a mode" },
		{ "progress = maybe\n", CONFIG_E_BAD_VALUE, 1, "not 'yes' or 'no'",
		  "progress not a bool" },
		{ "image_size = 1T\n", CONFIG_E_BAD_VALUE, 1, "for 'image_size'",
		  "image_size unknown suffix" },
		{ "image_size = 17179869184G\n", CONFIG_E_BAD_VALUE, 1, "for 'image_size'",
		  "image_size overflowing" },
		{ "image_size = 2GB\n", CONFIG_E_BAD_VALUE, 1, "for 'image_size'",
		  "image_size two-letter suffix" },
		{ line, CONFIG_E_BAD_VALUE, 1, "for 'resume'", "resume over 255 bytes" },
		{ "progress = yes\n# x\nprogress = no\n", CONFIG_E_DUPLICATE, 3,
		  "duplicate key 'progress', first given on line 1", "a key given twice" },
		{ "resume = a\nresume-offset = 1\nresume_offset = 1\n", CONFIG_E_DUPLICATE, 3,
		  "duplicate key", "a key given twice, spelt two ways" },
		{ "resume = a\r\n\r\nfoo\r\n", CONFIG_E_SYNTAX, 3, "expected",
		  "CRLF line numbers" },
		{ "Resume = /dev/vdb\n", CONFIG_E_UNKNOWN_KEY, 1, "unknown key 'Resume'",
		  "keys are case-sensitive" },
	};
	size_t i;

	/* the value of "resume over 255 bytes" */
	memset(line, 'a', 300);
	memcpy(line, "resume = ", 9);
	line[300] = '\0';
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_err(bad[i].text, bad[i].kind, bad[i].line, bad[i].want, bad[i].what);
}

static void test_long_and_nul(void)
{
	char buf[3 * CONFIG_LINE_MAX];
	size_t n;

	buf[0] = '#';
	memset(buf + 1, 'x', CONFIG_LINE_MAX - 1);
	strcpy(buf + CONFIG_LINE_MAX, "\nprogress = no\n");
	tap_ok(parse(buf) == 0 && c.has_progress && !c.progress,
	       "config: a line of exactly %d bytes is read", CONFIG_LINE_MAX);
	memcpy(buf, "\n#", 2);
	memset(buf + 2, 'x', CONFIG_LINE_MAX);
	strcpy(buf + 2 + CONFIG_LINE_MAX, "\n");
	expect_err(buf, CONFIG_E_LONG_LINE, 2, "line longer than", "a line one byte too long");
	buf[2 + CONFIG_LINE_MAX] = '\0';
	expect_err(buf, CONFIG_E_LONG_LINE, 2, "line longer than",
		   "a long last line without a newline");
	memcpy(buf, "resume = a\nprogress = n\0o\n", 26);
	n = 26;
	tap_ok(config_parse(buf, n, &c, &e) == -EINVAL && e.kind == CONFIG_E_NUL && e.line == 2,
	       "config: a NUL byte is refused, with its line");
}

/* Every power-off mode, in the file and as config_parse_poweroff() takes --poweroff= */
static void test_poweroff(void)
{
	static const struct {
		const char *word;
		enum config_poweroff mode;
	} modes[] = {
		{ "shutdown", CONFIG_POWEROFF_SHUTDOWN },
		{ "reboot", CONFIG_POWEROFF_REBOOT },
		{ "platform", CONFIG_POWEROFF_PLATFORM },
		{ "hybrid", CONFIG_POWEROFF_HYBRID },
	};
	static const char *const bad[] = { "Hybrid", "hybrid ", "s2both", "suspend", "platform2",
		"plat", "" };
	struct config file, opts;
	char text[64];
	enum config_poweroff p;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(text, sizeof(text), "poweroff = %s\n", modes[i].word);
		tap_ok(parse(text) == 0 && c.has_poweroff && c.poweroff == modes[i].mode,
		       "config: poweroff = %s", modes[i].word);
		p = (enum config_poweroff)-1;
		tap_ok(config_parse_poweroff(modes[i].word, &p) == 0 && p == modes[i].mode &&
		       !strcmp(config_poweroff_name(p), modes[i].word),
		       "config: --poweroff=%s parses, and its name is '%s'", modes[i].word,
		       config_poweroff_name(p));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = CONFIG_POWEROFF_HYBRID;
		tap_ok(config_parse_poweroff(bad[i], &p) == -EINVAL && p == CONFIG_POWEROFF_HYBRID,
		       "config: --poweroff='%s' is refused and sets nothing", bad[i]);
	}
	expect_err("# x\npoweroff = s2both\n", CONFIG_E_BAD_VALUE, 2,
		   "not 'shutdown', 'reboot', 'platform' or 'hybrid'", "poweroff s2both");
	expect_err("poweroff = hybrid\npoweroff = platform\n", CONFIG_E_DUPLICATE, 2,
		   "poweroff", "poweroff given twice");
	memset(&opts, 0, sizeof(opts));
	opts.has_poweroff = 1;
	opts.poweroff = CONFIG_POWEROFF_HYBRID;
	tap_ok(config_parse("poweroff = platform\n", 20, &file, &e) == 0 &&
	       file.poweroff == CONFIG_POWEROFF_PLATFORM, "config: a file with poweroff = platform");
	config_override(&file, &opts);
	tap_ok(file.has_poweroff && file.poweroff == CONFIG_POWEROFF_HYBRID,
	       "config: --poweroff=hybrid overrides the file's platform");
}

static void test_override(void)
{
	static const char text[] = "resume = /dev/vdb\nresume_offset = 9\npoweroff = reboot\n"
				   "progress = no\n";
	struct config file, opts;

	memset(&opts, 0, sizeof(opts));
	tap_ok(config_parse(text, sizeof(text) - 1, &file, &e) == 0, "config: a file to override");
	opts.has_resume = 1;
	strcpy(opts.resume, "/dev/vdc");
	opts.has_poweroff = 1;
	opts.poweroff = CONFIG_POWEROFF_SHUTDOWN;
	opts.has_image_size = 1;
	opts.image_size = 1 << 20;
	config_override(&file, &opts);
	tap_ok(!strcmp(file.resume, "/dev/vdc") && file.poweroff == CONFIG_POWEROFF_SHUTDOWN &&
	       file.has_image_size && file.image_size == 1 << 20,
	       "config: options given override the file");
	tap_ok(file.has_resume_offset && file.resume_offset == 9 && file.has_progress &&
	       !file.progress, "config: options not given leave the file's settings");
	tap_ok(config_parse("image_size = max\n", 17, &file, &e) == 0 &&
	       file.image_size_mode == CONFIG_IMAGE_SIZE_MAX, "config: image_size max to override");
	opts.image_size_mode = CONFIG_IMAGE_SIZE_AUTO;
	opts.image_size = 0;
	config_override(&file, &opts);
	tap_ok(file.image_size_mode == CONFIG_IMAGE_SIZE_AUTO,
	       "config: --image-size=auto overrides the file's max");
}

static void test_read(void)
{
	char path[] = "/tmp/torpor-conf-XXXXXX";
	char *big;
	FILE *f;
	int fd;

	tap_ok(config_read("/nonexistent/torpor.conf", &c, &e) == -ENOENT,
	       "config: a missing file is -ENOENT");
	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f) {
		fputs("resume = /dev/vdb\nimage_size=1M", f);
		fclose(f);
	}
	tap_ok(config_read(path, &c, &e) == 0 && !strcmp(c.resume, "/dev/vdb") &&
	       c.image_size == 1 << 20, "config: a file is read");
	big = calloc(1, CONFIG_FILE_MAX + 2);
	memset(big, '\n', CONFIG_FILE_MAX + 1);
	f = fopen(path, "w");
	if (f && big) {
		fwrite(big, 1, CONFIG_FILE_MAX + 1, f);
		fclose(f);
	}
	tap_ok(config_read(path, &c, &e) == -EFBIG && e.kind == CONFIG_E_TOO_BIG,
	       "config: a file over %d bytes is refused", CONFIG_FILE_MAX);
	f = fopen(path, "w");
	if (f && big) {
		fwrite(big, 1, CONFIG_FILE_MAX, f);
		fclose(f);
	}
	tap_ok(config_read(path, &c, &e) == 0, "config: a file of exactly %d bytes is read",
	       CONFIG_FILE_MAX);
	free(big);
	unlink(path);
	tap_ok(config_read("/", &c, &e) == -EISDIR, "config: a directory is -EISDIR");
}

/* Random bytes, and random mixes of the file's own words: no crash, 0 or -EINVAL. */
static void test_fuzz(void)
{
	static const char *const words[] = { "resume", "resume_offset", "poweroff", "image_size",
		"progress", "=", " ", "\t", "\n", "\r\n", "#", "reboot", "yes", "12", "G", "\0" };
	char buf[512], desc[200];
	int i, bad = 0;
	size_t n, j;

	srand(20261);
	for (i = 0; i < 20000; i++) {
		n = (size_t)rand() % sizeof(buf);
		for (j = 0; j < n; j++)
			buf[j] = (char)rand();
		if (i & 1) {
			for (j = 0; j + 16 < n;) {
				const char *w = words[rand() % 16];
				size_t wl = *w ? strlen(w) : 1;

				memcpy(buf + j, w, wl);
				j += wl;
			}
		}
		memset(&e, 0, sizeof(e));
		switch (config_parse(buf, n, &c, &e)) {
		case 0:
			break;
		case -EINVAL:
			if (e.kind == CONFIG_E_NONE || !e.line)
				bad++;
			config_describe(&e, desc, sizeof(desc));
			config_hint(&e, desc, sizeof(desc));
			break;
		default:
			bad++;
		}
	}
	tap_ok(bad == 0, "config: 20000 random inputs: 0 or -EINVAL with a line, no crash (%d bad)",
	       bad);
}

/* image_file: an absolute path, one word, of at most 255 bytes; options override it */
static void test_image_file(void)
{
	char line[CONFIG_PATH_MAX + 32];
	struct config opts;

	tap_ok(parse("image_file = /var/lib/torpor/image\n") == 0 && c.has_image_file &&
	       !strcmp(c.image_file, "/var/lib/torpor/image"), "config: image_file is read");
	tap_ok(parse("image-file = /swap/img\n") == 0 && !strcmp(c.image_file, "/swap/img"),
	       "config: image-file is image_file");
	tap_ok(parse("resume = /dev/vdb\n") == 0 && !c.has_image_file,
	       "config: no image_file line, no image file");
	expect_err("image_file = var/image\n", CONFIG_E_BAD_VALUE, 1, "absolute path",
		   "a relative image_file");
	expect_err("\nimage_file = /a b\n", CONFIG_E_BAD_VALUE, 2, "image_file",
		   "an image_file of two words");
	snprintf(line, sizeof(line), "image_file = /%0*d\n", CONFIG_PATH_MAX - 1, 0);
	expect_err(line, CONFIG_E_BAD_VALUE, 1, "at most 255 bytes", "an image_file of 256 bytes");
	snprintf(line, sizeof(line), "image_file = /%0*d\n", CONFIG_PATH_MAX - 2, 0);
	tap_ok(parse(line) == 0 && strlen(c.image_file) == CONFIG_PATH_MAX - 1,
	       "config: an image_file of 255 bytes is read");
	expect_err("image_file = /a\nimage_file = /b\n", CONFIG_E_DUPLICATE, 2, "image_file",
		   "image_file twice");
	tap_ok(parse("image_file = /a\n") == 0, "config: a file with image_file");
	memset(&opts, 0, sizeof(opts));
	opts.has_image_file = 1;
	strcpy(opts.image_file, "/b");
	config_override(&c, &opts);
	tap_ok(!strcmp(c.image_file, "/b"), "config: --image-file overrides image_file");
}

/* initramfs: an absolute path; --initramfs overrides it */
static void test_initramfs(void)
{
	struct config opts;

	tap_ok(parse("initramfs = /boot/initrd.img\n") == 0 && c.has_initramfs &&
	       !strcmp(c.initramfs, "/boot/initrd.img"), "config: initramfs is read");
	tap_ok(parse("resume = /dev/vdb\n") == 0 && !c.has_initramfs,
	       "config: no initramfs line, none named");
	expect_err("initramfs = boot/initrd.img\n", CONFIG_E_BAD_VALUE, 1, "absolute path",
		   "a relative initramfs");
	tap_ok(parse("initramfs = none\n") == 0 && c.has_initramfs &&
	       !strcmp(c.initramfs, CONFIG_INITRAMFS_NONE), "config: initramfs = none is read");
	expect_err("initramfs = None\n", CONFIG_E_BAD_VALUE, 1, "nor none",
		   "initramfs = None: the word is lower case");
	memset(&opts, 0, sizeof(opts));
	opts.has_initramfs = 1;
	strcpy(opts.initramfs, "/b");
	tap_ok(parse("initramfs = /a\n") == 0, "config: a file with initramfs");
	config_override(&c, &opts);
	tap_ok(!strcmp(c.initramfs, "/b"), "config: --initramfs overrides initramfs");
}

/* discard_after_resume: a boolean, off when absent; --discard-after-resume overrides it */
static void test_discard(void)
{
	struct config opts;

	tap_ok(parse("resume = /dev/vdb\n") == 0 && !c.has_discard_after_resume &&
	       !c.discard_after_resume, "config: no discard_after_resume line, no discard");
	tap_ok(parse("discard_after_resume = yes\n") == 0 && c.has_discard_after_resume &&
	       c.discard_after_resume, "config: discard_after_resume = yes is read");
	tap_ok(parse("discard-after-resume = off\n") == 0 && c.has_discard_after_resume &&
	       !c.discard_after_resume, "config: discard-after-resume = off is read");
	expect_err("discard_after_resume = maybe\n", CONFIG_E_BAD_VALUE, 1, "'yes' or 'no'",
		   "a discard_after_resume that is no boolean");
	tap_ok(parse("discard_after_resume = no\n") == 0, "config: discard_after_resume = no");
	memset(&opts, 0, sizeof(opts));
	opts.has_discard_after_resume = 1;
	opts.discard_after_resume = 1;
	config_override(&c, &opts);
	tap_ok(c.discard_after_resume, "config: --discard-after-resume overrides the file");
}

/* warm_back: a boolean, unset when absent (torpor-suspend takes yes); --no-warm-back overrides */
static void test_warm_back(void)
{
	struct config opts;

	tap_ok(parse("resume = /dev/vdb\n") == 0 && !c.has_warm_back,
	       "config: no warm_back line, warm_back unset");
	tap_ok(parse("warm_back = no\n") == 0 && c.has_warm_back && !c.warm_back,
	       "config: warm_back = no is read");
	tap_ok(parse("warm-back = yes\n") == 0 && c.has_warm_back && c.warm_back,
	       "config: warm-back = yes is read");
	expect_err("warm_back = later\n", CONFIG_E_BAD_VALUE, 1, "'yes' or 'no'",
		   "a warm_back that is no boolean");
	memset(&opts, 0, sizeof(opts));
	opts.has_warm_back = 1;
	opts.warm_back = 0;
	config_override(&c, &opts);
	tap_ok(c.has_warm_back && !c.warm_back, "config: --no-warm-back overrides the file");
}

int main(void)
{
	test_good();
	test_image_file();
	test_initramfs();
	test_discard();
	test_warm_back();
	test_errors();
	test_long_and_nul();
	test_poweroff();
	test_override();
	test_read();
	test_fuzz();
	return tap_done();
}
