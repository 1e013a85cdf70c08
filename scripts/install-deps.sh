#!/usr/bin/env bash
# Installs what Quire's build, examples and tests need on a Debian 12 machine, and nothing that
# is already there: JDK 17 and Maven, MPJ Express (libmpj-java), HDF5 tools and h5py (test
# oracles), Debian's HDF5 Java binding and the slf4j-api it needs (benchmark baseline), Slurm
# and munge (a one-node cluster for the Slurm tests). Needs root, or sudo. Safe to run again.
set -euo pipefail

packages=(
  openjdk-17-jdk-headless maven
  libmpj-java liblog4j1.2-java libcommons-cli-java libcommons-codec-java libcommons-io-java
  hdf5-tools python3-h5py libhdf5-java libslf4j-java
  slurm-wlm munge
  procps
)

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else echo "install-deps: need root (or sudo) to run: $*" >&2; exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} > 0 )); then
  echo "install-deps: installing ${missing[*]}" >&2
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's libmpj-java names log4j and commons-* in its jars' Class-Path relative to
# /usr/share/mpj/lib but does not put them there, so `mpjrun` fails with NoClassDefFoundError
# (org/apache/log4j/Layout). Link them where MPJ Express looks (docs/launcher.md).
for j in log4j-1.2 commons-cli commons-codec commons-io; do
  if [[ ! -e /usr/share/mpj/lib/$j.jar ]]; then
    as_root ln -sf "/usr/share/java/$j.jar" "/usr/share/mpj/lib/$j.jar"
  fi
done
