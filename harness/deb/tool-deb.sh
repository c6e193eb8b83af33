#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tool-deb.sh DIR: the ftrace-mux tool as a Debian package in DIR, built
# from tools/tracing/ftrace-mux against the host's libtracefs, with its
# manual page.  Its dependencies come from dpkg-shlibdeps, its version
# from the repository's last commit.  lintian is run on the result when
# it is installed; the tags it still gives are explained in
# docs/packages.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "$1")
cd "$repo"
work=build/tool-deb
src=build/deb-src
[ -d "$src/tools/include" ] || src=build/src
rm -rf "$work"
mkdir -p "$work/obj" "$work/root" "$out"

# Debian's hardening flags, through the environment: the Makefile adds
# its own to CFLAGS.
CFLAGS="-O2 -g -fstack-protector-strong -D_FORTIFY_SOURCE=2" \
LDFLAGS="-Wl,-z,relro -Wl,-z,now" \
	make -s -C tools/tracing/ftrace-mux O="$repo/$work/obj" \
	TOOLS_INCLUDE="$repo/$src/tools/include" all man
root=$work/root
install -D -m 0755 "$work/obj/ftrace-mux" "$root/usr/bin/ftrace-mux"
# As dh_strip does
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
	"$root/usr/bin/ftrace-mux"
install -d "$root/usr/share/man/man8" "$root/usr/share/doc/ftrace-mux"
gzip -9n < "$work/obj/ftrace-mux.8" > "$root/usr/share/man/man8/ftrace-mux.8.gz"

date=$(git log -1 --format=%cD)
version="1.0~git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git log -1 --format=%h)"
cat > "$root/usr/share/doc/ftrace-mux/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ftrace-mux
Comment: The tool of ftrace-mux, built from tools/tracing/ftrace-mux.

Files: *
Copyright: 2026 ftrace-mux developers
License: GPL-2
 This program is free software; you can redistribute it and/or modify
 it under the terms of the GNU General Public License version 2 as
 published by the Free Software Foundation.
 .
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in the file '/usr/share/common-licenses/GPL-2'.
EOT
{
	echo "ftrace-mux ($version) unstable; urgency=medium"
	echo
	echo "  * Built from commit $(git log -1 --format=%H)."
	echo
	echo " -- ftrace-mux developers <ftrace-mux@localhost>  $date"
} | gzip -9n > "$root/usr/share/doc/ftrace-mux/changelog.gz"

# dpkg-shlibdeps wants a source package's control file to read.
mkdir -p "$work/debian"
printf 'Source: ftrace-mux\n\nPackage: ftrace-mux\nArchitecture: any\n' \
	> "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "root/usr/bin/ftrace-mux" 2>/dev/null |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "tool-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOT
Package: ftrace-mux
Version: $version
Architecture: $(dpkg --print-architecture)
Maintainer: ftrace-mux developers <ftrace-mux@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: utils
Priority: optional
Description: inspect and steer ftrace-mux's multiplexed function tracers
 ftrace-mux lists the function tracers of a kernel with ftrace-mux (the
 function tracer, the profiler, function_graph's users, BPF and
 livepatch's ftrace_ops), shows which tracers each traced function has
 and how its call site is served, and edits one tracer's filter by name.
 .
 It needs a kernel built with CONFIG_FTRACE_MUX; on any other kernel it
 says so and exits with status 2.
EOT
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) > "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
deb=$out/ftrace-mux_${version}_$(dpkg --print-architecture).deb
rm -f "$out"/ftrace-mux_*.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "tool-deb: $deb"
if command -v lintian > /dev/null; then
	lintian --tag-display-limit 0 -I "$deb" 2>&1 | grep -v "root privileges" || true
fi
