#!/usr/bin/env bash
# Write and read bandwidth of one shared SION container (SionParallelWriter/Reader, N ranks as N
# JVMs under `quire run`) against file-per-process (the same JVMs, each rank its own file) and
# against one `dd` of the same total, all in the same run, interleaved per repeat; then the cost
# of the collective open and close against the number of tasks (in-JVM groups).
#   benchmarks/sion-bandwidth.sh [REPEATS=3] [MIB_PER_RANK=256] [RANKS="1 2 4 8"] [WRITE_KIB="64 4096"]
#                                [CHUNK_MIB=16] [TASKS="1 64 1024 16384"]
# Files go to $QUIRE_BENCH_DIR (default benchmarks/target/bench-data) and are deleted after each
# step. Needs root to drop the page cache before cold reads (the table says when it could not).
# Prints the conditions, then two Markdown tables of medians over REPEATS runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repeats=${1:-3}
mib_per_rank=${2:-256}
ranks_list=${3:-"1 2 4 8"}
write_kib_list=${4:-"64 4096"}
chunk_mib=${5:-16}
tasks_list=${6:-"1 64 1024 16384"}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
bench_jar=benchmarks/target/quire-benchmarks.jar
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
if [[ ! -f $bench_jar || ! -f launcher/target/quire-launcher.jar ]]; then
  mvn -B -q -DskipTests package
fi
results=$(mktemp)
trap 'rm -f "$results"; rm -f "$directory"/bandwidth.*' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- parameters: repeats $repeats, $mib_per_rank MiB per rank, ranks $ranks_list, write sizes $write_kib_list KiB,"\
  "requested SION chunk $chunk_mib MiB, open/close task counts $tasks_list"
echo

drop_page_cache() { sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; }

timed_dd() { # label ranks write_bytes total_bytes dd-arguments...
  local label=$1 n=$2 w=$3 total=$4 start end
  shift 4
  start=$(date +%s%N)
  dd "$@" bs="$w" status=none
  end=$(date +%s%N)
  echo "dd $label $n $w $total $(((end - start) / 1000))e-6" >>"$results"
}

dd_run() { # ranks write_bytes
  local n=$1 w=$2 total count file=$directory/bandwidth.dd
  total=$((n * mib_per_rank * 1048576))
  count=$((total / w))
  sync
  timed_dd write_fsync "$n" "$w" "$total" if=/dev/zero of="$file" count="$count" conv=fsync
  if drop_page_cache; then
    timed_dd read_cold "$n" "$w" "$total" if="$file" of=/dev/null
  fi
  timed_dd read_warm "$n" "$w" "$total" if="$file" of=/dev/null
  rm -f "$file"
  sync
  timed_dd write "$n" "$w" "$total" if=/dev/zero of="$file" count="$count"
  rm -f "$file"
  sync
}

for ((r = 0; r < repeats; r++)); do
  for n in $ranks_list; do
    for kib in $write_kib_list; do
      w=$((kib * 1024))
      echo "sion-bandwidth: repeat $r, $n ranks, $kib KiB writes" >&2
      out=$(timeout 1800 ./quire run -n "$n" --jvm-opt=-Xmx512m -cp "$bench_jar" org.quire.benchmarks.SionBandwidth \
        "$directory" $((mib_per_rank * 1048576)) "$w" $((chunk_mib * 1048576)) "$r" 2>&1) || { echo "$out" >&2; exit 1; }
      sed -n 's/^\[0\] result method=\(\S*\) op=\(\S*\) ranks=\(\S*\) write_size=\(\S*\) bytes=\(\S*\) seconds=\(\S*\)$/\1 \2 \3 \4 \5 \6/p' \
        <<<"$out" >>"$results"
      dd_run "$n" "$w"
    done
  done
done

echo "## Bandwidth: SION container vs file-per-process vs dd (MiB/s, median and range of $repeats runs)"
echo
python3 - "$results" <<'PY'
import sys, statistics, collections
mibs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    method, op, n, w, total, seconds = line.split()
    mibs[(op, int(n), int(w), method)].append(int(total) / 1048576 / float(seconds))
ops = [("write_fsync", "write + fsync"), ("write", "write, no fsync"), ("read_cold", "read, cache dropped"),
       ("read_warm", "read, page cache")]
def cell(values):
    middle = f"{statistics.median(values):,.0f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):,.0f}–{max(values):,.0f})"
print("| operation | ranks | write size | SION MiB/s (min–max) | file-per-process MiB/s (min–max) | dd MiB/s (min–max) |"
      " SION / fpp | SION / dd |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for op, label in ops:
    for n, w in sorted({(k[1], k[2]) for k in mibs if k[0] == op}):
        runs = {method: mibs[(op, n, w, method)] for method in ("sion", "fpp", "dd") if mibs[(op, n, w, method)]}
        if len(runs) < 3:
            continue
        m = {method: statistics.median(values) for method, values in runs.items()}
        size = f"{w // 1048576} MiB" if w >= 1048576 else f"{w // 1024} KiB"
        print(f"| {label} | {n} | {size} | {cell(runs['sion'])} | {cell(runs['fpp'])} | {cell(runs['dd'])} | "
              f"{m['sion'] / m['fpp']:.2f} | {m['sion'] / m['dd']:.2f} |")
PY
if ! grep -q ' read_cold ' "$results"; then
  echo
  echo "Dropping the page cache was refused: every read above came from the page cache."
fi

echo
echo "## Collective open and close against the number of tasks (median of $repeats)"
echo
tasks_csv=$(tr ' ' , <<<"$tasks_list")
echo "sion-bandwidth: collective open and close" >&2
(ulimit -n 65536 2>/dev/null || true
 java -Xss256k -cp "$bench_jar:benchmarks/target/lib/*" org.quire.benchmarks.SionOpenCloseCost \
   "$directory" "$repeats" "$tasks_csv" "$tasks_csv") >"$results"
python3 - "$results" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith("result "):
        fields = dict(f.split("=") for f in line.split()[1:])
        rows[(fields["world"], int(fields["tasks"]))].append(fields)
print("| group | tasks | open µs | close µs | gathered at rank 0, open / close (B) | sent by rank 0, open (B) |"
      " gathers open / close | META1+META2 (B) | file size (B) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (world, tasks), runs in rows.items():
    open_us = statistics.median(float(r["open_us"]) for r in runs)
    close_us = statistics.median(float(r["close_us"]) for r in runs)
    r = runs[0]
    print(f"| {world} | {tasks:,} | {open_us:,.0f} | {close_us:,.0f} | {int(r['open_gathered']):,} / "
          f"{int(r['close_gathered']):,} | {int(r['open_sent']):,} | {r['open_gathers']} / {r['close_gathers']} | "
          f"{int(r['metadata_bytes']):,} | {int(r['file_bytes']):,} |")
PY
