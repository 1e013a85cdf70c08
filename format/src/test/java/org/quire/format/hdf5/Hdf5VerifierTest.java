package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
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
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecordFormat;
import org.quire.format.hdf5.layout.ExtensibleArrayDataBlock;
import org.quire.format.hdf5.layout.ExtensibleArrayGeometry;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * {@link Hdf5Verifier} on a file with every index type, and on copies of it damaged in each
 * kind of structure: the report counts what was written, and each damage is the typed
 * exception naming the structure.
 */
class Hdf5VerifierTest {

    @TempDir
    static Path dir;
    private static Path intact;
    private static byte[] bytes;

    /** Chunks written per dataset of {@link #writeIntactFile()}. */
    private static final long[] FIXED_PAGED_CHUNKS = {0, 1023, 2048, 4999};
    private static final long[] EXTENSIBLE_CHUNKS = {0, 10, 300, 200_000};
    /** 15 x 15 chunks of one element: several B-tree leaves (84 records each) and their parent. */
    private static final int BTREE_SIDE = 15;
    /** Chunks of the skip list dataset: three full supernodes of 64 and part of a fourth. */
    private static final int SKIP_LIST_CHUNKS = 64 * 3 + 5;

    @BeforeAll
    static void writeIntactFile() throws IOException {
        intact = dir.resolve("intact.h5");
        write(intact, true);
        bytes = Files.readAllBytes(intact);
    }

    /** The file of this test; with {@code close} false, flushed but never closed. */
    static Hdf5File write(Path path, boolean close) throws IOException {
        Hdf5File file = Hdf5File.create(path);
        Group group = file.root().createGroup("g");
        group.setAttribute(Attribute.of("units", "K"));
        group.setAttribute(Attribute.of("steps", 1, 2, 3));
        Dataset paged = group.createDataset("fixed_paged",
                DatasetSpec.builder(Datatype.INT8, 5000).chunkShape(1).build());
        for (long chunk : FIXED_PAGED_CHUNKS) {
            paged.write(new long[] {chunk}, new long[] {1}, new byte[] {(byte) chunk});
        }
        Dataset extensible = file.root().createDataset("extensible",
                DatasetSpec.builder(Datatype.FLOAT64, 0).maxShape(DatasetSpec.UNLIMITED)
                        .chunkShape(1).build());
        extensible.extend(250_000); // chunk 200,000 is in a paged data block
        for (long chunk : EXTENSIBLE_CHUNKS) {
            extensible.write(new long[] {chunk}, new long[] {1}, new double[] {chunk / 4.0});
        }
        Dataset fletcher = file.root().createDataset("fletcher",
                DatasetSpec.builder(Datatype.INT32, 100).chunkShape(10)
                        .filter(Filter.shuffle()).filter(Filter.fletcher32()).build());
        int[] values = new int[100];
        Arrays.setAll(values, i -> i * 7);
        fletcher.write(new long[] {0}, new long[] {100}, values);
        Dataset single = file.root().createDataset("single",
                DatasetSpec.builder(Datatype.INT16, 3, 2).chunkShape(3, 2).build());
        single.write(new long[] {0, 0}, new long[] {3, 2}, new short[] {1, 2, 3, 4, 5, 6});
        single.setAttribute(Attribute.of("scale", 0.5));
        Dataset btree = file.root().createDataset("btree",
                DatasetSpec.builder(Datatype.INT8, 0, 0)
                        .maxShape(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED)
                        .chunkShape(1, 1).build());
        btree.extend(BTREE_SIDE, BTREE_SIDE);
        byte[] cells = new byte[BTREE_SIDE * BTREE_SIDE];
        Arrays.fill(cells, (byte) 1);
        btree.write(new long[] {0, 0}, new long[] {BTREE_SIDE, BTREE_SIDE}, cells);
        Dataset skipList = file.root().createDataset("skip_list",
                DatasetSpec.builder(Datatype.INT32, 0).maxShape(DatasetSpec.UNLIMITED)
                        .chunkShape(2).quireOnlySkipListIndex().build());
        skipList.extend(2 * SKIP_LIST_CHUNKS);
        int[] appended = new int[2 * SKIP_LIST_CHUNKS];
        Arrays.setAll(appended, i -> i + 1);
        skipList.write(new long[] {0}, new long[] {appended.length}, appended);
        if (close) {
            file.close();
        } else {
            file.flush();
        }
        return file;
    }

    @Test
    void aValidFileIsReportedWithWhatWasChecked() throws IOException {
        VerificationReport report = Hdf5Verifier.verify(intact);
        assertEquals(2, report.groups());
        assertEquals(6, report.datasets());
        assertEquals(3, report.attributes());
        assertEquals(0, report.linksNotFollowed());
        assertEquals(FIXED_PAGED_CHUNKS.length + EXTENSIBLE_CHUNKS.length + 10 + 1
                + BTREE_SIDE * BTREE_SIDE + SKIP_LIST_CHUNKS, report.chunks());
        Map<String, Long> blocks = report.metadataBlocks();
        assertEquals(1L, blocks.get("superblock"));
        assertEquals(8L, blocks.get("object header"), blocks.toString());
        // The skip list's configuration and tail, its four supernodes and the ghost, once each.
        assertEquals(1L, blocks.get("skip list configuration"));
        assertEquals(1L, blocks.get("skip list tail"));
        assertEquals(4L + 1, blocks.get("skip list supernode"), blocks.toString());
        // Pages 0, 2 and 4 of five were written; each is read once, the others never.
        assertEquals(3L, blocks.get("fixed array data block page"), blocks.toString());
        // fixed_paged and fletcher have fixed arrays.
        assertEquals(2L, blocks.get("fixed array header"));
        assertEquals(2L, blocks.get("fixed array data block"));
        assertEquals(1L, blocks.get("extensible array header"));
        assertEquals(1L, blocks.get("extensible array index block"));
        assertEquals(1L, blocks.get("extensible array data block page"), blocks.toString());
        assertTrue(blocks.get("extensible array super block") >= 1, blocks.toString());
        // Every node of the B-tree once (each node has its slot, so one signature per node).
        assertEquals(1L, blocks.get("version 2 B-tree header"));
        assertEquals(signatures("BTIN"), blocks.get("version 2 B-tree internal node"));
        assertEquals(signatures("BTLF"), blocks.get("version 2 B-tree leaf node"));
        assertTrue(signatures("BTLF") >= 2, blocks.toString());
        assertEquals(report.metadataBlockCount(),
                blocks.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void aHugeSparseDatasetIsWalkedByWhatWasWritten() throws IOException {
        Path path = dir.resolve("sparse.h5");
        InteropCorpus.write(path, List.of(), InteropCorpus.sparseCases(), List.of());
        VerificationReport report = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> Hdf5Verifier.verify(path));
        // huge_fixed: chunks of 1000 x 1000; rows 0..2 and 999,998..999,999 of 1000 columns.
        // huge_extensible: chunks of 1000; elements 0..1499 and 999,999,000..999,999,999.
        // huge_btree: chunks of 1000 x 1000; (0..1, 0..1499), (999,999,999, 999,998,500..+1499).
        assertEquals(1 + 1 + 2 + 1 + 2 + 2, report.chunks());
        assertEquals(3, report.datasets());
    }

    @Test
    @StartsOutsideProgram
    void everyObjectIsCheckedOnceThroughCyclesAndSecondLinks() throws IOException {
        ExternalTools.requireH5py();
        Path path = dir.resolve("links.h5");
        ExternalTools.Result written = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(), "-c",
                "import h5py, numpy\n"
                        + "with h5py.File('" + path + "', 'w', libver='latest') as f:\n"
                        + "    g = f.create_group('g')\n"
                        + "    g.create_dataset('d', data=numpy.arange(10), chunks=(4,))\n"
                        + "    g['up'] = f\n"                      // a hard link back to the root
                        + "    f['alias'] = g['d']\n"              // a second hard link to d
                        + "    f['soft'] = h5py.SoftLink('/g/d')\n"), 60);
        assertEquals(0, written.exitCode(), written.output());
        VerificationReport report = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> Hdf5Verifier.verify(path));
        assertEquals(2, report.groups());
        assertEquals(1, report.datasets());
        assertEquals(1, report.linksNotFollowed());
        assertEquals(3, report.chunks());
        assertEquals(3L, report.metadataBlocks().get("object header"));
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertEquals(file.root().address(), g.get("up").address());
            assertEquals(g.get("d").address(), file.root().get("alias").address());
            assertTrue(g.address() != file.root().address());
        }
    }

    /**
     * The verifier finds exactly the chunks libhdf5 counts ({@code get_num_chunks}) in every
     * dataset of the interop corpus, the huge sparse datasets and the files h5py writes.
     */
    @Test
    @StartsOutsideProgram
    void theChunksFoundAreTheOnesLibhdf5Counts() throws IOException {
        ExternalTools.requireH5py();
        Path corpus = dir.resolve("corpus.h5");
        InteropCorpus.write(corpus, InteropCorpus.groups(), InteropCorpus.cases(),
                InteropCorpus.attributes());
        Path sparse = dir.resolve("sparse-count.h5");
        InteropCorpus.write(sparse, List.of(), InteropCorpus.sparseCases(), List.of());
        String count = String.join("\n",
                "import h5py, sys",
                "totals = [0, 0]",
                "def visit(name, obj):",
                "    if isinstance(obj, h5py.Dataset):",
                "        totals[0] += 1",
                "        totals[1] += obj.id.get_num_chunks()",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    f.visititems(visit)",
                "print(totals[0], totals[1])");
        for (Path file : List.of(corpus, sparse, H5pyFixtures.of(H5pyFixtures.CHUNKED).file("h5py.h5"))) {
            ExternalTools.Result counted = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                    "-c", count, file.toString()), 120);
            assertEquals(0, counted.exitCode(), counted.output());
            VerificationReport report = Hdf5Verifier.verify(file);
            assertTrue(report.chunks() > 0, file.toString());
            assertEquals(counted.stdout().strip(), report.datasets() + " " + report.chunks(),
                    file.getFileName() + ": datasets and chunks, libhdf5 vs Quire");
        }
    }

    private static Path copyWith(String name, byte[] content) throws IOException {
        Path copy = dir.resolve(name);
        Files.write(copy, content);
        return copy;
    }

    private static ChecksumMismatchException flipAndVerify(String name, long at)
            throws IOException {
        byte[] damaged = bytes.clone();
        damaged[(int) at] ^= 0x10;
        Path file = copyWith(name, damaged);
        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                () -> Hdf5Verifier.verify(file), "flipped bit at " + at);
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        return e;
    }

    @Test
    void aFlippedBitInEverySignedBlockIsFoundAndNamed() throws IOException {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("OHDR", "object header");
        kinds.put("FAHD", "fixed array header");
        kinds.put("FADB", "fixed array data block");
        kinds.put("EAHD", "extensible array header");
        kinds.put("EAIB", "extensible array index block");
        kinds.put("EASB", "extensible array super block");
        kinds.put("EADB", "extensible array data block");
        kinds.put("BTHD", "version 2 B-tree header");
        kinds.put("BTIN", "version 2 B-tree internal node");
        kinds.put("BTLF", "version 2 B-tree leaf node");
        kinds.put("QSLC", "skip list configuration");
        kinds.put("QSLT", "skip list tail");
        kinds.put("QSLN", "skip list supernode");
        Map<String, Integer> found = new LinkedHashMap<>();
        for (int at = 0; at + 4 <= bytes.length; at++) {
            String signature = new String(bytes, at, 4, StandardCharsets.ISO_8859_1);
            if (kinds.containsKey(signature)) {
                ChecksumMismatchException e = flipAndVerify("flip-" + at + ".h5", at + 12);
                assertEquals(kinds.get(signature), e.structure(), "block at " + at);
                assertTrue(e.offset() > at, e.getMessage());
                found.merge(signature, 1, Integer::sum);
            }
        }
        assertEquals(kinds.keySet(), found.keySet(), "blocks found: " + found);
    }

    @Test
    void aFlippedBitInTheSuperblockIsFound() throws IOException {
        ChecksumMismatchException e = flipAndVerify("superblock.h5", 20);
        assertEquals("superblock", e.structure());
        assertEquals(44, e.offset());
    }

    @Test
    void aFlippedBitInAFixedArrayPageIsFoundAlthoughNoReadTouchesIt() throws IOException {
        long page2 = fixedArrayPageAddress(2);
        ChecksumMismatchException e = flipAndVerify("fixed-page.h5", page2 + 3);
        assertEquals("fixed array data block page", e.structure());
        assertEquals(page2 + 8 * 1024, e.offset(), e.getMessage());
    }

    @Test
    void aFlippedBitInAnExtensibleArrayPageIsFound() throws IOException {
        long page = extensibleArrayPageAddress(EXTENSIBLE_CHUNKS[3]);
        ChecksumMismatchException e = flipAndVerify("extensible-page.h5", page + 5);
        assertEquals("extensible array data block page", e.structure());
    }

    @Test
    void aFlippedBitInAFletcherChunkNamesTheChunkAndTheChecksum() throws IOException {
        long chunkAddress;
        try (Hdf5File file = Hdf5File.open(intact)) {
            Dataset fletcher = file.root().dataset("fletcher");
            long[] found = new long[1];
            fletcher.forEachStoredChunk((coordinates, record) -> {
                if (coordinates[0] == 3) {
                    found[0] = record.address();
                }
            });
            chunkAddress = found[0];
        }
        byte[] damaged = bytes.clone();
        damaged[(int) chunkAddress + 2] ^= 0x01;
        Path file = copyWith("fletcher.h5", damaged);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("chunk [3]", e.structure());
        assertEquals("/fletcher", e.object());
        assertEquals(chunkAddress, e.offset());
        assertTrue(e.found().contains("Fletcher-32 checksum"), e.getMessage());
        // The failure as the chunk read reported it stays attached.
        CorruptFileException read = assertInstanceOf(CorruptFileException.class, e.getCause());
        assertEquals("chunk [3]", read.structure());
        assertEquals(e.found(), read.found());
    }

    @Test
    void everyTruncationIsCorruptAndFoundQuickly() throws IOException {
        Truncations.assertEveryCutIsCorrupt(bytes, 150, dir, Hdf5Verifier::verify);
    }

    @Test
    void aFileWhoseWriterNeverClosedIsReportedAsOpenForWriting() throws IOException {
        Path path = dir.resolve("unclosed.h5");
        try (Hdf5File writer = write(path, false)) {
            FileOpenForWritingException e = assertThrows(FileOpenForWritingException.class,
                    () -> Hdf5Verifier.verify(path));
            assertTrue(e.getMessage().contains("open for writing"), e.getMessage());
        }
        assertEquals(6, Hdf5Verifier.verify(path).datasets());
    }

    // ---- where the unsigned blocks (pages) of the intact file are

    private static int indexOf(String signature, boolean last) {
        byte[] pattern = signature.getBytes(StandardCharsets.US_ASCII);
        int found = -1;
        for (int at = 0; at + 4 <= bytes.length; at++) {
            if (Arrays.equals(bytes, at, at + 4, pattern, 0, 4)) {
                found = at;
                if (!last) {
                    break;
                }
            }
        }
        assertTrue(found >= 0, signature + " not found");
        return found;
    }

    private static long signatures(String signature) {
        byte[] pattern = signature.getBytes(StandardCharsets.US_ASCII);
        long count = 0;
        for (int at = 0; at + 4 <= bytes.length; at++) {
            if (Arrays.equals(bytes, at, at + 4, pattern, 0, 4)) {
                count++;
            }
        }
        return count;
    }

    private static long fixedArrayPageAddress(int page) throws IOException {
        try (BlockFile blocks = new BlockFile(FileStorage.open(intact, OpenMode.READ))) {
            FixedArrayHeader header = FixedArrayHeader.read(blocks, indexOf("FAHD", false));
            return new FixedArrayDataBlock(header).pageAddress(page);
        }
    }

    /** The page holding chunk {@code chunk}, in the last data block written. */
    private static long extensibleArrayPageAddress(long chunk) {
        ExtensibleArrayGeometry geometry =
                new ExtensibleArrayGeometry(ChunkIndexParameters.ExtensibleArray.DEFAULT);
        ExtensibleArrayGeometry.Location at = geometry.locate(chunk);
        ExtensibleArrayDataBlock block = new ExtensibleArrayDataBlock(geometry,
                ChunkRecordFormat.unfiltered(), at.superBlock());
        assertTrue(block.isPaged());
        return block.pageAddress(indexOf("EADB", true), at.element() / geometry.pageElements());
    }
}
