"""An h5py (libhdf5) SWMR writer for Quire's SWMR reader tests.

usage: swmr_writer.py FILE lockstep          appends as stdin says: "append K" or "close"; also
                                             "extend K" (grow and flush, data not written),
                                             "write" (write the grown part and flush),
                                             "rewrite I V" (plain[I] = packed[I] = V, flush)
       swmr_writer.py FILE run TOTAL BATCH   appends TOTAL elements in batches, flat out

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


def main():
    path, mode = sys.argv[1], sys.argv[2]
    f = h5py.File(path, "w", libver="latest")
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
