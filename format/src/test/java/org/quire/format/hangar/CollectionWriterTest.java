package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.MetadataRetriesExhaustedException;
import org.quire.format.hangar.UnresolvableRecordException.CollectionFileMissingException;
import org.quire.format.hangar.UnresolvableRecordException.CollectionLayoutException;
import org.quire.format.hangar.UnresolvableRecordException.DamagedCollectionFileException;
import org.quire.format.hangar.UnresolvableRecordException.ShapeMismatchException;
import org.quire.format.hangar.UnresolvableRecordException.UnwrittenRowException;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;

/** The writer's cursor and files, reading back in this process, and records that do not resolve. */
class CollectionWriterTest {

    private static final ArraySchema FLOATS = ArraySchema.of(Datatype.FLOAT32, 20, 2, 3);
    private static final ArraySchema TEN_INTS = ArraySchema.of(Datatype.INT32, 10);

    @TempDir
    Path dir;

    @Test
    void fillsRowsThenCollectionsFromZeroInOneFile() throws Exception {
        List<LocatorRecord> records = new ArrayList<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, FLOATS)) {
            for (int k = 0; k < 502; k++) {
                records.add(writer.write(HangarArrays.floats(k, 120)));
            }
            assertEquals(1, writer.uids().size());
        }
        String uid = records.get(0).uid();
        assertTrue(uid.matches("[A-Za-z0-9]{6}"), uid);
        assertTrue(Files.isRegularFile(dir.resolve(uid + ".hdf5")));
        assertEquals("00:" + uid + "$0 0*20 2 3", records.get(0).format());
        assertEquals("00:" + uid + "$0 1*20 2 3", records.get(1).format());
        assertEquals("00:" + uid + "$0 249*20 2 3", records.get(249).format());
        assertEquals("00:" + uid + "$1 0*20 2 3", records.get(250).format());
        assertEquals("00:" + uid + "$2 1*20 2 3", records.get(501).format());
    }

    @Test
    void readsEveryArrayBackInTheSameProcessBeforeAndAfterFlushAndClose() throws Exception {
        List<LocatorRecord> records = new ArrayList<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, FLOATS)) {
            for (int k = 0; k < 300; k++) {
                records.add(writer.write(HangarArrays.floats(k, 120)));
                // Not flushed yet: read through the writer's own file.
                assertArrayEquals(HangarArrays.floats(k, 120), writer.read(records.get(k)).floats());
            }
            writer.flush();
            try (RecordResolver resolver = new RecordResolver(dir, FLOATS)) {
                for (int k = 0; k < records.size(); k++) {
                    assertArrayEquals(HangarArrays.floatBytes(k, 120),
                            resolver.read(records.get(k)).elements(), records.get(k).format());
                }
            }
        }
        try (RecordResolver resolver = new RecordResolver(dir, FLOATS)) {
            for (int k = 0; k < records.size(); k++) {
                StoredArray array = resolver.read(records.get(k).format());
                assertArrayEquals(new long[] {20, 2, 3}, array.shape());
                assertArrayEquals(HangarArrays.floats(k, 120), array.floats());
            }
        }
    }

    /**
     * A resolver that looked at rows and a collection before they were written (the collection
     * with no chunk index yet) finds them once the writer has flushed them: it refreshes.
     */
    @Test
    void aResolverOpenBesideTheWriterFindsRowsFlushedAfterItLooked() throws Exception {
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS);
             RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            String uid = writer.write(HangarArrays.ints(0, 10)).uid();
            writer.flush();
            assertArrayEquals(HangarArrays.ints(0, 10),
                    resolver.read(new LocatorRecord(uid, 0, 0, 10)).ints());
            assertThrows(UnwrittenRowException.class,
                    () -> resolver.read(new LocatorRecord(uid, 0, 1, 10)));
            assertThrows(UnwrittenRowException.class,
                    () -> resolver.read(new LocatorRecord(uid, 1, 0, 10)));
            for (int k = 1; k <= 250; k++) {
                writer.write(HangarArrays.ints(k, 10));
            }
            writer.flush();
            assertArrayEquals(HangarArrays.ints(1, 10),
                    resolver.read(new LocatorRecord(uid, 0, 1, 10)).ints());
            assertArrayEquals(HangarArrays.ints(250, 10),
                    resolver.read(new LocatorRecord(uid, 1, 0, 10)).ints());
        }
    }

    @Test
    void aFullFileStartsANewOneAndItsLastCollectionIsNeverWritten() throws Exception {
        ArraySchema one = ArraySchema.of(Datatype.INT32, 1);
        int perFile = 99 * 250;
        List<LocatorRecord> records = new ArrayList<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, one)) {
            for (int k = 0; k <= perFile; k++) {
                records.add(writer.write(new int[] {k}));
            }
            assertEquals(2, writer.uids().size());
            // The new file's array reads back through the writer, the full one through a reader.
            assertArrayEquals(new int[] {perFile}, writer.read(records.get(perFile)).ints());
            assertArrayEquals(new int[] {perFile - 1},
                    writer.read(records.get(perFile - 1)).ints());
        }
        LocatorRecord lastOfFirst = records.get(perFile - 1);
        LocatorRecord firstOfSecond = records.get(perFile);
        assertEquals(98, lastOfFirst.collection());
        assertEquals(249, lastOfFirst.index());
        assertNotEquals(lastOfFirst.uid(), firstOfSecond.uid());
        assertEquals(new LocatorRecord(firstOfSecond.uid(), 0, 0, 1), firstOfSecond);
        try (Hdf5File file = Hdf5File.open(dir.resolve(lastOfFirst.uid() + ".hdf5"))) {
            assertEquals(100, file.root().memberNames().size());
            // Hangar's cursor when the file filled up: the position after the last, 1 left.
            assertArrayEquals(new long[] {99, 0},
                    file.root().attribute("next_location").longs());
            assertArrayEquals(new long[] {1},
                    file.root().attribute("collections_remaining").longs());
            Dataset last = file.root().dataset("99");
            for (long row = 0; row < 250; row++) {
                assertFalse(last.isChunkWritten(row, 0), "row " + row + " of /99");
            }
            assertTrue(file.root().dataset("98").isChunkWritten(249, 0));
        }
        try (Hdf5File file = Hdf5File.open(dir.resolve(firstOfSecond.uid() + ".hdf5"))) {
            // At close: the last position written.
            assertArrayEquals(new long[] {0, 0},
                    file.root().attribute("next_location").longs());
            assertArrayEquals(new long[] {100},
                    file.root().attribute("collections_remaining").longs());
        }
        try (RecordResolver resolver = new RecordResolver(dir, one)) {
            for (int k = 0; k < records.size(); k += 997) {
                assertArrayEquals(new int[] {k}, resolver.read(records.get(k)).ints());
            }
            assertArrayEquals(new int[] {perFile}, resolver.read(firstOfSecond).ints());
        }
    }

    @Test
    void aNewCheckoutStartsANewFile() throws Exception {
        LocatorRecord first;
        LocatorRecord second;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            first = writer.write(HangarArrays.ints(0, 10));
        }
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            second = writer.write(HangarArrays.ints(1, 10));
        }
        assertNotEquals(first.uid(), second.uid());
        assertEquals(new LocatorRecord(second.uid(), 0, 0, 10), second);
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            assertArrayEquals(HangarArrays.ints(0, 10), resolver.read(first).ints());
            assertArrayEquals(HangarArrays.ints(1, 10), resolver.read(second).ints());
        }
    }

    @Test
    void zeroDimensionalArraysTakeOneElementAndEndTheirRecordInAStar() throws Exception {
        ArraySchema scalar = ArraySchema.of(Datatype.FLOAT64);
        LocatorRecord record;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, scalar)) {
            writer.write(new double[] {1.5});
            record = writer.write(new double[] {-2.25});
        }
        assertEquals("00:" + record.uid() + "$0 1*", record.format());
        try (RecordResolver resolver = new RecordResolver(dir, scalar)) {
            StoredArray array = resolver.read(record.format());
            assertArrayEquals(new long[0], array.shape());
            assertArrayEquals(new double[] {-2.25}, array.doubles());
        }
    }

    @Test
    void rowsOfMoreThanHangarsChunkBoundSpanSeveralChunks() throws Exception {
        // 40,000 float64 = 320,000 bytes: chunks of floor(255,000 / 8) = 31,875 elements.
        ArraySchema large = ArraySchema.of(Datatype.FLOAT64, 200, 200);
        double[][] arrays = new double[2][40_000];
        try (CollectionWriter writer = CollectionWriter.checkout(dir, large)) {
            for (int k = 0; k < 2; k++) {
                for (int e = 0; e < 40_000; e++) {
                    arrays[k][e] = k * 1e6 + e * 0.5;
                }
                writer.write(arrays[k]);
            }
        }
        String uid;
        try (var files = Files.list(dir)) {
            uid = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".hdf5"))
                    .findFirst().orElseThrow().replace(".hdf5", "");
        }
        try (Hdf5File file = Hdf5File.open(dir.resolve(uid + ".hdf5"))) {
            Dataset first = file.root().dataset("0");
            assertArrayEquals(new long[] {1, 31_875}, first.chunkShape());
            assertTrue(first.isChunkWritten(1, 39_999));
            assertFalse(first.isChunkWritten(2, 0));
        }
        try (RecordResolver resolver = new RecordResolver(dir, large)) {
            for (int k = 0; k < 2; k++) {
                assertArrayEquals(arrays[k],
                        resolver.read("00:" + uid + "$0 " + k + "*200 200").doubles());
            }
        }
    }

    @Test
    void aRecordWhoseFileIsMissingNamesTheFile() throws Exception {
        LocatorRecord record = LocatorRecord.parse("00:AbC123$0 0*10");
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            CollectionFileMissingException e = assertThrows(CollectionFileMissingException.class,
                    () -> resolver.read(record));
            Path file = dir.resolve("AbC123.hdf5");
            assertEquals(file + ": record 00:AbC123$0 0*10: no such collection file (expected "
                    + "AbC123.hdf5 in " + dir.toAbsolutePath() + ")", e.getMessage());
            assertEquals(file, e.file());
            assertEquals(record, e.record());
        }
    }

    @Test
    void aRecordOfARowNeverWrittenIsRefused() throws Exception {
        String uid;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            for (int k = 0; k < 3; k++) {
                writer.write(HangarArrays.ints(k, 10));
            }
            uid = writer.uids().get(0);
            UnwrittenRowException byWriter = assertThrows(UnwrittenRowException.class,
                    () -> writer.read(new LocatorRecord(uid, 0, 3, 10)));
            assertEquals(dir.resolve(uid + ".hdf5") + ": record 00:" + uid + "$0 3*10: row 3 of "
                    + "collection /0 was never written", byWriter.getMessage());
        }
        Path file = dir.resolve(uid + ".hdf5");
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            assertArrayEquals(HangarArrays.ints(2, 10),
                    resolver.read(new LocatorRecord(uid, 0, 2, 10)).ints());
            assertEquals(file + ": record 00:" + uid + "$0 3*10: row 3 of collection /0 was never "
                    + "written (or its writer has not flushed it yet)",
                    assertThrows(UnwrittenRowException.class,
                            () -> resolver.read(new LocatorRecord(uid, 0, 3, 10))).getMessage());
            assertEquals(file + ": record 00:" + uid + "$1 0*10: row 0 of collection /1 was never "
                    + "written (or its writer has not flushed it yet)",
                    assertThrows(UnwrittenRowException.class,
                            () -> resolver.read(new LocatorRecord(uid, 1, 0, 10))).getMessage());
            assertEquals(file + ": record 00:" + uid + "$0 250*10: row 250 is beyond the 250 rows "
                    + "of collection /0", assertThrows(UnwrittenRowException.class,
                            () -> resolver.read(new LocatorRecord(uid, 0, 250, 10))).getMessage());
            assertEquals(file + ": record 00:" + uid + "$100 0*10: the file has no collection /100 "
                    + "(Hangar writes /0 to /99)", assertThrows(UnwrittenRowException.class,
                            () -> resolver.read(new LocatorRecord(uid, 100, 0, 10))).getMessage());
        }
    }

    @Test
    void aRecordWhoseShapeDoesNotFitTheCollectionIsRefused() throws Exception {
        String uid;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            uid = writer.write(HangarArrays.ints(0, 10)).uid();
        }
        Path file = dir.resolve(uid + ".hdf5");
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            assertEquals(file + ": record 00:" + uid + "$0 0*7: its shape (7,) has 7 elements, the "
                    + "rows of collection /0 hold 10 (int32 (10,))",
                    assertThrows(ShapeMismatchException.class,
                            () -> resolver.read(new LocatorRecord(uid, 0, 0, 7))).getMessage());
            assertEquals(file + ": record 00:" + uid + "$0 0*5 2: its shape (5, 2) is not the "
                    + "schema's (10,)", assertThrows(ShapeMismatchException.class,
                            () -> resolver.read(new LocatorRecord(uid, 0, 0, 5, 2))).getMessage());
            // As text, the record's shape is checked against the schema while it is parsed.
            MalformedRecordException parsed = assertThrows(MalformedRecordException.class,
                    () -> resolver.read("00:" + uid + "$0 0*7"));
            assertEquals(14, parsed.position());
        }
    }

    @Test
    void aCollectionFileOfAnotherWidthOrTypeIsRefused() throws Exception {
        String wide;
        String floats;
        try (CollectionWriter writer = CollectionWriter.checkout(dir,
                ArraySchema.of(Datatype.INT32, 11))) {
            wide = writer.write(HangarArrays.ints(0, 11)).uid();
        }
        try (CollectionWriter writer = CollectionWriter.checkout(dir,
                ArraySchema.of(Datatype.FLOAT32, 10))) {
            floats = writer.write(HangarArrays.floats(0, 10)).uid();
        }
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            assertEquals(dir.resolve(wide + ".hdf5") + ": record 00:" + wide + "$0 0*10: "
                    + "collection /0 is [250, 11] int32, expected [250, 10] int32 (rows of 10 "
                    + "elements for the int32 (10,))", assertThrows(CollectionLayoutException.class,
                            () -> resolver.read("00:" + wide + "$0 0*10")).getMessage());
            assertEquals(dir.resolve(floats + ".hdf5") + ": record 00:" + floats + "$0 0*10: "
                    + "collection /0 is [250, 10] float32, expected [250, 10] int32 (rows of 10 "
                    + "elements for the int32 (10,))", assertThrows(CollectionLayoutException.class,
                            () -> resolver.read("00:" + floats + "$0 0*10")).getMessage());
        }
    }

    @Test
    void aWriteThatFailsTakesNoRow() throws Exception {
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            // float64 elements for an int32 schema: refused by the dataset, after the file exists.
            assertThrows(IllegalArgumentException.class, () -> writer.write(new double[10]));
            LocatorRecord first = writer.write(HangarArrays.ints(0, 10));
            assertEquals(new LocatorRecord(first.uid(), 0, 0, 10), first);
            assertThrows(IllegalArgumentException.class, () -> writer.write(new double[10]));
            assertEquals(new LocatorRecord(first.uid(), 0, 1, 10),
                    writer.write(HangarArrays.ints(1, 10)));
            assertThrows(UnwrittenRowException.class,
                    () -> writer.read(new LocatorRecord(first.uid(), 0, 2, 10)));
        }
    }

    @Test
    void refusesArraysOfAnotherSizeAndSchemasHangarCannotHold() throws Exception {
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            assertEquals("an array of the int32 (10,) has 10 elements, got 9",
                    assertThrows(IllegalArgumentException.class,
                            () -> writer.write(new int[9])).getMessage());
            assertTrue(writer.uids().isEmpty());
        }
        assertThrows(IllegalArgumentException.class, () -> ArraySchema.of(Datatype.INT32, 3, 0));
        assertThrows(IllegalArgumentException.class,
                () -> ArraySchema.of(Datatype.INT32.withByteOrder(java.nio.ByteOrder.BIG_ENDIAN), 3));
    }

    /**
     * A collection whose object header was overwritten behind the writer's back, in a file no
     * writer holds: one read (no SWMR retries), a typed exception naming file and record.
     */
    @Test
    void aDamagedCollectionFileNamesTheRecordAndFailsOnTheFirstRead() throws Exception {
        LocatorRecord record;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, TEN_INTS)) {
            record = writer.write(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        }
        Path path = dir.resolve(record.uid() + ".hdf5");
        long header;
        try (Hdf5File file = Hdf5File.open(path)) {
            header = file.root().dataset(CollectionFileLayout.datasetName(0)).address();
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), header + 8);
        }
        try (RecordResolver resolver = new RecordResolver(dir, TEN_INTS)) {
            DamagedCollectionFileException e = assertThrows(DamagedCollectionFileException.class,
                    () -> resolver.read(record));
            assertTrue(e.getMessage().startsWith(path + ": record " + record.format()
                    + ": damaged collection file: corrupt object header"), e.getMessage());
            assertEquals(record, e.record());
            CorruptFileException cause = (CorruptFileException) e.getCause();
            assertFalse(cause instanceof MetadataRetriesExhaustedException retried
                    && retried.attempts() > 1, cause.getMessage());
        }
    }
}
