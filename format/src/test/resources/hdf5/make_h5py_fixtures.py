"""Writes HDF5 files with h5py (libhdf5) for Quire's reader tests, with a manifest of what they hold.

Usage: /usr/bin/python3 make_h5py_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/h5py.h5 (libver="latest": superblock v3, v2 object headers, layout v4),
one OUTPUT_DIR/<n>.bin per dataset with the bytes h5py was given (in the dataset's own dtype,
fill value where nothing was written), and OUTPUT_DIR/manifest.txt, one record per line:

  G|group path
  D|path|index type|shape|max shape|chunk shape|type code|fill hex|start|count|bin file|filters
  A|object path|name|type code|shape|value hex

Lists are comma-separated, an unlimited maximum is -1. Type codes: i4< u2> f8< (kind, size,
byte order), S6/0 (fixed string, size, padding 0 NUL-terminated 1 NUL-padded 2 space-padded),
C24{name@offset=code;...} (compound).

The index type is what h5debug reports for the dataset's object header ("Index Type:"); this
script fails if libhdf5 did not choose the index each dataset is meant to exercise:
  - fixed array: no unlimited dimension; over 1,024 chunks the data block is paged (pages of
    1,024 entries) and pages nobody wrote stay uninitialised;
  - implicit: no unlimited dimension, no filter, space allocated early (every chunk of the
    maximum shape at creation, filled with the fill value);
  - extensible array: one unlimited dimension; with libhdf5's defaults (4 elements in the index
    block, data blocks of 16 * 2^floor((s+1)/2) elements in super block s, pages of 1,024) chunk
    numbers past 4 + 16 + 32 = 52 go through super blocks and past 131,060 into paged data
    blocks;
  - single chunk: shape = max shape = chunk shape;
  - version-2 B-tree: more than one unlimited dimension; with libhdf5's 2,048-byte nodes a
    leaf holds 63 records of a 3-D unfiltered dataset, so the 8,000 chunks of btree/deep need
    internal nodes below the root (depth 2, which the Java test checks).
"""
import os
import subprocess
import sys

import h5py
import numpy as np

from fixture_manifest import csv, type_code

out = sys.argv[1]
path = os.path.join(out, "h5py.h5")
lines = []
# (manifest line index, dataset name, object header address, index type it must have)
index_checks = []


def index_type(address):
    """What h5debug reports for the object header at `address` (the file must be closed)."""
    text = subprocess.run(["h5debug", path, str(address)], capture_output=True, text=True,
                          check=True).stdout
    return next(line.split(":", 1)[1].strip() for line in text.splitlines()
                if "Index Type:" in line)


def dataset(f, name, expected_index, data, start=None, count=None, filters=""):
    """Records dataset `name`; `data` is its full content (or the hyperslab start/count)."""
    ds = f[name]
    index_checks.append((len(lines), name, h5py.h5o.get_info(ds.id).addr, expected_index))
    fill = np.zeros((), dtype=ds.dtype)
    ds.id.get_create_plist().get_fill_value(fill)
    start = start or [0] * ds.ndim
    count = count or list(ds.shape)
    binfile = "%d.bin" % len(lines)
    with open(os.path.join(out, binfile), "wb") as handle:
        handle.write(np.ascontiguousarray(data, dtype=ds.dtype).tobytes())
    lines.append("D|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s" % (
        name, "?", csv(ds.shape), csv(ds.maxshape), csv(ds.chunks), type_code(ds.dtype),
        fill.tobytes().hex(), csv(start), csv(count), binfile, filters))


def attribute(obj, name, value, dtype):
    obj.attrs.create(name, value, dtype=dtype)
    raw = np.asarray(value, dtype=dtype)
    lines.append("A|%s|%s|%s|%s|%s" % (obj.name, name, type_code(np.dtype(dtype)),
                                       csv(raw.shape), raw.tobytes().hex()))


with h5py.File(path, "w", libver="latest") as f:
    # libhdf5 stores the links of a group with more than 8 members densely (fractal heap and
    # v2 B-tree), which Quire does not read yet: no group here has more than 8 members.
    kinds = ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]
    groups = ["fixed", "extensible", "single", "types", "nested/a/b", "btree"] + \
        ["ints/" + k for k in kinds] + ["floats/f4", "floats/f8"]
    for g in groups:
        f.require_group(g)
    for g in groups + ["nested", "nested/a", "ints", "floats"]:
        lines.append("G|/" + g)

    # Fixed array, unpaged, partly written: unwritten chunks read as the fill value.
    full = np.full((13, 17), 7, dtype=">u2")
    full[2:10, 3:15] = np.arange(8 * 12, dtype=">u2").reshape(8, 12) * 3
    d = f.create_dataset("fixed/partial_2d", shape=(13, 17), chunks=(4, 5), dtype=">u2",
                         fillvalue=7)
    d[2:10, 3:15] = full[2:10, 3:15]
    dataset(f, "fixed/partial_2d", "Fixed Array", full)

    # Fixed array over 3,000 chunks: a paged data block, middle pages never written.
    full = np.full(3000, -1, dtype="<i8")
    full[:10] = np.arange(10) * 11
    full[2500:2800] = np.arange(300) - 150
    d = f.create_dataset("fixed/paged", shape=(3000,), chunks=(1,), dtype="<i8", fillvalue=-1)
    d[:10] = full[:10]
    d[2500:2800] = full[2500:2800]
    dataset(f, "fixed/paged", "Fixed Array", full)

    # Fixed array, 3-D, filtered (shuffle, deflate, Fletcher-32), chunks not dividing the shape.
    full = (np.arange(5 * 6 * 7, dtype="<f4").reshape(5, 6, 7) * 0.5 - 3)
    f.create_dataset("fixed/filtered_3d", data=full, chunks=(2, 4, 3), shuffle=True,
                     compression="gzip", compression_opts=5, fletcher32=True)
    dataset(f, "fixed/filtered_3d", "Fixed Array", full, filters="shuffle,deflate,fletcher32")

    # Fixed array, paged and filtered.
    full = np.full(1500, 9, dtype="<i4")
    full[1024:1300] = np.arange(276) * 7
    d = f.create_dataset("fixed/paged_filtered", shape=(1500,), chunks=(1,), dtype="<i4",
                         fillvalue=9, compression="gzip")
    d[1024:1300] = full[1024:1300]
    dataset(f, "fixed/paged_filtered", "Fixed Array", full, filters="deflate")

    # Implicit index: early allocation, no filters; a maximum shape larger than the shape.
    early = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    early.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    full = np.full((10, 13), -4, dtype="<i4")
    full[2:5, 3:9] = np.arange(18).reshape(3, 6) + 70
    d = f.create_dataset("fixed/implicit_2d", shape=(10, 13), maxshape=(12, 20), chunks=(3, 4),
                         dtype="<i4", fillvalue=-4, dcpl=early)
    d[2:5, 3:9] = full[2:5, 3:9]
    dataset(f, "fixed/implicit_2d", "Implicit", full)
    full = np.arange(40, dtype=">f8").reshape(5, 8) / 4
    early = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    early.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    f.create_dataset("fixed/implicit_full", data=full, chunks=(2, 3), dcpl=early)
    dataset(f, "fixed/implicit_full", "Implicit", full)

    # Extensible array through the index block and the first super blocks (not paged).
    full = np.arange(1200, dtype="<f8") * 0.25
    d = f.create_dataset("extensible/grown", shape=(0,), maxshape=(None,), chunks=(2,),
                         dtype="<f8")
    for end in (3, 50, 400, 1200):
        start = d.shape[0]
        d.resize((end,))
        d[start:end] = full[start:end]
    dataset(f, "extensible/grown", "Extensible Array", full)

    # Extensible array grown far past its index block: chunk numbers over 131,060 are in
    # paged data blocks (super blocks 13 and up); only a few pages are ever written.
    n = 200_000
    d = f.create_dataset("extensible/paged", shape=(0,), maxshape=(None,), chunks=(1,),
                         dtype="<i2", fillvalue=-3)
    d.resize((n,))
    d[0:100] = np.arange(100, dtype="<i2")
    d[140_000:140_050] = np.arange(50, dtype="<i2") + 1000
    d[199_990:200_000] = np.arange(10, dtype="<i2") + 2000
    full = np.full(n, -3, dtype="<i2")
    full[0:100] = np.arange(100)
    full[140_000:140_050] = np.arange(50) + 1000
    full[199_990:200_000] = np.arange(10) + 2000
    dataset(f, "extensible/paged", "Extensible Array", full[139_990:200_000],
            start=[139_990], count=[60_010])

    # Extensible array, unlimited middle dimension, a fixed dimension smaller than its maximum.
    d = f.create_dataset("extensible/middle", shape=(2, 0, 3), maxshape=(4, None, 3),
                         chunks=(1, 4, 2), dtype="<u4")
    d.resize((2, 10, 3))
    full = np.arange(60, dtype="<u4").reshape(2, 10, 3) + 100
    d[:, :9, :] = full[:, :9, :]
    full[:, 9, :] = 0
    dataset(f, "extensible/middle", "Extensible Array", full)

    # Extensible array, filtered.
    full = np.arange(500, dtype=">i8") * -3
    d = f.create_dataset("extensible/filtered", shape=(0,), maxshape=(None,), chunks=(7,),
                         dtype=">i8", compression="gzip", shuffle=True)
    d.resize((500,))
    d[:] = full
    dataset(f, "extensible/filtered", "Extensible Array", full, filters="shuffle,deflate")

    # Single chunk, plain and filtered.
    full = np.arange(20, dtype="<i4").reshape(4, 5)
    f.create_dataset("single/plain", data=full, chunks=(4, 5))
    dataset(f, "single/plain", "Single Chunk", full)
    full = np.linspace(0, 1, 36, dtype="<f8").reshape(6, 6)
    f.create_dataset("single/filtered", data=full, chunks=(6, 6), compression="gzip")
    dataset(f, "single/filtered", "Single Chunk", full, filters="deflate")

    # Every number type in both byte orders, a fixed string, a compound.
    for kind in ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8"]:
        for order in "<>":
            dt = np.dtype(order + kind)
            name = "%s/%s/%s" % ("floats" if kind[0] == "f" else "ints", kind,
                                 "be" if order == ">" else "le")
            full = (np.arange(23) * 37 - 200).astype(dt) if kind[0] != "f" else \
                (np.arange(23) * 0.75 - 4).astype(dt)
            f.create_dataset(name, data=full, chunks=(5,))
            dataset(f, name, "Fixed Array", full)
    full = np.array([b"alpha", b"be", b"", b"gamma!"], dtype="S6")
    f.create_dataset("types/string", data=full, chunks=(3,))
    dataset(f, "types/string", "Fixed Array", full)
    record = np.dtype({"names": ["id", "value", "tag"], "formats": ["<i4", ">f8", "S3"],
                       "offsets": [0, 8, 16], "itemsize": 24})
    full = np.zeros(9, dtype=record)
    full["id"] = np.arange(9) - 4
    full["value"] = np.arange(9) * 1.5
    full["tag"] = [b"t%d" % i for i in range(9)]
    f.create_dataset("types/compound", data=full, chunks=(4,))
    dataset(f, "types/compound", "Fixed Array", full)

    # Version-2 B-tree, 2-D, grown in both dimensions, chunks not dividing the shape, some
    # chunks never written (fill value).
    full = np.full((30, 40), 3, dtype="<i4")
    d = f.create_dataset("btree/sparse_2d", shape=(0, 0), maxshape=(None, None), chunks=(4, 6),
                         dtype="<i4", fillvalue=3)
    d.resize((10, 13))
    full[:10, :13] = np.arange(130).reshape(10, 13)
    d[:10, :13] = full[:10, :13]
    d.resize((30, 40))
    full[21:27, 30:37] = np.arange(42).reshape(6, 7) * -5
    d[21:27, 30:37] = full[21:27, 30:37]
    dataset(f, "btree/sparse_2d", "v2 B-tree", full)

    # Version-2 B-tree, 3-D with two unlimited dimensions, filtered, 360 chunks (internal
    # node at depth 1); the first rows are rewritten, which changes their compressed sizes.
    full = (np.arange(24 * 30 * 5, dtype=">f8").reshape(24, 30, 5) * 0.5) - 7
    d = f.create_dataset("btree/filtered_3d", shape=(24, 30, 5), maxshape=(None, None, 5),
                         chunks=(2, 3, 2), dtype=">f8", shuffle=True, compression="gzip")
    d[:] = np.zeros((24, 30, 5))
    d[:] = full
    dataset(f, "btree/filtered_3d", "v2 B-tree", full, filters="shuffle,deflate")

    # Version-2 B-tree deep enough for internal nodes below the root: 8,000 one-element chunks.
    full = (np.arange(8000) % 251 - 125).astype("i1").reshape(20, 20, 20)
    d = f.create_dataset("btree/deep", shape=(20, 20, 0), maxshape=(None, None, None),
                         chunks=(1, 1, 1), dtype="i1")
    d.resize((20, 20, 20))
    d[10:] = full[10:]
    d[:10] = full[:10]
    dataset(f, "btree/deep", "v2 B-tree", full)

    # Attributes on the root, a group and a dataset.
    attribute(f, "title", np.bytes_(b"written by h5py"), "S15")
    attribute(f, "sizes", [1, 2, 3], "<i8")
    attribute(f["nested/a"], "scale", [[0.5, 1.5], [2.5, 3.5]], ">f4")
    attribute(f["nested/a"], "count", 42, "<u2")
    attribute(f["single/plain"], "units", np.bytes_(b"m/s"), "S3")
    full = np.arange(3, dtype="<i8")
    f.create_dataset("nested/a/b/deep", data=full, chunks=(3,))
    dataset(f, "nested/a/b/deep", "Single Chunk", full)

for line, name, address, expected_index in index_checks:
    found = index_type(address)
    if found != expected_index:
        raise SystemExit("%s: libhdf5 chose %s, expected %s" % (name, found, expected_index))
    lines[line] = lines[line].replace("|?|", "|%s|" % found, 1)

with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
print("wrote %d records" % len(lines))
