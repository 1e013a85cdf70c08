"""Compares what h5py reads from two HDF5 files: members in iteration order, link kinds and
targets, attributes (names in order, types, values), and for each dataset its type, shape,
maximum shape, chunk shape, filters, fill value, layout, external storage and every value.
Object header timestamps and addresses are not compared: they differ between two runs of the
same generator.

usage: /usr/bin/python3 compare_h5_contents.py EXPECTED.h5 FOUND.h5
Prints one line per difference and exits with 1 if there is any, 0 otherwise.
"""
import sys

import h5py
import numpy

differences = []


def differ(path, what, expected, found):
    if expected != found:
        differences.append("%s: %s: expected %r, found %r" % (path, what, expected, found))


def value_of(array):
    """Values as comparable Python data; variable-length items are objects, not raw bytes."""
    array = numpy.asarray(array)
    if array.dtype.hasobject:
        return repr(array.tolist())
    return (str(array.dtype), array.shape, array.tobytes())


def compare_attributes(path, expected, found):
    differ(path, "attribute names", list(expected.attrs.keys()), list(found.attrs.keys()))
    for name in expected.attrs.keys():
        if name in found.attrs:
            differ(path + "@" + name, "value", attribute_value(expected, name),
                   attribute_value(found, name))


def attribute_value(obj, name):
    """The attribute's value as h5py reads it, or its stored bytes for a type numpy has no
    dtype for (an integer of 16 bytes)."""
    try:
        return value_of(obj.attrs[name])
    except TypeError:
        attribute = obj.attrs.get_id(name)
        file_type = attribute.get_type()
        raw = numpy.empty(attribute.shape, dtype="V%d" % file_type.get_size())
        attribute.read(raw, mtype=file_type)
        return raw.tobytes()


def numpy_dtype(dataset):
    """The dataset's numpy dtype, or None for an HDF5 type numpy has none for (an integer of
    3, 5, 6 or 7 bytes)."""
    try:
        return dataset.dtype
    except TypeError:
        return None


def stored_values(dataset):
    """Every value: as h5py reads it, or the stored bytes of a type numpy has no dtype for."""
    if numpy_dtype(dataset) is not None:
        return value_of(dataset[()])
    file_type = dataset.id.get_type()
    raw = numpy.empty(dataset.shape, dtype="V%d" % file_type.get_size())
    dataset.id.read(h5py.h5s.ALL, h5py.h5s.ALL, raw, mtype=file_type)
    return raw.tobytes()


def fill_value(dataset, dtype, plist):
    """The fill value as h5py reads it; for a type numpy has no dtype for, or a
    variable-length one (h5py 3.7 crashes reading the fill value of a variable-length string
    dataset), whether it is defined (H5D_FILL_VALUE_*)."""
    if dtype is None or dtype.hasobject:
        return "defined %d" % plist.fill_value_defined()
    return value_of(dataset.fillvalue)


def creation_properties(dataset):
    plist = dataset.id.get_create_plist()
    external = [plist.get_external(i) for i in range(plist.get_external_count())]
    dtype = numpy_dtype(dataset)
    return {
        "dtype": str(dtype) if dtype is not None
        else "HDF5 type " + dataset.id.get_type().encode().hex(),
        "shape": dataset.shape, "maxshape": dataset.maxshape,
        "chunks": dataset.chunks, "compression": dataset.compression,
        "compression_opts": dataset.compression_opts, "shuffle": dataset.shuffle,
        "fletcher32": dataset.fletcher32,
        "fillvalue": fill_value(dataset, dtype, plist),
        "layout": plist.get_layout(), "external": external,
    }


def compare_dataset(path, expected, found):
    expected_properties = creation_properties(expected)
    found_properties = creation_properties(found)
    for key, value in expected_properties.items():
        differ(path, key, value, found_properties[key])
    # External raw data lives beside the file; the caller compares those files byte for byte.
    if not expected_properties["external"] and expected_properties["shape"] == found_properties["shape"] \
            and expected_properties["dtype"] == found_properties["dtype"]:
        if stored_values(expected) != stored_values(found):
            differences.append("%s: values differ" % path)


def member_names(group):
    """Member names as stored, in iteration order, as bytes: h5py cannot look up a name that
    is not UTF-8 by its str form."""
    return list(group.id)


def compare_group(path, expected, found):
    compare_attributes(path, expected, found)
    expected_names, found_names = member_names(expected), member_names(found)
    differ(path, "members", expected_names, found_names)
    for name in expected_names:
        if name not in found_names:
            continue
        member = path.rstrip("/") + "/" + name.decode("utf-8", "surrogateescape")
        expected_kind = expected.id.links.get_info(name).type
        found_kind = found.id.links.get_info(name).type
        differ(member, "link kind", expected_kind, found_kind)
        if expected_kind != found_kind:
            continue
        if expected_kind != h5py.h5l.TYPE_HARD:
            # A soft link's target path, an external link's file and path.
            differ(member, "link value", expected.id.links.get_val(name),
                   found.id.links.get_val(name))
            continue
        expected_object, found_object = expected[name], found[name]
        differ(member, "object kind", type(expected_object).__name__, type(found_object).__name__)
        if isinstance(expected_object, h5py.Group) and isinstance(found_object, h5py.Group):
            compare_group(member, expected_object, found_object)
        elif isinstance(expected_object, h5py.Dataset) and isinstance(found_object, h5py.Dataset):
            compare_attributes(member, expected_object, found_object)
            compare_dataset(member, expected_object, found_object)


def main(expected_path, found_path):
    with h5py.File(expected_path, "r") as expected, h5py.File(found_path, "r") as found:
        compare_group("/", expected, found)
    for line in differences:
        print(line)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
