#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install (apt-get) whatever of the build and test dependencies
# this Debian 12 machine lacks.  Quiet and quick when nothing is missing.
set -euo pipefail
pkgs=(linux-source-6.12 qemu-system-x86 busybox-static trace-cmd
      libtracefs-dev libtraceevent-dev pkg-config gcc make flex bison bc
      libelf-dev libssl-dev cpio xz-utils dwarves ccache python3 gnuplot-nox
      patch git jq libcmocka-dev python3-docutils)
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
