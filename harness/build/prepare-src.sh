#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prepare-src.sh TARBALL DIR [patched|fixes]
#
# Make DIR the 6.12 tree: extracted once from TARBALL, then (with "patched")
# carrying patches/series and symlinks to this repository's new files, or
# (with "fixes") carrying the fixes series alone, as the patches have it.  The
# series adds those files too (it is the whole change, for git am); here
# each patch is applied without them and the symlinks stand in, so that an
# edit of a new file needs no export to reach the build.  devtree.sh verify
# checks that the series' copies are the repository's.
#
# Rebuilds must stay incremental, so nothing is re-extracted when the series
# changes: the patches applied last time are kept in DIR/.mux/applied, and
# only the tail of the series from the first patch that differs is reverted
# and re-applied.  Files those patches do not touch keep their mtimes.
set -euo pipefail
tarball=$1 dir=$(realpath -m "$2") mode=${3:-pristine}
repo=$(cd "$(dirname "$0")/../.." && pwd)

extract() {
	rm -rf "$dir"
	mkdir -p "$dir/.mux/applied"
	tar -xf "$tarball" -C "$dir" --strip-components=1
	: > "$dir/.mux/links"
}

[ -f "$dir/.mux/links" ] || extract
case "$mode" in patched|fixes) ;; *) exit 0 ;; esac

cd "$dir"
mapfile -t want < <(grep -v '^\s*\(#\|$\)' "$repo/patches/series" 2>/dev/null |
	if [ "$mode" = fixes ]; then grep '^fixes/'; else cat; fi || true)
mapfile -t have < <(cat .mux/applied/series 2>/dev/null || true)

# The repository's new files, which the series adds too: they come in as
# symlinks (below), so each patch is applied without them.
. "$repo/harness/build/newfiles.sh"
newfiles=$(newfiles)
# The fixes tree takes the files its patches add from the patches
[ "$mode" = fixes ] && newfiles=""

# Length of the common prefix of the two series, as applied.
keep=0
while [ $keep -lt ${#want[@]} ] && [ $keep -lt ${#have[@]} ] &&
      [ "${want[$keep]}" = "${have[$keep]}" ] &&
      cmp -s <(without_newfiles "$newfiles" "$repo/patches/${want[$keep]}") ".mux/applied/${have[$keep]}"; do
	keep=$((keep + 1))
done

for ((i = ${#have[@]} - 1; i >= keep; i--)); do
	a=.mux/applied/${have[$i]}
	# Tried first, so that a patch that does not revert leaves no half
	if [ ! -f "$a" ] ||
	   { grep -q '^diff --git ' "$a" &&
	     ! { patch -R -p1 -s -f --dry-run < "$a" >/dev/null &&
		 patch -R -p1 -s -f --no-backup-if-mismatch < "$a" >/dev/null; }; }; then
		echo "prepare-src: cannot revert ${have[$i]}; re-extracting $dir" >&2
		extract
		exec "$repo/harness/build/prepare-src.sh" "$@"
	fi
	rm -f "$a"
done
printf '%s\n' "${have[@]:0:$keep}" | grep -v '^$' > .mux/applied/series || true

for ((i = keep; i < ${#want[@]}; i++)); do
	p=${want[$i]}
	mkdir -p "$(dirname ".mux/applied/$p")"
	without_newfiles "$newfiles" "$repo/patches/$p" > ".mux/applied/$p"
	# A patch of new files only leaves nothing to apply
	if grep -q '^diff --git ' ".mux/applied/$p" &&
	   ! patch -p1 -s -f --no-backup-if-mismatch < ".mux/applied/$p"; then
		echo "prepare-src: patch $p does not apply" >&2
		rm -f ".mux/applied/$p"
		exit 1
	fi
	echo "$p" >> .mux/applied/series
done

# Symlink the repository's new files into the tree.  Symlinks (not copies)
# keep edits in the repository visible to make without another prepare run.
while IFS= read -r f; do
	[ -n "$f" ] || continue
	grep -qxF "$f" <<<"$newfiles" && continue
	[ -L "$f" ] && rm -f "$f"
done < .mux/links
while IFS= read -r f; do
	[ -n "$f" ] || continue
	[ -f "$repo/$f" ] || continue
	if [ -e "$f" ] && [ ! -L "$f" ]; then
		echo "prepare-src: $f exists upstream; change it with a patch, not a new file" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$f")"
	[ "$(readlink "$f" 2>/dev/null)" = "$repo/$f" ] || ln -sfn "$repo/$f" "$f"
done <<<"$newfiles"
printf '%s\n' "$newfiles" > .mux/links
