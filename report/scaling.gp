# scaling.gp - one SGA-scaling metric against the number of tasks, one line
# per page size and alignment (median, with min-max bars).
# Variables: fmt, out, data (blocks, one per layout, each headed by its
# name; columns tasks, median, min, max), nblocks, ttl, sub (a second
# title line: how many runs), ylab, div (unit divisor), logy (1 for a log
# y axis; else linear, with the zero line drawn when it is in range),
# keybelow (optional: 1 puts the legend under the plot, where the x
# label was: sub names the x axis then).
# Points shrink from the first line to the third, so that equal lines
# show each other's points.
load 'report/style.gp'
set title ttl . "\n{/*0.8 " . sub . "}" font ',15'
set xlabel "tasks attached to the SGA"
set ylabel ylab
set logscale x 2
if (logy) { set logscale y; set format y "%g" } else { set xzeroaxis lt -1 lw 1 }
set xrange [0.8:*]
if (exists("keybelow") && keybelow) { set key below center horizontal maxrows 4; unset xlabel } else { set key top left }
plot for [i=0:nblocks-1] data index i using 1:($2/div):($3/div):($4/div) with yerrorlines lt (i+1) ps (i < 3 ? 1.8 - 0.4 * i : 0.9) title columnheader(1)
