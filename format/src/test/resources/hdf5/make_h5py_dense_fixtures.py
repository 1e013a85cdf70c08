"""Writes an HDF5 file with h5py (libhdf5) whose groups and attributes are stored densely and
whose datasets are contiguous or compact, with a manifest of what it holds.

Usage: /usr/bin/python3 make_h5py_dense_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/dense.h5 (libver="latest"), OUTPUT_DIR/external.h5 (one dataset stored in
the external file OUTPUT_DIR/external.raw), one OUTPUT_DIR/<n>.bin per dataset with the bytes
the dataset must read as (fill value where nothing was written), and OUTPUT_DIR/manifest.txt,
one record per line:

  G|group path|storage|member names in h5py's iteration order (separated by "/")
  D|path|layout|shape|type code|fill hex|bin file
  A|object path|attribute names in h5py's iteration order (separated by "/")
  V|object path|name|type code|shape|value hex

storage is what h5py reports: "dense" when the group keeps its links in a fractal heap,
"compact" otherwise; layout is "contiguous" or "compact". Type codes as in
make_h5py_fixtures.py. The script fails if libhdf5 did not store a group or dataset the way it
is meant to exercise.

What libhdf5 1.10.8 does here (default group creation properties: at most 8 links or
attributes stored compactly):
  - more than 8 links: a fractal heap of link messages (512-byte starting blocks, 4 per row,
    direct blocks up to 64 KiB) and a version-2 B-tree of name hashes (record type 5);
  - /wide holds 1,000 links with names of 500..699 bytes: about 600 KiB of link messages,
    more than the 9 direct-block rows of the root indirect block hold, so the heap has child
    indirect blocks, and the name B-tree has internal nodes;
  - track_order=True adds creation-order B-trees (record types 6 and 9) and h5py then lists
    links and attributes in creation order; otherwise h5py lists by name;
  - more than 8 attributes, or one too large for an object header message: a fractal heap of
    attribute messages and a B-tree of name hashes (record type 8); an attribute message over
    the heap's 4 KiB managed-object limit is a "huge" object, found through a third B-tree.
"""
import os
import subprocess
import sys

import h5py
import numpy as np

from fixture_manifest import csv, type_code

out = sys.argv[1]
path = os.path.join(out, "dense.h5")
lines = []
# (object path, object header address, "link" or "attribute", "dense" or "compact")
storage_checks = []


def storage(address, what):
    """How libhdf5 keeps the links or attributes of the object at `address`, as h5debug says
    (the file must be closed): "dense" if the link/attribute info message has a heap."""
    text = subprocess.run(["h5debug", path, str(address)], capture_output=True, text=True,
                          check=True).stdout
    heaps = [line.rsplit(":", 1)[1].strip() for line in text.splitlines()
             if "'Dense' %s storage fractal heap address" % what in line]
    return "dense" if heaps and heaps[0] != str(2 ** 64 - 1) else "compact"


def record_group(group, expected):
    storage_checks.append((group.name, h5py.h5o.get_info(group.id).addr, "link", expected))
    lines.append("G|%s|%s|%s" % (group.name, expected, "/".join(group.keys())))


def record_attributes(obj, values, expected="dense"):
    storage_checks.append((obj.name, h5py.h5o.get_info(obj.id).addr, "attribute", expected))
    lines.append("A|%s|%s" % (obj.name, "/".join(obj.attrs.keys())))
    for name, (value, dtype) in values.items():
        raw = np.asarray(value, dtype=dtype)
        back = obj.attrs[name]
        if not np.array_equal(np.asarray(back), raw):
            sys.exit("%s: attribute %s reads back differently" % (obj.name, name))
        lines.append("V|%s|%s|%s|%s|%s" % (obj.name, name, type_code(np.dtype(dtype)),
                                           csv(raw.shape), raw.tobytes().hex()))


def record_dataset(ds, expected_layout, full):
    layout = {h5py.h5d.CONTIGUOUS: "contiguous", h5py.h5d.COMPACT: "compact",
              h5py.h5d.CHUNKED: "chunked"}[ds.id.get_create_plist().get_layout()]
    if layout != expected_layout:
        sys.exit("%s: layout %s, expected %s" % (ds.name, layout, expected_layout))
    fill = np.zeros((), dtype=ds.dtype)
    ds.id.get_create_plist().get_fill_value(fill)
    binfile = "%d.bin" % len(lines)
    data = np.ascontiguousarray(full, dtype=ds.dtype)
    if ds.size and ds[()].tobytes() != data.tobytes():
        sys.exit("%s: reads back differently" % ds.name)
    with open(os.path.join(out, binfile), "wb") as handle:
        handle.write(data.tobytes())
    lines.append("D|%s|%s|%s|%s|%s|%s" % (ds.name, layout, csv(ds.shape), type_code(ds.dtype),
                                           fill.tobytes().hex(), binfile))


def attributes(obj, values):
    for name, (value, dtype) in values.items():
        obj.attrs.create(name, value, dtype=dtype)
    return values


def thirty_attributes():
    """30 attributes of every number type, both byte orders, strings, arrays and scalars."""
    kinds = ["<i1", "<u1", "<i2", ">u2", "<i4", ">i4", "<u4", "<i8", ">i8", "<u8", "<f4",
             ">f4", "<f8", ">f8"]
    values = {}
    for i, kind in enumerate(kinds):
        n = 1 + i % 4
        values["scalar_%s" % kind.replace("<", "le_").replace(">", "be_")] = (
            np.array(i * 3 - 5 if kind[1] != "u" else i * 3, dtype=kind)[()], kind)
        values["array_%02d_%s" % (i, kind[1:])] = (
            (np.arange(n * 3).reshape(n, 3) * (i + 1) - 4).astype(kind), kind)
    values["text"] = (np.bytes_(b"dense attribute storage"), "S23")
    values["texts"] = (np.array([b"one", b"two", b"three"], dtype="S5"), "S5")
    return values


with h5py.File(path, "w", libver="latest") as f:
    # 20 members: groups, contiguous datasets and a soft link, one nested dense group.
    g = f.create_group("twenty")
    for i in range(12):
        g.create_group("group_%02d" % i)
    for i in range(7):
        g.create_dataset("data_%02d" % i, data=np.arange(i + 1, dtype="<i4") * (i + 2))
    g["soft"] = h5py.SoftLink("/twenty/group_00")
    inner = g["group_03"]
    for i in range(10):
        inner.create_group("inner_%d" % (9 - i))
    record_group(g, "dense")
    record_group(inner, "dense")
    for i in range(7):
        d = g["data_%02d" % i]
        record_dataset(d, "contiguous", np.arange(i + 1, dtype="<i4") * (i + 2))

    # 1,000 members with long names: a heap with child indirect blocks, a B-tree with internal
    # nodes. The names are all distinct in their first 4 characters.
    wide = f.create_group("wide")
    for i in range(1000):
        wide.create_group("%04d_" % ((i * 379) % 1000) + chr(97 + i % 26) * (495 + i % 200))
    record_group(wide, "dense")

    # Creation order tracked: h5py lists links and attributes in the order they were made.
    ordered = f.create_group("ordered", track_order=True)
    for name in ["zeta", "alpha", "mu", "beta", "omega", "kappa", "delta", "pi", "epsilon",
                 "tau", "gamma", "sigma"]:
        ordered.create_group(name)
    record_group(ordered, "dense")
    values = {name: (np.int64(i * 100 + 1), "<i8") for i, name in
              enumerate(["z", "y", "x", "a", "b", "c", "m", "n", "o", "k"])}
    attributes(ordered, values)
    record_attributes(ordered, values)

    # 30 attributes of different types; one of 100,000 bytes (a huge heap object).
    holder = f.create_group("attributes")
    values = attributes(holder, thirty_attributes())
    big = {"large": (np.arange(12500, dtype="<f8") * 0.5, "<f8")}
    attributes(holder, big)
    values.update(big)
    record_attributes(holder, values)
    record_group(holder, "compact")

    # A dataset with dense attributes.
    d = f.create_dataset("with_attributes", data=np.arange(6, dtype="<u2").reshape(2, 3))
    values = {"attr_%02d" % i: (np.float32(i) / 4, "<f4") for i in range(12)}
    attributes(d, values)
    record_attributes(d, values)
    record_dataset(d, "contiguous", np.arange(6, dtype="<u2").reshape(2, 3))

    # Contiguous datasets of several types and shapes.
    c = f.create_group("contiguous")
    full = np.arange(1000, dtype="<i4") * 7 - 300
    record_dataset(c.create_dataset("ints_1d", data=full), "contiguous", full)
    full = np.arange(30 * 40, dtype="<f8").reshape(30, 40) / 8
    record_dataset(c.create_dataset("doubles_2d", data=full), "contiguous", full)
    full = (np.arange(4 * 5 * 6).reshape(4, 5, 6) * 13).astype(">u2")
    record_dataset(c.create_dataset("big_endian_3d", data=full), "contiguous", full)
    full = np.array([b"alpha", b"beta", b"gamma", b"delta"], dtype="S6")
    record_dataset(c.create_dataset("strings", data=full), "contiguous", full)
    record_dataset(c.create_dataset("scalar", data=np.float32(2.5)), "contiguous",
                   np.float32(2.5))
    # Never written: no storage allocated, every element reads as the fill value.
    record_dataset(c.create_dataset("unwritten", shape=(50, 3), dtype="<f4", fillvalue=-1.5),
                   "contiguous", np.full((50, 3), -1.5, dtype="<f4"))
    record_dataset(c.create_dataset("unwritten_default", shape=(7,), dtype=">i8"),
                   "contiguous", np.zeros(7, dtype=">i8"))

    # Compact: the data is in the layout message.
    full = np.arange(12, dtype="<i2").reshape(3, 4) - 6
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.COMPACT)
    space = h5py.h5s.create_simple((3, 4))
    h5py.h5d.create(c.id, b"compact_2d", h5py.h5t.STD_I16LE, space, dcpl=dcpl).write(
        h5py.h5s.ALL, h5py.h5s.ALL, full)
    record_dataset(c["compact_2d"], "compact", full)
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.COMPACT)
    dcpl.set_fill_value(np.array(42, dtype=">u4"))
    h5py.h5d.create(c.id, b"compact_unwritten", h5py.h5t.STD_U32BE,
                    h5py.h5s.create_simple((5,)), dcpl=dcpl)
    record_dataset(c["compact_unwritten"], "compact", np.full(5, 42, dtype=">u4"))
    record_group(c, "dense")

# A contiguous dataset whose elements are in another file (external storage), in a file of its
# own: Quire must refuse it rather than read fill values. The external file is named relative to
# the working directory (libhdf5 resolves it there), so the committed file holds no path of the
# machine that made it.
working_directory = os.getcwd()
os.chdir(out)
try:
    with h5py.File("external.h5", "w", libver="latest") as f:
        f.create_dataset("outside", shape=(4,), dtype="<i4",
                         external=[("external.raw", 0, 16)])[:] = [1, 2, 3, 4]
finally:
    os.chdir(working_directory)

for name, address, what, expected in storage_checks:
    found = storage(address, what)
    if found != expected:
        sys.exit("%s: libhdf5 stored the %ss %s, expected %s" % (name, what, found, expected))

with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
