#!/usr/bin/env bash
# SWMR appends of 64-byte records (issue 10's record contract), Quire's SWMR writer against libhdf5 1.10.8's
# (H5Fstart_swmr_write through Debian's own Java binding, JNI) in the same JVM and the same run: appends/s at
# batch 1, 64 and 1,024 (chunks of 1,024 records, flush after every batch) for each chunk index (extensible array,
# v2 B-tree; Quire's skip list, Quire only), bytes written per appended byte, flush-to-visible latency with 2
# reader processes, and random single-record lookups (file open, and open + read + close).
#   benchmarks/swmr-append.sh [ROUNDS=4] [RECORDS_1=20000] [RECORDS_64=262144] [RECORDS_1024=1048576] [VISIBLE=2000]
# Files go to $QUIRE_BENCH_DIR (default benchmarks/target/bench-data) and are deleted. Needs libhdf5-java and
# libslf4j-java (scripts/install-deps.sh). Prints the conditions, then Markdown tables (about 30 s per round).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-4}
records_1=${2:-20000}
records_64=${3:-262144}
records_1024=${4:-1048576}
visible=${5:-2000}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
bench_jar=benchmarks/target/quire-benchmarks.jar
class_path="$bench_jar:benchmarks/target/lib/*:/usr/share/java/jarhdf5.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar"
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
if [[ ! -f $bench_jar ]]; then
  mvn -B -q -DskipTests package
fi
results=$(mktemp)
trap 'rm -f "$results" "$directory"/append-*.h5* "$directory"/refresh-*.h5* "$directory"/visible-*.h5*' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- libhdf5: $(dpkg-query -W -f='libhdf5-java ${Version}' libhdf5-java), $(dpkg-query -W -f='libhdf5-103-1 ${Version}' libhdf5-103-1 2>/dev/null || true)"
echo "- parameters: rounds $rounds, records per run $records_1 (batch 1), $records_64 (batch 64), $records_1024 (batch 1,024); visibility: $visible records, one per ms, 2 readers"
echo

echo "swmr-append: $rounds rounds" >&2
java -cp "$class_path" org.quire.benchmarks.swmr.SwmrAppendBenchmark "$directory" "$rounds" "$records_1" \
  "$records_64" "$records_1024" "$visible" >"$results"

python3 - "$results" "$rounds" <<'PY'
import sys, statistics, collections
results, rounds = sys.argv[1], sys.argv[2]
rates, cpu_rates = collections.defaultdict(list), collections.defaultdict(list)
wchar, seam = collections.defaultdict(list), collections.defaultdict(list)
lookups, visible = collections.defaultdict(list), collections.defaultdict(list)
refreshes = collections.defaultdict(list)
for line in open(results):
    kind, *fields = line.split()
    f = dict(x.split("=") for x in fields)
    if kind == "append":
        key = (f["library"], f["index"], int(f["batch"]))
        appended = int(f["records"]) * 64
        rates[key].append(int(f["records"]) / float(f["seconds"]))
        cpu_rates[key].append(int(f["records"]) / max(float(f["cpu_seconds"]), 1e-9))
        wchar[key].append(int(f["wchar"]) / appended)
        if int(f["seam"]) >= 0:
            seam[key].append(int(f["seam"]) / appended)
    elif kind == "lookup":
        lookups[(f["library"], f["index"], f["mode"])].append((int(f["p50_ns"]), int(f["p99_ns"])))
    elif kind == "refresh":
        refreshes[(f["library"], f["index"])].append((int(f["unchanged_ns"]), int(f["changed_ns"]), int(f["read_newest_ns"])))
    elif kind == "visible":
        visible[(f["library"], f["index"])].append((int(f["p50_ns"]), int(f["p99_ns"]), int(f["samples"]), int(f["bad"])))
med = statistics.median
def cell(values, fmt="{:,.0f}"):
    m = fmt.format(med(values))
    return m if len(values) == 1 else f"{m} ({fmt.format(min(values))}–{fmt.format(max(values))})"
names = {"ea": "extensible array", "bt2": "v2 B-tree", "skiplist": "skip list (Quire only)"}
quire_indexes = ("ea", "bt2", "skiplist")
# Quire's skip list has no libhdf5 twin: it is compared with libhdf5's extensible array, the index libhdf5
# gives a dataset with one unlimited dimension.
twin = {"ea": "ea", "bt2": "bt2", "skiplist": "ea"}
goals = {1: 5.0, 64: 1.5, 1024: 1.0}

print(f"### Appends (records/s, median and range of {rounds} rounds; flush after every batch)")
print()
print("Wall time of the append calls; in the last columns the same per second of the writing thread's CPU time "
      "(user and system, the libraries' own work: far less disturbed by other load than wall time).")
print()
print("| chunk index | batch | Quire | libhdf5 | Quire / libhdf5 | goal | Quire per CPU s | libhdf5 per CPU s | Quire / libhdf5 (CPU) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for index in quire_indexes:
    for batch in (1, 64, 1024):
        q, h = rates[("quire", index, batch)], rates[("libhdf5", twin[index], batch)]
        qc, hc = cpu_rates[("quire", index, batch)], cpu_rates[("libhdf5", twin[index], batch)]
        label = names[index] + ("" if twin[index] == index else " vs libhdf5's extensible array")
        print(f"| {label} | {batch:,} | {cell(q)} | {cell(h)} | {med(q) / med(h):.2f} | ≥ {goals[batch]} | "
              f"{cell(qc)} | {cell(hc)} | {med(qc) / med(hc):.2f} |")
print()
print("### Bytes written per appended byte (median of the rounds; goal ≤ 1.1)")
print()
print("Quire: through its storage seam (file and flush journal) and `/proc/self/io` `wchar`; libhdf5: `wchar` "
      "(every byte the process passed to write calls while appending; close not included).")
print()
print("| chunk index | batch | Quire (seam) | Quire (wchar) | libhdf5 (wchar) |")
print("|---|---:|---:|---:|---:|")
for index in quire_indexes:
    for batch in (1, 64, 1024):
        h = wchar.get(("libhdf5", index, batch))
        hcell = f"{med(h):,.2f}" if h else "–"
        print(f"| {names[index]} | {batch:,} | {med(seam[('quire', index, batch)]):,.2f} | "
              f"{med(wchar[('quire', index, batch)]):,.2f} | {hcell} |")
print()
print(f"### Flush-to-visible latency, batch 1, one record per ms, 2 reader processes (µs; median over {rounds} rounds × 2 readers)")
print()
print("Latency of an observation: the reader's `System.nanoTime()` when `refresh` showed a larger extent, minus "
      "the newest visible record's `t_ns` (stamped by the writer just before its extend, write and flush).")
print()
print("| chunk index | library | p50 | p99 | observations per reader | bad records | p50 / libhdf5 |")
print("|---|---|---:|---:|---:|---:|---:|")
for index in quire_indexes:
    for library in ("quire", "libhdf5"):
        v = visible.get((library, index))
        if not v:
            continue
        base = visible[("libhdf5", twin[index])]
        ratio = med([x[0] for x in v]) / med([x[0] for x in base])
        print(f"| {names[index]} | {library} | {cell([x[0] / 1000 for x in v], '{:,.1f}')} | "
              f"{cell([x[1] / 1000 for x in v], '{:,.1f}')} | {med([x[2] for x in v]):,.0f} | "
              f"{sum(x[3] for x in v)} | {ratio:.2f} |")
print()
print(f"### What a reader's refresh costs (CPU µs of the reading thread, median of {rounds} rounds)")
print()
print("Beside the writer in one thread: `refresh` with nothing committed, `refresh` right after the writer appended "
      "one record, and reading that record after it.")
print()
print("| chunk index | library | refresh, nothing new | refresh, one record new | read the new record | new record / libhdf5 |")
print("|---|---|---:|---:|---:|---:|")
for index in quire_indexes:
    for library in ("quire", "libhdf5"):
        r = refreshes.get((library, index))
        if not r:
            continue
        base = refreshes[("libhdf5", twin[index])]
        m = lambda xs, i: med([x[i] for x in xs]) / 1000
        print(f"| {names[index]} | {library} | {m(r, 0):,.2f} | {m(r, 1):,.2f} | {m(r, 2):,.2f} | "
              f"{(m(r, 1) + m(r, 2)) / (m(base, 1) + m(base, 2)):.2f} |")
print()
print(f"### Random single-record lookup (µs, median of the rounds' p50 and p99)")
print()
print("| chunk index | library | warm p50 | warm p99 | reopen p50 | reopen p99 | warm / libhdf5 | reopen / libhdf5 |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for index in quire_indexes:
    for library in ("quire", "libhdf5"):
        w, r = lookups.get((library, index, "warm")), lookups.get((library, index, "reopen"))
        if not w:
            continue
        bw, br = lookups[("libhdf5", twin[index], "warm")], lookups[("libhdf5", twin[index], "reopen")]
        m = lambda xs, i: med([x[i] for x in xs]) / 1000
        print(f"| {names[index]} | {library} | {m(w, 0):,.1f} | {m(w, 1):,.1f} | {m(r, 0):,.1f} | {m(r, 1):,.1f} | "
              f"{m(w, 0) / m(bw, 0):.2f} | {m(r, 0) / m(br, 0):.2f} |")
PY
