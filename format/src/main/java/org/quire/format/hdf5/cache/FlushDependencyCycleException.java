package org.quire.format.hdf5.cache;

import java.util.List;

/** A flush dependency that would close a cycle: no order could write its entries. */
public final class FlushDependencyCycleException extends FlushDependencyException {

    private final List<Long> cycle;

    /**
     * @param cycle addresses along the cycle, each a parent of the next, the last a parent of
     *        the first
     */
    public FlushDependencyCycleException(List<Long> cycle) {
        super("flush dependency cycle through the entries at " + cycle
                + ": each would have to be written before the next");
        this.cycle = List.copyOf(cycle);
    }

    /** Addresses along the cycle, each a parent of the next, the last a parent of the first. */
    public List<Long> cycle() {
        return cycle;
    }
}
