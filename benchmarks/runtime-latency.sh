#!/usr/bin/env bash
# Start-up time and collective latency of `quire run` over MPJ Express and Hazelcast, with
# MPJ Express's own `mpjrun` (multicore) running the same worker in the same run as the baseline.
#   benchmarks/runtime-latency.sh [REPEATS=3] [ITERATIONS=2000]
#   benchmarks/runtime-latency.sh --report RESULTS     (the table again from a run's results file)
# Prints a Markdown table: per engine and rank count, the median over REPEATS runs of each run's
# median (per-iteration slowest rank), the ratio to mpjrun and the range over the REPEATS runs.
# Start-up = from launching the command to the latest rank past its first barrier. Each run's
# results are kept in benchmarks/target/runtime-latency.txt. Build first: mvn -B -DskipTests package.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
main=org.quire.benchmarks.CollectiveLatency
bench_jar=benchmarks/target/quire-benchmarks.jar
mpj_cp="$(echo launcher/target/lib/*.jar | tr ' ' :):$bench_jar"

run_once() { # engine ranks
  local engine=$1 n=$2 start out
  start=$(date +%s%3N)
  case $engine in
    mpjrun) out=$(mpjrun -np "$n" -cp "$mpj_cp" "$main" "$iterations" 2>&1) ;;
    *) out=$(./quire run -n "$n" --transport "$engine" -cp "$bench_jar" "$main" "$iterations" 2>&1 | sed 's/^\[0\] //') ;;
  esac
  local ready
  ready=$(grep -o 'ready_epoch_ms=[0-9]*' <<<"$out" | cut -d= -f2)
  echo "$engine $n startup_ms $((ready - start))" >>"$results"
  grep '^op=' <<<"$out" | while read -r op _ _ median _; do
    echo "$engine $n ${op#op=} ${median#median_us=}" >>"$results"
  done
}

report() { # results file
python3 - "$1" <<'PY'
import sys, statistics, collections
values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    engine, n, metric, value = line.split()
    values[(engine, int(n), metric)].append(float(value))
metrics = ["startup_ms", "barrier", "allreduce_8B", "bcast_1KiB", "gather_8B", "allgather_8B"]
print("| engine | ranks | " + " | ".join(m if m == "startup_ms" else m + " µs" for m in metrics) + " |")
print("|---|---|" + "---|" * len(metrics))
for n in (2, 4, 8):
    for engine, label in (("mpjrun", "mpjrun (baseline, threads)"), ("mpj", "quire run, MPJ niodev"),
                          ("hazelcast", "quire run, Hazelcast")):
        cells = []
        for m in metrics:
            runs = values[(engine, n, m)]
            v = statistics.median(runs)
            base = statistics.median(values[("mpjrun", n, m)])
            spread = f" [{min(runs):.0f}–{max(runs):.0f}]"
            cells.append(f"{v:.0f}{spread}" if engine == "mpjrun" else f"{v:.0f} ({v / base:.1f}x){spread}")
        print(f"| {label} | {n} | " + " | ".join(cells) + " |")
PY
}

if [[ ${1:-} == --report ]]; then
  report "$2"
  exit 0
fi
repeats=${1:-3}
iterations=${2:-2000}
results=benchmarks/target/runtime-latency.txt
: >"$results"
for n in 2 4 8; do
  for ((r = 0; r < repeats; r++)); do
    for engine in mpjrun mpj hazelcast; do run_once "$engine" "$n"; done
  done
done
report "$results"
