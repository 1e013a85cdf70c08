"""Writes h5py_store/: collection files laid out as Hangar v0.3's HDF5_00 backend lays them out
without blosc (reference versioned-hdf5-layout.md section 4.2), and records.txt, one v0.3 record
per array, in write order.

Run with Debian's h5py: /usr/bin/python3 make_hangar_fixture.py (writes beside this script).
The arrays are int16 of shape (4, 3); array k holds value(k, e) = (k * 12 + e) % 30011 - 15000
at flat position e (C order), which the Java test computes again. Two "writer checkouts": the
first writes 260 arrays into file Fx7Qa2 (rows 0..249 of /0, then 0..9 of /1), the second 3
arrays into a new file Kp03Zz (rows 0..2 of /0). UIDs are fixed so that the output is the same
every run.
"""
import math
import os
import shutil

import h5py
import numpy as np

COLLECTION_COUNT = 100
COLLECTION_SIZE = 250
CHUNK_MAX_NBYTES = 255_000
SCHEMA_SHAPE = (4, 3)
SCHEMA_DTYPE = np.dtype('<i2')
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'h5py_store')


def prime_at_least(n):
    while any(n % d == 0 for d in range(2, math.isqrt(n) + 1)):
        n += 1
    return n


def value(k):
    flat = (k * 12 + np.arange(12)) % 30011 - 15000
    return flat.astype(SCHEMA_DTYPE).reshape(SCHEMA_SHAPE)


def create(uid):
    size = int(np.prod(SCHEMA_SHAPE))
    width = min(CHUNK_MAX_NBYTES // SCHEMA_DTYPE.itemsize, size)
    f = h5py.File(os.path.join(OUT, uid + '.hdf5'), 'w', libver='latest')
    for n in range(COLLECTION_COUNT):
        f.create_dataset(str(n), shape=(COLLECTION_SIZE, size), dtype=SCHEMA_DTYPE,
                         maxshape=(COLLECTION_SIZE, size), chunks=(1, width),
                         compression='lzf', shuffle=True, fletcher32=True)
    rdcc = min(max(size * SCHEMA_DTYPE.itemsize * COLLECTION_SIZE, CHUNK_MAX_NBYTES),
               100_000_000)
    attrs = f['/'].attrs
    attrs['HANGAR_VERSION'] = '0.3.0'
    attrs['schema_shape'] = SCHEMA_SHAPE
    attrs['schema_dtype_num'] = SCHEMA_DTYPE.num
    attrs['next_location'] = (0, 0)
    attrs['collection_max_size'] = COLLECTION_SIZE
    attrs['collection_total'] = COLLECTION_COUNT
    attrs['collections_remaining'] = COLLECTION_COUNT
    attrs['rdcc_nbytes'] = rdcc
    attrs['rdcc_w0'] = 0.75
    attrs['rdcc_nslots'] = prime_at_least(math.ceil(rdcc / (width * SCHEMA_DTYPE.itemsize)) * 100)
    attrs['shuffle'] = True
    attrs['complib'] = 'lzf'
    attrs['fletcher32'] = True
    attrs['chunk_shape'] = [width]
    attrs['compression_opts'] = False
    f.flush()
    f.swmr_mode = True
    return f


def checkout(uid, first_k, count, records):
    f = create(uid)
    dset, idx, remaining = 0, -1, COLLECTION_COUNT
    for k in range(first_k, first_k + count):
        idx += 1
        if idx >= COLLECTION_SIZE:
            idx, dset, remaining = 0, dset + 1, remaining - 1
        array = value(k)
        f[str(dset)].write_direct(np.ravel(array), None, (idx, slice(0, array.size)))
        shape = str(array.shape).replace('(', '').replace(')', '').replace(',', '')
        records.append(f'00:{uid}${dset} {idx}*{shape}')
    # Hangar records the last position written (its hNextPath, hIdx) when a checkout closes.
    f['/'].attrs.modify('next_location', (dset, idx))
    f['/'].attrs.modify('collections_remaining', remaining)
    f.close()


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    records = []
    checkout('Fx7Qa2', 0, 260, records)
    checkout('Kp03Zz', 260, 3, records)
    with open(os.path.join(OUT, 'records.txt'), 'w') as out:
        out.write('\n'.join(records) + '\n')
    with open(os.path.join(OUT, 'GENERATED_WITH.txt'), 'w') as out:
        out.write(f'h5py {h5py.__version__}, HDF5 {h5py.version.hdf5_version}, '
                  f'numpy {np.__version__}\n')


if __name__ == '__main__':
    main()
