package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hangar.UnresolvableRecordException.CollectionLayoutException;
import org.quire.format.hangar.UnresolvableRecordException.UnwrittenRowException;
import org.quire.format.hdf5.Datatype;

/**
 * The collection files h5py wrote in Hangar's layout ({@code make_hangar_fixture.py}, committed
 * under {@code hangar/h5py_store/}): every record resolves in Quire to the array the script
 * wrote; records beyond what it wrote, or read with another schema, are refused. Needs no h5py.
 */
class H5pyCollectionFilesInQuireTest {

    private static final ArraySchema SCHEMA = ArraySchema.of(Datatype.INT16, 4, 3);

    @TempDir
    Path dir;

    @Test
    void everyRecordResolvesToTheArrayH5pyWrote() throws Exception {
        List<String> records = Files.readAllLines(store().resolve("records.txt"));
        assertEquals(263, records.size());
        try (RecordResolver resolver = new RecordResolver(store(), SCHEMA)) {
            for (int k = 0; k < records.size(); k++) {
                StoredArray array = resolver.read(records.get(k));
                assertArrayEquals(new long[] {4, 3}, array.shape());
                assertArrayEquals(HangarArrays.fixtureBytes(k), array.elements(), records.get(k));
            }
        }
    }

    @Test
    void rowsTheScriptDidNotWriteAndOtherSchemasAreRefused() throws Exception {
        Path file = store().resolve("Fx7Qa2.hdf5");
        try (RecordResolver resolver = new RecordResolver(store(), SCHEMA)) {
            assertEquals(file + ": record 00:Fx7Qa2$1 10*4 3: row 10 of collection /1 was never "
                    + "written (or its writer has not flushed it yet)",
                    assertThrows(UnwrittenRowException.class,
                            () -> resolver.read("00:Fx7Qa2$1 10*4 3")).getMessage());
        }
        try (RecordResolver resolver = new RecordResolver(store(), ArraySchema.of(Datatype.INT16, 13))) {
            assertEquals(file + ": record 00:Fx7Qa2$0 0*13: collection /0 is [250, 12] int16, "
                    + "expected [250, 13] int16 (rows of 13 elements for the int16 (13,))",
                    assertThrows(CollectionLayoutException.class,
                            () -> resolver.read("00:Fx7Qa2$0 0*13")).getMessage());
        }
    }

    /** The committed fixture, copied: an SWMR reader must not touch the original. */
    private Path store() throws Exception {
        Path copy = dir.resolve("h5py_store");
        if (!Files.isDirectory(copy)) {
            Files.createDirectory(copy);
            try (var files = Files.list(HangarFixtures.h5pyStore())) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.copy(file, copy.resolve(file.getFileName()));
                }
            }
        }
        return copy;
    }
}
