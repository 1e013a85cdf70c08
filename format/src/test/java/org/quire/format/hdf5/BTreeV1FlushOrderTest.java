package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.chunk.BTreeV1Indexes;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The order in which a flush writes a version-1 B-tree Quire changed: a node after the nodes and
 * chunks it points at, so the root, rewritten in place, comes last. h5py (libhdf5, istore K 2:
 * nodes of 4 children, superblock 1) writes a file holding chunk 0; Quire inserts chunks 1 to
 * 19 (the root, a leaf, splits and is moved twice: three levels) and flushes once under a
 * {@link CrashSimulator}. At every point of that flush, the file a killed process leaves must
 * hold the old tree or the new one, whole.
 */
@StartsOutsideProgram
class BTreeV1FlushOrderTest {

    private static final int K = 2;
    private static final int CHUNKS = 20;

    @TempDir
    Path dir;

    @BeforeAll
    static void oracle() {
        ExternalTools.requireH5py();
    }

    @Test
    void everyCrashPointOfAFlushLeavesTheOldTreeOrTheNew() throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < CHUNKS; i++) {
            order.add(Integer.toString(i));
        }
        Path orderFile = dir.resolve("chunks.order");
        Files.writeString(orderFile, String.join("\n", order));
        Path base = dir.resolve("base.h5");
        Path chunks = dir.resolve("chunks.hex");
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                ExternalTools.resource("btree_v1_chunks.py", dir).toString(), "write",
                dir.resolve("reference.h5").toString(), base.toString(), Integer.toString(K),
                Integer.toString(4 * CHUNKS), "4", "-", orderFile.toString(), chunks.toString()),
                300);
        assertEquals(0, made.exitCode(), made.output());
        long root;
        try (Hdf5File file = Hdf5File.open(base)) {
            root = file.root().dataset("x").chunkIndex().address();
        }

        Path name = Path.of("flushed.h5");
        CrashSimulator simulator = new CrashSimulator(Map.of(name, Files.readAllBytes(base)));
        int start;
        try (Storage storage = simulator.open(name, OpenMode.READ_WRITE)) {
            BlockFile blocks = new BlockFile(storage);
            MetadataCache cache = new MetadataCache(storage, 1 << 20, Durability.NONE);
            ChunkIndex index = BTreeV1Indexes.writable(blocks, cache, root, new long[] {4}, 4, K);
            List<String> lines = Files.readAllLines(chunks);
            for (String line : lines.subList(1, lines.size())) {
                String[] parts = line.split(" ");
                byte[] bytes = HexFormat.of().parseHex(parts[1]);
                long address = blocks.allocate(bytes.length);
                blocks.write(address, bytes);
                index.put(new long[] {Long.parseLong(parts[0])},
                        new ChunkRecord(address, bytes.length, 0));
            }
            // before the flush: superblock 1's end-of-file address (at 44) and a file that long
            // (nodes not written yet read as zeros)
            blocks.write(44, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(0, blocks.endOfAllocation()));
            blocks.write(blocks.endOfAllocation() - 1, ByteBuffer.allocate(1));
            start = simulator.eventCount();
            cache.flush();
        }
        int end = simulator.eventCount();
        String before = chunksAfter(simulator, name, start);
        String after = chunksAfter(simulator, name, end);
        assertEquals(1, before.lines().count(), before);
        assertEquals(CHUNKS, after.lines().count(), after);
        assertTrue(end - start > 5, "the flush writes the nodes: " + (end - start));
        for (int point = start + 1; point < end; point++) {
            String crashed = chunksAfter(simulator, name, point);
            assertTrue(crashed.equals(before) || crashed.equals(after),
                    "killed after " + (point - start) + " of " + (end - start)
                            + " writes of the flush: " + crashed);
        }
    }

    /**
     * The chunks (scaled offset and record, one a line) of the file a process killed after
     * {@code events} operations leaves, or why it cannot be read.
     */
    private String chunksAfter(CrashSimulator simulator, Path name, int events)
            throws IOException {
        Path image = dir.resolve("crash-" + events + ".h5");
        Files.write(image, simulator.processCrash(events).get(name));
        StringBuilder text = new StringBuilder();
        try (Hdf5File file = Hdf5File.open(image)) {
            file.root().dataset("x").chunkIndex().forEachStoredChunk((scaled, record) ->
                    text.append(Arrays.toString(scaled)).append(' ').append(record)
                            .append('\n'));
        } catch (IOException e) {
            text.append("unreadable: ").append(e.getMessage()).append('\n');
        }
        return text.toString();
    }
}
