// SPDX-License-Identifier: GPL-2.0-only
/*
 * initramfswalk.c - the initramfs check's record of the entries that matter:
 * kept while the archives stream by, looked up as the unpacked image resolves
 * a path
 *
 * Only what matters is kept: the entries named torpor-resume (their data
 * scanned for the marker), the hook scripts and the files that say whether
 * they run (their text, up to TEXT_MAX), the symlinks (to follow lib -> usr/lib
 * and the like), and the marker of every hard-linked file (a hard link's data
 * comes with one of its names only).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "efiloc.h"
#include "initramfs.h"
#include "initramfswalk.h"
#include "util.h"

#define TEXT_MAX	(64 * 1024)	/* text kept of a hook or list */
#define HEAD_MAX	64		/* kept of /init: is it a script? */
#define LINKS_BYTES_MAX	(4u << 20)	/* symlink names and targets kept */
#define SYMLOOP_MAX	40

/* Normalize @s in place: no leading "/" or "./", no "." or empty components,
 * ".." taken lexically (at the top it stays at the top, as in the kernel's walk) */
void walk_normalize(char *s)
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

/* The roles of whole paths */
static const struct {
	const char *path;
	enum role role;
} exact_roles[] = {
	{ "scripts/local-top/torpor", R_ITOOLS_HOOK },
	{ "scripts/local-top/ORDER", R_ITOOLS_ORDER },
	{ "hooks/torpor", R_CPIO_HOOK },
	{ "config", R_CPIO_CONFIG },
	{ "init", R_INIT },
};

/*
 * torpor-restore.service at @path, its base name at @b: what enables it when in
 * initrd.target's .wants/ or .requires/, else the unit or a link to it (the
 * judge looks it up in systemd's unit directories only)
 */
static int unit_role(const char *path, const char *b)
{
	static const char *const dirs[] = { "initrd.target.wants/", "initrd.target.requires/" };
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		n = strlen(dirs[i]);
		if ((size_t)(b - path) >= n && !strncmp(b - n, dirs[i], n) &&
		    (b - path == (ptrdiff_t)n || b[-(ptrdiff_t)n - 1] == '/'))
			return R_UNIT_WANTS;
	}
	return R_UNIT;
}

/* A drop-in of the unit: torpor-restore.service.d/NAME.conf */
static int is_unit_dropin(const char *path, const char *b)
{
	static const char dir[] = TORPOR_UNIT ".d/";
	const size_t n = sizeof(dir) - 1;

	return ends_with(b, ".conf") && (size_t)(b - path) >= n && !strncmp(b - n, dir, n) &&
	       (b - path == (ptrdiff_t)n || b[-(ptrdiff_t)n - 1] == '/');
}

/* What @path (normalized) is to us; -1 for nothing.  Also notes the host. */
static int role_of(struct walk *w, const char *path)
{
	const char *b = base_name(path);
	size_t i;

	if (!strncmp(path, "scripts/", 8) || !strcmp(path, "conf/initramfs.conf"))
		w->hosts |= INITRAMFS_HOST_ITOOLS;
	if (strstr(path, "dracut/hooks/") || !strncmp(path, "usr/lib/dracut/", 15))
		w->hosts |= INITRAMFS_HOST_DRACUT;
	if (!strcmp(path, "init_functions"))
		w->hosts |= INITRAMFS_HOST_MKINITCPIO;
	if (!strcmp(b, "torpor-resume"))
		return R_RESUME;
	for (i = 0; i < ARRAY_SIZE(exact_roles); i++)
		if (!strcmp(path, exact_roles[i].path))
			return exact_roles[i].role;
	/* lib/dracut/hooks (dracut up to 059), var/lib/dracut/hooks (dracut-ng) */
	if (ends_with(b, "torpor-pre-mount.sh") && b - path >= 23 &&
	    !strncmp(b - 23, "dracut/hooks/pre-mount/", 23))
		return R_DRACUT_HOOK;
	if (!strcmp(b, "dracut-pre-mount.service") && strstr(path, "systemd/system/"))
		return R_DRACUT_UNIT;
	if (!strcmp(b, TORPOR_UNIT))
		return unit_role(path, b);
	if (is_unit_dropin(path, b))
		return R_UNIT_DROPIN;
	/* what initramfs-tools' /init sources before it reads the command line */
	if (!strcmp(path, "conf/initramfs.conf") ||
	    (!strncmp(path, "conf/conf.d/", 12) && path[12] && !strchr(path + 12, '/')))
		return R_ITOOLS_CONF;
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
		if (i == WALK_FILES_MAX) {
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
	f->version[0] = '\0';
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
int walk_on_entry(void *ctx, const struct cpio_entry *e)
{
	struct walk *w = ctx;
	char path[CPIO_NAME_MAX];
	int role;

	memcpy(path, e->name, strlen(e->name) + 1);
	walk_normalize(path);
	w->seq++;
	w->cur = NULL;
	w->scan = 0;
	w->is_symlink = 0;
	w->cur_formats = 0;
	w->cur_marked = 0;
	w->cur_version[0] = '\0';
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

	for (i = 0; i < n && i < WALK_MARKER_TAIL; i++) {
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

/*
 * The release in a version line whose prefix ends at @p (@n bytes to the end of
 * the window): "0.2" in "torpor-resume 0.2 (image format 2, ...", into @buf;
 * 0, or -EINVAL when cut short or not a version line ("torpor-resume
 * image-format=2" is not: '=' is no release's).
 */
static int version_of(const uint8_t *p, size_t n, char *buf)
{
	static const char suffix[] = WALK_VERSION_SUFFIX;
	const size_t slen = sizeof(suffix) - 1;
	size_t i;

	for (i = 0; i < n && i < WALK_VERSION_MAX - 1; i++) {
		if ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'z') ||
		    (p[i] >= 'A' && p[i] <= 'Z') || (p[i] && strchr(".+~:-_", p[i])))
			continue;
		break;
	}
	if (i == 0 || n - i < slen || memcmp(p + i, suffix, slen))
		return -EINVAL;
	memcpy(buf, p, i);
	buf[i] = '\0';
	return 0;
}

/* The version lines in @window (@len bytes): the last one found wins */
static void scan_version(struct walk *w, const uint8_t *window, size_t len)
{
	static const char prefix[] = WALK_VERSION_PREFIX;
	const size_t plen = sizeof(prefix) - 1;
	const uint8_t *hit, *at;

	for (at = window; (hit = memmem(at, len - (size_t)(at - window), prefix, plen));
	     at = hit + 1)
		(void)version_of(hit + plen, len - (size_t)(hit + plen - window), w->cur_version);
}

/* the EFI marker's prefix: as long as the format marker's (the carry holds either) */
#define EFI_PREFIX	"torpor-resume efi-location="
_Static_assert(sizeof(EFI_PREFIX) == sizeof(TORPOR_MARKER_PREFIX), "marker prefixes");
_Static_assert(sizeof(EFILOC_MARKER) == sizeof(EFI_PREFIX) + 1, "EFI marker");

/*
 * The markers of @prefix in the window @win (@len bytes): the format marker's
 * formats, or WALK_FORMATS_EFI for the EFI marker (version 1)
 */
static void scan_window(struct walk *w, const uint8_t *win, size_t len, const char *prefix,
			int efi)
{
	const size_t plen = strlen(prefix);
	const uint8_t *hit, *at;
	uint64_t bits;

	for (at = win; (hit = memmem(at, len - (size_t)(at - win), prefix, plen)); at = hit + 1) {
		bits = marker_formats(hit + plen, len - (size_t)(hit + plen - win));
		if (efi)
			bits = bits & (1ull << 1) ? WALK_FORMATS_EFI : 0;
		if (bits) {
			w->cur_formats |= bits;
			w->cur_marked = 1;
		}
	}
}

/* Look for the markers in @p, with what the last piece left in the carry */
static void scan(struct walk *w, const uint8_t *p, size_t n)
{
	uint8_t window[sizeof(w->carry) + 4096];
	size_t step, len, i;

	while (n) {
		step = n < 4096 ? n : 4096;
		memcpy(window, w->carry, w->carry_len);
		memcpy(window + w->carry_len, p, step);
		len = w->carry_len + step;
		scan_window(w, window, len, TORPOR_MARKER_PREFIX, 0);
		scan_window(w, window, len, EFI_PREFIX, 1);
		scan_version(w, window, len);
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

	if (w->nr_hard == WALK_HARDLINKS_MAX)
		return;
	h = &w->hard[w->nr_hard++];
	h->ino = e->ino;
	h->devmajor = e->devmajor;
	h->devminor = e->devminor;
	h->formats = w->cur_formats;
	memcpy(h->version, w->cur_version, sizeof(h->version));
}

/* cpio_data_fn */
int walk_on_data(void *ctx, const struct cpio_entry *e, const uint8_t *p, size_t n,
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
		memcpy(w->cur->version, w->cur_version, sizeof(w->cur->version));
	}
	if (last && w->scan && e->nlink >= 2 && w->cur_marked)
		note_hardlink(w, e);
	return 0;
}

void walk_free(struct walk *w)
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
int walk_resolve(const struct walk *w, char *path, size_t len)
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
		walk_normalize(next);
		if (strlen(next) >= len)
			return -ENAMETOOLONG;
		memcpy(path, next, strlen(next) + 1);
	}
	return -ELOOP;
}

/* The record of @role whose path leads to @want (normalized and resolved): the
 * last entry of any path that does */
const struct file *walk_last_at(const struct walk *w, enum role role, const char *want)
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
		if ((role == R_RESUME || role == R_UNIT) && strchr(path, '/')) {
			*strrchr(path, '/') = '\0';
			if (walk_resolve(w, path, sizeof(path)) < 0)
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
