#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# install-deps.sh [--demo|--bench] - install the Debian packages ibrouter needs to build, test
# and run its lab (--demo: only what the programs and `scripts/run demo` need; --bench: DPDK too).
# The VM lab (tests/vm/) needs QEMU, a guest kernel, busybox and rdma-core's provider
# and tools: without them it fails, it does not skip.  It also sets up the aarch64 cross
# build of `scripts/run test` (Debian's multiarch arm64 libraries, qemu-user).
# Idempotent and non-interactive: packages already installed are not touched, and apt is only
# called when something is missing. Run as root (or through sudo when available).
set -eu

# what the programs and the demo need: the build, rdma-core, OpenSM and ibsim for its lab part,
# libmicrohttpd for the exporter
DEMO_PKGS="build-essential autoconf automake libtool pkg-config
libibumad-dev libibmad-dev libibverbs-dev rdma-core
opensm libopensm-dev ibsim-utils libumad2sim0 infiniband-diags
libconfuse-dev zlib1g-dev libisal-dev libsystemd-dev libmicrohttpd-dev"
# and what `scripts/run test` needs besides: CUnit, the captures' and man pages' checkers,
# clang for the fuzzers and the format check, the packages' build and checkers (debhelper,
# lintian, rpm's rpmspec), a Prometheus parser for the exporter's test, the VM lab, the aarch64
# cross build
TEST_PKGS="libcunit1-dev debhelper lintian rpm python3-prometheus-client
tshark mandoc clang clang-format libclang-rt-dev bc
qemu-system-x86 linux-image-amd64 busybox-static cpio ibverbs-utils ibverbs-providers iproute2
rdmacm-utils
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
libibumad-dev:arm64 libibmad-dev:arm64 libibverbs-dev:arm64 libconfuse-dev:arm64
libcunit1-dev:arm64 zlib1g-dev:arm64 libsystemd-dev:arm64 libmicrohttpd-dev:arm64"
case ${1:-} in
--demo) PKGS=$DEMO_PKGS ;;
# --bench: the test set and DPDK, the lookup baseline of `make bench` (tests/bench/bench_dpdk.c)
--bench) PKGS="$DEMO_PKGS $TEST_PKGS libdpdk-dev" ;;
"") PKGS="$DEMO_PKGS $TEST_PKGS" ;;
*)
	echo "usage: install-deps.sh [--demo|--bench]" >&2
	exit 2
	;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: missing:$missing; run this script as root" >&2
		exit 1
	fi
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no without a prompt.
echo 'wireshark-common wireshark-common/install-setuid boolean false' | $SUDO debconf-set-selections
# the aarch64 cross build's libraries (scripts/run test): Debian's multiarch
case $missing in
*:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64 ;;
esac
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
