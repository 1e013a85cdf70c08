"""What the h5py fixture generators (make_h5py_*.py) share: how a manifest line spells a numpy
type and a list of numbers. The Java tests parse these spellings (H5pyFixtures and the tests
that read the manifests)."""


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
