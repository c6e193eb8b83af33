# SPDX-License-Identifier: GPL-2.0
# gnuplot -e "dat='macro.dat'; png='macro.png'" macro.gp
# dat: one block per workload (messaging, files, gzip), rows
# "setup" upstream_added_ms ftrace-mux_added_ms.
set terminal pngcairo size 1200,460 font ",10"
set output png
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 scale 0
set ylabel "added guest ms per run (-icount: 1 ns = 1 instruction)"
set key top left
set multiplot layout 1,3 title "What the tracers add to a workload's run, upstream 6.12 and ftrace-mux"
do for [i=0:2] {
	set title word("messaging files gzip", i + 1)
	plot dat index i using 2:xtic(1) lc rgb "#d62728" title "upstream", \
	     '' index i using 3 lc rgb "#1f77b4" title "ftrace-mux"
	unset ylabel
}
unset multiplot
