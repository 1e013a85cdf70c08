"""Lets libhdf5 insert into and rewrite a version-2 B-tree Quire wrote.

Usage: /usr/bin/python3 grow_quire_btree.py FILE.h5 DATASET OUTPUT.bin

Opens FILE.h5 for writing (h5py / libhdf5), grows the 2-D dataset DATASET by 10 rows and 15
columns, writes the new rows and columns and overwrites a strided sample of the old elements
(new records, split nodes and changed records in Quire's tree), then writes what the whole
dataset must hold, row-major in its own dtype, to OUTPUT.bin.
"""
import sys

import h5py
import numpy as np

path, name, output = sys.argv[1:4]
with h5py.File(path, "r+") as f:
    d = f[name]
    rows, columns = d.shape
    expected = np.zeros((rows + 10, columns + 15), dtype=d.dtype)
    expected[:rows, :columns] = d[:]
    d.resize(expected.shape)
    expected[rows:, :] = 5
    expected[:, columns:] = 6
    expected[0:rows:7, 0:columns:3] = -1
    d[rows:, :] = expected[rows:, :]
    d[:, columns:] = expected[:, columns:]
    d[0:rows:7, 0:columns:3] = expected[0:rows:7, 0:columns:3]
expected.tofile(output)
