"""Finds versioned-hdf5 1.7.0, the reference client (shared/tools/versioned-hdf5-1.7.0 in the
nearest directory above this script: the repository's parent, also from the build's copy), and
puts it on sys.path. Exits with REQUIRED ORACLE MISSING when it is not there."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = "1.7.0"


def load():
    at = HERE
    while True:
        candidate = os.path.join(at, "shared", "tools", "versioned-hdf5-" + VERSION)
        if os.path.isdir(candidate):
            sys.path.insert(0, candidate)
            return candidate
        if os.path.dirname(at) == at:
            sys.exit("REQUIRED ORACLE MISSING: shared/tools/versioned-hdf5-%s above %s" % (VERSION, HERE))
        at = os.path.dirname(at)
