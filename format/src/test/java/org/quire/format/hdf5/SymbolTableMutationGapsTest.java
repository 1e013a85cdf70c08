package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;

/**
 * Many links added to and deleted from an old-style group in the JVM: a copy of legacy.h5's
 * /many (260 members in symbol table nodes of up to 32 entries under a two-level B-tree) takes
 * names before, between and after its own (full nodes split at every place of the new name) and
 * loses runs of its own (nodes emptied and dropped); after reopening it lists exactly the names
 * left, in byte order, and {@link Hdf5Verifier} passes. A deleted link's heap strings are
 * freed (and taken again by new names); a damaged tree or node is refused naming the block
 * and field.
 */
class SymbolTableMutationGapsTest {

    @TempDir
    Path dir;

    @Test
    void namesAddedEverywhereAndRunsDeletedLeaveExactlyTheRestInByteOrder() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        TreeSet<String> expected = new TreeSet<>(SymbolTable.NAME_ORDER);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group many = file.root().group("many");
            expected.addAll(many.memberNames());
            List<String> added = new ArrayList<>(List.of("a", "member_", "zz", "member_259z"));
            for (int i = 0; i < 260; i += 7) {
                added.add(String.format("member_%03d+", i));
            }
            for (String name : added) {
                many.createGroup(name);
                expected.add(name);
            }
            for (int i = 40; i < 120; i++) {
                String name = String.format("member_%03d", i);
                many.delete(name);
                expected.remove(name);
            }
            many.delete("a");
            expected.remove("a");
            assertEquals(List.copyOf(expected), many.memberNames());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.copyOf(expected), file.root().group("many").memberNames());
        }
        Hdf5Verifier.verify(path);
    }

    @Test
    void aDeletedNameFreesItsHeapBlockWhichANewNameOfItsLengthTakes() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        // member_007 (a node's first of five entries) is at heap offset 824: 11 bytes, 16 aligned
        assertEquals(List.of("size 5632", "4168+1464"), heapOf(path, "many"));
        deleteMember(path, "many", "member_007");
        assertEquals(List.of("size 5632", "824+16", "4168+1464"), heapOf(path, "many"));
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group("many").createGroup("member_00x");
        }
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.Tree.read(path, "many");
        assertEquals(List.of("size 5632", "4168+1464"), tree.heap());
        assertEquals("member_00x", tree.name(824));
    }

    @Test
    void aDeletedSoftLinkFreesItsValueAndItsName() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        // /nested's heap: "" at 0, "level_1" at 8, "link" at 16, "/nested/level_1" at 24
        assertEquals(List.of("size 88", "40+48"), heapOf(path, "nested"));
        deleteMember(path, "nested", "link");
        assertEquals(List.of("size 88", "16+72"), heapOf(path, "nested"));
    }

    @Test
    void anEmptiedGroupFreesEveryNameAndStartsItsTreeAgainWithAGrownHeap() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        List<String> names;
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group group = file.root().group("contiguous");
            names = group.memberNames();
            for (String name : names) {
                group.delete(name);
            }
        }
        // every name freed, merged where they adjoin; one of 8 bytes between two used ones was
        // too small for a free block (H5HL_remove drops it)
        assertEquals(List.of("size 176", "8+48", "64+112"), heapOf(path, "contiguous"));
        String longName = "x".repeat(300);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group group = file.root().group("contiguous");
            group.createGroup("b");
            group.createGroup(longName);
        }
        // the 301 bytes of the long name fit no free block: the segment grew, at new space
        assertEquals(List.of("size 480", "16+40", "368+112"), heapOf(path, "contiguous"));
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("b", longName), file.root().group("contiguous").memberNames());
        }
        Hdf5Verifier.verify(path);
    }

    private static List<String> heapOf(Path path, String group) throws IOException {
        return OldStyleGroupFixture.Tree.read(path, group).heap();
    }

    @Test
    void aNameAddedAfterTheLastBecomesTheRightKeyAndCanBeDeletedAgain() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group("nested").createGroup("zz");
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group nested = file.root().group("nested");
            assertEquals(List.of("level_1", "link", "zz"), nested.memberNames());
            nested.delete("zz");
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("level_1", "link"), file.root().group("nested").memberNames());
        }
    }

    @Test
    void aSymbolTableNodeReachedTwiceIsRefused() throws IOException {
        // /many's second leaf of its B-tree, at 111168: its second child pointer made its first
        assertEquals("corrupt symbol table node of /many at offset 22560: address expected a "
                + "node reached by one pointer only, found a second pointer from the node at "
                + "111168", damaged(111168 + 48, 22560, 8));
    }

    @Test
    void aBTreeNodeALevelTooHighForItsChildrenIsRefused() throws IOException {
        // /many's root, at 920: level 2 over leaves of level 0
        assertEquals("corrupt version 1 B-tree node of /many at offset 111717: node level "
                + "expected 1 (one below its parent at 920), found 0", damaged(920 + 5, 2, 1));
    }

    @Test
    void aNameNotAfterThePreviousOneIsRefused() throws IOException {
        // /many's node at 2616: its second entry's name offset made its first's (member_000)
        assertEquals("corrupt symbol table node of /many at offset 2664: link name expected a "
                + "name after \"member_000\", found \"member_000\"",
                damaged(2616 + 8 + 40, 8, 8));
    }

    @Test
    void aSoftLinkValueOutsideTheHeapIsRefusedAtItsScratchPad() throws IOException {
        // /nested's node at 151088: the soft link's value offset (24 bytes into its second
        // entry, at 151160) past the 88-byte heap segment
        assertEquals("corrupt symbol table node of /nested at offset 151160: soft link value "
                + "offset expected an offset below the size 88 of the local heap at 150264, "
                + "found 200", damaged(151160, 200, 8));
    }

    /**
     * The message (after the file's path) listing /many and /nested in a copy of legacy.h5
     * whose {@code bytes} bytes at {@code at} are set to {@code value}, little-endian.
     */
    private String damaged(long at, long value, int bytes) throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        try (RandomAccessFile raw = new RandomAccessFile(path.toFile(), "rw")) {
            raw.seek(at);
            for (int i = 0; i < bytes; i++) {
                raw.write((int) (value >>> (8 * i)));
            }
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            String message = assertThrows(CorruptFileException.class, () -> {
                file.root().group("many").memberNames();
                file.root().group("nested").memberNames();
            }).getMessage();
            assertTrue(message.startsWith(path + ": "), message);
            return message.substring(path.toString().length() + 2);
        }
    }

    /** Deletes {@code name} from the old-style group {@code group} in a writer of its own. */
    private static void deleteMember(Path path, String group, String name) throws IOException {
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group(group).delete(name);
        }
    }
}
