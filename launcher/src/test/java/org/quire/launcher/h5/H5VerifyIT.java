package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;
import org.quire.launcher.QuireCommand;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@code quire h5 verify}, run as a real process: valid files (Quire's and h5py's) are status 0
 * with what was checked; a flipped bit in each kind of block, a truncated file and a file whose
 * writer never closed it are status 1 with one line naming file, offset, structure, field,
 * expected and found.
 */
class H5VerifyIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String HEX = "0x[0-9a-f]{8}";

    @TempDir
    static Path dir;
    private static Path file;
    private static byte[] bytes;

    @BeforeAll
    static void writeFile() throws Exception {
        file = dir.resolve("fixtures.h5");
        H5Fixtures.write(file);
        bytes = Files.readAllBytes(file);
    }

    @Test
    void aValidFileIsStatus0WithWhatWasChecked() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", file.toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr());
        List<String> lines = result.stdoutLines();
        assertEquals(5, lines.size(), result.toString());
        assertEquals(file + ": valid", lines.get(0));
        assertEquals("  objects:         2 groups, 7 datasets, 4 attributes", lines.get(1));
        // Nine objects (the root's header needed a continuation block), seven datasets: five fixed
        // arrays (the 10^6-chunk one of /sparse has one page written) and one extensible array.
        assertEquals("  metadata blocks: 25 checksums verified (extensible array data block 1, extensible array"
                + " header 1, extensible array index block 1, fixed array data block 5, fixed array data block"
                + " page 1, fixed array header 5, object header 9, object header continuation block 1,"
                + " superblock 1)", lines.get(2));
        // The two text attributes are variable-length strings, sharing a global heap collection.
        assertEquals("  no checksum:     1 blocks without checksum checked (global heap collection 1)",
                lines.get(3));
        // 3 + 4 + 12 + 20 + 1 + 2 + 1 chunks (ints1d, floats2d, cube, log, names, records, sparse).
        assertTrue(lines.get(4).matches("  chunks:          43 stored chunks, \\d+ bytes, read through their"
                + " filters"), lines.get(4));
    }

    @Test
    void aFileH5pyWroteIsValidWithItsDenseStorageAndAFlippedBitInAnyHeapBlockOrBTreeNodeIsFound()
            throws Exception {
        H5pyFixture h5py = H5pyFixture.write(dir);
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", h5py.file().toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        assertEquals(6, lines.size(), result.toString());
        // /, /g, /many and its 10 subgroups; 2 attributes, and 10 of /many.
        assertEquals("  objects:         13 groups, 10 datasets, 12 attributes", lines.get(1));
        // Each heap block and B-tree node once: those of /sheet's chunk index (one leaf) and of
        // /many's links and attributes (a heap with one direct block and a name index each).
        byte[] h5pyBytes = Files.readAllBytes(h5py.file());
        Map<String, String> blocks = new LinkedHashMap<>();
        blocks.put("FRHP", "fractal heap header");
        blocks.put("FHDB", "fractal heap direct block");
        blocks.put("BTHD", "version 2 B-tree header");
        blocks.put("BTLF", "version 2 B-tree leaf node");
        String checked = lines.get(2);
        List<String> counts = List.of(checked.substring(checked.indexOf('(') + 1, checked.length() - 1)
                .split(", "));
        for (Map.Entry<String, String> kind : blocks.entrySet()) {
            List<Integer> found = indexesOf(h5pyBytes, kind.getKey());
            assertEquals(kind.getKey().startsWith("BT") ? 3 : 2, found.size(), kind.getKey());
            assertTrue(counts.contains(kind.getValue() + " " + found.size()), checked);
        }
        // 18 chunks of the other datasets, 6 of /sheet, 2 x 2 of /g/early.
        assertTrue(lines.get(3).startsWith("  chunks:          28 stored chunks, "), result.toString());
        assertEquals("  dense storage:   23 links and attributes in fractal heaps, every heap block and index"
                + " node read", lines.get(4));
        // /many/plain: 3 x 4 float64, /many/scalar: one float32, /many/small: 2 x 3 int16.
        assertEquals("  contiguous data: 112 bytes of contiguous and compact datasets, sizes and places"
                + " checked", lines.get(5));

        for (Map.Entry<String, String> kind : blocks.entrySet()) {
            for (int at : indexesOf(h5pyBytes, kind.getKey())) {
                byte[] damaged = h5pyBytes.clone();
                damaged[at + 12] ^= 0x08;
                String error = verifyFails("h5py-" + kind.getKey() + "-" + at + ".h5", damaged);
                // Every failure names the object whose structure it is.
                assertTrue(error.matches("corrupt " + kind.getValue() + " of /\\S* at offset \\d+: checksum"
                        + " expected " + HEX + ", found " + HEX), error);
            }
        }
    }

    @Test
    void aFileInLibhdf5sDefaultFormatIsValidWithEveryOldBlockCheckedOnceAndADamagedOneIsFound()
            throws Exception {
        H5pyFixture h5py = H5pyFixture.writeEarliest(dir);
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", h5py.file().toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        assertEquals(6, lines.size(), result.toString());
        assertEquals("  objects:         13 groups, 10 datasets, 12 attributes", lines.get(1));
        assertEquals("  metadata blocks: 0 checksums verified", lines.get(2));
        // One local heap per group, one B-tree per group and chunked dataset (each node once),
        // /many's symbol table nodes; one header per object.
        byte[] h5pyBytes = Files.readAllBytes(h5py.file());
        int trees = indexesOf(h5pyBytes, "TREE").size();
        int nodes = indexesOf(h5pyBytes, "SNOD").size();
        assertEquals(13, indexesOf(h5pyBytes, "HEAP").size());
        assertTrue(lines.get(3).matches("  no checksum:     \\d+ blocks without checksum checked \\(local heap 13,"
                + " superblock 1, symbol table node " + nodes + ", version 1 B-tree node " + trees
                + ", version 1 object header 23, version 1 object header continuation block \\d+\\)"),
                lines.get(3));
        assertTrue(lines.get(4).startsWith("  chunks:          28 stored chunks, "), result.toString());
        assertEquals("  contiguous data: 112 bytes of contiguous and compact datasets, sizes and places"
                + " checked", lines.get(5));

        Map<String, String> blocks = Map.of("TREE", "version 1 B-tree node", "SNOD", "symbol table node",
                "HEAP", "local heap");
        for (Map.Entry<String, String> kind : blocks.entrySet()) {
            int at = indexesOf(h5pyBytes, kind.getKey()).get(1);
            byte[] damaged = h5pyBytes.clone();
            damaged[at + 2] ^= 0x08;
            String error = verifyFails("h5py-earliest-" + kind.getKey() + ".h5", damaged);
            assertTrue(error.matches("corrupt " + kind.getValue() + " of /\\S* at offset \\d+: .*"), error);
            assertEquals("corrupt " + kind.getValue() + " at offset " + at + ": signature expected \""
                    + kind.getKey() + "\", found \"" + kind.getKey().substring(0, 2)
                    + (char) (kind.getKey().charAt(2) ^ 0x08) + kind.getKey().charAt(3) + "\"",
                    error.replaceFirst(" of /\\S* at offset", " at offset"));
        }
    }

    private static String verifyFails(String name, byte[] content) throws Exception {
        Path damaged = Files.write(dir.resolve(name), content);
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", damaged.toString());
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals("", result.stdout());
        List<String> errors = result.stderr().lines().toList();
        assertEquals(1, errors.size(), result.toString());
        String prefix = "quire h5 verify: " + damaged + ": ";
        assertTrue(errors.get(0).startsWith(prefix), errors.get(0));
        return errors.get(0).substring(prefix.length());
    }

    private static byte[] flipped(long at) {
        byte[] damaged = bytes.clone();
        damaged[(int) at] ^= 0x08;
        return damaged;
    }

    private static List<Integer> indexesOf(byte[] content, String signature) {
        byte[] pattern = signature.getBytes(StandardCharsets.US_ASCII);
        List<Integer> found = new ArrayList<>();
        for (int at = 0; at + 4 <= content.length; at++) {
            if (Arrays.equals(content, at, at + 4, pattern, 0, 4)) {
                found.add(at);
            }
        }
        return found;
    }

    private static int indexOf(byte[] content, String signature) {
        byte[] pattern = signature.getBytes(StandardCharsets.US_ASCII);
        for (int at = 0; at + 4 <= content.length; at++) {
            if (Arrays.equals(content, at, at + 4, pattern, 0, 4)) {
                return at;
            }
        }
        throw new AssertionError(signature + " not in the file");
    }

    @Test
    void aFlippedBitInTheSuperblock() throws Exception {
        String error = verifyFails("superblock.h5", flipped(20));
        assertTrue(error.matches("corrupt superblock at offset 44: checksum expected " + HEX + ", found " + HEX),
                error);
    }

    @Test
    void aFlippedBitInAnObjectHeader() throws Exception {
        int header = indexOf(bytes, "OHDR");
        String error = verifyFails("object-header.h5", flipped(header + 12));
        assertTrue(error.matches("corrupt object header of / at offset \\d+: checksum expected " + HEX
                + ", found " + HEX), error);
    }

    @Test
    void aFlippedBitInAFixedArrayPageNoDumpWouldRead() throws Exception {
        long page = sparsePageZero();
        String error = verifyFails("fixed-page.h5", flipped(page + 100));
        // Page 0 holds 1,024 entries of 8 bytes; its checksum follows them.
        assertTrue(error.matches("corrupt fixed array data block page of /sparse at offset " + (page + 1024 * 8)
                + ": checksum expected " + HEX + ", found " + HEX), error);
    }

    @Test
    void aFlippedBitInAnExtensibleArrayDataBlock() throws Exception {
        String error = verifyFails("extensible-block.h5", flipped(indexOf(bytes, "EADB") + 12));
        assertTrue(error.matches("corrupt extensible array data block of /log at offset \\d+: checksum expected " + HEX
                + ", found " + HEX), error);
    }

    @Test
    void aFlippedBitInAChunkWithFletcher32NamesTheChunk() throws Exception {
        long chunk = cubeChunkZeroAddress();
        String error = verifyFails("chunk.h5", flipped(chunk + 3));
        assertTrue(error.matches("corrupt chunk \\[0, 0, 0] of /grid/cube at offset " + chunk + ": filter"
                + " Fletcher32 expected data the filter wrote, found Fletcher-32 checksum expected " + HEX
                + ", found " + HEX), error);
    }

    @Test
    void aTruncatedFile() throws Exception {
        String error = verifyFails("truncated.h5", Arrays.copyOf(bytes, bytes.length / 2));
        assertEquals("corrupt superblock at offset 28: end of file address expected at most the file size "
                + bytes.length / 2 + ", found " + bytes.length, error);
    }

    @Test
    void aFileWhoseWriterNeverClosedIt() throws Exception {
        Path open = dir.resolve("unclosed.h5");
        try (Hdf5File writer = Hdf5File.create(open)) {
            H5Fixtures.populate(writer);
            writer.flush();
            QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", open.toString());
            assertEquals(1, result.exitCode(), result.toString());
            List<String> errors = result.stderr().lines().toList();
            assertEquals(1, errors.size(), result.toString());
            assertTrue(errors.get(0).startsWith("quire h5 verify: " + open + ": file is open for writing,"
                    + " locked by another writer (writer, pid " + ProcessHandle.current().pid() + " on "),
                    errors.get(0));
        }
        assertEquals(0, QuireCommand.run(LIMIT, "h5", "verify", open.toString()).exitCode());
    }

    @Test
    void aMissingFileIsStatus2() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", dir.resolve("none.h5").toString());
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire h5 verify: " + dir.resolve("none.h5") + ": no such file",
                "see quire h5 verify --help"),
                result.stderr().lines().toList());
    }

    @Test
    void aDirectoryIsStatus2InOneLine() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", dir.toString());
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire h5 verify: " + dir + ": not a regular file", "see quire h5 verify --help"),
                result.stderr().lines().toList());
    }

    // ---- where blocks of the fixture file are, found with the format's own layout classes

    /** Where the fixed array header with {@code entries} entries is. */
    private static int fixedArrayAt(BlockFile blocks, long entries) throws IOException {
        byte[] pattern = "FAHD".getBytes(StandardCharsets.US_ASCII);
        for (int at = 0; at + 4 <= bytes.length; at++) {
            if (Arrays.equals(bytes, at, at + 4, pattern, 0, 4)
                    && FixedArrayHeader.read(blocks, at).entryCount() == entries) {
                return at;
            }
        }
        throw new AssertionError("no fixed array of " + entries + " entries");
    }

    private static long sparsePageZero() throws IOException {
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ))) {
            FixedArrayHeader header = FixedArrayHeader.read(blocks, fixedArrayAt(blocks, 1_000_000));
            return new FixedArrayDataBlock(header).pageAddress(0);
        }
    }

    /** Chunk [0, 0, 0] of /grid/cube (12 chunks of 2 x 2 x 2 int16). */
    private static long cubeChunkZeroAddress() throws IOException {
        try (BlockFile blocks = new BlockFile(FileStorage.open(file, OpenMode.READ))) {
            int at = fixedArrayAt(blocks, 12);
            FixedArrayHeader header = FixedArrayHeader.read(blocks, at);
            return new FixedArrayDataBlock(header).read(blocks, at, 16).records()[0].address();
        }
    }
}
