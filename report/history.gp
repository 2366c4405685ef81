# history.gp - one metric over nightly runs, one line per cell, relative to
# the cell's median over all nights; change points marked.
# Variables: fmt, out, data (blocks per cell, headed by its short name;
# columns night YYYYMMDD, percent), nblocks, xstep (seconds between x
# tics), cp (change-point file: night,
# percent; '' for none), ttl, ylab.
load 'report/style.gp'
set title ttl font ',15'
set xdata time
set timefmt "%Y%m%d"
set format x "%m-%d"
set xtics xstep
set xrange [*:*] noextend
set offsets 43200, 43200, 0, 0
set xlabel "night (month-day, UTC)"
set ylabel ylab
set key outside right top
set rmargin 34
cmd = "plot for [i=0:nblocks-1] data index i using 1:2 with linespoints lt (i+1) title columnheader(1)"
if (cp ne '') {
	cmd = cmd . ", cp using 1:2 with points pt 6 ps 3.5 lw 3 lc rgb '#cc0000' title 'change point'"
}
eval cmd
