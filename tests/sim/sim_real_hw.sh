#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_real_hw.sh - the router as real hardware shows it, on a machine with
# no umad device for the config's CA (this one has none at all):
#   1. a `mad = umad` port whose device is not there: the daemon starts,
#      says the port's MAD channel is lost until it comes (once, at warning
#      level, with what to look at), tries again at a bounded rate without
#      saying it again, and shows it: show sa (phase lost), show ports (mad
#      umad-lost and a note); the other port forwards meanwhile;
#   2. what each port is to its SM: the umad port a CA (the HCA's firmware
#      answers its SMPs), said at start and in show ports with what it
#      means (PathRecords need the OpenSM plugin, no router attributes); the
#      sim port a Router node (its SMA answers); sma-mkey on the umad port
#      said to do nothing there;
#   3. a subnet at the SM's default prefix fe80::/64: a loud warning once,
#      and a note in show ports.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

PORT_A_ADDR='lid = 1
	subnet-prefix = "fec0:0:0:1::"
	mad = umad
	umad-ca = "ibr_nodev0"
	sma-mkey = 0x1234'
EXTRA_CONF='port "c" {
	data = sim
	sim-socket = "'"$T"'/c.sock"
	sim-peer = "'"$T"'/c.peer"
	lid = 0x20
	subnet-prefix = "fe80::"
}'
start_router || exit 1
check "1: the daemon starts with a umad port whose device is not there" ctl version
check "1: it says the port's MAD channel is lost until it comes" \
	grep -q 'mad: port a: umad ibr_nodev0:1: .*: its MAD channel is lost until it comes' "$T/ibrouterd.log"
check "1: ... with what to look at" grep -q "mad: port a: .*(ib_umad not loaded?\|(the HCA or its port not there?" "$T/ibrouterd.log"
ctl -j show sa > "$T/sa.json"
check "1: show sa: port a, phase lost" python3 -c "
import json
rows = json.load(open('$T/sa.json'))['data']
a = [r for r in rows if r['port'] == 'a']
assert len(a) == 1 and a[0]['phase'] == 'lost', rows"
ctl -j show ports > "$T/ports.json"
check "1: show ports: a's mad is umad-lost, a note says why" python3 -c "
import json
rows = {r['name']: r for r in json.load(open('$T/ports.json'))['data']}
a = rows['a']
assert a['mad'] == 'umad-lost', a
assert 'MAD channel lost' in a['notes'], a
assert rows['b']['mad'] == 'none' and 'lost' not in rows['b']['notes'], rows['b']"
# two more tries (after 1 s, then 2 s): tried, counted, not said again
sleep 3.5
ctl -j show sa a > "$T/sa2.json"
check "1: tried again and counted (show sa a: failures >= 2)" python3 -c "
import json
a = json.load(open('$T/sa2.json'))['data'][0]
assert a['phase'] == 'lost' and a['failures'] >= 2, a"
check "1: said once" test "$(grep -c 'lost until it comes' "$T/ibrouterd.log")" -eq 1
# port b forwards meanwhile: a packet from b's side to the host in a's subnet
recv_bg ra "$T/a.peer" -c 1 -t 3000 --expect-count 1
send_b --slid 5 --dlid 0x10 --sgid fec0:0:0:2::11:1 --dgid fec0:0:0:1::10:1 --hoplimit 8 -c 1
check "1: the router forwards meanwhile (b -> a)" recv_wait ra

# 2. what each port is to its SM
check "2: at start: port a is a Channel Adapter to its SM, what that means" \
	grep -q 'port a: a Channel Adapter to its SM (the HCA.s firmware answers its SMPs): .*OpenSM plugin' "$T/ibrouterd.log"
check "2: at start: port b is a Router node (the SMA)" grep -q 'port b: a Router node to its SM' "$T/ibrouterd.log"
check "2: sma-mkey on port a: said to do nothing there" \
	grep -q 'port a: sma-mkey and sma-set-policy do nothing here' "$T/ibrouterd.log"
check "2: show ports: a is a CA (PathRecords need the plugin, no router attributes), b a router" python3 -c "
import json
rows = {r['name']: r for r in json.load(open('$T/ports.json'))['data']}
assert rows['a']['node'] == 'ca', rows['a']
assert 'OpenSM plugin' in rows['a']['notes'] and 'router attributes' in rows['a']['notes'], rows['a']
assert rows['b']['node'] == 'router' and rows['b']['notes'] == '', rows['b']"

# 3. a subnet at fe80::/64
check "3: a loud warning: port c's subnet is at fe80::/64, the SM's default" \
	grep -q 'port c: its subnet.s prefix is fe80::/64, the SM.s default: .*link-local' "$T/ibrouterd.log"
check "3: said once" test "$(grep -c "port c: its subnet's prefix is" "$T/ibrouterd.log")" -eq 1
check "3: show ports: c's note says it" python3 -c "
import json
rows = {r['name']: r for r in json.load(open('$T/ports.json'))['data']}
assert 'fe80::/64' in rows['c']['notes'], rows['c']"
check "the daemon still runs" kill -0 "$RPID"
finish
