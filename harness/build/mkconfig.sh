#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkconfig.sh SRCDIR OBJDIR FRAGMENT...
#
# Configure OBJDIR as tinyconfig plus the fragments, then verify that every
# option the fragments ask for made it into the final .config: Kconfig drops
# options with unmet dependencies without a word, and a test kernel that
# silently lacks a feature would make its tests meaningless.
set -euo pipefail
src=$(realpath "$1"); obj=$(realpath -m "$2"); shift 2
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
mkdir -p "$obj"
make -s -C "$src" O="$obj" tinyconfig >/dev/null
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null)
make -s -C "$src" O="$obj" olddefconfig >/dev/null

bad=0
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$obj/.config" || {
				echo "mkconfig: $line (from $(basename "$f")) is not in the final .config" >&2
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=" "$obj/.config"; then
				echo "mkconfig: $opt should be unset" >&2; bad=1
			fi ;;
		esac
	done < "$f"
done
exit $bad
