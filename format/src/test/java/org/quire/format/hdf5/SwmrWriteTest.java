package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * {@link Hdf5File#startSwmrWrite()} (docs/hdf5.md, "SWMR writing"): the superblock's
 * consistency flags (0x05 while SWMR writing, 0x00 after close) as libhdf5 reads them, the end
 * of file address true at every flush, changes refused while SWMR writing, and what a flush
 * writes: the appended bytes only, each metadata block in one write, index blocks, index
 * header, object header and superblock in that order.
 */
class SwmrWriteTest {

    private static final int FLAGS_OFFSET = 11;
    private static final int END_OF_FILE_OFFSET = 28;
    /** A 64-byte record: eight little-endian uint64 members. */
    private static final Datatype RECORD = Datatype.CompoundType.packed(
            List.of("seq", "t_ns", "p0", "p1", "p2", "p3", "p4", "sum"),
            Collections.nCopies(8, Datatype.UINT64));
    private static final int RECORD_BYTES = 64;

    @TempDir
    Path dir;

    private static DatasetSpec records(long... maxShape) {
        long[] shape = new long[maxShape.length];
        long[] chunk = new long[maxShape.length];
        java.util.Arrays.fill(chunk, 1);
        chunk[0] = 1024;
        return DatasetSpec.builder(RECORD, shape).maxShape(maxShape).chunkShape(chunk).build();
    }

    /** {@code count} records from {@code first}: each word is its record number times 8 plus its place. */
    private static byte[] recordBytes(long first, int count) {
        ByteBuffer bytes = ByteBuffer.allocate(count * RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (long r = first; r < first + count; r++) {
            for (int w = 0; w < 8; w++) {
                bytes.putLong(r * 8 + w + 1);
            }
        }
        return bytes.array();
    }

    private static void append(Hdf5File file, Dataset d, int count) throws IOException {
        long n = d.shape()[0];
        d.extend(n + count);
        d.write(new long[] {n}, new long[] {count}, ByteBuffer.wrap(recordBytes(n, count)));
        file.flush();
    }

    private static int flags(Path file) throws IOException {
        return Files.readAllBytes(file)[FLAGS_OFFSET];
    }

    private static long endOfFile(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file), END_OF_FILE_OFFSET, 8)
                .order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    @Test
    void superblockSaysSwmrWritingUntilCloseAndItsEndOfFileIsTrueAtEveryFlush()
            throws IOException {
        Path path = dir.resolve("flags.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
            file.flush();
            assertEquals(0x01, flags(path), "open for writing");
            assertTrue(!file.isSwmrWriting());
            file.startSwmrWrite();
            assertTrue(file.isSwmrWriting());
            assertEquals(0x05, flags(path), "open for writing and for SWMR writing");
            for (int batch = 1; batch <= 40; batch++) {
                append(file, d, batch * 7);
                assertEquals(Files.size(path), endOfFile(path), "end of file after flush "
                        + batch);
                assertEquals(0x05, flags(path));
            }
            IllegalStateException twice = assertThrows(IllegalStateException.class,
                    file::startSwmrWrite);
            assertTrue(twice.getMessage().contains(path.toString()), twice.getMessage());
        }
        assertEquals(0x00, flags(path), "close clears the flags");
        assertEquals(Files.size(path), endOfFile(path));
        try (Hdf5File read = Hdf5File.open(path)) {
            Dataset d = read.root().dataset("d");
            assertEquals(7L * 40 * 41 / 2, d.shape()[0]);
            assertEquals(ByteBuffer.wrap(recordBytes(0, (int) d.shape()[0])),
                    d.read(new long[] {0}, d.shape()));
            assertThrows(IllegalStateException.class, read::startSwmrWrite);
        }
    }

    @Test
    @StartsOutsideProgram
    void libhdf5RefusesPlainReadersWhileSwmrWritingAndLetsSwmrReadersIn() throws IOException {
        ExternalTools.requireH5py();
        Path path = dir.resolve("readers.h5");
        String script = String.join("\n",
                "import sys, h5py",
                "try:",
                "    with h5py.File(sys.argv[1], 'r') as f:",
                "        print('plain', f['d'].shape[0])",
                "except OSError as e:",
                "    print('plain refused:', str(e).splitlines()[0])",
                "with h5py.File(sys.argv[1], 'r', libver='latest', swmr=True) as f:",
                "    d = f['d']",
                "    print('swmr', d.shape[0], int(d[-1]['sum']))");
        List<String> command = List.of(ExternalTools.PYTHON.toString(), "-c", script,
                path.toString());
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
            file.startSwmrWrite();
            append(file, d, 300);
            ExternalTools.Result during = ExternalTools.run(command, 60);
            assertEquals(0, during.exitCode(), during.output());
            List<String> lines = during.stdout().lines().toList();
            assertTrue(lines.get(0).startsWith("plain refused:")
                    && lines.get(0).contains("already open for write"), during.output());
            assertEquals("swmr 300 " + (299 * 8 + 8), lines.get(1), during.output());
        }
        ExternalTools.Result after = ExternalTools.run(command, 60);
        assertEquals(List.of("plain 300", "swmr 300 " + (299 * 8 + 8)),
                after.stdout().lines().toList(), after.output());
    }

    /**
     * libhdf5 does not see Quire's locks: h5py's 'w' truncates a file an SWMR writer has open
     * (its own flock fails only after the truncation). The writer's next flush, and its close,
     * fail naming what happened instead of writing blocks over the hole; close still releases
     * the file.
     */
    @Test
    @StartsOutsideProgram
    void aFileTruncatedUnderTheWriterFailsItsNextFlushAndClose() throws IOException {
        ExternalTools.requireH5py();
        Path path = dir.resolve("truncated.h5");
        Hdf5File file = Hdf5File.create(path);
        Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
        file.startSwmrWrite();
        append(file, d, 300);
        ExternalTools.Result h5py = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n",
                        "import sys, h5py",
                        "try:",
                        "    h5py.File(sys.argv[1], 'w').close()",
                        "    print('created')",
                        "except OSError as e:",
                        "    print('refused', str(e).splitlines()[0])"), path.toString()), 60);
        assertEquals(0, h5py.exitCode(), h5py.output());
        long left = Files.size(path);
        assertTrue(left < 1000, "h5py truncated the file: " + left + " bytes; " + h5py.output());
        d.extend(310);
        d.write(new long[] {300}, new long[] {10}, ByteBuffer.wrap(recordBytes(300, 10)));
        long beforeFlush = Files.size(path);
        FileCutShortException flush = assertThrows(FileCutShortException.class, file::flush);
        assertTrue(flush.getMessage().startsWith(path + ": the file was cut to " + beforeFlush
                + " bytes while this writer had it open, short of the "), flush.getMessage());
        assertEquals(beforeFlush, Files.size(path), "the flush wrote nothing");
        assertThrows(FileCutShortException.class, file::close);
        try (Hdf5File again = Hdf5File.create(path, org.quire.format.storage.CreateMode.REPLACE)) {
            assertTrue(again.isWritable(), "the writer released the file");
        }
    }

    @Test
    void creatingObjectsOrAttributesWhileSwmrWritingIsRefusedAndChangesNothing()
            throws IOException {
        Path path = dir.resolve("refused.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group group = file.root().createGroup("g");
            Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
            file.startSwmrWrite();
            append(file, d, 5);
            byte[] before = Files.readAllBytes(path);
            List<org.junit.jupiter.api.function.Executable> changes = List.of(
                    () -> file.root().createGroup("h"),
                    () -> group.createGroup("h"),
                    () -> file.root().createDataset("e", records(DatasetSpec.UNLIMITED)),
                    () -> file.root().createDataset("c", Datatype.INT8, new long[] {2},
                            new byte[] {1, 2}),
                    () -> file.root().createStringDataset("s", new long[] {1}, List.of("x")),
                    () -> file.root().setAttribute(Attribute.of("a", 1L)),
                    () -> d.setAttribute(Attribute.of("units", "m")));
            for (org.junit.jupiter.api.function.Executable change : changes) {
                SwmrWriteRefusedException refused = assertThrows(
                        SwmrWriteRefusedException.class, change);
                assertEquals(path, refused.file());
                assertTrue(refused.getMessage().startsWith(path + ": cannot ")
                        && refused.getMessage().contains("SWMR writing")
                        && !refused.getMessage().contains("\n"), refused.getMessage());
            }
            file.flush();
            assertArrayEquals(before, Files.readAllBytes(path), "a refused change was written");
            append(file, d, 5);
        }
        try (Hdf5File read = Hdf5File.open(path)) {
            assertEquals(List.of("d", "g"), read.root().memberNames().stream().sorted().toList());
            assertEquals(List.of(), read.root().attributes());
            assertEquals(List.of(), read.root().dataset("d").attributes());
            assertEquals(10, read.root().dataset("d").shape()[0]);
        }
    }

    /**
     * A {@code startSwmrWrite} whose flush fails before writing (a full disk) leaves the file
     * as it was, not SWMR writing, SWMR readers still locked out, and may be tried again.
     */
    @Test
    void aStartThatCouldNotFlushMayBeTriedAgain() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        org.quire.format.storage.FullDisk disk = new org.quire.format.storage.FullDisk(simulator);
        Path path = Path.of("full.h5");
        try (Hdf5File file = Hdf5File.create(path, disk, WriteOptions.DEFAULT)) {
            Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
            file.flush();
            byte[] before = simulator.files().get(path);
            disk.fillAfter(0);
            assertThrows(IOException.class, file::startSwmrWrite);
            assertTrue(!file.isSwmrWriting());
            assertArrayEquals(before, simulator.files().get(path));
            // The locks did not change either: SWMR readers are still kept out.
            String refused = assertThrows(FileLockedException.class, () -> Hdf5File.openSwmr(
                    path, simulator, SwmrReadOptions.DEFAULT)).getMessage();
            assertTrue(refused.contains("has not switched to SWMR writing"), refused);
            file.root().createGroup("still allowed");
            disk.free();
            file.startSwmrWrite();
            assertTrue(file.isSwmrWriting());
            assertEquals(0x05, simulator.files().get(path)[FLAGS_OFFSET]);
            append(file, d, 3);
            try (Hdf5File reader = Hdf5File.openSwmr(path, simulator, SwmrReadOptions.DEFAULT)) {
                assertEquals(3, reader.root().dataset("d").shape()[0]);
            }
        }
        assertEquals(0x00, simulator.files().get(path)[FLAGS_OFFSET]);
    }

    /** Forces among the simulator's events from {@code from}, as "file" or "journal". */
    private static List<String> forces(CrashSimulator disk, int from, Path file) {
        List<String> forces = new ArrayList<>();
        for (CrashSimulator.Event event : disk.events().subList(from, disk.eventCount())) {
            if (event instanceof CrashSimulator.Force force) {
                forces.add(force.path().equals(file) ? "file" : "journal");
            }
        }
        return forces;
    }

    /** Writes and truncations of the flush journal among the simulator's events from {@code from}. */
    private static long journalChanges(CrashSimulator disk, int from, Path file) {
        Path journal = Hdf5File.journalPath(file);
        return disk.events().subList(from, disk.eventCount()).stream()
                .filter(e -> e instanceof CrashSimulator.Write write && write.path().equals(journal)
                        || e instanceof CrashSimulator.Truncate truncate
                        && truncate.path().equals(journal))
                .count();
    }

    /**
     * {@code flush(Durability)} forces as it is told for that flush alone, whatever the
     * options say: {@code EVERY_FLUSH} forces the chunks, the journal and the metadata; {@code
     * NONE} and {@code ON_CLOSE} force nothing; {@code flush()} follows the options. Once SWMR
     * writing, only a forcing flush goes through the journal (docs/hdf5.md, "SWMR writing");
     * the start's flush always does.
     */
    @Test
    void eachFlushForcesAsItsDurabilitySays() throws IOException {
        for (Durability options : Durability.values()) {
            CrashSimulator disk = new CrashSimulator();
            Path path = Path.of("durability.h5");
            try (Hdf5File file = Hdf5File.create(path, disk,
                    WriteOptions.DEFAULT.withDurability(options))) {
                Dataset d = file.root().createDataset("d", records(DatasetSpec.UNLIMITED));
                int starting = disk.eventCount();
                file.startSwmrWrite();
                assertEquals(2, journalChanges(disk, starting, path), options + ": the start's"
                        + " flush is journaled (commit, then emptied)");
                for (Durability chosen : Durability.values()) {
                    d.extend(d.shape()[0] + 1);
                    d.write(new long[] {d.shape()[0] - 1}, new long[] {1},
                            ByteBuffer.wrap(recordBytes(d.shape()[0] - 1, 1)));
                    int from = disk.eventCount();
                    file.flush(chosen);
                    assertEquals(chosen == Durability.EVERY_FLUSH
                                    ? List.of("file", "journal", "file") : List.of(),
                            forces(disk, from, path), options + " options, flush(" + chosen + ")");
                    assertEquals(chosen == Durability.EVERY_FLUSH ? 2 : 0,
                            journalChanges(disk, from, path),
                            options + " options, flush(" + chosen + "): journal writes");
                }
                d.extend(d.shape()[0] + 1);
                int from = disk.eventCount();
                file.flush();
                assertEquals(options == Durability.EVERY_FLUSH
                        ? List.of("file", "journal", "file") : List.of(),
                        forces(disk, from, path), options + " options, flush()");
            }
        }
    }

    /** A write of the data file, classified by the signature its bytes start with. */
    private record Written(String kind, long position, int length) {
    }

    /** The writes to {@code file} among {@code events}, from {@code from}, classified. */
    private static List<Written> writes(List<CrashSimulator.Event> events, int from, Path file) {
        List<Written> writes = new ArrayList<>();
        for (CrashSimulator.Event event : events.subList(from, events.size())) {
            if (event instanceof CrashSimulator.Write write && write.path().equals(file)) {
                String signature = write.bytes().length < 4 ? "" : new String(write.bytes(), 0, 4,
                        StandardCharsets.ISO_8859_1);
                String kind = write.bytes().length == 1 && write.bytes()[0] == 0 ? "file end"
                        : switch (signature) {
                    case "\u0089HDF" -> "superblock";
                    case "OHDR" -> "object header";
                    case "EAHD", "FAHD", "BTHD" -> "index header";
                    case "EAIB", "EASB", "EADB", "FADB", "BTLF", "BTIN" -> "index block";
                    default -> "data";
                    };
                writes.add(new Written(kind, write.position(), write.bytes().length));
            }
        }
        return writes;
    }

    /**
     * The kinds of {@code writes} in order, runs of one kind as one, without the zero bytes
     * that extend the file over space allocated for a new chunk or index block.
     */
    private static List<String> kinds(List<Written> writes) {
        List<String> kinds = new ArrayList<>();
        for (Written write : writes) {
            boolean repeated = !kinds.isEmpty() && kinds.get(kinds.size() - 1).equals(write.kind());
            if (!repeated && !write.kind().equals("file end")) {
                kinds.add(write.kind());
            }
        }
        return kinds;
    }

    private static int bytes(List<Written> writes, String kind) {
        return writes.stream().filter(w -> w.kind().equals(kind)).mapToInt(Written::length).sum();
    }

    /**
     * One record appended to a partly filled chunk writes its 64 bytes, then the object header
     * (the superblock is unchanged: the chunk's space was allocated when it was started); a
     * record that starts a chunk writes its 64 bytes (and a zero byte at the
     * end of the new chunk and of a new index block, extending the file), then the index blocks, the index header (not the fixed array's: it holds
     * no counts), the object header, the superblock: each metadata block in one write, in that
     * order, for each index.
     */
    @Test
    void anSwmrFlushWritesTheAppendedBytesThenIndexBlocksIndexHeaderObjectHeaderSuperblock()
            throws IOException {
        /** {@code headerCounts}: the index header holds statistics a new chunk changes. */
        record Index(String name, long[] maxShape, boolean headerCounts) {
        }
        for (Index index : List.of(
                new Index("extensible array", new long[] {DatasetSpec.UNLIMITED}, true),
                new Index("fixed array", new long[] {1L << 20}, false),
                new Index("v2 B-tree", new long[] {DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED},
                        true))) {
            CrashSimulator disk = new CrashSimulator();
            Path path = Path.of(index.name().replace(' ', '-') + ".h5");
            try (Hdf5File file = Hdf5File.create(path, disk,
                    WriteOptions.DEFAULT.withDurability(Durability.NONE))) {
                long[] shape = new long[index.maxShape().length];
                java.util.Arrays.fill(shape, 1);
                shape[0] = 0;
                Dataset d = file.root().createDataset("d", DatasetSpec.builder(RECORD, shape)
                        .maxShape(index.maxShape()).chunkShape(records(index.maxShape())
                                .chunkShape()).build());
                file.startSwmrWrite();
                int headerSize = -1;
                for (int r = 0; r < 2 * 1024 + 3; r++) {
                    int from = disk.eventCount();
                    long[] grown = d.shape().clone();
                    grown[0]++;
                    d.extend(grown);
                    long[] start = new long[grown.length];
                    start[0] = r;
                    long[] count = new long[grown.length];
                    java.util.Arrays.fill(count, 1);
                    d.write(start, count, ByteBuffer.wrap(recordBytes(r, 1)));
                    file.flush();
                    List<Written> writes = writes(disk.events(), from, path);
                    String where = index.name() + ", record " + r + ": " + writes;
                    boolean newChunk = r % 1024 == 0;
                    List<String> expected = !newChunk
                            ? List.of("data", "object header")
                            : index.headerCounts()
                            ? List.of("data", "index block", "index header", "object header",
                                    "superblock")
                            : List.of("data", "index block", "object header", "superblock");
                    assertEquals(expected, kinds(writes), where);
                    assertEquals(RECORD_BYTES, bytes(writes, "data"), where);
                    assertTrue(bytes(writes, "file end") <= (newChunk ? 2 : 0), where);
                    assertEquals(1, writes.stream().filter(w -> w.kind().equals("object header"))
                            .count(), where);
                    assertEquals(newChunk ? 48 : 0, bytes(writes, "superblock"), where);
                    if (headerSize < 0) {
                        headerSize = bytes(writes, "object header");
                    }
                    assertEquals(headerSize, bytes(writes, "object header"), where);
                }
            }
            try (Hdf5File read = Hdf5File.open(path, disk)) {
                Dataset d = read.root().dataset("d");
                assertEquals(2 * 1024 + 3, d.shape()[0]);
                assertEquals(ByteBuffer.wrap(recordBytes(0, 2 * 1024 + 3)),
                        d.read(new long[d.shape().length], d.shape()), index.name());
            }
        }
    }
}
