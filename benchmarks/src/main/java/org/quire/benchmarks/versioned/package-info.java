/**
 * Versioned-dataset benchmarks (issue 11, item 6), run by {@code benchmarks/versions.sh}: commit
 * time and bytes added when 0, 1 and 100 % of a dataset's chunks change
 * ({@link org.quire.benchmarks.versioned.VersionedCommits}), read throughput of one version
 * ({@link org.quire.benchmarks.versioned.VersionedReads}) and chunk digest throughput
 * ({@link org.quire.benchmarks.versioned.ChunkDigestThroughput}). The same versions are written by
 * versioned-hdf5 1.7.0 and read by h5py in {@code benchmarks/versions_reference.py};
 * {@link org.quire.benchmarks.versioned.VersionPlan} is the data both sides write.
 */
package org.quire.benchmarks.versioned;
