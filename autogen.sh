#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# autogen.sh - generate configure and Makefile.in from a fresh clone.  It
# says what it runs, as autoreconf's tools take up to a minute: each is
# named on stderr as it starts (-v: "autoreconf: running: automake ...").
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
echo "autogen.sh: autoreconf -fiv: aclocal, libtoolize, autoconf, autoheader, automake" >&2
exec autoreconf -fiv
