# metrics.sh - sourced by report/mkreport: which metric each part of the
# report shows. Every list is read from the metric registry ('sgabench
# metrics': its plot and scope fields) and from the nightly and kernel
# configs; none is kept here. Event totals (task-clock, dTLB-load-misses) are not
# registry rows; the two the report names are the only literals.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the lists are read by the files mkreport sources
# shellcheck disable=SC2154 # top and SGABENCH come from mkreport and scripts/lib.sh

# registry_names FIELD=VALUE[,...]: the registry's names that match, in row order, on one line.
registry_names() {
	"$SGABENCH" metrics --names --where "$1" | tr '\n' ' ' | sed 's/ $//'
}

# The nightly history, one plot per machine and metric: first the metrics
# the nightly's verdicts rest on (SWEEP_METRICS of scripts/configs/nightly),
# then the other metrics the registry plots over nights, then the event
# dTLB-load-misses, for information; each group in the registry's row order.
nightly_verdict=$(config_load "$top/scripts/configs/nightly" >/dev/null && printf '%s' "$SWEEP_METRICS") ||
	die 1 "cannot read the nightly config's verdict metrics"
report_history_verdict=""
for m in $("$SGABENCH" metrics --names) $nightly_verdict; do
	case " $nightly_verdict " in *" $m "*) ;; *) continue ;; esac
	case " $report_history_verdict " in *" $m "*) continue ;; esac
	report_history_verdict="${report_history_verdict:+$report_history_verdict }$m"
done
report_history_info=""
for m in $(registry_names plot=history) dTLB-load-misses; do
	case " $report_history_verdict " in *" $m "*) continue ;; esac
	report_history_info="${report_history_info:+$report_history_info }$m"
done
# Load noise: what the machine's other jobs move whatever sgabench does
# (registry scope load or system, and the event task-clock). Never plotted
# over nights; the page names them and how to see them (sgabench history).
report_load_noise="$(registry_names scope=load) $(registry_names scope=system) task-clock"

# The kernels page: the kernel suite's verdict metrics (SWEEP_METRICS of
# scripts/configs/kernel), read as the harness reads a config (data, not
# a program).
report_kernel_metrics=$(config_load "$top/scripts/configs/kernel" >/dev/null && printf '%s' "$SWEEP_METRICS") ||
	die 1 "cannot read the kernel suite's metrics"

# The machines section: the first of these measured on the most machines.
report_fleet_metrics=$(registry_names plot=fleet)

# SGA scaling, one plot each: METRIC:MODE, MODE total (all tasks) or
# per-task (the value divided by the tasks), in the registry's row order.
report_scaling_plots=$("$SGABENCH" metrics --json |
	jq -r '[.metrics[] | select(.plot | any(. == "scaling" or . == "scaling-per-task")) |
		.name + ":" + (if (.plot | any(. == "scaling")) then "total" else "per-task" end)] | join(" ")')
# Fewer runs than this behind a point, and the plot says how many.
report_small_n=5

# The A/A noise table leaves these out: system-wide quantities that every
# other process on the machine moves, so a floor says nothing about a cell.
noise_system_wide=$(registry_names scope=system)
