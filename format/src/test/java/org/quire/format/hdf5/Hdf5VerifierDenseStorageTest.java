package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.JenkinsLookup3;

/**
 * {@link Hdf5Verifier} on the file of {@code make_h5py_dense_fixtures.py} (libhdf5 through
 * h5py): dense links and attributes (fractal heaps with indirect blocks, name and creation
 * order B-trees, a huge object) and contiguous and compact datasets. The intact file verifies
 * with the counts libhdf5 and the generator's manifest give, each heap block and index node
 * checked once; a flipped bit in any heap block or dense index node is a checksum mismatch
 * naming the block.
 */
class Hdf5VerifierDenseStorageTest {

    @TempDir
    static Path dir;
    private static Path intact;
    private static byte[] bytes;
    private static H5pyFixtures fixtures;

    @BeforeAll
    static void readFixtures() throws IOException {
        fixtures = H5pyFixtures.of(H5pyFixtures.DENSE);
        intact = fixtures.file("dense.h5");
        bytes = Files.readAllBytes(intact);
    }

    @Test
    @StartsOutsideProgram
    void theDenseFileVerifiesWithTheObjectsLibhdf5CountsAndEveryDenseMessage()
            throws IOException {
        String count = String.join("\n",
                "import h5py, sys",
                "totals = [1, 0, 0]",
                "def visit(name, obj):",
                "    totals[0 if isinstance(obj, h5py.Group) else 1] += 1",
                "    totals[2] += len(obj.attrs)",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    totals[2] += len(f.attrs)",
                "    f.visititems(visit)",
                "print(*totals)");
        ExternalTools.requireH5py();
        ExternalTools.Result counted = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", count, intact.toString()), 120);
        assertEquals(0, counted.exitCode(), counted.output());

        VerificationReport report = Hdf5Verifier.verify(intact);
        assertEquals(counted.stdout().strip(), report.groups() + " " + report.datasets() + " "
                + report.attributes(), "groups, datasets, attributes: libhdf5 vs Quire");
        assertEquals(1, report.linksNotFollowed(), "the soft link of /twenty");
        long denseMessages = 0;
        long contiguousBytes = 0;
        for (String[] record : fixtures.manifest()) {
            if (record[0].equals("G") && record[2].equals("dense")) {
                denseMessages += record[3].split("/").length;
            } else if (record[0].equals("A")) {
                denseMessages += record[2].split("/").length;
            } else if (record[0].equals("D")) {
                contiguousBytes += Files.size(fixtures.file(record[6]));
            }
        }
        assertEquals(1000 + 20 + 10 + 12 + 9 + 10 + 31 + 12, denseMessages);
        assertEquals(denseMessages, report.denseMessages());
        assertEquals(contiguousBytes, report.contiguousBytes());
        assertEquals(0, report.chunks());
        // Every heap block and index node of the file is checked, each once.
        Map<String, Long> blocks = report.metadataBlocks();
        for (Map.Entry<String, String> kind : H5pyFixtures.DENSE_BLOCKS.entrySet()) {
            long inFile = signatures(kind.getKey());
            assertTrue(inFile > 0, kind.getKey());
            assertEquals(inFile, blocks.get(kind.getValue()), kind.getValue() + ": " + blocks);
        }
    }

    /** Every heap block and index node of the file, each flipped in turn, is found. */
    @Test
    void aFlippedBitInAnyHeapBlockOrDenseIndexNodeIsAChecksumMismatchNamingIt()
            throws IOException {
        Path file = dir.resolve("flipped.h5");
        Map<String, Integer> found = new LinkedHashMap<>();
        for (int at = 0; at + 4 <= bytes.length; at++) {
            String kind = H5pyFixtures.DENSE_BLOCKS.get(new String(bytes, at, 4, StandardCharsets.ISO_8859_1));
            if (kind == null) {
                continue;
            }
            byte[] damaged = bytes.clone();
            damaged[at + 12] ^= 0x10;
            Files.write(file, damaged);
            int block = at;
            ChecksumMismatchException e = Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(20), () -> assertThrows(ChecksumMismatchException.class,
                            () -> Hdf5Verifier.verify(file), kind + " at " + block));
            assertEquals(kind, e.structure(), "block at " + at);
            assertTrue(e.offset() > at, e.getMessage());
            assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
            found.merge(kind, 1, Integer::sum);
        }
        Map<String, Integer> expected = new LinkedHashMap<>();
        for (Map.Entry<String, String> kind : H5pyFixtures.DENSE_BLOCKS.entrySet()) {
            expected.put(kind.getValue(), (int) signatures(kind.getKey()));
        }
        assertEquals(expected, found);
    }

    @Test
    void aContiguousBlockBeyondTheEndOfFileAddressIsCorrupt() throws IOException {
        long block;
        try (Hdf5File file = Hdf5File.open(intact)) {
            block = file.root().group("contiguous").dataset("ints_1d").contiguousData().address();
        }
        // The superblock's end-of-file address (offset 28) now ends inside that block; the
        // file keeps its length, so only the verifier's check against the address finds it.
        byte[] damaged = bytes.clone();
        ByteBuffer superblock = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
        superblock.putLong(28, block + 100);
        superblock.putInt(44, JenkinsLookup3.checksum(damaged, 0, 44));
        Path file = dir.resolve("short-end-address.h5");
        Files.write(file, damaged);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertTrue(e.structure().startsWith("contiguous data of /"), e.getMessage());
        assertTrue(e.expected().contains("end of file address " + (block + 100)),
                e.getMessage());
    }

    private static long signatures(String signature) {
        byte[] pattern = signature.getBytes(StandardCharsets.US_ASCII);
        long count = 0;
        for (int at = 0; at + 4 <= bytes.length; at++) {
            if (bytes[at] == pattern[0] && bytes[at + 1] == pattern[1]
                    && bytes[at + 2] == pattern[2] && bytes[at + 3] == pattern[3]) {
                count++;
            }
        }
        return count;
    }
}
