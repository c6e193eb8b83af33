# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# newfiles.sh, sourced: the repository's new files, the ones kept at their
# kernel-tree paths here (where they are edited) and added by the series in
# patches/ (which is the whole change, for git am).  prepare-src.sh links
# them into the tree it builds and applies each patch without them,
# results.sh compares series without them, and devtree.sh and
# series-check.sh check that a series adds exactly them.

newfiles_re='^(arch|Documentation|include|kernel|lib|samples|tools)/'

# newfiles [--tracked | COMMIT]: the new files of the work tree, tracked
# or not (what the build links), only the tracked ones, or those of
# COMMIT; one per line, sorted
newfiles() {
	case "${1:-}" in
	"")
		git -C "${repo:-.}" ls-files 2>/dev/null
		git -C "${repo:-.}" ls-files --others --exclude-standard 2>/dev/null ;;
	--tracked)
		git -C "${repo:-.}" ls-files ;;
	*)
		git -C "${repo:-.}" ls-tree -r --name-only "$1" ;;
	esac | grep -E "$newfiles_re" | sort -u
}

# without_newfiles LIST [PATCH]: PATCH (or stdin) without the sections of
# the files in LIST, one per line
without_newfiles() {
	awk -v list="$1" '
		BEGIN { n = split(list, f, "\n"); for (i = 1; i <= n; i++) skip["b/" f[i]] = 1 }
		/^diff --git / { drop = ($4 in skip) }
		!drop' "${2:--}"
}

# newfiles_verify TREE WHO: does HEAD of the git tree TREE (whose first
# commit is tagged "base") add exactly the repository's tracked new files,
# byte for byte and mode?  Prints each difference, prefixed "WHO: ".
newfiles_verify() {
	local tree=$1 who=$2 list f mode bad=0
	list=$(newfiles --tracked)
	while IFS= read -r f; do
		if ! git -C "$tree" cat-file -e "HEAD:$f" 2>/dev/null; then
			echo "$who: $f is in no patch"; bad=1; continue
		fi
		if [ "$(git -C "$tree" rev-parse "HEAD:$f")" != "$(git hash-object "${repo:-.}/$f")" ]; then
			echo "$who: $f differs from the series' copy (make devtree-sync)"; bad=1
		fi
		mode=100644
		[ -x "${repo:-.}/$f" ] && mode=100755
		if [ "$(git -C "$tree" ls-tree HEAD -- "$f" | cut -d' ' -f1)" != "$mode" ]; then
			echo "$who: $f has another mode in the series"; bad=1
		fi
	done <<< "$list"
	while IFS= read -r f; do
		grep -qxF "$f" <<< "$list" ||
			{ echo "$who: the series adds $f, which the repository does not have"; bad=1; }
	done < <(git -C "$tree" diff --name-only --diff-filter=A base HEAD)
	return $bad
}

# newfiles_series_check: does the series in patches/ reproduce every
# tracked new file, byte for byte and mode, and add no other?  Applies
# only the new files' sections of each patch (git apply --include) in an
# empty directory, so it needs no kernel tree: a second or two.  Prints
# "RESULT host/series/FILE PASS|FAIL" per file.
newfiles_series_check() {
	local tmp list f p mode inc=() bad=0
	tmp=$(mktemp -d)
	list=$(newfiles --tracked)
	while IFS= read -r f; do inc+=("--include=$f"); done <<< "$list"
	for p in $(grep -v '^\s*\(#\|$\)' "${repo:-.}/patches/series"); do
		if ! (cd "$tmp" && git apply "${inc[@]}" "${repo:-.}/patches/$p") 2> "$tmp.err"; then
			echo "RESULT host/series/apply FAIL"
			echo "---- $p: $(head -3 "$tmp.err")"
			rm -rf "$tmp" "$tmp.err"
			return 1
		fi
	done
	while IFS= read -r f; do
		mode=644
		[ -x "${repo:-.}/$f" ] && mode=755
		if [ -f "$tmp/$f" ] && cmp -s "$tmp/$f" "${repo:-.}/$f" &&
		   [ "$(stat -c %a "$tmp/$f")" = "$mode" ]; then
			echo "RESULT host/series/$f PASS"
		else
			echo "RESULT host/series/$f FAIL"
			bad=1
		fi
	done <<< "$list"
	# A file the series creates must be one of the repository's
	for p in $(grep -v '^\s*\(#\|$\)' "${repo:-.}/patches/series"); do
		awk '/^diff --git / { f = substr($4, 3) } /^new file mode / { print f }' \
			"${repo:-.}/patches/$p"
	done | grep -E "$newfiles_re" | while IFS= read -r f; do
		grep -qxF "$f" <<< "$list" ||
			echo "RESULT host/series/extra/$f FAIL"
	done
	rm -rf "$tmp" "$tmp.err"
	return $bad
}
