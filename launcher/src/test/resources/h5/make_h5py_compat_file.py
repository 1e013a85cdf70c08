"""Writes the file of H5CompatIT: what h5py users write by default, in h5py's default format.

usage: /usr/bin/python3 make_h5py_compat_file.py FILE.h5 USERBLOCK.h5 UNWRITTEN.h5

FILE.h5: a str attribute (a variable-length UTF-8 string), bools, an enumeration, a scalar,
variable-length strings in UTF-8 and in ASCII with a byte 0xe9, fixed-length strings with
embedded NULs and bytes 0xff, a committed datatype and a dataset using it, a chunked dataset
never written, and a group with an attribute and a dataset of object references (which Quire
does not read) beside ones it reads. USERBLOCK.h5: a dataset after a user block of 512 bytes.
UNWRITTEN.h5 (libver "latest"): chunked datasets never written, whose chunk index libhdf5 has
not allocated (extensible array, fixed array, version-2 B-tree), before one that was written.
"""
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "w") as f:
    f.attrs["title"] = "run 42"
    f.attrs["flag"] = True
    f.create_dataset("text", data=np.array(["caf\u00e9", "\u03b2eta", ""],
                                           dtype=h5py.string_dtype()))
    f.create_dataset("ascii", data=np.array([b"caf\xe9", b'q"\\'],
                                            dtype=h5py.string_dtype("ascii")))
    f.create_dataset("raw", data=np.array([b"a\x00b", b"\xff\xfe", b"abc"], dtype="S4"))
    f.create_dataset("bools", data=np.array([True, False, True]))
    f.create_dataset("colours", data=np.array([0, 2, 1], dtype="u1"),
                     dtype=h5py.enum_dtype({"RED": 0, "GREEN": 1, "BLUE": 2}, basetype="u1"))
    f.create_dataset("scalar", data="only one", dtype=h5py.string_dtype())
    f["int16"] = np.dtype("<i2")
    f.create_dataset("typed", data=np.arange(3, dtype="<i2"), dtype=f["int16"])
    f.create_dataset("empty", shape=(0,), maxshape=(None,), chunks=(4,), dtype="i4")
    refs = f.create_group("refs")
    refs.attrs["fine"] = np.int32(3)
    refs.attrs["target"] = f["text"].ref
    refs.create_dataset("objects", data=np.array([f.ref], dtype=h5py.ref_dtype))
    refs.create_dataset("plain", data=np.arange(2, dtype="<i4"))

with h5py.File(sys.argv[2], "w", userblock_size=512) as f:
    f.create_dataset("data", data=np.arange(4, dtype="<i8"))

with h5py.File(sys.argv[3], "w", libver="latest") as f:
    f.create_dataset("a_extensible", shape=(0,), maxshape=(None,), chunks=(4,), dtype="i4")
    f.create_dataset("b_fixed", shape=(3,), chunks=(2,), dtype="i2", fillvalue=-9)
    f.create_dataset("c_btree", shape=(2, 2), maxshape=(None, None), chunks=(1, 1), dtype="u1",
                     fillvalue=4)
    f.create_dataset("d_written", data=np.arange(3, dtype="<i8"), chunks=(2,))
