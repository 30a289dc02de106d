#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# vm_initrd.sh OUT.gz - the guests' initramfs: busybox and the modules that
# mount this machine's root file system over 9p (virtio).  The guest then
# switch_root's into it (not chroot: the kernel's module autoloading runs
# /sbin/modprobe of the real root, rdma_rxe needs crc32 that way) and runs
# the script named by guest= on the kernel command line.
set -eu
out=$1
K=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$K" ] || { echo "vm_initrd: no /boot/vmlinuz-*-amd64 (linux-image-amd64)" >&2; exit 1; }
KV=${K#/boot/vmlinuz-}
M=/lib/modules/$KV/kernel
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/bin" "$w/mods" "$w/host" "$w/newroot" "$w/proc" "$w/sys" "$w/dev"
cp /bin/busybox "$w/bin/"
# the load order: a module after those it needs (virtio_ring before virtio)
MODS="drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev
drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci fs/netfs/netfs fs/fscache/fscache
net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p"
list=""
for m in $MODS; do
	f=$M/$m.ko
	[ -f "$f" ] || f=$f.xz
	[ -f "$f" ] || { echo "vm_initrd: no module $m in $M" >&2; exit 1; }
	cp "$f" "$w/mods/"
	list="$list $(basename "$f")"
done
cat > "$w/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $list; do insmod /mods/\$m || echo "VM: insmod \$m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000 hostroot /host || {
	echo "VM: cannot mount the root file system"; poweroff -f; }
# The root: a tmpfs with this machine's top directories bound in (read only)
# and its links, so the guest has /run (and /proc, /sys, /dev) even where
# this machine has none to mount over (a container's root may lack /run).
mount -t tmpfs -o mode=0755 root /newroot
for e in /host/*; do
	n=\${e#/host/}
	if [ -L "\$e" ]; then
		ln -s "\$(readlink "\$e")" "/newroot/\$n"
	elif [ -d "\$e" ]; then
		mkdir "/newroot/\$n" && mount -o bind "\$e" "/newroot/\$n" ||
			echo "VM: cannot bind /\$n"
	fi
done
mkdir -p /newroot/run /newroot/proc /newroot/sys /newroot/dev /newroot/tmp
g=\$(sed -n 's/.* guest=\([^ ]*\).*/\1/p' /proc/cmdline)
umount /proc /sys /dev
exec switch_root /newroot /bin/sh \$g
INIT
chmod +x "$w/init"
(cd "$w" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$out"
