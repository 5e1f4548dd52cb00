// SPDX-License-Identifier: GPL-2.0-only
/*
 * statussay.c - torpor-suspend --status: the facts told, as aligned lines for
 * people (status_print()) or as one JSON object for scripts
 * (status_print_json()); the strings in it come from disks and the command
 * line, and go through json_string()
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "jsonstr.h"
#include "msg.h"
#include "status.h"
#include "util.h"

#define LABEL	"%-26s"

/*
 * @s for a terminal: what came from a disk or the command line may hold
 * control bytes (an escape sequence would act on the terminal): each C0 or C1
 * control, and each byte that is not UTF-8, is '?'
 */
static const char *clean(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0, n;

	while (*p && at + 1 < len) {
		n = utf8_len(p);
		if (*p < 0x20 || *p == 0x7f || n == 0 || (p[0] == 0xc2 && p[1] < 0xa0) ||
		    at + n >= len) {
			buf[at++] = '?';
			p++;
			continue;
		}
		memcpy(buf + at, p, n);
		at += n;
		p += n;
	}
	buf[at] = '\0';
	return buf;
}

/* "2 h ago", for the seconds since @created */
static void say_age(char *buf, size_t len, uint64_t created, time_t now)
{
	uint64_t t = now > 0 ? (uint64_t)now : 0, s;

	if (created > t) {
		snprintf(buf, len, "in the future (is the clock right?)");
		return;
	}
	s = t - created;
	if (s < 120)
		snprintf(buf, len, "%" PRIu64 " s ago", s);
	else if (s < 120 * 60)
		snprintf(buf, len, "%" PRIu64 " min ago", s / 60);
	else if (s < 48 * 3600)
		snprintf(buf, len, "%" PRIu64 " h ago", s / 3600);
	else
		snprintf(buf, len, "%" PRIu64 " days ago", s / 86400);
}

/* "2" or "1, 2": the formats of bit set @f */
static void say_formats(char *buf, size_t len, uint64_t f)
{
	size_t at = 0;
	unsigned v;

	buf[0] = '\0';
	for (v = 1; v < 64 && at < len; v++)
		if (f & (1ull << v))
			at += (size_t)snprintf(buf + at, len - at, "%s%u", at ? ", " : "", v);
}

static void print_area(FILE *f, const struct status *s)
{
	const struct hib_target *t = &s->area;
	char p[PATH_MAX], spec[sizeof(s->spec)], why[STATUS_TEXT_MAX];

	fprintf(f, LABEL, "next hibernation writes:");
	clean(status_conf_words(s, why, sizeof(why)), p, sizeof(p));
	if (s->area_err == 0 && s->image_file)
		fprintf(f, "%s (image file on %s, page %" PRIu64 ")\n",
			clean(t->swap_path, p, sizeof(p)), t->dev_name, t->offset_pages);
	else if (s->area_err == 0 && t->is_file)
		fprintf(f, "%s (swap file on %s, page %" PRIu64 ", %s)\n",
			clean(t->swap_path, p, sizeof(p)), t->dev_name, t->offset_pages, s->spec_from);
	else if (s->area_err == 0)
		fprintf(f, "%s (swap partition, %s)\n", t->dev_name, s->spec_from);
	else if (s->area_err == -EINVAL && !s->image_file)
		fprintf(f, "nothing (no resume= on the kernel command line, no resume in "
			"torpor.conf%s%s)\n", p[0] ? ", " : "", p);
	else if (s->area_err == -EACCES && !s->is_root && !s->spec[0])
		fprintf(f, "unknown (the initramfs's RESUME= may name it: run as root to read "
			"initramfs '%s')\n", clean(s->conf.path, p, sizeof(p)));
	else if (s->area_err == -EACCES && !s->is_root)
		fprintf(f, "%s (%s; run as root to see where it lies)\n",
			clean(s->spec, spec, sizeof(spec)), s->image_file ? "image file" : s->spec_from);
	else if (s->area_err == -ENODEV)
		fprintf(f, "%s (%s): not an active swap area\n", clean(s->spec, spec, sizeof(spec)),
			s->spec_from);
	else
		fprintf(f, "%s (%s): %s\n", clean(s->spec, spec, sizeof(spec)), s->spec_from,
			msg_errname(s->area_err));
}

static void print_next_boot(FILE *f, const struct status *s)
{
	const struct torpor_cmdline *cl = &s->nb.cl;
	int known = s->area_err == 0;
	char v[sizeof(cl->resume)], c[sizeof(s->conf_from)];

	fprintf(f, LABEL, "next boot reads:");
	if (s->cmdline_err)
		fprintf(f, "unknown (cannot read the kernel command line: %s)\n",
			msg_errname(s->cmdline_err));
	else if (cl->noresume)
		fprintf(f, "nothing (noresume on the kernel command line: it discards the image)\n");
	else if (cl->resume[0] && known && s->next == NEXTBOOT_AGREES)
		fprintf(f, "%s (resume= on the kernel command line)   agrees\n", s->area.dev_name);
	else if (cl->resume[0])
		fprintf(f, "resume=%s (on the kernel command line)%s\n",
			clean(cl->resume, v, sizeof(v)), known ? "   DIFFERS" : "");
	else if (s->next_by_conf)
		fprintf(f, "%s (%s)   agrees\n", s->area.dev_name,
			clean(s->conf_from, c, sizeof(c)));
	else if (s->next_by_efi)
		fprintf(f, "%s (EFI variable TorporHibernateLocation, written when hibernating)   "
			"agrees\n", s->area.dev_name);
	else if (s->by_conf && s->conf_res == CONFAREA_UNREAD && s->conf.err == -EACCES &&
		 !s->is_root)
		fprintf(f, "unknown (no resume= on the kernel command line; run as root to read "
			"the initramfs's RESUME=)\n");
	else
		fprintf(f, "nothing (no resume= on the kernel command line)%s\n",
			known ? "   DIFFERS" : "");
}

static void print_image(FILE *f, const struct status *s, time_t now)
{
	const struct status_image_seen *im = &s->image;
	char age[64], rel[sizeof(im->release)];

	fprintf(f, LABEL, "image now:");
	switch (im->state) {
	case STATUS_IMAGE_UNREAD:
		if (!s->is_root && (!s->area_err || s->area_err == -EACCES))
			fprintf(f, "unknown (run as root to see it)\n");
		else if (s->area_err)
			fprintf(f, "unknown (no area to look in)\n");
		else
			fprintf(f, "unknown (cannot read the area: %s)\n", msg_errname(im->err));
		break;
	case STATUS_IMAGE_NONE:
		fprintf(f, "none\n");
		if (!im->lost)
			break;
		/* the note's texts are printable ASCII (image_lost_decode()) */
		say_age(age, sizeof(age), im->note.noted ? im->note.noted : im->note.created, now);
		fprintf(f, LABEL "not resumed: %s (%s)\n", "last hibernation:", im->note.reason,
			age);
		break;
	case STATUS_IMAGE_TORPOR:
		say_age(age, sizeof(age), im->created, now);
		fprintf(f, "torpor image, %" PRIu64 " MiB, written %s by kernel %s\n",
			(im->bytes + (1u << 20) - 1) >> 20, age, clean(im->release, rel, sizeof(rel)));
		break;
	case STATUS_IMAGE_DAMAGED:
		fprintf(f, "a damaged torpor image (format %u: %s): the next boot discards it\n",
			im->version, msg_errname(im->err));
		break;
	case STATUS_IMAGE_KERNEL:
		fprintf(f, "the kernel's own image (not torpor's)\n");
		break;
	case STATUS_IMAGE_OTHER:
		fprintf(f, "no swap signature there\n");
		break;
	}
}

static void print_initrd(FILE *f, const struct status *s)
{
	const struct status_initrd *d;
	char formats[64], name[PATH_MAX];
	size_t i;

	fprintf(f, LABEL, "initramfs:");
	if (s->initrd_unchecked)
		fprintf(f, "not checked ('initramfs = none' in torpor.conf)\n");
	else if (s->nr_initrd == 0)
		fprintf(f, "%s\n", s->boot_err ? msg_errname(s->boot_err) : "none found");
	for (i = 0; i < s->nr_initrd; i++) {
		d = &s->initrd[i];
		if (i)
			fprintf(f, LABEL, "");
		fprintf(f, "%s: ", clean(d->release[0] ? d->release : d->path, name, sizeof(name)));
		say_formats(formats, sizeof(formats), d->formats);
		if (d->err == -EACCES && !s->is_root)
			fprintf(f, "run as root to read it\n");
		else if (d->err)
			fprintf(f, "cannot read it (%s)\n", msg_errname(d->err));
		else if (d->formats)
			fprintf(f, "torpor-resume%s%s (format %s) %s\n", d->version[0] ? " " : "",
				d->version, formats, status_initrd_words(d));
		else
			fprintf(f, "%s\n", status_initrd_words(d));
	}
	if (s->initrd_more)
		fprintf(f, LABEL "and %zu more\n", "", s->initrd_more);
	if (s->initrd_orphans)
		fprintf(f, LABEL "(and %zu of kernels not installed, left out)\n", "",
			s->initrd_orphans);
}

/**
 * status_print() - the facts of @s as aligned lines on @f, the verdict last
 * @now: the time, for the image's age
 */
void status_print(FILE *f, const struct status *s, time_t now)
{
	char p[STATUS_TEXT_MAX > PATH_MAX ? STATUS_TEXT_MAX : PATH_MAX];

	if (s->snapshot_err)
		fprintf(f, LABEL "%s\n", "kernel:", s->snapshot_err == -ENOENT ?
			"no hibernation (no /dev/snapshot)" : "hibernation disabled");
	print_area(f, s);
	print_next_boot(f, s);
	print_image(f, s, now);
	print_initrd(f, s);
	fprintf(f, LABEL, "systemctl hibernate:");
	if (s->dropin[0])
		fprintf(f, "torpor (torpor-sleep drop-in %s)\n", clean(s->dropin, p, sizeof(p)));
	else
		fprintf(f, "the kernel's writer (no torpor drop-in)\n");
	fprintf(f, LABEL "%s%s\n", "logind CanHibernate:",
		s->can_hibernate[0] ? s->can_hibernate : "unknown: ", s->logind_why);
	if (s->ready) {
		fprintf(f, LABEL "yes\n", "ready:");
		return;
	}
	fprintf(f, LABEL "no: %s\n", "ready:", clean(s->problem, p, sizeof(p)));
	fprintf(f, "torpor: hint: %s\n", clean(s->hint, p, sizeof(p)));
}

static void json_u64(FILE *f, const char *key, int have, uint64_t v)
{
	if (have)
		fprintf(f, "\"%s\":%" PRIu64, key, v);
	else
		fprintf(f, "\"%s\":null", key);
}

static void json_area(FILE *f, const struct status *s)
{
	const struct hib_target *t = &s->area;
	int ok = s->area_err == 0;

	fputs("\"area\":{\"named\":", f);
	json_string(f, s->spec[0] ? s->spec : NULL);
	fputs(",\"named_by\":", f);
	json_string(f, s->spec[0] ? s->spec_from : NULL);
	fputs(",\"kind\":", f);
	json_string(f, !ok ? NULL : s->image_file ? "image file" : t->is_file ? "swap file" :
		    "swap partition");
	fputs(",\"device\":", f);
	json_string(f, ok ? t->dev_name : NULL);
	fputs(",\"path\":", f);
	json_string(f, ok ? t->swap_path : NULL);
	putc(',', f);
	json_u64(f, "offset_pages", ok, t->offset_pages);
	putc(',', f);
	json_u64(f, "bytes", ok, t->swap_bytes);
	fputs(",\"error\":", f);
	json_string(f, ok ? NULL : s->area_err == -EINVAL && !s->image_file ? "none named" :
		    s->area_err == -ENODEV ? "not an active swap area" : msg_errname(s->area_err));
	putc('}', f);
}

static void json_next_boot(FILE *f, const struct status *s)
{
	const struct torpor_cmdline *cl = &s->nb.cl;

	fputs("\"next_boot\":{\"resume\":", f);
	json_string(f, cl->resume[0] ? cl->resume : NULL);
	putc(',', f);
	json_u64(f, "resume_offset", cl->has_resume_offset, cl->resume_offset);
	fprintf(f, ",\"noresume\":%s,\"by_initramfs_conf\":%s,\"by_efi_variable\":%s,"
		"\"agrees\":%s,\"error\":", cl->noresume ? "true" : "false",
		s->next_by_conf ? "true" : "false", s->next_by_efi ? "true" : "false",
		s->area_err ? "null" : s->next == NEXTBOOT_AGREES || s->next_by_conf ||
		s->next_by_efi ? "true" : "false");
	json_string(f, s->cmdline_err ? msg_errname(s->cmdline_err) : NULL);
	putc('}', f);
}

/* the note of the last hibernation, not resumed: null, or its reason, times and kernel */
static void json_lost(FILE *f, const struct status_image_seen *im, time_t now)
{
	uint64_t at = im->note.noted ? im->note.noted : im->note.created;

	if (im->state != STATUS_IMAGE_NONE || !im->lost) {
		fputs("null", f);
		return;
	}
	fputs("{\"reason\":", f);
	json_string(f, im->note.reason);
	putc(',', f);
	json_u64(f, "created", 1, im->note.created);
	putc(',', f);
	json_u64(f, "noted", im->note.noted != 0, im->note.noted);
	putc(',', f);
	json_u64(f, "age_seconds", now > 0 && (uint64_t)now >= at, (uint64_t)now - at);
	fputs(",\"kernel\":", f);
	json_string(f, im->note.release);
	putc('}', f);
}

static void json_image(FILE *f, const struct status *s, time_t now)
{
	static const char *const states[] = {
		[STATUS_IMAGE_UNREAD] = "unknown", [STATUS_IMAGE_NONE] = "none",
		[STATUS_IMAGE_TORPOR] = "torpor", [STATUS_IMAGE_DAMAGED] = "damaged",
		[STATUS_IMAGE_KERNEL] = "kernel", [STATUS_IMAGE_OTHER] = "other",
	};
	const struct status_image_seen *im = &s->image;
	int t = im->state == STATUS_IMAGE_TORPOR;

	fputs("\"image\":{\"state\":", f);
	json_string(f, states[im->state]);
	putc(',', f);
	json_u64(f, "bytes", t, im->bytes);
	putc(',', f);
	json_u64(f, "created", t, im->created);
	putc(',', f);
	json_u64(f, "age_seconds", t && (uint64_t)now >= im->created, (uint64_t)now - im->created);
	fputs(",\"kernel\":", f);
	json_string(f, t ? im->release : NULL);
	fputs(",\"not_resumed\":", f);
	json_lost(f, im, now);
	fputs(",\"error\":", f);
	json_string(f, im->state == STATUS_IMAGE_DAMAGED || (im->state == STATUS_IMAGE_UNREAD &&
		    !s->area_err) ? msg_errname(im->err) : im->state == STATUS_IMAGE_UNREAD ?
		    "no area" : NULL);
	putc('}', f);
}

static void json_initrd(FILE *f, const struct status *s)
{
	const struct status_initrd *d;
	size_t i;
	unsigned v;
	int first;

	fputs("\"initramfs\":[", f);
	for (i = 0; i < s->nr_initrd; i++) {
		d = &s->initrd[i];
		fputs(i ? ",{\"kernel\":" : "{\"kernel\":", f);
		json_string(f, d->release[0] ? d->release : NULL);
		fputs(",\"path\":", f);
		json_string(f, d->path);
		fprintf(f, ",\"ok\":%s,\"verdict\":", d->err ? "null" :
			d->verdict == INITRAMFS_OK ? "true" : "false");
		json_string(f, d->err ? NULL : status_initrd_words(d));
		fputs(",\"formats\":[", f);
		for (v = 1, first = 1; v < 64; v++)
			if (d->formats & (1ull << v)) {
				fprintf(f, first ? "%u" : ",%u", v);
				first = 0;
			}
		fputs("],\"version\":", f);
		json_string(f, d->version[0] ? d->version : NULL);
		fputs(",\"error\":", f);
		json_string(f, d->err ? msg_errname(d->err) : NULL);
		putc('}', f);
	}
	putc(']', f);
}

/**
 * status_print_json() - the facts of @s as one JSON object on @f, one line
 * @now: the time, for the image's age
 */
void status_print_json(FILE *f, const struct status *s, time_t now)
{
	fprintf(f, "{\"ready\":%s,\"problem\":", s->ready ? "true" : "false");
	json_string(f, s->ready ? NULL : s->problem);
	fputs(",\"hint\":", f);
	json_string(f, s->ready ? NULL : s->hint);
	fprintf(f, ",\"root\":%s,\"kernel_support\":%s,", s->is_root ? "true" : "false",
		s->snapshot_err ? "false" : "true");
	json_area(f, s);
	putc(',', f);
	json_next_boot(f, s);
	putc(',', f);
	json_image(f, s, now);
	putc(',', f);
	json_initrd(f, s);
	fputs(",\"systemctl_hibernate\":{\"torpor\":", f);
	fputs(s->dropin[0] ? "true" : "false", f);
	fputs(",\"dropin\":", f);
	json_string(f, s->dropin[0] ? s->dropin : NULL);
	fputs("},\"logind\":{\"can_hibernate\":", f);
	json_string(f, s->can_hibernate[0] ? s->can_hibernate : NULL);
	fputs(",\"why\":", f);
	json_string(f, s->logind_why[0] ? s->logind_why : NULL);
	fputs("}}\n", f);
}
