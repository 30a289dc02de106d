#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_verbs.sh - the verbs and sim data paths forward the same lab traffic
# with the same results (issue 8).  The data scenarios of lab_sa.sh run
# twice, each time from a fresh start (two ibsim subnets, an OpenSM each,
# the router attached at RtrA and RtrB with mad = ibsim and the SA client
# learning LIDs, prefixes, neighbours and groups): once with ibrouterd and
# sim data ports, once with tests/verbs/ibrouterd-fakeverbs and data =
# verbs, whose fake HCA ports are the same sim wires with the LIDs and GIDs
# OpenSM gave the router nodes.  The hosts send the same packets both times:
#   2. unicast A->B and back, to the router's LID from an SA PathRecord
#      (the router's prefix routes installed in OpenSM A); with verbs the
#      senders address proxy QPs (ibrouterctl proxy add; show proxies);
#   3. a site-scope group created in A by a host's SA join (the lab client's
#      Q_Key 0xb, not the relay QP's), bridged to B by the router (with
#      verbs a QP of the group's Q_Key attached to it); a stream from A
#      reaches B on B's MLID; a link-local group's stream does not cross;
#   4. Unlink of the receiving host: dropped as no_neigh; ReLink: back.
# Each receiving host writes one JSON line a packet (ibrouter-host -j);
# each round keeps, per scenario, the count and the fields both models must
# agree on (SUMMARY_FIELDS: the SLID too, the router's egress port LID in
# both: rewritten by the raw model, the HCA's own with verbs), and the lab
# diffs the rounds.  Not compared, by design of the UD model (ibrouterd(8)):
# the SGID and source QPN (the router's with verbs; each round checks its
# SGID), the PSN (the HCA's) and the DestQP the sender used (a proxy's).
# Prints "N passed, N failed"; every process is stopped by its PID.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
RES=$LAB # the rounds' summaries and counts outlive their own lab directories
A2=fec0:0:0:1::10:3 B2=fec0:0:0:2::11:3
HB2=0x0000000000110003 # B2's port GUID
QP=0x42       # the hosts' UD QPs
QKEY=0x1234   # the Q_Key of their unicast traffic
MQKEY=0xb     # the groups': mad_lab_client's default, not the relay QP's (a Q_Key QP's, C10-25)
SUMMARY_FIELDS="slid dlid dgid sl hoplimit tclass flowlabel pkey qpn qkey payload len"

# hear NAME PEER ARGS...: a host bound at PEER receiving in the background
# (5 s at most), a JSON line a packet; `heard` collects it
hear() {
	hn=$1 hs=$2; shift 2
	rm -f "$hs"
	"$HOST" -s "$hs" -j recv -t 5000 "$@" > "$LAB/$hn.json" 2> "$LAB/$hn.err" &
	eval "HEAR_$hn=$!"
	LAB_PIDS="$LAB_PIDS $!"
	for _ in $(seq 1 100); do [ -S "$hs" ] && break; sleep 0.02; done
}

# heard NAME SCENARIO: the receiver's exit status (its expectations); its
# packets, reduced to SUMMARY_FIELDS, go into the round's summary
heard() {
	eval "wait \$HEAR_$1"
	hd_rc=$?
	awk -v s="$2" -v keep="$SUMMARY_FIELDS" '
		/^\{/ { n++; out = s; k = split(keep, f, " ")
			for (i = 1; i <= k; i++) {
				v = "-"
				if (match($0, "\"" f[i] "\":(\"[^\"]*\"|[0-9]+)"))
					v = substr($0, RSTART + length(f[i]) + 3, RLENGTH - length(f[i]) - 3)
				gsub(/"/, "", v)
				out = out " " f[i] "=" v
			}
			print out }
		END { print s " count=" n + 0 }' "$LAB/$1.json" >> "$SUM"
	cat "$LAB/$1.err"
	return $hd_rc
}

# port_id NAME PATH FIELD: field 1 (LID), 2 (LMC) or 3 (GID) of lab_port_id
port_id() { lab_port_id "$1" "$2" | cut -d' ' -f"$3"; }

# dlid_of SCENARIO LID N: every packet of SCENARIO was sent to one of LID..LID+N-1
dlid_of() {
	[ -n "$2" ] && awk -v s="$1" -v lo="$2" -v n="$3" '$1 == s && $2 != "count=0" && /dlid=/ { k++
		for (i = 2; i <= NF; i++) if ($i ~ /^dlid=/) { d = substr($i, 6) + 0; if (d < lo || d >= lo + n) bad++ } }
		END { if (!k || bad) { print k + 0 " packets, " bad + 0 " outside " lo ".." lo + n - 1; exit 1 } }' "$SUM"
}

send_a() { "$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid "$LA2" --sgid $A2 --src-qp $QP "$@"; }
send_b() { "$HOST" -s "$LAB/b.peer" -p "$LAB/b.sock" send -q --slid "$LB2" --sgid $B2 --src-qp $QP "$@"; }

# seen_sgid HOST_GID ROUTER_GID: the SGID a receiver sees, by the backend's model
seen_sgid() { if [ "$BE" = verbs ]; then echo "$2"; else echo "$1"; fi; }
proxy_qpn() { ctl -j show proxies "$1" | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p'; }
path_is_router() { d=$(path_dlid $A2 $B2); [ -n "$d" ] && [ "$(printf %d "$d")" = "$RA" ]; }
both_synced() { grep -q 'sa: a: synced' "$LAB/r.log" && grep -q 'sa: b: synced' "$LAB/r.log"; }
# hca_log PORT LID: a command that finds the daemon's line for a verbs port
hca_log() { printf "grep -q 'port %s: verbs %s:1, LID 0x%04x, .*active' '%s'" "$1" "$(lab_hca "$1")" "$2" "$LAB/r.log"; }
bridged() { [ -n "$(mlid_of "$1" b)" ]; }

# round BACKEND: the whole lab with data = BACKEND (sim or verbs), in a subshell
round() {
	BE=$1
	lab_round "$BE"
	SUM=$RES/$BE.sum
	: > "$SUM"
	echo "== data = $BE"
	lab_subnet A "$HERE/netA"
	lab_subnet B "$HERE/netB"
	lab_check "$BE: OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
	# subnet B with LMC 1: its LIDs (2, 4, 6, 8) stand apart from A's (1 to
	# 4), so that a LID of the wrong subnet cannot pass for the right one
	echo "lmc 1" > "$LAB/lmc1.conf"
	lab_check "$BE: OpenSM B (LMC 1): SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002 "$LAB/lmc1.conf"
	# what OpenSM gave the router nodes and the hosts, by smpquery
	RA=$(port_id A 0,1,3 1) GA=$(port_id A 0,1,3 3) RB=$(port_id B 0,1,3 1) GB=$(port_id B 0,1,3 3)
	LA2=$(port_id A 0 1) LB2=$(port_id B 0 1)
	lab_check "$BE: smpquery: router LIDs $RA, $RB, host LIDs $LA2, $LB2" \
		test -n "$RA" -a -n "$RB" -a -n "$GA" -a -n "$GB" -a -n "$LA2" -a -n "$LB2"

	lab_router_conf "$LAB/r.conf" lab "" "$BE"
	if [ "$BE" = verbs ]; then
		FAKE_VERBS_DEVICES=$(lab_fake_hcas)
		export FAKE_VERBS_DEVICES
		IBRD=$BUILD/tests/verbs/ibrouterd-fakeverbs
	else
		IBRD=$BUILD/ibrouterd
	fi
	"$IBRD" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	lab_check "$BE: both ports synced" wait_for 10 both_synced
	lab_check "$BE: port LIDs are OpenSM's ($(port_lid a) $(port_lid b))" test "$(port_lid a)" = "$RA" -a "$(port_lid b)" = "$RB"
	# the LMC of B2's PortInfoRecord (OpenSM lmc 1), as the sync read it
	lab_check "$BE: B2's LMC from the SA is 1" sh -c "'$CTL' -s '$LAB/ctl.sock' show neighbours b | awk '\$2 == \"$HB2\" { print \$4 }' | grep -qx 1"
	[ "$BE" = sim ] || lab_check "verbs: the fake HCA ports are active with OpenSM's LIDs" \
		sh -c "$(hca_log a "$RA") && $(hca_log b "$RB")"

	# ---- 2. unicast with the router's LID from OpenSM A's SA ----
	prefix_routes_a
	lab_check "$BE 2: OpenSM A's SA answers a PathRecord to B's GID with the router's LID $RA" wait_for 10 path_is_router
	QA=$QP QB=$QP # the QPN a sender addresses: the receiver's, or with verbs the proxy standing for it
	if [ "$BE" = verbs ]; then
		lab_check "verbs 2: proxy add a (for B2's QP)" ctl proxy add a $B2 $QP qkey $QKEY
		lab_check "verbs 2: proxy add b (for A2's QP)" ctl proxy add b $A2 $QP qkey $QKEY
		QA=$(proxy_qpn a) QB=$(proxy_qpn b)
		lab_check "verbs 2: show proxies gives their QPNs ($QA, $QB)" test -n "$QA" -a -n "$QB"
	fi
	hear b "$LAB/b.peer" -c 10 --expect-count 10 --expect-slid "$RB" \
		--expect-sgid "$(seen_sgid $A2 "$GB")" --expect-dgid $B2 --expect-hoplimit 63 \
		--expect-qpn $QP --expect-qkey $QKEY --expect-flowlabel 0x5 --expect-tclass 0x20
	send_a --dlid "$(printf %d "$(path_dlid $A2 $B2)")" --dgid $B2 --qpn "$QA" --qkey $QKEY \
		--hoplimit 64 --flowlabel 0x5 --tclass 0x20 --size 128 -c 10
	lab_check "$BE 2: A->B: 10 packets, HopLmt 63" heard b 2-A-B
	lab_check "$BE 2: A->B: at one of B2's LIDs ($LB2 + path bits of LMC 1)" dlid_of 2-A-B $LB2 2
	hear a "$LAB/a.peer" -c 5 --expect-count 5 --expect-dlid "$LA2" --expect-slid "$RA" \
		--expect-sgid "$(seen_sgid $B2 "$GA")" --expect-dgid $A2 --expect-hoplimit 9 \
		--expect-qpn $QP --expect-qkey $QKEY
	# to the router port's second LID (LMC 1 in B): the port answers to all its LIDs
	send_b --dlid $((RB + 1)) --dgid $A2 --qpn "$QB" --qkey $QKEY --hoplimit 10 --size 64 -c 5
	lab_check "$BE 2: B->A: 5 at A2's LID $LA2, HopLmt 9" heard a 2-B-A

	# ---- 3. multicast: a site-scope group bridged, a link-local one not ----
	# B has a group of its own first, so that the bridged group's MLIDs
	# differ in A and B (a router that kept A's would show)
	lab_check "$BE 3: host B2 joins link-local ff12::1:9 in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff12::1:9 1
	lab_check "$BE 3: host A2 joins ff15::1:2 in A (creates it)" "$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:2 1
	lab_check "$BE 3: trap 66 -> the router creates the group in B" wait_for 10 bridged ff15::1:2
	lab_check "$BE 3: host B2 joins it in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:2 1
	MA=$(mlid_of ff15::1:2 a) MB=$(mlid_of ff15::1:2 b)
	lab_check "$BE 3: an MLID in each subnet (A $MA, B $MB)" test -n "$MA" -a -n "$MB" -a "$MA" != "$MB"
	sleep 0.3 # a verbs worker attaches its QPs within 100 ms of a new table
	[ "$BE" = sim ] || lab_check "verbs 3: both ports receive the group on a QP of its Q_Key $MQKEY" \
		test "$(ctl -j show qps | grep -o '"kind":"qkey","qkey":"0x0000000b"' | wc -l)" -eq 2
	hear b "$LAB/b.peer" -c 5 --expect-count 5 --expect-dlid "$(printf %d "$MB")" --expect-slid "$RB" \
		--expect-sgid "$(seen_sgid $A2 "$GB")" --expect-dgid ff15::1:2 --expect-qpn 0xffffff \
		--expect-qkey $MQKEY --expect-hoplimit 63
	send_a --dlid "$(printf %d "$MA")" --dgid ff15::1:2 --qpn 0xffffff --qkey $MQKEY --size 100 -c 5
	lab_check "$BE 3: a stream from A reaches B2 on B's MLID $MB" heard b 3-site
	lab_check "$BE 3: host A2 joins link-local ff12::1:3 in A" "$JOIN" join "$(lab_sock A)" HcaA2 ff12::1:3 1
	lab_check "$BE 3: the router learns it in A" wait_for 10 sh -c "'$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff12::1:3 *a '"
	ML=$(mlid_of ff12::1:3 a)
	sleep 0.3
	lab_check "$BE 3: link-local scope is not bridged" test -z "$(mlid_of ff12::1:3 b)"
	hear b "$LAB/b.peer" -t 1000 --expect-count 0
	send_a --dlid "$(printf %d "$ML")" --dgid ff12::1:3 --qpn 0xffffff --qkey $MQKEY -c 3
	lab_check "$BE 3: a link-local stream does not cross" heard b 3-link-local

	# ---- 4. Unlink / ReLink of the receiving host ----
	lab_console B 'Unlink "HcaB2"[1]'
	lab_check "$BE 4: Unlink HcaB2 -> trap 65 -> neighbour gone" wait_for 10 no_neigh b $HB2
	before=$(drop_count no_neigh)
	hear b "$LAB/b.peer" -t 1000 --expect-count 0
	send_a --dlid "$RA" --dgid $B2 --qpn "$QA" --qkey $QKEY -c 3
	lab_check "$BE 4: nothing reaches the unlinked host" heard b 4-unlinked
	after=$(drop_count no_neigh)
	echo "4-unlinked no_neigh=+$((after - before))" >> "$SUM"
	lab_check "$BE 4: dropped as no_neigh ($before -> $after)" test "$after" -eq $((before + 3))
	lab_console B 'ReLink "HcaB2"[1]'
	lab_check "$BE 4: ReLink HcaB2 -> trap 64 -> neighbour back" wait_for 10 has_neigh b $HB2
	hear b "$LAB/b.peer" -c 3 --expect-count 3 --expect-dgid $B2 --expect-qpn $QP
	send_a --dlid "$RA" --dgid $B2 --qpn "$QA" --qkey $QKEY --flowlabel 0x5 --tclass 0x20 --size 128 -c 3
	lab_check "$BE 4: after ReLink its packets arrive again" heard b 4-relinked
	# OpenSM keeps a port's LID across a relink, and one flow takes one path (IBA o8-2)
	lab_check "$BE 4: on the path of scenario 2's flow" dlid_of 4-relinked \
		"$(sed -n 's/^2-A-B .* dlid=\([0-9]*\) .*/\1/p' "$SUM" | head -1)" 1
	lab_check "$BE: the router is still running" kill -0 "$(cat "$LAB/r.pid")"
	if [ "$lab_fail" -ne 0 ]; then
		echo "--- $BE: router log"; tail -30 "$LAB/r.log"
		echo "--- show mcast, drops"; ctl show mcast; ctl show drops
	fi
	lab_round_end "$RES/$BE.counts"
}

for be in sim verbs; do
	(round $be)
	lab_round_add "$RES/$be.counts"
done

# the two rounds, scenario by scenario
echo "== the same results?"
for s in 2-A-B 2-B-A 3-site 3-link-local 4-unlinked 4-relinked; do
	grep "^$s " "$RES/sim.sum" > "$RES/s.sim"
	grep "^$s " "$RES/verbs.sum" > "$RES/s.verbs"
	lab_check "$s: the hosts received the same from both backends ($(sed -n 's/.*count=//p' "$RES/s.sim") packets)" \
		sh -c "test -s '$RES/s.sim' && diff '$RES/s.sim' '$RES/s.verbs'"
done
lab_finish
