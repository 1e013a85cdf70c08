"""Writes HDF5 files with h5py (libhdf5) in its default, old format, with a manifest of what
they hold.

Usage: /usr/bin/python3 make_h5py_legacy_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/legacy.h5 (h5py's default libver, "earliest": superblock 0, version-1 object
headers, groups as symbol tables, chunked datasets indexed by version-1 B-trees),
OUTPUT_DIR/v108.h5 (libver=("v108", "v108"): superblock 2, version-2 object headers,
new-style groups, still version-3 layouts with version-1 B-trees), OUTPUT_DIR/ranks.h5 and
OUTPUT_DIR/ranks_v108.h5 (the same with node capacities other than libhdf5's defaults: symbol
table nodes of 2 x 6 entries, group B-tree nodes of 2 x 8 and chunk B-tree nodes of 2 x 16
children, set through libhdf5's H5Pset_sym_k and H5Pset_istore_k, which h5py does not wrap;
libhdf5 then writes superblock 1, or superblock 2 with a B-tree 'K' values message in a
superblock extension), one OUTPUT_DIR/<n>.bin per
dataset with the bytes it must read as (fill value where nothing was written), and
OUTPUT_DIR/manifest.txt, one record per line:

  F|file|superblock version
  G|file|group path|member names in h5py's iteration order (separated by "/")
  D|file|path|layout|shape|chunk shape|type code|fill hex|stored chunks|bin file
  V|file|object path|attribute name|type code|shape|value hex

layout is "contiguous", "compact" or "chunked"; stored chunks is what libhdf5 counts
(get_num_chunks), 0 for other layouts. Type codes as in make_h5py_fixtures.py. The script
fails if libhdf5 did not write what a record says.

What libhdf5 1.10.8 does here: a symbol table node holds 2 x 4 entries and a group B-tree
node 2 x 16 children, so /many's 260 members need more than 32 symbol table nodes and a
B-tree of two levels; a chunk B-tree node holds 2 x 32 chunks, so /chunked/resizable's 5,000
chunks need a B-tree of three levels.
"""
import ctypes
import ctypes.util
import os
import sys

import h5py
import numpy as np

from fixture_manifest import csv, type_code

out = sys.argv[1]
lines = []


def record_group(name, group):
    lines.append("G|%s|%s|%s" % (name, group.name, "/".join(group.keys())))


def record_attributes(name, obj, values):
    for key, (value, dtype) in values.items():
        obj.attrs.create(key, value, dtype=dtype)
    for key, (value, dtype) in values.items():
        raw = np.asarray(value, dtype=dtype)
        if not np.array_equal(np.asarray(obj.attrs[key]), raw):
            sys.exit("%s: attribute %s reads back differently" % (obj.name, key))
        lines.append("V|%s|%s|%s|%s|%s|%s" % (name, obj.name, key, type_code(np.dtype(dtype)),
                                              csv(raw.shape), raw.tobytes().hex()))


def record_dataset(name, ds, expected_layout, full):
    plist = ds.id.get_create_plist()
    layout = {h5py.h5d.CONTIGUOUS: "contiguous", h5py.h5d.COMPACT: "compact",
              h5py.h5d.CHUNKED: "chunked"}[plist.get_layout()]
    if layout != expected_layout:
        sys.exit("%s: layout %s, expected %s" % (ds.name, layout, expected_layout))
    fill = np.zeros((), dtype=ds.dtype)
    plist.get_fill_value(fill)
    data = np.ascontiguousarray(full, dtype=ds.dtype)
    if ds.size and ds[()].tobytes() != data.tobytes():
        sys.exit("%s: reads back differently" % ds.name)
    binfile = "%d.bin" % len(lines)
    with open(os.path.join(out, binfile), "wb") as handle:
        handle.write(data.tobytes())
    stored = ds.id.get_num_chunks() if layout == "chunked" else 0
    lines.append("D|%s|%s|%s|%s|%s|%s|%s|%d|%s" % (
        name, ds.name, layout, csv(ds.shape), csv(ds.chunks or ()), type_code(ds.dtype),
        fill.tobytes().hex(), stored, binfile))


def number_attributes():
    values = {}
    for i, kind in enumerate(["<i1", "<u2", ">i4", "<u8", "<f4", ">f8"]):
        values["scalar_%d" % i] = (np.array(i * 7 - 3 if kind[1] != "u" else i * 7,
                                            dtype=kind)[()], kind)
        values["array_%d" % i] = ((np.arange(6).reshape(2, 3) * (i + 1) - 2).astype(kind), kind)
    values["text"] = (np.bytes_(b"old format attribute"), "S20")
    values["texts"] = (np.array([b"one", b"two", b"three"], dtype="S5"), "S5")
    return values


def write_contents(name, f):
    record_attributes(name, f, {"title": (np.bytes_(b"legacy run"), "S10")})

    # 260 members, groups and tiny datasets: many symbol table nodes, a B-tree of two levels.
    many = f.create_group("many")
    for i in range(260):
        member = "member_%03d" % ((i * 97) % 260)
        if i % 2:
            many.create_dataset(member, data=np.int32(i))
        else:
            many.create_group(member)
    record_group(name, many)

    # Nested groups with attributes and a soft link.
    inner = f.create_group("nested/level_1/level_2")
    for i in range(5):
        inner.create_group("leaf_%d" % (4 - i))
    f["nested"]["link"] = h5py.SoftLink("/nested/level_1")
    record_attributes(name, f["nested/level_1"], number_attributes())
    for path in ["/nested", "/nested/level_1", "/nested/level_1/level_2"]:
        record_group(name, f[path])

    c = f.create_group("contiguous")
    full = np.arange(1000, dtype="<i4") * 7 - 300
    # track_times: a modification time message (type 0x12), which readers skip
    record_dataset(name, c.create_dataset("ints_1d", data=full, track_times=True), "contiguous",
                   full)
    full = np.arange(30 * 40, dtype="<f8").reshape(30, 40) / 8
    d = c.create_dataset("doubles_2d", data=full)
    record_attributes(name, d, {"units": (np.bytes_(b"K"), "S1"),
                                "scale": (np.float64(0.125), "<f8")})
    record_dataset(name, d, "contiguous", full)
    full = (np.arange(4 * 5 * 6).reshape(4, 5, 6) * 13).astype(">u2")
    record_dataset(name, c.create_dataset("big_endian_3d", data=full), "contiguous", full)
    full = np.array([b"alpha", b"beta", b"gamma", b"delta"], dtype="S6")
    record_dataset(name, c.create_dataset("strings", data=full), "contiguous", full)
    record_dataset(name, c.create_dataset("scalar", data=np.float32(2.5)), "contiguous",
                   np.float32(2.5))
    record_dataset(name, c.create_dataset("unwritten", shape=(50, 3), dtype="<f4",
                                          fillvalue=-1.5),
                   "contiguous", np.full((50, 3), -1.5, dtype="<f4"))
    full = np.arange(12, dtype="<i2").reshape(3, 4) - 6
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.COMPACT)
    h5py.h5d.create(c.id, b"compact_2d", h5py.h5t.STD_I16LE,
                    h5py.h5s.create_simple((3, 4)), dcpl=dcpl).write(
        h5py.h5s.ALL, h5py.h5s.ALL, full)
    record_dataset(name, c["compact_2d"], "compact", full)
    record_group(name, c)

    k = f.create_group("chunked")
    # Filtered, chunks not dividing the shape, rows 21.. never written: fill value NaN.
    full = np.full((30, 41), np.nan)
    full[:21] = np.arange(21 * 41).reshape(21, 41) / 4
    d = k.create_dataset("filtered", shape=(30, 41), chunks=(7, 8), dtype="<f8",
                         compression="gzip", shuffle=True, fletcher32=True, fillvalue=np.nan,
                         track_times=True)
    d[:21] = full[:21]
    record_dataset(name, d, "chunked", full)
    # Grown 1-D: 5,000 chunks, a B-tree of three levels.
    d = k.create_dataset("resizable", shape=(0,), maxshape=(None,), chunks=(2,), dtype="<i8")
    full = np.arange(10000, dtype="<i8") * 3 - 7
    for start in range(0, 10000, 2500):
        d.resize((start + 2500,))
        d[start:start + 2500] = full[start:start + 2500]
    record_dataset(name, d, "chunked", full)
    # Two unlimited dimensions, sparse: written chunks only where written.
    full = np.full((40, 50), 9, dtype=">i4")
    d = k.create_dataset("sheet", shape=(40, 50), maxshape=(None, None), chunks=(6, 7),
                         dtype=">i4", fillvalue=9)
    full[3:17, 20:44] = np.arange(14 * 24).reshape(14, 24)
    d[3:17, 20:44] = full[3:17, 20:44]
    record_dataset(name, d, "chunked", full)
    full = (np.arange(4 * 5 * 6).reshape(4, 5, 6) - 50).astype("<i2")
    record_dataset(name, k.create_dataset("cube_3d", data=full, chunks=(3, 2, 4),
                                          compression="gzip"), "chunked", full)
    full = (np.arange(5 * 6 * 7 * 8).reshape(5, 6, 7, 8) % 251).astype("<u1")
    record_dataset(name, k.create_dataset("hyper_4d", data=full, chunks=(2, 3, 4, 5),
                                          shuffle=True), "chunked", full)
    full = np.array([b"x%d" % i for i in range(10)], dtype="S4")
    record_dataset(name, k.create_dataset("strings", data=full, chunks=(3,)), "chunked", full)
    record_dataset(name, k.create_dataset("never_written", shape=(10, 10), chunks=(4, 4),
                                          dtype="<u2", fillvalue=7),
                   "chunked", np.full((10, 10), 7, dtype="<u2"))
    record_group(name, k)
    record_group(name, f)


def libhdf5():
    """The libhdf5 h5py uses, for the two property setters h5py does not wrap."""
    for name in ["hdf5_serial", "hdf5"]:
        found = ctypes.util.find_library(name)
        if found:
            lib = ctypes.CDLL(found)
            lib.H5Pset_sym_k.argtypes = [ctypes.c_int64, ctypes.c_uint, ctypes.c_uint]
            lib.H5Pset_istore_k.argtypes = [ctypes.c_int64, ctypes.c_uint]
            return lib
    sys.exit("libhdf5 not found by ctypes")


def create(path, low, ranks):
    if not ranks:  # as h5py users create files: default libver, or libver=("v108", "v108")
        return h5py.File(path, "w", libver=None if low == h5py.h5f.LIBVER_EARLIEST
                         else ("v108", "v108"))
    fcpl = h5py.h5p.create(h5py.h5p.FILE_CREATE)
    lib = libhdf5()
    if lib.H5Pset_sym_k(fcpl.id, 8, 6) < 0 or lib.H5Pset_istore_k(fcpl.id, 16) < 0:
        sys.exit("H5Pset_sym_k or H5Pset_istore_k failed")
    fapl = h5py.h5p.create(h5py.h5p.FILE_ACCESS)
    fapl.set_libver_bounds(low, h5py.h5f.LIBVER_V18)
    return h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl, fapl=fapl))


# (file, lowest format version libhdf5 may use, non-default node capacities, superblock)
FILES = [("legacy.h5", h5py.h5f.LIBVER_EARLIEST, False, 0),
         ("v108.h5", h5py.h5f.LIBVER_V18, False, 2),
         ("ranks.h5", h5py.h5f.LIBVER_EARLIEST, True, 1),
         ("ranks_v108.h5", h5py.h5f.LIBVER_V18, True, 2)]
for name, low, ranks, expected in FILES:
    path = os.path.join(out, name)
    with create(path, low, ranks) as f:
        write_contents(name, f)
    with open(path, "rb") as handle:
        version = handle.read(9)[8]
    if version != expected:
        sys.exit("%s: superblock version %d, expected %d" % (name, version, expected))
    lines.append("F|%s|%d" % (name, version))

with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
