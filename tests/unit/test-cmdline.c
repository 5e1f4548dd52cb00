// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-cmdline.c - kernel command line parsing: quoting, last-one-wins,
 * noresume variants, resume_offset numbers, missing values, long lines
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "tap.h"

static struct torpor_cmdline c;

static int parse(const char *s)
{
	memset(&c, 0x5a, sizeof(c));
	return cmdline_parse(s, &c);
}

static void test_defaults(void)
{
	tap_ok(parse("") == 0 && c.resume[0] == '\0' && c.resume_offset == 0 &&
	       !c.has_resume_offset && !c.noresume && !c.debug && !c.force &&
	       c.wait_seconds == -1, "cmdline: empty line gives the defaults");
	tap_ok(parse("BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro quiet\n") == 0 && !c.resume[0],
	       "cmdline: a line without our parameters gives the defaults");
}

static void test_basic(void)
{
	tap_ok(parse("root=/dev/vda1 resume=/dev/vdb ro\n") == 0 && !strcmp(c.resume, "/dev/vdb"),
	       "cmdline: resume= between others, trailing newline");
	tap_ok(parse("resume=UUID=0a1b2c3d-0000-4000-8000-000000000001") == 0 &&
	       !strcmp(c.resume, "UUID=0a1b2c3d-0000-4000-8000-000000000001"),
	       "cmdline: resume=UUID=... keeps the second '='");
	tap_ok(parse("\t  resume=/dev/vdb\t\n") == 0 && !strcmp(c.resume, "/dev/vdb"),
	       "cmdline: tabs and leading spaces");
	tap_ok(parse("resume=/dev/vdb resume_offset=34816 torpor.debug") == 0 &&
	       c.resume_offset == 34816 && c.has_resume_offset && c.debug && !c.force,
	       "cmdline: resume_offset and torpor.debug");
	tap_ok(parse("torpor.force torpor.wait=30") == 0 && c.force && c.wait_seconds == 30,
	       "cmdline: torpor.force and torpor.wait=30");
	tap_ok(parse("resume-offset=8 torpor.wait=0") == 0 && c.resume_offset == 8 &&
	       c.wait_seconds == 0, "cmdline: '-' matches '_' in names, wait=0");
	tap_ok(parse("xresume=/dev/a resumex=/dev/b torpor.debugx") == 0 && !c.resume[0] &&
	       !c.debug, "cmdline: names must match whole");
}

static void test_quotes(void)
{
	tap_ok(parse("resume=\"PARTLABEL=my swap\" ro") == 0 &&
	       !strcmp(c.resume, "PARTLABEL=my swap"),
	       "cmdline: quoted value with a space");
	tap_ok(parse("\"resume=LABEL=a b\" quiet") == 0 && !strcmp(c.resume, "LABEL=a b"),
	       "cmdline: whole word quoted");
	tap_ok(parse("resume=LABEL=\"a b\"") == 0 && !strcmp(c.resume, "LABEL=\"a b\""),
	       "cmdline: inner quotes are kept as the kernel keeps them");
	tap_ok(parse("foo=\"x resume=/dev/evil\" resume=/dev/good") == 0 &&
	       !strcmp(c.resume, "/dev/good"),
	       "cmdline: resume= inside another quoted value ignored");
	tap_ok(parse("foo=\"unterminated resume=/dev/evil") == 0 && !c.resume[0],
	       "cmdline: unterminated quote swallows the rest");
	tap_ok(parse("resume=\"\"") == 0 && !c.resume[0], "cmdline: resume=\"\" is empty");
	tap_ok(parse("resume=\"") == 0 && !c.resume[0], "cmdline: resume=\" alone is empty");
	tap_ok(parse("\"") == 0 && parse("\"\"") == 0 && parse("=") == 0 && parse("\"=\"") == 0,
	       "cmdline: lone quotes and '=' do not crash");
	tap_ok(parse("\"noresume\"") == 0 && c.noresume, "cmdline: quoted noresume");
}

static void test_duplicates(void)
{
	tap_ok(parse("resume=/dev/a resume=/dev/b") == 0 && !strcmp(c.resume, "/dev/b"),
	       "cmdline: last resume= wins");
	tap_ok(parse("resume=/dev/a resume=") == 0 && !c.resume[0],
	       "cmdline: a later empty resume= clears it, as in the kernel");
	tap_ok(parse("resume_offset=1 resume_offset=2") == 0 && c.resume_offset == 2,
	       "cmdline: last resume_offset= wins");
	tap_ok(parse("torpor.debug torpor.debug=0") == 0 && !c.debug,
	       "cmdline: torpor.debug=0 after torpor.debug turns it off");
	tap_ok(parse("torpor.wait=5 torpor.wait=7") == 0 && c.wait_seconds == 7,
	       "cmdline: last torpor.wait= wins");
}

static void test_noresume(void)
{
	tap_ok(parse("resume=/dev/vdb noresume") == 0 && c.noresume &&
	       !strcmp(c.resume, "/dev/vdb"),
	       "cmdline: noresume");
	tap_ok(parse("noresume=1") == 0 && c.noresume, "cmdline: noresume=1");
	tap_ok(parse("nohibernate") == 0 && c.noresume, "cmdline: nohibernate");
	tap_ok(parse("hibernate=noresume") == 0 && c.noresume, "cmdline: hibernate=noresume");
	tap_ok(parse("hibernate=no") == 0 && c.noresume, "cmdline: hibernate=no");
	tap_ok(parse("hibernate=nocompress") == 0 && !c.noresume,
	       "cmdline: hibernate=nocompress does not disable resume");
	tap_ok(parse("hibernate=protect_image hibernate") == 0 && !c.noresume,
	       "cmdline: other hibernate= values and a bare hibernate are ignored");
	tap_ok(parse("noresumex resume=/dev/a") == 0 && !c.noresume,
	       "cmdline: noresumex is not noresume");
	tap_ok(parse("noresume -- resume=/dev/a torpor.wait=x") == 0 && c.noresume &&
	       !c.resume[0] && c.wait_seconds == -1, "cmdline: nothing after -- is ours");
}

static void test_offsets(void)
{
	tap_ok(parse("resume_offset=0") == 0 && c.has_resume_offset && c.resume_offset == 0,
	       "cmdline: resume_offset=0 is present");
	tap_ok(parse("resume_offset=18446744073709551615") == 0 &&
	       c.resume_offset == 18446744073709551615ULL, "cmdline: resume_offset=2^64-1");
	tap_ok(parse("resume_offset=18446744073709551616") == -EINVAL,
	       "cmdline: resume_offset=2^64 overflows: -EINVAL");
	tap_ok(parse("resume_offset=99999999999999999999999") == -EINVAL,
	       "cmdline: resume_offset far past 2^64: -EINVAL");
	tap_ok(parse("resume_offset=12k") == -EINVAL, "cmdline: resume_offset=12k: -EINVAL");
	tap_ok(parse("resume_offset=0x10") == -EINVAL, "cmdline: resume_offset=0x10: -EINVAL");
	tap_ok(parse("resume_offset=-1") == -EINVAL, "cmdline: resume_offset=-1: -EINVAL");
	tap_ok(parse("resume_offset=+1") == -EINVAL, "cmdline: resume_offset=+1: -EINVAL");
	tap_ok(parse("resume_offset= 5") == -EINVAL, "cmdline: resume_offset= (empty): -EINVAL");
	tap_ok(parse("resume_offset=\"77\"") == 0 && c.resume_offset == 77,
	       "cmdline: quoted resume_offset");
	tap_ok(parse("resume_offset=5 resume_offset=bad") == -EINVAL,
	       "cmdline: a bad later resume_offset fails the parse");
	memset(&c, 0x5a, sizeof(c));
	tap_ok(cmdline_parse("resume_offset=x", &c) == -EINVAL && c.wait_seconds == 0x5a5a5a5a,
	       "cmdline: nothing written on error");
}

static void test_missing_values(void)
{
	tap_ok(parse("resume resume_offset noresume") == 0 && !c.resume[0] &&
	       !c.has_resume_offset && c.noresume,
	       "cmdline: bare resume and resume_offset are ignored, as in the kernel");
	tap_ok(parse("torpor.wait") == -EINVAL, "cmdline: torpor.wait without a value: -EINVAL");
	tap_ok(parse("torpor.wait=") == -EINVAL, "cmdline: torpor.wait= empty: -EINVAL");
	tap_ok(parse("torpor.wait=-1") == -EINVAL, "cmdline: torpor.wait=-1: -EINVAL");
	tap_ok(parse("torpor.wait=2147483647") == 0 && c.wait_seconds == 2147483647,
	       "cmdline: torpor.wait=INT_MAX");
	tap_ok(parse("torpor.wait=2147483648") == -EINVAL,
	       "cmdline: torpor.wait over INT_MAX: -EINVAL");
	tap_ok(parse("torpor.debug=") == -EINVAL, "cmdline: torpor.debug= empty: -EINVAL");
	tap_ok(parse("torpor.debug=maybe") == -EINVAL, "cmdline: torpor.debug=maybe: -EINVAL");
	tap_ok(parse("torpor.debug=on torpor.force=yes") == 0 && c.debug && c.force,
	       "cmdline: bool values on and yes");
	tap_ok(parse("torpor.debug=off torpor.force=N") == 0 && !c.debug && !c.force,
	       "cmdline: bool values off and N");
}

static void test_long(void)
{
	size_t n = 40000, i;
	char *s = malloc(n + 600);

	memset(s, 'a', n);
	memcpy(s, "foo=", 4);
	strcpy(s + n, " resume=/dev/last\n");
	tap_ok(parse(s) == 0 && !strcmp(c.resume, "/dev/last"),
	       "cmdline: a 40000-byte word before resume=");

	strcpy(s, "resume=");
	memset(s + 7, 'x', 255);
	s[7 + 255] = '\0';
	tap_ok(parse(s) == 0 && strlen(c.resume) == 255, "cmdline: a 255-byte resume= fits");
	strcpy(s + 7 + 255, "y");
	tap_ok(parse(s) == -EINVAL, "cmdline: a 256-byte resume= is -EINVAL");

	for (i = 0; i + 2 <= n; i += 2) {
		s[i] = 'x';
		s[i + 1] = ' ';
	}
	strcpy(s + i, "noresume");
	tap_ok(parse(s) == 0 && c.noresume, "cmdline: thousands of short words");
	free(s);
}

static void test_read(void)
{
	char path[] = "/tmp/torpor-cmdline-XXXXXX";
	const char *line = "BOOT_IMAGE=/vmlinuz resume=/dev/vdb resume_offset=4096 quiet\n";
	struct torpor_cmdline r;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
		tap_ok(0, "cmdline: temporary file");
		return;
	}
	close(fd);
	tap_ok(cmdline_read(path, &r) == 0 && !strcmp(r.resume, "/dev/vdb") &&
	       r.resume_offset == 4096,
	       "cmdline: cmdline_read() of a file");
	unlink(path);
	tap_ok(cmdline_read(path, &r) == -ENOENT,
	       "cmdline: cmdline_read() of a missing file: -ENOENT");
	fd = cmdline_read("/proc/cmdline", &r);
	tap_ok(fd == 0 || fd == -EINVAL,
	       "cmdline: cmdline_read(/proc/cmdline) succeeds or rejects");
}

int main(void)
{
	test_defaults();
	test_basic();
	test_quotes();
	test_duplicates();
	test_noresume();
	test_offsets();
	test_missing_values();
	test_long();
	test_read();
	return tap_done();
}
