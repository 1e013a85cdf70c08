package org.quire.benchmarks.swmr;

import org.quire.format.hdf5.DatasetSpec;

/**
 * The chunk index of the appended record dataset, chosen as each library chooses it: one unlimited
 * dimension gets an extensible array, two (records along the first, a second of size 1) a version-2
 * B-tree, and Quire's skip list is asked for explicitly (Quire only). Chunks hold
 * {@value #CHUNK_RECORDS} records.
 */
enum RecordIndex {
    EXTENSIBLE_ARRAY("ea", 1),
    V2_BTREE("bt2", 2),
    SKIP_LIST("skiplist", 1);

    static final int CHUNK_RECORDS = 1024;

    final String label;
    final int rank;

    RecordIndex(String label, int rank) {
        this.label = label;
        this.rank = rank;
    }

    /** The shape of {@code records} records. */
    long[] shape(long records) {
        return rank == 1 ? new long[] {records} : new long[] {records, 1};
    }

    /** The start of record {@code record} in a selection. */
    long[] start(long record) {
        return rank == 1 ? new long[] {record} : new long[] {record, 0};
    }

    long[] chunk() {
        return shape(CHUNK_RECORDS);
    }

    long[] maxShape() {
        return rank == 1 ? new long[] {DatasetSpec.UNLIMITED} : new long[] {DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED};
    }

    static RecordIndex named(String label) {
        for (RecordIndex index : values()) {
            if (index.label.equals(label)) {
                return index;
            }
        }
        throw new IllegalArgumentException("unknown chunk index " + label + "; expected ea, bt2 or skiplist");
    }
}
