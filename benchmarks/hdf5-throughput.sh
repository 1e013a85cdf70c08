#!/usr/bin/env bash
# Quire's HDF5 against libhdf5 1.10.8 (Debian's own Java binding, JNI) in the same JVM and the
# same run: write and read throughput of one chunked float64 dataset (fixed array and extensible
# array chunk index; timed loops, median of REPEATS), then single-element lookup latency on the
# files written and on a deflate-compressed copy of the first 128 MiB (JMH, sample mode: median and p99).
#   benchmarks/hdf5-throughput.sh [REPEATS=3] [MIB=1024] [CHUNK_KIB=1024] [JMH_FORKS=1]
# Files go to $QUIRE_BENCH_DIR (default benchmarks/target/bench-data) and are deleted at the end.
# Needs libhdf5-java and libslf4j-java (scripts/install-deps.sh), and root to drop the page cache
# before cold reads (the table says when it could not). Prints the conditions, then Markdown tables.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repeats=${1:-3}
mib=${2:-1024}
chunk_kib=${3:-1024}
jmh_forks=${4:-1}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
bench_jar=benchmarks/target/quire-benchmarks.jar
class_path="$bench_jar:benchmarks/target/lib/*:/usr/share/java/jarhdf5.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar"
jmh_options=(-f "$jmh_forks" ${QUIRE_JMH_OPTIONS:--wi 3 -w 1s -i 5 -r 1s})
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
if [[ ! -f $bench_jar ]]; then
  mvn -B -q -DskipTests package
fi
results=$(mktemp)
jmh_json=$(mktemp)
trap 'rm -f "$results" "$jmh_json" "$directory"/fixed-*.h5 "$directory"/extensible-*.h5 "$directory"/deflate-*.h5 "$directory"/*-plain.bin' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- libhdf5: $(dpkg-query -W -f='libhdf5-java ${Version}' libhdf5-java), $(dpkg-query -W -f='libhdf5-103-1 ${Version}' libhdf5-103-1 2>/dev/null || true)"
echo "- parameters: repeats $repeats, dataset $mib MiB of float64, chunk $chunk_kib KiB, JMH ${jmh_options[*]}"
echo

echo "hdf5-throughput: write and read, $repeats repeats" >&2
java -cp "$class_path" org.quire.benchmarks.hdf5.Hdf5Throughput "$directory" "$mib" "$repeats" "$chunk_kib" >"$results"
echo "hdf5-throughput: lookups (JMH)" >&2
java -cp "$class_path" org.openjdk.jmh.Main Hdf5LookupBenchmark -p directory="$directory" "${jmh_options[@]}" \
  -rf json -rff "$jmh_json" >&2

python3 - "$results" "$jmh_json" "$repeats" <<'PY'
import sys, json, statistics, collections
results, jmh_json, repeats = sys.argv[1], sys.argv[2], sys.argv[3]
mibs = collections.defaultdict(list)
indexes = {}
for line in open(results):
    kind, *fields = line.split()
    fields = dict(f.split("=") for f in fields)
    if kind == "result":
        key = (fields["op"], fields["layout"], fields["library"], fields["file"])
        mibs[key].append(int(fields["bytes"]) / 1048576 / float(fields["seconds"]))
    elif kind == "index":
        indexes[(fields["layout"], fields["file"])] = fields["type"]
median = {k: statistics.median(v) for k, v in mibs.items()}
def cell(values):
    middle = f"{statistics.median(values):,.0f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):,.0f}–{max(values):,.0f})"
layouts = ("fixed", "extensible")

print(f"### Write (MiB/s, median and range of {repeats} runs)")
print()
print("| chunk index | operation | Quire | libhdf5 | plain file, no HDF5 | Quire / libhdf5 | plain / libhdf5 |")
print("|---|---|---:|---:|---:|---:|---:|")
for layout in layouts:
    for op, label in (("write", "create … close"), ("write_fsync", "create … close + fsync")):
        q, h = median[(op, layout, "quire", "quire")], median[(op, layout, "libhdf5", "libhdf5")]
        index = indexes.get((layout, "quire"), "?") + " / " + indexes.get((layout, "libhdf5"), "?")
        p = median.get((op, layout, "plain", "plain"))
        plain = cell(mibs[(op, layout, "plain", "plain")]) if p else "–"
        plain_ratio = f"{p / h:.2f}" if p else "–"
        print(f"| {layout} ({index}) | {label} | {cell(mibs[(op, layout, 'quire', 'quire')])} | "
              f"{cell(mibs[(op, layout, 'libhdf5', 'libhdf5')])} | {plain} | {q / h:.2f} | {plain_ratio} |")
print()
print(f"### Read, whole dataset one chunk per call (MiB/s, median of {repeats})")
print()
print("| chunk index | reader | file written by | cache dropped | page cache | ratio to libhdf5 on its own file (dropped / cache) |")
print("|---|---|---|---:|---:|---:|")
for layout in layouts:
    for reader in ("quire", "libhdf5"):
        for writer in ("quire", "libhdf5"):
            cells, ratios = [], []
            for op in ("read_cold", "read_warm"):
                v = median.get((op, layout, reader, writer))
                base = median.get((op, layout, "libhdf5", "libhdf5"))
                cells.append(f"{v:,.0f}" if v else "–")
                ratios.append(f"{v / base:.2f}" if v and base else "–")
            print(f"| {layout} | {reader} | {writer} | {cells[0]} | {cells[1]} | {ratios[0]} / {ratios[1]} |")
    cells, ratios = [], []
    for op in ("read_cold", "read_warm"):
        v = median.get((op, layout, "plain", "plain"))
        base = median.get((op, layout, "libhdf5", "libhdf5"))
        cells.append(f"{v:,.0f}" if v else "–")
        ratios.append(f"{v / base:.2f}" if v and base else "–")
    print(f"| {layout} | plain file, no HDF5 | plain | {cells[0]} | {cells[1]} | {ratios[0]} / {ratios[1]} |")
print()
print("### Random single-element lookup, file open, page cache warm (JMH sample mode, µs)")
print()
runs = json.load(open(jmh_json))
latency = {}
for run in runs:
    p = run["params"]
    percentiles = run["primaryMetric"]["scorePercentiles"]
    latency[(p["layout"], p["reader"], p["writer"])] = (percentiles["50.0"], percentiles["99.0"],
                                                         run["primaryMetric"]["scoreUnit"])
print("| dataset | reader | file written by | median µs | p99 µs | median / libhdf5 on its own file (cache / no cache) |")
print("|---|---|---|---:|---:|---:|")
for layout in layouts + ("deflate",):
    cached = latency.get((layout, "libhdf5", "libhdf5"))
    uncached = latency.get((layout, "libhdf5-nocache", "libhdf5"))
    for reader in ("quire", "libhdf5", "libhdf5-nocache"):
        for writer in ("quire", "libhdf5"):
            if (layout, reader, writer) not in latency:
                continue
            p50, p99, unit = latency[(layout, reader, writer)]
            assert unit == "us/op", unit
            ratios = " / ".join(f"{p50 / base[0]:.2f}" if base else "–" for base in (cached, uncached))
            print(f"| {layout} | {reader} | {writer} | {p50:,.1f} | {p99:,.1f} | {ratios} |")
PY
if grep -q '^note drop_caches refused' "$results"; then
  echo
  echo "Dropping the page cache was refused: every read above came from the page cache."
fi
