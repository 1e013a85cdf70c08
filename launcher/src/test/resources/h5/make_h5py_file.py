"""Writes the h5py file of the `quire h5` tests (H5ListIT, H5DumpIT, H5VerifyIT) and, for each
dataset, the lines `quire h5 dump` must print, computed by Python itself (repr of the values).
It holds chunked datasets of every index type, a group /many with 13 links and 10 attributes
(more than libhdf5's 8: both stored densely) and two contiguous datasets (one a scalar) and a
compact one in it.

usage: /usr/bin/python3 make_h5py_file.py FILE.h5 EXPECTED.txt [LIBVER]
EXPECTED.txt holds, per dataset, a line "== /path" and then its dump lines. LIBVER is
"latest" (the default here) or "earliest" (h5py's own default: libhdf5's old format, where
every chunked dataset has a version-1 B-tree index and groups are symbol tables).
"""
import sys

import h5py
import numpy as np


def text(value):
    if isinstance(value, np.void):
        return "{" + ", ".join(f"{name}={text(value[name])}" for name in value.dtype.names) + "}"
    if isinstance(value, bytes):
        return '"' + value.decode("ascii").replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, np.float32):
        return str(value)  # numpy's shortest float32 text
    if isinstance(value, np.floating):
        return repr(float(value))
    return str(int(value))


def dump_lines(array):
    if array.ndim == 0:
        return ["[]: " + text(array[()])]
    lines = []
    for index in np.ndindex(array.shape[:-1]):
        first = ", ".join(str(i) for i in index + (0,))
        lines.append(f"[{first}]: " + ", ".join(text(v) for v in array[index]))
    return lines


def main(path, expected_path, libver):
    rng = np.random.default_rng(7)
    datasets = {}
    with h5py.File(path, "w", libver=libver) as f:
        f.attrs["origin"] = np.bytes_("h5py")
        group = f.create_group("g")
        datasets["/g/ints"] = group.create_dataset(
            "ints", data=np.arange(-6, 6, dtype=">i4").reshape(3, 4), chunks=(2, 2))
        datasets["/g/normal"] = group.create_dataset(
            "normal", data=rng.standard_normal((2, 3, 4)), chunks=(1, 2, 2),
            compression="gzip", shuffle=True, fletcher32=True)
        datasets["/g/normal"].attrs["seed"] = np.int64(7)
        datasets["/halfs"] = f.create_dataset(
            "halfs", data=rng.standard_normal(9).astype("<f4"), chunks=(4,), maxshape=(None,))
        datasets["/words"] = f.create_dataset(
            "words", data=np.array([b"one", b'tw"o', b"three"], dtype="S5"), chunks=(2,))
        # Two unlimited dimensions: libhdf5 indexes the chunks with a version-2 B-tree.
        datasets["/sheet"] = f.create_dataset(
            "sheet", data=np.arange(-15, 15, dtype="<i2").reshape(5, 6), chunks=(2, 4),
            maxshape=(None, None))
        # Space allocated early, no filter, no unlimited dimension: the implicit index.
        early = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        early.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
        datasets["/g/early"] = group.create_dataset(
            "early", data=np.arange(12, dtype="<u2").reshape(4, 3), chunks=(2, 2), dcpl=early)
        datasets["/pairs"] = f.create_dataset(
            "pairs", data=np.array([(1, 0.1), (-2, 1e-300)], dtype=[("n", "<i8"), ("v", ">f8")]),
            chunks=(2,))
        # More than 8 links and more than 8 attributes: libhdf5 stores both densely (fractal
        # heaps indexed by B-trees of name hashes).
        many = f.create_group("many")
        for i in range(10):
            many.create_group("sub_%02d" % (9 - i))
        for i in range(10):
            many.attrs["attr_%02d" % (9 - i)] = np.int32(i * i)
        # Contiguous (h5py's default without chunks or filters) and compact layouts.
        datasets["/many/plain"] = many.create_dataset(
            "plain", data=np.arange(12, dtype="<f8").reshape(3, 4) / 4 - 1)
        datasets["/many/scalar"] = many.create_dataset("scalar", data=np.float32(0.1))
        compact = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        compact.set_layout(h5py.h5d.COMPACT)
        h5py.h5d.create(many.id, b"small", h5py.h5t.STD_I16BE, h5py.h5s.create_simple((2, 3)),
                        dcpl=compact).write(h5py.h5s.ALL, h5py.h5s.ALL,
                                            np.array([[1, -2, 3], [-4, 5, -6]], dtype=">i2"))
        datasets["/many/small"] = many["small"]
        layouts = {name: datasets[name].id.get_create_plist().get_layout()
                   for name in ("/many/plain", "/many/scalar", "/many/small")}
        if layouts != {"/many/plain": h5py.h5d.CONTIGUOUS, "/many/scalar": h5py.h5d.CONTIGUOUS,
                       "/many/small": h5py.h5d.COMPACT}:
            sys.exit("layouts %s" % layouts)
        with open(expected_path, "w") as out:
            for name, dataset in datasets.items():
                out.write(f"== {name}\n")
                for line in dump_lines(dataset[()]):
                    out.write(line + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "latest")
