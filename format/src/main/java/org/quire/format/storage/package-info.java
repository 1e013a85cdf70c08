/**
 * The storage seam of the format module: {@link org.quire.format.storage.Storage} is every byte
 * the HDF5 and SION code reads or writes, {@link org.quire.format.storage.FileStorage} the real
 * file behind it. Tests put a crash simulator in its place.
 */
package org.quire.format.storage;
