#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-selftests.sh SRC OBJ DEST: build the BPF selftests' test_progs with
# the cases that cover BPF trampolines (fentry, fexit, fmod_ret, their
# helpers, module functions, the trampoline cap) and the fprobe-based
# kprobe_multi ones, from the kernel tree SRC, against the BTF of the
# kernel built in OBJ, with Debian's clang 16; and bpf_testmod.ko for
# that kernel.  DEST gets test_progs, the objects its cases open by name
# and bpf_testmod.ko, ready to copy into a guest.
#
# Upstream's Makefile builds every case or none, and several hundred of
# them need options the distro-like kernels lack (cgroups, some network
# protocols), so test_progs is built by that Makefile from directories of
# links to the chosen cases and their programs (its TRUNNER_* variables
# given on the command line).  The cases' code is upstream's, unchanged.
# The Makefile's output goes to DEST/build/make.log (it warns of every
# rule the test_maps runner defines again from the same variables).
set -euo pipefail
src=$(realpath "$1") obj=$(realpath "$2") dest=$3
sel=$src/tools/testing/selftests/bpf
out=$(realpath -m "$dest/build")

# The cases (uprobe_multi_test and test_lsm for functions bpf_cookie calls;
# fexit_bpf2bpf, of trampolines on BPF programs, which stay trampolines,
# is left out: it opens some thirty objects and needs cgroups), and the
# BPF programs they load (skeletons, or objects opened by
# name); btf_data is the one resolve_btfids reads for test_progs itself.
tests="bpf_cookie fentry_fexit fentry_test fexit_sleep
fexit_stress fexit_test fill_link_info get_func_args_test get_func_ip_test
kprobe_multi_test kprobe_multi_testmod_test missed modify_return
module_attach module_fentry_shadow recursion recursive_attach test_overhead
trampoline_count tracing_struct vmlinux uprobe_multi_test test_lsm"
progs="btf_data kprobe_multi test_bpf_cookie uprobe_multi fentry_test
fentry_many_args fexit_test fexit_many_args fexit_sleep test_fill_link_info
get_func_args_test get_func_ip_test get_func_ip_uprobe_test
kprobe_multi_empty kprobe_multi_override kprobe_multi_session
kprobe_multi_session_cookie kprobe_multi_sleepable missed_kprobe
missed_kprobe_recursion missed_tp_recursion modify_return
test_module_attach recursion fentry_recursive fentry_recursive_target
test_overhead test_trampoline_count tracing_struct tracing_struct_many_args
test_vmlinux uprobe_multi_bench uprobe_multi_usdt
uprobe_multi_consumers uprobe_multi_pid_filter lsm lsm_tailcall"
lskels="fentry_test.c fexit_test.c fexit_sleep.c"

rm -rf "$sel/mux_prog_tests" "$sel/mux_progs"
mkdir -p "$sel/mux_prog_tests" "$sel/mux_progs" "$out"
for t in $tests; do
	ln -s "../prog_tests/$t.c" "$sel/mux_prog_tests/$t.c"
done
for p in $progs; do
	ln -s "../progs/$p.c" "$sel/mux_progs/$p.c"
done
for h in "$sel"/progs/*.h; do
	ln -s "../progs/$(basename "$h")" "$sel/mux_progs/"
done

# test_progs.c includes "prog_tests/tests.h", the list of cases, which the
# Makefile writes for TRUNNER_TESTS_DIR: write the chosen ones' where the
# include finds it (-I$OUTPUT), as the Makefile's rule does.
rm -f "$sel/prog_tests/tests.h"
mkdir -p "$out/prog_tests"
{
	echo '/* Generated header, do not edit */'
	sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
		"$sel"/mux_prog_tests/*.c | sort
} > "$out/prog_tests/tests.h"
rm -f "$out/test_progs.o"

# The cases' dependency files name skeletons by their base names, which
# resolve only in an in-tree build: drop them, the cases are few.
rm -f "$out"/*.test.d "$out"/*.test.o
make -C "$sel" -j"$(nproc)" OUTPUT="$out" VMLINUX_BTF="$obj/vmlinux" \
	CLANG=clang-16 LLC=llc-16 LLVM_STRIP=llvm-strip-16 feature-llvm=0 \
	TRUNNER_TESTS_DIR=mux_prog_tests TRUNNER_BPF_PROGS_DIR=mux_progs \
	TRUNNER_EXTRA_FILES= LINKED_SKELS= LSKELS="$lskels" LSKELS_EXTRA= \
	"$out/test_progs" > "$out/make.log" 2>&1 ||
	{ tail -40 "$out/make.log"; echo "bpf-selftests: the build failed ($out/make.log)" >&2; exit 1; }

# bpf_testmod for this kernel, built out of the source tree.
rm -rf "$out/bpf_testmod"
cp -r "$sel/bpf_testmod" "$out/bpf_testmod"
make -s -C "$obj" M="$out/bpf_testmod" modules
cp "$out/test_progs" "$out/bpf_testmod/bpf_testmod.ko" "$dest/"
for p in $progs; do
	cp "$out/$p.bpf.o" "$dest/"
done
