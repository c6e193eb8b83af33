#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devtree.sh init|export|checkpatch
#
#   init        build/dev: a git work tree whose first commit ("base") is the
#               pristine 6.12 tree, with patches/series applied by git am.
#               Edit upstream files there and commit, one logical change per
#               commit (git rebase -i to reshape).
#   export      rewrite patches/ and patches/series from base..HEAD of
#               build/dev (git format-patch); never hand-edit patch files.
#   checkpatch  scripts/checkpatch.pl on every patch and every new file.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/build/dev
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

series() { grep -v '^\s*\(#\|$\)' "$repo/patches/series" 2>/dev/null || true; }

case "${1:-}" in
init)
	if [ -d "$dev/.git" ]; then
		echo "devtree: $dev exists; remove it to start over" >&2
		exit 1
	fi
	mkdir -p "$dev"
	tar -xf "$tarball" -C "$dev" --strip-components=1
	cd "$dev"
	git init -q -b mux
	# Debian's tarball ignores everything at the top level (its packaging
	# keeps the tree elsewhere); track the whole tree regardless.
	git add -A -f
	git -c user.name=ftrace-mux -c user.email=ftrace-mux@localhost \
		commit -q -m "Linux 6.12 (Debian linux-source-6.12)"
	git tag base
	for p in $(series); do
		git -c user.name="ftrace-mux developers" -c user.email=ftrace-mux@localhost \
			am -q --keep-cr "$repo/patches/$p"
	done
	echo "devtree: $dev at $(git log --oneline -1)"
	;;
export)
	cd "$dev"
	tmp=$(mktemp -d)
	# A fixed abbreviation, so that exports do not churn with the object count
	git -c core.abbrev=9 format-patch -q --no-signature --zero-commit -o "$tmp" base..HEAD
	rm -f "$repo"/patches/*.patch
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Applied in order onto the pristine tree; written by make export-patches."
	} > "$repo/patches/series"
	for p in "$tmp"/*.patch; do
		[ -f "$p" ] || continue
		cp "$p" "$repo/patches/"
		basename "$p" >> "$repo/patches/series"
	done
	rm -rf "$tmp"
	echo "devtree: exported $(series | wc -l) patches"
	;;
checkpatch)
	src=$repo/build/pristine
	[ -x "$src/scripts/checkpatch.pl" ] || { echo "devtree: run make baseline first" >&2; exit 1; }
	rc=0
	for p in $(series); do
		# The tree is a release tarball without upstream's history, so
		# checkpatch cannot look up the commit ids a Fixes: tag names.
		"$src/scripts/checkpatch.pl" --no-tree -q --ignore UNKNOWN_COMMIT_ID \
			"$repo/patches/$p" || rc=1
	done
	cd "$repo"
	for f in $(git ls-files | grep -E '^(arch|include|kernel|lib|samples)/.*\.[chS]$'); do
		"$src/scripts/checkpatch.pl" --no-tree -q -f "$f" || rc=1
	done
	[ $rc = 0 ] && echo "checkpatch: clean"
	exit $rc
	;;
*)
	sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
