/**
 * Versioned datasets in versioned-hdf5's layout (data version 4): every committed version of a
 * set of datasets kept in one HDF5 file, chunks stored once by their SHA-256, each version a group
 * of virtual datasets that h5py, h5dump and versioned-hdf5 read. Entry point:
 * {@link org.quire.format.versioned.VersionedFile}; docs/versions.md.
 */
package org.quire.format.versioned;
