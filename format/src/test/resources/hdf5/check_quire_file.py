"""Checks an HDF5 file Quire wrote against the manifest the Java test wrote next to it.

Usage: /usr/bin/python3 check_quire_file.py FILE.h5 MANIFEST.json

For every dataset in the manifest: shape, maximum shape, chunk shape, dtype (and string
padding), filters, fill value, the chunk index libhdf5 sees (from h5debug's "Index Type:"), and
every byte of the checked hyperslab. For every attribute: dtype, shape and bytes (for a
variable-length string: h5py's string type, the shape and the bytes of each string). Groups must
exist. Prints one line per mismatch and "checked D datasets, A attributes, G groups"; exits 1 on
any mismatch.
"""
import json
import os
import subprocess
import sys

import h5py
import numpy as np


def dtype_of(spec):
    if isinstance(spec, dict):
        return np.dtype({"names": spec["names"], "formats": [dtype_of(f) for f in spec["formats"]],
                         "offsets": spec["offsets"], "itemsize": spec["itemsize"]})
    return np.dtype(spec)


def index_type(path, address):
    out = subprocess.run(["h5debug", path, str(address)], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        if "Index Type:" in line:
            return line.split(":", 1)[1].strip()
    return None


def read_raw(ds, start, count):
    """The hyperslab's bytes in the file's own type (no string padding conversion)."""
    if 0 in count:
        return b""
    file_space = ds.id.get_space()
    file_space.select_hyperslab(tuple(start), tuple(count))
    data = np.empty(tuple(count), dtype=ds.dtype)
    ds.id.read(h5py.h5s.create_simple(tuple(count)), file_space, data, mtype=ds.id.get_type())
    return data.tobytes()


def main(path, manifest_path):
    manifest = json.load(open(manifest_path))
    base = os.path.dirname(manifest_path)
    errors = []
    with h5py.File(path, "r") as f:
        for group in manifest["groups"]:
            if not isinstance(f.get(group), h5py.Group):
                errors.append("%s: not a group" % group)
        for d in manifest["datasets"]:
            p = d["path"]
            ds = f.get(p)
            if not isinstance(ds, h5py.Dataset):
                errors.append("%s: not a dataset" % p)
                continue

            def expect(what, found, wanted):
                if found != wanted:
                    errors.append("%s: %s is %r, expected %r" % (p, what, found, wanted))

            expect("shape", ds.shape, tuple(d["shape"]))
            expect("maxshape", ds.maxshape, tuple(d["maxshape"]))
            expect("chunks", ds.chunks, tuple(d["chunks"]))
            expect("dtype", ds.dtype, dtype_of(d["dtype"]))
            if d["strpad"] >= 0:
                expect("string padding", ds.id.get_type().get_strpad(), d["strpad"])
            expect("compression", ds.compression, d["compression"])
            expect("shuffle", ds.shuffle, d["shuffle"])
            expect("fletcher32", ds.fletcher32, d["fletcher32"])
            fill = np.zeros((), dtype=ds.dtype)
            ds.id.get_create_plist().get_fill_value(fill)
            expect("fill value", fill.tobytes().hex(), d["fill"])
            expect("index type", index_type(path, h5py.h5o.get_info(ds.id).addr), d["index"])
            got = read_raw(ds, d["start"], d["count"])
            wanted = open(os.path.join(base, d["expected"]), "rb").read()
            if got != wanted:
                first = next((i for i in range(min(len(got), len(wanted))) if got[i] != wanted[i]),
                             min(len(got), len(wanted)))
                errors.append("%s: data differs (%d vs %d bytes, first difference at byte %d)"
                              % (p, len(got), len(wanted), first))
        for a in manifest["attributes"]:
            obj = f[a["object"]]
            name = a["name"]
            if name not in obj.attrs:
                errors.append("%s: no attribute %s" % (a["object"], name))
                continue
            attr = h5py.h5a.open(obj.id, name.encode())
            where = "%s@%s" % (a["object"], name)
            if a["dtype"] in ("vlen-utf8", "vlen-ascii"):
                string = h5py.check_string_dtype(attr.dtype)
                encoding = "utf-8" if a["dtype"] == "vlen-utf8" else "ascii"
                if string is None or string.length is not None or string.encoding != encoding:
                    errors.append("%s: dtype %r, expected %s" % (where, attr.dtype, a["dtype"]))
                    continue
                value = obj.attrs[name]
                texts = [value] if attr.shape == () else list(np.asarray(value).reshape(-1))
                got = [t.encode("utf-8") if isinstance(t, str) else bytes(t) for t in texts]
                if attr.shape != tuple(a["shape"]) or [t.hex() for t in got] != a["strings"]:
                    errors.append("%s: %r of shape %r, expected %r of shape %r"
                                  % (where, got, attr.shape, a["strings"], a["shape"]))
                continue
            value = np.empty(attr.shape, dtype=attr.dtype)
            attr.read(value)
            if attr.dtype != dtype_of(a["dtype"]):
                errors.append("%s: dtype %r, expected %r" % (where, attr.dtype, a["dtype"]))
            if attr.shape != tuple(a["shape"]):
                errors.append("%s: shape %r, expected %r" % (where, attr.shape, a["shape"]))
            if value.tobytes().hex() != a["hex"]:
                errors.append("%s: bytes %s, expected %s" % (where, value.tobytes().hex(), a["hex"]))
    for error in errors:
        print("MISMATCH " + error)
    print("checked %d datasets, %d attributes, %d groups"
          % (len(manifest["datasets"]), len(manifest["attributes"]), len(manifest["groups"])))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
