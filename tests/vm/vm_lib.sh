# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# vm_lib.sh - sourced by the VM lab's scenarios (tests/vm/vm_*.sh): QEMU
# guests with the kernel's Soft-RoCE (rdma_rxe), each running this
# machine's root file system read only over 9p, linked by QEMU "dgram" NICs
# on UNIX sockets (nothing crosses this machine's network), and an agent in
# each that runs the lab's commands (tests/vm/vm_guest.sh).
#
#   vm_boot NAME "ADDR0 ADDR1 ..." LINK...  boot a guest; LINK = a subnet's
#                                  name, one NIC per link (eth0, eth1, ...);
#                                  ADDRi: ethi's addresses, comma separated
#                                  (fd00:a::1/64,10.0.10.1/24)
#   vm_ready NAME...               wait until the guests' agents run
#   vm_cmd NAME CMD                run CMD in the guest, print its output,
#                                  return its status (VM_TIMEOUT s at most)
#   vm_spawn NAME TAG CMD          start CMD in the guest, in the background
#   vm_join NAME TAG [S]           wait for it: its output, its status
#
# No KVM here: TCG, one vCPU a guest.  On a failed check the guests' serial
# logs are kept in $BUILD/vm-logs/ (finish); the lab's directory goes.
BUILD=${BUILD:-$(pwd)}
BUILD=$(cd "$BUILD" && pwd)
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
VM_TIMEOUT=${VM_TIMEOUT:-120}
T=$(mktemp -d /tmp/ibr-vm.XXXXXX)
chmod 755 "$T"
VM_PIDS=""
VM_NAMES=""
npass=0
nfail=0
ok() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }
check() { # check "what" command...
	w=$1
	shift
	if "$@"; then ok "$w"; else fail "$w"; fi
}
now() { date +%s; }
say() { echo "# $(date +%T) $*"; }

vm_cleanup() {
	[ -d "$T" ] && : > "$T/stop"
	for p in $VM_PIDS; do
		# the agents see stop and power off; what does not, goes
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
		kill "$p" 2>/dev/null
	done
	for p in $VM_PIDS; do wait "$p" 2>/dev/null; done
	if [ "$nfail" -ne 0 ] || [ -n "${VM_KEEP:-}" ]; then
		mkdir -p "$BUILD/vm-logs"
		for n in $VM_NAMES; do cp "$T/$n.serial" "$BUILD/vm-logs/$(basename "$0" .sh)-$n.serial" 2>/dev/null; done
		for f in "$T"/*.pcap; do [ -e "$f" ] && cp "$f" "$BUILD/vm-logs/$(basename "$0" .sh)-${f##*/}"; done
		echo "# the guests' serial logs: $BUILD/vm-logs/"
	fi
	rm -rf "$T"
}
trap 'vm_cleanup' EXIT
trap 'exit 1' INT TERM

vm_kernel() { ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1; }

# The packages of the lab: missing ones fail it (scripts/install-deps.sh installs them).
vm_need() {
	for c in qemu-system-x86_64 busybox cpio ibv_devinfo rdma mckey; do
		command -v $c > /dev/null 2>&1 || { echo "FAIL - no $c: run scripts/install-deps.sh"; exit 1; }
	done
	[ -n "$(vm_kernel)" ] || { echo "FAIL - no guest kernel (linux-image-amd64)"; exit 1; }
	[ -f "$BUILD/vm-initrd.gz" ] && [ "$BUILD/vm-initrd.gz" -nt "$SRC/tests/vm/vm_initrd.sh" ] ||
		sh "$SRC/tests/vm/vm_initrd.sh" "$BUILD/vm-initrd.gz" || exit 1
}

# vm_boot NAME "ADDRS" LINK...: a link joins two guests, the NICs of its
# ends are the sockets $T/LINK.0 and $T/LINK.1.  The guest has VM_CPUS
# virtual CPUs (default 1).
vm_boot() {
	name=$1 addrs=$2
	shift 2
	set -- "$@"
	nics="" i=0 cmdline="console=ttyS0 quiet panic=-1 guest=$SRC/tests/vm/vm_guest.sh name=$name"
	for a in $addrs; do cmdline="$cmdline addr$i=$a"; i=$((i + 1)); done
	i=0
	for l in "$@"; do
		# the first guest on a link is its end 0, the second its end 1
		if [ -e "$T/$l.members" ]; then me=1 peer=0; else me=0 peer=1; fi
		echo "$name" >> "$T/$l.members"
		mac=$(printf '52:54:00:%02x:%02x:%02x' $(($(printf %s "$name" | cksum | cut -d' ' -f1) % 256)) \
			$(($(printf %s "$l" | cksum | cut -d' ' -f1) % 256)) $i)
		nics="$nics -netdev dgram,id=n$i,local.type=unix,local.path=$T/$l.$me,remote.type=unix,remote.path=$T/$l.$peer"
		nics="$nics -device virtio-net-pci,netdev=n$i,mac=$mac,romfile="
		[ -z "${VM_PCAP:-}" ] || nics="$nics -object filter-dump,id=f$i,netdev=n$i,file=$T/$name.eth$i.pcap"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	qemu-system-x86_64 -accel tcg,thread=multi -cpu max -m 512 -smp "${VM_CPUS:-1}" -nographic \
		-no-reboot -nodefaults -serial "file:$T/$name.serial" -monitor none \
		-kernel "$(vm_kernel)" -initrd "$BUILD/vm-initrd.gz" -append "$cmdline" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$T",mount_tag=share,security_model=none,multidevs=remap \
		$nics < /dev/null > "$T/$name.qemu" 2>&1 &
	VM_PIDS="$VM_PIDS $!"
	VM_NAMES="$VM_NAMES $name"
	eval "VM_PID_$name=$!"
	echo 0 > "$T/$name.seq"
}

vm_ready() {
	vt0=$(now)
	for n in "$@"; do
		eval "pid=\$VM_PID_$n"
		while [ ! -e "$T/$n.ready" ]; do
			if [ $(($(now) - vt0)) -gt "$VM_TIMEOUT" ] || ! kill -0 "$pid" 2>/dev/null; then
				fail "guest $n did not boot (after $(($(now) - vt0)) s)"
				tail -20 "$T/$n.serial" "$T/$n.qemu" 2>/dev/null
				exit 1
			fi
			sleep 0.2
		done
		say "guest $n up after $(($(now) - vt0)) s: $(sed -n "s/.*VM [^:]*: up, //p" "$T/$n.serial")"
		vm_cmd "$n" "test -x $BUILD/tools/ibrouter-host" || {
			fail "guest $n does not see the build at $BUILD"
			exit 1
		}
	done
}

# vm_cmd NAME CMD: in order, one at a time per guest (the orchestrator is one
# process: its subshells run one after the other).
vm_cmd() {
	name=$1
	shift
	# a guest that did not answer once is stuck: its agent runs one command at a time
	[ ! -e "$T/$name.dead" ] || return 124
	# the count in a file: a vm_cmd in a $(...) subshell counts too
	seq=$(cat "$T/$name.seq")
	echo $((seq + 1)) > "$T/$name.seq"
	printf '%s\n' "$*" > "$T/.cmd.$$"
	mv "$T/.cmd.$$" "$T/$name.cmd.$seq"
	vt0=$(now)
	while [ ! -e "$T/$name.rc.$seq" ]; do
		if [ $(($(now) - vt0)) -gt "$VM_TIMEOUT" ]; then
			echo "vm_cmd: $name: no answer in $VM_TIMEOUT s to: $*" >&2
			: > "$T/$name.dead"
			return 124
		fi
		sleep 0.05
	done
	cat "$T/$name.out.$seq"
	return "$(cat "$T/$name.rc.$seq")"
}

vm_spawn() {
	name=$1 tag=$2
	shift 2
	vm_cmd "$name" "{ ( $* ) > /run/share/$name.$tag.out 2>&1; echo \$? > /run/share/$name.$tag.rc; } &"
}

vm_join() {
	name=$1 tag=$2 lim=${3:-$VM_TIMEOUT}
	vt0=$(now)
	while [ ! -e "$T/$name.$tag.rc" ]; do
		if [ $(($(now) - vt0)) -gt "$lim" ]; then
			echo "vm_join: $name $tag: not done in $lim s" >&2
			cat "$T/$name.$tag.out" 2>/dev/null
			return 124
		fi
		sleep 0.1
	done
	sleep 0.1 # the status is written after the output is closed
	cat "$T/$name.$tag.out"
	return "$(cat "$T/$name.$tag.rc")"
}

finish() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
