/**
 * Chunked storage behind HDF5 datasets: the {@code ChunkIndex} contract and its
 * implementations (single chunk, implicit, fixed array, extensible array, version-2 B-tree, and
 * the old format's version-1 B-tree, read only), {@code ChunkIndexes}, the one factory that
 * chooses an index for a new dataset and opens the one a data layout message names, the chunk
 * grid and its linear chunk numbering, box copies between hyperslabs and chunks, and the
 * {@code ChunkStore} seam that decides where a chunk's bytes live.
 *
 * <p>Internal to the format module: it depends on {@code org.quire.format.hdf5.layout}, never
 * on the API package {@code org.quire.format.hdf5}.
 */
package org.quire.format.hdf5.chunk;
