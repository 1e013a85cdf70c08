#!/usr/bin/env bash
# Where `quire run -n N`'s time to its first barrier goes (org.quire.benchmarks.StartupPhases).
#   benchmarks/startup-phases.sh [N=8] [REPEATS=3] [quire run options, e.g. --transport hazelcast]
# Per phase, the median over REPEATS runs of: the earliest and the latest rank to reach its end, in
# ms after the command was launched, and the median rank's process CPU ms used by then.
# Build first: mvn -B -DskipTests package.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ranks=${1:-8}
repeats=${2:-3}
shift $(($# < 2 ? $# : 2))
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ((r = 0; r < repeats; r++)); do
  launched=$(date +%s%3N)
  ./quire run -n "$ranks" "$@" -cp benchmarks/target/quire-benchmarks.jar org.quire.benchmarks.StartupPhases \
    "$launched" 2>&1 | grep -o 'phase=.*' >>"$results"
done
python3 - "$results" "$ranks" <<'PY'
import sys, statistics, collections
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    fields = dict(field.split("=") for field in line.split())
    for key in ("earliest_ms", "latest_ms", "cpu_ms_by_then"):
        runs[fields["phase"]][key].append(int(fields[key]))
print(f"| phase ({sys.argv[2]} ranks) | earliest rank ms | latest rank ms | CPU ms per rank by then |")
print("|---|---|---|---|")
for phase, keys in runs.items():
    print(f"| {phase} | " + " | ".join(f"{statistics.median(v):.0f}" for v in keys.values()) + " |")
PY
