package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;

/**
 * A corpus of broken files derived from valid ones: each must be refused with a typed exception
 * whose fields name the file, offset, structure, field, what was expected and what was found;
 * none may exhaust memory or hang.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SionBadInputTest {

    /** The valid base: 3 tasks, capacities 256/768/0, fsblksize 256, task 0 uses 3 chunks. */
    private static final int TASKS = 3;
    private static final long START_OF_DATA = 1280;
    private static final long GLOBAL_SKIP = 1024;
    private static final long START_OF_META2 = START_OF_DATA + 3 * GLOBAL_SKIP;
    private static final long END_OF_META2 = START_OF_META2 + 8L * TASKS * 4;

    @TempDir
    Path directory;
    private Path valid;
    private byte[] validBytes;
    private int variant;

    @BeforeEach
    void writeValidFile() throws IOException {
        valid = directory.resolve("valid.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(valid, new long[] {100, 700, 0}, new long[] {7, 8, 9},
                256, SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN).withFsyncOnClose(false))) {
            for (int record = 0; record < 3; record++) {
                writer.write(SionSerialWriterTest.pattern(0, 200L * record, 200));
            }
            writer.selectTask(1);
            writer.write(SionSerialWriterTest.pattern(1, 0, 100));
        }
        validBytes = Files.readAllBytes(valid);
        assertEquals(END_OF_META2 + 4, validBytes.length, "base file layout as planned");
        try (SionFile sion = SionFile.open(valid)) {
            assertEquals(START_OF_META2, sion.physicalFiles().get(0).meta1().startOfMeta2());
        }
    }

    @Test
    void truncationAtEveryFieldBoundaryIsReportedWithTheFileSize() throws IOException {
        TreeSet<Long> cuts = new TreeSet<>(List.of(0L, 1L, 3L, 4L, 8L, 12L, 16L, 20L, 24L, 28L, 32L, 36L, 44L, 52L,
                100L, 1075L, 1076L, START_OF_DATA, START_OF_DATA + 150, START_OF_META2 - 1, START_OF_META2,
                END_OF_META2 - 1, END_OF_META2 + 1, END_OF_META2 + 3));
        for (int task = 0; task < TASKS; task++) {
            cuts.add(Meta1Layout.globalRankOffset(TASKS, task));
            cuts.add(Meta1Layout.chunkCapacityOffset(TASKS, task));
            cuts.add(START_OF_META2 + Meta2Layout.chunkCountOffset(task));
            for (int chunk = 0; chunk < 3; chunk++) {
                cuts.add(START_OF_META2 + Meta2Layout.bytesInChunkOffset(TASKS, chunk, task));
            }
        }
        cuts.add(Meta1Layout.maxChunksOffset(TASKS));
        cuts.add(Meta1Layout.startOfMeta2Offset(TASKS));
        cuts.add(Meta1Layout.size(TASKS));
        for (long cut : cuts.tailSet((long) Meta1Layout.MAGIC.length)) {
            Path truncated = variant(Arrays.copyOf(validBytes, (int) cut));
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> SionFile.open(truncated),
                    "cut at " + cut);
            assertNamesEverything(e, truncated);
            assertTrue(e.offset() >= 0 && e.offset() <= cut, "offset " + e.offset() + " within the " + cut + " bytes");
            assertTrue((e.expected() + " " + e.found()).contains(Long.toString(cut)),
                    "cut at " + cut + ": the message must say how long the file is: " + e.getMessage());
        }
        Path withoutTrailer = variant(Arrays.copyOf(validBytes, (int) END_OF_META2));
        try (SionFile sion = SionFile.open(withoutTrailer)) {
            assertTrue(sion.physicalFiles().get(0).mappingSize().isEmpty(), "the parallel writer's form is valid");
        }
    }

    @Test
    void aFileCutInsideMeta1sFixedPartIsRefusedBeforeItIsRead() throws IOException {
        Path cut = variant(Arrays.copyOf(validBytes, 20));
        CorruptFileException e = corrupt(cut, 0, "META1", "fixed part");
        assertEquals(Meta1Layout.FIXED_PART_SIZE + " bytes at offset 0", e.expected());
        assertEquals("file of 20 bytes (truncated)", e.found());
        assertEquals(e.getMessage(), assertThrows(CorruptFileException.class, () -> SionRecovery.recover(cut))
                .getMessage(), "recovery checks the fixed part as the reader does");
    }

    /** A file cut inside the magic has no magic: it is not a SION file, rather than a damaged one. */
    @Test
    void aFileCutInsideTheMagicIsNotASionFile() throws IOException {
        WrongFormatException empty = assertThrows(WrongFormatException.class, () -> SionFile.open(variant(new byte[0])));
        assertEquals(empty.file() + ": not a SION file: it is empty", empty.getMessage());
        WrongFormatException cut = assertThrows(WrongFormatException.class,
                () -> SionFile.open(variant(Arrays.copyOf(validBytes, 3))));
        assertEquals(cut.file() + ": not a SION file: it starts with 73 69 6f (\"sio\"), not the magic 73 69 6f 6e"
                + " (\"sion\")", cut.getMessage());
    }

    @Test
    void aFileWithoutTheMagicIsNotASionFileNamingTheBytesFound() throws IOException {
        Path text = variant("hello, world\n".getBytes(StandardCharsets.US_ASCII));
        WrongFormatException e = assertThrows(WrongFormatException.class, () -> SionFile.open(text));
        assertEquals(text + ": not a SION file: it starts with 68 65 6c 6c (\"hell\"), not the magic 73 69 6f 6e"
                + " (\"sion\")", e.getMessage());
        assertEquals("a SION", e.format());
        WrongFormatException upperCase = assertThrows(WrongFormatException.class,
                () -> SionFile.open(patch(0, new byte[] {'S', 'I', 'O', 'N'})));
        assertTrue(upperCase.found().startsWith("it starts with 53 49 4f 4e (\"SION\")"), upperCase.getMessage());
    }

    @Test
    void endiannessWordOfNeitherFormIsCorrupt() throws IOException {
        for (byte[] word : List.of(new byte[] {1, 0, 0, 0}, new byte[] {2, 2, 2, 2}, new byte[] {0, 1, 0, 0})) {
            CorruptFileException e = corrupt(patch(4, word), 4, "META1", "endianness word");
            assertEquals(EndiannessWord.hex(word), e.found());
            assertTrue(e.expected().contains("00 00 00 00 or 01 01 01 01"), e.expected());
        }
    }

    @Test
    void fileFormatVersionOutsideThreeToFiveIsUnsupported() throws IOException {
        for (int version : new int[] {-1, 0, 2, 6, 1007}) {
            Path file = patch(16, littleInt(version));
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SionFile.open(file));
            assertEquals(file, e.file());
            assertEquals("META1 fileformat_version", e.structure());
            assertEquals(16, e.offset());
            assertEquals("version " + version, e.found());
            assertEquals("versions 3 to 5", e.supported());
            assertEquals(file + ": unsupported META1 fileformat_version at offset 16: found version " + version
                    + "; supported: versions 3 to 5", e.getMessage());
        }
    }

    @Test
    void olderFileFormatVersionsThreeAndFourAreRead() throws IOException {
        for (int version : new int[] {3, 4}) {
            try (SionFile sion = SionFile.open(patch(16, littleInt(version)))) {
                assertArrayEquals(SionSerialWriterTest.pattern(0, 0, 600), sion.readFully(0), "version " + version);
                assertEquals(KeyValueMode.NONE, sion.keyValueMode());
            }
        }
    }

    @Test
    void fileFormatThreeStoresRequestedChunkSizesThatTheReaderAligns() throws IOException {
        long capacity0 = Meta1Layout.chunkCapacityOffset(TASKS, 0);
        byte[] version3 = patchAll(validBytes, 16, littleInt(3));
        byte[] requested = patchAll(version3, capacity0, littleLong(100));
        try (SionFile sion = SionFile.open(variant(requested))) {
            assertEquals(256, sion.task(0).chunkCapacity(), "100 requested, aligned to fsblksize 256");
            assertEquals(0, sion.task(2).chunkCapacity(), "0 stays 0");
            assertArrayEquals(new long[] {200, 200, 200}, sion.task(0).bytesPerChunk());
            assertArrayEquals(SionSerialWriterTest.pattern(0, 0, 600), sion.readFully(0));
            assertArrayEquals(SionSerialWriterTest.pattern(1, 0, 100), sion.readFully(1));
        }
        Path version4 = variant(patchAll(requested, 16, littleInt(4)));
        long fill = START_OF_META2 + Meta2Layout.bytesInChunkOffset(TASKS, 0, 0);
        CorruptFileException e = corrupt(version4, fill, "META2", "bytes of task 0 in chunk 0");
        assertEquals("0..100 (chunk capacity)", e.expected(), "from version 4 on the stored size is the capacity");
        assertEquals("200", e.found());

        long huge = Long.MAX_VALUE - 10;
        CorruptFileException tooLarge = corrupt(variant(patchAll(version3, capacity0, littleLong(huge))), capacity0,
                "META1", "chunksize[0]");
        assertEquals(Long.toString(huge), tooLarge.found(), "a size that cannot be aligned is reported as stored");
        long largestAlignable = Long.MAX_VALUE - 256;
        CorruptFileException aligned = corrupt(variant(patchAll(version3, capacity0, littleLong(largestAlignable))),
                capacity0, "META1", "chunksize[0]");
        assertEquals(Long.toString(Long.MAX_VALUE - 255), aligned.found(), "the largest size that can be aligned is");
    }

    @Test
    void versionsBeforeFiveIgnoreFlag1AndVersionFiveReadsZeroAsPlain() throws IOException {
        byte[] unknownMode = patchAll(validBytes, 36, littleLong(52L << 32));
        try (SionFile sion = SionFile.open(variant(patchAll(unknownMode, 16, littleInt(4))))) {
            assertEquals(KeyValueMode.NONE, sion.keyValueMode(), "flag1 has no key-value mode before version 5");
        }
        try (SionFile sion = SionFile.open(patch(36, littleLong(0)))) {
            assertEquals(KeyValueMode.NONE, sion.keyValueMode(), "a stored 0 means plain");
        }
        assertEquals("mode 1", assertThrows(UnsupportedFormatException.class,
                () -> SionFile.open(patch(36, littleLong(1L << 32)))).found());
    }

    @Test
    void taskCountsThatAreNegativeZeroOrLargerThanTheFileAreCorrupt() throws IOException {
        assertEquals("1..210 (META1 of 1088+16*ntasks bytes must fit the file of 4452 bytes)",
                corrupt(patch(24, littleInt(1000)), 24, "META1", "ntasks").expected());
        for (int taskCount : new int[] {-1, 0, Integer.MAX_VALUE, Integer.MIN_VALUE, 1000}) {
            CorruptFileException e = corrupt(patch(24, littleInt(taskCount)), 24, "META1", "ntasks");
            assertEquals(Integer.toString(taskCount), e.found());
            assertTrue(e.expected().contains(Integer.toString(validBytes.length)), e.expected());
        }
    }

    @Test
    void aTaskCountWhoseArraysExceedTwoGibibytesIsNotAllocatedEvenIfTheFileIsThatLarge() throws IOException {
        int taskCount = 150_000_000; // META1 arrays of 2.4 GB
        Path file = patch(24, littleInt(taskCount));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[1]), Meta1Layout.size(taskCount) + 4096); // sparse
        }
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SionFile.open(file));
        assertEquals("META1 arrays of ntasks 150000000", e.structure());
        assertEquals("2400000012 bytes", e.found());
        assertEquals(UnsupportedFormatException.NO_OFFSET, e.offset());
        UnsupportedFormatException recovering = assertThrows(UnsupportedFormatException.class,
                () -> SionRecovery.recover(file));
        assertEquals(e.getMessage(), recovering.getMessage(), "recovery reads META1's arrays in one piece too");
    }

    @Test
    void aMeta2ThatFitsTheFileButExceedsTwoGibibytesIsNotAllocated() throws IOException {
        // Tasks of capacity 0 leave maxchunks unbounded by the data: only the (sparse) file's size bounds META2.
        byte[] empty = patchAll(validBytes, Meta1Layout.chunkCapacityOffset(TASKS, 0), new byte[8 * TASKS]);
        int maxChunks = 1 << 27;
        Path file = variant(patchAll(empty, Meta1Layout.maxChunksOffset(TASKS), littleInt(maxChunks)));
        long meta2Size = 8L * TASKS * (1 + maxChunks);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[1]), START_OF_META2 + meta2Size); // sparse
        }
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SionFile.open(file));
        assertEquals("META2 of ntasks 3 and maxchunks " + maxChunks, e.structure());
        assertEquals(meta2Size + " bytes", e.found());
    }

    @Test
    void recoveryChecksTheFixedPartOfAFileNeverClosed() throws IOException {
        byte[] unclosed = patchAll(validBytes, Meta1Layout.startOfMeta2Offset(TASKS), littleLong(0));
        Path file = variant(patchAll(unclosed, 16, littleInt(99)));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SionRecovery.recover(file));
        assertEquals("META1 fileformat_version", e.structure());
        assertEquals("version 99", e.found());
    }

    @Test
    void blockSizeFileCountAndFileNumberOutOfRangeAreCorrupt() throws IOException {
        assertEquals("0", corrupt(patch(20, littleInt(0)), 20, "META1", "fsblksize").found());
        assertEquals("-5", corrupt(patch(28, littleInt(-5)), 28, "META1", "nfiles").found());
        assertEquals("2", corrupt(patch(32, littleInt(2)), 32, "META1", "filenumber").found());
        Path secondOfTwo = variant(patchAll(patchAll(validBytes, 28, littleInt(2)), 32, littleInt(2)));
        CorruptFileException e = corrupt(secondOfTwo, 32, "META1", "filenumber");
        assertEquals("0..1 for nfiles 2", e.expected(), "parallel sets number their files from 0");
    }

    @Test
    void unknownKeyValueModeIsUnsupported() throws IOException {
        Path file = patch(36, littleLong(52L << 32));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> SionFile.open(file));
        assertEquals("META1 flag1 key-value mode", e.structure());
        assertEquals(36, e.offset());
        assertEquals("mode 52", e.found());
        assertEquals("0 or 50 (none) and 51 (inline)", e.supported());
    }

    @Test
    void chunkCapacitiesThatAreNegativeOverflowOrDoNotFitAreCorrupt() throws IOException {
        long capacity1 = Meta1Layout.chunkCapacityOffset(TASKS, 1);
        assertEquals("-256", corrupt(patch(capacity1, littleLong(-256)), capacity1, "META1", "chunksize[1]").found());
        assertEquals(Long.toString(Long.MAX_VALUE),
                corrupt(patch(capacity1, littleLong(Long.MAX_VALUE)), capacity1, "META1", "chunksize[1]").found());
        long capacity0 = Meta1Layout.chunkCapacityOffset(TASKS, 0);
        byte[] twoHalves = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(Long.MAX_VALUE / 2 + 1).putLong(Long.MAX_VALUE / 2 + 1).array();
        corrupt(patch(capacity0, twoHalves), capacity0, "META1", "chunksize[0]");
        // One more block per task: row 0 still fits, the three rows no longer fit before META2.
        CorruptFileException rows = corrupt(patch(capacity1, littleLong(768 + 256)), Meta1Layout.maxChunksOffset(TASKS),
                "META1", "maxchunks");
        assertEquals("3", rows.found());
        assertEquals("at most 2 rows of globalskip 1280 between start of data 1280 and META2 at 4352", rows.expected());
        // Task 2's chunk may reach exactly to META2: then only the rows no longer fit.
        long capacity2 = Meta1Layout.chunkCapacityOffset(TASKS, 2);
        long room = START_OF_META2 - START_OF_DATA - 256 - 768;
        assertEquals("at most 1 rows of globalskip 3072 between start of data 1280 and META2 at 4352",
                corrupt(patch(capacity2, littleLong(room)), Meta1Layout.maxChunksOffset(TASKS), "META1", "maxchunks")
                        .expected());
        CorruptFileException pastMeta2 = corrupt(patch(capacity2, littleLong(room + 1)), capacity2, "META1",
                "chunksize[2]");
        assertEquals("0.." + room + " (chunk 0 must end before META2 at 4352)", pastMeta2.expected());
    }

    @Test
    void meta2PointerThatIsZeroBeforeTheDataOrBeyondTheFileIsRefused() throws IOException {
        long pointer = Meta1Layout.startOfMeta2Offset(TASKS);
        CorruptFileException notClosed = corrupt(patch(pointer, littleLong(0)), pointer, "META1", "start_of_varheader");
        assertInstanceOf(SionNotClosedException.class, notClosed);
        assertTrue(notClosed.found().contains("never closed"));
        assertEquals("1280..4452 (between the start of the data and the end of the file)",
                corrupt(patch(pointer, littleLong(START_OF_DATA - 1)), pointer, "META1", "start_of_varheader").expected());
        corrupt(patch(pointer, littleLong(START_OF_DATA)), Meta1Layout.chunkCapacityOffset(TASKS, 0), "META1",
                "chunksize[0]");
        corrupt(patch(pointer, littleLong(validBytes.length)), validBytes.length, "META2", "chunk table");
        for (long bad : new long[] {8, 1200, START_OF_DATA - 1, validBytes.length + 1L, Long.MAX_VALUE, -4096}) {
            assertEquals(Long.toString(bad), corrupt(patch(pointer, littleLong(bad)), pointer, "META1",
                    "start_of_varheader").found());
        }
    }

    @Test
    void maxChunksThatIsZeroOrHugeIsCorrupt() throws IOException {
        long offset = Meta1Layout.maxChunksOffset(TASKS);
        for (int maxChunks : new int[] {0, -1, 4, Integer.MAX_VALUE}) {
            assertEquals(Integer.toString(maxChunks), corrupt(patch(offset, littleInt(maxChunks)), offset, "META1",
                    "maxchunks").found());
        }
    }

    @Test
    void meta2CountsAndFillLevelsOutOfRangeAreCorrupt() throws IOException {
        long count1 = START_OF_META2 + Meta2Layout.chunkCountOffset(1);
        assertEquals("0", corrupt(patch(count1, littleLong(0)), count1, "META2", "chunks[1]").found());
        assertEquals("4", corrupt(patch(count1, littleLong(4)), count1, "META2", "chunks[1]").found());
        long fill = START_OF_META2 + Meta2Layout.bytesInChunkOffset(TASKS, 2, 0);
        CorruptFileException tooFull = corrupt(patch(fill, littleLong(257)), fill, "META2", "bytes of task 0 in chunk 2");
        assertEquals("257", tooFull.found());
        assertTrue(tooFull.expected().contains("0..256"));
        assertEquals("-1", corrupt(patch(fill, littleLong(-1)), fill, "META2", "bytes of task 0 in chunk 2").found());
        assertEquals("5", corrupt(patch(END_OF_META2, littleInt(5)), END_OF_META2, "mapping", "mapping_size").found());
    }

    @Test
    void aFileWhoseWriterNeverClosedIsRefusedAsNotClosed() throws IOException {
        Path file = directory.resolve("unclosed.sion");
        SionSerialWriter writer = SionSerialWriter.create(file, new long[] {100}, new long[] {0}, 64,
                SionWriteOptions.defaults());
        writer.write(new byte[100]);
        SionNotClosedException e = assertThrows(SionNotClosedException.class, () -> SionFile.open(file));
        assertNamesEverything(e, file);
        assertEquals(Meta1Layout.startOfMeta2Offset(1), e.offset());
        writer.close();
        try (SionFile sion = SionFile.open(file)) {
            assertEquals(100, sion.task(0).totalBytes(), "the same file is readable once closed");
        }
    }

    @Test
    void brokenMultiFileSetsAreRefused() throws Exception {
        Path set = directory.resolve("set.sion");
        ThreadGroupCollectives.run(3, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(set, collectives, 64, 2, 64,
                    SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN).withFsyncOnClose(false))) {
                writer.write(new byte[10 * (collectives.rank() + 1)]);
            }
            return null;
        });
        PhysicalFileMetadata first = SionFile.readPhysicalFile(set);
        long mapping = first.endOfMeta2();
        byte[] setBytes = Files.readAllBytes(set);
        Path member = SionFileNames.physicalFile(set, 1);
        byte[] memberBytes = Files.readAllBytes(member);

        assertEquals("3", setFileError(setBytes, mapping + MappingLayout.entryOffset(2), littleInt(3), memberBytes,
                mapping + MappingLayout.entryOffset(2), "filenumber of task 2").found());
        assertEquals("0", setFileError(setBytes, mapping + MappingLayout.entryOffset(2) + 4, littleInt(0), memberBytes,
                mapping + MappingLayout.entryOffset(2) + 4, "local rank of task 2").found(), "duplicate (1, 0)");
        CorruptFileException tooManyEntries = setFileError(setBytes, mapping, littleInt(Integer.MAX_VALUE), memberBytes,
                mapping, "mapping_size");
        assertEquals(Integer.toString(Integer.MAX_VALUE), tooManyEntries.found());
        assertEquals("2..3 (at least one task per file, entries must fit the file)", tooManyEntries.expected());
        CorruptFileException justPastTheFiles = setFileError(setBytes, mapping + MappingLayout.entryOffset(2),
                littleInt(2), memberBytes, mapping + MappingLayout.entryOffset(2), "filenumber of task 2");
        assertEquals("0..1", justPastTheFiles.expected());
        assertEquals("2", justPastTheFiles.found());
        CorruptFileException rankPastTheFile = setFileError(setBytes, mapping + MappingLayout.entryOffset(2) + 4,
                littleInt(2), memberBytes, mapping + MappingLayout.entryOffset(2) + 4, "local rank of task 2");
        assertEquals("an unused local rank in 0..1 of file 1", rankPastTheFile.expected());
        CorruptFileException missingEntry = setFileError(setBytes, mapping, littleInt(2), memberBytes, mapping,
                "entries of file 1");
        assertEquals("2 (ntasks of that file)", missingEntry.expected());
        assertEquals("1", missingEntry.found());

        Path lonely = directory.resolve("lonely.sion");
        Files.write(lonely, setBytes);
        FormatException missing = assertThrows(FormatException.class, () -> SionFile.open(lonely));
        assertEquals(SionFileNames.physicalFile(lonely, 1), missing.file());
        assertTrue(missing.getMessage().contains("physical file of the SION set is missing"));

        Path renumbered = directory.resolve("renumbered.sion");
        Files.write(renumbered, setBytes);
        byte[] wrongNumber = memberBytes.clone();
        ByteBuffer.wrap(wrongNumber).order(ByteOrder.LITTLE_ENDIAN).putInt(Meta1Layout.FILE_NUMBER_OFFSET, 0);
        Path renumberedMember = SionFileNames.physicalFile(renumbered, 1);
        Files.write(renumberedMember, wrongNumber);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> SionFile.open(renumbered));
        assertNamesEverything(e, renumberedMember);
        assertEquals("filenumber", e.field());
        assertEquals("1", e.expected());
        assertEquals("0", e.found());

        FormatException notFirst = assertThrows(FormatException.class, () -> SionFile.open(member));
        assertTrue(notFirst.getMessage().contains("is physical file 1 of a set of 2 files"), notFirst.getMessage());

        // A mapping that fits a (sparse) file of 2 GiB is still not read into one buffer.
        Path hugeMapping = directory.resolve("huge.sion");
        int entries = 1 << 28;
        Files.write(hugeMapping, patchAll(setBytes, mapping, littleInt(entries)));
        Files.write(SionFileNames.physicalFile(hugeMapping, 1), memberBytes);
        try (FileChannel channel = FileChannel.open(hugeMapping, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[1]), mapping + MappingLayout.size(entries)); // sparse
        }
        UnsupportedFormatException tooLarge = assertThrows(UnsupportedFormatException.class,
                () -> SionFile.open(hugeMapping));
        assertEquals("mapping of " + entries + " tasks", tooLarge.structure());
        assertEquals(MappingLayout.size(entries) + " bytes", tooLarge.found());
    }

    @Test
    void keyValueRecordLongerThanTheStreamIsCorrupt() throws IOException {
        Path file = directory.resolve("kv.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                SionWriteOptions.defaults().withKeyValueMode(KeyValueMode.INLINE)
                        .withMetadataOrder(ByteOrder.LITTLE_ENDIAN))) {
            writer.writeKeyValue(1, ByteBuffer.wrap(new byte[60]));
            writer.writeKeyValue(2, ByteBuffer.wrap(new byte[10]));
        }
        PhysicalFileMetadata metadata = SionFile.readPhysicalFile(file);
        long secondLength = metadata.geometry().chunkOffset(0, 1) + (76 + KeyValueRecordLayout.LENGTH_OFFSET - 64);
        Path broken = directory.resolve("kv-broken.sion");
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) secondLength, 1L << 40);
        Files.write(broken, bytes);
        try (SionFile sion = SionFile.open(broken)) {
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> sion.keyValueRecords(0));
            assertNamesEverything(e, broken);
            assertEquals(secondLength, e.offset());
            assertEquals("key-value record", e.structure());
            assertEquals("length of record 1 of task 0", e.field());
            assertEquals(Long.toString(1L << 40), e.found());
            assertEquals("0..10 (bytes left in the task stream)", e.expected());
        }
    }

    @Test
    void aFileWhoseTasksAllHaveCapacityZeroIsValid() throws IOException {
        Path file = directory.resolve("empty-tasks.sion");
        try (SionSerialWriter writer = SionSerialWriter.create(file, new long[] {0, 0}, new long[] {0, 1}, 64,
                SionWriteOptions.defaults().withFsyncOnClose(false))) {
            writer.selectTask(1);
            writer.write(new byte[0]);
        }
        try (SionFile sion = SionFile.open(file)) {
            assertEquals(0, sion.physicalFiles().get(0).geometry().globalSkip());
            assertEquals(0, sion.task(1).totalBytes());
        }
    }

    private CorruptFileException setFileError(byte[] setBytes, long offset, byte[] patch, byte[] memberBytes,
                                              long expectedOffset, String field) throws IOException {
        Path name = directory.resolve("set" + (++variant) + ".sion");
        byte[] bytes = setBytes.clone();
        System.arraycopy(patch, 0, bytes, (int) offset, patch.length);
        Files.write(name, bytes);
        Files.write(SionFileNames.physicalFile(name, 1), memberBytes);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> SionFile.open(name));
        assertNamesEverything(e, name);
        assertEquals(expectedOffset, e.offset());
        assertEquals("mapping", e.structure());
        assertEquals(field, e.field());
        return e;
    }

    private CorruptFileException corrupt(Path file, long offset, String structure, String field) {
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> SionFile.open(file));
        assertNamesEverything(e, file);
        assertEquals(offset, e.offset(), e.getMessage());
        assertEquals(structure, e.structure(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        return e;
    }

    private static void assertNamesEverything(CorruptFileException e, Path file) {
        assertEquals(file, e.file());
        String message = e.getMessage();
        for (String part : new String[] {file.toString(), "offset " + e.offset(), e.structure(), e.field(),
                "expected " + e.expected(), "found " + e.found()}) {
            assertTrue(message.contains(part), "message lacks '" + part + "': " + message);
        }
        assertTrue(!e.expected().isBlank() && !e.found().isBlank(), message);
    }

    private Path patch(long offset, byte[] bytes) throws IOException {
        return variant(patchAll(validBytes, offset, bytes));
    }

    private static byte[] patchAll(byte[] bytes, long offset, byte[] patch) {
        byte[] patched = bytes.clone();
        System.arraycopy(patch, 0, patched, (int) offset, patch.length);
        return patched;
    }

    private Path variant(byte[] bytes) throws IOException {
        Path file = directory.resolve("variant" + (++variant) + ".sion");
        Files.write(file, bytes);
        return file;
    }

    private static byte[] littleInt(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    private static byte[] littleLong(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

}
