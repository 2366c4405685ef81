# machines.gp - the same cells across machine fingerprints: clustered bars,
# one cluster per cell, one bar per machine.
# Variables: fmt, out, data (header row: cell, then one column per
# machine; rows: cell short name, value per machine or NaN), ncols, ttl, ylab.
load 'report/style.gp'
set title ttl font ',15'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel ylab
set xlabel "cell"
set yrange [0:*]
set xtics rotate by -20 left
set key top left
set grid noxtics ytics
set bmargin 6
plot for [i=2:ncols] data using i:xtic(1) lt (i-1) title columnheader(i)
