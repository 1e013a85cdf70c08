"""Checks that h5py (libhdf5) refuses Quire-only datasets cleanly.

Usage: check_quire_only_refused.py FILE --refused PATH... --readable PATH...

Every --refused dataset must raise an exception when opened or read (never a crash, never
values); every --readable dataset of the same file must still read. Prints one line per dataset
and "refused N, read M"; exits 1 on the first dataset that behaves otherwise.
"""
import sys

import h5py


def main(argv):
    path = argv[1]
    refused, readable, target = [], [], None
    for argument in argv[2:]:
        if argument == '--refused':
            target = refused
        elif argument == '--readable':
            target = readable
        else:
            target.append(argument)
    with h5py.File(path, 'r') as f:
        for name in refused:
            try:
                values = f[name][...]
            except Exception as e:  # libhdf5's errors reach h5py as several types
                print(name, 'refused:', type(e).__name__, str(e).splitlines()[0])
                continue
            print(name, 'NOT refused: read', values.shape)
            return 1
        for name in readable:
            values = f[name][...]
            print(name, 'read', values.shape)
    print('refused %d, read %d' % (len(refused), len(readable)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
