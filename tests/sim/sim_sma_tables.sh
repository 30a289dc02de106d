#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_sma_tables.sh - issue 16, the vendor router attributes as each port's
# subnet reads them (ibrouter-host smp on each wire, directed route):
#   1. NextHopTable (0xFFD1): port a lists the prefixes reachable through
#      the router from subnet A, never A's own prefix, nor a site-local
#      subnet of another site; one record per P_Key that may leave by the
#      route's port, the weight from the route's metric; port b lists
#      subnet A and not its own;
#   2. AdjacentSiteLocalSubnetsTable (0xFFD2): the site-local subnets on the
#      router's other ports of the port's site;
#   3. RouterInfo (0xFFD0): the tops of the port's own tables; the
#      table-change mask says a table changed (a route added: 0x4000) until
#      the table is read.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# port b checks P_Keys (two records per prefix through it); port c is in
# another site; a static route through b with metric 10 (weight 245)
EXTRA_CONF=$(cat <<EOC
port "c" {
	data = sim
	sim-socket = "$T/c.sock"
	sim-peer = "$T/c.peer"
	lid = 0x20
	subnet-prefix = "fec0:0:0:3::"
	site = "elsewhere"
}
route "2001:db8:0:7::/64" {
	port = "b"
	via = 0x17
	metric = 10
}
EOC
)
start_router || exit 1
sed -i 's/^\tsubnet-prefix = "fec0:0:0:2::"$/&\n\tpkeys = { 0xffff, 0x8001 }/' "$T/ibrouterd.conf"
ctl reload > /dev/null || { echo "reload failed"; cat "$T/ibrouterd.log"; exit 1; }

smp_a() { "$HOST" -s "$T/a.peer" -p "$T/a.sock" -t 1000 smp "$@"; }
smp_b() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 1000 smp "$@"; }

# 1. next hops
smp_a nexthops > "$T/nh_a.txt" 2>&1
check "1: a's NextHopTable is answered" grep -q '^# nexthops: status 0x0000' "$T/nh_a.txt"
check "1: a reaches B's prefix with each P_Key b lets out (0xffff)" \
	grep -q '^NextHop\[.\]: prefix 0xfec0000000000002 weight 255 pkey 0xffff$' "$T/nh_a.txt"
check "1: ... and 0x8001" \
	grep -q '^NextHop\[.\]: prefix 0xfec0000000000002 weight 255 pkey 0x8001$' "$T/nh_a.txt"
check "1: a reaches 2001:db8:0:7::/64 with the weight of metric 10" \
	grep -q '^NextHop\[.\]: prefix 0x20010db800000007 weight 245 pkey 0xffff$' "$T/nh_a.txt"
check "1: a does not list its own prefix" sh -c "! grep -q 'prefix 0xfec0000000000001 ' '$T/nh_a.txt'"
check "1: a does not list site-local subnet C of another site" \
	sh -c "! grep -q 'prefix 0xfec0000000000003 ' '$T/nh_a.txt'"
check "1: a's table has 4 records in block 0" test "$(grep -c '^NextHop' "$T/nh_a.txt")" -eq 4
smp_b nexthops > "$T/nh_b.txt" 2>&1
check "1: b reaches A's prefix (a checks no P_Key: the default partition)" \
	grep -q '^NextHop\[.\]: prefix 0xfec0000000000001 weight 255 pkey 0xffff$' "$T/nh_b.txt"
check "1: b does not list its own prefix nor the route through itself" \
	sh -c "! grep -q 'prefix 0xfec0000000000002 \|prefix 0x20010db800000007 ' '$T/nh_b.txt'"

# 2. adjacent site-local subnets
smp_a adjsubnets > "$T/adj_a.txt" 2>&1
check "2: a's adjacent subnets: B with each of b's P_Keys" sh -c \
	"grep -q '^Adjacent\[.\]: subnet 0x0002 pkey 0xffff smlid 0x0000$' '$T/adj_a.txt' &&
	 grep -q '^Adjacent\[.\]: subnet 0x0002 pkey 0x8001 smlid 0x0000$' '$T/adj_a.txt'"
check "2: ... not A itself, not C of another site" test "$(grep -c '^Adjacent' "$T/adj_a.txt")" -eq 2
smp_b adjsubnets > "$T/adj_b.txt" 2>&1
check "2: b's adjacent subnets: A only" sh -c \
	"grep -q '^Adjacent\[0\]: subnet 0x0001 pkey 0xffff' '$T/adj_b.txt' && test \$(grep -c '^Adjacent' '$T/adj_b.txt') -eq 1"

# 3. RouterInfo: tops per port, the table-change mask
smp_a routerinfo > "$T/ri_a.txt" 2>&1
check "3: a's RouterInfo: NextHopTableTop 4 (2 prefixes, 2 P_Keys each), AdjacentSiteLocalSubnetsTableTop 2" sh -c \
	"grep -q '^NextHopTableTop: 4$' '$T/ri_a.txt' && grep -q '^AdjacentSiteLocalSubnetsTableTop: 2$' '$T/ri_a.txt'"
check "3: no table changed yet" grep -q '^TableChanges: 0x0000$' "$T/ri_a.txt"
smp_b routerinfo > "$T/ri_b.txt" 2>&1
check "3: b's RouterInfo: NextHopTableTop 1, AdjacentSiteLocalSubnetsTableTop 1" sh -c \
	"grep -q '^NextHopTableTop: 1$' '$T/ri_b.txt' && grep -q '^AdjacentSiteLocalSubnetsTableTop: 1$' '$T/ri_b.txt'"
ctl route add fec0:0:0:9::/64 port b lid 9 > /dev/null
smp_a routerinfo > "$T/ri_a2.txt" 2>&1
check "3: a route added: a's NextHopTable changed (0x4000), top 6" sh -c \
	"grep -q '^TableChanges: 0x4000$' '$T/ri_a2.txt' && grep -q '^NextHopTableTop: 6$' '$T/ri_a2.txt'"
smp_b routerinfo > "$T/ri_b2.txt" 2>&1
check "3: b's table did not change (the route leaves by b)" grep -q '^TableChanges: 0x0000$' "$T/ri_b2.txt"
smp_a nexthops mod 1 > /dev/null 2>&1
smp_a routerinfo > "$T/ri_a3.txt" 2>&1
check "3: read: the mask is clear again" grep -q '^TableChanges: 0x0000$' "$T/ri_a3.txt"

finish
