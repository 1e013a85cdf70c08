"""Regenerates the committed h5py fixtures.

Runs each generator make_*.py of this directory (all of them, or the ones named) into the
directory named after it (make_h5py_fixtures.py -> make_h5py_fixtures/), replacing what was
there, and records in GENERATED_WITH.txt there the versions of Python, h5py, numpy and libhdf5
that made the files. The Java tests read those committed files; H5pyFixtureGeneratorsTest runs
this script into a temporary directory (--into) and compares the result with them.

usage: /usr/bin/python3 regenerate_fixtures.py [--into DIR] [make_x.py ...]
"""
import os
import platform
import shutil
import subprocess
import sys

import h5py
import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS_FILE = "GENERATED_WITH.txt"


def generators(named):
    if named:
        return named
    return sorted(name for name in os.listdir(HERE) if name.startswith("make_") and name.endswith(".py"))


def regenerate(generator, into):
    output = os.path.join(into, generator[:-len(".py")])
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    # The generator imports fixture_manifest from its own directory (sys.path[0]).
    subprocess.run([sys.executable, os.path.join(HERE, generator), output], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(output, VERSIONS_FILE), "w") as versions:
        versions.write("generator %s\n" % generator)
        versions.write("python %s\n" % platform.python_version())
        versions.write("h5py %s\n" % h5py.version.version)
        versions.write("numpy %s\n" % numpy.__version__)
        versions.write("libhdf5 %s\n" % h5py.version.hdf5_version)


def main(args):
    into = HERE
    if args[:1] == ["--into"]:
        into, args = args[1], args[2:]
    for generator in generators(args):
        regenerate(generator, into)


if __name__ == "__main__":
    main(sys.argv[1:])
