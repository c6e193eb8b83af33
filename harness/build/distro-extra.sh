#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-extra.sh SRCDIR OBJDIR DEST
#
# What the distro variants' guests run beyond the common initramfs, built
# for the kernel in OBJDIR and laid out under DEST as a root to overlay:
#
#   usr/local/bin/mux-bpf   the BPF loader (libbpf, static); its programs
#                           are compiled against this kernel's BTF
#   usr/local/bin/mux-bpf-many  many fentry, fexit and fmod_ret links on one
#                           function (libbpf)
#   usr/local/bin/mux-ifconf    SIOCGIFCONF ioctls (distro-inline.sh)
#   opt/klp/mux_klp_getcpu.ko  a livepatch of getcpu(2) (distro-bpf-many.sh)
#   opt/livepatch/          upstream's livepatch selftests, their test
#                           modules built against OBJDIR
#   opt/bpf-selftests/      upstream's BPF selftests of trampolines (test_progs,
#                           harness/build/bpf-selftests.sh) with bpf_testmod
#                           built against OBJDIR
#   boot/config-RELEASE     the kernel's configuration (libbpf's __kconfig)
#   opt/gnu/bin/            bash, kmod and the GNU tools those selftests
#                           call with options busybox lacks
set -euo pipefail
src=$(realpath "$1") obj=$(realpath "$2") dest=$3
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest"/usr/local/bin "$dest"/opt/gnu/bin
dest=$(realpath "$dest")
work=$obj/distro-extra
rm -rf "$work"
mkdir -p "$work"

# The BPF loader: vmlinux.h from this kernel's BTF, the object from clang,
# the skeleton from bpftool, statically linked against Debian's libbpf.
bpftool btf dump file "$obj/vmlinux" format c > "$work/vmlinux.h"
clang -O2 -g -Wall -Werror -target bpf -D__TARGET_ARCH_x86 -I "$work" \
	-c "$repo/harness/guest/bpf/mux_count.bpf.c" -o "$work/mux_count.bpf.o"
bpftool gen skeleton "$work/mux_count.bpf.o" name mux_count > "$work/mux_count.skel.h"
gcc -static -O2 -Wall -Wextra -Werror -I "$work" -o "$dest/usr/local/bin/mux-bpf" \
	"$repo/harness/guest/bpf/mux-bpf.c" -lbpf -lelf -lz -lzstd
gcc -static -O2 -Wall -Wextra -Werror -o "$dest/usr/local/bin/mux-bpf-many" \
	"$repo/harness/guest/bpf/mux-bpf-many.c" -lbpf -lelf -lz -lzstd
gcc -static -O2 -Wall -Wextra -Werror -o "$dest/usr/local/bin/mux-ifconf" \
	"$repo/harness/guest/mux-ifconf.c"

# Upstream's livepatch selftests with their modules, built out of tree.
klp=$src/tools/testing/selftests/livepatch
cp -r "$klp" "$dest/opt/livepatch"
make -s -C "$src" O="$obj" M="$dest/opt/livepatch/test_modules" modules
find "$dest/opt/livepatch/test_modules" -type f ! -name '*.ko' -delete
gcc -static -O2 -o "$dest/opt/livepatch/test_klp-call_getpid" "$klp/test_klp-call_getpid.c"

# A livepatch of getcpu(2) of ours (distro-bpf-many.sh), built the same way.
mkdir -p "$dest/opt/klp"
cp "$repo/harness/guest/klp/Kbuild" "$repo/harness/guest/klp/mux_klp_getcpu.c" "$dest/opt/klp/"
make -s -C "$src" O="$obj" M="$dest/opt/klp" modules
find "$dest/opt/klp" -type f ! -name '*.ko' -delete

# Upstream's BPF selftests of trampolines, from SRCDIR's tools/.
"$repo/harness/build/bpf-selftests.sh" "$src" "$obj" "$obj/bpf-selftests"
mkdir -p "$dest/opt/bpf-selftests" "$dest/boot"
# libbpf reads the kernel's configuration where Debian installs it
cp "$obj/.config" "$dest/boot/config-$(cat "$obj/include/config/kernel.release")"
cp "$obj"/bpf-selftests/*.* "$obj/bpf-selftests/test_progs" "$dest/opt/bpf-selftests/"

# Host programs with the libraries ldd names.
for prog in bash kmod date stat diff sysctl getconf \
	    "$dest/opt/bpf-selftests/test_progs"; do
	path=$(command -v "$prog")
	[ "$prog" = "${prog#/}" ] && install -m 0755 "$path" "$dest/opt/gnu/bin/$prog"
	for lib in $(ldd "$path" | grep -o '/[^ ]*'); do
		install -D -m 0755 "$lib" "$dest$lib"
	done
done
for tool in insmod rmmod modinfo modprobe lsmod; do
	ln -s kmod "$dest/opt/gnu/bin/$tool"
done
