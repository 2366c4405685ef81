# history.gp - one metric of one machine over nightly runs, one line per
# cell, relative to the cell's median over all nights; change points marked.
# Variables: fmt, out, data (blocks per cell, headed by its short name;
# columns night YYYYMMDD, percent), nblocks, xstep (seconds between x
# tics), xmin, xmax (the x range, seconds since the epoch), cp
# (change-point file: night, percent; '' for none), ttl, sub (a second
# title line), ylab.
load 'report/style.gp'
set title ttl . "\n{/*0.8 " . sub . "}" font ',15'
set xdata time
set timefmt "%Y%m%d"
set format x "%m-%d"
set xtics xstep
set mxtics 1
set xrange [xmin:xmax]
unset xlabel
set ylabel ylab
# The legend goes below the plot, so that the plot keeps its width
# whatever the number of cells and the length of their names (the x axis
# is named in the second title line). Points shrink from the first line
# to the third, so that equal lines show each other's points.
set key below center horizontal maxrows 3
cmd = "plot for [i=0:nblocks-1] data index i using 1:2 with linespoints lt (i+1) ps (i < 3 ? 1.8 - 0.4 * i : 0.9) title columnheader(1)"
if (cp ne '') {
	cmd = cmd . ", cp using 1:2 with points pt 6 ps 3.5 lw 3 lc rgb '#cc0000' title 'change point'"
}
eval cmd
