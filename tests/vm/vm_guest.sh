#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# vm_guest.sh - runs in each guest (the kernel's guest= argument): the
# guest's set-up from its kernel command line (name=, addr0=, addr1=, each
# a comma separated list of IPv6 and IPv4 addresses, the shared directory's
# 9p tag "share"), one rxe device per NIC, then an agent
# that runs the lab's commands: /run/share/NAME.cmd.N is run with sh, its output
# goes to NAME.out.N and its status to NAME.rc.N, in order.  The guest sees
# this machine's files read only; /run/share is the lab's directory, writable.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
# not over /tmp: the build under test may be there (a CI's clone)
mount -t tmpfs run /run
mkdir -p /run/tmp
export TMPDIR=/run/tmp
arg() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" /proc/cmdline; }
NAME=$(arg name)
mkdir -p /run/share
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 share /run/share || {
	echo "VM $NAME: cannot mount the share"; echo o > /proc/sysrq-trigger; }
S=/run/share
modprobe virtio_net
modprobe rdma_rxe
modprobe ib_uverbs
# the RDMA CM (rdma-core's librdmacm: mckey, udaddy), rdma_cm and ib_cm with it
modprobe rdma_ucm
ip link set lo up
i=0
while a=$(arg addr$i) && [ -n "$a" ]; do
	# no duplicate address detection (the lab's links are private)
	sysctl -qw net.ipv6.conf.eth$i.accept_dad=0 2>/dev/null
	# a link down keeps the address (as a network manager would put it back)
	sysctl -qw net.ipv6.conf.eth$i.keep_addr_on_down=1 2>/dev/null
	ip link set eth$i up
	# addrN: ethN's addresses, comma separated, IPv6 or IPv4 (fd00:a::1/64,10.0.10.1/24);
	# all before the rxe device, whose GID table then has them from its start
	for x in $(echo "$a" | tr , ' '); do
		case $x in
		*:*) ip -6 addr add "$x" dev eth$i nodad ;;
		*) ip -4 addr add "$x" dev eth$i ;;
		esac
	done
	rdma link add rxe$i type rxe netdev eth$i
	i=$((i + 1))
done
echo "VM $NAME: up, $(ls /sys/class/infiniband | tr '\n' ' ')"
echo up > $S/$NAME.ready
n=0
while [ ! -e $S/stop ]; do
	c=$S/$NAME.cmd.$n
	if [ -e "$c" ]; then
		(cd /run/tmp && sh "$c") > $S/$NAME.out.$n 2>&1
		echo $? > $S/$NAME.rc.$n.tmp
		mv $S/$NAME.rc.$n.tmp $S/$NAME.rc.$n
		n=$((n + 1))
	else
		sleep 0.05
	fi
done
echo "VM $NAME: stopping"
echo o > /proc/sysrq-trigger
