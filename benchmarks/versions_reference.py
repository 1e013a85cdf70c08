"""The Python side of benchmarks/versions.sh: versioned-hdf5 1.7.0 (the reference client) and h5py
on the same versions as Quire (org.quire.benchmarks.versioned.VersionPlan: one 1-D float64
dataset x in chunks of 131072 elements, versions create, untouched, same, one_percent, all).

usage: /usr/bin/python3 versions_reference.py commit FILE MIB REPEATS
       /usr/bin/python3 versions_reference.py read MIB REPEATS NAME=FILE...
       /usr/bin/python3 versions_reference.py digest MIB REPEATS

commit: each repeat writes a new FILE with versioned-hdf5, timing each stage_version block
  (staging and the commit at its end) and printing the bytes and raw_data rows it added.
read: h5py reads f['_version_data/versions/one_percent/x'] of each FILE one chunk per call,
  page cache warm (one untimed pass first), the checksum checked after every pass.
digest: hashlib.sha256 over MIB random 1 MiB chunks, one digest per chunk.
Lines as the Java programs print them: "result op=... key=value ...".
"""
import hashlib
import os
import sys
import time

import h5py
import numpy as np

CHUNK = 131072
VERSIONS = ("create", "untouched", "same", "one_percent", "all")


def load_reference_client():
    here = os.path.dirname(os.path.abspath(__file__))
    client = os.path.join(here, "..", "..", "shared", "tools", "versioned-hdf5-1.7.0")
    client = os.environ.get("VERSIONED_HDF5_HOME", client)
    if not os.path.isdir(client):
        sys.exit("REQUIRED ORACLE MISSING: versioned-hdf5 1.7.0 at %s (set VERSIONED_HDF5_HOME)" % client)
    sys.path.insert(0, client)


def chunk_values(c, generation):
    return c * CHUNK + np.arange(CHUNK, dtype=np.float64) + generation * 2.0 ** 32


def changed_chunks(chunks):
    changed = max(1, int(chunks / 100 + 0.5))  # Java's Math.round(chunks / 100f)
    return [k * chunks // changed for k in range(changed)]


def one_percent_checksum(chunks):
    changed = set(changed_chunks(chunks))
    total = 0
    for c in range(chunks):
        base = c * CHUNK + ((1 << 32) if c in changed else 0)
        total += base * CHUNK + CHUNK * (CHUNK - 1) // 2
    return total % (1 << 64)


def raw_rows(path):
    with h5py.File(path, "r") as f:
        return f["_version_data/x/raw_data"].shape[0] if "_version_data/x" in f else 0


def commit(path, chunks, repeats):
    load_reference_client()
    from versioned_hdf5 import VersionedHDF5File
    for _ in range(repeats):
        if os.path.exists(path):
            os.remove(path)
        with h5py.File(path, "w", libver="latest") as f:
            VersionedHDF5File(f)
        for version in VERSIONS:
            size, rows = os.path.getsize(path), raw_rows(path)
            with h5py.File(path, "r+") as f:
                vf = VersionedHDF5File(f)
                start = time.perf_counter()
                with vf.stage_version(version) as g:
                    if version == "create":
                        g.create_dataset("x", data=np.concatenate([chunk_values(c, 0) for c in range(chunks)]),
                                         chunks=(CHUNK,))
                    elif version == "same":
                        for c in range(chunks):
                            g["x"][c * CHUNK:(c + 1) * CHUNK] = chunk_values(c, 0)
                    elif version == "one_percent":
                        for c in changed_chunks(chunks):
                            g["x"][c * CHUNK:(c + 1) * CHUNK] = chunk_values(c, 1)
                    elif version == "all":
                        for c in range(chunks):
                            g["x"][c * CHUNK:(c + 1) * CHUNK] = chunk_values(c, 2)
                seconds = time.perf_counter() - start
            changed = {"create": chunks, "all": chunks, "one_percent": len(changed_chunks(chunks))}.get(version, 0)
            print("result op=commit library=versioned-hdf5 version=%s seconds=%.6f bytes_added=%d rows_added=%d"
                  " changed_chunks=%d chunks=%d" % (version, seconds, os.path.getsize(path) - size,
                                                   raw_rows(path) - rows, changed, chunks), flush=True)


def read_checked(path, chunks, expected):
    total = np.uint64(0)
    with h5py.File(path, "r") as f:
        x = f["_version_data/versions/one_percent/x"]
        out = np.empty(CHUNK, dtype=np.float64)
        for c in range(chunks):
            x.read_direct(out, np.s_[c * CHUNK:(c + 1) * CHUNK])
            total += out.astype(np.int64).view(np.uint64).sum(dtype=np.uint64)
    if int(total) != expected:
        sys.exit("%s: version one_percent sums to %d, expected %d" % (path, int(total), expected))


def read(chunks, repeats, files):
    expected = one_percent_checksum(chunks)
    for named in files:
        name, path = named.split("=", 1)
        read_checked(path, chunks, expected)
        for _ in range(repeats):
            start = time.perf_counter()
            read_checked(path, chunks, expected)
            print("result op=read reader=h5py file=%s bytes=%d seconds=%.6f"
                  % (name, chunks * CHUNK * 8, time.perf_counter() - start), flush=True)


def digest(chunks, repeats):
    data = [os.urandom(CHUNK * 8) for _ in range(chunks)]
    folded = 0
    for _ in range(repeats + 1):
        start = time.perf_counter()
        for chunk in data:
            h = hashlib.sha256(chunk)
            h.update(b"(131072,)")
            folded = (folded + int.from_bytes(h.digest(), "little")) % (1 << 256)
        seconds = time.perf_counter() - start
        if _ > 0:
            print("result op=digest impl=hashlib bytes=%d seconds=%.6f" % (chunks * CHUNK * 8, seconds), flush=True)
    print("note hashlib digests summed %x" % (folded & 0xffff))


def main():
    mode = sys.argv[1]
    if mode == "commit":
        commit(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "read":
        read(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    elif mode == "digest":
        digest(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
