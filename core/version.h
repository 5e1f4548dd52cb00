/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * version.h - the line both programs print for --version (and torpor-resume
 * logs before its first message at boot): the release, the image format and
 * the build.  The Makefile defines TORPOR_VERSION (debian/changelog's version,
 * the one place it is kept) and TORPOR_BUILD (git describe in a checkout, else
 * the version) for the objects that use it.
 */
#ifndef CORE_VERSION_H
#define CORE_VERSION_H

#include "image.h"

#ifndef TORPOR_VERSION
#define TORPOR_VERSION "unknown"
#endif
#ifndef TORPOR_BUILD
#define TORPOR_BUILD TORPOR_VERSION
#endif

/* e.g. "torpor-suspend 0.2 (image format 2, build 0649d6b)" */
#define VERSION_LINE(prog)						\
	prog " " TORPOR_VERSION " (image format "			\
	TORPOR_STR(TORPOR_FORMAT_VERSION) ", build " TORPOR_BUILD ")"

#endif
