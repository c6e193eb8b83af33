#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-check.sh [--no-build | --from N [--to M]]: the series as a maintainer would
# take it.
#
#   1. git am of patches/series onto the pristine 6.12 tree (build/series,
#      a git tree whose first commit is the tarball), and each patch of
#      fixes/ alone onto that tree, as the stable team would take it;
#   2. the new files the series adds are exactly this repository's, and the
#      tree it leaves is the one make check builds and boots (build/src,
#      where the same series is applied with the new files linked in);
#   3. every prefix of the series builds (config/ftrace-mux.config and
#      config/mux.config on tinyconfig, bzImage and modules, in one object
#      directory through ccache, so each build recompiles what the patch
#      changed), saying which ftrace-mux options the prefix has, and boots
#      in QEMU with make check's initramfs to pass
#      harness/guest/prefix-smoke.sh (three tracers on one function
#      counted exactly, nothing left enabled, the prefix's KUnit suites
#      but their slow cases; the startup tests off); the tool builds from
#      tools/tracing at the last one; and each patch of fixes/ builds and
#      boots on the pristine tree alone.
#
# --no-build stops after 2.  --from N builds the prefixes from the N-th on
# only (those before built in an earlier run of the same patches); --to M
# stops after the M-th (the tool and the fixes alone are then not built).
# The last line is "series-check: prefixes F to N of M ... build and boot"
# or the first failure.
set -euo pipefail
# One compound command, so that the script may be edited while it runs
{
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
tree=$repo/build/series obj=$repo/build/obj-series
build=1 from=1 to=
[ "${1:-}" = --no-build ] && build=0
[ "${1:-}" = --from ] && from=${2:?--from N}
[ "${3:-}" = --to ] && to=${4:?--to M}

mapfile -t patches < <(grep -v '^\s*\(#\|$\)' patches/series)
g() { git -C "$tree" -c user.name="ftrace-mux developers" -c user.email=ftrace-mux@localhost "$@"; }

if [ ! -d "$tree/.git" ]; then
	echo "series-check: extracting the pristine tree into $tree"
	rm -rf "$tree"
	mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1
	g init -q -b pristine
	# Debian's tarball ignores everything at the top level; track it all.
	g add -A -f
	g commit -q -m "Linux 6.12 (Debian linux-source-6.12)"
	g tag base
fi

# 1. git am, from the base each time
g am --abort > /dev/null 2>&1 || true
g checkout -q -f -B series base
g clean -q -f -d -x
for p in "${patches[@]}"; do
	if ! g am -q --keep-cr --whitespace=error-all "$repo/patches/$p" 2>&1; then
		g am --abort > /dev/null 2>&1 || true
		echo "series-check: $p does not apply with git am"
		exit 1
	fi
done
echo "series-check: ${#patches[@]} patches apply with git am"
# Each fix alone on the pristine tree
mapfile -t fixes < <(printf '%s\n' "${patches[@]}" | grep '^fixes/' || true)
g checkout -q -f base
for p in "${fixes[@]}"; do
	g apply --check "$repo/patches/$p" ||
		{ echo "series-check: $p does not apply alone to the pristine tree"; exit 1; }
done
g checkout -q -f series
echo "series-check: each of the ${#fixes[@]} fixes applies alone to the pristine tree"

# 2. the repository's new files, and the tree make check builds
. harness/build/newfiles.sh
bad=0
newfiles_verify "$tree" series-check || bad=1
if [ -f build/src/.mux/applied/series ] &&
   cmp -s build/src/.mux/applied/series <(printf '%s\n' "${patches[@]}"); then
	# Upstream files the series edits: as in the tree make check builds
	for f in $(g diff --name-only --diff-filter=M base HEAD); do
		cmp -s "$tree/$f" "build/src/$f" ||
			{ echo "series-check: $f differs from build/src's"; bad=1; }
	done
else
	echo "series-check: build/src does not carry this series (make kernel first)"
	bad=1
fi
[ $bad = 0 ] || exit 1
echo "series-check: the series adds exactly the repository's $(newfiles --tracked | wc -l) new files" \
	"and leaves the tree make check builds"
[ $build = 1 ] || exit 0

# 3. every prefix builds
export CCACHE_BASEDIR=$repo/build
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=ftrace-mux KBUILD_BUILD_HOST=qemu
frags=("$repo/config/ftrace-mux.config" "$repo/config/mux.config")
mkdir -p "$obj"
mapfile -t commits < <(g rev-list --reverse base..series)
n=0
# boot WHAT: the kernel just built passes the smoke test, or exit naming WHAT
boot() {
	if ! "$repo/harness/test/vm" --kernel "$obj/arch/x86/boot/bzImage" \
		--append "trace_event= kunit.filter=speed>slow" \
		--console "$obj/boot.console" --timeout 300 \
		"$repo/harness/guest/prefix-smoke.sh" > "$obj/boot.out" 2>&1; then
		cat "$obj/boot.out"
		echo "series-check: $1 does not boot and pass the smoke test"
		exit 1
	fi
	kunit=$(sed -n 's/^prefix: \([0-9]*\) KUnit.*/\1/p' "$obj/boot.out")
}
# build WHAT: the checked-out tree, or exit naming WHAT
build() {
	t0=$SECONDS
	make -s -C "$tree" O="$obj" tinyconfig > /dev/null
	(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" > /dev/null)
	make -s -C "$tree" O="$obj" olddefconfig > /dev/null
	opts=$( (grep -o '^CONFIG_FTRACE_MUX[A-Z_]*=[ym0-9]*' "$obj/.config" || true) |
		sed 's/^CONFIG_//' | tr '\n' ' ')
	if ! make -C "$tree" O="$obj" CC="ccache gcc" -j"$(nproc)" -s bzImage modules > "$obj/build.log" 2>&1; then
		tail -20 "$obj/build.log"
		echo "series-check: $1 does not build"
		exit 1
	fi
	if grep -q 'warning:' "$obj/build.log"; then
		grep 'warning:' "$obj/build.log" | head -10
		echo "series-check: $1 builds with warnings"
		exit 1
	fi
}
for c in "${commits[@]}"; do
	n=$((n + 1))
	[ $n -ge "$from" ] || continue
	g checkout -q "$c"
	build "prefix $n ($(g log -1 --format=%s "$c"))"
	boot "prefix $n"
	echo "series-check: prefix $n builds and boots ($((SECONDS - t0)) s; ${opts:-no ftrace-mux options}; $kunit KUnit suites): $(g log -1 --format=%s "$c")"
	if [ -n "$to" ] && [ $n -ge "$to" ]; then
		g checkout -q -f series
		echo "series-check: prefixes $from to $n of ${#commits[@]} build and boot"
		exit
	fi
done
mkdir -p "$obj/tool"
make -s -C "$tree/tools/tracing" ftrace-mux O="$obj/tool" > "$obj/tool.log" 2>&1 ||
	{ tail -20 "$obj/tool.log"; echo "series-check: the tool does not build from tools/tracing"; exit 1; }
# Each fix alone (the first is prefix 1)
for p in "${fixes[@]:1}"; do
	g checkout -q -f base
	g apply "$repo/patches/$p"
	build "$p alone on the pristine tree"
	boot "$p alone on the pristine tree"
	echo "series-check: $p builds and boots alone on the pristine tree ($((SECONDS - t0)) s)"
	# (with the files it added)
	g checkout -q -f base
	g clean -q -f -d -x
done
g checkout -q -f series
echo "series-check: prefixes $from to $n of ${#commits[@]} and each of the ${#fixes[@]} fixes alone build and boot; the tool builds from tools/tracing"
exit
}
