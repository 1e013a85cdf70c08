#!/usr/bin/env bash
# Why N writers into one file are slower than N writers into N files when the data stays in the
# page cache, apart from any SION library: N `dd` processes write MIB_PER_WRITER MiB each in
# writes of WRITE_KIB KiB, either each into its own file or each into its own range of one shared
# file (conv=notrunc, seek), then read the same bytes back from the page cache; interleaved,
# REPEATS rounds. Then the same writes run once more, untimed, under `perf record` of the kernel's
# lock-contention tracepoints, and the script counts, for these dd processes only (run under the
# name lock-writer), how often and how long they waited for a read-write semaphore taken in
# ext4_buffered_write_iter (the inode's i_rwsem, which ext4 takes for writing around every
# buffered write).
#   benchmarks/shared-file-lock.sh [REPEATS=3] [MIB_PER_WRITER=256] [WRITERS="2 4"] [WRITE_KIB=64]
# Needs root and perf (Debian's linux-perf); files go to $QUIRE_BENCH_DIR (default
# benchmarks/target/bench-data) and are deleted after each step.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repeats=${1:-3}
mib=${2:-256}
writers_list=${3:-"2 4"}
kib=${4:-64}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
command -v perf >/dev/null || { echo "shared-file-lock: perf is missing: apt-get install linux-perf" >&2; exit 1; }
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
trace=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$trace" "$rows" "$directory"/lock.* "$directory"/lock-writer' EXIT
count=$((mib * 1024 / kib))
# dd under its own name, so that the trace tells its waits from those of any other dd on the machine
writer=$directory/lock-writer
cp "$(command -v dd)" "$writer"

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- parameters: repeats $repeats, $mib MiB per writer, writers $writers_list, $kib KiB writes"
echo

writers() { # layout n op: start n dd processes, wait for all
  local layout=$1 n=$2 op=$3 i file offset
  for ((i = 0; i < n; i++)); do
    if [[ $layout == shared ]]; then file=$directory/lock.shared offset=$((i * count)); else file=$directory/lock.own.$i offset=0; fi
    if [[ $op == write ]]; then
      "$writer" if=/dev/zero of="$file" bs="${kib}K" count="$count" seek="$offset" conv=notrunc status=none &
    else
      "$writer" if="$file" of=/dev/null bs="${kib}K" count="$count" skip="$offset" status=none &
    fi
  done
  wait
}

for ((r = 0; r < repeats; r++)); do
  for n in $writers_list; do
    for layout in own shared; do
      sync
      start=$(date +%s%N)
      writers "$layout" "$n" write
      end=$(date +%s%N)
      write_seconds=$(((end - start) / 1000))e-6
      start=$(date +%s%N)
      writers "$layout" "$n" read
      end=$(date +%s%N)
      echo "$layout read $n $(((end - start) / 1000))e-6 0 0" >>"$rows"
      rm -f "$directory"/lock.*
      sync
      # the same writes again, untimed, under perf: how often dd waited for the inode's rwsem
      perf record -q -o "$trace" -e lock:contention_begin -e lock:contention_end -a -g -- \
        bash -c "$(declare -p directory count kib writer); $(declare -f writers); writers $layout $n write" 2>/dev/null
      # lock-writer's contention_begin events in a down_write called by ext4_buffered_write_iter,
      # and the time from each to the same thread's contention_end
      read -r waits wait_ms < <(perf script -i "$trace" -F comm,tid,time,event,ip,sym 2>/dev/null \
        | awk -v comm='^lock-writer$' -f benchmarks/rwsem-waits.awk)
      echo "$layout write $n $write_seconds $waits $wait_ms" >>"$rows"
      rm -f "$directory"/lock.*
    done
  done
done

echo "## $kib KiB writes and reads through the page cache, own files vs one shared file (median of $repeats, MiB/s)"
echo
python3 - "$rows" "$mib" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
mib = int(sys.argv[2])
for line in open(sys.argv[1]):
    layout, op, n, seconds, waits, wait_ms = line.split()
    rows[(op, int(n), layout)].append((int(n) * mib / float(seconds), int(waits), int(wait_ms)))
print("| operation | processes | own files MiB/s (min–max) | one shared file MiB/s (min–max) | shared / own |"
      " i_rwsem waits in ext4_buffered_write_iter, own / shared (median) | time waited, own / shared (ms, median) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for op in ("write", "read"):
    for n in sorted({k[1] for k in rows if k[0] == op}):
        own, shared = rows[(op, n, "own")], rows[(op, n, "shared")]
        def cell(runs):
            rates = [r[0] for r in runs]
            return f"{statistics.median(rates):,.0f} ({min(rates):,.0f}–{max(rates):,.0f})"
        def med(runs, i):
            return f"{statistics.median(r[i] for r in runs):,.0f}"
        ratio = statistics.median(r[0] for r in shared) / statistics.median(r[0] for r in own)
        waits = f"{med(own, 1)} / {med(shared, 1)}" if op == "write" else "—"
        waited = f"{med(own, 2)} / {med(shared, 2)}" if op == "write" else "—"
        print(f"| {op} | {n} | {cell(own)} | {cell(shared)} | {ratio:.2f} | {waits} | {waited} |")
PY
