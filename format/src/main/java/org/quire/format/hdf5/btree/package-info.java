/**
 * Writing version-1 B-trees (libhdf5's default format) for both node types: {@link
 * org.quire.format.hdf5.btree.BTreeV1Writer} inserts with libhdf5's splits and keeps the root
 * where it is; the node type's own leaf logic (chunks, symbol table nodes) is supplied by the
 * caller. Depends on {@code layout} and {@code cache}.
 */
package org.quire.format.hdf5.btree;
