/**
 * HDF5 on-disk structures, one class per structure of the HDF5 File Format Specification 3.0:
 * each holds the structure's field layout (with an ASCII diagram and the section it implements)
 * and its encoding and decoding (old-format structures, superblocks 0 to 2, version-1 object
 * headers, version-1 B-trees, symbol table nodes and local heaps, shared messages, decoding
 * only; global heap collections both ways). Also the
 * pieces every structure shares: little-endian field access, the Jenkins lookup3 checksum, the
 * single validator of signature, version and checksum, and bounds-checked block access to the
 * file (which counts checksummed blocks verified and old-format blocks checked).
 *
 * <p>Nothing outside this package knows a field offset.
 */
package org.quire.format.hdf5.layout;
