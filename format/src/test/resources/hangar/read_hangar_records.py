"""Reads HDF5_00 records the way Hangar v0.3 does and prints what it found, one fact a line.

usage: read_hangar_records.py DATA_DIR RECORDS_FILE

For each record (one per line, v0.3 dialect): split on [:$*] into format code, UID, "DSET IDX"
and SHAPE; open DATA_DIR/UID.hdf5 with swmr=True, libver='latest'; read the first prod(shape)
elements of row IDX of dataset DSET and reshape them to SHAPE. Prints tab-separated lines:

  array       RECORD  SHAPE (d0,d1,...)  sha256 of the reshaped array's bytes (C order)
  superblock  UID     version
  attribute   UID     NAME  numpy type  value (repr of the list or scalar)
  collection  UID     NAME  shape=..;maxshape=..;chunks=..;dtype=..;fill=..;filters=ID:FLAGS:DATA/...
"""
import hashlib
import os
import re
import sys

import h5py
import numpy as np


def ints(values):
    return ','.join(str(v) for v in values)


def describe(uid, f):
    print(f'superblock\t{uid}\t{f.id.get_create_plist().get_version()[0]}')
    for key in sorted(f.attrs):
        val = f.attrs[key]
        kind = type(val).__name__ + ('' if not isinstance(val, np.ndarray) else
                                     '[' + val.dtype.name + ']')
        shown = val.tolist() if isinstance(val, (np.ndarray, np.generic)) else val
        print(f'attribute\t{uid}\t{key}\t{kind}\t{shown!r}')
    for name in sorted(f, key=int):
        d = f[name]
        plist = d.id.get_create_plist()
        filters = '/'.join(f'{fid}:{flags}:{ints(data)}' for fid, flags, data, _ in
                           (plist.get_filter(i) for i in range(plist.get_nfilters())))
        print(f'collection\t{uid}\t{name}\tshape={ints(d.shape)};maxshape={ints(d.maxshape)};'
              f'chunks={ints(d.chunks)};dtype={d.dtype.str};fill={d.fillvalue.item()!r};'
              f'filters={filters}')


def main():
    data_dir, records_file = sys.argv[1], sys.argv[2]
    files = {}
    with open(records_file) as lines:
        for line in lines:
            record = line.rstrip('\n')
            if not record:
                continue
            code, uid, location, shape_text = re.split('[:$*]', record)
            dset, idx = location.split(' ')
            shape = tuple(int(x) for x in shape_text.split())
            if uid not in files:
                files[uid] = h5py.File(os.path.join(data_dir, uid + '.hdf5'), 'r', swmr=True,
                                       libver='latest')
            size = int(np.prod(shape))
            out = files[uid][dset][int(idx), 0:size].reshape(shape)
            digest = hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest()
            print(f'array\t{record}\t({ints(out.shape)})\t{digest}')
    for uid, f in files.items():
        describe(uid, f)


if __name__ == '__main__':
    main()
