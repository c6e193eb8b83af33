#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh: Debian packages of the patched kernel (make deb).
#
#   CONFIG=FILE      the configuration to package (plain or .xz); by
#                    default this machine's /boot/config-$(uname -r), else
#                    Debian's amd64 one from the linux-config-6.12 package
#   LOCALMODCONFIG=1 build only the modules loaded here (lsmod), or those
#                    LSMOD=FILE lists (lsmod's format)
#   LOCALVERSION=S   the release suffix (default -ftrace-mux)
#   DEB_OUT=DIR      where the .deb files go (default out/deb)
#
# config/deb.config is merged onto the configuration and must hold after
# olddefconfig, or nothing is built: a kernel that silently lost
# ftrace-mux would install and boot as if nothing were wrong.  The kernel
# packages come from the kernel's own bindeb-pkg (linux-image and
# linux-headers; no -dbg package); the tool's from harness/deb/tool-deb.sh.
#
# deb.sh --config-only: stop after the configuration is made and checked.
set -euo pipefail
# One compound command: bash reads it whole before running it, so the
# script may be edited while a long build goes on.
{
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
debian_config=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
src=build/deb-src obj=${DEB_OBJ:-build/obj-deb}
out=${DEB_OUT:-out/deb}
localversion=${LOCALVERSION--ftrace-mux}
# Kbuild would append LOCALVERSION from the environment to the release a
# second time: it goes into CONFIG_LOCALVERSION only.
unset LOCALVERSION

die() { echo "deb: $*" >&2; exit 2; }

config=${CONFIG:-}
if [ -z "$config" ]; then
	if [ -f "/boot/config-$(uname -r)" ]; then
		config=/boot/config-$(uname -r)
	else
		config=$debian_config
	fi
fi
[ -f "$config" ] || die "no configuration $config (CONFIG=FILE names one)"
echo "deb: configuration $config"

harness/build/prepare-src.sh "$tarball" build/src patched
mkdir -p "$obj"

case "$config" in
*.xz)	xz -dc "$config" > "$obj/.config" ;;
*)	cp "$config" "$obj/.config" ;;
esac
# ftrace-mux is x86-64 only: no merge may turn another architecture's
# configuration into one.
grep -qx 'CONFIG_X86_64=y' "$obj/.config" ||
	die "$config: CONFIG_X86_64 is not set; ftrace-mux needs an x86-64 kernel"
# A distribution's configuration names its own signing certificates,
# which a local build does not have.
build/src/scripts/config --file "$obj/.config" \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str LOCALVERSION "$localversion" --disable LOCALVERSION_AUTO
(cd "$obj" && "$repo/build/src/scripts/kconfig/merge_config.sh" -m -O . .config \
	"$repo/config/deb.config" > /dev/null)
make -s -C build/src O="$repo/$obj" olddefconfig > /dev/null

if [ "${LOCALMODCONFIG:-0}" = 1 ]; then
	lsmod_file=${LSMOD:-}
	if [ -z "$lsmod_file" ]; then
		lsmod_file=$obj/lsmod
		lsmod > "$lsmod_file" 2>/dev/null || true
		[ "$(wc -l < "$lsmod_file")" -gt 1 ] ||
			die "LOCALMODCONFIG=1: no module is loaded here; LSMOD=FILE names the modules to keep"
	fi
	make -s -C build/src O="$repo/$obj" LSMOD="$(realpath "$lsmod_file")" \
		localmodconfig < /dev/null > /dev/null 2>&1 ||
		die "localmodconfig failed"
fi

bad=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	grep -qxF "$line" "$obj/.config" && continue
	opt=${line%%=*}
	echo "deb: $opt: wanted ${line#*=}, the configuration has" \
		"$(grep -E "^(# )?$opt[ =]" "$obj/.config" || echo 'nothing') (its dependencies are not met)" >&2
	bad=1
done < config/deb.config
[ $bad = 0 ] || die "$config cannot carry ftrace-mux; nothing was built"
echo "deb: $(grep -c '=y' "$obj/.config") options built in, $(grep -c '=m' "$obj/.config") modules"
[ "${1:-}" = --config-only ] && exit 0

# The patched tree, as a copy without the symlinks build/src has for the
# repository's new files: the headers package copies regular files only.
# (tar keeps the mtimes, so a rebuild stays incremental.)
mkdir -p "$src"
tar -C build/src -ch --exclude=./.mux . | tar -C "$src" -x
# The configuration was made against build/src: the same tree.
make -s -C "$src" O="$repo/$obj" olddefconfig > /dev/null

export CCACHE_BASEDIR=$repo/build
export KBUILD_BUILD_USER=ftrace-mux KBUILD_BUILD_HOST=ftrace-mux
start=$(date +%s)
# bindeb-pkg writes the packages next to the object directory.
up=$(dirname "$obj")
rm -f "$up"/*.deb "$up"/*.buildinfo "$up"/*.changes
DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg \
	make -C "$src" O="$repo/$obj" CC="ccache gcc" -j"$(nproc)" -s bindeb-pkg
mkdir -p "$out"
rm -f "$out"/linux-*.deb
mv "$up"/linux-image-*.deb "$up"/linux-headers-*.deb "$out"/
rm -f "$up"/*.deb "$up"/*.buildinfo "$up"/*.changes
echo "deb: kernel packages in $(($(date +%s) - start)) s"
harness/deb/tool-deb.sh "$out"
ls -l "$out"
exit
}
