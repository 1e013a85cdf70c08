"""An h5py (libhdf5) SWMR writer for Quire's SWMR reader tests.

usage: swmr_writer.py FILE lockstep          appends as stdin says: "append K" or "close"; also
                                             "extend K" (grow and flush, data not written),
                                             "write" (write the grown part and flush),
                                             "rewrite I V" (plain[I] = packed[I] = V, flush)
       swmr_writer.py FILE run TOTAL BATCH   appends TOTAL elements in batches, flat out
       swmr_writer.py FILE grid              lockstep as above ("append K", "rewrite I V",
                                             "close") on two datasets of two unlimited
                                             dimensions (v2 B-tree indexes): grid int64 in
                                             chunks of 1 x 1, packedgrid gzip in 8 x 2; rows of 2,
                                             row i = (3 * i + 1, 3 * i + 2), "rewrite I V" sets
                                             row I to (V, V); libhdf5 rewrites B-tree nodes in
                                             place and moves rewritten gzip chunks

Creates FILE (libver latest), three datasets growing along one unlimited dimension:
  plain    int64, chunks of 64, element i = 3 * i + 1 (never 0, the fill value)
  packed   the same values, gzip-compressed chunks of 64
  records  the record contract of docs/swmr.md: 8 little-endian uint64 members
           seq, t_ns, p0..p4, sum; seq = i, p_k = splitmix64(i * 8 + k),
           sum = seq ^ p0 ^ ... ^ p4 ^ t_ns; chunks of 1024
switches SWMR writing on, prints "ready", then after each flush "flushed N" (N elements in
every dataset, all of them flushed). Exits 0 after a clean close.
"""
import sys
import time

import h5py
import numpy

MASK = (1 << 64) - 1
RECORD = numpy.dtype([(name, "<u8") for name in
                      ("seq", "t_ns", "p0", "p1", "p2", "p3", "p4", "sum")])


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def records(start, count):
    out = numpy.zeros(count, dtype=RECORD)
    now = time.monotonic_ns()
    for j in range(count):
        i = start + j
        p = [splitmix64(i * 8 + k) for k in range(5)]
        s = i ^ now
        for v in p:
            s ^= v
        out[j] = (i, now, p[0], p[1], p[2], p[3], p[4], s)
    return out


def grid_lockstep(f):
    grids = [f.create_dataset(name, shape=(0, 2), maxshape=(None, None), chunks=chunks,
                              dtype="<i8", **extra)
             for name, chunks, extra in (("grid", (1, 1), {}),
                                         ("packedgrid", (8, 2), {"compression": "gzip"}))]
    f.swmr_mode = True
    print("ready", flush=True)
    n = 0
    for line in sys.stdin:
        words = line.split()
        if words[0] == "append":
            k = int(words[1])
            rows = numpy.arange(n, n + k, dtype="<i8")[:, None] * 3 + numpy.array([1, 2])
            for ds in grids:
                ds.resize((n + k, 2))
                ds[n:n + k] = rows
                ds.flush()
            n += k
            print("flushed", n, flush=True)
        elif words[0] == "rewrite":
            for ds in grids:
                ds[int(words[1])] = int(words[2])
                ds.flush()
            print("rewritten", words[1], flush=True)
        elif words[0] == "close":
            break
    return n


def main():
    path, mode = sys.argv[1], sys.argv[2]
    f = h5py.File(path, "w", libver="latest")
    if mode == "grid":
        n = grid_lockstep(f)
        f.close()
        print("closed", n, flush=True)
        return
    plain = f.create_dataset("plain", shape=(0,), maxshape=(None,), chunks=(64,), dtype="<i8")
    packed = f.create_dataset("packed", shape=(0,), maxshape=(None,), chunks=(64,),
                              dtype="<i8", compression="gzip")
    recs = f.create_dataset("records", shape=(0,), maxshape=(None,), chunks=(1024,),
                            dtype=RECORD)
    f.swmr_mode = True
    print("ready", flush=True)
    n = 0

    def append(k):
        nonlocal n
        values = numpy.arange(n, n + k, dtype="<i8") * 3 + 1
        for ds in (plain, packed):
            ds.resize((n + k,))
            ds[n:n + k] = values
        recs.resize((n + k,))
        recs[n:n + k] = records(n, k)
        for ds in (plain, packed, recs):
            ds.flush()
        n += k
        print("flushed", n, flush=True)

    grown = 0

    def extend(k):
        nonlocal grown
        grown = k
        for ds in (plain, packed, recs):
            ds.resize((n + k,))
            ds.flush()
        print("extended", n + k, flush=True)

    def rewrite(i, v):
        for ds in (plain, packed):
            ds[i] = v
            ds.flush()
        print("rewritten", i, flush=True)

    if mode == "lockstep":
        for line in sys.stdin:
            words = line.split()
            if words[0] == "append":
                append(int(words[1]))
            elif words[0] == "extend":
                extend(int(words[1]))
            elif words[0] == "write":
                k, grown = grown, 0
                append(k)
            elif words[0] == "rewrite":
                rewrite(int(words[1]), int(words[2]))
            elif words[0] == "close":
                break
    else:
        total, batch = int(sys.argv[3]), int(sys.argv[4])
        while n < total:
            append(min(batch, total - n))
    f.close()
    print("closed", n, flush=True)


main()
