# SPDX-License-Identifier: GPL-2.0
#
# ftrace-mux: build, boot and test the patched Linux 6.12 kernel under QEMU.
# `make help` lists the targets; README.md explains them.

DEBUG ?= 0
ifeq ($(DEBUG),1)
VARIANT := debug
OUTDIR := out/debug
else
VARIANT := mux
OUTDIR := out
endif

.PHONY: help deps kernel fixes check-fixes baseline baseline-debug kernel-cfi check-cfi run shell vm check check-debug \
	check-baseline check-baseline-distro bench bench-macro bench-macro-distro bench-graph coverage distro check-distro bench-distro bench-attach bench-bpf quick results \
	devtree devtree-sync export-patches series-check checkpatch deb check-system clean distclean

help:
	@echo "make run           build the patched kernel, boot it, show ftrace-mux at work"
	@echo "make shell         boot it with an interactive shell (tracefs, trace-cmd)"
	@echo "make check         build and run the whole test suite (N passed, M failed)"
	@echo "make quick         the fast loop: ftrace-mux cases, boot (selftests, KUnit), tool, host"
	@echo "PARTS=\"p q\"        with check, check-debug, check-distro, check-fixes: only those parts;"
	@echo "                   PARTS=list names them, PARTS=missing runs what this commit lacks"
	@echo "make results       the results file: rows of this commit, verdicts assembled from parts"
	@echo "make check-debug   the same on the debug kernel, plus injected allocation failures"
	@echo "make check-fixes   the fixes series alone: each reproduction fails unpatched, passes fixed"
	@echo "make check-cfi     build with clang 16 and kCFI, run the shared-site tests on it"
	@echo "make check-distro  the suite on the distro-like kernels, plus BPF and livepatch"
	@echo "make distro        the distro-like kernels: out/distro/, out/baseline-distro/"
	@echo "make bench-distro  the benchmark on the distro-like kernels: out/distro/bench/"
	@echo "make bench-attach  inlined copies attached in one write against kprobe events: out/distro/bench/"
	@echo "make bench-bpf     1 to 1,000 BPF fentry, fexit, fmod_ret links on one function, both kernels: out/distro/bench/bpf/"
	@echo "make deb           Debian packages of the kernel and the tool: out/deb/"
	@echo "                   (CONFIG=FILE, LOCALMODCONFIG=1, LSMOD=FILE; docs/packages.md)"
	@echo "make check-system  install them on a Debian 12 image, boot it, trace (PARTS=refuse image boot)"
	@echo "make kernel        out/bzImage, out/config, out/ftrace-ops.ko"
	@echo "make baseline      the unpatched tree, same config: out/baseline/"
	@echo "make bench         ftrace-mux beside the baseline under QEMU -icount: out/bench/"
	@echo "make bench-macro   real workloads under 1 to 64 tracers, both kernels: out/macro/"
	@echo "make bench-macro-distro  the same beside BPF fentry programs: out/distro/macro/"
	@echo "make bench-graph   function_graph's users, both kernels: out/bench/graph/"
	@echo "make coverage      the suite on a gcov kernel: ftrace-mux's line and branch coverage"
	@echo "make vm SCRIPT=f   run script f inside the VM (ARGS=, VMFLAGS=)"
	@echo "make devtree       git work tree of the patched kernel in build/dev"
	@echo "make devtree-sync  bring the repository's new files into build/dev"
	@echo "make export-patches  regenerate patches/ from build/dev"
	@echo "make series-check  git am the series on the pristine tree, build and boot every prefix"
	@echo "make checkpatch    scripts/checkpatch.pl on every patch and new file"
	@echo "make baseline-debug  the unpatched tree with the debug config: out/baseline-debug/"
	@echo "make kernel-cfi    the patched tree built with clang 16 and kCFI: out/cfi/"
	@echo "make check-baseline  upstream ftracetest on the baseline: tests/ftracetest-baseline.txt"
	@echo "make check-baseline-distro  the same on the unpatched distro-like kernel, and"
	@echo "                     its BPF selftests: tests/bpf-selftests-baseline-distro.txt"
	@echo "make deps          install (apt-get) what the build and the tests lack"
	@echo "make clean         remove out/ and the object directories"
	@echo "make distclean     remove out/ and build/ (the extracted trees too)"
	@echo "make help          this list"
	@echo "DEBUG=1            use the debug config (lockdep, KASAN, kmemleak)"

deps:
	@harness/deps.sh

kernel: deps
	@harness/build/build.sh $(VARIANT)

baseline: deps
	@harness/build/build.sh baseline

# The unpatched tree with the debug config, to tell upstream's own debug
# reports from ours.
baseline-debug: deps
	@harness/build/build.sh baseline-debug

# The patched tree built with clang 16 and kCFI (CONFIG_CFI_CLANG): out/cfi/
kernel-cfi:
	@harness/deps.sh cfi
	@harness/build/build.sh cfi

check-cfi: kernel-cfi
	@harness/test/check-cfi.sh

# The distro-like kernels (config/distro.config), patched and unpatched,
# with the BPF loader and the livepatch selftests in their initramfs.
distro:
	@harness/deps.sh distro
	@harness/build/build.sh distro
	@harness/build/build.sh baseline-distro

check-distro: $(if $(filter list,$(PARTS)),,distro)
	@harness/test/check.sh distro $(PARTS)

bench-distro: distro
	@harness/bench/bench.sh distro

bench-attach: distro
	@harness/bench/attach.sh

# 1 to 1,000 BPF fentry, fexit, fmod_ret links on one function (38 upstream), -icount.
bench-bpf: distro
	@harness/bench/bpf.sh

run: kernel
	@harness/test/vm --variant $(VARIANT) harness/guest/demo.sh

shell: kernel
	@harness/test/vm --variant $(VARIANT) --shell

vm: deps
	@test -n "$(SCRIPT)" || { echo "usage: make vm SCRIPT=file [ARGS=...]"; exit 2; }
	@harness/test/vm --variant $(VARIANT) $(VMFLAGS) $(SCRIPT) $(ARGS)

# PARTS: a subset of the suite's parts (PARTS=list names them).
check: $(if $(filter list,$(PARTS)),,kernel baseline)
	@harness/test/check.sh $(VARIANT) $(PARTS)

# The fixes series alone (out/fixes/) beside the unpatched kernel: each
# fix's reproduction fails on the baseline and passes with the fixes.
fixes: deps
	@harness/build/build.sh fixes

check-fixes: $(if $(filter list,$(PARTS)),,fixes baseline)
	@harness/test/check.sh fixes $(PARTS)

# The inner loop: the parts that test ftrace-mux itself, on the kernel
# alone (no baseline needed).
quick: kernel
	@harness/test/check.sh $(VARIANT) scale project boot tool host

results:
	@harness/test/results.sh

# The whole suite on the debug kernel, with injected allocation failures.
check-debug:
	@$(MAKE) --no-print-directory check DEBUG=1

bench: kernel baseline
	@harness/bench/bench.sh

bench-macro: kernel baseline
	@harness/bench/macro.sh

# The same beside BPF fentry programs, on the distro-like kernels.
bench-macro-distro: distro
	@harness/bench/macro.sh distro 3 none 8-same+graph 8-same+graph+bpf

# The suite (or PARTS) on the gcov kernel, then the table of each new
# kernel file's coverage over all its VMs: out/cov/coverage/.  The
# whole suite starts from no counts; PARTS add theirs to those there.
coverage: deps baseline
	@harness/build/build.sh cov
	@$(if $(PARTS),,rm -rf out/cov/gcov out/cov/coverage)
	@harness/test/check.sh cov $(PARTS); rc=$$?; \
	python3 harness/test/coverage.py build/obj-cov out/cov/gcov out/cov/coverage && exit $$rc

bench-graph: kernel baseline
	@harness/bench/graph.sh

# Record which upstream ftracetest cases pass on the unpatched kernel.
check-baseline: baseline
	@harness/test/ftracetest-baseline.sh

check-baseline-distro: distro
	@harness/test/ftracetest-baseline.sh baseline-distro
	@harness/test/bpf-selftests-baseline.sh

devtree: deps
	@harness/series/devtree.sh init

devtree-sync:
	@harness/series/devtree.sh sync

export-patches:
	@harness/series/devtree.sh export

# Packages of the patched kernel (bindeb-pkg) and of the tool
deb: deps
	@harness/deps.sh deb
	@harness/deb/deb.sh

# Those packages on a real Debian system: debootstrap, dpkg, systemd
check-system: deps
	@harness/deps.sh deb
	@harness/system/check-system.sh $(PARTS)

series-check: deps
	@harness/series/series-check.sh

checkpatch:
	@harness/series/devtree.sh checkpatch

clean:
	rm -rf out build/obj-*

distclean:
	rm -rf out build
