package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quire.format.hdf5.GroupDeleteTest.h5dumpSucceeds;
import static org.quire.format.hdf5.GroupDeleteTest.h5py;
import static org.quire.format.hdf5.GroupDeleteTest.h5pyTree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.CrashSimulator;

/**
 * Links added to a group libhdf5 stores densely (more than 8 links, a file h5py wrote): the
 * group's links move into its header first (docs/hdf5.md, "Reopening a file for writing"),
 * then h5py, h5dump, the verifier and Quire read every link, h5py adds more on top (storing the
 * group densely again), and a writer killed at any point leaves the old links or the new ones.
 */
@StartsOutsideProgram
class DenseGroupAddTest {

    private static final List<String> H5PY_LINKS = List.of("d00", "d01", "d02", "d03", "d04",
            "d05", "d06", "d07", "d08", "d09", "d10", "d11", "soft", "sub");

    @TempDir
    Path dir;

    /** /g: d00 ... d11 = [i, i + 1], a soft link to d01, sub/x = [7], attribute unit. */
    private static void h5pyDenseGroup(Path path) {
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    g = f.create_group('g')",
                "    for i in range(12):",
                "        g['d%02d' % i] = np.arange(2) + i",
                "    g['soft'] = h5py.SoftLink('/g/d01')",
                "    g.create_group('sub')['x'] = [7]",
                "    g.attrs['unit'] = 'm'");
    }

    private static byte[] int64(long... values) {
        return ElementCodec.encode(Datatype.INT64, values);
    }

    @Test
    void groupsDatasetsAndAttributesAddedToADenseGroupReadEverywhereAndH5pyAddsMore()
            throws IOException {
        Path path = dir.resolve("dense.h5");
        h5pyDenseGroup(path);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            assertTrue(g.denseLinks() != null, "h5py stores 14 links densely");
            assertThrows(IllegalArgumentException.class, () -> g.createGroup("d03"));
            assertTrue(g.denseLinks() != null, "a refused name changes nothing");
            g.createGroup("q_group").createDataset("inner", Datatype.INT64, new long[] {1}, int64(5));
            g.createDataset("q_chunked", DatasetSpec.builder(Datatype.INT64, 4).chunkShape(2).build())
                    .write(new long[] {0}, new long[] {4}, new long[] {1, 2, 3, 4});
            g.setAttribute(Attribute.of("quire", 42L));
            assertEquals(null, g.denseLinks());
            assertEquals(16, g.memberNames().size());
        }
        List<String> all = new ArrayList<>(H5PY_LINKS);
        all.addAll(List.of("q_chunked", "q_group"));
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertEquals(all.stream().sorted().toList(), g.memberNames().stream().sorted().toList());
            assertEquals(List.of(10L, 11L), longs(g.dataset("d10")));
            assertEquals(List.of(1L, 2L), longs(g.dataset("soft")));
        }
        Hdf5Verifier.verify(path);
        List<String> tree = h5pyTree(path);
        assertTrue(tree.contains("/g|" + String.join(",", all.stream().sorted().toList())), tree.toString());
        assertTrue(tree.contains("/g/d11|[11, 12]"), tree.toString());
        assertTrue(tree.contains("/g/q_chunked|[1, 2, 3, 4]"), tree.toString());
        assertTrue(tree.contains("/g/q_group/inner|[5]"), tree.toString());
        assertTrue(tree.contains("/g/sub/x|[7]"), tree.toString());
        h5dumpSucceeds(path);

        h5py(path, "with h5py.File(sys.argv[1], 'a') as f:",
                "    assert f['g'].attrs['quire'] == 42 and f['g'].attrs['unit'] == 'm'",
                "    assert f['g/soft'][()].tolist() == [1, 2]",
                "    f['g'].create_group('later')",
                "    f['g']['later_d'] = [8, 9]");
        h5dumpSucceeds(path);
        Hdf5Verifier.verify(path);
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertTrue(g.denseLinks() != null, "libhdf5 stores the 18 links densely again");
            assertEquals(18, g.memberNames().size());
            assertEquals(List.of(8L, 9L), longs(g.dataset("later_d")));
            assertEquals(List.of(1L, 2L, 3L, 4L), longs(g.dataset("q_chunked")));
            assertEquals(List.of(5L), longs(g.group("q_group").dataset("inner")));
        }
    }

    /**
     * The links of a dense group move into one new continuation block, not many small ones:
     * libhdf5 pays for every chunk of the header when it moves them back into dense storage
     * (0.65 s of CPU for 1,000 links in 84 chunks, 9.4 s for 2,000, 0.01 s in 2 chunks).
     * h5debug counts the chunks of the group's header as libhdf5 reads it.
     */
    @Test
    void theMovedLinksTakeOneContinuationBlock() throws IOException {
        ExternalTools.requireTool("h5debug");
        Path path = dir.resolve("many.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    g = f.create_group('g')",
                "    for i in range(300):",
                "        g.create_group('version_%04d' % i)");
        long address;
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            g.createGroup("quire");
            address = g.address();
        }
        ExternalTools.Result debug = ExternalTools.run(List.of("h5debug", path.toString(),
                Long.toString(address)), 60);
        assertEquals(0, debug.exitCode(), debug.output());
        assertTrue(debug.stdout().lines().anyMatch(l -> l.matches("Number of chunks.*\\s2 \\(\\d+\\)")),
                debug.stdout().lines().filter(l -> l.contains("chunks")).toList().toString());
        h5py(path, "with h5py.File(sys.argv[1], 'a') as f:",
                "    f['g'].create_group('later')",
                "    assert len(f['g']) == 302");
    }

    /**
     * A writer adding a group and a dataset to a dense group killed at every write, truncation
     * and force: after recovery the group has h5py's links or all of them plus the two new ones,
     * every dataset reading its values, and the file verifies.
     */
    @Test
    void aKilledAddLeavesTheOldLinksOrTheNewOnes() throws IOException {
        Path made = dir.resolve("dense.h5");
        h5pyDenseGroup(made);
        Path file = Path.of("dense.h5");
        CrashSimulator simulator = new CrashSimulator(Map.of(file, Files.readAllBytes(made)));
        List<String> old = contents(simulator.files(), file);
        int begin = simulator.eventCount();
        try (Hdf5File writer = Hdf5File.openForWriting(file, simulator, WriteOptions.DEFAULT)) {
            Group g = writer.root().group("g");
            g.createGroup("q_group");
            g.createDataset("q_data", Datatype.INT64, new long[] {2}, int64(-4, -5));
        }
        int end = simulator.eventCount();
        List<String> added = contents(simulator.files(), file);
        assertTrue(added.contains("q_data=[-4, -5]") && added.contains("q_group"), added.toString());
        int olds = 0;
        int news = 0;
        for (int point = begin; point <= end; point++) {
            List<String> found = contents(simulator.processCrash(point), file);
            if (found.equals(old)) {
                olds++;
            } else if (found.equals(added)) {
                news++;
            } else {
                fail("crash at event " + point + " of [" + begin + ", " + end + "]: " + found);
            }
        }
        assertTrue(olds > 0 && news > 0, olds + " old, " + news + " new");
    }

    /**
     * A group numbering its links (link creation order tracked, attribute creation order not:
     * the reopening accepts the file) refuses a new link, naming the group and why, and the
     * file keeps every byte.
     */
    @Test
    void aGroupTrackingLinkCreationOrderRefusesANewLink() throws IOException {
        Path path = dir.resolve("ordered.h5");
        h5py(path, "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                "    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)",
                "    gcpl.set_link_creation_order(h5py.h5p.CRT_ORDER_TRACKED)",
                "    h5py.h5g.create(f.id, b'g', gcpl=gcpl)",
                "    f['g']['a'] = [1]");
        byte[] before = Files.readAllBytes(path);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            UnsupportedOperationException refused = assertThrows(
                    UnsupportedOperationException.class, () -> g.createGroup("b"));
            assertTrue(refused.getMessage().contains("cannot add \"b\" to group /g: it tracks "
                    + "link creation order"), refused.getMessage());
            assertEquals(List.of("a"), g.memberNames());
        }
        assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(path)));
    }

    /** /g's members after recovery, datasets as name=values; the recovered file verifies. */
    private static List<String> contents(Map<Path, byte[]> files, Path file) throws IOException {
        CrashSimulator disk = new CrashSimulator(files);
        Hdf5File.recover(file, disk);
        Hdf5Verifier.verify(file, disk);
        List<String> contents = new ArrayList<>();
        try (Hdf5File reader = Hdf5File.open(file, disk)) {
            for (Group.Member member : reader.root().group("g").members()) {
                contents.add(member.open() instanceof Dataset d
                        ? member.name() + "=" + longs(d) : member.name());
            }
        }
        contents.sort(null);
        return contents;
    }

    private static List<Long> longs(Dataset d) throws IOException {
        return Arrays.stream(d.readLongs(new long[d.shape().length], d.shape())).boxed().toList();
    }
}
