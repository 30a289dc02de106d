#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ctl_groups.sh - who may change state through the control socket
# (ibrouterd(8), CONTROL SOCKET): root, the daemon's uid, and members of the
# socket's group, primary or supplementary, as the kernel gives the peer's
# groups at accept (SO_PEERGROUPS), however long the list.  The clients run
# as uid 65534 with primary gid 10000 and the supplementary groups of each
# case (setpriv, as root).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
need_nobody

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv > /dev/null 2>&1; then
	echo "skip: needs root and setpriv"
	exit 77
fi
G=65534
GN=$(getent group $G | cut -d: -f1)
if [ -z "$GN" ]; then
	echo "skip: no group $G"
	exit 77
fi
CTL_CONF="	group = \"$GN\"
	mode = 0666"
start_router || exit 1
chmod 0755 "$T"

# as_user GROUPS ARGS...: ibrouterctl as uid 65534, gid 10000, in GROUPS
as_user() {
	groups=$1
	shift
	setpriv --reuid=65534 --regid=10000 --groups="$groups" "$CTL" -s "$T/ctl.sock" "$@"
}
has_route() { "$CTL" -s "$T/ctl.sock" -j show routes | grep -q "\"prefix\":\"$1\""; }
no_route() { ! has_route "$1"; }

# /proc/PID/status lists the groups as "Groups:\t10000 10001 ...": 83 gids of
# five digits fill bytes 0-505, so the first five digits of 6553400 end at
# byte 510, the last one a 512-byte fgets() kept: "65534", the socket's group.
as_user "$(seq -s, 10000 10082),6553400" route add fec0:0:0:8::/64 port b lid 9 > "$T/cut.out" 2>&1
check "a non-member whose Groups line a 512-byte read cuts at '65534' is refused (EPERM)" \
	grep -q 'not allowed for this user (EPERM)' "$T/cut.out"
check "... and its route is not in the RIB" no_route fec0:0:0:8::/64

# a member whose gid comes after 90 others: past byte 511 of the line
as_user "$(seq -s, 10000 10089),$G" route add fec0:0:0:9::/64 port b lid 9 > "$T/past.out" 2>&1
check "a member whose gid sits past byte 511 of the Groups line is allowed" has_route fec0:0:0:9::/64

# 3000 groups: more than fit the first buffer of the group query
ctl route add fec0:0:0:9::/64 port b lid 9 > /dev/null
as_user "$(seq -s, 10000 12999),$G" route del fec0:0:0:9::/64 > "$T/many.out" 2>&1
check "a member among 3001 groups is allowed" no_route fec0:0:0:9::/64
as_user "$(seq -s, 10000 12999)" route add fec0:0:0:a::/64 port b lid 9 > "$T/many2.out" 2>&1
check "a non-member in 3000 groups is refused (EPERM)" grep -q 'not allowed for this user (EPERM)' "$T/many2.out"

check "a member with one supplementary group is allowed" as_user "$G" route add fec0:0:0:b::/64 port b lid 9
as_user 10001 route del fec0:0:0:b::/64 > "$T/one.out" 2>&1
check "a non-member with one group is refused (EPERM)" grep -q 'not allowed for this user (EPERM)' "$T/one.out"
check "the primary group counts" setpriv --reuid=65534 --regid=$G --clear-groups "$CTL" -s "$T/ctl.sock" route del fec0:0:0:b::/64
check "a non-member may still read" as_user 10001 version
chmod 0700 "$T"
finish
