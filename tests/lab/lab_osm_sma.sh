#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_osm_sma.sh - issue 18: real OpenSM talks to the router's own SMA.  In
# each of two ibsim subnets an ibsim_tap sits between ibsim and its clients
# (OpenSM, the infiniband-diags, ibrouterd), so that every SMP for the
# router node reaches ibrouterd's SMA and the PerfMgt GMPs its PMA, while
# ibsim's model of the router port follows OpenSM's Sets (tests/lab/ibsim_tap.c).
#   1. OpenSM brings both subnets up with the router configured by it: no
#      LID or prefix in ibrouterd's config; `show ports` has OpenSM's LIDs
#      and prefixes, and smpquery (through the tap) agrees, PortState Active
#      after OpenSM's Armed and Active Sets;
#   2. one router node in both subnets: ibnetdiscover in A and in B shows
#      the same NodeGUID and NodeDescription, a Rt node of 2 ports, port 1
#      on A's switch, port 2 on B's; NodeInfo's VendorID and LocalPortNum
#      are ibrouterd's (0x0a1b2c; 1 in A, 2 in B);
#   3. perfquery of the router's LID: 100 datagrams sent to it in A move
#      its PortRcvPkts by exactly 100 and PortRcvData by 100 * 94 / 4
#      (to no route: PortRcvSwitchRelayErrors + 100 too);
#   4. the OpenSM logs have no ERR line (counted by code);
#   5. OpenSM A restarted: it finds the router port configured (its LID
#      kept) and ibrouterd forwards with it; OpenSM's PortInfo Sets
#      (LID, MasterSMLID, Armed, Active) reached ibrouterd in both subnets;
#   6. M_Key in the loop: OpenSM A restarted with an M_Key and ProtectBits
#      3 still manages the router (a host with the key reads it Active);
#      a Get without the key is refused and trap 256 reaches OpenSM, whose
#      log shows the router's Bad M_Key notice;
#   7. the router port's link in B goes (ibsim Unlink) and comes back
#      (ReLink): ibrouterd takes the port down (its connected route
#      withdrawn) and its SMA to Down, then OpenSM walks it to Active again
#      and the port forwards with its LID;
#   8. OpenSM's partitions (a second one, 0x8001, of every port) reach the
#      router: its PKeyTable Sets land in ibrouterd, smpquery pkeys and
#      show sma agree, and a stream leaving by b passes with P_Key 0x8001
#      and is dropped with 0x8002; alias GUIDs a host asks OpenSM's SA for
#      (GUIDInfoRecord Set) reach the router port by OpenSM's GUIDInfo Set,
#      and smpquery guidinfo and show sma list them;
#   9. heavy sweeps (SIGHUP to OpenSM A, three): each completes, OpenSM
#      reads the router again, which stays Active with its LID;
#  10. OpenSM A runs its perfmgr (every second, from the start): the
#      router's PMA answers it (show sma pma_gmps), it reports exactly the
#      discards of 3. and 8. (ERR 5436, 5439: its way of saying so) and
#      logs no other ERR line.
# Prints "N passed, N failed"; every process is stopped by its PID on exit.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
TAP="$BUILD/tests/lab/ibsim_tap"

[ -x "$TAP" ] || { lab_nok "no $TAP (make lab builds it)"; lab_finish; exit 1; }

# tap NAME: its socket name, the clients' IBSIM_SOCKNAME in subnet NAME
tap() { echo "$(lab_sock "$1")tap"; }
# via NAME HOST cmd...: a libibumad tool at node HOST of subnet NAME, through the tap
via() {
	v_s=$1 v_h=$2
	shift 2
	IBSIM_SOCKNAME=$(tap "$v_s") SIM_HOST=$v_h LD_PRELOAD=$UMAD2SIM timeout 20 "$@"
}
field() { sed -n "s/^$2:\.*\(.*\)\$/\1/p" "$1" | head -1; }

# both OpenSMs with a second partition of every port: they Set the
# router ports' P_Key tables (scenario 8)
for s in A B; do
	mkdir -p "$LAB/$s/sm"
	printf 'Default=0x7fff, ipoib : ALL=full ;\nlab=0x8001 : ALL=full ;\n' > "$LAB/$s/sm/partitions.conf"
done
lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
for s in A B; do
	"$TAP" "$(lab_sock $s)" "$(tap $s)" "$HERE/net$s" "Rtr$s" > "$LAB/tap$s.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
done
sleep 0.3

# the router, attached through the taps, before the SMs (ibsim's port GUIDs: lab_router_conf)
lab_router_conf "$LAB/r.conf" lab
for s in A B; do
	sed -i "s|ibsim-socket = \"$(lab_sock $s)\"|ibsim-socket = \"$(tap $s)\"|" "$LAB/r.conf"
done
"$BUILD/ibrouterd" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"
lab_check "ibrouterd attached at both router nodes through the taps" wait_for 10 sh -c \
	"grep -q 'client . at RtrA (the router)' '$LAB/tapA.log' && grep -q 'client . at RtrB (the router)' '$LAB/tapB.log'"
# OpenSM A with its perfmgr, sweeping every second (scenario 10)
printf 'perfmgr TRUE\nperfmgr_sweep_time_s 1\n' > "$LAB/osmA.conf"
[ -z "${OSM_EXTRA_A:-}" ] || cat "$OSM_EXTRA_A" >> "$LAB/osmA.conf"
LAB_SM_SOCK=$(tap A) lab_check "OpenSM A (through the tap): SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/osmA.conf"
LAB_SM_SOCK=$(tap B) lab_check "OpenSM B (through the tap): SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002

# ---- 1. configured by OpenSM ----
for s in A B; do
	p=$(echo $s | tr AB ab)
	n=$(echo $s | tr AB 12)
	via $s Hca${s}2 smpquery -D portinfo 0,1,3 > "$LAB/pi$s.txt" 2>&1
	lid=$(field "$LAB/pi$s.txt" Lid)
	lab_check "1: $s: the router port is Active, LID $lid from OpenSM" \
		sh -c "grep -q '^LinkState:\.*Active$' '$LAB/pi$s.txt' && [ -n '$lid' ] && [ '$lid' -gt 0 ]"
	lab_check "1: $s: show ports: $p has LID $lid and prefix fec0:0:0:$n::" wait_for 10 sh -c \
		"\"$CTL\" -s '$LAB/ctl.sock' -j show ports | grep -q '\"name\":\"$p\",[^}]*\"prefix\":\"fec0:0:0:$n::\",\"lid\":\"$(printf '0x%04x' "${lid:-0}")\"'"
	lab_check "1: $s: OpenSM walked the port through Armed and Active" \
		grep -q "sma: port $p: state 3 -> 4" "$LAB/r.log"
	lab_check "1: $s: and set ClientReregister: the SA client resynced" \
		grep -q "sma: port $p: ClientReregister: the SA client resyncs" "$LAB/r.log"
done

# ---- 2. one router node in both subnets ----
for s in A B; do
	n=$(echo $s | tr AB 12)
	via $s Hca${s}2 ibnetdiscover > "$LAB/net$s.txt" 2>&1
	sed -n '/^Rt/,/^$/p' "$LAB/net$s.txt" | sed "s/^/# $s: /"
	lab_check "2: $s: ibnetdiscover shows the router node, 2 ports, ibrouterd's GUID" \
		grep -q '^Rt	2 "R-0002c90300000100"' "$LAB/net$s.txt"
	lab_check "2: $s: its port $n is on Sw$s's port 3" \
		grep -q "^\[$n\]([0-9a-f]*) 	\"S-[0-9a-f]*\"\[3\]" "$LAB/net$s.txt"
	via $s Hca${s}2 smpquery -D nodeinfo 0,1,3 > "$LAB/ni$s.txt" 2>&1
	lab_check "2: $s: NodeInfo from ibrouterd: VendorId 0x0a1b2c, LocalPort $n" sh -c \
		"grep -q '^VendorId:\.*0x0a1b2c$' '$LAB/ni$s.txt' && grep -q '^LocalPort:\.*$n$' '$LAB/ni$s.txt'"
done
for s in A B; do
	via $s Hca${s}2 smpquery -D nodedesc 0,1,3 > "$LAB/nd$s.txt" 2>&1
	lab_check "2: $s: smpquery nodedesc: ibrouterd's name" grep -q '^Node Description:\.*ibrouterd .* lab$' "$LAB/nd$s.txt"
done
lab_check "2: the same NodeDescription in both" sh -c \
	"[ \"\$(grep '^Rt' '$LAB/netA.txt' | cut -f3-)\" = \"\$(grep '^Rt' '$LAB/netB.txt' | cut -f3-)\" ]"

# ---- 3. perfquery of the router's LID ----
lidA=$(field "$LAB/piA.txt" Lid)
# OpenSM A's perfmgr reads the router first (ClassPortInfo, PortCounters),
# so that it reports the discards below (scenario 10)
pma_gmps() { "$CTL" -s "$LAB/ctl.sock" -j show sma a | grep -o '"pma_gmps":[0-9]*' | sed 's/.*://'; }
perfmgr_read() { [ "$(pma_gmps)" -ge 2 ]; }
lab_check "3: OpenSM A's perfmgr has read the router's counters" wait_for 10 perfmgr_read
via A HcaA2 perfquery "$lidA" 1 > "$LAB/pq0.txt" 2>&1
lab_check "3: perfquery answered by the router's PMA" grep -q '^PortRcvPkts:' "$LAB/pq0.txt"
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid 5 --dlid "$lidA" --sgid fec0::1:0:0:10:1 \
	--dgid fec0::77:0:0:0:1 --size 20 -c 100
sleep 0.5
via A HcaA2 perfquery "$lidA" 1 > "$LAB/pq1.txt" 2>&1
d() { echo $(($(field "$LAB/pq1.txt" "$1") - $(field "$LAB/pq0.txt" "$1"))); }
echo "# perfquery $lidA 1 before:"; grep -E '^Port(Rcv|Xmit)(Pkts|Data)|RcvSwitchRelay' "$LAB/pq0.txt" | sed 's/^/#   /'
echo "# after 100 datagrams:"; grep -E '^Port(Rcv|Xmit)(Pkts|Data)|RcvSwitchRelay' "$LAB/pq1.txt" | sed 's/^/#   /'
lab_check "3: PortRcvPkts moved by 100 ($(d PortRcvPkts))" test "$(d PortRcvPkts)" -eq 100
lab_check "3: PortRcvData by 100 * 94 / 4 = 2350 ($(d PortRcvData))" test "$(d PortRcvData)" -eq 2350
lab_check "3: PortRcvSwitchRelayErrors by 100 (no route)" test "$(d PortRcvSwitchRelayErrors)" -eq 100
# perf_sum COUNTER: what OpenSM A's perfmgr reported of the router's COUNTER
perf_sum() {
	grep -o "ERR 543[0-9]: $1 : [0-9]* : node \"ibrouterd [^\"]* lab\"" "$LAB/A/sm/osm.log" |
		awk '{ s += $5 } END { print s + 0 }'
}
perf_100() { [ "$(perf_sum PortRcvSwitchRelayErrors)" -eq 100 ]; }
lab_check "3: and OpenSM's perfmgr reports them: PortRcvSwitchRelayErrors 100 (ERR 5436)" \
	wait_for 5 perf_100

# ---- 5. OpenSM A restarted: the router is found configured, configured again ----
kill "$LAB_SM_A"
wait "$LAB_SM_A" 2> /dev/null
mv "$LAB/A/sm/osm.log" "$LAB/A/sm/osm.log.1"
LAB_SM_SOCK=$(tap A) lab_check "5: OpenSM A restarted: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/osmA.conf"
via A HcaA2 smpquery -D portinfo 0,1,3 > "$LAB/pi5.txt" 2>&1
lab_check "5: the router port is Active with its LID $(field "$LAB/pi5.txt" Lid)" sh -c \
	"grep -q '^LinkState:\.*Active$' '$LAB/pi5.txt' && [ '$(field "$LAB/pi5.txt" Lid)' = '$lidA' ]"
lab_check "5: ibrouterd forwards with it" sh -c \
	"\"$CTL\" -s '$LAB/ctl.sock' -j show ports | grep -q '\"name\":\"a\",[^}]*\"lid\":\"$(printf '0x%04x' "$lidA")\"'"
cat "$LAB/A/sm/osm.log.1" >> "$LAB/A/sm/osm.log"
for s in A B; do
	lab_check "$s: OpenSM's PortInfo Sets reached ibrouterd ($(grep -c 'Set of attribute 0x0015' "$LAB/tap$s.log"))" \
		sh -c "[ \$(grep -c 'Set of attribute 0x0015' '$LAB/tap$s.log') -ge 4 ]"
done

# ---- 6. M_Key in the loop: OpenSM A with an M_Key and ProtectBits 3 ----
{ cat "$LAB/osmA.conf"; printf 'm_key 0x00000000c0ffee01\nm_key_protection_level 3\nm_key_lease_period 0\n'; } > "$LAB/mkey.conf"
kill "$LAB_SM_A"
wait "$LAB_SM_A" 2> /dev/null
cat "$LAB/A/sm/osm.log" >> "$LAB/A/sm/osm.log.1"
LAB_SM_SOCK=$(tap A) lab_check "6: OpenSM A with M_Key 0xc0ffee01, ProtectBits 3: SUBNET UP" \
	lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/mkey.conf"
lab_check "6: with the key, a host reads the router port: Active, LID $lidA" wait_for 10 sh -c \
	"IBSIM_SOCKNAME=$(tap A) SIM_HOST=HcaA2 LD_PRELOAD=$UMAD2SIM timeout 10 smpquery -y 0xc0ffee01 -D portinfo 0,1,3 | grep -q '^LinkState:\.*Active$'"
# SUBNET UP may come before the sweep that sets the port's M_Key: until then
# a Get without it is answered (a clean-clone CI run under load saw that)
keyless() {
	via A HcaA2 smpquery -D portinfo 0,1,3 > "$LAB/pim.txt" 2>&1
	grep -q 'port info query failed' "$LAB/pim.txt"
}
lab_check "6: without it, its Get is refused (no answer, IBA 14.2.4.1)" wait_for 15 keyless
lab_check "6: the refused Get had no answer (no error status either)" sh -c \
	"! grep -q 'the router answered class 0x81 attribute 0x0015 .* method 0x01 with status' '$LAB/tapA.log'"
lab_check "6: trap 256 reached OpenSM" wait_for 5 grep -q 'num:256 (Bad M_Key) Producer:3 (Router) from LID:'"$lidA" "$LAB/A/sm/osm.log"
grep 'Bad M_Key' "$LAB/A/sm/osm.log" | head -2 | sed 's/^/# A: /'
lab_check "6: and the router logged it" grep -q 'sma: port a: bad M_Key from LID 0xffff (attribute 0x0015): trap 256 to the SM at LID 0x0001$' "$LAB/r.log"
cat "$LAB/A/sm/osm.log.1" >> "$LAB/A/sm/osm.log"

# ---- 7. the router port's link in B goes (ibsim's Unlink) and comes back ----
# OpenSM's log up to here: it must have no ERR line; after the Unlink the MADs
# it sends toward the router cannot be delivered: ibsim hands them back as
# dropped (its vendor layer: ERR 5410 "send completed with error", ERR 5412 the
# same for one that had timed out already) and its SA's Reports to the
# router's subscriptions fail (ERR 1A06)
cp "$LAB/B/sm/osm.log" "$LAB/B/sm/osm.log.before-unlink"
lab_console B 'Unlink "RtrB"[1]'
lab_check "7: Unlink: ibrouterd sees the link go, port b down" wait_for 5 sh -c \
	"grep -q 'mad: port b: the simulator.s link is down' '$LAB/r.log' && \"$CTL\" -s '$LAB/ctl.sock' -j show ports | grep -q '\"name\":\"b\",[^}]*\"up\":false'"
lab_check "7: its SMA says Down" grep -q 'sma: port b: state 4 -> 1' "$LAB/r.log"
lab_check "7: b's connected route withdrawn" sh -c \
	"! \"$CTL\" -s '$LAB/ctl.sock' -j show routes | grep -q '\"prefix\":\"fec0:0:0:2::/64\",\"source\":\"connected\"'"
sleep 2 # OpenSM's heavy sweep after ibsim's trap 128
lidB=$(field "$LAB/piB.txt" Lid)
lab_console B 'ReLink "RtrB"[1]'
lab_check "7: ReLink: OpenSM brings the router port up again (Init, Armed, Active)" wait_for 15 sh -c \
	"[ \$(grep -c 'sma: port b: state 3 -> 4' '$LAB/r.log') -eq 2 ]"
lab_check "7: port b forwards again with LID $lidB, its connected route back" wait_for 5 sh -c \
	"\"$CTL\" -s '$LAB/ctl.sock' -j show ports | grep -q '\"name\":\"b\",[^}]*\"lid\":\"$(printf '0x%04x' "${lidB:-0}")\",[^}]*\"up\":true' && \"$CTL\" -s '$LAB/ctl.sock' -j show routes | grep -q '\"prefix\":\"fec0:0:0:2::/64\",\"source\":\"connected\"'"
via B HcaB2 smpquery -D portinfo 0,1,3 > "$LAB/pi7.txt" 2>&1
lab_check "7: smpquery: Active again" grep -q '^LinkState:\.*Active$' "$LAB/pi7.txt"

# ---- 8. the P_Key table and alias GUIDs ----
for s in A B; do
	p=$(echo $s | tr AB ab)
	lab_check "8: $s: OpenSM's PKeyTable Set reached ibrouterd: 0xffff 0x8001" \
		grep -q "sma: port $p: P_Key table from the SM (2): 0xffff 0x8001\$" "$LAB/r.log"
	# A's SM protects its ports with its M_Key since scenario 6
	via $s Hca${s}2 smpquery $([ $s = A ] && echo -y 0xc0ffee01) -D pkeys 0,1,3 > "$LAB/pk$s.txt" 2>&1
	lab_check "8: $s: smpquery pkeys: the router port has 0xffff and 0x8001" sh -c \
		"grep -q '0xffff' '$LAB/pk$s.txt' && grep -q '0x8001' '$LAB/pk$s.txt'"
done
lab_check "8: show sma b: pkeys 0xffff,0x8001" sh -c \
	"\"$CTL\" -s '$LAB/ctl.sock' -j show sma b | grep -q '\"pkeys\":\"0xffff,0x8001\"'"
# a stream from A to HcaB2 leaves by b: in the lab partition it is forwarded,
# in one B's SM did not give the router it is dropped (IBA 10.9.3)
lidA=$(field "$LAB/pi5.txt" Lid)
pk_send() {
	"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid 5 --dlid "$lidA" --sgid fec0::1:0:0:10:3 \
		--dgid fec0::2:0:0:11:3 --pkey "$1" --size 20 -c 10
}
pk0=$(drop_count pkey)
"$HOST" -s "$LAB/b.peer" recv -c 10 -t 5000 --expect-count 10 --expect-pkey 0x8001 > "$LAB/recv8.out" 2>&1 &
RECV=$!
sleep 0.2
pk_send 0x8001
lab_check "8: P_Key 0x8001 (in b's table): 10 datagrams forwarded to B" wait "$RECV"
pk_send 0x8002
pk_dropped() { [ "$(drop_count pkey)" -eq $((pk0 + 10)) ]; }
lab_check "8: P_Key 0x8002 (not in it): 10 dropped as pkey" wait_for 5 pk_dropped
perf_10() { [ "$(perf_sum PortRcvConstraintErrors)" -eq 10 ]; }
lab_check "8: OpenSM A's perfmgr reports them on a: PortRcvConstraintErrors 10 (ERR 5439)" \
	wait_for 5 perf_10
# alias GUIDs: a host asks OpenSM A's SA for two on the router port, OpenSM Sets its GUIDInfo
"$BUILD/tests/lab/mad_lab_client" alias "$(tap A)" HcaA2 "$lidA" 0x0002c90300000a01 0x0002c90300000a02 \
	> "$LAB/alias.txt" 2>&1
cat "$LAB/alias.txt" | sed 's/^/# /'
lab_check "8: the SA took the GUIDInfoRecord Set for the router port" grep -q '^alias GUIDs of LID' "$LAB/alias.txt"
lab_check "8: OpenSM's GUIDInfo Set reached ibrouterd" wait_for 10 grep -q \
	'sma: port a: alias GUIDs from the SM (2): 0x0002c90300000a01 0x0002c90300000a02$' "$LAB/r.log"
via A HcaA2 smpquery -y 0xc0ffee01 -D guidinfo 0,1,3 > "$LAB/guids.txt" 2>&1
lab_check "8: smpquery guidinfo: the router answers with them" sh -c \
	"grep -q '0x0002c90300000a01' '$LAB/guids.txt' && grep -q '0x0002c90300000a02' '$LAB/guids.txt'"
lab_check "8: show sma a lists them" sh -c \
	"\"$CTL\" -s '$LAB/ctl.sock' -j show sma a | grep -q '\"alias_guids\":\"0x0002c90300000a01,0x0002c90300000a02\"'"

# ---- 9. heavy sweeps: OpenSM A re-discovers the router, three times ----
# (SIGHUP: a heavy sweep, its end logged as SUBNET UP; one SMP left
# unanswered would stall it for good under ibsim)
sma_smps() { "$CTL" -s "$LAB/ctl.sock" -j show sma a | grep -o '"smps":[0-9]*' | sed 's/.*://'; }
ups() { grep -c 'SUBNET UP' "$LAB/A/sm/osm.log"; }
smps0=$(sma_smps) ups0=$(ups)
for i in 1 2 3; do
	eval "kill -HUP \$LAB_SM_A"
	up_again() { [ "$(ups)" -ge $((ups0 + i)) ]; }
	lab_check "9: heavy sweep $i: OpenSM A's sweep completes (SUBNET UP)" wait_for 15 up_again
done
lab_check "9: OpenSM read the router again ($smps0 -> $(sma_smps) SMPs to port a)" \
	test "$(sma_smps)" -gt "$((smps0 + 3))"
via A HcaA2 smpquery -y 0xc0ffee01 -D portinfo 0,1,3 > "$LAB/pi9.txt" 2>&1
lab_check "9: the router port is still Active with LID $lidA" sh -c \
	"grep -q '^LinkState:\.*Active$' '$LAB/pi9.txt' && [ '$(field "$LAB/pi9.txt" Lid)' = '$lidA' ]"
lab_check "9: and ibrouterd's port a never left Active" sh -c \
	"[ \$(grep -c 'sma: port a: state 4 -> ' '$LAB/r.log') -eq 0 ]"

# ---- 10. OpenSM A's perfmgr reads the router's PMA ----
g0=$(pma_gmps)
sleep 3
lab_check "10: perfmgr sweeps the router: its PMA answered $g0 -> $(pma_gmps) requests in 3 s" \
	test "$(pma_gmps)" -ge "$((g0 + 2))"

# ---- 4. OpenSM's logs ----
for s in A B; do
	grep -o 'ERR [0-9A-F]*' "$LAB/$s/sm/osm.log" | sort | uniq -c | sed "s/^/# $s: /"
	if [ $s = B ]; then
		lab_check "4: B: OpenSM logged no ERR line before the Unlink" sh -c \
			"! grep -q 'ERR [0-9A-F]' '$LAB/B/sm/osm.log.before-unlink'"
		lab_check "4: B: after it only MADs to the unlinked router failed (5410, 5412, 1A06)" sh -c \
			"! grep 'ERR [0-9A-F]' '$LAB/B/sm/osm.log' | grep -qv -e 'ERR 5410' -e 'ERR 5412' -e 'ERR 1A06'"
	else
		# but its perfmgr's reports of the discards scenarios 3 and 8 made
		lab_check "4: $s: OpenSM logged no ERR line but its perfmgr's of the router's discards" sh -c \
			"! grep 'ERR [0-9A-F]' '$LAB/$s/sm/osm.log' | grep -v -e 'ERR 5436: PortRcvSwitchRelayErrors : [0-9]* : node \"ibrouterd [^\"]* lab\"' -e 'ERR 5439: PortRcvConstraintErrors : [0-9]* : node \"ibrouterd [^\"]* lab\"' | grep -q ."
	fi
	grep -e ' answered ' -e 'mirrored Set' -e 'SMPs to the router' "$LAB/tap$s.log" | sed "s/^/# $s: /"
done

lab_stop_all
lab_finish
