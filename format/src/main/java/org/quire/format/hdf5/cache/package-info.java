/**
 * The writer's metadata cache: every metadata structure an HDF5 writer changes is an entry
 * ({@link org.quire.format.hdf5.cache.CacheEntry}) held by {@link
 * org.quire.format.hdf5.cache.MetadataCache}, clean or dirty, with explicit flush dependencies
 * (a parent is written only after its children); raw chunks take part through {@link
 * org.quire.format.hdf5.cache.ChunkProxy}. One flush writes every dirty entry children first,
 * forcing the file before the blocks that publish (object headers, then the superblock) when
 * the {@link org.quire.format.storage.Durability} asks; clean entries are evicted under a
 * memory bound. Depends on {@code org.quire.format.storage} alone. See {@code docs/hdf5.md},
 * "Metadata cache and flush order".
 */
package org.quire.format.hdf5.cache;
