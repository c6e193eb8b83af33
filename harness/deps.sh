#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install (apt-get) whatever of the build and test dependencies
# this Debian 12 machine lacks.  Quiet and quick when nothing is missing.
#
# deps.sh --check [distro]: one RESULT line per host command the harness
# runs (for make check-distro's extras), PASS if it is on PATH.  Every command below must come from a package in
# pkgs (or from Debian 12's essential set), so that a fresh machine has it
# after the install: kmod's depmod was once missing and only warned.
set -euo pipefail
pkgs=(linux-source-6.12 qemu-system-x86 busybox-static trace-cmd
      libtracefs-dev libtraceevent-dev pkg-config gcc make flex bison bc
      libelf-dev libssl-dev cpio xz-utils dwarves ccache python3 gnuplot-nox
      patch git jq libcmocka-dev python3-docutils kmod linux-perf libdw-dev)
# The host commands of harness/, the Makefiles and the tool's build.
cmds=(qemu-system-x86_64 busybox trace-cmd pkg-config gcc make flex bison bc
      cpio xz gzip tar pahole ccache python3 gnuplot patch git jq rst2man
      depmod ldd awk sed grep sha1sum timeout cmp realpath perl perf gcov base64)

# deps.sh cfi: also clang 16, for the kCFI kernel (make kernel-cfi).
[ "${1:-}" = cfi ] && pkgs+=(clang-16 lld-16 llvm-16)
# deps.sh distro: the BPF loader (clang's BPF target, bpftool, static
# libbpf and its libraries) and what the livepatch selftests run in the
# guest (distro-extra.sh); upstream's BPF selftests (bpf-selftests.sh:
# clang 16, which they need, and rsync, which their Makefile calls).
distro_pkgs=(clang llvm libbpf-dev bpftool zlib1g-dev libzstd-dev procps diffutils
	     clang-16 llvm-16 rsync)
distro_cmds=(clang bpftool bash kmod date stat diff sysctl getconf
	     clang-16 llc-16 llvm-strip-16 rsync)
# deps.sh deb: the packages (make deb: bindeb-pkg's build dependencies,
# Debian's configuration, lintian) and the Debian system they are tried on
# (make check-system: debootstrap, mkfs.ext4 -d, chroot).
deb_pkgs=(linux-config-6.12 dpkg-dev debhelper rsync fakeroot lintian binutils
	  debootstrap e2fsprogs coreutils mount)
deb_cmds=(dpkg-buildpackage dpkg-deb dpkg-shlibdeps rsync fakeroot lintian strip
	  debootstrap mkfs.ext4 chroot mount umount truncate md5sum qemu-system-x86_64)
if [ "${1:-}" = distro ]; then
	pkgs+=("${distro_pkgs[@]}")
elif [ "${1:-}" = deb ]; then
	pkgs+=("${deb_pkgs[@]}")
elif [ "${1:-}" = --check ] && [ "${2:-}" = distro ]; then
	cmds=("${distro_cmds[@]}")
elif [ "${1:-}" = --check ] && [ "${2:-}" = deb ]; then
	cmds=("${deb_cmds[@]}")
fi

if [ "${1:-}" = --check ]; then
	for c in "${cmds[@]}"; do
		if command -v "$c" > /dev/null; then
			echo "RESULT host/command/$c PASS"
		else
			echo "RESULT host/command/$c FAIL"
		fi
	done
	exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
