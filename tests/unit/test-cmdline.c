// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-cmdline.c - kernel command line parsing: quoting, last-one-wins,
 * noresume variants, resume_offset numbers, missing values, long lines, and
 * malformed values that must not hide the rest (-EINVAL below: one was recorded)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "decimal.h"
#include "tap.h"

static struct torpor_cmdline c;

/* 0, or -EINVAL when a malformed parameter was recorded (and recorded consistently) */
static int parse(const char *s)
{
	memset(&c, 0x5a, sizeof(c));
	cmdline_parse(s, &c);
	if (!c.malformed_why != !c.malformed[0] || strlen(c.malformed) >= sizeof(c.malformed))
		return -EIO;
	return c.malformed_why ? -EINVAL : 0;
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
	tap_ok(parse("noresumex resume=/dev/a") == 0 && c.noresume && !strcmp(c.resume, "/dev/a"),
	       "cmdline: noresumex is noresume, by prefix as the kernel's __setup() matches");
	tap_ok(parse("noresume=0") == 0 && c.noresume, "cmdline: noresume=0 is noresume too");
	tap_ok(parse("no-resume noresum xnoresume") == 0 && !c.noresume,
	       "cmdline: no-resume, noresum and xnoresume are not noresume");
	tap_ok(parse("nohibernatefoo") == 0 && c.noresume, "cmdline: nohibernate by prefix");
	tap_ok(parse("hibernate=nope") == 0 && c.noresume, "cmdline: hibernate=nope (no...)");
	tap_ok(parse("hibernate=\"noresume\"") == 0 && c.noresume,
	       "cmdline: hibernate=\"noresume\" quoted");
	tap_ok(parse("\"noresume and more\"") == 0 && c.noresume,
	       "cmdline: a quoted word starting with noresume");
	tap_ok(parse("hibernateno=noresume xhibernate=no") == 0 && !c.noresume,
	       "cmdline: only the hibernate= name counts");
	tap_ok(parse("noresume -- resume=/dev/a torpor.wait=x") == 0 && c.noresume &&
	       !c.resume[0] && c.wait_seconds == -1, "cmdline: nothing after -- is ours");
	tap_ok(parse("resume=/dev/a -- noresume") == 0 && !c.noresume &&
	       !strcmp(c.resume, "/dev/a"), "cmdline: noresume after -- is init's");
	tap_ok(parse("resume=/dev/a \"--\" noresume") == 0 && !c.noresume,
	       "cmdline: a quoted \"--\" ends it too, as in the kernel");
	tap_ok(parse("--x noresume --=1 resume=/dev/b") == 0 && c.noresume &&
	       !strcmp(c.resume, "/dev/b"), "cmdline: --x and --=1 are not the end marker");
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
	tap_ok(parse("resume_offset= 5") == -EINVAL && c.resume_offset_bad && !c.resume_bad,
	       "cmdline: resume_offset= (empty): -EINVAL");
	tap_ok(parse("resume_offset=\"77\"") == 0 && c.resume_offset == 77,
	       "cmdline: quoted resume_offset");
	tap_ok(parse("resume_offset=5 resume_offset=bad") == -EINVAL && c.resume_offset_bad &&
	       c.has_resume_offset && c.resume_offset == 5,
	       "cmdline: a bad later resume_offset is recorded, the earlier value kept");
	tap_ok(parse("resume_offset=x") == -EINVAL && c.resume_offset_bad &&
	       !c.has_resume_offset && c.wait_seconds == -1 &&
	       !strcmp(c.malformed, "resume_offset=x"),
	       "cmdline: resume_offset=x is named, no offset, the rest are defaults");
	tap_ok(parse("resume_offset=34816k") == -EINVAL && c.resume_offset_bad &&
	       c.has_resume_offset && c.resume_offset == 34816,
	       "cmdline: resume_offset=34816k: malformed, offset read as the kernel reads it");
	tap_ok(parse("resume_offset=1 resume_offset=") == -EINVAL && c.resume_offset == 1 &&
	       !strcmp(c.malformed_why, "empty"), "cmdline: an empty later resume_offset=");
	tap_ok(parse("resume_offset=99999999999999999999999x") == -EINVAL &&
	       c.has_resume_offset && c.resume_offset == 200376420520689663ULL,
	       "cmdline: an overflowing prefix wraps modulo 2^64, as simple_strntoull()");
	tap_ok(parse("resume_offset=\" 8\"") == -EINVAL && c.has_resume_offset &&
	       c.resume_offset == 8 && !strcmp(c.malformed, "resume_offset=\" 8\""),
	       "cmdline: resume_offset=\" 8\": the kernel's sscanf skips the blank, reads 8");
	tap_ok(parse("resume_offset=\"\xa0 12\"") == -EINVAL && c.has_resume_offset &&
	       c.resume_offset == 12, "cmdline: 0xA0 is a blank to the kernel's sscanf too");
	tap_ok(parse("resume_offset=+5") == -EINVAL && !c.has_resume_offset,
	       "cmdline: resume_offset=+5: the kernel's %%llu takes no sign, no offset");
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
	tap_ok(parse(s) == -EINVAL && c.resume_bad && !c.resume[0] &&
	       !strncmp(c.malformed, "resume=xxx", 10) &&
	       !strcmp(c.malformed + sizeof(c.malformed) - 4, "..."),
	       "cmdline: a 256-byte resume= is -EINVAL, named cut short");
	memmove(s + 14, s, strlen(s) + 1);
	memcpy(s, "resume=/dev/a ", 14);
	strcat(s, " noresume");
	tap_ok(parse(s) == -EINVAL && c.resume_bad && !strcmp(c.resume, "/dev/a") && c.noresume,
	       "cmdline: after a 256-byte resume=, the earlier one and noresume remain");

	for (i = 0; i + 2 <= n; i += 2) {
		s[i] = 'x';
		s[i + 1] = ' ';
	}
	strcpy(s + i, "noresume");
	tap_ok(parse(s) == 0 && c.noresume, "cmdline: thousands of short words");
	free(s);
}

/* issue 8: a malformed value must not hide noresume or the resume area */
static void test_malformed(void)
{
	tap_ok(parse("noresume torpor.wait=x resume=/dev/vdb resume_offset=8") == -EINVAL &&
	       c.noresume && !strcmp(c.resume, "/dev/vdb") && c.resume_offset == 8 &&
	       !c.resume_bad && !c.resume_offset_bad && c.wait_seconds == -1 &&
	       !strcmp(c.malformed, "torpor.wait=x") && strstr(c.malformed_why, "seconds"),
	       "cmdline: torpor.wait=x is named; noresume, resume= and offset still read");
	tap_ok(parse("torpor.wait=x noresume") == -EINVAL && c.noresume,
	       "cmdline: noresume after a malformed value");
	tap_ok(parse("resume=/dev/vdb resume_offset= noresume") == -EINVAL && c.noresume &&
	       c.resume_offset_bad && !c.has_resume_offset &&
	       !strcmp(c.malformed, "resume_offset="),
	       "cmdline: empty resume_offset= named, noresume still read");
	tap_ok(parse("torpor.debug=maybe torpor.force=2 torpor.wait=3") == -EINVAL &&
	       !strcmp(c.malformed, "torpor.debug=maybe") && strstr(c.malformed_why, "boolean") &&
	       c.wait_seconds == 3 && !c.debug,
	       "cmdline: a bad bool: the first malformed one is named, later ones still read");
	tap_ok(parse("torpor.force=y torpor.force=maybe") == -EINVAL && c.force,
	       "cmdline: a bad bool keeps the earlier value");
	tap_ok(parse("torpor.wait=5 torpor.wait") == -EINVAL && c.wait_seconds == 5 &&
	       !strcmp(c.malformed, "torpor.wait"), "cmdline: torpor.wait without '=' named");
	tap_ok(parse("torpor.wait=\"x\x01\xff\"") == -EINVAL &&
	       !strcmp(c.malformed, "torpor.wait=\"x??\""),
	       "cmdline: unprintable bytes of the malformed word are shown as '?'");
	tap_ok(parse("resume=/dev/vdb torpor.debug torpor.wait=10") == 0 && !c.malformed[0] &&
	       !c.malformed_why && !c.resume_bad && !c.resume_offset_bad,
	       "cmdline: a well-formed line records nothing malformed");
}

/* the kernel's isspace(): 0xA0 separates words; other bytes do not */
static void test_spaces(void)
{
	tap_ok(parse("resume=/dev/vdb\xa0noresume") == 0 && c.noresume &&
	       !strcmp(c.resume, "/dev/vdb"), "cmdline: 0xA0 separates words");
	tap_ok(parse("\xa0\xa0resume=/dev/vdb\xa0") == 0 && !strcmp(c.resume, "/dev/vdb"),
	       "cmdline: leading and trailing 0xA0");
	tap_ok(parse("torpor.wait=1\xa0torpor.debug") == 0 && c.wait_seconds == 1 && c.debug,
	       "cmdline: 0xA0 ends a number");
	tap_ok(parse("resume=\"a\xa0noresume\"") == 0 && !c.noresume &&
	       !strcmp(c.resume, "a\xa0noresume"), "cmdline: 0xA0 inside quotes is kept");
	tap_ok(parse("resume=/dev/vdb\x85noresume\x1cnoresume") == 0 && !c.noresume &&
	       !strcmp(c.resume, "/dev/vdb\x85noresume\x1cnoresume"),
	       "cmdline: 0x85 and 0x1C are not spaces");
	tap_ok(parse("resume=/dev/a\vnoresume\rresume_offset=3\f") == 0 && c.noresume &&
	       c.resume_offset == 3, "cmdline: \\v \\r \\f separate words");
}

static void test_decimal(void)
{
	unsigned long long v = 7;

	tap_ok(decimal_parse("123", 3, 1000, &v) == 0 && v == 123, "decimal: 123");
	tap_ok(decimal_parse("1234", 2, 1000, &v) == 0 && v == 12, "decimal: reads len bytes");
	tap_ok(decimal_parse("3600", 4, 3600, &v) == 0 && v == 3600, "decimal: max itself");
	v = 7;
	tap_ok(decimal_parse("3601", 4, 3600, &v) == -EINVAL && v == 7,
	       "decimal: over max, nothing written");
	tap_ok(decimal_parse("", 0, 10, &v) == -EINVAL && decimal_parse(NULL, 0, 10, &v) ==
	       -EINVAL, "decimal: empty");
	tap_ok(decimal_parse(" 1", 2, 10, &v) == -EINVAL &&
	       decimal_parse("+1", 2, 10, &v) == -EINVAL &&
	       decimal_parse("-1", 2, 10, &v) == -EINVAL &&
	       decimal_parse("0x1", 3, 10, &v) == -EINVAL &&
	       decimal_parse("1 ", 2, 10, &v) == -EINVAL, "decimal: no space, sign, 0x, suffix");
	tap_ok(decimal_parse("18446744073709551615", 20, ULLONG_MAX, &v) == 0 &&
	       v == ULLONG_MAX && decimal_parse("18446744073709551616", 20, ULLONG_MAX, &v) ==
	       -EINVAL, "decimal: 2^64-1 fits, 2^64 does not");
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
	       r.resume_offset == 4096 && !r.malformed_why,
	       "cmdline: cmdline_read() of a file");
	unlink(path);
	tap_ok(cmdline_read(path, &r) == -ENOENT,
	       "cmdline: cmdline_read() of a missing file: -ENOENT");
	tap_ok(cmdline_read("/proc/cmdline", &r) == 0,
	       "cmdline: cmdline_read(/proc/cmdline) succeeds");
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
	test_malformed();
	test_spaces();
	test_decimal();
	test_read();
	return tap_done();
}
