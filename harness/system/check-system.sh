#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-system.sh [PART...]: make check-system, ftrace-mux installed as
# users install it.  First the packages are built, as make check builds
# its kernels first (harness/deb/deb.sh): from Debian's own amd64
# configuration, modules trimmed (LOCALMODCONFIG=1) to guest.lsmod, what
# the guest loads, into out/system/deb/.  Then the parts (all by default):
#
#   refuse   configurations that cannot carry ftrace-mux are refused
#            before anything is built, with the option named
#   image    a Debian 12 disk image with the packages installed by dpkg,
#            and trace-cmd, linux-perf and bpftrace from the archive
#            (harness/system/mkimage.sh): out/system/disk.img
#   boot     boot the image in QEMU (TCG) with the packaged kernel and
#            its initramfs, through systemd to the test unit
#            (harness/system/test/system.sh), which reboots once; then
#            with Debian's own kernel; then with the packaged one again.
#            Its RESULT lines, and each console checked for kernel reports
#
# Naming parts skips the build; "deb" is the build, as a part.
# Prints one RESULT line per check and "N passed, M failed" last.
set -uo pipefail
# One compound command: bash reads it whole before running it, so the
# script may be edited while a long run goes on.
{
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
out=out/system
mkdir -p "$out"
# debootstrap, chroot and the mounts in it
[ "$(id -u)" = 0 ] || { echo "check-system: run as root (debootstrap, chroot)" >&2; exit 2; }
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(deb refuse image boot)
debian_config=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
passed=0 failed=0
say() {
	echo "RESULT $1 $2"
	if [ "$2" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

part_deb() {
	local start=$(date +%s)
	if CONFIG=$debian_config LOCALMODCONFIG=1 LSMOD=harness/system/guest.lsmod \
	   DEB_OUT=$out/deb harness/deb/deb.sh > "$out/deb.log" 2>&1; then
		say system/deb PASS
	else
		tail -20 "$out/deb.log"
		say system/deb FAIL
		# Nothing below may run on packages of another tree
		rm -f "$out"/deb/*.deb
	fi
	echo "system: packages in $(($(date +%s) - start)) s"
}

part_image() {
	local start=$(date +%s)
	# No boot may run on an image of an earlier run
	rm -f "$out"/disk.img*
	ls "$out"/deb/linux-image-*.deb > /dev/null 2>&1 ||
		{ echo "system: no packages in $out/deb"; say system/image FAIL; return; }
	if harness/system/mkimage.sh "$out/deb" "$out/disk.img" > "$out/image.log" 2>&1; then
		say system/image PASS
	else
		tail -20 "$out/image.log"
		say system/image FAIL
	fi
	cat "$out/image.log"
	echo "system: image in $(($(date +%s) - start)) s"
}

# Configurations that cannot carry ftrace-mux are refused before the
# build, naming the option: a 32-bit one, and Debian's without ftrace.
part_refuse() {
	local cfg=$out/refuse.config log=$out/refuse.log rc
	xz -dc $debian_config | sed 's/^CONFIG_X86_64=y$/# CONFIG_X86_64 is not set/' > "$cfg"
	CONFIG=$cfg DEB_OBJ=build/obj-deb-refuse DEB_OUT=$out/refused \
		harness/deb/deb.sh --config-only > "$log" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q 'CONFIG_X86_64 is not set' "$log"; then
		say system/refuse-32bit PASS
	else
		cat "$log"; say system/refuse-32bit FAIL
	fi
	xz -dc $debian_config | sed 's/^CONFIG_FTRACE=y$/# CONFIG_FTRACE is not set/' > "$cfg"
	CONFIG=$cfg DEB_OBJ=build/obj-deb-refuse DEB_OUT=$out/refused \
		harness/deb/deb.sh > "$log" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q '^deb: CONFIG_FUNCTION_TRACER: wanted y' "$log" &&
	   grep -q '^deb: CONFIG_FTRACE_MUX: wanted y' "$log" &&
	   grep -q 'nothing was built' "$log" && [ ! -e "$out/refused" ] &&
	   ! grep -q 'unmet direct dependencies' "$log"; then
		say system/refuse-no-ftrace PASS
	else
		cat "$log"; say system/refuse-no-ftrace FAIL
	fi
	rm -rf build/obj-deb-refuse "$cfg"
}

# The checks the test unit must report, by stage
want="system/1/kernel system/1/function-and-profiler system/1/tool
system/1/bpftrace-kfunc system/1/together/perf-function
system/1/together/perf-function_graph system/1/together/trace-cmd-record
system/1/together/owner-exit system/1/tracecmd/function-filter
system/1/tracecmd/instance-filter system/1/left-enabled
system/2/nothing-enabled system/3/tool-on-debian-kernel
system/3/debian-kernel-traces system/3/tool-removed
system/4/without-the-tool"

# boot KERNEL NAME: boot the image with IMAGE.KERNEL.{vmlinuz,initrd}
# until the test unit powers it off; the console into NAME.console.log
boot() {
	local start=$(date +%s) img=$out/disk.img rc
	# One host thread for both vCPUs: ../shared/NOTES.md, "SMP under TCG"
	timeout 1800 qemu-system-x86_64 -accel tcg,thread=single -smp 2 -m 2048 \
		-display none -monitor none \
		-kernel "$img.$1.vmlinuz" -initrd "$img.$1.initrd" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1" \
		-drive "file=$img,format=raw,if=virtio" \
		-serial "file:$out/$2.console.log" -serial "file:$out/$2.results.log"
	rc=$?
	echo "system: $2: QEMU ran $(($(date +%s) - start)) s (exit $rc)"
	cat "$out/$2.results.log" >> "$out/results.log"
}

# Stages 1 and 2 (a reboot between them) on the packaged kernel, 3 on
# Debian's, 4 on the packaged kernel again (harness/system/test/system.sh)
part_boot() {
	local k v splat b
	rm -f "$out"/*.console.log "$out"/*.results.log "$out/results.log"
	boot mux mux-1
	boot stock debian-3
	boot mux mux-4
	grep -a '^SYSTEM' "$out/results.log"
	# Each failure's notes, up to the next line that is not one
	awk '/^---- / { on = 1; print; next } on && /^    / { print; next } { on = 0 }' "$out/results.log"
	while read -r k v; do
		say "$k" "$v"
	done < <(grep -a '^RESULT ' "$out/results.log" | tr -d '\r' | awk '{print $2, $3}')
	for k in $want; do
		grep -aq "^RESULT $k " "$out/results.log" && continue
		echo "system: $k did not report"
		say "$k" FAIL
	done
	for b in mux-1 debian-3 mux-4; do
		splat=$(harness/test/splat-scan "$out/$b.console.log")
		if [ -n "$splat" ]; then
			echo "$splat"
			say "system/$b/console-clean" FAIL
		else
			say "system/$b/console-clean" PASS
		fi
	done
}

for p in "${parts[@]}"; do
	case "$p" in
	refuse|deb|image|boot) "part_$p" ;;
	*) echo "check-system: unknown part $p (refuse deb image boot)" >&2; exit 2 ;;
	esac
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
exit
}
