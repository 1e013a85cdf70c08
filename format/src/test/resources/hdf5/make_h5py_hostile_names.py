"""Writes hostile_names.h5: objects, attributes, compound members and enumeration members whose
names hold what could forge output lines or drive a terminal, for the tests of `quire h5 ls`,
`dump` and `verify` (H5HostileNamesIT in the launcher module): a newline, a carriage return,
ESC sequences, a C1 control character (U+009B, a terminal's CSI), a backslash, and a byte that
is not UTF-8 (0xff). HDF5 names are C strings: no name can hold a NUL.

Usage: /usr/bin/python3 make_h5py_hostile_names.py OUTPUT_DIR

Also writes OUTPUT_DIR/manifest.txt, one line per object or attribute, names as the hex digits
of their bytes (a name may hold a newline):

  N|file|hex of the path (or "object path@attribute name")|kind    kind: group, dataset, attribute
"""
import os
import sys

import h5py
import numpy as np

out = sys.argv[1]
name = "hostile_names.h5"
lines = []

GROUP = "evil\nvalid: forged line"
ESCAPE = "\x1b[31mred\x1b[0m"
C1 = "c1\u009b31m"
NOT_UTF8 = b"bad\xff"
ARRAY = "arr\nquire h5 dump: forged error"

with h5py.File(os.path.join(out, name), "w", libver="latest") as f:
    group = f.create_group(GROUP)
    group.create_dataset(ESCAPE, data=np.arange(3, dtype="<i4"))
    group.create_dataset(C1, data=np.arange(2, dtype="<i2"))
    f.create_dataset(NOT_UTF8, data=np.arange(2, dtype="u1"))
    f.attrs["at\rtr"] = np.int32(1)
    f.attrs["back\\slash"] = "text"
    # A reference attribute, which Quire lists as unsupported under its name.
    f.attrs["ref\x1b]0;title\x07"] = f[GROUP].ref
    record = np.dtype([("x\ny", "<i4"), ("z\x1b[2J", "<f8")])
    f.create_dataset("records", data=np.array([(1, 0.5), (2, 1.5)], dtype=record))
    colour = h5py.enum_dtype({"A\x1b[2J": 0, "B\nforged": 1}, basetype="u1")
    f.create_dataset("colours", data=np.array([0, 1, 1], dtype="u1"), dtype=colour)
    # A variable-length sequence type, which Quire does not read: dumping it fails naming the
    # dataset.
    f.create_dataset(ARRAY, shape=(2,), dtype=h5py.vlen_dtype("<i4"))


def hexed(text):
    return (text if isinstance(text, bytes) else text.encode()).hex()


for path, kind in ((GROUP, "group"), (GROUP + "/" + ESCAPE, "dataset"),
                   (GROUP + "/" + C1, "dataset"), (NOT_UTF8, "dataset"),
                   ("records", "dataset"), ("colours", "dataset"), (ARRAY, "dataset")):
    full = (b"/" + path) if isinstance(path, bytes) else "/" + path
    lines.append("N|%s|%s|%s" % (name, hexed(full), kind))
for attribute in ("at\rtr", "back\\slash", "ref\x1b]0;title\x07"):
    lines.append("N|%s|%s|attribute" % (name, hexed("/@" + attribute)))

with open(os.path.join(out, "manifest.txt"), "w") as manifest:
    manifest.write("\n".join(lines) + "\n")
