"""Writes versions with versioned-hdf5 1.7.0 in the format Quire reopens for writing.

Usage: /usr/bin/python3 make_versioned_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/versioned_latest.h5 (h5py libver "latest": the format Quire extends) with
three versions versioned-hdf5 1.7.0 committed, timestamps fixed: v1 (x = arange(10) int64,
chunks (4,), fill -7, attribute unit="m"; grid = arange(15) float64 as 3 x 5, chunks (2, 2)),
v2 (x[0] = 100, grid[2, 4] = -1) and v3 (sparse: shape (10,), chunks (3,), fill 5, [4] = 42).
OUTPUT_DIR/manifest.txt has one line per version dataset as versioned-hdf5 reads it:

  T|versioned-hdf5|version
  D|version|dataset|dtype|shape|values (comma-separated, C order)
  R|dataset|raw_data rows|hash_table largest_index
"""
import datetime
import os
import sys

import h5py
import numpy as np

import reference_client

reference_client.load()
from versioned_hdf5 import VersionedHDF5File  # noqa: E402

out = sys.argv[1]
path = os.path.join(out, "versioned_latest.h5")
day = datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc)
with h5py.File(path, "w", libver="latest") as f:
    vf = VersionedHDF5File(f)
    with vf.stage_version("v1", timestamp=day) as g:
        g.create_dataset("x", data=np.arange(10), chunks=(4,), fillvalue=-7)
        g["x"].attrs["unit"] = "m"
        g.create_dataset("grid", data=np.arange(15, dtype="<f8").reshape(3, 5), chunks=(2, 2))
    with vf.stage_version("v2", timestamp=day + datetime.timedelta(days=1)) as g:
        g["x"][0] = 100
        g["grid"][2, 4] = -1
    with vf.stage_version("v3", timestamp=day + datetime.timedelta(days=2)) as g:
        g.create_dataset("sparse", shape=(10,), dtype="<i8", chunks=(3,), fillvalue=5)
        g["sparse"][4] = 42
    f["_version_data/versions/__first_version__"].attrs["timestamp"] = \
        "2098-12-31 00:00:00.000000+0000"

lines = ["T|versioned-hdf5|" + reference_client.VERSION]
with h5py.File(path, "r") as f:
    vf = VersionedHDF5File(f)
    for version in ("v1", "v2", "v3"):
        for name in sorted(vf[version]):
            values = vf[version][name][()]
            lines.append("D|%s|%s|%s|%s|%s" % (version, name, values.dtype.str,
                                                ",".join(map(str, values.shape)),
                                                ",".join(repr(v) for v in values.ravel().tolist())))
    for name in ("x", "grid", "sparse"):
        lines.append("R|%s|%d|%d" % (name, f["_version_data"][name]["raw_data"].shape[0],
                                     f["_version_data"][name]["hash_table"].attrs["largest_index"]))
with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
