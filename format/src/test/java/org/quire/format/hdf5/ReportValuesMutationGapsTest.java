package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * The values Quire reports about a file: a verification report's totals and its maps in name
 * order, an unsupported part's reason as one line names it, and the chunk index type of each
 * layout code.
 */
class ReportValuesMutationGapsTest {

    private static final Path FILE = Path.of("f.h5");

    @Test
    void aVerificationReportTotalsItsBlocksAndKeepsThemInNameOrder() {
        VerificationReport report = new VerificationReport(FILE, 1, 2, 3, 4, 5,
                Map.of("superblock", 1L, "object header", 6L, "fractal heap direct block", 2L),
                Map.of("symbol table node", 3L, "local heap", 4L), 7, 8, 9, 10, List.of());
        assertEquals(9, report.metadataBlockCount());
        assertEquals(7, report.checkedBlockCount());
        assertEquals(List.of("fractal heap direct block", "object header", "superblock"),
                List.copyOf(report.metadataBlocks().keySet()));
        assertEquals(List.of("local heap", "symbol table node"),
                List.copyOf(report.checkedBlocks().keySet()));
        assertThrows(UnsupportedOperationException.class,
                () -> report.metadataBlocks().put("x", 1L));
    }

    @Test
    void anUnsupportedPartNamesItselfOnce() {
        UnsupportedFormatException unsupported = new UnsupportedFormatException(FILE,
                "/vds: data layout message", UnsupportedFormatException.NO_OFFSET, "version 5",
                "versions 3 and 4");
        assertEquals(new Unsupported("/vds", "data layout message: found version 5; "
                + "supported: versions 3 and 4"), Unsupported.of("/vds", unsupported));
        assertEquals(new Unsupported("/other", "/vds: data layout message: found version 5; "
                + "supported: versions 3 and 4"), Unsupported.of("/other", unsupported));
        CorruptFileException corrupt = new CorruptFileException(FILE, 8, "attribute message",
                "name", "a name", "none");
        assertEquals(new Unsupported("a", "corrupt attribute message at offset 8: name "
                + "expected a name, found none"), Unsupported.of("a", corrupt));
    }

    @Test
    void everyLayoutCodeHasItsIndexTypeAndOthersNone() {
        for (ChunkIndexType type : ChunkIndexType.values()) {
            assertEquals(type, ChunkIndexType.ofCode(switch (type) {
                case VERSION_1_BTREE -> 0;
                case SINGLE_CHUNK -> 1;
                case IMPLICIT -> 2;
                case FIXED_ARRAY -> 3;
                case EXTENSIBLE_ARRAY -> 4;
                case VERSION_2_BTREE -> 5;
                case QUIRE_SKIP_LIST -> 0x51;
            }));
        }
        assertEquals("no chunk index type has code 6", assertThrows(
                IllegalArgumentException.class, () -> ChunkIndexType.ofCode(6)).getMessage());
    }
}
