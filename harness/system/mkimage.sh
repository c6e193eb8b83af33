#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkimage.sh DEBDIR IMAGE: a Debian 12 system on a disk image (one ext4
# file system, no partition table), with DEBDIR's packages installed by
# dpkg: the kernel (linux-image, linux-headers) and the tool (ftrace-mux).
# Beside IMAGE it leaves the kernel and initramfs that the package
# installed (IMAGE.mux.vmlinuz, IMAGE.mux.initrd), and Debian's own
# (IMAGE.stock.*), for QEMU to boot directly.
#
# The base system, debootstrap's minbase plus systemd, initramfs-tools
# and the tools users trace with (trace-cmd, linux-perf, bpftrace) from
# Debian's archive, is made once and kept as build/system/base-HASH.tar.
# harness/system/test/system.sh goes in as /opt/harness/system.sh, with
# the systemd unit that runs it at boot.
set -euo pipefail
# One compound command: bash reads it whole before running it, so the
# script may be edited while a long build goes on.
{
repo=$(cd "$(dirname "$0")/../.." && pwd)
debdir=$(realpath "$1") image=$(realpath -m "$2")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cd "$repo"
work=build/system
mkdir -p "$work"

# What the archive gives the system: the tools, and what the packages and
# the boot need (libtracefs1 for the tool, initramfs-tools for the kernel).
# Debian's own kernel too, to go back to.
archive="systemd-sysv udev dbus kmod initramfs-tools procps e2fsprogs
	trace-cmd linux-perf bpftrace libtracefs1 linux-image-amd64"
base=$work/base-$(echo "bookworm $mirror $archive" | sha1sum | cut -c1-12).tar
root=$work/root

mounted=()
unmount_all() {
	local m
	for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
	mounted=()
}
trap unmount_all EXIT
# Never remove a root with something mounted in it: a /dev bound there
# by a run that was killed would take the host's device nodes with it.
clear_root() {
	local m
	for m in proc sys dev; do umount -l "$root/$m" 2>/dev/null || true; done
	if grep -q " $(realpath -m "$root")/" /proc/mounts; then
		echo "mkimage: something is still mounted under $root" >&2
		exit 1
	fi
	rm -rf "$root"
}
chroot_mounts() {
	mount -t proc proc "$root/proc" && mounted+=("$root/proc")
	mount -t sysfs sys "$root/sys" && mounted+=("$root/sys")
	mount --bind /dev "$root/dev" && mounted+=("$root/dev")
}

if [ ! -f "$base" ]; then
	echo "mkimage: debootstrap bookworm from $mirror"
	clear_root
	debootstrap --variant=minbase bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
		{ tail -20 "$work/debootstrap.log" >&2; exit 1; }
	chroot_mounts
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q \
		--no-install-recommends $archive > "$work/apt.log" 2>&1 ||
		{ tail -20 "$work/apt.log" >&2; exit 1; }
	chroot "$root" apt-get clean
	unmount_all
	tar -C "$root" --numeric-owner -cf "$base.tmp" .
	mv "$base.tmp" "$base"
fi

clear_root
mkdir -p "$root"
tar -C "$root" --numeric-owner -xpf "$base"
chroot_mounts
cp "$debdir"/linux-image-*.deb "$debdir"/linux-headers-*.deb "$debdir"/ftrace-mux_*.deb "$root/tmp/"
# linux-image's postinst makes the initramfs (initramfs-tools)
chroot "$root" sh -c 'dpkg -i /tmp/linux-image-*.deb /tmp/linux-headers-*.deb /tmp/ftrace-mux_*.deb' \
	> "$work/dpkg.log" 2>&1 || { tail -30 "$work/dpkg.log" >&2; exit 1; }
rm -f "$root"/tmp/*.deb
unmount_all

echo ftrace-mux-system > "$root/etc/hostname"
echo '/dev/vda / ext4 defaults 0 1' > "$root/etc/fstab"
# The scenario, with the guest checks of make check it reuses
install -d "$root/opt/harness" "$root/var/lib/ftrace-mux-system"
install -m 0755 harness/system/test/system.sh harness/guest/together.sh \
	harness/guest/tracecmd.sh "$root/opt/harness/"
install -m 0644 harness/guest/lib.sh "$root/opt/harness/"
install -m 0644 harness/system/test/ftrace-mux-system.service "$root/etc/systemd/system/"
ln -sf /etc/systemd/system/ftrace-mux-system.service \
	"$root/etc/systemd/system/multi-user.target.wants/ftrace-mux-system.service"

# The packaged kernel, and Debian's
for k in mux stock; do
	if [ $k = mux ]; then pat='*-ftrace-mux'; else pat='*-amd64'; fi
	# shellcheck disable=SC2086
	vmlinuz=$(ls "$root"/boot/vmlinuz-$pat | head -1)
	initrd=$root/boot/initrd.img-${vmlinuz##*/vmlinuz-}
	[ -f "$initrd" ] || { echo "mkimage: no initramfs for $vmlinuz" >&2; exit 1; }
	cp "$vmlinuz" "$image.$k.vmlinuz"
	cp "$initrd" "$image.$k.initrd"
done

rm -f "$image"
truncate -s 4G "$image"
mkfs.ext4 -q -F -L root -d "$root" "$image"
echo "mkimage: $image, $(du -h "$image" | cut -f1) used; kernels: $(ls "$root"/boot/vmlinuz-* | sed 's,.*/vmlinuz-,,' | tr '\n' ' ')"
exit
}
