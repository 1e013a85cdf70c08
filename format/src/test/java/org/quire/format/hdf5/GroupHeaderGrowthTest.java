package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.hdf5.GroupDeleteTest.h5py;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ContinuationMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * A group Quire grows one link at a time keeps few object header chunks (each new continuation
 * block at least as large as the header so far), each continuation message before the links
 * of its block: libhdf5's first link in such a group moves every link into dense storage,
 * paying for every chunk and every message it carries forward (docs/hdf5.md, "How object
 * headers grow").
 */
@StartsOutsideProgram
class GroupHeaderGrowthTest {

    private static final int LINKS = 2_000;
    /** log2 of 2,000 links' bytes over chunk 0's room, with slack for the first blocks. */
    private static final int MAX_CHUNKS = 12;

    @TempDir
    Path dir;

    @Test
    void aGroupGrownOneLinkAtATimeHasLogarithmicallyManyChunks() throws IOException {
        Path path = dir.resolve("grown.h5");
        long address;
        try (Hdf5File file = Hdf5File.create(path)) {
            Group g = file.root().createGroup("g");
            address = g.address();
            for (int i = 0; i < LINKS; i++) {
                g.createGroup(name(i));
            }
        }
        int chunks = chunkCount(path, address);
        assertTrue(chunks <= MAX_CHUNKS, chunks + " chunks");
        assertEquals(chunks, h5debugChunkCount(path, address), "h5debug agrees");
        readAndExtendElsewhere(path);
    }

    @Test
    void aGroupGrownAcrossReopeningsHasLogarithmicallyManyChunks() throws IOException {
        Path path = dir.resolve("reopened.h5");
        long address;
        try (Hdf5File file = Hdf5File.create(path)) {
            address = file.root().createGroup("g").address();
        }
        int sessions = 5;
        for (int s = 0; s < sessions; s++) {
            try (Hdf5File file = Hdf5File.openForWriting(path)) {
                Group g = file.root().group("g");
                for (int i = s * LINKS / sessions; i < (s + 1) * LINKS / sessions; i++) {
                    g.createGroup(name(i));
                }
            }
        }
        int chunks = chunkCount(path, address);
        assertTrue(chunks <= MAX_CHUNKS, chunks + " chunks");
        readAndExtendElsewhere(path);
    }

    private static String name(int i) {
        return String.format("v%05d", i);
    }

    /** The verifier accepts the file, h5py lists every link and adds one, Quire reads it back. */
    private static void readAndExtendElsewhere(Path path) throws IOException {
        assertEquals(1 + 1 + LINKS, Hdf5Verifier.verify(path).groups());
        ExternalTools.Result listed = h5py(path,
                "with h5py.File(sys.argv[1], 'r+') as f:",
                "    g = f['g']",
                "    print(len(g), sorted(g.keys()) == ['v%05d' % i for i in range(len(g))])",
                "    g.create_group('h5py')",
                "    print(len(g))");
        assertEquals(List.of(LINKS + " True", String.valueOf(LINKS + 1)),
                listed.stdout().lines().toList());
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertEquals(LINKS + 1, g.memberNames().size());
            assertTrue(g.contains("h5py") && g.contains(name(LINKS - 1)));
        }
    }

    /**
     * The header's chunks as Quire's reader finds them, checking that each continuation block
     * but the last starts with the continuation message to the next (before its links, which
     * libhdf5 would otherwise carry it past one by one when it removes them).
     */
    private static int chunkCount(Path path, long address) throws IOException {
        try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
            List<ObjectHeaderV2.StoredChunk> chunks =
                    ObjectHeaderV2.readChunks(file, address).chunks();
            for (int i = 1; i < chunks.size() - 1; i++) {
                assertEquals(ContinuationMessage.TYPE, chunks.get(i).messages().get(0).type(),
                        "first message of chunk " + i + " of " + chunks.size());
            }
            return chunks.size();
        }
    }

    /** The header's chunks as libhdf5 reports them ("Number of chunks" of h5debug). */
    private static int h5debugChunkCount(Path path, long address) {
        ExternalTools.requireTool("h5debug");
        ExternalTools.Result result = ExternalTools.run(
                List.of("h5debug", path.toString(), Long.toString(address)), 120);
        assertEquals(0, result.exitCode(), result.output());
        Matcher chunks = Pattern.compile("Number of chunks[^:]*:\\s+(\\d+)").matcher(result.stdout());
        assertTrue(chunks.find(), result.stdout());
        return Integer.parseInt(chunks.group(1));
    }
}
