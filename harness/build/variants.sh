# SPDX-License-Identifier: GPL-2.0
#
# variants.sh: the one table of kernel variants, sourced by build.sh, vm
# and check.sh.  variant_load V sets, for variant V:
#
#   v_tree   patched (build/src) or pristine (build/pristine)
#   v_out    directory with bzImage, config, vmlinux, initramfs.cpio.gz
#   v_obj    Kbuild object directory
#   v_frags  config fragments merged onto tinyconfig (array, repo-relative)
#   v_cc     compiler (gcc, or clang-16 for kCFI)
#   v_mem    guest memory in MiB
#   v_base   the unpatched kernel of the same configuration ("" for none)
#   v_extra  1 if the guest gets harness/build/distro-extra.sh's programs
#
# distro is the production-like configuration (BPF JIT and BTF, livepatch,
# retpolines, return thunks, call depth tracking, IBT).

VARIANTS="mux baseline debug baseline-debug cfi distro baseline-distro"

variant_load() {
	v_cc=gcc v_mem=2048 v_base="" v_extra=0
	v_frags=(config/ftrace-mux.config)
	case "$1" in
	mux)		v_tree=patched  v_out=out              v_base=baseline
			v_frags+=(config/mux.config) ;;
	baseline)	v_tree=pristine v_out=out/baseline ;;
	debug)		v_tree=patched  v_out=out/debug        v_base=baseline-debug v_mem=4096
			v_frags+=(config/mux.config config/debug.config) ;;
	baseline-debug)	v_tree=pristine v_out=out/baseline-debug v_mem=4096
			v_frags+=(config/debug.config) ;;
	cfi)		v_tree=patched  v_out=out/cfi          v_cc=clang-16
			v_frags+=(config/mux.config config/cfi.config) ;;
	distro)		v_tree=patched  v_out=out/distro       v_base=baseline-distro v_extra=1
			v_frags+=(config/mux.config config/distro.config) ;;
	baseline-distro) v_tree=pristine v_out=out/baseline-distro v_extra=1
			v_frags+=(config/distro.config) ;;
	*)		return 1 ;;
	esac
	v_obj=build/obj-$1
}
