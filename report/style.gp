# style.gp - the terminal and the look shared by every report plot.
# The caller sets fmt ('svg' or 'png') and out (the output file).
if (fmt eq 'svg') {
	set terminal svg size 900,540 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
	set terminal pngcairo size 900,540 enhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out
set datafile separator "\t"
set datafile missing "NaN"
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1 dt 1
set border 3 lw 1.2
set tics nomirror
set key box opaque samplen 3 spacing 1.15 width 1
set linetype 1 lc rgb '#1f5fa8' lw 2 pt 7 ps 1.1
set linetype 2 lc rgb '#d2691e' lw 2 pt 5 ps 1.1
set linetype 3 lc rgb '#2e8b57' lw 2 pt 9 ps 1.3
set linetype 4 lc rgb '#8b1a8b' lw 2 pt 11 ps 1.3
set linetype 5 lc rgb '#555555' lw 2 pt 13 ps 1.2
set linetype 6 lc rgb '#b22222' lw 2 pt 15 ps 1.2
set linetype 7 lc rgb '#00868b' lw 2 pt 3 ps 1.2
set linetype 8 lc rgb '#8b7500' lw 2 pt 1 ps 1.2
set linetype 9 lc rgb '#e6007e' lw 2 pt 2 ps 1.2
set linetype 10 lc rgb '#6a5acd' lw 2 pt 4 ps 1.2
set linetype 11 lc rgb '#9acd32' lw 2 pt 6 ps 1.2
set linetype 12 lc rgb '#000000' lw 2 pt 8 ps 1.2
