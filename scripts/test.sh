#!/usr/bin/env bash
# README command (b): install what is missing, then build and run the whole test suite: unit
# tests of every module, and the multi-process tests (real JVMs, MPJ Express, Hazelcast, mpjrun,
# h5dump/h5py/jHDF) of `mvn verify`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
mvn -B verify "$@"
