// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfs.c - read the next boot's initramfs and tell whether it holds a
 * torpor-resume that reads this image format and the hook that runs it
 *
 * Only what matters is kept while the archives stream by: the entries named
 * torpor-resume (their data scanned for the marker), the hook scripts and the
 * files that say whether they run (their text, up to TEXT_MAX), the symlinks
 * (to follow lib -> usr/lib and the like), and the marker of every hard-linked
 * file (a hard link's data comes with one of its names only).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bootentry.h"
#include "cpio.h"
#include "crc32.h"
#include "decompress.h"
#include "image.h"
#include "initramfs.h"
#include "monoclock.h"
#include "pefile.h"
#include "streamend.h"

#define FILES_MAX	64		/* recorded candidates */
#define TEXT_MAX	(64 * 1024)	/* text kept of a hook or list */
#define HEAD_MAX	64		/* kept of /init: is it a script? */
#define LINKS_BYTES_MAX	(4u << 20)	/* symlink names and targets kept */
#define HARDLINKS_MAX	4096		/* hard-linked files with a marker */
#define MARKER_TAIL	32		/* the formats after the prefix, at most */
#define CHUNK		(256 * 1024)
#define SYMLOOP_MAX	40

enum role {
	R_RESUME,			/* named torpor-resume */
	R_ITOOLS_HOOK,
	R_ITOOLS_ORDER,
	R_DRACUT_HOOK,
	R_CPIO_HOOK,			/* mkinitcpio's hooks/torpor */
	R_CPIO_CONFIG,			/* mkinitcpio's /config */
	R_INIT,				/* /init: a shell script, or systemd */
	R_DRACUT_UNIT,			/* dracut-pre-mount.service: runs the hooks under systemd */
};

struct file {
	char *path;			/* normalized: no leading '/', no "." or "//" */
	enum role role;
	uint64_t seq;			/* the entry's number: the last one wins */
	uint32_t mode, nlink, ino, devmajor, devminor, size;
	uint64_t formats;		/* R_RESUME: from the marker */
	int marked;
	char *text;			/* the others: the start of the data */
	size_t text_len;
};

struct symlink {
	char *path;
	char *target;
};

struct hardlink {
	uint32_t ino, devmajor, devminor;
	uint64_t formats;
};

struct walk {
	struct file files[FILES_MAX];
	size_t nr_files;
	int files_cut;			/* more candidates than FILES_MAX */
	struct symlink *links;
	size_t nr_links, links_cap, links_bytes;
	int links_cut;
	struct hardlink hard[HARDLINKS_MAX];
	size_t nr_hard;
	unsigned hosts;
	/* the entry whose data comes in now */
	struct file *cur;		/* its record, NULL for a symlink or a hard link */
	int scan;			/* look for the marker in it */
	uint64_t cur_formats;
	int cur_marked;
	uint8_t carry[sizeof(TORPOR_MARKER_PREFIX) + MARKER_TAIL];
	size_t carry_len;
	char target[CPIO_NAME_MAX];	/* a symlink's target, as it comes */
	int is_symlink;
	uint64_t seq;
	int nomem;
};

/* Normalize @s in place: no leading "/" or "./", no "." or empty components,
 * ".." taken lexically (at the top it stays at the top, as in the kernel's walk) */
static void normalize(char *s)
{
	char *out = s, *p = s, *end;
	size_t n;

	while (*p) {
		while (*p == '/')
			p++;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (out > s && out[-1] != '/')
				out--;
			if (out > s)
				out--;
		} else {
			if (out > s)
				*out++ = '/';
			memmove(out, p, n);
			out += n;
		}
		p += n;
	}
	*out = '\0';
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* What @path (normalized) is to us; -1 for nothing.  Also notes the host. */
static int role_of(struct walk *w, const char *path)
{
	const char *b = base_name(path);

	if (!strncmp(path, "scripts/", 8) || !strcmp(path, "conf/initramfs.conf"))
		w->hosts |= INITRAMFS_HOST_ITOOLS;
	if (strstr(path, "dracut/hooks/") || !strncmp(path, "usr/lib/dracut/", 15))
		w->hosts |= INITRAMFS_HOST_DRACUT;
	if (!strcmp(path, "init_functions"))
		w->hosts |= INITRAMFS_HOST_MKINITCPIO;
	if (!strcmp(b, "torpor-resume"))
		return R_RESUME;
	if (!strcmp(path, "scripts/local-top/torpor"))
		return R_ITOOLS_HOOK;
	if (!strcmp(path, "scripts/local-top/ORDER"))
		return R_ITOOLS_ORDER;
	/* lib/dracut/hooks (dracut up to 059), var/lib/dracut/hooks (dracut-ng) */
	if (ends_with(b, "torpor-pre-mount.sh") && b - path >= 23 &&
	    !strncmp(b - 23, "dracut/hooks/pre-mount/", 23))
		return R_DRACUT_HOOK;
	if (!strcmp(path, "hooks/torpor"))
		return R_CPIO_HOOK;
	if (!strcmp(path, "config"))
		return R_CPIO_CONFIG;
	if (!strcmp(path, "init"))
		return R_INIT;
	if (!strcmp(b, "dracut-pre-mount.service") && strstr(path, "systemd/system/"))
		return R_DRACUT_UNIT;
	return -1;
}

/* The record of @path, a new one or the one an earlier entry of that path had */
static struct file *record(struct walk *w, const char *path, enum role role)
{
	struct file *f;
	size_t i;

	for (i = 0; i < w->nr_files; i++)
		if (!strcmp(w->files[i].path, path))
			break;
	if (i == w->nr_files) {
		if (i == FILES_MAX) {
			w->files_cut = 1;
			return NULL;
		}
		w->files[i].path = strdup(path);
		if (!w->files[i].path) {
			w->nomem = 1;
			return NULL;
		}
		w->nr_files++;
	}
	f = &w->files[i];
	free(f->text);
	f->text = NULL;
	f->text_len = 0;
	f->role = role;
	f->formats = 0;
	f->marked = 0;
	return f;
}

static int add_symlink(struct walk *w, const char *path, const char *target)
{
	size_t need = strlen(path) + strlen(target) + 2;
	struct symlink *n;

	if (w->links_bytes + need > LINKS_BYTES_MAX) {
		w->links_cut = 1;
		return 0;
	}
	if (w->nr_links == w->links_cap) {
		n = realloc(w->links, (w->links_cap * 2 + 64) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		w->links = n;
		w->links_cap = w->links_cap * 2 + 64;
	}
	n = &w->links[w->nr_links];
	n->path = strdup(path);
	n->target = strdup(target);
	if (!n->path || !n->target) {
		free(n->path);
		free(n->target);
		return -ENOMEM;
	}
	w->nr_links++;
	w->links_bytes += need;
	return 0;
}

/* cpio_entry_fn: what to keep of this entry */
static int on_entry(void *ctx, const struct cpio_entry *e)
{
	struct walk *w = ctx;
	char path[CPIO_NAME_MAX];
	int role;

	memcpy(path, e->name, strlen(e->name) + 1);
	normalize(path);
	w->seq++;
	w->cur = NULL;
	w->scan = 0;
	w->is_symlink = 0;
	w->cur_formats = 0;
	w->cur_marked = 0;
	w->carry_len = 0;
	role = role_of(w, path);
	if (role >= 0) {
		w->cur = record(w, path, (enum role)role);
		if (w->nomem)
			return -ENOMEM;
		if (w->cur) {
			w->cur->seq = w->seq;
			w->cur->mode = e->mode;
			w->cur->nlink = e->nlink;
			w->cur->ino = e->ino;
			w->cur->devmajor = e->devmajor;
			w->cur->devminor = e->devminor;
			w->cur->size = e->size;
		}
	}
	if (S_ISLNK(e->mode)) {
		if (e->size >= sizeof(w->target))
			return 0;	/* longer than a path: never followed */
		w->is_symlink = 1;
		if (e->size == 0)
			return add_symlink(w, path, "") < 0 ? -ENOMEM : 0;
		/* the path is kept beside the target until its data is in */
		return add_symlink(w, path, "") < 0 ? -ENOMEM : 1;
	}
	if (!S_ISREG(e->mode))
		return 0;
	w->scan = (role == R_RESUME) || e->nlink >= 2;
	return (w->scan || w->cur) && e->size ? 1 : 0;
}

/* The formats after a marker's prefix at @p (@n bytes to the end of the
 * window): "2" or "1,2", then NUL.  0 when cut short or malformed. */
static uint64_t marker_formats(const uint8_t *p, size_t n)
{
	uint64_t bits = 0;
	unsigned v = 0;
	int digits = 0;
	size_t i;

	for (i = 0; i < n && i < MARKER_TAIL; i++) {
		if (p[i] >= '0' && p[i] <= '9' && digits < 2) {
			v = v * 10 + (p[i] - '0');
			digits++;
		} else if ((p[i] == ',' || p[i] == '\0') && digits && v >= 1 && v <= 63) {
			bits |= 1ull << v;
			if (p[i] == '\0')
				return bits;
			v = 0;
			digits = 0;
		} else {
			return 0;
		}
	}
	return 0;
}

/* Look for the marker in @p, with what the last piece left in the carry */
static void scan(struct walk *w, const uint8_t *p, size_t n)
{
	static const char prefix[] = TORPOR_MARKER_PREFIX;
	const size_t plen = sizeof(prefix) - 1;
	uint8_t window[sizeof(w->carry) + 4096];
	size_t step, len, i;
	uint64_t bits;
	const uint8_t *hit, *at;

	while (n) {
		step = n < 4096 ? n : 4096;
		memcpy(window, w->carry, w->carry_len);
		memcpy(window + w->carry_len, p, step);
		len = w->carry_len + step;
		for (at = window; (hit = memmem(at, len - (size_t)(at - window), prefix, plen));
		     at = hit + 1) {
			bits = marker_formats(hit + plen, len - (size_t)(hit + plen - window));
			if (bits) {
				w->cur_formats |= bits;
				w->cur_marked = 1;
			}
		}
		/* keep enough for a marker cut at the window's end */
		i = len < sizeof(w->carry) ? len : sizeof(w->carry);
		memmove(w->carry, window + len - i, i);
		w->carry_len = i;
		p += step;
		n -= step;
	}
}

/* Keep the start of a text file (of /init, only its first bytes) */
static int keep_text(struct file *f, const uint8_t *p, size_t n)
{
	size_t max = f->role == R_INIT ? HEAD_MAX : TEXT_MAX;
	size_t room = f->text_len < max ? max - f->text_len : 0;
	char *t;

	if (n > room)
		n = room;
	if (!n)
		return 0;
	t = realloc(f->text, f->text_len + n + 1);
	if (!t)
		return -ENOMEM;
	memcpy(t + f->text_len, p, n);
	f->text = t;
	f->text_len += n;
	t[f->text_len] = '\0';
	return 0;
}

/* The marker of a hard-linked file, found in the data of one of its names */
static void note_hardlink(struct walk *w, const struct cpio_entry *e)
{
	struct hardlink *h;

	if (w->nr_hard == HARDLINKS_MAX)
		return;
	h = &w->hard[w->nr_hard++];
	h->ino = e->ino;
	h->devmajor = e->devmajor;
	h->devminor = e->devminor;
	h->formats = w->cur_formats;
}

/* cpio_data_fn */
static int on_data(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n,
		   uint32_t off)
{
	struct walk *w = ctx;
	int last = off + n == e->size;

	if (w->is_symlink) {
		memcpy(w->target + off, p, n);
		if (last) {
			w->target[e->size] = '\0';
			free(w->links[w->nr_links - 1].target);
			w->links[w->nr_links - 1].target = strdup(w->target);
			if (!w->links[w->nr_links - 1].target)
				return -ENOMEM;
		}
		return 0;
	}
	if (w->scan)
		scan(w, p, n);
	if (w->cur && w->cur->role != R_RESUME && keep_text(w->cur, p, n) < 0)
		return -ENOMEM;
	if (last && w->scan && w->cur) {
		w->cur->formats = w->cur_formats;
		w->cur->marked = w->cur_marked;
	}
	if (last && w->scan && e->nlink >= 2 && w->cur_marked)
		note_hardlink(w, e);
	return 0;
}

static void walk_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nr_files; i++) {
		free(w->files[i].path);
		free(w->files[i].text);
	}
	for (i = 0; i < w->nr_links; i++) {
		free(w->links[i].path);
		free(w->links[i].target);
	}
	free(w->links);
}

static const char *symlink_target(const struct walk *w, const char *path, size_t n)
{
	size_t i;

	/* the last one of that path wins */
	for (i = w->nr_links; i-- > 0;)
		if (strlen(w->links[i].path) == n && !memcmp(w->links[i].path, path, n))
			return w->links[i].target;
	return NULL;
}

/*
 * Follow the image's symlinks in @path (normalized), in place, the last
 * component too; @len is the buffer's size.  0, or -ELOOP.
 */
static int resolve(const struct walk *w, char *path, size_t len)
{
	char next[CPIO_NAME_MAX * 2];
	const char *t, *end;
	size_t n, dir;
	int hops;

	for (hops = 0; hops < SYMLOOP_MAX; hops++) {
		for (end = path; ; end++) {
			if (*end && *end != '/')
				continue;
			n = (size_t)(end - path);
			t = symlink_target(w, path, n);
			if (t || !*end)
				break;
		}
		if (!t)
			return 0;
		/* a relative target is taken from the link's directory */
		dir = 0;
		if (t[0] != '/') {
			while (dir < n && path[n - dir - 1] != '/')
				dir++;
			dir = n - dir;
		}
		snprintf(next, sizeof(next), "%.*s%s%s", (int)dir, path, t, end);
		normalize(next);
		if (strlen(next) >= len)
			return -ENAMETOOLONG;
		memcpy(path, next, strlen(next) + 1);
	}
	return -ELOOP;
}

/* The record of @role whose path leads to @want (normalized and resolved): the
 * last entry of any path that does */
static const struct file *last_at(const struct walk *w, enum role role, const char *want)
{
	const struct file *best = NULL;
	char path[CPIO_NAME_MAX];
	size_t i;

	for (i = 0; i < w->nr_files; i++) {
		const struct file *f = &w->files[i];

		if (f->role != role || (best && best->seq > f->seq))
			continue;
		snprintf(path, sizeof(path), "%s", f->path);
		/* a file's own name is not followed: its directories are */
		if (role == R_RESUME && strchr(path, '/')) {
			*strrchr(path, '/') = '\0';
			if (resolve(w, path, sizeof(path)) < 0)
				continue;
			if (strlen(path) + strlen(base_name(f->path)) + 2 > sizeof(path))
				continue;
			strcat(path, path[0] ? "/" : "");
			strcat(path, base_name(f->path));
		}
		if (!strcmp(path, want))
			best = f;
	}
	return best;
}

/* Does @f's text hold @s?  A hook names the binary it runs. */
static int text_has(const struct file *f, const char *s)
{
	return f && S_ISREG(f->mode) && f->text && strstr(f->text, s);
}

/* mkinitcpio's /config: a HOOKS="..." line that lists torpor */
static int config_runs_torpor(const struct file *f)
{
	const char *p, *end, *w;
	size_t n;

	if (!f || !S_ISREG(f->mode) || !f->text)
		return 0;
	for (p = f->text; p; p = end ? end + 1 : NULL) {
		end = strchr(p, '\n');
		if (strncmp(p, "HOOKS=", 6))
			continue;
		/* the words of the value, quotes and blanks between them */
		for (w = p + 6; w < (end ? end : w + strlen(w)); w += n ? n : 1) {
			n = strcspn(w, "\"' \t\n");
			if (n == 6 && !strncmp(w, "torpor", 6))
				return 1;
		}
		return 0;
	}
	return 0;
}

/* initramfs-tools' ORDER runs the scripts it lists, one "/scripts/DIR/NAME" a line */
static int order_runs_torpor(const struct file *f)
{
	const char *p;

	if (!f || !S_ISREG(f->mode) || !f->text)
		return 0;
	for (p = f->text; (p = strstr(p, "/scripts/local-top/torpor")); p++)
		if ((p == f->text || p[-1] == '\n') && strchr(" \t\n\"", p[25]))
			return 1;
	return 0;
}

/*
 * Is /init a script (the generators' shell init, which runs their shell hooks)?
 * 1, or 0 with what it is instead in @desc: systemd's binary (mkinitcpio's
 * systemd hook copies it there; dracut's systemd module links it), another
 * program, nothing.
 */
static int init_is_script(const struct walk *w, char *desc, size_t len)
{
	const struct file *f = last_at(w, R_INIT, "init");
	char path[CPIO_NAME_MAX] = "init";

	if (f && S_ISREG(f->mode) && f->text_len >= 2 && !memcmp(f->text, "#!", 2))
		return 1;
	if (!f)
		snprintf(desc, len, "missing");
	else if (S_ISLNK(f->mode) && resolve(w, path, sizeof(path)) == 0)
		snprintf(desc, len, "%s/%.60s", ends_with(path, "/systemd") ?
			 "systemd, a link to " : "a link to ", path);
	else if (S_ISREG(f->mode) && f->text_len >= 4 && !memcmp(f->text, "\x7f" "ELF", 4))
		snprintf(desc, len, "a program, not a shell script");
	else
		snprintf(desc, len, "not a shell script");
	return 0;
}

/* dracut's hooks run from its shell /init, or with systemd from dracut-pre-mount.service */
static int dracut_runs_hooks(const struct walk *w, int shell_init)
{
	size_t i;

	if (shell_init)
		return 1;
	for (i = 0; i < w->nr_files; i++)
		if (w->files[i].role == R_DRACUT_UNIT && S_ISREG(w->files[i].mode))
			return 1;
	return 0;
}

/* Which host's hook runs @bin; sets OK, HOOK_NOT_RUN, NO_SHELL_INIT or NO_HOOK */
static void judge_hooks(const struct walk *w, const char *bin, struct initramfs_report *rep)
{
	const struct file *it = last_at(w, R_ITOOLS_HOOK, "scripts/local-top/torpor");
	const struct file *order = last_at(w, R_ITOOLS_ORDER, "scripts/local-top/ORDER");
	const struct file *cpio = last_at(w, R_CPIO_HOOK, "hooks/torpor");
	const struct file *config = last_at(w, R_CPIO_CONFIG, "config");
	int shell_init = init_is_script(w, rep->init, sizeof(rep->init));
	size_t i;

	rep->verdict = INITRAMFS_NO_HOOK;
	for (i = 0; i < w->nr_files; i++) {
		if (w->files[i].role == R_DRACUT_HOOK && text_has(&w->files[i], bin)) {
			rep->hook_host = INITRAMFS_HOST_DRACUT;
			rep->verdict = dracut_runs_hooks(w, shell_init) ? INITRAMFS_OK :
				INITRAMFS_NO_SHELL_INIT;
			if (rep->verdict == INITRAMFS_OK)
				return;
			break;
		}
	}
	if (text_has(it, bin) && (it->mode & 0111)) {
		rep->hook_host = INITRAMFS_HOST_ITOOLS;
		rep->verdict = !order || !S_ISREG(order->mode) || order_runs_torpor(order) ?
			INITRAMFS_OK : INITRAMFS_HOOK_NOT_RUN;
		if (rep->verdict == INITRAMFS_OK)
			return;
	}
	if (text_has(cpio, bin)) {
		rep->hook_host = INITRAMFS_HOST_MKINITCPIO;
		/* the systemd hook puts systemd at /init: no busybox hook runs */
		rep->verdict = !config_runs_torpor(config) ? INITRAMFS_HOOK_NOT_RUN :
			shell_init ? INITRAMFS_OK : INITRAMFS_NO_SHELL_INIT;
	}
}

/* The verdict on what the walk kept */
static int judge(const struct walk *w, const char *resume_path, struct initramfs_report *rep)
{
	char want[CPIO_NAME_MAX];
	const struct file *f;
	size_t i;

	snprintf(want, sizeof(want), "%s", resume_path);
	normalize(want);
	if (resolve(w, want, sizeof(want)) < 0) {
		rep->verdict = INITRAMFS_NO_RESUME;
		return 0;
	}
	f = last_at(w, R_RESUME, want);
	if (!f) {
		rep->verdict = INITRAMFS_NO_RESUME;
		return 0;
	}
	if (!S_ISREG(f->mode) || !(f->mode & 0111)) {
		rep->verdict = INITRAMFS_NOT_EXECUTABLE;
		return 0;
	}
	rep->formats = f->formats;
	/* a hard link without its data: the data came with another of its names */
	if (!f->marked && f->size == 0 && f->nlink >= 2) {
		for (i = 0; i < w->nr_hard; i++)
			if (w->hard[i].ino == f->ino && w->hard[i].devmajor == f->devmajor &&
			    w->hard[i].devminor == f->devminor)
				rep->formats |= w->hard[i].formats;
	}
	if (!rep->formats) {
		rep->verdict = INITRAMFS_NO_MARKER;
		return 0;
	}
	if (!(rep->formats & (1ull << TORPOR_FORMAT_VERSION))) {
		rep->verdict = INITRAMFS_OTHER_FORMAT;
		return 0;
	}
	judge_hooks(w, resume_path, rep);
	return 0;
}

/* Feed @n bytes of a decompressed stream; 0 or -errno (detail filled) */
static int feed_unpacked(struct cpio_reader *r, const uint8_t *p, size_t n, const char *format,
			 struct initramfs_report *rep)
{
	uint64_t at = r->off;
	ssize_t used = cpio_feed(r, p, n);

	if (used >= 0 && (size_t)used == n)
		return 0;
	if (used == -ENOMEM)
		return -ENOMEM;
	snprintf(rep->detail, sizeof(rep->detail), "%s in the %s-compressed archives, at byte %llu "
		 "of their data", used < 0 ? "a malformed cpio entry" : "data that is no cpio archive",
		 format, (unsigned long long)(used < 0 ? at : r->off));
	return -EBADMSG;
}

/* Where the initramfs is read from, and how */
struct source {
	int fd;
	uint64_t start, end;		/* the whole file, or a UKI's .initrd section */
	const char *dirs;		/* the decompressors' */
	int timeout_ms;			/* for all its streams together */
	long long deadline_ms;		/* CLOCK_MONOTONIC */
	uint8_t *buf;			/* CHUNK bytes */
};

/*
 * Where the compressed stream at @off ends: from its framing (zstd, xz) before
 * it is decompressed, from its trailer (gzip: the CRC32 and size of @out_bytes
 * of output) after; else at the end (bzip2, lzma, lzo, lz4: what follows
 * their stream is not read).
 */
static uint64_t stream_end(const struct source *src, uint64_t off, const char *format, int after,
			   uint32_t crc, uint64_t out_bytes)
{
	uint64_t len;

	if (!after && streamend_framed(src->fd, off, src->end, format, &len) == 0)
		return off + len;
	if (after && !strcmp(format, "gzip") &&
	    streamend_gzip(src->fd, off, src->end, crc, (uint32_t)out_bytes, &len) == 0)
		return off + len;
	return src->end;
}

/* The compressed stream at *@off, which moves to its end; 0 or -errno (detail filled) */
static int read_compressed(struct walk *w, const struct source *src, uint64_t *off,
			   struct initramfs_report *rep)
{
	const struct decompress_tool *t;
	uint64_t end, out_bytes = 0;
	struct cpio_reader r;
	struct decompress d;
	uint32_t crc = 0;
	long long left;
	ssize_t n;
	int rc;

	n = pread(src->fd, src->buf, 8, (off_t)*off);
	t = decompress_detect(src->buf, n > 0 ? (size_t)n : 0);
	if (!t) {
		snprintf(rep->detail, sizeof(rep->detail), "at byte %llu: neither a cpio archive "
			 "nor data compressed as the kernel unpacks", (unsigned long long)*off);
		return -EPROTONOSUPPORT;
	}
	rep->compression = t->format;
	end = stream_end(src, *off, t->format, 0, 0, 0);
	left = src->deadline_ms - mono_ms();
	rc = decompress_start(&d, t, src->fd, *off, end, src->dirs, left > 1 ? (int)left : 1);
	if (rc < 0) {
		snprintf(rep->detail, sizeof(rep->detail), "it is compressed with %s from byte %llu "
			 "on, and '%s' %s", t->format, (unsigned long long)*off, t->argv[0],
			 rc == -ENOENT ? "is not installed" : "could not be run");
		return rc == -ENOENT ? -ENOPKG : rc;
	}
	cpio_init(&r, on_entry, on_data, w);
	while ((n = decompress_read(&d, src->buf, CHUNK)) > 0) {
		if (rep->unpacked_bytes + r.off + (uint64_t)n > INITRAMFS_UNPACKED_MAX) {
			snprintf(rep->detail, sizeof(rep->detail), "more than %llu GiB of %s-"
				 "compressed data", INITRAMFS_UNPACKED_MAX >> 30, t->format);
			n = -EFBIG;
			break;
		}
		if (end == src->end && !strcmp(t->format, "gzip"))
			crc = crc32_update(crc, src->buf, (size_t)n);
		out_bytes += (uint64_t)n;
		rc = feed_unpacked(&r, src->buf, (size_t)n, t->format, rep);
		if (rc < 0) {
			n = rc;
			break;
		}
	}
	rep->tool_status = decompress_finish(&d);
	rep->unpacked_bytes += r.off;
	rep->entries += r.entries;
	if (n == -ETIMEDOUT)
		snprintf(rep->detail, sizeof(rep->detail), "%s did not finish decompressing it "
			 "within %d s", t->argv[0], src->timeout_ms / 1000);
	if (n < 0)
		return (int)n;
	/* a tool that fails at trailing bytes (gzip at zero padding) has said all before */
	if (cpio_finish(&r) < 0 || !r.entries) {
		snprintf(rep->detail, sizeof(rep->detail), "its %s-compressed archives end %s "
			 "(%s exited with status %d)", t->format, r.entries ? "inside an entry" :
			 "before any entry", t->argv[0], rep->tool_status);
		return -EBADMSG;
	}
	*off = end == src->end ? stream_end(src, *off, t->format, 1, crc, out_bytes) : end;
	return 0;
}

/* Uncompressed archives from *@off on, up to the end or to data that starts
 * none (*@off then points at it); 0 or -errno (detail filled) */
static int read_plain(struct walk *w, const struct source *src, uint64_t *off,
		      struct initramfs_report *rep)
{
	struct cpio_reader r;
	uint64_t want, first;
	ssize_t n, used;

	cpio_init(&r, on_entry, on_data, w);
	/* a header starts at a multiple of 4 from the start of the initramfs */
	r.off = first = *off - src->start;
	while (*off < src->end) {
		want = src->end - *off < CHUNK ? src->end - *off : CHUNK;
		n = pread(src->fd, src->buf, (size_t)want, (off_t)*off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			snprintf(rep->detail, sizeof(rep->detail), "the file is cut short");
			return -EBADMSG;
		}
		used = cpio_feed(&r, src->buf, (size_t)n);
		if (used == -ENOMEM)
			return -ENOMEM;
		if (used < 0) {
			snprintf(rep->detail, sizeof(rep->detail), "a malformed cpio entry at byte "
				 "%llu", (unsigned long long)(src->start + r.off));
			return -EBADMSG;
		}
		*off += (uint64_t)used;
		if (used < n)
			break;
	}
	rep->unpacked_bytes += r.off - first;
	rep->entries += r.entries;
	if (*off == src->end && cpio_finish(&r) < 0) {
		snprintf(rep->detail, sizeof(rep->detail), "the file ends inside a cpio entry");
		return -EBADMSG;
	}
	return 0;
}

/* The whole initramfs: uncompressed archives and compressed streams, one
 * after the other, as the kernel unpacks them; 0 or -errno */
static int read_all(struct walk *w, const struct source *src, struct initramfs_report *rep)
{
	uint64_t off = src->start;
	int r;

	while (off < src->end) {
		r = read_plain(w, src, &off, rep);
		if (r == 0 && off < src->end)
			r = read_compressed(w, src, &off, rep);
		if (r < 0)
			return r;
	}
	if (!rep->entries) {
		snprintf(rep->detail, sizeof(rep->detail), "the file ends before any cpio entry");
		return -EBADMSG;
	}
	return 0;
}

/* A unified kernel image carries the initramfs in its .initrd section; 0 or -errno */
static int find_initrd(struct source *src, uint64_t size, struct initramfs_report *rep)
{
	struct pe_section sec;
	ssize_t n;
	int r;

	src->start = 0;
	src->end = size;
	do
		n = pread(src->fd, src->buf, size < PE_HEADERS_MAX ? size : PE_HEADERS_MAX, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r = pe_find_section(src->buf, (size_t)n, size, ".initrd", &sec);
	if (r == -ENOEXEC)
		return 0;
	if (r < 0) {
		snprintf(rep->detail, sizeof(rep->detail), "a PE file (a unified kernel image?) %s",
			 r == -ENOENT ? "without an .initrd section" :
			 "whose section table is malformed");
		return -EPROTONOSUPPORT;
	}
	src->start = sec.offset;
	src->end = sec.offset + sec.size;
	rep->uki = 1;
	return 0;
}

int initramfs_inspect(const char *path, const char *resume_path, const char *tool_dirs,
		      int timeout_ms, struct initramfs_report *ret)
{
	struct source src = { .dirs = tool_dirs, .timeout_ms = timeout_ms,
			      .deadline_ms = mono_ms() + timeout_ms };
	struct walk *w;
	struct stat st;
	int fd, r;

	memset(ret, 0, sizeof(*ret));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	src.fd = fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(ret->detail, sizeof(ret->detail), "not a regular file");
		goto out_close;
	}
	ret->file_bytes = (uint64_t)st.st_size;
	if (ret->file_bytes > INITRAMFS_FILE_MAX) {
		snprintf(ret->detail, sizeof(ret->detail), "larger than %llu MiB",
			 INITRAMFS_FILE_MAX >> 20);
		r = -EFBIG;
		goto out_close;
	}
	w = calloc(1, sizeof(*w));
	src.buf = malloc(CHUNK);
	r = w && src.buf ? find_initrd(&src, ret->file_bytes, ret) : -ENOMEM;
	if (r == 0)
		r = read_all(w, &src, ret);
	if (r == 0)
		r = judge(w, resume_path, ret);
	ret->hosts = w ? w->hosts : 0;
	if (w)
		walk_free(w);
	free(w);
	free(src.buf);
out_close:
	close(fd);
	return r;
}

const char *initramfs_host_name(unsigned host)
{
	switch (host) {
	case INITRAMFS_HOST_ITOOLS:
		return "initramfs-tools";
	case INITRAMFS_HOST_DRACUT:
		return "dracut";
	case INITRAMFS_HOST_MKINITCPIO:
		return "mkinitcpio";
	}
	return NULL;
}

/* NAME of the boot loader's BOOT_IMAGE=.../vmlinuz-NAME (or vmlinux-, kernel-), into @buf */
static int boot_image_name(const char *cmdline, char *buf, size_t len)
{
	static const char *const prefixes[] = { "vmlinuz-", "vmlinux-", "kernel-" };
	const char *p, *end, *b;
	size_t i, n;

	if (!cmdline)
		return -ENOENT;
	for (p = cmdline; (p = strstr(p, "BOOT_IMAGE=")); p++) {
		if (p != cmdline && p[-1] != ' ')
			continue;
		p += 11;
		end = p + strcspn(p, " \n");
		for (b = end; b > p && b[-1] != '/' && b[-1] != ')'; b--)
			;
		for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
			n = strlen(prefixes[i]);
			if ((size_t)(end - b) > n && (size_t)(end - b) < len + n &&
			    !strncmp(b, prefixes[i], n)) {
				snprintf(buf, len, "%.*s", (int)(end - b - (ptrdiff_t)n), b + n);
				return strchr(buf, '/') ? -EINVAL : 0;
			}
		}
		return -ENOENT;
	}
	return -ENOENT;
}

/* Try the generators' names for kernel NAME @name; 0 when one exists */
static int try_names(const char *root, const char *name, char *buf, size_t len, char *tried,
		     size_t tried_len)
{
	static const char *const patterns[] = { "/boot/initrd.img-%s", "/boot/initramfs-%s.img",
						"/boot/initrd-%s" };
	char rel[300];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		snprintf(rel, sizeof(rel), patterns[i], name);
		if ((size_t)snprintf(buf, len, "%s%s", root, rel) >= len)
			continue;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		bootentry_tried(tried, tried_len, buf);
	}
	return -ENOENT;
}

int initramfs_find(const char *root, const char *release, const char *cmdline, char *buf,
		   size_t len, char *tried, size_t tried_len)
{
	int loader = cmdline && strstr(cmdline, "BOOT_IMAGE=");
	char name[256];

	if (tried_len)
		tried[0] = '\0';
	/* a boot loader that loads a kernel file (GRUB, syslinux) names it: its
	 * initramfs is beside it, by the generators' names (Arch: linux, linux-lts) */
	if (loader && boot_image_name(cmdline, name, sizeof(name)) == 0 && strcmp(name, release) &&
	    try_names(root, name, buf, len, tried, tried_len) == 0)
		return 0;
	if (loader && try_names(root, release, buf, len, tried, tried_len) == 0)
		return 0;
	/* else systemd-boot or the EFI stub: a UKI, then kernel-install's layout */
	if (bootentry_find_uki(root, release, buf, len, tried, tried_len) == 0 ||
	    bootentry_find_entry(root, release, buf, len, tried, tried_len) == 0 ||
	    bootentry_find_initrd(root, release, buf, len, tried, tried_len) == 0)
		return 0;
	return loader ? -ENOENT : try_names(root, release, buf, len, tried, tried_len);
}
