"""Follows a live HDF5_00 store as Hangar's readers do, printing progress lines.

usage: follow_hangar_records.py DATA_DIR RECORDS_FILE EXPECTED TIMEOUT_SECONDS

Reads the records a writer appends to RECORDS_FILE (one v0.3 record a line), and for each:
opens DATA_DIR/UID.hdf5 once with swmr=True, libver='latest', refreshes the record's collection
(Dataset.refresh) and reads the first prod(shape) elements of its row, reshaped; record k must
hold k * 1000 + e at flat position e (int32). Prints "resolved N" each time it has caught up
with the lines written, and "done N" after EXPECTED arrays (exit 0); a wrong array or an error
is one line and exit 1, a timeout exit 2.
"""
import os
import re
import sys
import time

import h5py
import numpy as np


def main():
    data_dir, records_file = sys.argv[1], sys.argv[2]
    expected, deadline = int(sys.argv[3]), time.time() + float(sys.argv[4])
    files, resolved, offset, partial = {}, 0, 0, ''
    while resolved < expected:
        if time.time() > deadline:
            print(f'timed out after {resolved} of {expected}', flush=True)
            sys.exit(2)
        more = ''
        if os.path.exists(records_file):
            with open(records_file) as f:
                f.seek(offset)
                more = f.read()
        offset += len(more)
        partial += more
        *lines, partial = partial.split('\n')
        for record in lines:
            _, uid, location, shape_text = re.split('[:$*]', record)
            dset, idx = location.split(' ')
            shape = tuple(int(x) for x in shape_text.split())
            if uid not in files:
                files[uid] = h5py.File(os.path.join(data_dir, uid + '.hdf5'), 'r', swmr=True,
                                       libver='latest')
            collection = files[uid][dset]
            collection.refresh()
            array = collection[int(idx), 0:int(np.prod(shape))].reshape(shape)
            want = (resolved * 1000 + np.arange(array.size)).astype('<i4').reshape(shape)
            if not np.array_equal(array, want):
                print(f'record {resolved} {record} holds {array.tolist()}', flush=True)
                sys.exit(1)
            resolved += 1
        if lines:
            print(f'resolved {resolved}', flush=True)
        else:
            time.sleep(0.002)
    print(f'done {resolved}', flush=True)


if __name__ == '__main__':
    main()
