#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# devtree.sh init|sync|export|verify|checkpatch
#
# The series in patches/ is the whole change: the edits to upstream files
# and the new files, which also live in this repository at their kernel
# paths (where they are edited; the build links them into the tree).
#
#   init        build/dev: a git work tree whose first commit ("base") is the
#               pristine 6.12 tree, with patches/series applied by git am.
#               Edit upstream files there and commit, one logical change per
#               commit (git rebase -i to reshape).
#   sync        copy the repository's new files into build/dev, each one
#               that changed as a fixup of the last commit that touches it,
#               and squash those fixups (git rebase --autosquash).
#   export      rewrite patches/ and patches/series from base..HEAD of
#               build/dev (git format-patch), as four series: fixes/ up
#               to the patch before "$core_from", core/ up to the one
#               before "$detours_from", detours/ up to the one before
#               "$bpf_from", then bpf/; never hand-edit
#               patch files.
#               Refuses while build/dev and the new files differ.
#   verify      the new files build/dev's HEAD adds are exactly the
#               repository's, byte for byte and mode.
#   checkpatch  scripts/checkpatch.pl on every patch and every new file.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
dev=$repo/build/dev
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

series() { grep -v '^\s*\(#\|$\)' "$repo/patches/series" 2>/dev/null || true; }

. "$repo/harness/build/newfiles.sh"

# verify: the new files of build/dev's HEAD are the repository's
verify() {
	newfiles_verify "$dev" devtree
}

# The first series, fixes of upstream bugs that stand alone, ends before
# the second, the core, which starts at this patch.
core_from="tracing: Let tracing_log_err() take a const array of error strings"
# The third series, detours, starts at this patch.
detours_from="kprobes: Let an optimized kprobe call a direct function"
# The fourth, BPF programs as callers of ftrace-mux, starts at this one.
bpf_from="fgraph: Pass ftrace_regs to the users' entry functions"

# export_series NAME FROM TO COVER: FROM..TO of build/dev into
# patches/NAME/, with COVER's subject (its first line) and text in the
# cover letter, git adding the shortlog and diffstat; listed in
# patches/series.
export_series() {
	local name=$1 from=$2 to=$3 cover=$4 out=$tmp/$1 p
	mkdir -p "$out" "$repo/patches/$name"
	# A fixed abbreviation, so that exports do not churn with the object count
	git -c core.abbrev=9 format-patch -q --no-signature --zero-commit \
		--cover-letter -o "$out" "$from..$to"
	# Dated as the series' last patch, so that an export changes it only
	# when the series changes
	awk -v cover="$cover" -v date="$(git log -1 --format=%aD "$to")" '
		BEGIN {
			getline title < cover
			# An SPDX line first, then the subject
			if (title ~ /SPDX-License-Identifier/)
				getline title < cover
			while ((getline line < cover) > 0) blurb = blurb line "\n"
			sub(/^\n+/, "", blurb); sub(/\n+$/, "", blurb)
		}
		/^Date: / && !dated { print "Date: " date; dated = 1; next }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, title) }
		/^\*\*\* BLURB HERE \*\*\*$/ { print blurb; next }
		{ print }' "$out/0000-cover-letter.patch" > "$out/cover" &&
		mv "$out/cover" "$out/0000-cover-letter.patch"
	for p in "$out"/*.patch; do
		cp "$p" "$repo/patches/$name/"
		case "$p" in */0000-cover-letter.patch) continue ;; esac
		echo "$name/$(basename "$p")" >> "$repo/patches/series"
	done
}

# first_of SUBJECT: the commit of base..HEAD with that subject, which
# starts a series
first_of() {
	local c
	c=$(git log --reverse --format='%H%x09%s' base..HEAD |
		awk -F'\t' -v s="$1" '$2 == s { print $1; exit }')
	[ -n "$c" ] || { echo "devtree: no patch \"$1\" starts a series" >&2; exit 1; }
	echo "$c"
}

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
	git config user.name "ftrace-mux developers"
	git config user.email ftrace-mux@localhost
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
sync)
	cd "$dev"
	[ -z "$(git status --porcelain --untracked-files=no)" ] ||
		{ echo "devtree: $dev has uncommitted changes" >&2; exit 1; }
	n=0
	while IFS= read -r f; do
		if [ -e "$f" ] && cmp -s "$repo/$f" "$f" &&
		   [ "$(test -x "$repo/$f" && echo x)" = "$(test -x "$f" && echo x)" ]; then
			continue
		fi
		last=$(git log -1 --format=%H -- "$f")
		if [ -z "$last" ]; then
			echo "devtree: $f is in no patch yet: add it to one by hand" >&2
			continue
		fi
		mkdir -p "$(dirname "$f")"
		cp -p "$repo/$f" "$f"
		git add -f "$f"
		git -c user.name="ftrace-mux developers" -c user.email=ftrace-mux@localhost \
			commit -q --no-verify --fixup="$last" -- "$f"
		echo "devtree: $f into $(git log -1 --format=%s "$last")"
		n=$((n + 1))
	done < <(newfiles --tracked)
	if [ $n != 0 ]; then
		GIT_SEQUENCE_EDITOR=: git -c user.name="ftrace-mux developers" \
			-c user.email=ftrace-mux@localhost rebase -q -i --autosquash base
	fi
	verify
	;;
verify)
	verify && echo "devtree: the series adds exactly the repository's new files"
	;;
export)
	verify >&2 || { echo "devtree: not exporting" >&2; exit 1; }
	cd "$dev"
	core=$(first_of "$core_from")
	detours=$(first_of "$detours_from")
	bpf=$(first_of "$bpf_from")
	tmp=$(mktemp -d)
	rm -f "$repo"/patches/*.patch "$repo"/patches/*/*.patch
	{
		echo "# SPDX-License-Identifier: GPL-2.0"
		echo "# Applied in order onto the pristine tree; written by make export-patches."
		echo "# Four series: fixes/ (upstream bugs, each standing alone), core/"
		echo "# (multiplexing, function_graph's users as members) on top of"
		echo "# them, then detours/, then bpf/; each 0000-cover-letter.patch is"
		echo "# its series' cover letter, not applied."
	} > "$repo/patches/series"
	export_series fixes base "$core~1" "$repo/docs/cover-letter-fixes.txt"
	export_series core "$core~1" "$detours~1" "$repo/docs/cover-letter.txt"
	export_series detours "$detours~1" "$bpf~1" "$repo/docs/cover-letter-detours.txt"
	export_series bpf "$bpf~1" HEAD "$repo/docs/cover-letter-bpf.txt"
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
		# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for
		# an added file: answered below, file by file.  MISSING_FIXES_TAG
		# asks for a Fixes: tag beside Cc: stable; a fix without one says
		# in its message why (the commit could not be looked up here).
		"$src/scripts/checkpatch.pl" --no-tree -q \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES,MISSING_FIXES_TAG "$repo/patches/$p" || rc=1
	done
	# Every new file has a MAINTAINERS section of its own, not only THE
	# REST, in the patched tree.
	tree=$repo/build/src
	[ -f "$tree/.mux/applied/series" ] || { echo "devtree: run make kernel first" >&2; exit 1; }
	for f in $(newfiles --tracked); do
		(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --sections -f "$f") 2>/dev/null |
			grep -v '^THE REST$' | grep -q '^[A-Z].*[A-Z)]$' ||
			{ echo "devtree: $f has no MAINTAINERS section but THE REST"; rc=1; }
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
