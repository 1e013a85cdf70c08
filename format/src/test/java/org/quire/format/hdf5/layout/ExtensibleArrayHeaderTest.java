package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.ChunkIndexParameters.ExtensibleArray;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * The extensible array header (specification VII.C) keeps every statistic where libhdf5 reads it,
 * and its creation parameters are checked against libhdf5's limits one by one.
 */
class ExtensibleArrayHeaderTest {

    private static final long ADDRESS = 64;
    /** Signature, version, client ID and element size come before the parameters. */
    private static final long PARAMETERS_AT = ADDRESS + 4 + 1 + 1 + 1;

    @TempDir
    Path dir;
    private int files;

    private BlockFile fileWith(ExtensibleArrayHeader header) throws IOException {
        BlockFile file = new BlockFile(FileStorage.open(dir.resolve("ea" + (++files) + ".h5"), OpenMode.CREATE_NEW));
        file.write(ADDRESS, header.encode());
        return file;
    }

    private static ExtensibleArrayHeader header(ExtensibleArray parameters) {
        return new ExtensibleArrayHeader(ChunkRecordFormat.filtered(1 << 20), parameters,
                new ExtensibleArrayHeader.Statistics(3, 301, 5, 505, 77, 70), 4096);
    }

    @Test
    void everyStatisticIsStoredInItsOwnFieldAndReadBack() throws IOException {
        ExtensibleArrayHeader written = header(ExtensibleArray.DEFAULT);
        byte[] bytes = written.encode();
        assertEquals(ExtensibleArrayHeader.SIZE, bytes.length);
        LittleEndianReader fields = new LittleEndianReader(dir, 0, "extensible array header", bytes, 12,
                bytes.length - 12);
        long[] stored = new long[6];
        for (int i = 0; i < stored.length; i++) {
            stored[i] = fields.getLength("statistic " + i);
        }
        assertEquals("[3, 301, 5, 505, 77, 70]", java.util.Arrays.toString(stored),
                "super blocks, their bytes, data blocks, their bytes, max index set, elements realized");
        assertEquals(4096, fields.getAddress("index block address"));
        try (BlockFile file = fileWith(written)) {
            assertEquals(written, ExtensibleArrayHeader.read(file, ADDRESS));
            assertEquals(1L, file.verifiedBlocks().get("extensible array header"));
        }
    }

    @Test
    void parametersAtLibhdf5sLimitsAreAcceptedAndOneStepBeyondIsCorrupt() throws IOException {
        ExtensibleArray[] valid = {
            new ExtensibleArray(64, 1, 2, 1, 64),
            new ExtensibleArray(5, 4, 2, 16, 1),
        };
        for (ExtensibleArray parameters : valid) {
            try (BlockFile file = fileWith(header(parameters))) {
                assertEquals(parameters, ExtensibleArrayHeader.read(file, ADDRESS).parameters());
            }
        }
        ExtensibleArray[] invalid = {
            new ExtensibleArray(0, 4, 4, 16, 10),
            new ExtensibleArray(65, 4, 4, 16, 10),
            new ExtensibleArray(32, 0, 4, 16, 10),
            new ExtensibleArray(32, 4, 1, 16, 10),
            new ExtensibleArray(32, 4, 6, 16, 10),
            new ExtensibleArray(32, 4, 4, 24, 10),
            new ExtensibleArray(4, 4, 4, 16, 4),
            new ExtensibleArray(32, 4, 4, 16, 0),
            new ExtensibleArray(32, 4, 4, 16, 33),
        };
        for (ExtensibleArray parameters : invalid) {
            try (BlockFile file = fileWith(header(parameters))) {
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> ExtensibleArrayHeader.read(file, ADDRESS), parameters.toString());
                assertEquals(PARAMETERS_AT, e.offset(), parameters.toString());
                assertEquals("creation parameters", e.field());
                assertEquals("powers of two within libhdf5's limits", e.expected());
                assertEquals(parameters.toString(), e.found());
            }
        }
    }
}
