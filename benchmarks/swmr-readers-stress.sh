#!/usr/bin/env bash
# One SWMR writer and four readers at once for SECONDS (issue 10, item 7; docs/swmr.md,
# "Crash safety"): SwmrAppend appends records of the record contract (batches of BATCH, each
# flushed) for SECONDS, then closes the file, while two Quire readers (SwmrFollow, each its own
# JVM, following until no writer is alive) and two h5py SWMR readers (swmr_follow.py, until
# nothing new appeared for 10 s) check every record they see. Each reader must have checked
# every record the writer appended, none torn, a fill value or out of order, and no extent may
# shrink; h5dump then reads the closed file's last record.
#   benchmarks/swmr-readers-stress.sh SECONDS [BATCH=10]
# The file goes to $QUIRE_BENCH_DIR (default benchmarks/target/swmr-readers) and is deleted at
# the end. $QUIRE_CLASSPATH replaces the built jars (SwmrFollowIT passes its class path).
# Prints the writer's line, each reader's JSON line, then the summary; exit 1 on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ $# -lt 1 || ! $1 =~ ^[1-9][0-9]*$ || ( $# -gt 1 && ! ${2:-} =~ ^[1-9][0-9]*$ ) ]]; then
  echo "usage: benchmarks/swmr-readers-stress.sh SECONDS [BATCH=10]" >&2
  exit 2
fi
seconds=$1
batch=${2:-10}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/swmr-readers}
if ! /usr/bin/python3 -c "import h5py, numpy" 2>/dev/null || ! command -v h5dump >/dev/null; then
  echo "swmr-readers-stress: needs python3-h5py and h5dump (hdf5-tools): scripts/install-deps.sh" >&2
  exit 2
fi
if [[ -z ${QUIRE_CLASSPATH:-} && ! -f examples/target/quire-examples.jar ]]; then
  mvn -B -q -DskipTests -pl examples -am package
fi
class_path=${QUIRE_CLASSPATH:-examples/target/quire-examples.jar:launcher/target/lib/*}
mkdir -p "$directory"
file=$(cd "$directory" && pwd)/readers-$$.h5
out=$(mktemp -d)
trap 'rm -rf "$out" "$file" "$file".*' EXIT
timeout=$((seconds + 120))

java -cp "$class_path" org.quire.examples.swmr.SwmrFollow "$file" records --timeout "$timeout" >"$out/quire-1.json" &
quire1=$!
java -cp "$class_path" org.quire.examples.swmr.SwmrFollow "$file" records --timeout "$timeout" >"$out/quire-2.json" &
quire2=$!
/usr/bin/python3 examples/src/main/python/swmr_follow.py "$file" records --idle 10 --timeout "$timeout" >"$out/h5py-1.json" &
h5py1=$!
/usr/bin/python3 examples/src/main/python/swmr_follow.py "$file" records --idle 10 --timeout "$timeout" >"$out/h5py-2.json" &
h5py2=$!
status=0
java -cp "$class_path" org.quire.examples.swmr.SwmrAppend "$file" records 1000000000000 "$batch" \
  --seconds "$seconds" >"$out/writer.txt" || status=1
cat "$out/writer.txt"
for pid in $quire1 $quire2 $h5py1 $h5py2; do
  wait "$pid" || status=1
done
for reader in quire-1 quire-2 h5py-1 h5py-2; do
  echo "$reader: $(cat "$out/$reader.json")"
done
dump=$(h5dump -d /records -s "$(( $(sed -E 's/^appended ([0-9]+) records.*/\1/' "$out/writer.txt") - 1 ))" -c 1 "$file" 2>&1) || status=1

/usr/bin/python3 - "$out" "$status" "$seconds" "$dump" <<'PY' || exit 1
import json, re, sys
out, status, seconds, dump = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
writer = open(out + "/writer.txt").read().strip()
match = re.match(r"appended (\d+) records \(seq 0\.\.\d+\) to .* in (\d+) flushes", writer)
if not match:
    sys.exit("swmr-readers: FAILED: the writer printed %r" % writer)
records, flushes = int(match.group(1)), int(match.group(2))
failures = [] if status == 0 else ["a process exited with an error"]
names = ["quire-1", "quire-2", "h5py-1", "h5py-2"]
readers = {}
for name in names:
    try:
        readers[name] = json.loads(open(out + "/" + name + ".json").read())
    except ValueError:
        failures.append(name + " printed no JSON line")
        continue
    r = readers[name]
    if r["error"] is not None or r["records"] != records or r["ok"] != records:
        failures.append("%s checked %s of %d records ok (error %s)" % (name, r["ok"], records,
                                                                      r["error"]))
bad = {k: sum(r[k] for r in readers.values()) for k in ("torn", "fill", "out_of_order", "shrinks")}
failures += ["%d %s observations" % (n, k) for k, n in bad.items() if n]
if not re.search(r"\(%d\): \{\s+%d," % (records - 1, records - 1), dump):
    failures.append("h5dump did not show record %d: %s" % (records - 1, dump[-300:]))
extents = "/".join(str(readers[n]["extents_seen"]) for n in names if n in readers)
retries = "/".join(str(readers[n]["read_retries"]) for n in names if n in readers)
verdict = "FAILED: " + "; ".join(failures) if failures else "ok"
print("swmr-readers: %s s, 1 writer (%d records in %d flushes), 4 readers (2 SwmrFollow, 2 h5py "
      "swmr=True) each checked every record: torn %d, fill %d, out of order %d, shrinks %d; "
      "extents seen %s, read retries %s; %s" % (seconds, records, flushes, bad["torn"],
      bad["fill"], bad["out_of_order"], bad["shrinks"], extents, retries, verdict))
sys.exit(1 if failures else 0)
PY
