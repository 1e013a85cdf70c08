"""Writes HDF5 files with h5py's LZF filter (32000) for Quire's reader tests.

Usage: /usr/bin/python3 make_h5py_lzf_fixtures.py OUTPUT_DIR

Writes OUTPUT_DIR/lzf.h5 (h5py's default libver), one OUTPUT_DIR/<n>.bin per dataset with the
bytes the dataset holds (its own dtype, C order, the fill value where nothing was written), and
OUTPUT_DIR/manifest.txt, one record per line:

  D|path|type code|shape|chunk shape|filters|bin file|stored bytes|chunks|chunks stored raw

filters: "id:v0;v1;..." per filter in pipeline order, comma-separated (the client data values
libhdf5 stores). stored bytes: libhdf5's get_storage_size. chunks stored raw: chunks whose
filter mask has the LZF bit set, i.e. libhdf5 stored them uncompressed because h5py's filter
could not make them smaller (it is optional). The script fails if a dataset meant to have such
chunks has none, or one meant to compress has any.
"""
import os
import sys

import h5py
import numpy as np

from fixture_manifest import csv, type_code

out = sys.argv[1]
path = os.path.join(out, "lzf.h5")
lines = []
LZF = h5py.h5z.FILTER_LZF


def filters(ds):
    plist = ds.id.get_create_plist()
    described = []
    for i in range(plist.get_nfilters()):
        code, _flags, values, _name = plist.get_filter(i)
        described.append("%d:%s" % (code, ";".join(str(v) for v in values)))
    return ",".join(described)


def raw_chunks(ds):
    """How many stored chunks skipped LZF (their filter mask has LZF's bit)."""
    plist = ds.id.get_create_plist()
    bit = next(1 << i for i in range(plist.get_nfilters()) if plist.get_filter(i)[0] == LZF)
    count = ds.id.get_num_chunks()
    return count, sum(1 for i in range(count) if ds.id.get_chunk_info(i).filter_mask & bit)


def record(f, name, expected, raw):
    """`expected` is what the whole dataset holds; `raw` is "none", "some" or "all"."""
    ds = f[name]
    n = len(lines)
    expected.astype(ds.dtype).tofile(os.path.join(out, "%d.bin" % n))
    chunks, stored_raw = raw_chunks(ds)
    wanted = {"none": stored_raw == 0, "some": 0 < stored_raw < chunks, "all": stored_raw == chunks}
    if not wanted[raw]:
        sys.exit("%s: %d of %d chunks stored raw, expected %s" % (name, stored_raw, chunks, raw))
    lines.append("D|%s|%s|%s|%s|%s|%d.bin|%d|%d|%d" % (
        name, type_code(ds.dtype), csv(ds.shape), csv(ds.chunks), filters(ds), n,
        ds.id.get_storage_size(), chunks, stored_raw))


rng = np.random.default_rng(32000)
with h5py.File(path, "w") as f:
    # Repetitive integers with an edge chunk: every chunk compresses.
    data = (np.arange(10007) // 7).astype("<i4")
    f.create_dataset("compressible_int32", data=data, chunks=(1000,), compression="lzf")
    record(f, "compressible_int32", data, "none")

    # Random bytes in whole chunks (an edge chunk's zero padding would compress): LZF cannot
    # shrink them, libhdf5 stores every chunk as it is.
    data = rng.integers(0, 256, 5000, dtype=np.uint8)
    f.create_dataset("incompressible_uint8", data=data, chunks=(1000,), compression="lzf")
    record(f, "incompressible_uint8", data, "all")

    # Random rows above, constant rows below: some chunks compressed, some raw.
    data = np.full((37, 23), 2.5, dtype="<f8")
    data[:18] = rng.random((18, 23))
    f.create_dataset("mixed_2d", data=data, chunks=(8, 5), compression="lzf")
    record(f, "mixed_2d", data, "some")

    # Hangar's collection layout without blosc (reference section 4.2): 250 flattened samples
    # of a (3, 4, 5) float32 schema, zero-initialised, chunks of one row, LZF + shuffle +
    # Fletcher-32; the first 100 rows written.
    ds = f.create_dataset("hangar_collection", shape=(250, 60), dtype="<f4", chunks=(1, 60),
                          maxshape=(250, 60), fillvalue=0, compression="lzf", shuffle=True,
                          fletcher32=True)
    data = np.zeros((250, 60), dtype="<f4")
    data[:100] = np.sin(np.arange(6000).reshape(100, 60) / 40.0).astype("<f4")
    ds[:100] = data[:100]
    record(f, "hangar_collection", data, "none")

    # A realistic field for the compression ratio: a smooth float32 temperature (K) on a
    # 256 x 256 grid with shuffle + LZF, as a simulation checkpoint stores it.
    y, x = np.mgrid[0:256, 0:256] / 256.0
    data = (288.15 + 15 * np.sin(2 * np.pi * x) * np.cos(np.pi * y)
            + 2 * np.exp(-((x - 0.3) ** 2 + (y - 0.6) ** 2) * 40)).astype("<f4")
    f.create_dataset("temperature", data=data, chunks=(64, 64), compression="lzf", shuffle=True)
    record(f, "temperature", data, "none")

with open(os.path.join(out, "manifest.txt"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
