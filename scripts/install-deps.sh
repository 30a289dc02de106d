#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# install-deps.sh - install the Debian packages ibrouter needs to build, test and run its lab.
# The VM lab (tests/vm/) needs QEMU, a guest kernel, busybox and rdma-core's provider
# and tools: without them it fails, it does not skip.  It also sets up the aarch64 cross
# build of `scripts/run test` (Debian's multiarch arm64 libraries, qemu-user).
# Idempotent and non-interactive: packages already installed are not touched, and apt is only
# called when something is missing. Run as root (or through sudo when available).
set -eu

PKGS="build-essential autoconf automake libtool pkg-config
libibumad-dev libibmad-dev libibverbs-dev rdma-core
opensm libopensm-dev ibsim-utils libumad2sim0 infiniband-diags
libconfuse-dev libcunit1-dev zlib1g-dev libisal-dev
tshark mandoc clang clang-format libclang-rt-dev bc
qemu-system-x86 linux-image-amd64 busybox-static cpio ibverbs-utils ibverbs-providers iproute2
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
libibumad-dev:arm64 libibmad-dev:arm64 libibverbs-dev:arm64 libconfuse-dev:arm64
libcunit1-dev:arm64 zlib1g-dev:arm64"
# --bench: also DPDK, the lookup baseline of `make bench` (tests/bench/bench_dpdk.c)
[ "${1:-}" != --bench ] || PKGS="$PKGS libdpdk-dev"

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
dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
