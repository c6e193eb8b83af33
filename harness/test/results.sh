#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# results.sh: the results file, out/results.tsv, one row per part run by
# check.sh (and the bench):
#
#   commit  variant  part  passed  failed  seconds  reports  date
#
# "reports" is 1 when the part's VM showed a kernel report (Oops, BUG,
# WARNING, lockdep, KASAN), "commit" is the HEAD the kernel was built
# from, with "-dirty" when the work tree differed from it in other than
# inert files (below).  The rule for assembling a whole-suite verdict from
# parts run at different times: a part's row counts for a commit if it ran
# with a clean tree on that commit, or on an ancestor from which the diff
# touches only files no test part builds or runs (results_inert: prose,
# licences, the cover letter, the benchmark, the patch workflow's
# scripts) and patches/ where the
# upstream files the series leaves stay the same; the latest such row
# counts, and the verdict names the commits its rows come from.
#
# Sourced by check.sh for the functions; run as a command (make results):
#
#   results.sh [VARIANT...]   the rows of HEAD and, per variant, the
#                             verdict assembled from them and what is missing
#   results.sh --all          every row
#   results.sh --keep         copy the clean rows of out/results.tsv to
#                             docs/results.tsv, to be committed
#
# out/ goes with the machine (a new machine starts without it), so rows
# that a later session must count are kept in the repository: the rows
# are read from both files, the kept ones first.
results_file=${RESULTS_FILE:-out/results.tsv}
results_kept=${RESULTS_KEPT:-docs/results.tsv}
results_header() {
	printf 'commit\tvariant\tpart\tpassed\tfailed\tseconds\treports\tdate\n'
}
. "$(dirname "${BASH_SOURCE[0]}")/../build/newfiles.sh"

results_commit() {
	local c dirty
	c=$(git rev-parse --short=12 HEAD 2>/dev/null) || { echo unknown; return; }
	# Untracked files count: a new source file changes the kernel too.
	# Uncommitted edits of inert files (prose) do not.
	dirty=$(git status --porcelain 2>/dev/null | cut -c4- | sed 's/.* -> //' |
		grep -Ev "$results_inert" || true)
	[ -n "$dirty" ] && c=$c-dirty
	echo "$c"
}

# Paths that cannot change what a part tests
results_inert='^(README\.md|LICENSE|patches/[a-z]*/0000-cover-letter\.patch|LICENSES/|docs/|Documentation/|harness/bench/|harness/guest/bench\.sh|harness/guest/macro\.sh|harness/bench/macro\.sh|harness/test/results\.sh|harness/series/devtree\.sh|harness/series/series-check\.sh|harness/deb/|harness/system/|config/deb\.config)'

# results_series_edits COMMIT: what the build takes from patches/ of
# COMMIT (the new files are linked in, not patched): the upstream files
# the series edits, as the whole series leaves them, one checksum each,
# worked out on build/pristine, so that a series reshaped into other
# patches with the same result keeps its rows; without the pristine tree,
# or if a patch does not apply there, the edits themselves (sections of
# new files, commit messages and index lines left out).  Kept per commit
# in out/.series-edits.
results_series_edits() {
	local cache=out/.series-edits/$1 p tmp
	[ -f build/pristine/Makefile ] && cache=$cache.tree
	if [ ! -f "$cache" ]; then
		mkdir -p out/.series-edits
		tmp=$(mktemp -d)
		for p in $(git show "$1:patches/series" | grep -v '^\s*\(#\|$\)'); do
			git show "$1:patches/$p" | without_newfiles "$(newfiles "$1")" |
				awk '/^From [0-9a-f]+ Mon Sep 17 / { d = 0 } /^diff --git / { d = 1 } d && !/^index /'
			echo "@@@@ end of $p"
		done > "$tmp/edits"
		if [[ $cache == *.tree ]] && results_series_tree "$tmp"; then
			mv "$tmp/tree" "$cache.$$"
		else
			cache=out/.series-edits/$1
			grep -v '^@@@@ end of ' "$tmp/edits" > "$cache.$$"
		fi
		mv "$cache.$$" "$cache"
		rm -rf "$tmp"
	fi
	cat "$cache"
}

# results_series_tree DIR: apply DIR/edits, patch by patch, to copies of
# the pristine files they touch; DIR/tree gets "PATH SHA256" per file.
results_series_tree() {
	local dir=$1 f
	mkdir -p "$dir/t"
	sed -n 's|^diff --git a/[^ ]* b/||p' "$dir/edits" | sort -u > "$dir/files"
	while IFS= read -r f; do
		[ -f "build/pristine/$f" ] || continue
		mkdir -p "$dir/t/$(dirname "$f")"
		cp "build/pristine/$f" "$dir/t/$f"
	done < "$dir/files"
	awk -v dir="$dir" '/^@@@@ end of / { n++; next } { print > (dir "/p" n) }' "$dir/edits"
	for f in $(cd "$dir" && ls p* 2>/dev/null | sort -V); do
		patch -d "$dir/t" -p1 -s -f --no-backup-if-mismatch < "$dir/$f" > /dev/null || return 1
	done
	while IFS= read -r f; do
		if [ -f "$dir/t/$f" ]; then
			echo "$f $(sha256sum < "$dir/t/$f" | cut -d' ' -f1)"
		else
			echo "$f absent"
		fi
	done < "$dir/files" > "$dir/tree"
}

# results_carries ROW_COMMIT COMMIT: does a part run on ROW_COMMIT hold
# for COMMIT?  The diff between them must touch only inert files, or
# patches/ without changing the upstream files the series leaves (a
# series reshaped, a new file's copy in its patch, a commit message).
results_carries() {
	local changed
	[ "$1" = "$2" ] && return 0
	case "$1$2" in *-dirty*) return 1 ;; esac
	git merge-base --is-ancestor "$1" "$2" 2>/dev/null || return 1
	changed=$(git diff --name-only "$1" "$2" | grep -Ev "$results_inert" || true)
	[ -z "$changed" ] && return 0
	echo "$changed" | grep -qv '^patches/' && return 1
	cmp -s <(results_series_edits "$1") <(results_series_edits "$2")
}

results_init() {
	mkdir -p "$(dirname "$results_file")"
	[ -s "$results_file" ] || results_header > "$results_file"
}

# results_rows: every row of both files, without headers or repeats
results_rows() {
	cat "$results_kept" "$results_file" 2>/dev/null |
		awk -F'\t' '$1 != "commit" && !seen[$0]++'
}

# results_keep: append to the kept file the rows of out/results.tsv it
# lacks, but for those of dirty trees (they count for no commit)
results_keep() {
	local new
	[ -f "$results_file" ] || { echo "results: no $results_file, nothing to keep"; return 0; }
	# (by name, not NR == FNR: the kept file may be missing or empty)
	new=$(awk -F'\t' 'FILENAME == ARGV[1] { kept[$0] = 1; next }
		FNR > 1 && !($0 in kept) && $1 !~ /-dirty$/' \
		<(cat "$results_kept" 2>/dev/null) "$results_file")
	if [ -z "$new" ]; then
		echo "results: $results_kept has every clean row already"
		return 0
	fi
	[ -s "$results_kept" ] || results_header > "$results_kept"
	echo "$new" >> "$results_kept"
	echo "results: $(echo "$new" | wc -l) rows added to $results_kept; commit it"
}

# commit variant part passed failed seconds reports: one row, in one write
# (parts end concurrently)
results_add() {
	results_init
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" "$(date -u +%FT%TZ)" >> "$results_file"
}

# results_latest COMMIT VARIANT PART: the latest row of that part that
# holds for COMMIT, or nothing
results_latest() {
	local row rc
	results_rows | awk -F'\t' -v v="$2" -v p="$3" '$2 == v && $3 == p' | tac |
	while IFS= read -r row; do
		rc=${row%%$'\t'*}
		if results_carries "$rc" "$1"; then
			echo "$row"
			break
		fi
	done
}

# results_missing VARIANT PART...: the parts without a passing latest row
# on this (clean) commit
results_missing() {
	local v=$1 c p row; shift
	c=$(results_commit)
	for p in "$@"; do
		row=$(results_latest "$c" "$v" "$p")
		case "$c" in *-dirty) row="" ;; esac
		if [ -z "$row" ] || [ "$(echo "$row" | cut -f5)" != 0 ] ||
		   [ "$(echo "$row" | cut -f7)" != 0 ]; then
			echo "$p"
		fi
	done
}

results_target() {
	case "$1" in mux) echo check ;; cov) echo coverage ;; *) echo "check-$1" ;; esac
}

# results_verdict VARIANT PART...: the whole suite of VARIANT on this
# commit as assembled from the latest row of each part
results_verdict() {
	local v=$1 c p row np=0 nf=0 have=() missing=() from=""; shift
	c=$(results_commit)
	for p in "$@"; do
		row=$(results_latest "$c" "$v" "$p")
		if [ -z "$row" ]; then missing+=("$p"); continue; fi
		have+=("$p")
		from+=" ${row%%$'\t'*}"
		np=$((np + $(echo "$row" | cut -f4))) nf=$((nf + $(echo "$row" | cut -f5)))
	done
	from=$(echo "$from" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
	case "$c" in
	*-dirty) echo "results: $v on $c: a dirty tree assembles no verdict; commit, then run the parts" ;;
	*)	if [ ${#missing[@]} = 0 ]; then
			echo "results: $v on $c, whole suite from parts: $np passed, $nf failed (rows of ${from% })"
		else
			echo "results: $v on $c: ${#have[@]} of $# parts ran ($np passed, $nf failed); still to run: ${missing[*]}"
			echo "results: run them with: make $(results_target "$v") PARTS=missing"
		fi ;;
	esac
}

# TSV on stdin as aligned columns
results_table() {
	awk -F'\t' '{ printf "%-18s %-8s %-20s %6s %6s %7s %7s  %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	cd "$(dirname "$0")/../.."
	case "${1:-}" in
	--keep)	results_keep
		exit 0 ;;
	--all)	{ results_header; results_rows; } | results_table
		exit 0 ;;
	esac
	if [ ! -f "$results_file" ] && [ ! -f "$results_kept" ]; then
		echo "results: no $results_file yet (make check writes it)"
		exit 0
	fi
	c=$(results_commit)
	echo "rows of $c:"
	{ results_header; results_rows | awk -F'\t' -v c="$c" '$1 == c'; } |
		results_table
	. harness/build/variants.sh
	for v in "${@:-mux debug distro}"; do
		for v1 in $v; do
			parts=$(harness/test/check.sh "$v1" list)
			# shellcheck disable=SC2086
			results_verdict "$v1" $parts
		done
	done
fi
