#!/usr/bin/env bash
# README command (a): install what is missing, build, and run the main job: the collectives
# demo on 4 ranks (separate JVMs over MPJ Express), which prints pi from rank 0.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
mvn -B -q -DskipTests package
./quire run -n "${RANKS:-4}" -cp examples/target/quire-examples.jar org.quire.examples.CollectivesDemo "$@"
