#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh SRCDIR MODROOT OUT.cpio.gz [OVERLAY]
#
# Busybox userland plus what the tests run: trace-cmd and perf with their
# libraries, trace-cmd's plugins, ftracetest from SRCDIR (so our own
# test.d cases come along in the patched tree), the kernel's modules from
# MODROOT and ftrace-mux's own tools.
# OVERLAY, a directory, is copied over the result (distro-extra.sh's).
set -euo pipefail
src=$(realpath "$1") modroot=$(realpath "$2") out=$3 overlay=${4:-}
repo=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib,lib64,proc,sys,dev,tmp,run,etc,root,opt}
mkdir -p "$stage"/sys/kernel/tracing "$stage"/sys/kernel/debug
cp /bin/busybox "$stage/bin/busybox"
for app in $("$stage/bin/busybox" --list-full); do
	[ -e "$stage/$app" ] || ln -s /bin/busybox "$stage/$app"
done

# Dynamically linked programs with every library ldd names.
copy_prog() {
	local prog=$1 lib
	install -D -m 0755 "$prog" "$stage/usr/bin/$(basename "$prog")"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		install -D -m 0755 "$lib" "$stage$lib"
	done
}
copy_prog "$(command -v trace-cmd)"
copy_prog "$(command -v jq)"
# Debian's perf 6.1, a tool that knows nothing of ftrace-mux (together.sh)
copy_prog "$(command -v perf)"
plugins=/usr/lib/x86_64-linux-gnu/traceevent/plugins
[ -d "$plugins" ] && mkdir -p "$stage$plugins" && cp -a "$plugins"/. "$stage$plugins"/
for tool in "$repo"/out/tools/*; do
	[ -x "$tool" ] && copy_prog "$tool"
done

cp -rL "$src/tools/testing/selftests/ftrace" "$stage/opt/ftrace"
# The guest's small C helpers, static.
for c in "$repo"/harness/guest/*.c; do
	gcc -static -O2 -Wall -Wextra -Werror -o "$stage/usr/local/bin/$(basename "$c" .c)" "$c"
done
cp -r "$repo/harness/guest" "$stage/opt/harness"
[ -d "$modroot/lib/modules" ] && cp -a "$modroot/lib/modules" "$stage/lib/"
[ -d "$modroot/usr/lib/debug" ] && mkdir -p "$stage/usr/lib" &&
	cp -a "$modroot/usr/lib/debug" "$stage/usr/lib/"

if [ -n "$overlay" ]; then cp -a "$overlay"/. "$stage"/; fi

printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"
install -m 0755 "$repo/harness/guest/init" "$stage/init"

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
