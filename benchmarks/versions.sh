#!/usr/bin/env bash
# Versioned datasets (issue 11, item 6), Quire against versioned-hdf5 1.7.0 and h5py in one run:
# commit time, bytes and raw_data rows added when 0 %, 1 % and 100 % of a float64 dataset's 1 MiB
# chunks change (each version on the previous one); read throughput of one version, Quire and
# h5py each reading Quire's and versioned-hdf5's file, page cache warm, checksum checked; SHA-256
# chunk digest throughput, Quire's against the JDK's MessageDigest and Python's hashlib.
#   benchmarks/versions.sh [REPEATS=3] [MIB=1024]
# The plan of versions: org.quire.benchmarks.versioned.VersionPlan. Files go to $QUIRE_BENCH_DIR
# (default benchmarks/target/bench-data) and are deleted at the end. Needs /usr/bin/python3 with
# h5py and numpy, and versioned-hdf5 1.7.0 ($VERSIONED_HDF5_HOME, default
# ../shared/tools/versioned-hdf5-1.7.0 beside the repository). Prints the conditions, then Markdown tables.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repeats=${1:-3}
mib=${2:-1024}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/bench-data}
bench_jar=benchmarks/target/quire-benchmarks.jar
class_path="$bench_jar:benchmarks/target/lib/*"
java=(java -Xmx6g -cp "$class_path")
python=(/usr/bin/python3 benchmarks/versions_reference.py)
mkdir -p "$directory"
directory=$(cd "$directory" && pwd)
if [[ ! -f $bench_jar ]]; then
  mvn -B -q -DskipTests package
fi
results=$(mktemp)
trap 'rm -f "$results" "$directory"/quire.h5 "$directory"/versioned-hdf5.h5' EXIT

echo "## Conditions"
benchmarks/conditions.sh "$directory"
echo "- CPU SHA extensions: $(grep -q sha_ni /proc/cpuinfo && echo 'sha_ni present' || echo 'no sha_ni')"
echo "- Python: $(/usr/bin/python3 -c 'import sys, h5py, numpy; print("Python", sys.version.split()[0], "h5py", h5py.__version__, "libhdf5", h5py.version.hdf5_version, "numpy", numpy.__version__)'), versioned-hdf5 1.7.0"
echo "- parameters: repeats $repeats, dataset x of $mib MiB float64 (1-D), chunks of 131072 elements (1 MiB)"
echo

echo "versions: Quire commits" >&2
"${java[@]}" org.quire.benchmarks.versioned.VersionedCommits "$directory" "$mib" "$repeats" >>"$results"
echo "versions: versioned-hdf5 commits" >&2
"${python[@]}" commit "$directory/versioned-hdf5.h5" "$mib" "$repeats" >>"$results"
echo "versions: reads" >&2
files=(quire="$directory/quire.h5" versioned-hdf5="$directory/versioned-hdf5.h5")
"${java[@]}" org.quire.benchmarks.versioned.VersionedReads "$mib" "$repeats" "${files[@]}" >>"$results"
"${python[@]}" read "$mib" "$repeats" "${files[@]}" >>"$results"
echo "versions: digests" >&2
"${java[@]}" org.quire.benchmarks.versioned.ChunkDigestThroughput "$mib" "$repeats" >>"$results"
"${python[@]}" digest "$mib" "$repeats" >>"$results"

/usr/bin/python3 - "$results" "$repeats" <<'PY'
import sys, statistics, collections
results, repeats = sys.argv[1], sys.argv[2]
runs = collections.defaultdict(list)
for line in open(results):
    kind, *fields = line.split()
    if kind != "result":
        continue
    f = dict(x.split("=", 1) for x in fields)
    runs[f["op"], f.get("library") or f.get("reader") or f.get("impl"), f.get("version") or f.get("file") or ""].append(f)
def cell(values, form):
    middle = form.format(statistics.median(values))
    return middle if len(values) == 1 else f"{middle} ({form.format(min(values))}–{form.format(max(values))})"
def same(values):
    return f"{values[0]:,}" if len(set(values)) == 1 else "varies: " + ", ".join(f"{v:,}" for v in values)
labels = {"create": "create (100 %, on the empty version)", "untouched": "0 %, dataset not written",
          "same": "0 %, every chunk written with its own values", "one_percent": "1 % of chunks",
          "all": "100 % of chunks"}
print(f"### Commit (seconds, median and range of {repeats} runs; bytes and rows added to the file)")
print()
print("| version (changed chunks, on the previous version) | library | commit s | file bytes added | raw_data rows added | slots added | Quire / versioned-hdf5 time |")
print("|---|---|---:|---:|---:|---:|---:|")
for version, label in labels.items():
    for library in ("quire", "versioned-hdf5"):
        rs = runs[("commit", library, version)]
        if not rs:
            continue
        seconds = [float(r["seconds"]) for r in rs]
        rows = [int(r["rows_added"]) for r in rs]
        ratio = "–"
        if library == "quire" and runs[("commit", "versioned-hdf5", version)]:
            other = statistics.median(float(r["seconds"]) for r in runs[("commit", "versioned-hdf5", version)])
            ratio = f"{statistics.median(seconds) / other:.2f}"
        print(f"| {label} ({rs[0]['changed_chunks']} of {rs[0]['chunks']}) | {library} | {cell(seconds, '{:,.3f}')} | "
              f"{same([int(r['bytes_added']) for r in rs])} | {same(rows)} | {same([r // 131072 for r in rows])} | {ratio} |")
print()
print(f"### Read version one_percent, one chunk per call, page cache warm (MiB/s, median and range of {repeats})")
print()
print("| reader | file written by | MiB/s | ratio to h5py on versioned-hdf5's file |")
print("|---|---|---:|---:|")
def rates(key):
    return [int(r["bytes"]) / 1048576 / float(r["seconds"]) for r in runs[key]]
base = statistics.median(rates(("read", "h5py", "versioned-hdf5")))
for reader in ("quire", "h5py"):
    for writer in ("quire", "versioned-hdf5"):
        values = rates(("read", reader, writer))
        print(f"| {reader} | {writer} | {cell(values, '{:,.0f}')} | {statistics.median(values) / base:.2f} |")
print()
print(f"### SHA-256 digest of 1 MiB chunks (GB/s, 10^9 bytes, median and range of {repeats})")
print()
print("| implementation | GB/s | ratio to the JDK's MessageDigest |")
print("|---|---:|---:|")
def gbs(impl):
    return [int(r["bytes"]) / 1e9 / float(r["seconds"]) for r in runs[("digest", impl, "")]]
jdk = statistics.median(gbs("jdk"))
for impl, label in (("quire", "Quire's chunk digest (ChunkDigest.of)"), ("jdk", "JDK MessageDigest SHA-256"),
                    ("hashlib", "Python hashlib.sha256")):
    values = gbs(impl)
    print(f"| {label} | {cell(values, '{:.3f}')} | {statistics.median(values) / jdk:.2f} |")
PY
