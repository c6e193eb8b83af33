# SPDX-License-Identifier: GPL-2.0
# gnuplot -e "dat='percall.dat'; png='percall.png'" percall.gp
# dat columns: relevant, baseline at 0/8/32 irrelevant, ftrace-mux at 0/8/32.
set terminal pngcairo size 900,560 font ",11"
set output png
set title "ftrace-ops sample: cost of one traced call (QEMU -icount: ns = instructions)"
set xlabel "tracers on the traced function (nr\\_ops\\_relevant)"
set ylabel "ns per call (log scale)"
set logscale y
set key bottom right box opaque
set grid
set xtics (0, 1, 2, 4, 8, 16)
plot \
  dat using 1:2 with linespoints lw 2 dt 2 pt 6 lc rgb "#d62728" title "upstream, 0 other tracers", \
  dat using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb "#ff7f0e" title "upstream, 8 other tracers", \
  dat using 1:4 with linespoints lw 2 dt 2 pt 6 lc rgb "#8c564b" title "upstream, 32 other tracers", \
  dat using 1:5 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "ftrace-mux, 0 other tracers (the three coincide)", \
  dat using 1:6 with linespoints lw 2 pt 7 lc rgb "#17becf" title "ftrace-mux, 8 other tracers", \
  dat using 1:7 with linespoints lw 2 pt 7 lc rgb "#2ca02c" title "ftrace-mux, 32 other tracers"
