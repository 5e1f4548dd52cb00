// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-status.c - torpor-suspend --status: the JSON string escaper against
 * hostile strings, the image on the area read from a file laid out as the
 * device (none, torpor's, damaged, the kernel's), the verdict and the lines in
 * each state (not set up, ready, an image present, an ordinary user), the JSON
 * object's validity in each (a small RFC 8259 checker: python3 is not among
 * tests/deps.sh's packages), logind's answer within its deadline, and the
 * facts gathered from a fake /proc/cmdline, /boot and unit directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "decompress.h"
#include "efiwrite.h"
#include "hash.h"
#include "image.h"
#include "jsonstr.h"
#include "status.h"
#include "tap.h"

#define PS 4096
#define NOW 1800000000

static char dir[64];

/* ---- a small JSON checker: the RFC 8259 grammar, strings UTF-8 ---- */

static const char *value(const char *p, int depth);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* one well-formed UTF-8 character at @p (a byte >= 0x80): its end, or NULL */
static const char *utf8(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned long cp;
	int n, i;

	n = u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc2 ? 2 : 0;
	if (!n || (n == 3 && u[0] > 0xef))
		return NULL;
	cp = u[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return NULL;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return NULL;
	return p + n;
}

static const char *string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;	/* a control character, or the end */
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 5;
			} else if (*p && strchr("\"\\/bfnrt", *p)) {
				p++;
			} else {
				return NULL;
			}
		} else if ((unsigned char)*p >= 0x80) {
			p = utf8(p);
			if (!p)
				return NULL;
		} else {
			p++;
		}
	}
	return p + 1;
}

static const char *number(const char *p)
{
	const char *d;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		for (d = ++p; *p >= '0' && *p <= '9'; p++)
			;
		if (p == d)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		for (d = p; *p >= '0' && *p <= '9'; p++)
			;
		if (p == d)
			return NULL;
	}
	return p;
}

/* an object (@close '}') or an array (']') after its opening character */
static const char *members(const char *p, char close, int depth)
{
	p = ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = string(ws(p));
			if (!p || *(p = ws(p)) != ':')
				return NULL;
			p++;
		}
		p = value(p, depth + 1);
		if (!p)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *value(const char *p, int depth)
{
	p = ws(p);
	if (depth > 32)
		return NULL;
	if (*p == '{' || *p == '[')
		return members(p + 1, *p == '{' ? '}' : ']', depth);
	if (*p == '"')
		return string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	return number(p);
}

static int json_valid(const char *text)
{
	const char *p = value(text, 0);

	return p && *ws(p) == '\0';
}

static void test_checker(void)
{
	static const char *const bad[] = {
		"{\"a\":1,}", "{\"a\" 1}", "[1 2]", "\"\x01\"", "\"\xff\"", "\"\xc0\x80\"",
		"\"\xed\xa0\x80\"", "\"\\x\"", "\"\\u12\"", "01", "{\"a\":tru}", "{} x", "\"open",
	};
	size_t i;
	int rejects = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (json_valid(bad[i])) {
			printf("# accepted: %s\n", bad[i]);
			rejects = 0;
		}
	tap_ok(rejects, "json checker: rejects %zu malformed texts", i);
	tap_ok(json_valid("{\"a\":[1,-2.5e3,true,false,null,\"\\u00e9\xc3\xa9\xf0\x9f\x98\x80\"],"
			  "\"b\":{}}"), "json checker: accepts a text of every kind of value");
}

/* ---- json_string() ---- */

static char *captured(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return strdup("");
	fn(f, arg);
	fclose(f);
	return buf;
}

static void put_string(FILE *f, const void *s)
{
	json_string(f, s);
}

static void test_escaper(void)
{
	static const struct {
		const char *in, *want, *what;
	} c[] = {
		{ "a\"b\\c", "\"a\\\"b\\\\c\"", "quotes and backslashes" },
		{ "\n\t\x01\x1f\x7f", "\"\\u000a\\u0009\\u0001\\u001f\\u007f\"", "control characters" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
		  "well-formed UTF-8, kept" },
		{ "\xff" "a", "\"\\ufffda\"", "a byte that is never UTF-8" },
		{ "\xc0\x80", "\"\\ufffd\\ufffd\"", "an overlong NUL" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "a surrogate" },
		{ "x\xe2\x82", "\"x\\ufffd\\ufffd\"", "a sequence cut by the end" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "past U+10FFFF" },
		{ "\x80\xbf", "\"\\ufffd\\ufffd\"", "lone continuation bytes" },
		{ "\xc2\x9b" "2J\xc2\x9d" "0;x\xc2\xa0", "\"\\u009b2J\\u009d0;x\xc2\xa0\"",
		  "C1 controls (U+009B CSI, U+009D OSC) escaped: a terminal would act on them" },
	};
	size_t i;
	char *out;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		out = captured(put_string, c[i].in);
		tap_ok(!strcmp(out, c[i].want) && json_valid(out), "json_string: %s", c[i].what);
		if (strcmp(out, c[i].want))
			printf("# got %s\n", out);
		free(out);
	}
	out = captured(put_string, NULL);
	tap_ok(!strcmp(out, "null"), "json_string: NULL is null");
	free(out);
}

/* ---- the image on the area ---- */

static void make_meta(struct torpor_image *img)
{
	struct torpor_meta *m = &img->meta;
	uint32_t i;

	memset(img, 0, sizeof(*img));
	memcpy(m->magic, TORPOR_META_MAGIC, 8);
	m->version = TORPOR_FORMAT_VERSION;
	m->meta_size = sizeof(struct torpor_meta);
	m->page_size = PS;
	m->algorithm = TORPOR_ALG_LZ4;
	m->block_pages = TORPOR_BLOCK_PAGES;
	m->stream_bytes = 3ull * TORPOR_BLOCK_PAGES * PS;
	m->nr_blocks = 3;
	m->nr_extents = 1;
	m->nr_fs = 1;
	m->created = NOW - 2 * 3600 - 5;
	strcpy(m->release, "6.1.0-57-amd64");
	strcpy(m->machine, "x86_64");
	img->blocks = calloc(3, sizeof(*img->blocks));
	img->extents = calloc(1, sizeof(*img->extents));
	img->fs = calloc(1, sizeof(*img->fs));
	for (i = 0; i < 3; i++) {
		img->blocks[i].stored_len = 4000;
		m->stored_bytes += 4000;
		m->data_pages += 1;
	}
	img->extents[0].offset = PS;
	img->extents[0].pages = 3;
	img->fs[0].dev = 0xfe01;
	img->fs[0].kind = TORPOR_FS_EXT;
}

/* A 64-page "device" file at @path: a swap header, with a torpor image when @image */
static int make_area(const char *path, int image, uint64_t *ret_meta_bytes)
{
	uint8_t page[PS], meta[PS];
	struct torpor_image img;
	size_t mb;
	int fd, r = 0;

	memset(page, 0, sizeof(page));
	page[1024] = 1;
	memcpy(page + PS - 10, SWAP_SIG, 10);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, 64 * PS) < 0)
		return -1;
	if (image) {
		make_meta(&img);
		mb = image_meta_bytes(1, 3, 1);
		memset(meta, 0, sizeof(meta));
		r = image_meta_encode(&img, meta, mb);
		memcpy(img.root.magic, TORPOR_ROOT_MAGIC, 8);
		img.root.version = TORPOR_FORMAT_VERSION;
		img.root.page_size = PS;
		img.root.meta_bytes = mb;
		img.root.meta_hash = hash64(meta, mb);
		img.root.nr_meta_extents = 1;
		img.root.meta_extents[0].offset = 10 * PS;
		img.root.meta_extents[0].pages = 1;
		memcpy(img.root.orig_sig, SWAP_SIG, 10);
		image_root_encode(&img.root, page, PS);
		if (pwrite(fd, meta, PS, 10 * PS) != PS)
			r = -1;
		*ret_meta_bytes = mb;
		image_free(&img);
	}
	if (pwrite(fd, page, PS, 0) != PS)
		r = -1;
	close(fd);
	return r;
}

static void read_area(const char *path, struct status_image_seen *seen)
{
	int fd = open(path, O_RDONLY);

	status_image_read(fd, 64 * PS, 0, PS, seen);
	close(fd);
}

static void poke(const char *path, off_t at, const char *bytes, size_t n)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || pwrite(fd, bytes, n, at) != (ssize_t)n)
		printf("# cannot poke %s\n", path);
	if (fd >= 0)
		close(fd);
}

static struct status_image_seen image_seen;	/* the torpor image, for the printing tests */
static struct status_image_seen lost_seen;	/* a swap area with a lost note, for them */
static struct status_image_seen s_damaged;

#define LOST_REASON "ext4 1234 on /dev/vdc was mounted since hibernation"

/* The note of a hibernation that was not resumed (issue 25), on the plain swap area at @path. */
static void test_lost_note(const char *path)
{
	static struct torpor_lost n;
	uint8_t page[PS];
	int fd = open(path, O_RDWR);

	if (fd < 0 || pread(fd, page, PS, 0) != PS)
		printf("# cannot read %s\n", path);
	n.created = NOW - 3 * 3600;
	n.noted = NOW - 600;
	n.cause = TORPOR_LOST_LATE_CHECK;
	snprintf(n.release, sizeof(n.release), "6.12.117-amd64");
	snprintf(n.reason, sizeof(n.reason), LOST_REASON);
	image_lost_encode(&n, page, PS);
	if (pwrite(fd, page, PS, 0) != PS)
		printf("# cannot write %s\n", path);
	close(fd);
	read_area(path, &lost_seen);
	tap_ok(lost_seen.state == STATUS_IMAGE_NONE && lost_seen.lost &&
	       !strcmp(lost_seen.note.reason, LOST_REASON) && lost_seen.note.noted == NOW - 600,
	       "image: no image, the note of the last one not resumed read");
	poke(path, TORPOR_ROOT_OFFSET + 100, "\x01", 1);
	read_area(path, &s_damaged);
	tap_ok(s_damaged.state == STATUS_IMAGE_NONE && !s_damaged.lost,
	       "image: a damaged note is not read");
}

static void test_image(void)
{
	char path[128];
	uint64_t mb = 0;
	struct status_image_seen s;
	int fd;

	snprintf(path, sizeof(path), "%s/area", dir);
	tap_ok(make_area(path, 0, &mb) == 0, "image: a swap area made");
	read_area(path, &s);
	tap_ok(s.state == STATUS_IMAGE_NONE, "image: a plain swap signature: none");

	test_lost_note(path);

	tap_ok(make_area(path, 1, &mb) == 0, "image: a torpor image written");
	read_area(path, &image_seen);
	tap_ok(image_seen.state == STATUS_IMAGE_TORPOR && image_seen.bytes == 3 * 4000 + mb &&
	       image_seen.created == NOW - 2 * 3600 - 5 &&
	       !strcmp(image_seen.release, "6.1.0-57-amd64"),
	       "image: torpor's, with its size (data and map), time and kernel (state %d, err %d)",
	       image_seen.state, image_seen.err);

	poke(path, 10 * PS + 100, "\x55", 1);
	read_area(path, &s);
	tap_ok(s.state == STATUS_IMAGE_DAMAGED && s.err == -EBADMSG &&
	       s.version == TORPOR_FORMAT_VERSION,
	       "image: a map whose hash fails: damaged, never decoded");
	tap_ok(make_area(path, 1, &mb) == 0, "image: written again");
	poke(path, TORPOR_ROOT_OFFSET + 20, "\x01\x02", 2);
	read_area(path, &s);
	tap_ok(s.state == STATUS_IMAGE_DAMAGED && s.err == -EBADMSG,
	       "image: a root record whose CRC fails: damaged");

	poke(path, PS - 10, "S1SUSPEND", 10);
	read_area(path, &s);
	tap_ok(s.state == STATUS_IMAGE_KERNEL, "image: S1SUSPEND: the kernel's own writer's");
	poke(path, PS - 10, "\0\0\0\0\0\0\0\0\0\0", 10);
	read_area(path, &s);
	tap_ok(s.state == STATUS_IMAGE_OTHER, "image: no signature at all: other");

	fd = open(path, O_RDONLY);
	status_image_read(fd, 64 * PS, 64 * PS, PS, &s);
	tap_ok(s.state == STATUS_IMAGE_UNREAD && s.err == -ENOSPC,
	       "image: a header page past the device's end is not read");
	close(fd);
}

/* status_image_open for the tests: the file @hook_path, whatever the device */
static char hook_path[160];

static int open_hook_path(dev_t dev, int flags)
{
	int fd;

	(void)dev;
	fd = open(hook_path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* (alarm: before the bound, a reader that never answered hung --status for ever) */
static void on_alarm(int sig)
{
	static const char m[] = "not ok - image: a device that never answers hangs the reader\n";

	(void)sig;
	(void)!write(1, m, sizeof(m) - 1);
	_exit(1);
}

static void on_alarm_fifo(int sig)
{
	static const char m[] = "not ok - collect: an image file that is a FIFO hangs --status\n";

	(void)sig;
	(void)!write(1, m, sizeof(m) - 1);
	_exit(1);
}

/*
 * The area read by a child within a bound (as root, the real device): its
 * answer comes back whole; one that never answers (here a FIFO, whose open
 * waits for a writer, as a read of a dead disk waits) costs the bound only
 */
static void test_image_bounded(void)
{
	struct status_image_seen s;
	int (*was)(dev_t, int) = status_image_open;
	uint64_t mb = 0;
	long long t0;

	status_image_open = open_hook_path;
	snprintf(hook_path, sizeof(hook_path), "%s/area-dev", dir);
	tap_ok(make_area(hook_path, 1, &mb) == 0, "image: a torpor image written for the reader");
	status_image_read_dev(0, 0, PS, 5000, &s);
	tap_ok(s.state == STATUS_IMAGE_TORPOR && s.bytes == 3 * 4000 + mb &&
	       !strcmp(s.release, "6.1.0-57-amd64"),
	       "image: read by the reader process, its answer whole (state %d, err %d)", s.state,
	       s.err);
	status_image_read_dev(0, 64, PS, 5000, &s);
	tap_ok(s.state == STATUS_IMAGE_UNREAD && s.err == -ENOSPC,
	       "image: the reader's error comes back (err %d)", s.err);

	snprintf(hook_path, sizeof(hook_path), "%s/stuck", dir);
	if (mkfifo(hook_path, 0600) < 0) {
		tap_ok(0, "image: mkfifo %s", hook_path);
		status_image_open = was;
		return;
	}
	signal(SIGALRM, on_alarm);
	alarm(20);
	t0 = (long long)time(NULL);
	status_image_read_dev(0, 0, PS, 300, &s);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	tap_ok(s.state == STATUS_IMAGE_UNREAD && s.err == -ETIMEDOUT && time(NULL) - t0 < 5,
	       "image: a device that never answers costs the bound, then unknown (err %d)", s.err);
	status_image_open = was;
}

/* ---- the verdict and the lines ---- */

/* A machine set up: a swap partition the next boot reads, no image, one ok initramfs */
static void set_up(struct status *s)
{
	memset(s, 0, sizeof(*s));
	s->is_root = 1;
	snprintf(s->spec, sizeof(s->spec), "UUID=0a1b");
	s->spec_from = "resume= on the kernel command line";
	snprintf(s->area.dev_name, sizeof(s->area.dev_name), "/dev/vda2");
	snprintf(s->area.swap_path, sizeof(s->area.swap_path), "/dev/vda2");
	s->area.swap_bytes = 1ull << 30;
	s->next = NEXTBOOT_AGREES;
	snprintf(s->nb.cl.resume, sizeof(s->nb.cl.resume), "UUID=0a1b");
	s->image.state = STATUS_IMAGE_NONE;
	s->nr_initrd = 1;
	snprintf(s->initrd[0].release, sizeof(s->initrd[0].release), "6.12.118+deb13-amd64");
	snprintf(s->initrd[0].path, sizeof(s->initrd[0].path), "/boot/initrd.img-6.12.118+deb13-amd64");
	s->initrd[0].formats = 1ull << TORPOR_FORMAT_VERSION;
	snprintf(s->initrd[0].version, sizeof(s->initrd[0].version), "0.2");
	snprintf(s->dropin, sizeof(s->dropin),
		 "/usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf");
	snprintf(s->can_hibernate, sizeof(s->can_hibernate), "yes");
}

static void put_status(FILE *f, const void *s)
{
	status_print(f, s, NOW);
}

static void put_json(FILE *f, const void *s)
{
	status_print_json(f, s, NOW);
}

/* The lines of @s hold each of the NULL-ended @want; shown as comments, as the report shows them */
static int says(const struct status *s, const char *what, ...)
{
	char *out = captured(put_status, s), *js = captured(put_json, s);
	const char *w;
	va_list ap;
	int all = 1;

	va_start(ap, what);
	while ((w = va_arg(ap, const char *)))
		if (!strstr(out, w)) {
			printf("# missing: %s\n", w);
			all = 0;
		}
	va_end(ap);
	printf("# %s:\n", what);
	for (w = out; *w; w = strchr(w, '\n') + 1)
		printf("#   %.*s\n", (int)(strchr(w, '\n') - w), w);
	tap_ok(all, "status: %s: the lines say so", what);
	tap_ok(json_valid(js) && strstr(js, s->ready ? "{\"ready\":true," : "{\"ready\":false,"),
	       "status: %s: --json is one valid JSON object, ready %s", what,
	       s->ready ? "true" : "false");
	if (!json_valid(js))
		printf("# %s\n", js);
	free(out);
	free(js);
	return all;
}

static void test_states(void)
{
	struct status s;

	/* not set up: nothing names an area */
	set_up(&s);
	s.spec[0] = s.nb.cl.resume[0] = '\0';
	s.area_err = -EINVAL;
	s.image.state = STATUS_IMAGE_UNREAD;
	s.image.err = -EINVAL;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "no swap area is named"),
	       "status: not set up: not ready, no swap area named");
	says(&s, "not set up",
	     "next hibernation writes:  nothing (no resume= on the kernel command line, no "
	     "resume in torpor.conf)\n",
	     "next boot reads:          nothing (no resume= on the kernel command line)\n",
	     "image now:                unknown (no area to look in)\n",
	     "ready:                    no: no swap area is named for the image",
	     "torpor: hint: add resume= for an active swap area", NULL);
	/* the same on a machine whose only swap is zram: the image file is the fix */
	s.zram_only = 1;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "no swap area is named") &&
	       strstr(s.hint, "zram is the only swap: hibernate into an image file") &&
	       strstr(s.hint, "--setup-image-file"),
	       "status: not set up, zram the only swap: the image file's recipe (%s)", s.hint);

	/* set up */
	set_up(&s);
	status_judge(&s);
	tap_ok(s.ready && !s.problem[0], "status: set up: ready");
	says(&s, "ready",
	     "next hibernation writes:  /dev/vda2 (swap partition, resume= on the kernel command "
	     "line)\n",
	     "next boot reads:          /dev/vda2 (resume= on the kernel command line)   agrees\n",
	     "image now:                none\n",
	     "initramfs:                6.12.118+deb13-amd64: torpor-resume 0.2 (format 2) ok\n",
	     "systemctl hibernate:      torpor (torpor-sleep drop-in /usr/lib/systemd/system/"
	     "systemd-hibernate.service.d/torpor.conf)\n",
	     "logind CanHibernate:      yes\n", "ready:                    yes\n", NULL);

	/* 'initramfs = none' in torpor.conf: none read, and said so, not "none found" */
	set_up(&s);
	s.nr_initrd = 0;
	s.initrd_unchecked = 1;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "initramfs = none") && !strstr(s.hint, "rebuild"),
	       "status: initramfs = none: not known, said so (%s)", s.problem);
	says(&s, "initramfs = none",
	     "initramfs:                not checked ('initramfs = none' in torpor.conf)\n",
	     "ready:                    no: the initramfs is not checked", NULL);

	/* an image on the area: seen, its size, age and kernel */
	set_up(&s);
	s.image = image_seen;
	status_judge(&s);
	tap_ok(s.ready, "status: an image present: still ready (the next hibernation replaces it)");
	says(&s, "image present",
	     "image now:                torpor image, 1 MiB, written 2 h ago by kernel "
	     "6.1.0-57-amd64\n", NULL);

	/* no image, the last one not resumed: why, and how long ago */
	set_up(&s);
	s.image = lost_seen;
	status_judge(&s);
	tap_ok(s.ready, "status: the last hibernation not resumed: ready");
	says(&s, "last one not resumed", "image now:                none\n",
	     "last hibernation:         not resumed: " LOST_REASON " (10 min ago)\n", NULL);
	{
		char *js = captured(put_json, &s);

		tap_ok(strstr(js, "\"not_resumed\":{\"reason\":\"" LOST_REASON "\",\"created\":") &&
		       strstr(js, "\"age_seconds\":600,\"kernel\":\"6.12.117-amd64\"}"),
		       "status: the last one not resumed: in --json too");
		free(js);
	}

	/* an ordinary user: what needs root is not known, and said so */
	set_up(&s);
	s.is_root = 0;
	s.image.state = STATUS_IMAGE_UNREAD;
	s.image.err = -EACCES;
	s.initrd[0].err = -EACCES;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "run as root to see the image on the area, the "
				  "initramfs files"),
	       "status: an ordinary user: not ready, as not known (%s)", s.problem);
	says(&s, "ordinary user", "image now:                unknown (run as root to see it)\n",
	     "initramfs:                6.12.118+deb13-amd64: run as root to read it\n",
	     "torpor: hint: run 'sudo torpor status'", NULL);
}

/*
 * An ordinary user, nothing but the initramfs's RESUME= to name the area, and
 * the initramfs readable by root only (UMASK=0077, dracut's 0600): which area
 * is not known, and said so, never "nothing"
 */
static void test_conf_unread(void)
{
	struct status s;

	set_up(&s);
	s.is_root = 0;
	s.spec[0] = s.nb.cl.resume[0] = '\0';
	s.area_err = -EACCES;
	s.next = NEXTBOOT_UNNAMED;
	s.by_conf = 1;
	s.conf_res = CONFAREA_UNREAD;
	s.conf.err = -EACCES;
	snprintf(s.conf.path, sizeof(s.conf.path), "/boot/initrd.img-6.12.118+deb13-amd64");
	s.image.state = STATUS_IMAGE_UNREAD;
	s.image.err = -EACCES;
	s.initrd[0].err = -EACCES;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "run as root to see which area the initramfs's "
				  "RESUME= names, the image on the area, the initramfs files"),
	       "status: an ordinary user, RESUME= in an initramfs only root reads: not known (%s)",
	       s.problem);
	says(&s, "ordinary user, RESUME= unread",
	     "next hibernation writes:  unknown (the initramfs's RESUME= may name it: run as "
	     "root to read initramfs '/boot/initrd.img-6.12.118+deb13-amd64')\n",
	     "next boot reads:          unknown (no resume= on the kernel command line; run as "
	     "root to read the initramfs's RESUME=)\n", NULL);
}

/* the first problem of a setup ready but for @change */
static const char *first(void (*change)(struct status *))
{
	static struct status s;

	set_up(&s);
	change(&s);
	status_judge(&s);
	return s.ready ? "(ready)" : s.problem;
}

static void other_device(struct status *s)
{
	s->next = NEXTBOOT_OTHER_DEVICE;
	snprintf(s->nb.cl.resume, sizeof(s->nb.cl.resume), "/dev/vdb\"\x01\xff");
}

static void noresume(struct status *s)
{
	s->next = NEXTBOOT_NORESUME;
	s->nb.cl.noresume = 1;
}

static void no_resume_bin(struct status *s)
{
	s->initrd[0].verdict = INITRAMFS_NO_RESUME;
	s->initrd[0].formats = 0;
}

static void no_dropin(struct status *s)
{
	s->dropin[0] = '\0';
}

static void logind_no(struct status *s)
{
	snprintf(s->can_hibernate, sizeof(s->can_hibernate), "no");
}

static void two_problems(struct status *s)
{
	s->area_err = -ENODEV;
	s->dropin[0] = '\0';
}

static void no_kernel(struct status *s)
{
	s->snapshot_err = -ENOENT;
	s->area_err = -EINVAL;
}

static void malformed(struct status *s)
{
	s->area_err = -EINVAL;
	s->spec[0] = s->nb.cl.resume[0] = '\0';
	s->nb.cl.resume_bad = 1;
}

static void test_problems(void)
{
	struct status s;

	tap_ok(strstr(first(malformed), "command line's resume= is malformed") != NULL,
	       "status: a malformed resume=: said so, not 'none named'");
	/* an ordinary user whose swap file's place needs root to find */
	set_up(&s);
	s.is_root = 0;
	s.area_err = -EACCES;
	s.image.state = STATUS_IMAGE_UNREAD;
	status_judge(&s);
	tap_ok(!s.ready && strstr(s.problem, "run as root to see where the swap file lies"),
	       "status: an ordinary user, a swap file: where it lies needs root (%s)", s.problem);
	says(&s, "ordinary user, swap file", "next hibernation writes:  UUID=0a1b (resume= on "
	     "the kernel command line; run as root to see where it lies)\n",
	     "image now:                unknown (run as root to see it)\n", NULL);

	tap_ok(strstr(first(other_device), "another area") != NULL,
	       "status: resume= names another area: not ready");
	tap_ok(strstr(first(noresume), "noresume") != NULL, "status: noresume: not ready");
	tap_ok(strstr(first(no_resume_bin), "initramfs of kernel 6.12.118+deb13-amd64 has no "
				   "torpor-resume") != NULL,
	       "status: an initramfs without torpor-resume: not ready");
	tap_ok(strstr(first(no_dropin), "systemctl hibernate runs the kernel's writer") != NULL,
	       "status: no torpor-sleep drop-in: not ready");
	tap_ok(strstr(first(logind_no), "CanHibernate=no") != NULL,
	       "status: logind says no: not ready");
	tap_ok(strstr(first(two_problems), "is not an active swap area") != NULL,
	       "status: two problems: the area's is first");
	tap_ok(strstr(first(no_kernel), "no hibernation support") != NULL,
	       "status: no /dev/snapshot: said before all else");
	/* hostile bytes from the command line still make valid JSON */
	set_up(&s);
	other_device(&s);
	status_judge(&s);
	says(&s, "resume= with a quote, a control byte and a byte not UTF-8",
	     "resume=/dev/vdb\"?? (on the kernel command line)   DIFFERS", NULL);
	/* an image's kernel name with escape sequences (ESC, and C1's CSI) reaches no terminal */
	set_up(&s);
	s.image = image_seen;
	snprintf(s.image.release, sizeof(s.image.release), "6.1\x1b[2J\xc2\x9b" "1m\xc3\xa9");
	status_judge(&s);
	says(&s, "an image whose kernel name holds escape sequences",
	     "by kernel 6.1?[2J??1m\xc3\xa9\n", NULL);
}

/* ---- logind ---- */

static void script(const char *name, const char *body)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\n%s\n", body);
		fclose(f);
	}
	chmod(path, 0755);
}

static int ask(const char *name, int timeout_ms, char *buf)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = '\0';
	return logind_can_hibernate(path, timeout_ms, buf, 32);
}

static void test_logind(void)
{
	char buf[32];
	time_t t0;
	int r;

	script("yes", "[ \"$3 $6\" = 'org.freedesktop.login1 CanHibernate' ] && echo 's \"yes\"'");
	tap_ok(ask("yes", 5000, buf) == 0 && !strcmp(buf, "yes"),
	       "logind: busctl's answer, its arguments those of CanHibernate");
	script("fails", "echo 'Failed to connect to bus' >&2; exit 1");
	tap_ok(ask("fails", 5000, buf) == -ECONNREFUSED, "logind: no bus: no answer");
	script("denied", "echo 'Call failed: Access denied' >&2; exit 1");
	tap_ok(ask("denied", 5000, buf) == -EACCES,
	       "logind: Access denied (an ordinary user, no polkit): told from no bus");
	script("warns", "echo 'Warning: something' >&2; echo 's \"yes\"'");
	tap_ok(ask("warns", 5000, buf) == 0 && !strcmp(buf, "yes"),
	       "logind: a warning before the answer: the answer still read");
	script("odd", "echo 'b true'");
	tap_ok(ask("odd", 5000, buf) == -EBADMSG, "logind: an answer not a string: refused");
	script("quoted", "echo 's \"y\\\\es\"'");
	tap_ok(ask("quoted", 5000, buf) == -EBADMSG, "logind: an escaped string: refused");
	tap_ok(ask("absent", 5000, buf) == -ENOENT, "logind: no busctl: said so");
	script("hangs", "exec sleep 30");
	t0 = time(NULL);
	r = ask("hangs", 300, buf);
	tap_ok(r == -ETIMEDOUT && time(NULL) - t0 < 10,
	       "logind: a busctl that hangs is killed at the deadline (%d, %ld s)", r,
	       (long)(time(NULL) - t0));
}

/* ---- the facts gathered from fake places ---- */

static void on_alarm_slow(int sig)
{
	static const char m[] = "not ok - collect: stuck decompressors cost each its own bound\n";

	(void)sig;
	(void)!write(1, m, sizeof(m) - 1);
	_exit(1);
}

/*
 * Many kernels' initramfs, each a decompressor that never ends: one bound for
 * them all, not INITRAMFS_TIMEOUT_MS (60 s) each, so that 16 of them cannot
 * keep --status waiting 16 minutes
 */
static void test_initrd_budget(void)
{
	struct status *s = calloc(1, sizeof(*s));
	char boot[128], tools[128], d[1024];
	long long t0;
	size_t i;
	int late = 1;

	snprintf(boot, sizeof(boot), "%s/slowboot", dir);
	snprintf(tools, sizeof(tools), "%s/slowtools", dir);
	snprintf(d, sizeof(d), "mkdir -p %s %s && printf '#!/bin/sh\\nexec sleep 30\\n' >%s/zstd && "
		 "chmod 755 %s/zstd && for k in 1 2 3; do printf '\\050\\265\\057\\375junk' "
		 ">%s/initrd.img-6.1.0-$k; : >%s/vmlinuz-6.1.0-$k; done", boot, tools, tools, tools,
		 boot, boot);
	if (!s || system(d) != 0) {
		tap_ok(0, "collect: the slow /boot made");
		free(s);
		return;
	}
	signal(SIGALRM, on_alarm_slow);
	alarm(30);
	t0 = (long long)time(NULL);
	status_initrd_scan(boot, NULL, NULL, tools, 600, s);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	for (i = 1; i < s->nr_initrd; i++)
		late &= s->initrd[i].err == -ETIMEDOUT;
	tap_ok(s->nr_initrd == 3 && s->initrd[0].err == -ETIMEDOUT && late &&
	       (long long)time(NULL) - t0 < 10,
	       "collect: 3 stuck decompressors cost one bound for them all (%lld s, err %d)",
	       (long long)time(NULL) - t0, s->nr_initrd ? s->initrd[0].err : 0);
	free(s);
}

static void test_collect(void)
{
	struct status_env env = { .logind_timeout_ms = 5000, .is_root = 1, .now = NOW,
				  .decompress_path = DECOMPRESS_PATH,
				  .initrd_budget_ms = STATUS_INITRD_BUDGET_MS };
	char cmdline[128], boot[128], units[128], busctl[128], d[640];
	struct hib_opts o;
	struct status *s = calloc(1, sizeof(*s));

	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", dir);
	snprintf(boot, sizeof(boot), "%s/boot", dir);
	snprintf(units, sizeof(units), "%s/root", dir);
	snprintf(busctl, sizeof(busctl), "%s/yes", dir);
	env.cmdline = cmdline;
	env.boot_dir = boot;
	env.unit_root = units;
	env.busctl = busctl;
	{
		FILE *f = fopen(cmdline, "w");

		if (f) {
			fputs("BOOT_IMAGE=/vmlinuz-6.1 ro quiet\n", f);
			fclose(f);
		}
	}
	snprintf(d, sizeof(d), "mkdir -p %s %s/usr/lib/systemd/system/systemd-hibernate.service.d "
		 "%s/etc/systemd/system", boot, units, units);
	if (system(d) != 0)
		printf("# mkdir failed\n");
	snprintf(d, sizeof(d), "%s/initrd.img-6.1.0-test", boot);
	{
		FILE *f = fopen(d, "w");

		if (f) {
			fputs("not an archive\n", f);
			fclose(f);
		}
	}
	snprintf(d, sizeof(d), "%s/vmlinuz-6.1.0-test", boot);
	fclose(fopen(d, "w"));
	snprintf(d, sizeof(d), "%s/usr/lib/systemd/system/systemd-hibernate.service.d/torpor.conf",
		 units);
	{
		FILE *f = fopen(d, "w");

		if (f) {
			fputs("[Service]\nExecStart=\nExecStart=/usr/lib/torpor/torpor-sleep hibernate\n", f);
			fclose(f);
		}
	}
	memset(&o, 0, sizeof(o));
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	tap_ok(s->area_err == -EINVAL && !s->nb.cl.resume[0] && s->cmdline_err == 0 &&
	       s->image.state == STATUS_IMAGE_UNREAD,
	       "collect: no resume=: no area, the command line read");
	tap_ok(s->nr_initrd == 1 && !strcmp(s->initrd[0].release, "6.1.0-test") &&
	       s->initrd[0].err < 0,
	       "collect: /boot's initrd.img-RELEASE judged (not an archive: %d), vmlinuz left out",
	       s->nr_initrd ? s->initrd[0].err : 0);
	/* a kernel's leftovers: its initramfs judged only while the kernel is installed */
	snprintf(d, sizeof(d), "cd %s && echo x >initrd.img-6.1.0-test.old-dkms && echo x "
		 ">initrd.img-6.1.0-gone && echo x >initramfs-linux-fallback.img && : >vmlinuz-linux",
		 boot);
	if (system(d) != 0)
		printf("# leftovers not made\n");
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	tap_ok(s->nr_initrd == 2 && !strcmp(s->initrd[0].release, "linux-fallback") &&
	       !strcmp(s->initrd[1].release, "6.1.0-test") && s->initrd_orphans == 2,
	       "collect: a removed kernel's initramfs and an .old-dkms copy left out, Arch's "
	       "fallback image judged (%zu judged, %zu left out)", s->nr_initrd, s->initrd_orphans);
	says(s, "leftovers", "(and 2 of kernels not installed, left out)\n", NULL);
	snprintf(d, sizeof(d), "cd %s && rm initrd.img-6.1.0-test.old-dkms initrd.img-6.1.0-gone "
		 "initramfs-linux-fallback.img vmlinuz-linux", boot);
	if (system(d) != 0)
		printf("# leftovers not removed\n");
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	tap_ok(strstr(s->dropin, "/usr/lib/systemd/system/") != NULL && !strcmp(s->can_hibernate, "yes"),
	       "collect: the drop-in in /usr/lib found, logind asked");
	/* a drop-in of the same name in /etc linked to /dev/null masks it */
	snprintf(d, sizeof(d), "mkdir -p %s/etc/systemd/system/systemd-hibernate.service.d && "
		 "ln -s /dev/null %s/etc/systemd/system/systemd-hibernate.service.d/torpor.conf",
		 units, units);
	if (system(d) != 0)
		printf("# ln failed\n");
	status_collect(&env, &o, "resume= on the kernel command line", NULL, s);
	tap_ok(!s->dropin[0], "collect: a drop-in masked in /etc: systemctl hibernate is not torpor's");
	status_collect(&env, &o, "torpor.conf", "/nonexistent/torpor-image", s);
	tap_ok(s->area_err == -ENOENT && s->image_file != NULL,
	       "collect: an image file that does not exist");
	/* a FIFO named as the image file: said at once, never opened to wait for a writer */
	snprintf(d, sizeof(d), "%s/image-fifo", dir);
	if (mkfifo(d, 0600) == 0) {
		signal(SIGALRM, on_alarm_fifo);
		alarm(20);
		status_collect(&env, &o, "torpor.conf", d, s);
		alarm(0);
		signal(SIGALRM, SIG_DFL);
		tap_ok(s->area_err == -EINVAL && !s->ready,
		       "collect: an image file that is a FIFO: not one, said at once (%d)",
		       s->area_err);
	} else {
		tap_ok(0, "collect: mkfifo %s", d);
	}
	free(s);
}

int main(void)
{
	efiwrite_dir = "/nonexistent/efivars";	/* not this host's EFI variables */
	snprintf(dir, sizeof(dir), "/tmp/torpor-status-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_checker();
	test_escaper();
	test_image();
	test_image_bounded();
	test_states();
	test_conf_unread();
	test_problems();
	test_logind();
	test_collect();
	test_initrd_budget();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			printf("# cannot remove %s\n", dir);
	}
	return tap_done();
}
