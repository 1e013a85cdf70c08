"""The reference client's side of Quire's versioned-file interop tests (VersionedInteropTest).

usage: /usr/bin/python3 versioned_interop.py read FILE
       /usr/bin/python3 versioned_interop.py commit FILE NAME same|change [PARENT]
       /usr/bin/python3 versioned_interop.py create FILE COUNT [EXTRA]
       /usr/bin/python3 versioned_interop.py create-default FILE COUNT

read: every version as versioned-hdf5 1.7.0 reads it and as plain h5py reads the virtual
datasets under /_version_data/versions, one line each:
  V|version|prev_version|timestamp           (current version first as C|name)
  D|version|dataset|dtype|shape|values       (versioned-hdf5's API)
  H|version|dataset|dtype|shape|values       (h5py: f['_version_data/versions/<v>/<dataset>'])
  R|dataset|raw_data rows|largest_index
commit: versioned-hdf5 stages NAME on PARENT (default: the current version) and writes every dataset again,
"same" with its own values (every chunk hashed again: nothing new may be stored), "change"
with x[1] = 555; then prints what read prints.
create: versioned-hdf5 writes a new file in libhdf5's latest format with COUNT versions p0 ...
in a chain: p0 creates x (int64, 10 elements in chunks of 4) and grid (float64, 3 x 5 in
chunks of 2 x 2) with 0 ... in order and EXTRA (default 0) datasets e0 ... (int64 [j, j + 1, j + 2]
in chunks of 2), p{i} sets x[i % 10] = 100 + i and grid[i % 3, 4] = -i.
create-default: versioned-hdf5 writes a new file with h5py's defaults (libhdf5's default format:
superblock 0, version-1 object headers, symbol-table groups, version-1 B-tree chunk indexes),
one open of the file per version, COUNT versions p0 ... in a chain: p0 creates x (int64, 0 ... 63
in chunks of 4) and grp/t (int64 [5, 5, 5, 5, 5] in chunks of 2), p{i} sets x[4 * (i % 16)] =
1000 + i (one new chunk per version) and, every seventh version, grp/t[i % 5] = i.
"""
import sys

import h5py
import numpy as np

import reference_client

reference_client.load()
from versioned_hdf5 import VersionedHDF5File  # noqa: E402


def values(array):
    return "%s|%s|%s" % (array.dtype.str, ",".join(map(str, array.shape)),
                         ",".join(repr(v) for v in array.ravel().tolist()))


def datasets(group, prefix=""):
    for name in sorted(group):
        item = group[name]
        if isinstance(item, h5py.Group):
            yield from datasets(item, prefix + name + "/")
        else:
            yield prefix + name


def read(path):
    with h5py.File(path, "r") as f:
        vf = VersionedHDF5File(f)
        print("C|%s" % vf.current_version)
        stores = set()
        for version in sorted(vf.versions):
            group = f["_version_data/versions"][version]
            print("V|%s|%s|%s" % (version, group.attrs["prev_version"], group.attrs["timestamp"]))
            for name in datasets(group):
                stores.add(name)
                print("D|%s|%s|%s" % (version, name, values(vf[version][name][()])))
                plain = f["_version_data/versions/%s/%s" % (version, name)]
                print("H|%s|%s|%s" % (version, name, values(plain[()])))
        for name in sorted(stores):
            store = f["_version_data"][name]
            print("R|%s|%d|%d" % (name, store["raw_data"].shape[0],
                                  store["hash_table"].attrs["largest_index"]))


def commit(path, name, how, parent=None):
    with h5py.File(path, "r+") as f:
        vf = VersionedHDF5File(f)
        with vf.stage_version(name, prev_version=parent) as g:
            for dataset in list(datasets(g)):
                if how == "same":
                    g[dataset][...] = g[dataset][()]
                elif dataset == "x":
                    g[dataset][1] = 555
    read(path)


def create(path, count, extra=0):
    with h5py.File(path, "w", libver="latest") as f:
        vf = VersionedHDF5File(f)
        with vf.stage_version("p0") as g:
            g.create_dataset("x", data=np.arange(10, dtype="<i8"), chunks=(4,))
            g.create_dataset("grid", data=np.arange(15, dtype="<f8").reshape(3, 5), chunks=(2, 2))
            for j in range(int(extra)):
                g.create_dataset("e%d" % j, data=np.arange(j, j + 3, dtype="<i8"), chunks=(2,))
        for i in range(1, int(count)):
            with vf.stage_version("p%d" % i) as g:
                g["x"][i % 10] = 100 + i
                g["grid"][i % 3, 4] = -i
    read(path)


def create_default(path, count):
    with h5py.File(path, "w") as f:
        VersionedHDF5File(f)
    for i in range(int(count)):
        with h5py.File(path, "r+") as f:
            with VersionedHDF5File(f).stage_version("p%d" % i) as g:
                if i == 0:
                    g.create_dataset("x", data=np.arange(64, dtype="<i8"), chunks=(4,))
                    g.create_group("grp").create_dataset("t", data=np.full(5, 5, dtype="<i8"),
                                                         chunks=(2,))
                else:
                    g["x"][4 * (i % 16)] = 1000 + i
                    if i % 7 == 0:
                        g["grp/t"][i % 5] = i
    read(path)


if sys.argv[1] == "read":
    read(sys.argv[2])
elif sys.argv[1] == "create-default":
    create_default(*sys.argv[2:])
elif sys.argv[1] == "create":
    create(*sys.argv[2:])
else:
    commit(*sys.argv[2:])
