package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * Links added to and deleted from an old-style group (heap growth, node splits, new right keys,
 * freed heap blocks, nodes dropped from the B-tree, the root emptied) by a writer killed at every point ({@link CrashSimulator#processCrash}):
 * after {@link Hdf5File#recover} Quire's verifier passes and the group holds the names before
 * the writer, after its flush or after its close, never a mix; h5py lists the same names.
 */
@StartsOutsideProgram
class OldStyleGroupCrashTest {

    private static final Path FILE = Path.of("old.h5");

    @TempDir
    Path dir;

    /** Changes a writer makes to /g before a flush or before its close. */
    @FunctionalInterface
    private interface Changes {
        void apply(Group g) throws IOException;
    }

    @Test
    void aKilledWriterLeavesTheNamesOfOneFlush() throws IOException {
        crashAtEveryPoint("crash", g -> {
            g.delete("v1");
            g.delete("v9"); // the last name of its node: a new right key
            for (String name : OldStyleGroupFixture.names("new-", 14)) {
                g.createGroup(name); // grows the heap, splits nodes
            }
        }, g -> {
            g.delete("new-3");
            g.delete("v3");
            g.createGroup("zz");
        });
    }

    @Test
    void aKilledWriterDroppingNodesLeavesTheNamesOfOneFlush() throws IOException {
        // the first nodes emptied (dropped from the tree, the root's keys shifted), then the
        // rest: the root back to level 0 with no child, and a name starting it again
        List<String> sorted = OldStyleGroupFixture.names("v", 12);
        java.util.Collections.sort(sorted);
        crashAtEveryPoint("crash-drop", g -> {
            for (String name : sorted.subList(0, 6)) {
                g.delete(name);
            }
        }, g -> {
            for (String name : sorted.subList(6, 12)) {
                g.delete(name);
            }
            g.createGroup("zz");
        });
    }

    private void crashAtEveryPoint(String name, Changes beforeFlush, Changes beforeClose)
            throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, name,
                OldStyleGroupFixture.names("v", 12), List.of());
        byte[] before = Files.readAllBytes(fixture.file());
        CrashSimulator run = new CrashSimulator(Map.of(FILE, before));
        List<String> flushed;
        List<String> closed;
        try (Hdf5File file = Hdf5File.openForWriting(FILE, run,
                WriteOptions.DEFAULT.withDurability(Durability.EVERY_FLUSH))) {
            Group g = file.root().group("g");
            beforeFlush.apply(g);
            file.flush();
            flushed = g.memberNames();
            beforeClose.apply(g);
            closed = g.memberNames();
        }
        List<String> initial = OldStyleGroupFixture.names("v", 12);
        java.util.Collections.sort(initial);
        Set<List<String>> states = Set.of(initial, flushed, closed);
        Set<List<String>> seen = new HashSet<>();
        List<String> images = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int point = 0; point <= run.eventCount(); point++) {
            CrashSimulator disk = new CrashSimulator(run.processCrash(point));
            Hdf5File.recover(FILE, disk);
            Hdf5Verifier.verify(FILE, disk);
            List<String> names;
            try (Hdf5File file = Hdf5File.open(FILE, disk)) {
                names = file.root().group("g").memberNames();
            }
            assertTrue(states.contains(names), "crash at " + point + ": " + names);
            seen.add(names);
            if (point % 7 == 0) {
                Path image = dir.resolve("recovered-" + point + ".h5");
                Files.write(image, disk.files().get(FILE));
                images.add(image.toString());
                expected.add(String.join(",", names));
            }
        }
        assertEquals(states, seen, "every state is left by some crash");
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(), "-c",
                String.join("\n", "import sys, h5py",
                        "for path in sys.argv[1:]:",
                        "    with h5py.File(path, 'r') as f:",
                        "        print(','.join(f['g']))")));
        command.addAll(images);
        ExternalTools.Result h5py = ExternalTools.run(command, 300);
        assertEquals(0, h5py.exitCode(), h5py.output());
        assertEquals(expected, h5py.stdout().lines().toList(), "h5py lists what Quire lists");
    }
}
