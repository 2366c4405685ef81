# metrics.sh - sourced by report/mkreport: which metric each part of the
# report shows, in this one place, until the metric registry says it.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the lists are read by the files mkreport sources

# The nightly history, one plot per machine and metric, in this order: the
# metrics the nightly's verdicts rest on (scripts/configs/nightly), then
# information that only sgabench's own work moves.
report_history_verdict="accesses-per-cpu-s-best first-touch-faults sga-pte-bytes"
report_history_info="accesses-per-cpu-s dTLB-load-misses"
# Load noise: these move with the load of the machine, whatever sgabench
# does (README, scripts/configs/nightly), so a night-to-night plot of them
# would show the machine's other jobs. Never plotted over nights; the page
# names them and how to see them (sgabench history --metric).
report_load_noise="accesses-per-s wall-s startup-s window-s task-clock pagetables-delta-bytes pte-bytes"

# The kernels page, when scripts/configs/kernel (the kernel suite) does not
# name its metrics: exact counts and the phases the suite times.
report_kernel_metrics="first-touch-faults sga-pte-bytes startup-s window-s"

# The machines section: the first of these measured on the most machines.
# Speeds per CPU second and exact counts only: no load noise.
report_fleet_metrics="accesses-per-cpu-s-best first-touch-faults sga-pte-bytes"

# SGA scaling, one plot each: METRIC:MODE:NAME, MODE total (all tasks) or
# per-task (the value divided by the tasks).
report_scaling_plots="sga-pte-bytes:total:scaling-sgapte pagetables-delta-bytes:per-task:scaling-pagetables first-touch-faults:total:scaling-faults pte-bytes:per-task:scaling-vmpte wall-s:total:scaling-time"
# Fewer runs than this behind a point, and the plot says how many.
report_small_n=5

# The A/A noise table leaves these out: system-wide quantities that every
# other process on the machine moves, so a floor says nothing about a cell.
noise_system_wide="pagetables-delta-bytes"
