#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# verbs_check.sh - the preflight, ibrouterd --check (ibrouterd(8)):
#   1. on the sim lab's example config (etc/ibrouterd.conf, its paths moved
#      under the test's directory): every check OK but the peers nobody is
#      bound at yet (WARN), exit 0; -j gives the same as JSON; a live
#      process on a port's sim socket (a running router) is a FAIL, exit 1;
#      a config that does not parse: FAIL, exit 1; usage errors exit 2;
#   2. on a verbs config over the fake provider (ibrouterd-fakeverbs, its
#      HCAs from FAKE_VERBS_DEVICES) under a directory standing for / (its
#      sys and dev: IBROUTERD_CHECK_ROOT): both HCA ports read (link layer,
#      state, LID, GID, P_Keys, MTU, limits), the modules and device nodes,
#      the locked memory, exit 0; a device not there, a node the user may
#      not open, a subnet at fe80::/64: each said, exit 1 where it fails;
#   3. a umad port on this machine, which has no umad device for its CA:
#      FAIL (its MAD channel would be lost), exit 1.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/../sim/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FV=$BUILD/tests/verbs/ibrouterd-fakeverbs

# ---- 1. the sim example ----
mkdir -p "$T/run"
sed "s|/run/ibrouter/|$T/run/|g" "$SRC/etc/ibrouterd.conf" > "$T/sim.conf"
grep -q '^control' "$T/sim.conf" || printf 'control {\n\tsocket = "%s/run/ctl.sock"\n}\n' "$T" >> "$T/sim.conf"
grep -q 'pid-file' "$T/sim.conf" && sed -i "s|pid-file = .*|pid-file = \"$T/run/p.pid\"|" "$T/sim.conf"
"$IBRD" --check -f "$T/sim.conf" > "$T/c1.out" 2>&1
st=$?
cat "$T/c1.out"
check "1: the sim example: exit 0" test "$st" -eq 0
check "1: one line a check: OK, WARN or FAIL" sh -c "! grep -v -E '^(OK|WARN|FAIL) +[^:]+: |^[0-9]+ OK, ' '$T/c1.out'"
check "1: the ports' sockets can be bound, their peers are not there yet" sh -c "
	grep -q '^OK    port a: sim socket' '$T/c1.out' && grep -q '^OK    port b: sim socket' '$T/c1.out' &&
	grep -q '^WARN  port a: sim peer' '$T/c1.out' && grep -q ', 0 FAIL: nothing will fail' '$T/c1.out'"
"$IBRD" --check -j -f "$T/sim.conf" > "$T/c1.json" 2>&1
check "1: -j: the same checks as JSON" python3 -c "
import json
d = json.load(open('$T/c1.json'))
assert d['fail'] == 0 and d['warn'] == 2, d
assert [c['status'] for c in d['checks']].count('OK') == d['ok'], d
assert any(c['what'] == 'port b: sim peer $T/run/b.peer' for c in d['checks']), d"
# a router already bound at port a's socket
"$HOST" -s "$T/run/a.sock" recv -c 1 -t 3000 > /dev/null 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 1 50); do [ -S "$T/run/a.sock" ] && break; sleep 0.02; done
"$IBRD" --check -f "$T/sim.conf" > "$T/c1b.out" 2>&1
check "1: a live process on port a's socket: FAIL, exit 1" sh -c "[ $? -eq 1 ] &&
	grep -q '^FAIL  port a: sim socket .*: a live process is bound there' '$T/c1b.out'"
printf 'port "z" {\n\tdata = bogus\n}\n' > "$T/bad.conf"
"$IBRD" --check -f "$T/bad.conf" > "$T/bad.out" 2>&1
check "1: a config that does not parse: FAIL, exit 1" sh -c "[ $? -eq 1 ] && grep -q '^FAIL  config' '$T/bad.out'"
"$IBRD" -j -f "$T/sim.conf" > /dev/null 2>&1
check "1: -j without --check: a usage error, exit 2" test $? -eq 2
"$IBRD" --check -n -f "$T/sim.conf" > /dev/null 2>&1
check "1: --check with -n: a usage error, exit 2" test $? -eq 2

# ---- 2. verbs over the fake provider ----
R=$T/root
mkdir -p "$R/dev/infiniband" "$R/sys/class/infiniband_verbs" "$R/sys/class/infiniband/mlx5_0" \
	"$R/sys/class/infiniband/mlx5_1"
: > "$R/sys/class/infiniband_verbs/abi_version"
: > "$R/dev/infiniband/mlx5_0"
: > "$R/dev/infiniband/mlx5_1"
chmod 666 "$R/dev/infiniband/mlx5_0" "$R/dev/infiniband/mlx5_1"
cat > "$T/verbs.conf" <<EOC
router {
	name = "verbs"
	node-guid = 0x0002c90300000200
}
port "a" {
	data = verbs
	device = "mlx5_0:1"
}
port "b" {
	data = verbs
	device = "mlx5_1"
	lid = 0x10
	subnet-prefix = "fec0:0:0:2::"
}
control {
	socket = "$T/run/v.sock"
}
EOC
devs() { echo "mlx5_0,$T/a.sock,$T/a.peer,1,$1;mlx5_1,$T/b.sock,$T/b.peer,0x10,fec0::2:0:0:0:1"; }
FAKE_VERBS_DEVICES=$(devs fec0::1:0:0:0:1) IBROUTERD_CHECK_ROOT=$R "$FV" --check -f "$T/verbs.conf" > "$T/c2.out" 2>&1
st=$?
cat "$T/c2.out"
check "2: the fake HCAs: exit 0" test "$st" -eq 0
check "2: module ib_uverbs and the devices found" sh -c "grep -q '^OK    module ib_uverbs: loaded' '$T/c2.out' &&
	grep -q '^OK    device mlx5_0: present' '$T/c2.out' && grep -q '^OK    device mlx5_1: present' '$T/c2.out'"
check "2: both HCA ports read: InfiniBand, Active, their LIDs, GIDs, P_Keys, limits" sh -c "
	grep -q '^OK    port a: verbs mlx5_0:1: link layer InfiniBand, Active' '$T/c2.out' &&
	grep -q '^OK    port b: verbs mlx5_1:1: link layer InfiniBand, Active' '$T/c2.out' &&
	grep -q '^OK    port a: GID 0: fec0:0:0:1::1: its prefix is the port.s' '$T/c2.out' &&
	grep -q '^OK    port a: P_Keys: 0xffff' '$T/c2.out' &&
	grep -q '^OK    port b: device limits: 9 QPs' '$T/c2.out' &&
	grep -q '^WARN  port a: LID: no SM LID' '$T/c2.out'"
check "2: the uverbs nodes for the user, the locked memory" sh -c "
	grep -q '^OK    port a: /dev/infiniband/mlx5_0: .* may read and write it' '$T/c2.out' &&
	grep -q '^OK    locked memory' '$T/c2.out'"
# subnet A at the SM's default prefix; mlx5_1 missing; mlx5_0's node root's only, for nobody
FAKE_VERBS_DEVICES="mlx5_0,$T/a.sock,$T/a.peer,1,fe80::1" IBROUTERD_CHECK_ROOT=$R "$FV" --check -f "$T/verbs.conf" > "$T/c3.out" 2>&1
st=$?
cat "$T/c3.out"
check "2: mlx5_1 not there: FAIL, exit 1" sh -c "[ $st -eq 1 ] &&
	grep -q '^FAIL  port b: verbs mlx5_1:1: no such device (1 listed)' '$T/c3.out'"
check "2: port a's subnet at fe80::/64: WARN" grep -q "^WARN  port a: GID 0: fe80::1: its subnet's prefix is link-local" "$T/c3.out"
if [ "$(id -u)" -eq 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$FV" 2>/dev/null; then
	chmod 600 "$R/dev/infiniband/mlx5_0"
	chmod 777 "$T" "$T/run"
	FAKE_VERBS_DEVICES=$(devs fec0::1:0:0:0:1) IBROUTERD_CHECK_ROOT=$R setpriv --reuid=65534 --regid=65534 \
		--clear-groups sh -c "ulimit -l 1024; '$FV' --check -f '$T/verbs.conf'" > "$T/c4.out" 2>&1
	st=$?
	cat "$T/c4.out"
	check "2: as nobody: its node root's only, 1 MiB of locked memory: FAIL, exit 1" sh -c "[ $st -eq 1 ] &&
		grep -q '^FAIL  port a: /dev/infiniband/mlx5_0: .* may not read and write it (root:root mode 0600)' '$T/c4.out' &&
		grep -q '^FAIL  locked memory: limit 1 MiB, the verbs ports need' '$T/c4.out'"
fi

# ---- 3. a umad port, no umad device for its CA here ----
cat > "$T/umad.conf" <<EOC
router {
	node-guid = 0x0002c90300000300
}
port "a" {
	data = none
	mad = umad
	umad-ca = "ibr_nodev0"
}
control {
	socket = "$T/run/u.sock"
}
EOC
"$IBRD" --check -f "$T/umad.conf" > "$T/c5.out" 2>&1
st=$?
cat "$T/c5.out"
check "3: a umad port without its device: FAIL, exit 1" sh -c "[ $st -eq 1 ] &&
	grep -q '^FAIL  port a: umad ibr_nodev0:1: no such CA or port' '$T/c5.out' &&
	grep -q '^FAIL  port a: MAD channel: umad ibr_nodev0' '$T/c5.out'"
finish
