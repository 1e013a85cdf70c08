package org.quire.format.sion;

/**
 * Deals {@code total} items (ranks or tasks) out to {@code parts} owners in contiguous blocks of
 * {@code total / parts}, the remainder going to the last owner: SIONlib's rule for ranks to
 * files ({@code tpf = N / nfiles}, reference section 2.5) and for tasks to processes in a mapped
 * read (section 2.11). With fewer items than owners, owner j &lt; total gets item j and the others none.
 *
 * @param total number of items, at least 0
 * @param parts number of owners, at least 1
 */
record ContiguousPartition(int total, int parts) {

    ContiguousPartition {
        if (total < 0 || parts < 1) {
            throw new IllegalArgumentException("cannot deal " + total + " items to " + parts + " owners");
        }
    }

    private int perPart() {
        return total / parts;
    }

    /** The owner of item {@code item}. */
    int partOf(int item) {
        return perPart() == 0 ? item : Math.min(item / perPart(), parts - 1);
    }

    /** The first item of owner {@code part}. */
    int first(int part) {
        return perPart() == 0 ? Math.min(part, total) : part * perPart();
    }

    /** How many items owner {@code part} gets. */
    int count(int part) {
        if (perPart() == 0) {
            return part < total ? 1 : 0;
        }
        return part == parts - 1 ? total - part * perPart() : perPart();
    }
}
