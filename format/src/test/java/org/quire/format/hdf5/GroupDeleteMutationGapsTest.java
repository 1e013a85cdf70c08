package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Group#delete} read back in the JVM: from a group Quire wrote, from a copy of the dense
 * group h5py wrote ({@code dense.h5}, /twenty: 20 links in a fractal heap, which move into the
 * group's header first) and from a copy of an old-style group ({@code legacy.h5}, /many: a
 * symbol table); and what it refuses, with its message. The names left are compared with the
 * fixture's manifest minus the deleted ones.
 */
class GroupDeleteMutationGapsTest {

    @TempDir
    Path dir;

    /** The members of {@code group} in the fixture's manifest, in h5py's order. */
    private static List<String> manifestMembers(String script, String file, String group)
            throws IOException {
        for (String[] record : H5pyFixtures.of(script).records("G")) {
            boolean named = script.equals(H5pyFixtures.LEGACY)
                    ? record[1].equals(file) && record[2].equals(group) : record[1].equals(group);
            if (named) {
                return new ArrayList<>(List.of(record[record.length - 1].split("/")));
            }
        }
        throw new AssertionError(group + " of " + file + " is not in the manifest of " + script);
    }

    /** A change to a group open for writing, made to {@code expected} (its members) too. */
    private interface Change {
        void apply(Group group, List<String> expected) throws IOException;
    }

    /**
     * A copy of {@code script}'s {@code name} whose {@code group} {@code change} changed: open
     * and after reopening, its members are the manifest's as {@code change} changed them.
     */
    private Path changedCopy(String script, String name, String group, Change change)
            throws IOException {
        Path path = H5pyFixtures.copy(script, name, dir);
        List<String> expected = manifestMembers(script, name, group);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group changed = file.root().group(group.substring(1));
            change.apply(changed, expected);
            assertEquals(expected, changed.memberNames());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(expected, file.root().group(group.substring(1)).memberNames());
        }
        return path;
    }

    @Test
    void aDeletedMemberIsGoneAtOnceAndAfterReopeningAndItsNameIsFree() throws IOException {
        Path path = dir.resolve("quire.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group g = file.root().createGroup("g");
            g.createGroup("a");
            g.createDataset("b", Datatype.INT64, new long[] {2},
                    ElementCodec.encode(Datatype.INT64, new long[] {7, 8}));
            g.createGroup("c");
            Hdf5Object opened = g.get("b");
            assertNotNull(opened);
            g.delete("b");
            assertEquals(List.of("a", "c"), g.memberNames());
            assertFalse(g.contains("b"));
            assertEquals("/g has no member \"b\"",
                    assertThrows(NoSuchElementException.class, () -> g.get("b")).getMessage());
            assertEquals("/g has no member \"b\"",
                    assertThrows(NoSuchElementException.class, () -> g.delete("b")).getMessage());
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group g = file.root().group("g");
            assertEquals(List.of("a", "c"), g.memberNames());
            g.delete("a");
            g.createDataset("a", Datatype.INT64, new long[] {1},
                    ElementCodec.encode(Datatype.INT64, new long[] {9}));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Group g = file.root().group("g");
            assertEquals(List.of("c", "a"), g.memberNames());
            assertArrayEquals(new long[] {9}, g.dataset("a").readLongs(new long[] {0},
                    new long[] {1}));
        }
    }

    @Test
    void deletingIsRefusedInAReadOnlyOrSwmrWritingFile() throws IOException {
        Path path = dir.resolve("refused.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createGroup("g");
            file.startSwmrWrite();
            SwmrWriteRefusedException e = assertThrows(SwmrWriteRefusedException.class,
                    () -> file.root().delete("g"));
            assertEquals(path + ": cannot delete /g while the file is open for SWMR writing",
                    e.getMessage().substring(0, e.getMessage().indexOf(" (")));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(path + " is open read-only", assertThrows(IllegalStateException.class,
                    () -> file.root().delete("g")).getMessage());
            assertEquals(List.of("g"), file.root().memberNames());
        }
    }

    @Test
    void aDenseGroupH5pyWroteMovesItsLinksIntoItsHeaderAndLosesTheDeletedOne()
            throws IOException {
        Path path = changedCopy(H5pyFixtures.DENSE, "dense.h5", "/twenty",
                (twenty, expected) -> {
                    assertEquals(20, expected.size());
                    assertNotNull(twenty.denseLinks());
                    twenty.delete("data_03");
                    expected.remove("data_03");
                    assertNull(twenty.denseLinks());
                });
        try (Hdf5File file = Hdf5File.open(path)) {
            Group twenty = file.root().group("twenty");
            assertNull(twenty.denseLinks());
            assertArrayEquals(new int[] {0, 3}, twenty.dataset("data_01")
                    .readInts(new long[] {0}, new long[] {2}));
            assertEquals("/twenty/group_00", twenty.get("soft").path());
        }
    }

    /** A new link in the dense group moves its links into the header first, as a deletion. */
    @Test
    void aNewLinkInADenseGroupH5pyWroteFollowsItsLinksIntoTheHeader() throws IOException {
        changedCopy(H5pyFixtures.DENSE, "dense.h5", "/twenty", (twenty, expected) -> {
            twenty.createGroup("added");
            expected.add("added");
            assertNull(twenty.denseLinks());
        });
    }

    @Test
    void anOldStyleGroupLosesTheEntryAndKeepsTheRest() throws IOException {
        changedCopy(H5pyFixtures.LEGACY, "legacy.h5", "/many", (many, expected) -> {
            assertNotNull(many.symbolTable());
            Hdf5Object opened = many.get(expected.get(1));
            assertNotNull(opened);
            many.delete(expected.get(1));
            String deleted = expected.remove(1);
            assertEquals("/many has no member \"" + deleted + "\"", assertThrows(
                    NoSuchElementException.class, () -> many.get(deleted)).getMessage());
        });
    }
}
