"""What the h5py fixture generators (make_h5py_*.py) share: how a manifest line spells a numpy
type and a list of numbers, and (for make_h5py_compat_fixtures.py and describe_h5py_file.py) a
dataset or attribute with every element as h5py reads it. The Java tests parse these
spellings (H5pyFixtures and the tests that read the manifests)."""
import struct

import h5py
import numpy as np


def type_code(dt):
    """`C<size>{name@offset=code;...}` for a compound, `S<size>/1` for a fixed-length byte
    string, else kind, size and byte order, e.g. `f8<`, `i2>`."""
    if dt.names:
        members = ";".join("%s@%d=%s" % (n, dt.fields[n][1], type_code(dt.fields[n][0]))
                           for n in dt.names)
        return "C%d{%s}" % (dt.itemsize, members)
    if dt.kind == "S":
        return "S%d/1" % dt.itemsize
    order = ">" if dt.byteorder == ">" else "<"
    return "%s%d%s" % (dt.kind, dt.itemsize, order)


def csv(values):
    """Numbers separated by commas; None (an unlimited maximum) as -1."""
    return ",".join(str(-1 if v is None else v) for v in values)


def shape_text(shape):
    return ",".join(str(n) for n in shape)


def h5py_type_code(dt):
    """The type code of make_h5py_compat_fixtures.py's manifest."""
    string = h5py.check_string_dtype(dt)
    if string is not None and string.length is None:
        return "vlen-utf8" if string.encoding == "utf-8" else "vlen-ascii"
    if dt == np.bool_:
        return "bool"
    enum = h5py.check_enum_dtype(dt)
    if enum is not None:
        members = ";".join("%s=%d" % (n, v) for n, v in sorted(enum.items(), key=lambda m: m[1]))
        return "enum(%s){%s}" % (h5py_type_code(np.dtype(dt.str)), members)
    if dt.kind == "S":
        return "S%d" % dt.itemsize
    order = ">" if dt.byteorder == ">" else "<"
    return "%s%d%s" % (dt.kind, dt.itemsize, order)


def token(value, dt):
    """One element as the manifest spells it."""
    if isinstance(value, str):
        return value.encode("utf-8").hex()
    if isinstance(value, bytes):
        return value.hex()
    if dt.kind == "f":
        return struct.pack(">d" if dt.itemsize == 8 else ">f", value).hex()
    return str(int(value))


def values(array, dt):
    flat = np.asarray(array, dtype=object if dt.kind == "O" else dt).reshape(-1)
    return ",".join(token(v, dt) for v in flat)


def record_dataset(lines, name, d):
    """Appends the D line of dataset `d` of file `name` (see make_h5py_compat_fixtures.py)."""
    dt = d.dtype
    lines.append("D|%s|%s|%s|%s|%s" % (name, d.name, h5py_type_code(dt), shape_text(d.shape),
                                       values(d[()], dt)))


def record_attributes(lines, name, obj, skip=()):
    """Appends an A line per attribute of `obj` of file `name`, except those in `skip`."""
    for key in obj.attrs:
        if key in skip:
            continue
        dt = obj.attrs.get_id(key).dtype
        value = obj.attrs[key]
        shape = obj.attrs.get_id(key).shape
        lines.append("A|%s|%s|%s|%s|%s|%s" % (name, obj.name, key, h5py_type_code(dt),
                                              shape_text(shape), values(value, dt)))
