#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh VARIANT: one kernel of harness/build/variants.sh's table (mux,
# baseline, debug, baseline-debug, cfi, distro, baseline-distro, cov).  The
# patched variants build build/src, the fixes variant build/fixes (the
# fixes series alone), the baselines the pristine build/pristine, with the
# variant's config fragments.
#
# Leaves bzImage, config, ftrace-ops.ko and initramfs.cpio.gz in the output
# directory.  Objects stay in build/obj-VARIANT and go through ccache, so a
# rebuild after editing one file recompiles only what depends on it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
variant=$1
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
cd "$repo"
. harness/build/variants.sh
variant_load "$variant" || { echo "build: unknown variant $variant" >&2; exit 2; }
out=$v_out obj=$v_obj frags=("${v_frags[@]}")
# kCFI needs clang (16 in Debian 12); LLVM=-16 names the tools for Kbuild.
if [ "$v_cc" = clang-16 ]; then export LLVM=-16; fi
mkdir -p build "$out"
# The commit this build is of, for check.sh's rows (harness/test/results.sh)
. harness/test/results.sh
results_commit > "$out/commit.building"

if [ "$v_tree" = pristine ]; then
	src=build/pristine
	harness/build/prepare-src.sh "$tarball" "$src"
elif [ "$v_tree" = fixes ]; then
	src=build/fixes
	harness/build/prepare-src.sh "$tarball" "$src" fixes
else
	src=build/src
	harness/build/prepare-src.sh "$tarball" "$src" patched
fi

# Reconfigure only when a fragment changed, so .config keeps its mtime.
stamp=$(cat "${frags[@]}" | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.mux-config" 2>/dev/null)" != "$stamp" ]; then
	harness/build/mkconfig.sh "$src" "$obj" "${frags[@]}"
	echo "$stamp" > "$obj/.mux-config"
fi

export CCACHE_BASEDIR=$repo/build
export KBUILD_BUILD_TIMESTAMP="2026-01-01"
export KBUILD_BUILD_USER=ftrace-mux KBUILD_BUILD_HOST=qemu
jobs=$(nproc)
make -C "$src" O="$(realpath "$obj")" CC="ccache $v_cc" -j"$jobs" -s "${v_make[@]}" \
	bzImage modules
rm -rf "$obj/modroot"
# Without depmod, modules_install only warns and the guest's modprobe
# finds nothing: every module test would fail far from the cause.
command -v depmod > /dev/null || { echo "build: depmod missing (install kmod)" >&2; exit 1; }
make -C "$src" O="$(realpath "$obj")" -s INSTALL_MOD_PATH="$(realpath "$obj")/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >/dev/null
# The harness's own module (harness/module), built outside the source
# tree so that no object lands in the repository; modules_install runs
# depmod again with it.
rm -rf "$obj/mux-harness"
cp -r harness/module "$obj/mux-harness"
make -C "$src" O="$(realpath "$obj")" CC="ccache $v_cc" M="$(realpath "$obj")/mux-harness" -s modules
make -C "$src" O="$(realpath "$obj")" M="$(realpath "$obj")/mux-harness" -s \
	INSTALL_MOD_PATH="$(realpath "$obj")/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
ls "$obj"/modroot/lib/modules/*/modules.dep > /dev/null 2>&1 ||
	{ echo "build: modules_install left no modules.dep" >&2; exit 1; }
# The detour test module keeps its debug info where Debian's -dbg
# packages put a module's, for the tool's "detour inline" (mux-sites.c).
if [ -f "$obj/kernel/trace/ftrace_mux_detour_test.ko" ]; then
	rel=$(cat "$obj/include/config/kernel.release")
	mkdir -p "$obj/modroot/usr/lib/debug/lib/modules/$rel/kernel/trace"
	cp "$obj/kernel/trace/ftrace_mux_detour_test.ko" \
		"$obj/modroot/usr/lib/debug/lib/modules/$rel/kernel/trace/"
fi

cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
cp "$obj/.config" "$out/config"
cp "$obj/vmlinux" "$out/vmlinux"
cp "$obj/samples/ftrace/ftrace-ops.ko" "$out/ftrace-ops.ko"
# The command-line tool, for every variant's VM (the baseline's too: it
# must tell a stock kernel apart).  From the repository, built on the host.
make -s -C tools/tracing/ftrace-mux O="$repo/build/tool" \
	TOOLS_INCLUDE="$repo/$src/tools/include" all man
mkdir -p out/tools
cp build/tool/ftrace-mux out/tools/ftrace-mux
extra=()
if [ "$v_extra" = 1 ]; then
	harness/build/distro-extra.sh "$src" "$obj" "$obj/extra"
	extra=("$obj/extra")
fi
harness/build/mkinitramfs.sh "$src" "$obj/modroot" "$out/initramfs.cpio.gz" "${extra[@]}"
mv "$out/commit.building" "$out/commit"
echo "build: $variant kernel in $out/"
