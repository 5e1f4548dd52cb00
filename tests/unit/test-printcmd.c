// SPDX-License-Identifier: GPL-2.0-only
/* test-printcmd.c - the resume= line torpor-suspend --print-cmdline prints for a swap area */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "printcmd.h"
#include "tap.h"

static const uint8_t uuid[16] = { 0x0b, 0x2c, 0x6a, 0x1e, 0x1c, 0x4f, 0x4f, 0x43,
				  0x9a, 0x3e, 0x2f, 0x1b, 0x7c, 0x9d, 0x8e, 0x01 };

int main(void)
{
	struct hib_target t;
	struct probe_id id;
	char buf[128];
	int r;

	memset(&t, 0, sizeof(t));
	memset(&id, 0, sizeof(id));
	memcpy(id.uuid, uuid, 16);
	id.has_uuid = 1;
	r = printcmd_format(&t, &id, buf, sizeof(buf));
	tap_ok(r == 0 && !strcmp(buf, "resume=UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01"),
	       "printcmd: a partition: its swap UUID, no resume_offset (%s)", buf);
	t.is_file = 1;
	t.offset_pages = 34816;
	r = printcmd_format(&t, &id, buf, sizeof(buf));
	tap_ok(r == 0 && !strcmp(buf, "resume=UUID=0b2c6a1e-1c4f-4f43-9a3e-2f1b7c9d8e01 "
				 "resume_offset=34816"),
	       "printcmd: a swap file: its filesystem's UUID and resume_offset (%s)", buf);
	t.offset_pages = 0;
	r = printcmd_format(&t, &id, buf, sizeof(buf));
	tap_ok(r == 0 && strstr(buf, " resume_offset=0"),
	       "printcmd: a swap file at page 0 still says resume_offset=0");
	t.offset_pages = UINT64_MAX;
	r = printcmd_format(&t, &id, buf, sizeof(buf));
	tap_ok(r == 0 && strstr(buf, " resume_offset=18446744073709551615"),
	       "printcmd: the largest offset");
	tap_ok(printcmd_format(&t, &id, buf, 40) == -ENOSPC, "printcmd: a short buffer is -ENOSPC");
	tap_ok(printcmd_format(&t, &id, buf, 49) == -ENOSPC &&
	       printcmd_format(&(struct hib_target){ 0 }, &id, buf, 49) == 0 && strlen(buf) == 48,
	       "printcmd: exactly enough room for the partition line");
	id.has_uuid = 0;
	tap_ok(printcmd_format(&t, &id, buf, sizeof(buf)) == -ENOENT,
	       "printcmd: no UUID is -ENOENT");
	return tap_done();
}
