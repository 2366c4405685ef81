# cover.gp - the cover-letter figure: rounds against dTLB-load-misses,
# log-log, normal vs shared context; the published 2016 points, the TLB
# model and native runs (when the machine has a PMU).
# Variables: fmt, out, dir (data directory), model (model backend name,
# '' for none), native (1 when native points exist), note (a line shown
# bottom right, e.g. why native points are missing).
load 'report/style.gp'
set title "dTLB-load-misses against rounds, 2 tasks on one shared mapping" font ',15'
set xlabel "rounds (one access to every page of the working set per round)"
set ylabel "dTLB-load-misses (count, both tasks)"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [0.5:2e6]
set key top left
pub = dir . '/cover-published.tsv'
cmd = "plot pub using 1:2 with points lt 1 pt 7 ps 1.5 title 'published 2016 (UltraSPARC T2 = Niagara 2), normal', " . \
      "pub using 1:3 with points lt 2 pt 7 ps 1.5 title 'published 2016, shared context'"
if (note ne '') { set label 1 note at graph 0.98, graph 0.04 right font ',11' tc rgb '#555555' }
if (model ne '') {
	cmd = cmd . ", dir.'/cover-model.tsv' using 1:2 with linespoints lt 1 dt 2 pt 6 ps 1.8 title 'model (" . model . "), normal'" . \
	            ", dir.'/cover-model.tsv' using 1:3 with linespoints lt 2 dt 2 pt 4 ps 1.8 title 'model (" . model . "), shared context'"
}
if (native) {
	cmd = cmd . ", dir.'/cover-native.tsv' using 1:2 with linespoints lt 3 pt 9 title 'native (this machine), normal'" . \
	            ", dir.'/cover-native.tsv' using 1:3 with linespoints lt 4 pt 11 title 'native (this machine), shared context'"
}
eval cmd
