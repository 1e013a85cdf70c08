"""Writes what h5py users put in HDF5 files by default, with a manifest of every value as h5py
reads it back, for H5pyCompatFilesInQuireTest.

Usage: /usr/bin/python3 make_h5py_compat_fixtures.py OUTPUT_DIR

Writes the same contents twice, OUTPUT_DIR/compat.h5 (h5py's default libver: superblock 0,
version-1 object headers) and OUTPUT_DIR/compat_latest.h5 (libver="latest"), then
userblock_512.h5, userblock_4096.h5 and userblock_latest.h5 (a user block before the
superblock, as MATLAB v7.3 files have), prepended_512.h5 and prepended_512_latest.h5 (512 bytes
put before a finished file: the superblock says base address 0), and OUTPUT_DIR/manifest.txt, one record per line:

  O|file|path|kind                                  kind: group, dataset or datatype
  D|file|path|type code|shape|values                a dataset and every element h5py reads
  A|file|object path|name|type code|shape|values    an attribute
  U|file|path|reason                                an object, link ("path") or attribute
                                                    ("object path@name") Quire does not read;
                                                    its message must contain reason
  L|file|path|target                                a soft link and the object it leads to
                                                    (empty: none, a dangling link)

Type codes: vlen-utf8, vlen-ascii, S<n> (fixed bytes), bool, enum(<base code>){NAME=value;...},
i<n><order>, u<n><order> (n bytes, 1 to 8), f<n><order>. Values are separated by commas:
integers (enum and bool members as their integer) in decimal, floats as the hex digits of
their IEEE bits (big-endian), strings as the hex digits of their bytes as h5py returns them
(fixed strings without trailing NULs, UTF-8 text encoded). A scalar has shape "".

Integers of 3, 5, 6 and 7 bytes have no numpy type: they are made with h5py's low-level API
(a copy of a standard integer type with H5Tset_size) and read by libhdf5 converting to int64.
"""
import os
import struct
import sys

import h5py
import numpy as np

from fixture_manifest import record_attributes, record_dataset

out = sys.argv[1]
lines = []

VLEN_UTF8 = h5py.string_dtype("utf-8")
VLEN_ASCII = h5py.string_dtype("ascii")
COLOURS = {"RED": 0, "GREEN": 1, "BLUE": 7}
UNSUPPORTED_ATTRIBUTES = ("reference", "empty", "vlen_record", "int128")


def odd_integer(group, label, size, signed, big_endian, numbers):
    """A dataset of `size`-byte integers (no numpy type has that size)."""
    base = {(True, False): h5py.h5t.STD_I64LE, (True, True): h5py.h5t.STD_I64BE,
            (False, False): h5py.h5t.STD_U64LE, (False, True): h5py.h5t.STD_U64BE}
    tid = base[(signed, big_endian)].copy()
    tid.set_size(size)
    space = h5py.h5s.create_simple((len(numbers),))
    dset = h5py.h5d.create(group.id, label.encode(), tid, space)
    memory = np.array(numbers, dtype="i8" if signed else "u8")
    dset.write(h5py.h5s.ALL, h5py.h5s.ALL, memory,
               mtype=h5py.h5t.NATIVE_INT64 if signed else h5py.h5t.NATIVE_UINT64)
    back = np.zeros(len(numbers), dtype="i8" if signed else "u8")
    dset.read(h5py.h5s.ALL, h5py.h5s.ALL, back,
              mtype=h5py.h5t.NATIVE_INT64 if signed else h5py.h5t.NATIVE_UINT64)
    order = ">" if big_endian else "<"
    return "%s%d%s" % ("i" if signed else "u", size, order), back


def write_contents(f):
    """Everything h5py writes by default; returns the odd-integer manifest lines to add."""
    f.attrs["title"] = "run 42"
    f.attrs["ascii_text"] = np.array(b"plain", dtype=VLEN_ASCII)
    f.attrs["names"] = ["alpha", "\u03b2eta", ""]
    f.attrs["flag"] = True
    f.attrs["flags"] = np.array([True, False, True])
    f.attrs.create("colour", 7, dtype=h5py.enum_dtype(COLOURS, basetype="i1"))
    f.attrs["count"] = np.int32(-7)
    f.attrs["ratio"] = 0.25
    f.attrs["raw"] = np.bytes_(b"a\x00b\xff")
    f.attrs["unicode_\u00e9"] = "caf\u00e9"
    f.attrs["fixed_utf8"] = np.array("caf\u00e9".encode(), dtype=h5py.string_dtype("utf-8", 8))

    text = f.create_group("text")
    text.create_dataset("utf8", data=np.array(["alpha", "\u03b2eta", "", "x" * 300],
                                                dtype=VLEN_UTF8))
    text.create_dataset("ascii_2d", data=np.array([[b"a", b"bc"], [b"caf\xe9", b"\x7f~"]],
                                                    dtype=VLEN_ASCII))
    text.create_dataset("chunked", data=np.array(["s%d" % i for i in range(50)],
                                                   dtype=VLEN_UTF8), chunks=(8,),
                        compression="gzip")
    text.create_dataset("scalar", data="just one", dtype=VLEN_UTF8)
    text.create_dataset("unwritten", shape=(5,), dtype=VLEN_UTF8)
    text.create_dataset("fixed_nul", data=np.array([b"a\x00b", b"\xff\xfe", b"", b"abc\x00"],
                                                     dtype="S5"))

    enums = f.create_group("enums")
    enums.create_dataset("bools", data=np.array([True, False, False, True, True]))
    enums.create_dataset("bools_chunked", data=np.arange(20) % 3 == 0, chunks=(6,),
                         compression="gzip", shuffle=True)
    enums.create_dataset("colours", data=np.array([0, 1, 7, 7, 0], dtype="u2"),
                         dtype=h5py.enum_dtype(COLOURS, basetype="u2"))
    enums.create_dataset("colours_be", data=np.array([7, 1], dtype=">i4"),
                         dtype=h5py.enum_dtype(COLOURS, basetype=">i4"))

    scalars = f.create_group("scalars")
    scalars.create_dataset("float", data=np.float64(3.5))
    scalars.create_dataset("int", data=np.int16(-300))
    scalars.create_dataset("bool", data=np.bool_(True))
    scalars.attrs["scalar_int"] = np.uint8(200)

    named = f.create_group("named")
    named["int16_type"] = np.dtype("<i2")
    named["int16_type"].attrs["doc"] = "a committed type"
    typed = named.create_dataset("typed", data=np.arange(6, dtype="<i2"),
                                 dtype=named["int16_type"])
    typed.attrs.create("typed_attr", np.int16(5), dtype=named["int16_type"])

    empty = f.create_group("unwritten")
    empty.create_dataset("extensible", shape=(0,), maxshape=(None,), chunks=(4,), dtype="i4")
    empty.create_dataset("extensible_sized", shape=(10,), maxshape=(None,), chunks=(4,),
                         dtype="f4", fillvalue=2.5)
    empty.create_dataset("fixed", shape=(10, 3), chunks=(4, 2), dtype="i2", fillvalue=-9)
    empty.create_dataset("btree", shape=(3, 3), maxshape=(None, None), chunks=(2, 2),
                         dtype="u1", fillvalue=4)
    empty.create_dataset("single", shape=(4,), chunks=(4,), dtype="f8", fillvalue=1.5)
    empty.create_dataset("filtered", shape=(9,), chunks=(3,), dtype="i8", compression="gzip")

    odd = f.create_group("integers")
    odd_records = []
    for size in range(1, 9):
        for signed in (True, False):
            for big in (False, True):
                low = -(1 << (8 * size - 1)) if signed else 0
                high = (1 << (8 * size - 1)) - 1 if signed else (1 << (8 * size)) - 1
                high = min(high, (1 << 63) - 1)
                numbers = [low, high, 0, 1, -1 if signed else 2, low // 3, high // 5]
                label = "%s%d%s" % ("i" if signed else "u", size, "be" if big else "le")
                code, back = odd_integer(odd, label, size, signed, big, numbers)
                odd_records.append((odd.name + "/" + label, code, back))

    # What Quire does not read: each next to something it reads, which must still read. (h5py's
    # Empty is a null dataspace: no shape at all.)
    weird = f.create_group("unsupported")
    weird.attrs["fine"] = np.int64(12)
    weird.attrs["reference"] = f["text"].ref
    weird.create_dataset("refs", data=np.array([f.ref, f["text"].ref], dtype=h5py.ref_dtype))
    weird.create_dataset("vlen_ints", shape=(2,), dtype=h5py.vlen_dtype("i4"))
    weird["vlen_ints"][0] = [1, 2, 3]
    weird.attrs["empty"] = h5py.Empty("f8")
    weird.create_dataset("empty", data=h5py.Empty("i4"))
    weird.create_dataset("readable", data=np.arange(3, dtype="i4"))
    weird["external"] = h5py.ExternalLink("elsewhere.h5", "/x")
    # h5py's usual table dtype: its strings are global heap IDs inside each record.
    table = np.dtype([("id", "<i4"), ("name", VLEN_UTF8)])
    weird.create_dataset("vlen_table", data=np.array([(1, "one"), (2, "two" * 1000)],
                                                     dtype=table))
    weird.attrs["vlen_record"] = np.array([(5, "five")], dtype=table)
    # A 16-byte integer (libhdf5 converts nothing wider than 8 bytes to a numpy type).
    int128 = h5py.h5t.STD_I64LE.copy()
    int128.set_size(16)
    int128.set_precision(128)
    h5py.h5d.create(weird.id, b"int128", int128, h5py.h5s.create_simple((2,)))
    h5py.h5a.create(weird.id, b"int128", int128, h5py.h5s.create(h5py.h5s.SCALAR))
    # One 4-byte member in 12 bytes; patch_array_member makes it a [3] array in compat.h5.
    weird.create_dataset("v1_array", shape=(2,), dtype=np.dtype(
        {"names": ["a"], "formats": ["<i4"], "offsets": [0], "itemsize": 12}))

    links = f.create_group("links")
    links.create_dataset("target", data=np.arange(2, dtype="<i2"))
    links["absolute"] = h5py.SoftLink("/text/utf8")
    links["relative"] = h5py.SoftLink("target")
    links["chain"] = h5py.SoftLink("/links/absolute")
    links["dangling"] = h5py.SoftLink("/nowhere")
    return odd_records


def record(name, f, odd_records):
    def visit(path, obj):
        if isinstance(obj, h5py.Datatype):
            lines.append("O|%s|%s|datatype" % (name, obj.name))
            record_attributes(lines, name, obj)
            return
        if isinstance(obj, h5py.Group):
            lines.append("O|%s|%s|group" % (name, obj.name))
            record_attributes(lines, name, obj, skip=UNSUPPORTED_ATTRIBUTES)
            return
        lines.append("O|%s|%s|dataset" % (name, obj.name))
        if obj.name.startswith("/integers") or obj.name in (
                "/unsupported/refs", "/unsupported/vlen_ints", "/unsupported/empty",
                "/unsupported/vlen_table", "/unsupported/int128", "/unsupported/v1_array"):
            return
        record_dataset(lines, name, obj)
        record_attributes(lines, name, obj)

    lines.append("O|%s|/|group" % name)
    record_attributes(lines, name, f)
    for key in ("text", "enums", "scalars", "named", "unwritten", "integers", "unsupported",
                "links"):
        lines.append("O|%s|/%s|group" % (name, key))
        record_attributes(lines, name, f[key], skip=UNSUPPORTED_ATTRIBUTES)
        f[key].visititems(visit)
    for path, code, back in odd_records:
        lines.append("D|%s|%s|%s|%d|%s" % (name, path, code, len(back),
                                           ",".join(str(int(v)) for v in back)))
    for what, reason in (("/unsupported@reference", "reference"),
                         ("/unsupported/refs", "reference"),
                         ("/unsupported/vlen_ints", "variable-length sequence"),
                         ("/unsupported@empty", "null dataspace"),
                         ("/unsupported/empty", "null dataspace"),
                         ("/unsupported/external", "external link"),
                         ("/unsupported/vlen_table", "variable-length string member \"name\""),
                         ("/unsupported@vlen_record",
                          "variable-length string member \"name\""),
                         ("/unsupported/int128", "16-byte integer"),
                         ("/unsupported@int128", "16-byte integer")):
        lines.append("U|%s|%s|%s" % (name, what, reason))
    if name == "compat.h5":
        lines.append("U|%s|/unsupported/v1_array|array member \"a\" (1 dimensions)" % name)
    for link, target in (("/links/absolute", "/text/utf8"), ("/links/relative", "/links/target"),
                         ("/links/chain", "/text/utf8")):
        if f[link] != f[target]:
            raise SystemExit("%s: %s does not lead to %s" % (name, link, target))
        lines.append("L|%s|%s|%s" % (name, link, target))
    if f.get("/links/dangling") is not None:
        raise SystemExit("%s: /links/dangling leads somewhere" % name)
    lines.append("L|%s|/links/dangling|" % name)


def patch_array_member(path):
    """Makes member "a" of /unsupported/v1_array's version-1 compound a [3] array of int32, as
    libhdf5 1.4 wrote array members (its dimensionality and first dimension size)."""
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    # Version 1, class 6 (compound), 1 member, size 12; member "a" padded to 8 bytes, offset 0.
    message = bytes([0x16, 1, 0, 0, 12, 0, 0, 0]) + b"a" + bytes(7) + bytes(4)
    at = data.find(message)
    if at < 0 or data.find(message, at + 1) >= 0:
        raise SystemExit("%s: no single version-1 compound message to patch" % path)
    fields = at + len(message)
    data[fields] = 1                                      # dimensionality
    data[fields + 12:fields + 16] = (3).to_bytes(4, "little")  # dimension 0 size
    with open(path, "wb") as handle:
        handle.write(data)


for name, libver in (("compat.h5", "earliest"), ("compat_latest.h5", "latest")):
    with h5py.File(os.path.join(out, name), "w", libver=libver) as f:
        odd_records = write_contents(f)
    if libver == "earliest":
        patch_array_member(os.path.join(out, name))
        with h5py.File(os.path.join(out, name), "r") as f:
            member = f["/unsupported/v1_array"].dtype["a"]
            if member.shape != (3,):
                raise SystemExit("%s: patched member reads as %s" % (name, member))
    with h5py.File(os.path.join(out, name), "r") as f:
        record(name, f, odd_records)

for name, size, libver in (("userblock_512.h5", 512, "earliest"),
                           ("userblock_4096.h5", 4096, "earliest"),
                           ("userblock_latest.h5", 1024, "latest")):
    path = os.path.join(out, name)
    with h5py.File(path, "w", userblock_size=size, libver=libver) as f:
        f.attrs["title"] = "user block of %d bytes" % size
        f.create_dataset("data", data=np.arange(12, dtype="<f8").reshape(3, 4), chunks=(2, 2))
        f.create_dataset("plain", data=np.arange(5, dtype=">i4"))
    with open(path, "r+b") as handle:
        handle.write(b"MATLAB 7.3 MAT-file, a user block Quire must skip".ljust(128, b" "))
    with h5py.File(path, "r") as f:
        if f.userblock_size != size:
            raise SystemExit("%s: user block of %d bytes, meant %d" % (name, f.userblock_size,
                                                                       size))
        lines.append("O|%s|/|group" % name)
        record_attributes(lines, name, f)
        for key in ("data", "plain"):
            lines.append("O|%s|/%s|dataset" % (name, key))
            record_dataset(lines, name, f[key])

# A user block prepended to a finished file (cat block.bin plain.h5): its superblock keeps base
# address 0, and libhdf5 takes the superblock's own offset as the base.
for name, libver in (("prepended_512.h5", "earliest"), ("prepended_512_latest.h5", "latest")):
    path = os.path.join(out, name)
    with h5py.File(path, "w", libver=libver) as f:
        f.attrs["title"] = "512 bytes prepended"
        f.create_dataset("data", data=np.arange(12, dtype="<f8").reshape(3, 4), chunks=(2, 2))
        f.create_dataset("plain", data=np.arange(5, dtype=">i4"))
    with open(path, "rb") as handle:
        plain = handle.read()
    with open(path, "wb") as handle:
        handle.write(bytes(512) + plain)
    with h5py.File(path, "r") as f:
        lines.append("O|%s|/|group" % name)
        record_attributes(lines, name, f)
        for key in ("data", "plain"):
            lines.append("O|%s|/%s|dataset" % (name, key))
            record_dataset(lines, name, f[key])

with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
