# SPDX-License-Identifier: GPL-2.0
#
# variants.sh: the one table of kernel variants, sourced by build.sh, vm
# and check.sh.  variant_load V sets, for variant V:
#
#   v_tree   patched (build/src), fixes (build/fixes: the fixes series
#            alone) or pristine (build/pristine)
#   v_out    directory with bzImage, config, vmlinux, initramfs.cpio.gz
#   v_obj    Kbuild object directory
#   v_frags  config fragments merged onto tinyconfig (array, repo-relative)
#   v_cc     compiler (gcc, or clang-16 for kCFI)
#   v_mem    guest memory in MiB
#   v_base   the unpatched kernel of the same configuration ("" for none)
#   v_extra  1 if the guest gets harness/build/distro-extra.sh's programs
#   v_make   extra make variables for the kernel build (array)
#
# distro is the production-like configuration (BPF JIT and BTF, livepatch,
# retpolines, return thunks, call depth tracking, IBT).
#
# cov is the mux kernel with gcov counters in ftrace-mux's own objects only
# (GCOV_PROFILE_<object>.o on the make command line reaches every
# directory), for make coverage.

VARIANTS="mux fixes baseline debug baseline-debug cfi distro baseline-distro cov"

# ftrace-mux's objects, less its KUnit cases, the detour test module and
# the two section markers of ftrace_mux_text_{start,end}.c
COV_OBJECTS="ftrace_mux ftrace_mux_names ftrace_mux_select ftrace_mux_tracefs
ftrace_mux_sets ftrace_mux_site ftrace_mux_tramp ftrace_mux_graph
ftrace_mux_detour ftrace_mux_detour_reach ftrace_mux_pack ftrace_mux_reach"

variant_load() {
	local o
	v_cc=gcc v_mem=2048 v_base="" v_extra=0 v_make=()
	v_frags=(config/ftrace-mux.config)
	case "$1" in
	mux)		v_tree=patched  v_out=out              v_base=baseline
			v_frags+=(config/mux.config) ;;
	# The fixes series alone, with the baseline's config (make check-fixes)
	fixes)		v_tree=fixes    v_out=out/fixes        v_base=baseline ;;
	baseline)	v_tree=pristine v_out=out/baseline ;;
	debug)		v_tree=patched  v_out=out/debug        v_base=baseline-debug v_mem=4096
			v_frags+=(config/mux.config config/debug.config) ;;
	baseline-debug)	v_tree=pristine v_out=out/baseline-debug v_mem=4096
			v_frags+=(config/debug.config) ;;
	cfi)		v_tree=patched  v_out=out/cfi          v_cc=clang-16
			v_frags+=(config/mux.config config/cfi.config) ;;
	distro)		v_tree=patched  v_out=out/distro       v_base=baseline-distro v_extra=1
			v_frags+=(config/mux.config config/distro.config config/distro-mux.config) ;;
	baseline-distro) v_tree=pristine v_out=out/baseline-distro v_extra=1
			v_frags+=(config/distro.config) ;;
	cov)		v_tree=patched  v_out=out/cov          v_base=baseline
			v_frags+=(config/mux.config config/cov.config)
			for o in $COV_OBJECTS; do v_make+=("GCOV_PROFILE_$o.o=y"); done ;;
	*)		return 1 ;;
	esac
	v_obj=build/obj-$1
}
