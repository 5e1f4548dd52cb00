// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootentry.c - find a kernel release's UKI or kernel-install initrd
 *
 * A UKI's release: its .uname section (ukify, kernel-install, mkinitcpio and
 * dracut write one), else the x86 boot header of its .linux section: "HdrS"
 * at 0x202 and, at 0x20e, where the version string starts, less 0x200 (the
 * kernel's Documentation/arch/x86/boot.rst).  A type 1 loader entry (the Boot
 * Loader Specification) names its kernel with "linux", its initramfs with
 * "initrd" lines, or a UKI with "efi" or "uki", paths from the root of the
 * partition the entry is on.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootentry.h"
#include "le.h"
#include "pefile.h"

#define RELEASE_MAX	128		/* the kernel's utsname release: 65 bytes */
#define VALUE_MAX	512		/* a loader entry's path */
/* systemd-boot's loader interface: the entry it booted, "4 bytes, then UTF-16" */
#define SELECTED_VAR	"/sys/firmware/efi/efivars/LoaderEntrySelected-" \
			"4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

static const char *const boot_dirs[] = { "/efi", "/boot", "/boot/efi" };

void bootentry_tried(char *tried, size_t tried_len, const char *s)
{
	size_t at = strnlen(tried, tried_len);

	if (at < tried_len)
		snprintf(tried + at, tried_len - at, "%s%s", at ? ", " : "", s);
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t got;

	do
		got = pread(fd, buf, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	return (size_t)got == n ? 0 : -EBADMSG;
}

/* The first word of @p (@n bytes) as a release into @buf; 0 or -ENOENT */
static int take_release(const uint8_t *p, size_t n, char *buf, size_t len)
{
	size_t i = 0;

	while (i < n && p[i] > ' ' && p[i] < 0x7f)
		i++;
	if (!i || i >= len || i >= RELEASE_MAX)
		return -ENOENT;
	/* what follows the word is a blank, a NUL or the end (.uname has no NUL) */
	if (i < n && p[i] != ' ' && p[i] != '\n' && p[i] != '\0')
		return -ENOENT;
	memcpy(buf, p, i);
	buf[i] = '\0';
	return 0;
}

/* The release in the x86 boot header of the kernel at @sec; 0 or -ENOENT */
static int linux_release(int fd, const struct pe_section *sec, char *buf, size_t len)
{
	uint8_t hdr[0x10], ver[RELEASE_MAX];
	uint64_t at;
	size_t n;

	if (sec->size < 0x210 || pread_all(fd, hdr, sizeof(hdr), sec->offset + 0x200) < 0 ||
	    memcmp(hdr + 2, "HdrS", 4))
		return -ENOENT;
	at = 0x200 + (uint64_t)get_le16(hdr + 0x0e);
	if (at >= sec->size)
		return -ENOENT;
	n = sec->size - at < sizeof(ver) ? (size_t)(sec->size - at) : sizeof(ver);
	if (pread_all(fd, ver, n, sec->offset + at) < 0)
		return -ENOENT;
	return take_release(ver, n, buf, len);
}

int bootentry_uki_release(int fd, uint64_t size, char *buf, size_t len)
{
	size_t n = size < PE_HEADERS_MAX ? (size_t)size : PE_HEADERS_MAX;
	uint8_t rel[RELEASE_MAX], *hdr;
	struct pe_section sec;
	int r;

	hdr = malloc(n ? n : 1);
	if (!hdr)
		return -ENOMEM;
	r = pread_all(fd, hdr, n, 0);
	if (r == 0)
		r = pe_find_section(hdr, n, size, ".uname", &sec);
	if (r == PE_FOUND) {
		n = sec.size < sizeof(rel) ? (size_t)sec.size : sizeof(rel);
		r = pread_all(fd, rel, n, sec.offset);
		r = r < 0 ? r : take_release(rel, n, buf, len);
	} else if (r == PE_NO_SECTION &&
		   pe_find_section(hdr, n, size, ".linux", &sec) == PE_FOUND) {
		r = linux_release(fd, &sec, buf, len);
	}
	free(hdr);
	return r == PE_NOT_PE ? -ENOEXEC : r == PE_NO_SECTION ? -ENOENT : r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does @path hold the UKI of @release? */
static int uki_of(const char *path, const char *release)
{
	char rel[RELEASE_MAX];
	struct stat st;
	int fd, r = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		r = bootentry_uki_release(fd, (uint64_t)st.st_size, rel, sizeof(rel));
	close(fd);
	return r == 0 && !strcmp(rel, release);
}

/* The names in @dir ending in @suffix (any case), sorted, into @names (to
 * free); their number */
static size_t list_names(const char *dir, const char *suffix, char **names)
{
	size_t nr = 0, n, k = strlen(suffix);
	struct dirent *e;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while (nr < BOOTENTRY_UKI_MAX && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (n <= k || strcasecmp(e->d_name + n - k, suffix) || e->d_name[0] == '.')
			continue;
		names[nr] = strdup(e->d_name);
		if (names[nr])
			nr++;
	}
	closedir(d);
	qsort(names, nr, sizeof(names[0]), by_name);
	return nr;
}

static void free_names(char **names, size_t nr)
{
	while (nr)
		free(names[--nr]);
}

/* The UKI of @release in @dir, by name; 0 or -ENOENT */
static int scan_dir(const char *dir, const char *release, char *buf, size_t len)
{
	char *names[BOOTENTRY_UKI_MAX], path[4096];
	size_t nr = list_names(dir, ".efi", names), i;
	int r = -ENOENT;

	for (i = 0; i < nr && r < 0; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < sizeof(path) &&
		    strlen(path) < len && uki_of(path, release)) {
			memcpy(buf, path, strlen(path) + 1);
			r = 0;
		}
	}
	free_names(names, nr);
	return r;
}

int bootentry_find_uki(const char *root, const char *release, char *buf, size_t len, char *tried,
		       size_t tried_len)
{
	char dir[4096], what[4200];
	size_t i;

	for (i = 0; i < sizeof(boot_dirs) / sizeof(boot_dirs[0]); i++) {
		if ((size_t)snprintf(dir, sizeof(dir), "%s%s/EFI/Linux", root, boot_dirs[i]) >=
		    sizeof(dir))
			continue;
		if (scan_dir(dir, release, buf, len) == 0)
			return 0;
		snprintf(what, sizeof(what), "%s/*.efi", dir);
		bootentry_tried(tried, tried_len, what);
	}
	return -ENOENT;
}

/* The first line of @root@file, a name without '/', into @buf; 0 or -ENOENT */
static int read_token(const char *root, const char *file, char *buf, size_t len)
{
	char path[4096];
	size_t n;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", root, file) >= sizeof(path))
		return -ENOENT;
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strcspn(buf, " \t\n");
	buf[n] = '\0';
	return n && !strchr(buf, '/') && strcmp(buf, ".") && strcmp(buf, "..") ? 0 : -ENOENT;
}

int bootentry_find_initrd(const char *root, const char *release, char *buf, size_t len,
			  char *tried, size_t tried_len)
{
	static const char *const token_files[] = { "/etc/kernel/entry-token", "/etc/machine-id" };
	char token[256], prev[256] = "";
	struct stat st;
	size_t i, j;

	for (j = 0; j < sizeof(token_files) / sizeof(token_files[0]); j++) {
		if (read_token(root, token_files[j], token, sizeof(token)) < 0 ||
		    !strcmp(token, prev))
			continue;
		snprintf(prev, sizeof(prev), "%s", token);
		for (i = 0; i < sizeof(boot_dirs) / sizeof(boot_dirs[0]); i++) {
			if ((size_t)snprintf(buf, len, "%s%s/%s/%s/initrd", root, boot_dirs[i],
					     token, release) >= len)
				continue;
			if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
				return 0;
			bootentry_tried(tried, tried_len, buf);
		}
	}
	return -ENOENT;
}

struct entry {
	char kernel[VALUE_MAX];		/* the kernel, from the partition's root */
	char initrd[VALUE_MAX];		/* the last initrd line: the main one after microcode */
	char efi[VALUE_MAX];		/* or an EFI program: a UKI */
};

/* The keys of the loader entry @path that matter; 0 or -ENOENT */
static int read_entry(const char *path, struct entry *e)
{
	char line[1024], *k, *v, *dest;
	size_t n;
	FILE *f;

	memset(e, 0, sizeof(*e));
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		k = line + strspn(line, " \t");
		n = strcspn(k, " \t\r\n");
		v = k + n + strspn(k + n, " \t");
		v[strcspn(v, "\r\n")] = '\0';
		k[n] = '\0';
		dest = !strcmp(k, "linux") ? e->kernel : !strcmp(k, "initrd") ? e->initrd :
			!strcmp(k, "efi") || !strcmp(k, "uki") ? e->efi : NULL;
		if (dest && v[0] == '/' && !strstr(v, "/../") && strlen(v) < VALUE_MAX)
			memcpy(dest, v, strlen(v) + 1);
	}
	fclose(f);
	return 0;
}

/* Is the kernel file @path of @release?  Its x86 boot header tells; without
 * one (another architecture), its name holding the release does */
static int kernel_of(const char *path, const char *release)
{
	char rel[RELEASE_MAX];
	struct pe_section all;
	struct stat st;
	int fd, r = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		all.offset = 0;
		all.size = (uint64_t)st.st_size;
		r = linux_release(fd, &all, rel, sizeof(rel));
	}
	close(fd);
	return r == 0 ? !strcmp(rel, release) : strstr(path, release) != NULL;
}

/* The initramfs of entry @name in @part's loader/entries, if it boots
 * @release: its last initrd, or its UKI; 0 or -ENOENT */
static int entry_of(const char *part, const char *name, const char *release, char *buf,
		    size_t len)
{
	char path[4096 + VALUE_MAX];
	struct stat st;
	struct entry e;

	snprintf(path, sizeof(path), "%s/loader/entries/%s", part, name);
	if (read_entry(path, &e) < 0)
		return -ENOENT;
	if (e.efi[0]) {
		snprintf(path, sizeof(path), "%s%s", part, e.efi);
		if (!uki_of(path, release))
			return -ENOENT;
	} else {
		snprintf(path, sizeof(path), "%s%s", part, e.kernel);
		if (!e.kernel[0] || !e.initrd[0] || !kernel_of(path, release))
			return -ENOENT;
		snprintf(path, sizeof(path), "%s%s", part, e.initrd);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			return -ENOENT;
	}
	if (strlen(path) >= len)
		return -ENOENT;
	memcpy(buf, path, strlen(path) + 1);
	return 0;
}

/* The entry systemd-boot booted, from its EFI variable, into @buf ("" when unknown) */
static void read_selected(const char *root, char *buf, size_t len)
{
	uint8_t raw[4 + 2 * 256];
	char path[4096];
	ssize_t n;
	size_t i, o = 0;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s%s", root, SELECTED_VAR);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, raw, sizeof(raw));
	close(fd);
	/* UTF-16LE after the attributes: an entry's name is ASCII */
	for (i = 4; n > 0 && i + 1 < (size_t)n && o + 1 < len; i += 2) {
		if (raw[i + 1] || raw[i] < ' ' || raw[i] >= 0x7f || raw[i] == '/')
			break;
		buf[o++] = (char)raw[i];
	}
	buf[o] = '\0';
}

/* The "default" pattern of @part's loader/loader.conf, into @buf ("" when none) */
static void read_default(const char *part, char *buf, size_t len)
{
	char path[4200], line[512], *v;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/loader/loader.conf", part);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		v = line + strspn(line, " \t");
		if (strncmp(v, "default", 7) || !strchr(" \t", v[7]))
			continue;
		v += 7 + strspn(v + 7, " \t");
		v[strcspn(v, " \t\r\n")] = '\0';
		snprintf(buf, len, "%s", v);
	}
	fclose(f);
}

/* Does entry @name match the default @pattern (with or without its .conf)? */
static int is_default(const char *pattern, const char *name)
{
	char id[256];

	if (!pattern[0] || pattern[0] == '@')
		return 0;
	snprintf(id, sizeof(id), "%s", name);
	if (fnmatch(pattern, id, FNM_CASEFOLD) == 0)
		return 1;
	id[strlen(id) - 5] = '\0';		/* without ".conf" */
	return fnmatch(pattern, id, FNM_CASEFOLD) == 0;
}

int bootentry_find_entry(const char *root, const char *release, char *buf, size_t len,
			 char *tried, size_t tried_len)
{
	char *names[BOOTENTRY_UKI_MAX], part[4096], dir[4200], selected[256], pattern[256];
	size_t i, j, nr;
	int pass, hit;

	read_selected(root, selected, sizeof(selected));
	/* the entry booted, then the default one, then any by name */
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < sizeof(boot_dirs) / sizeof(boot_dirs[0]); i++) {
			snprintf(part, sizeof(part), "%s%s", root, boot_dirs[i]);
			snprintf(dir, sizeof(dir), "%s/loader/entries", part);
			read_default(part, pattern, sizeof(pattern));
			nr = list_names(dir, ".conf", names);
			hit = -ENOENT;
			for (j = 0; j < nr && hit < 0; j++) {
				if ((pass == 0 && strcasecmp(names[j], selected)) ||
				    (pass == 1 && !is_default(pattern, names[j])))
					continue;
				hit = entry_of(part, names[j], release, buf, len);
			}
			free_names(names, nr);
			if (hit == 0)
				return 0;
			if (pass == 2) {
				snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/*.conf");
				bootentry_tried(tried, tried_len, dir);
			}
		}
	}
	return -ENOENT;
}
