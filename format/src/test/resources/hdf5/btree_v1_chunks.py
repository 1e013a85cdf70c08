"""Lets libhdf5 build a version-1 B-tree chunk index chunk by chunk, for Quire to build the same.

Usage: /usr/bin/python3 btree_v1_chunks.py write REFERENCE.h5 BASE.h5 ISTORE_K SHAPE CHUNK OPTION ORDER CHUNKS
       /usr/bin/python3 btree_v1_chunks.py compare A.h5 B.h5

write: creates two files in libhdf5's default format (superblock 0, or 1 with ISTORE_K > 0: the
indexed storage K set through ctypes, since h5py does not wrap H5Pset_istore_k), each with the
int32 dataset "x" of SHAPE (e.g. 40x8) in chunks of CHUNK. OPTION "gzip": gzip-compressed chunks;
"emptied": a 1-D dataset whose chunks libhdf5 wrote and removed again (resized to 0 and back),
leaving a root node with no child; "-": neither. ORDER names one chunk per word ("i,j" in chunk
coordinates; "i,j,r": the chunk rewritten, its values plus 7, compressed to another size).
REFERENCE.h5 gets every chunk in that order through write_direct_chunk (each one inserted into
the B-tree at once, no chunk cache between); BASE.h5 only the first, none when emptied. CHUNKS
gets one line per word, "coordinates hex-bytes", the exact bytes stored.
compare: prints "same" when both files' "x" hold the same values, else what differs.
"""
import ctypes
import sys
import zlib

import h5py
import numpy as np


def chunk_bytes(shape, chunk, coords, rewrite, gzip):
    index = np.indices(chunk)
    flat = np.zeros(chunk, dtype=np.int64)
    for d in range(len(shape)):
        flat = flat * shape[d] + index[d] + coords[d] * chunk[d]
    raw = (flat + (7 if rewrite else 0)).astype("<i4").tobytes()
    return zlib.compress(raw, 9 if rewrite else 1) if gzip else raw


def create(path, k, shape, chunk, option):
    fcpl = h5py.h5p.create(h5py.h5p.FILE_CREATE)
    if k:
        lib = ctypes.CDLL("libhdf5_serial.so.103")
        lib.H5Pset_istore_k.argtypes = [ctypes.c_int64, ctypes.c_uint]
        if lib.H5Pset_istore_k(fcpl.id, k) < 0:
            sys.exit("H5Pset_istore_k failed")
    f = h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl))
    x = f.create_dataset("x", shape=shape, chunks=chunk, dtype="<i4",
                         compression="gzip" if option == "gzip" else None,
                         maxshape=(None,) if option == "emptied" else None)
    if option == "emptied":
        x[:] = 1
        x.resize((0,))
        x.resize(shape)
    return f, x


def write(reference, base, k, shape, chunk, option, order, chunks):
    shape = tuple(int(x) for x in shape.split("x"))
    chunk = tuple(int(x) for x in chunk.split("x"))
    gzip = option == "gzip"
    words = open(order).read().split()
    ref_file, ref = create(reference, int(k), shape, chunk, option)
    base_file, first = create(base, int(k), shape, chunk, option)
    with ref_file, base_file, open(chunks, "w") as out:
        for n, word in enumerate(words):
            parts = word.split(",")
            coords = [int(x) for x in parts[:len(shape)]]
            data = chunk_bytes(shape, chunk, coords, parts[-1] == "r", gzip)
            offset = tuple(coords[d] * chunk[d] for d in range(len(shape)))
            ref.id.write_direct_chunk(offset, data)
            if n == 0 and option != "emptied":
                first.id.write_direct_chunk(offset, data)
            out.write(",".join(map(str, coords)) + " " + data.hex() + "\n")


def compare(a, b):
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        x, y = fa["x"][()], fb["x"][()]
        if x.shape != y.shape or not np.array_equal(x, y):
            where = np.argwhere(x != y)
            print("differ at", len(where), "elements, first", where[:3].tolist())
        else:
            print("same")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(*sys.argv[2:10])
    else:
        compare(*sys.argv[2:4])
