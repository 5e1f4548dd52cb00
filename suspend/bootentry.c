// SPDX-License-Identifier: GPL-2.0-only
/*
 * bootentry.c - find a kernel release's UKI or kernel-install initrd
 *
 * A UKI's release: its .uname section (ukify, kernel-install, mkinitcpio and
 * dracut write one), else the x86 boot header of its .linux section: "HdrS"
 * at 0x202 and, at 0x20e, where the version string starts, less 0x200 (the
 * kernel's Documentation/arch/x86/boot.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	if (r == 0) {
		n = sec.size < sizeof(rel) ? (size_t)sec.size : sizeof(rel);
		r = pread_all(fd, rel, n, sec.offset);
		r = r < 0 ? r : take_release(rel, n, buf, len);
	} else if (r == -ENOENT && pe_find_section(hdr, n, size, ".linux", &sec) == 0) {
		r = linux_release(fd, &sec, buf, len);
	}
	free(hdr);
	return r;
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

/* The UKI of @release in @dir, by name; 0 or -ENOENT */
static int scan_dir(const char *dir, const char *release, char *buf, size_t len)
{
	char *names[BOOTENTRY_UKI_MAX], path[4096];
	size_t nr = 0, i, n;
	struct dirent *e;
	int r = -ENOENT;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while (nr < BOOTENTRY_UKI_MAX && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (n <= 4 || strcasecmp(e->d_name + n - 4, ".efi") || e->d_name[0] == '.')
			continue;
		names[nr] = strdup(e->d_name);
		if (names[nr])
			nr++;
	}
	closedir(d);
	qsort(names, nr, sizeof(names[0]), by_name);
	for (i = 0; i < nr && r < 0; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < sizeof(path) &&
		    strlen(path) < len && uki_of(path, release)) {
			memcpy(buf, path, strlen(path) + 1);
			r = 0;
		}
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
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
