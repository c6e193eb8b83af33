# SPDX-License-Identifier: GPL-2.0
# The cost of K BPF fentry, fexit, fmod_ret and LSM links over the untraced
# call (bench/bpf.sh; the data file holds a block per kind, in that order):
# gnuplot -e "dat='...'; png='...'" bpf.gp
set terminal pngcairo size 800,500
set output png
set title "BPF links on one function (-icount)"
set xlabel "links on the function"
set ylabel "instructions per call over none"
set logscale xy
set key top left
set grid
plot dat index 0 using 1:2 with linespoints title "fentry, ftrace-mux (bpf tracer)", \
     dat index 0 using 1:3 with linespoints title "fentry, upstream (BPF trampoline, cap 38)", \
     dat index 1 using 1:2 with linespoints title "fexit, ftrace-mux (bpf\\_exit tracer)", \
     dat index 1 using 1:3 with linespoints title "fexit, upstream (BPF trampoline, cap 38)", \
     dat index 2 using 1:2 with linespoints title "fmod\\_ret, ftrace-mux (bpf tracer)", \
     dat index 2 using 1:3 with linespoints title "fmod\\_ret, upstream (BPF trampoline, cap 38)", \
     dat index 3 using 1:2 with linespoints title "LSM, ftrace-mux (bpf tracer)", \
     dat index 3 using 1:3 with linespoints title "LSM, upstream (BPF trampoline, cap 38)"
