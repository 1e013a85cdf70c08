#!/usr/bin/env bash
# SIGKILLs an SWMR writer (SwmrAppend, its own JVM) KILLS times at seeded random moments and
# checks every killed file (issue 10, item 6; docs/swmr.md, "Crash safety"): Quire's and
# h5py's SWMR readers see every record the writer reported flushed, all intact, nothing past
# the last commit; after `quire h5 clear` plain h5dump and plain h5py read them all; half the
# rounds restart the writer on the killed file. The same rounds as SwmrKillIT (20 kills), at
# scale: org.quire.examples.swmr.SwmrKillRounds.
#   benchmarks/swmr-kill-stress.sh [KILLS=1000] [SEED=random]
# Files go to $QUIRE_BENCH_DIR (default benchmarks/target/swmr-kill) and are deleted at the
# end (a failed round's are kept). Prints one line per round, then the summary line; exit 1
# on the first failure (the seed repeats the run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
kills=${1:-1000}
seed=${2:-$RANDOM$RANDOM}
directory=${QUIRE_BENCH_DIR:-benchmarks/target/swmr-kill}
if ! /usr/bin/python3 -c "import h5py, numpy" 2>/dev/null || ! command -v h5dump >/dev/null; then
  echo "swmr-kill-stress: needs python3-h5py and h5dump (hdf5-tools): scripts/install-deps.sh" >&2
  exit 2
fi
if [[ ! -f launcher/target/quire-launcher-tests.jar || ! -d examples/target/test-classes ]]; then
  mvn -B -q -DskipTests -pl launcher,examples -am package
fi
mkdir -p "$directory"
exec java -cp "examples/target/test-classes:examples/target/classes:launcher/target/quire-launcher-tests.jar:launcher/target/quire-launcher.jar:launcher/target/lib/*" \
  org.quire.examples.swmr.SwmrKillRounds "$directory" "$kills" "$seed"
