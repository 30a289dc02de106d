#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# autogen.sh - generate configure and Makefile.in from a fresh clone.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf -fi
