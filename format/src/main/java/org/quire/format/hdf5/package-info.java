/**
 * Real HDF5 files, written and read with the JDK alone: files Quire writes open in libhdf5
 * (h5dump, h5py) and jHDF, and Quire reads what libhdf5 writes with the same features.
 *
 * <p>This package owns the public API ({@code Hdf5File}, groups, datasets, attributes) and the
 * typed failures specific to HDF5; dense link and attribute storage (fractal heaps,
 * version-2 B-trees read through one checked node walk) and contiguous and compact data behind
 * it; libhdf5's default, old format (symbol table groups, version-1 B-tree chunk indexes), read,
 * and changed in place behind Quire's writing guard; the types h5py writes by default (variable-length strings in the global heap,
 * enumerations and bools, scalars, committed datatypes, user blocks), with the parts Quire does
 * not read named ({@code Unsupported}) while the rest reads; and {@code Hdf5Verifier}, which
 * checks every structure, heap block, index node and stored chunk of a file. Chunked storage
 * (chunk indexes, chunk grid, chunk store) lives in {@code org.quire.format.hdf5.chunk}, byte
 * layouts in
 * {@code org.quire.format.hdf5.layout}.
 * See {@code docs/hdf5.md}.
 */
package org.quire.format.hdf5;
