#!/usr/bin/env bash
# The heat example's scaling test (docs/heat.md, "Scaling"): HeatDiffusion under quire run on
# 1, 2, 4 and 8 ranks, strong and weak scaling; writes heat-scaling/heat-scaling.csv and .png and
# prints a table. Arguments go to HeatScaling (--help lists them). Build first:
# mvn -B -DskipTests package (scripts/demo.sh does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ ! -f examples/target/quire-examples.jar || ! -d examples/target/lib ]]; then
  echo "scale.sh: not built yet: run 'mvn -B -DskipTests package' first" >&2
  exit 70
fi
exec java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -cp "examples/target/quire-examples.jar:examples/target/lib/*" \
  org.quire.examples.heat.HeatScaling --quire ./quire "$@"
