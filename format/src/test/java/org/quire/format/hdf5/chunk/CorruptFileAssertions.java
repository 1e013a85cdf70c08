package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.quire.format.CorruptFileException;

/** What a chunk test checks of a {@link CorruptFileException}: where, in what, and why. */
final class CorruptFileAssertions {

    private CorruptFileAssertions() {
    }

    /**
     * Asserts that {@code e} names the {@code field} of the {@code structure} at {@code offset},
     * what was {@code expected} there and what was {@code found}.
     */
    static void assertCorrupt(CorruptFileException e, long offset, String structure,
                              String field, String expected, String found) {
        assertEquals(offset, e.offset(), "offset");
        assertEquals(structure, e.structure(), "structure");
        assertEquals(field, e.field(), "field");
        assertEquals(expected, e.expected(), "expected");
        assertEquals(found, e.found(), "found");
    }
}
