#!/usr/bin/env bash
# README command (a): install what is missing, build, and run the main job (docs/heat.md): 2-D heat
# diffusion on a 1024 x 1024 grid, 4 ranks (separate JVMs over MPJ Express) to step 100 with a SION
# checkpoint every 50 steps and per-step HDF5 diagnostics followed in situ by the last rank; then
# the same job continued from its latest checkpoint on 3 ranks to step 200, checked bitwise against
# an uninterrupted serial run. Files go to demo-run/ (cleared first).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install-deps.sh
echo "==> building (mvn -B -q -DskipTests package)"
mvn -B -q -DskipTests package
run=demo-run
# All of it, the Slurm runs' files of the README included: the heat job refuses an earlier run's files.
rm -rf "$run"
mkdir -p "$run"
heat=(-cp examples/target/quire-examples.jar org.quire.examples.heat.HeatDiffusion --checkpoint-every 50
      --dir "$run/checkpoints" --diagnostics "$run/heat.h5")

echo "==> 1/3 heat diffusion on 4 ranks to step 100, checkpoints every 50 steps; rank 3 follows $run/heat.h5 in situ"
./quire run -n 4 "${heat[@]}" --steps 100 --in-situ

echo "==> 2/3 restart from the latest checkpoint on 3 ranks, on to step 200, then the bitwise check (--verify)"
./quire run -n 3 "${heat[@]}" --steps 200 --restart --verify

echo "==> 3/3 the diagnostics of both runs in one HDF5 file (last 2 of 200 rows)"
./quire h5 dump "$run/heat.h5" /diagnostics --slice 198:200
echo "==> done: checkpoints in $run/checkpoints, diagnostics in $run/heat.h5 (docs/heat.md)"
