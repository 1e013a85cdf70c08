#!/usr/bin/env bash
# Buffered SION writes of N ranks (threads of one JVM, org.quire.benchmarks.SionWriteProbe) into one
# shared container, into a SION set of one physical file per rank (fileCount = ranks, SIONlib's
# multi-file mode) and into plain files of their own, each run under perf counting how often a rank
# waited for a file's inode lock in ext4_buffered_write_iter (benchmarks/rwsem-waits.awk), in
# interleaved rounds (odd rounds reverse the order). No fsync: the writes end in the page cache.
#   benchmarks/sion-write-lock.sh [ROUNDS=3] [MIB_PER_RANK=256] [RANKS="2 4"] [WRITE_KIB=64]
# Needs perf and root (kernel tracepoints). Files go to $QUIRE_BENCH_DIR (default
# benchmarks/target/bench-data) and are deleted after each run. Prints every run and a table of medians.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-3}
mib=${2:-256}
ranks_list=${3:-"2 4"}
kib=${4:-64}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
command -v perf >/dev/null || { echo "sion-write-lock: perf is missing: apt-get install linux-perf" >&2; exit 1; }
if [[ ! -f benchmarks/target/quire-benchmarks.jar ]]; then
  mvn -B -q -DskipTests package
fi
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
trace=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$trace" "$rows"' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- parameters: rounds $rounds, $mib MiB per rank, ranks $ranks_list, $kib KiB writes, no fsync"
echo

for ((r = 0; r < rounds; r++)); do
  for n in $ranks_list; do
    layouts=(shared perrank own)
    if ((r % 2)); then layouts=(own perrank shared); fi
    for layout in "${layouts[@]}"; do
      sync
      result=$(perf record -q -o "$trace" -e lock:contention_begin -e lock:contention_end -g -- \
        java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -Xmx512m \
        -cp "benchmarks/target/quire-benchmarks.jar:benchmarks/target/lib/*" org.quire.benchmarks.SionWriteProbe \
        "$directory" "$n" "$mib" "$kib" "$layout" 2>/dev/null)
      read -r waits wait_ms < <(perf script -i "$trace" -F comm,tid,time,event,ip,sym 2>/dev/null \
        | awk -v comm='^rank-' -f benchmarks/rwsem-waits.awk)
      echo "$result waits=$waits waited_ms=$wait_ms load=$(cut -d' ' -f1 /proc/loadavg)" | sed 's/^result //' | tee -a "$rows"
    done
  done
done

echo
echo "## $kib KiB buffered writes: one SION file, SION file per rank, own plain files (median and range of $rounds)"
echo
python3 - "$rows" <<'PY'
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    fields = dict(f.split("=") for f in line.split())
    runs[(int(fields["ranks"]), fields["layout"])].append(fields)
def cell(values, digits=0):
    return f"{statistics.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"
titles = {"shared": "SION, one file", "perrank": "SION, file per rank", "own": "own plain files"}
print("| ranks | layout | MiB/s open to close | writes ms | writes CPU ms (largest rank) | open ms | close ms |"
      " inode-lock waits | ms waited |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for n, layout in sorted(runs, key=lambda k: (k[0], list(titles).index(k[1]))):
    rs = runs[(n, layout)]
    rate = [int(r["bytes"]) / 1048576 / float(r["seconds"]) for r in rs]
    ms = lambda key: [float(r[key]) * 1000 for r in rs]
    print(f"| {n} | {titles[layout]} | {cell(rate)} | {cell(ms('data'))} | {cell(ms('data_cpu'), 1)} | {cell(ms('open'))} |"
          f" {cell(ms('close'))} | {cell([int(r['waits']) for r in rs])} | {cell([int(r['waited_ms']) for r in rs])} |")
PY
