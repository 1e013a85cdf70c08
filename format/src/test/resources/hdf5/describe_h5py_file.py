"""Prints what h5py reads in a file (one written by Quire, for QuireWritesWhatH5pyWritesTest),
in the manifest lines of make_h5py_compat_fixtures.py: an O line per object, a D line per
dataset and an A line per attribute, every element as h5py returns it.

Usage: /usr/bin/python3 describe_h5py_file.py FILE.h5 MANIFEST.txt
"""
import os
import sys

import h5py

from fixture_manifest import record_attributes, record_dataset

path, out = sys.argv[1], sys.argv[2]
name = os.path.basename(path)
lines = ["O|%s|/|group" % name]
with h5py.File(path, "r") as f:
    record_attributes(lines, name, f)

    def visit(_, obj):
        kind = ("group" if isinstance(obj, h5py.Group)
                else "dataset" if isinstance(obj, h5py.Dataset) else "datatype")
        lines.append("O|%s|%s|%s" % (name, obj.name, kind))
        if kind == "dataset":
            record_dataset(lines, name, obj)
        record_attributes(lines, name, obj)

    f.visititems(visit)
with open(out, "w") as handle:
    handle.write("\n".join(lines) + "\n")
