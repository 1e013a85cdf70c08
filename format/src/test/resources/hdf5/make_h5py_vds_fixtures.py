"""Writes virtual datasets with h5py and with versioned-hdf5 1.7.0 for Quire's reader tests.

Usage: /usr/bin/python3 make_h5py_vds_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/vds.h5 (libver "latest") and OUTPUT_DIR/vds_legacy.h5 (h5py's default libver:
superblock 0, version-1 object headers) with the same virtual datasets made through h5py's
VirtualLayout, and OUTPUT_DIR/versioned.h5, three versions committed by versioned-hdf5 1.7.0
(shared/tools/versioned-hdf5-1.7.0 in a directory above this script, such as the repository's
parent; the script fails without it), its
timestamps set to fixed values so that two runs write the same contents. One OUTPUT_DIR/<n>.bin
per virtual dataset holds the values h5py reads from it (its dtype, C order), and
OUTPUT_DIR/manifest.txt one record per line:

  D|file|path|type code|shape|fill value|bin file|mappings
  M|file|path|index|source file|source dataset|source selection|virtual selection
  U|file|path|what Quire refuses (a word of its reason)

A selection is "all", or its blocks as libhdf5 lists them (H5Sget_select_hyper_blocklist), each
"start,...:end,..." (inclusive ends), separated by ";".
"""
import datetime
import os
import sys

import h5py
import numpy as np

import reference_client
from fixture_manifest import csv, type_code

out = sys.argv[1]
lines = []


def selection(space):
    if space.get_select_type() == h5py.h5s.SEL_ALL:
        return "all"
    blocks = space.get_select_hyper_blocklist()
    return ";".join("%s:%s" % (csv(b[0]), csv(b[1])) for b in blocks)


def record(name, ds):
    n = len(lines)
    ds[()].tofile(os.path.join(out, "%d.bin" % n))
    sources = ds.virtual_sources()
    lines.append("D|%s|%s|%s|%s|%s|%d.bin|%d" % (
        name, ds.name, type_code(ds.dtype), csv(ds.shape), ds.fillvalue, n, len(sources)))
    for i, m in enumerate(sources):
        lines.append("M|%s|%s|%d|%s|%s|%s|%s" % (name, ds.name, i, m.file_name, m.dset_name,
                                                  selection(m.src_space), selection(m.vspace)))


def h5py_layouts(name, libver):
    path = os.path.join(out, name)
    with h5py.File(path, "w", libver=libver) as f:
        # versioned-hdf5's shape, made by hand: a chunk store and one mapping per chunk, the
        # last chunk of v2 unmapped (it reads as the fill value).
        raw = f.create_dataset("raw_data", shape=(16,), maxshape=(None,), chunks=(4,),
                               dtype="<i8", fillvalue=-7)
        raw[:10] = np.arange(10)
        raw[12:16] = [100, 1, 2, 3]
        layout = h5py.VirtualLayout((10,), "<i8")
        source = h5py.VirtualSource(raw)
        for virtual, stored in ((slice(0, 4), slice(0, 4)), (slice(4, 8), slice(4, 8)),
                                (slice(8, 10), slice(8, 10))):
            layout[virtual] = source[stored]
        f.create_virtual_dataset("v1", layout, fillvalue=-7)
        layout = h5py.VirtualLayout((10,), "<i8")
        layout[0:4] = source[12:16]
        layout[4:8] = source[4:8]
        f.create_virtual_dataset("v2_sparse", layout, fillvalue=-7)

        # 2-D chunks of (2, 2) laid end to end along axis 0, as versioned-hdf5 stores them.
        raw2 = f.create_dataset("raw_2d", data=np.arange(40, dtype="<f4").reshape(20, 2),
                                maxshape=(None, 2), chunks=(2, 2))
        layout = h5py.VirtualLayout((3, 5), "<f4")
        source = h5py.VirtualSource(raw2)
        slot = 0
        for row in range(0, 3, 2):
            for col in range(0, 5, 2):
                rows, cols = min(2, 3 - row), min(2, 5 - col)
                layout[row:row + rows, col:col + cols] = source[2 * slot:2 * slot + rows, 0:cols]
                slot += 1
        f.create_virtual_dataset("grid", layout, fillvalue=np.float32(-1.5))

        # h5py's stacking idiom: whole 1-D sources as rows ("all" source selections).
        layout = h5py.VirtualLayout((3, 5), "<i4")
        for i in range(3):
            part = f.create_dataset("part%d" % i, data=np.arange(5, dtype="<i4") + 10 * i)
            layout[i] = h5py.VirtualSource(part)
        f.create_virtual_dataset("stacked", layout, fillvalue=0)

        # "all" on both sides, big-endian; a missing source (reads as the fill value).
        whole = f.create_dataset("whole", data=np.arange(12, dtype=">i2").reshape(4, 3))
        layout = h5py.VirtualLayout((4, 3), ">i2")
        layout[...] = h5py.VirtualSource(whole)
        f.create_virtual_dataset("all_of_whole", layout)
        layout = h5py.VirtualLayout((4,), "<i4")
        layout[:] = h5py.VirtualSource(".", "/nothing", shape=(4,), dtype="<i4")
        f.create_virtual_dataset("missing_source", layout, fillvalue=-1)

        # Selections paired element by element in row-major order: a strided virtual
        # selection onto one source block, a 2 x 4 block onto a 4 x 2 one, every other row
        # of a 2-D dataset from two rows of another.
        layout = h5py.VirtualLayout((8,), "<i4")
        layout[0:8:2] = h5py.VirtualSource(f["part0"])[0:4]
        f.create_virtual_dataset("strided", layout, fillvalue=-1)
        layout = h5py.VirtualLayout((2, 4), "<f4")
        layout[0:2, 0:4] = h5py.VirtualSource(raw2)[4:8, 0:2]
        f.create_virtual_dataset("reshaped", layout, fillvalue=np.float32(0.5))
        layout = h5py.VirtualLayout((4, 3), ">i2")
        layout[0:4:2, :] = h5py.VirtualSource(whole)[1:3, :]
        f.create_virtual_dataset("every_other_row", layout, fillvalue=-9)

        # A source in another file: Quire refuses it (libhdf5 reads the fill value when that
        # file is missing).
        layout = h5py.VirtualLayout((4,), "<i4")
        layout[:] = h5py.VirtualSource("elsewhere.h5", "/x", shape=(4,), dtype="<i4")
        f.create_virtual_dataset("other_file", layout, fillvalue=-1)

    with h5py.File(path, "r") as f:
        for ds in ("v1", "v2_sparse", "grid", "stacked", "all_of_whole", "missing_source",
                   "strided", "reshaped", "every_other_row"):
            record(name, f[ds])
            if f[ds].virtual_sources()[0].file_name != ".":
                sys.exit("%s: h5py did not write the source file as \".\"" % ds)
        lines.append("U|%s|/other_file|source file \"elsewhere.h5\"" % name)


def versioned(name):
    reference_client.load()
    from versioned_hdf5 import VersionedHDF5File
    path = os.path.join(out, name)
    day = datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc)
    with h5py.File(path, "w") as f:
        vf = VersionedHDF5File(f)
        with vf.stage_version("v1", timestamp=day) as g:
            g.create_dataset("x", data=np.arange(10), chunks=(4,), fillvalue=-7)
            g.create_dataset("grid", data=np.arange(15, dtype="<f8").reshape(3, 5),
                             chunks=(2, 2))
        with vf.stage_version("v2", timestamp=day + datetime.timedelta(days=1)) as g:
            g["x"][0] = 100
            g["grid"][2, 4] = -1
        with vf.stage_version("v3", timestamp=day + datetime.timedelta(days=2)) as g:
            g.create_dataset("sparse", shape=(10,), dtype="<i8", chunks=(3,), fillvalue=5)
            g["sparse"][4] = 42
        f["_version_data/versions/__first_version__"].attrs["timestamp"] = \
            "2098-12-31 00:00:00.000000+0000"
    with h5py.File(path, "r") as f:
        for version in ("v1", "v2", "v3"):
            for ds in ("x", "grid"):
                record(name, f["_version_data/versions/%s/%s" % (version, ds)])
        record(name, f["_version_data/versions/v3/sparse"])


h5py_layouts("vds.h5", "latest")
h5py_layouts("vds_legacy.h5", "earliest")
versioned("versioned.h5")
with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
