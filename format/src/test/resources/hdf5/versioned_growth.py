"""The reference client's side of VersionedFileGrowthTest: how many bytes each commit adds
to a file versioned-hdf5 1.7.0 writes.

usage: /usr/bin/python3 versioned_growth.py FILE CHUNKS ELEMENTS COMMITS

Version v1 creates x, int64 arange(CHUNKS * ELEMENTS) in chunks of ELEMENTS; then COMMITS
versions v2, v3, ... each set element (7 * k) * ELEMENTS of chunk 7 * k mod CHUNKS to -k
(one chunk changed). Each version opens the file and closes it again. One line per version:
  GROW|version|bytes the file grew by
"""
import os
import sys

import h5py
import numpy

import reference_client

reference_client.load()
from versioned_hdf5 import VersionedHDF5File  # noqa: E402


def commit(path, name, stage):
    before = os.path.getsize(path)
    with h5py.File(path, "r+") as f:
        with VersionedHDF5File(f).stage_version(name) as group:
            stage(group)
    print("GROW|%s|%d" % (name, os.path.getsize(path) - before))


def main(path, chunks, elements, commits):
    with h5py.File(path, "w") as f:
        VersionedHDF5File(f)
    commit(path, "v1", lambda g: g.create_dataset(
        "x", data=numpy.arange(chunks * elements, dtype="<i8"), chunks=(elements,)))
    for k in range(2, commits + 2):
        def change(g, k=k):
            g["x"][(7 * k % chunks) * elements] = -k
        commit(path, "v%d" % k, change)


main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
