# SPDX-License-Identifier: GPL-2.0
# The cost of K BPF fentry links over the untraced call (bench/bpf.sh):
# gnuplot -e "dat='...'; png='...'" bpf.gp
set terminal pngcairo size 800,500
set output png
set title "BPF fentry links on one function (-icount)"
set xlabel "links on the function"
set ylabel "instructions per call over none"
set logscale xy
set key top left
set grid
plot dat using 1:2 with linespoints title "ftrace-mux (bpf tracer)", \
     dat using 1:3 with linespoints title "upstream (BPF trampoline, cap 38)"
