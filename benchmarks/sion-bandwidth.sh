#!/usr/bin/env bash
# Write and read bandwidth of one shared SION container written by Quire (SionParallelWriter/Reader,
# N ranks as N JVMs under `quire run`) against the same container written by SIONlib's own C
# library (sion_paropen_mpi, N MPI processes under OpenMPI's mpirun), against file-per-process (the
# same JVMs each writing its own file, and the C program doing the same with pwrite(2)), against
# one plain file shared by the C ranks (each its own range, pwrite: the kernel's price of sharing a
# file, apart from any format) and against one `dd` of the same total, all in the same run,
# interleaved per repeat; then the cost of the collective open and close against the number of
# tasks (in-JVM groups).
#   SIONLIB_HOME=DIR benchmarks/sion-bandwidth.sh [REPEATS=3] [MIB_PER_RANK=256] [RANKS="1 2 4 8"]
#                                [WRITE_KIB="64 4096"] [CHUNK_MIB=16] [TASKS="1 64 1024 16384"]
# SIONLIB_HOME is an installation of SIONlib 1.7.6 with its MPI API (bin/sionconfig,
# lib/liblsionmpi_64.a), built from SIONlib's public source (e.g. the ikitayama/sionlib repository on
# GitHub) with its own configure for OpenMPI; this script does not build SIONlib. SIONLIB_HOME=none
# leaves the C program out (the SIONlib C, C fpp and C shared file columns). SIONLIB_FS_BLOCK_SIZE (default -1: SIONlib takes the file system's
# block size) is passed to sion_paropen_mpi. OpenMPI (mpicc, mpirun) comes from Debian's
# libopenmpi-dev and openmpi-bin, which the script installs with apt-get when they are missing and
# it runs as root. Before timing, a check writes a container with each library and reads it with
# the other (every task's bytes compared). SION_MULTIFILE=1 adds a Quire method (its own column
# "Quire SION, file per rank") writing the same data as a SION set of one physical file per rank
# (SIONlib's multi-file mode) in the same JVM jobs.
# Files go to $QUIRE_BENCH_DIR (default benchmarks/target/bench-data) and are deleted after each
# step. Needs root to drop the page cache before cold reads (the table says when it could not).
# Prints the conditions, then two Markdown tables of medians over REPEATS runs; every timed step
# is also kept in benchmarks/target/sion-bandwidth-steps.txt.
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
sionlib_home=${SIONLIB_HOME:?set SIONLIB_HOME to an MPI-enabled SIONlib 1.7.6 installation (see the top of this script), or to none to leave the C program out}
sionlib_fs_block_size=${SIONLIB_FS_BLOCK_SIZE:--1}
quire_methods=()
if [[ ${SION_MULTIFILE:-0} == 1 ]]; then quire_methods=(multifile); fi
sionlib_bench=benchmarks/target/c/sionlib-bandwidth
mpirun_args=(--oversubscribe)
if [[ $(id -u) == 0 ]]; then mpirun_args+=(--allow-run-as-root); fi
if [[ $sionlib_home != none ]]; then
  if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
      echo "sion-bandwidth: INSTALLING OpenMPI (Debian packages libopenmpi-dev openmpi-bin) for the SIONlib C benchmark" >&2
      apt-get install -y -q libopenmpi-dev openmpi-bin >&2
    else
      echo "sion-bandwidth: mpicc/mpirun missing: install Debian's libopenmpi-dev and openmpi-bin (or set SIONLIB_HOME=none)" >&2
      exit 1
    fi
  fi
  if [[ ! -x $sionlib_home/bin/sionconfig || ! -f $sionlib_home/lib/liblsionmpi_64.a ]]; then
    echo "sion-bandwidth: $sionlib_home is not an MPI-enabled SIONlib installation (bin/sionconfig and lib/liblsionmpi_64.a expected)" >&2
    exit 1
  fi
  sionconfig=$sionlib_home/bin/sionconfig
  mkdir -p "$(dirname "$sionlib_bench")"
  # shellcheck disable=SC2046 # sionconfig prints several flags
  mpicc -O2 -Wall -std=c11 $("$sionconfig" --mpi --cflags --c) benchmarks/src/main/c/sionlib-bandwidth.c \
    -o "$sionlib_bench" $("$sionconfig" --mpi --libs --c)
fi
# One line per timed step (method op ranks write_size bytes seconds), kept after the run, and its
# phases (open, data, close: the slowest rank's time in each).
results=benchmarks/target/sion-bandwidth-steps.txt
phases=benchmarks/target/sion-bandwidth-phases.txt
: >"$results"
: >"$phases"
open_close=$(mktemp)
trap 'rm -f "$open_close"; rm -f "$directory"/bandwidth.* "$directory"/check.*' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- parameters: repeats $repeats, $mib_per_rank MiB per rank, ranks $ranks_list, write sizes $write_kib_list KiB,"\
  "requested SION chunk $chunk_mib MiB, open/close task counts $tasks_list"
if [[ $sionlib_home != none ]]; then
  echo "- SIONlib: $("$sionlib_home"/bin/sionversion 2>&1 | head -1), fs block size passed: $sionlib_fs_block_size;"\
    "$(mpirun --version | head -1)"
fi
echo

if [[ $sionlib_home != none ]]; then
  # Both libraries must write the same thing: 3 ranks, 3 chunks each, every task's bytes compared.
  check_bytes=$((3 * 1048576)) check_write=65536 check_chunk=1048576
  mpirun "${mpirun_args[@]}" -n 3 "$sionlib_bench" --check-write "$directory/check.sionlib" $check_bytes $check_write $check_chunk
  ./quire run -n 3 -cp "$bench_jar" org.quire.benchmarks.SionInteropCheck "$directory/check.quire" \
    "$directory/check.sionlib" $check_bytes $check_write $check_chunk | sed -n 's/^\[0\] //p'
  mpirun "${mpirun_args[@]}" -n 3 "$sionlib_bench" --check-read "$directory/check.quire" $check_bytes $check_write
  rm -f "$directory"/check.*
  echo
fi

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
        "$directory" $((mib_per_rank * 1048576)) "$w" $((chunk_mib * 1048576)) "$r" "${quire_methods[@]}" 2>&1) || { echo "$out" >&2; exit 1; }
      sed -n 's/^\[0\] result method=\(\S*\) op=\(\S*\) ranks=\(\S*\) write_size=\(\S*\) bytes=\(\S*\) seconds=\(\S*\)$/\1 \2 \3 \4 \5 \6/p' \
        <<<"$out" >>"$results"
      sed -n 's/^\[0\] phases //p' <<<"$out" >>"$phases"
      if [[ $sionlib_home != none ]]; then
        out=$(timeout 1800 mpirun "${mpirun_args[@]}" -n "$n" "$sionlib_bench" "$directory" $((mib_per_rank * 1048576)) \
          "$w" $((chunk_mib * 1048576)) "$r" "$sionlib_fs_block_size" 2>&1) || { echo "$out" >&2; exit 1; }
        sed -n 's/^result method=\(\S*\) op=\(\S*\) ranks=\(\S*\) write_size=\(\S*\) bytes=\(\S*\) seconds=\(\S*\)$/\1 \2 \3 \4 \5 \6/p' \
          <<<"$out" >>"$results"
        sed -n 's/^phases //p' <<<"$out" >>"$phases"
      fi
      dd_run "$n" "$w"
    done
  done
done

echo "## Bandwidth: Quire's SION vs SIONlib's C vs file-per-process vs dd (MiB/s, median and range of $repeats runs)"
echo
python3 - "$results" <<'PY'
import sys, statistics, collections
mibs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    method, op, n, w, total, seconds = line.split()
    mibs[(op, int(n), int(w), method)].append(int(total) / 1048576 / float(seconds))
ops = [("write_fsync", "write + fsync"), ("write", "write, no fsync"), ("read_cold", "read, cache dropped"),
       ("read_warm", "read, page cache")]
columns = [("sion", "Quire SION"), ("sionmf", "Quire SION, file per rank"), ("sionlib", "SIONlib C"),
           ("fpp", "Java fpp"), ("cfpp", "C fpp"), ("cshared", "C shared file"), ("dd", "dd")]
columns = [(method, title) for method, title in columns if any(k[3] == method for k in mibs)]
ratios = [(a, b) for a, b in [("sion", "sionlib"), ("sion", "cfpp"), ("sion", "fpp"), ("sionlib", "cfpp"),
                              ("cshared", "cfpp"), ("sion", "dd"), ("sionmf", "fpp"), ("sionmf", "cfpp")]
          if a in dict(columns) and b in dict(columns)]
short = {"sion": "Quire", "sionmf": "Quire file per rank", "sionlib": "SIONlib", "fpp": "Java fpp", "cfpp": "C fpp", "cshared": "C shared", "dd": "dd"}
def cell(values):
    middle = f"{statistics.median(values):,.0f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):,.0f}–{max(values):,.0f})"
print("| operation | ranks | write size | " + " | ".join(f"{title} MiB/s (min–max)" for _, title in columns) + " | "
      + " | ".join(f"{short[a]} / {short[b]}" for a, b in ratios) + " |")
print("|---|---:|---:|" + "---:|" * (len(columns) + len(ratios)))
for op, label in ops:
    for n, w in sorted({(k[1], k[2]) for k in mibs if k[0] == op}):
        runs = {method: mibs[(op, n, w, method)] for method, _ in columns}
        if not all(runs.values()):
            continue
        m = {method: statistics.median(values) for method, values in runs.items()}
        size = f"{w // 1048576} MiB" if w >= 1048576 else f"{w // 1024} KiB"
        print(f"| {label} | {n} | {size} | " + " | ".join(cell(runs[method]) for method, _ in columns) + " | "
              + " | ".join(f"{m[a] / m[b]:.2f}" for a, b in ratios) + " |")
PY
if grep -q '^sionlib ' "$results"; then
  echo
  echo "## Goals of issue 13, item 6: ratios within each round, median (min–max) over $repeats rounds"
  echo
  python3 - "$results" <<'PY'
import sys, statistics, collections
# the k-th line of (method, op, n, w) is round k; a ratio is taken within a round (same jobs, same
# minutes), then median and range over the rounds
seen = collections.Counter()
rate = {}
for line in open(sys.argv[1]):
    method, op, n, w, total, seconds = line.split()
    key = (method, op, int(n), int(w))
    rate[key + (seen[key],)] = int(total) / 1048576 / float(seconds)
    seen[key] += 1
rounds = max(seen.values())
ops = [("write_fsync", "write + fsync"), ("write", "write, no fsync"), ("read_cold", "read, cache dropped"), ("read_warm", "read, page cache")]
def ratios(a, b, op, n, w):
    return [rate[(a, op, n, w, r)] / rate[(b, op, n, w, r)] for r in range(rounds) if (a, op, n, w, r) in rate and (b, op, n, w, r) in rate]
def fmt(v, goal):
    if not v: return ""
    m = statistics.median(v)
    mark = "met" if m >= goal else "**not met**"
    return f"{m:.2f} ({min(v):.2f}–{max(v):.2f}) {mark}"
print("| operation | ranks | write size | Quire / SIONlib, goal ≥ 1.1 | Quire / C fpp, goal ≥ 0.95 | Quire / Java fpp | SIONlib / C fpp | C shared / C fpp |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for op, label in ops:
    for n, w in sorted({(k[2], k[3]) for k in seen if k[1] == op}):
        size = f"{w // 1048576} MiB" if w >= 1048576 else f"{w // 1024} KiB"
        q_sl = fmt(ratios("sion", "sionlib", op, n, w), 1.1) if op.startswith("write") else "—"
        def plain(a, b):
            v = ratios(a, b, op, n, w)
            return f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})" if v else ""
        print(f"| {label} | {n} | {size} | {q_sl} | {fmt(ratios('sion', 'cfpp', op, n, w), 0.95)} | {plain('sion','fpp')} | {plain('sionlib','cfpp')} | {plain('cshared','cfpp')} |")
PY
fi
echo
echo "## Where the time goes: open / data / close (ms, median of $repeats; each phase the slowest rank's)"
echo
python3 - "$phases" <<'PY'
import sys, statistics, collections
phases = collections.defaultdict(list)
for line in open(sys.argv[1]):
    fields = dict(f.split("=") for f in line.split())
    key = (fields["op"], int(fields["ranks"]), int(fields["write_size"]), fields["method"])
    phases[key].append([float(fields[p]) * 1000 for p in ("open", "data", "close")])
columns = [(m, t) for m, t in [("sion", "Quire SION"), ("sionmf", "Quire SION, file per rank"), ("sionlib", "SIONlib C"), ("fpp", "Java fpp"), ("cfpp", "C fpp"),
                               ("cshared", "C shared file")] if any(k[3] == m for k in phases)]
ops = [("write_fsync", "write + fsync"), ("write", "write, no fsync"), ("read_cold", "read, cache dropped"),
       ("read_warm", "read, page cache")]
print("| operation | ranks | write size | " + " | ".join(f"{t} open / data / close" for _, t in columns) + " |")
print("|---|---:|---:|" + "---:|" * len(columns))
for op, label in ops:
    for n, w in sorted({(k[1], k[2]) for k in phases if k[0] == op}):
        cells = []
        for method, _ in columns:
            runs = phases.get((op, n, w, method))
            cells.append(" / ".join(f"{statistics.median(r[i] for r in runs):,.1f}" for i in range(3)) if runs else "")
        size = f"{w // 1048576} MiB" if w >= 1048576 else f"{w // 1024} KiB"
        print(f"| {label} | {n} | {size} | " + " | ".join(cells) + " |")
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
   "$directory" "$repeats" "$tasks_csv" "$tasks_csv") >"$open_close"
python3 - "$open_close" <<'PY'
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
