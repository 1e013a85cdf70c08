package org.quire.format.versioned;

/**
 * What one commit did per chunk, counted so tests can hold a commit to costing what changed:
 * chunks it visited to write the version's mappings (one virtual-dataset mapping per chunk the
 * version shows: its metadata, which versioned-hdf5 also writes whole) and chunks it hashed
 * (the changed ones, each stored unless a slot of the same digest exists).
 *
 * @param chunksVisited chunks of the version's datasets looked at while storing and mapping
 * @param chunksHashed  chunks whose SHA-256 the commit computed
 */
record CommitCounts(long chunksVisited, long chunksHashed) {

    static final CommitCounts NONE = new CommitCounts(0, 0);

    CommitCounts plus(long visited, long hashed) {
        return new CommitCounts(chunksVisited + visited, chunksHashed + hashed);
    }
}
