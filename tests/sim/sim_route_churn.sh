#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_route_churn.sh - route churn through the control socket: 4000 routes
# added and 2000 of them deleted, one command at a time (tests/sim/ctl_churn),
# past the bound at which the tables changed since the last whole compile
# are merged into a new one (router/router_fib_delta.c); then
#   1. every command was answered ok, and the RIB holds what is left;
#   2. the workers forward by the last state: to a route kept, to the next
#      router's LID; to a deleted one, nothing (no_route);
#   3. the SMA's NextHopTable, read at once, is the last state's: full (its
#      top at the cap, 1024) and changed since it was last read.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A

start_router || exit 1
smp_a() { "$HOST" -s "$T/a.peer" -p "$T/a.sock" -t 1000 smp "$@"; }
smp_a routerinfo > /dev/null 2>&1 # read: the change mask starts clear

# 1. the churn
check "4000 route adds, 2000 route dels, each answered ok" \
	"$BUILD/tests/sim/ctl_churn" "$T/ctl.sock" 4000 b
sed 's/^/# /' "$T/last.out"
ctl show routes > "$T/routes.txt"
check "a route kept is in the RIB (fec1:0:0:f01::/64)" grep -q '^fec1:0:0:f01::/64 ' "$T/routes.txt"
check "a route deleted is not (fec1:0:0:f00::/64)" sh -c "! grep -q '^fec1:0:0:f00::/64 ' '$T/routes.txt'"
check "2000 static routes left" test "$(grep -c '^fec1:' "$T/routes.txt")" -eq 2000

# 2. forwarding by the last state: route 0xf01 goes to LID 0x100 + 0xf01 % 0x100
recv_bg b "$T/b.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 0x101
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid fec1:0:0:f01::1 -c 3
check "to a route kept: forwarded to its next router (LID 0x101)" recv_wait b
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid fec1:0:0:f00::1 -c 4
check "to a route deleted: nothing" recv_wait b
ctl -j show drops a > "$T/drops.json"
check "... dropped as no_route (4)" grep -q '"reason":"no_route","count":4' "$T/drops.json"

# 3. the SMA's tables, read right after the churn
smp_a routerinfo > "$T/ri.txt" 2>&1
check "a's NextHopTable: full (top 1024) and changed (0x4000)" sh -c \
	"grep -q '^NextHopTableTop: 1024$' '$T/ri.txt' && grep -q '^TableChanges: 0x4000$' '$T/ri.txt'"
smp_a nexthops > "$T/nh.txt" 2>&1
check "... its first block lists B's prefix and the first route kept" sh -c \
	"grep -q 'prefix 0xfec0000000000002 ' '$T/nh.txt' && grep -q 'prefix 0xfec1000000000001 ' '$T/nh.txt'"
check "... and no route deleted" sh -c "! grep -q 'prefix 0xfec1000000000000 ' '$T/nh.txt'"

finish
