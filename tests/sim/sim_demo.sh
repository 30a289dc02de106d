#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_demo.sh - scripts/demo.sh (scripts/run demo, make demo) runs to its
# end, B receives the 5 packets, and its tshark step shows what a new user
# expects of a forwarding demo: UD data to a data QP, not management
# datagrams (ibrouter-host's default QP 1 is the GSI's).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
DEMO=$(cd "$(dirname "$0")/../../scripts" && pwd)/demo.sh

sh "$DEMO" "$BUILD" > "$T/demo.out" 2>&1
check "the demo runs to its end (exit 0)" test $? -eq 0
check "... and says it is done" grep -q '^### done: the router and the hosts are stopped' "$T/demo.out"
check "B received the 5 packets, sent to QP 0x42 with its Q_Key" \
	test "$(grep -c 'UD SEND_ONLY .* > 0x000042 .*qkey 0x00001234' "$T/demo.out")" -eq 5
if command -v tshark > /dev/null 2>&1; then
	check "tshark shows the 5 packets as UD sends to QP 0x42" \
		test "$(grep -c 'InfiniBand.*UD Send Only QP=0x000042' "$T/demo.out")" -eq 5
	check "... and no management datagram" sh -c "! grep -q 'Unknown Attribute\|MAD' '$T/demo.out'"
else
	echo "# SKIP: no tshark, the demo's tshark step is not checked"
fi
finish
