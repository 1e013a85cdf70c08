#!/usr/bin/env bash
# Start-up time and collective latency of `quire run` over MPJ Express and Hazelcast, with
# MPJ Express's own `mpjrun` running the same worker in the same run as two baselines: the
# multicore device (ranks are threads of one JVM) and niodev (N JVMs over loopback sockets, started
# by MPJ's own daemon, which this script starts and stops).
#   benchmarks/runtime-latency.sh [REPEATS=3] [ITERATIONS=2000]
#   benchmarks/runtime-latency.sh --report RESULTS     (the table again from a run's results file)
# Prints a Markdown table: per engine and rank count, the median over REPEATS runs of each run's
# median (per-iteration slowest rank), the ratio to mpjrun multicore, for Quire's MPJ engine also the
# ratio to mpjrun niodev (same device, so it isolates Quire's own cost), and the range over the runs.
# Start-up = from launching the command to the latest rank past its first barrier. Each run's
# results are kept in benchmarks/target/runtime-latency.txt. Build first: mvn -B -DskipTests package.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
main=org.quire.benchmarks.CollectiveLatency
bench_jar=benchmarks/target/quire-benchmarks.jar
mpj_cp="$(echo "$PWD"/launcher/target/lib/*.jar | tr ' ' :):$PWD/$bench_jar"

# MPJ's daemon binds its fixed ports (40055, 40052; mpjrun's rendezvous 40002) on every interface and
# has no option to bind loopback only. It therefore runs in a private network namespace holding only
# a loopback interface (unshare, util-linux), and each `mpjrun -dev niodev` enters that namespace:
# nothing outside the machine can reach it, and the fixed ports cannot clash with the host's.
start_mpj_daemon() {
  niodev_dir=$(mktemp -d)
  echo localhost >"$niodev_dir/machines" # mpjrun reads ./machines
  MPJ_HOME=/usr/share/mpj unshare --net --map-root-user \
    sh -c 'ip link set lo up && exec java -cp /usr/share/mpj/lib/daemon.jar runtime.daemon.MPJDaemon 40055' \
    >"$niodev_dir/daemon.log" 2>&1 &
  daemon_pid=$!
  local waited
  for ((waited = 0; waited < 300; waited++)); do
    if in_daemon_namespace bash -c 'exec 3<>/dev/tcp/127.0.0.1/40055' 2>/dev/null; then return; fi
    if ! kill -0 "$daemon_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "runtime-latency.sh: MPJ's daemon did not start listening in its network namespace:" >&2
  cat "$niodev_dir/daemon.log" >&2
  exit 1
}
in_daemon_namespace() { nsenter --target "$daemon_pid" --net --user --preserve-credentials "$@"; }
stop_mpj_daemon() {
  if [[ -n ${daemon_pid:-} ]]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  if [[ -n ${niodev_dir:-} ]]; then rm -rf "$niodev_dir"; fi
}

run_once() { # engine ranks
  local engine=$1 n=$2 start out
  start=$(date +%s%3N)
  case $engine in
    mpjrun) out=$(mpjrun -np "$n" -cp "$mpj_cp" "$main" "$iterations" 2>&1) ;;
    mpjrun-niodev)
      out=$(cd "$niodev_dir" && in_daemon_namespace mpjrun -np "$n" -dev niodev -cp "$mpj_cp" "$main" "$iterations" 2>&1) ;;
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
    for engine, label in (("mpjrun", "mpjrun multicore (baseline, threads)"),
                          ("mpjrun-niodev", "mpjrun niodev (baseline, processes)"),
                          ("mpj", "quire run, MPJ niodev"), ("hazelcast", "quire run, Hazelcast")):
        cells = []
        for m in metrics:
            runs = values[(engine, n, m)]
            if not runs:  # a results file from before the niodev baseline
                cells.append("–")
                continue
            v = statistics.median(runs)
            ratios = [v / statistics.median(values[(base, n, m)])
                      for base in (("mpjrun", "mpjrun-niodev") if engine == "mpj" else ("mpjrun",))
                      if base != engine and values[(base, n, m)]]
            spread = f" [{min(runs):.0f}–{max(runs):.0f}]"
            shown = " (" + " / ".join(f"{r:.1f}x" for r in ratios) + ")" if ratios else ""
            cells.append(f"{v:.0f}{shown}{spread}")
        print(f"| {label} | {n} | " + " | ".join(cells) + " |")
print("\nRatios in parentheses: to mpjrun multicore; for `quire run, MPJ niodev` to mpjrun multicore / to mpjrun niodev.")
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
trap stop_mpj_daemon EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
start_mpj_daemon
for n in 2 4 8; do
  for ((r = 0; r < repeats; r++)); do
    for engine in mpjrun mpjrun-niodev mpj hazelcast; do run_once "$engine" "$n"; done
  done
done
report "$results"
