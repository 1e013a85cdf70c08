package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;

/**
 * {@link SymbolTable#remove} on old-style groups h5py wrote, against h5py deleting the same
 * links in a copy ({@link OldStyleGroupFixture#check}): entries leave their nodes, names and
 * soft link values their heap, a node's new last name becomes its right key and climbs to the
 * root; a node's last entry drops the node from the tree, and emptied B-tree nodes with it
 * (libhdf5 never merges or rebalances nodes).
 */
@StartsOutsideProgram
class SymbolTableRemoveTest {

    @TempDir
    Path dir;

    @Test
    void middleAndLastEntriesLeaveTheirNodeAndKeysFollow() throws IOException {
        OldStyleGroupFixture.check(dir, "three", List.of("a1", "b22", "c333", "d4444"),
                List.of("-b22", "-d4444", "+zz", "-c333"));
    }

    @Test
    void aSoftLinkLeavesWithItsValue() throws IOException {
        OldStyleGroupFixture.check(dir, "soft", List.of("a1", "~soft-link", "x"),
                List.of("-soft-link", "+soft-link-2"));
    }

    @Test
    void removalsInATwoLevelTreeAsLibhdf5() throws IOException {
        List<String> ops = SymbolTableInsertTest.plus(OldStyleGroupFixture.names("n", 150));
        // first node's middle and last entries (its right key lives in the first leaf only),
        // then the last names of the tree: the right key climbs to the root
        ops.addAll(List.of("-n1", "-n100", "-n99", "-n98", "-n149", "-n148"));
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "level1", List.of(),
                ops);
        assertEquals(1, tree.rootLevel());
    }

    @Test
    void aNodesLastEntryDropsTheNodeFromTheTree() throws IOException {
        // v0 v1 v2 v3 | v4 .. v8: the first node empties (its key right of it goes), then the
        // last (the root's right key becomes the new last name)
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "first",
                OldStyleGroupFixture.names("v", 9),
                List.of("-v1", "-v2", "-v3", "-v0", "+a", "-v8", "-v7", "-v6", "-v5"));
        assertEquals(2, tree.lines().size(), "the root and one node: " + tree.lines());
    }

    @Test
    void anEmptiedGroupStartsItsTreeAgain() throws IOException {
        List<String> ops = new ArrayList<>();
        for (String name : OldStyleGroupFixture.names("v", 9)) {
            ops.add("-" + name);
        }
        ops.addAll(SymbolTableInsertTest.plus(OldStyleGroupFixture.names("w", 10)));
        OldStyleGroupFixture.check(dir, "emptied", OldStyleGroupFixture.names("v", 9), ops);
    }

    @Test
    void droppedNodesInATwoLevelTreeAsLibhdf5() throws IOException {
        List<String> names = OldStyleGroupFixture.names("n", 150);
        List<String> ops = SymbolTableInsertTest.plus(names);
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted);
        // from the front (first children), a stretch in the middle (across a leaf boundary),
        // then from the back of a stretch (last children: the new right key climbs and goes
        // into the right neighbours' first keys); names stay right of each stretch
        for (String name : sorted.subList(0, 30)) {
            ops.add("-" + name);
        }
        for (String name : sorted.subList(60, 110)) {
            ops.add("-" + name);
        }
        for (int i = 139; i >= 115; i--) {
            ops.add("-" + sorted.get(i));
        }
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "drop2", List.of(),
                ops);
        assertEquals(1, tree.rootLevel());
    }

    @Test
    void aTwoLevelTreeEmptiedBecomesALevel0RootAndGrowsAgain() throws IOException {
        List<String> names = OldStyleGroupFixture.names("n", 150);
        List<String> ops = SymbolTableInsertTest.plus(names);
        for (String name : names) {
            ops.add("-" + name);
        }
        ops.addAll(SymbolTableInsertTest.plus(OldStyleGroupFixture.names("m", 20)));
        OldStyleGroupFixture.check(dir, "empty2", List.of(), ops);
    }

    @Test
    void anEmptiedTwoLevelRootIsTheBytesLibhdf5Leaves() throws IOException {
        List<String> names = OldStyleGroupFixture.names("n", 150);
        List<String> ops = SymbolTableInsertTest.plus(names);
        for (String name : names) {
            ops.add("-" + name);
        }
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "emptied2", List.of(),
                ops);
        assertEquals(List.of("level 0 keys [0] left false right false"), tree.lines());
        long root = OldStyleGroupFixture.symbolTable(dir.resolve("emptied2.h5")).bTreeAddress();
        long twinRoot = OldStyleGroupFixture.symbolTable(dir.resolve("emptied2-h5py.h5"))
                .bTreeAddress();
        int size = BTreeV1Node.size(16, BTreeV1Node.GROUP_KEYS.keySize());
        assertArrayEquals(Arrays.copyOfRange(Files.readAllBytes(dir.resolve("emptied2-h5py.h5")),
                        (int) twinRoot, (int) twinRoot + size),
                Arrays.copyOfRange(Files.readAllBytes(dir.resolve("emptied2.h5")), (int) root,
                        (int) root + size), "the root node's bytes: no children, key 0, zeros");
    }

    @Test
    void threeLevelsWithSmallKDropNodesAtEveryLevel() throws IOException {
        // whole B-tree nodes empty: their neighbours relinked, the right one's first key set
        BTreeV1Ranks small = new BTreeV1Ranks(2, 2, BTreeV1Ranks.DEFAULT.chunkNodeK());
        List<String> names = OldStyleGroupFixture.names("k", 70);
        Collections.shuffle(names, new Random(5));
        List<String> ops = SymbolTableInsertTest.plus(names);
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted);
        for (String name : sorted.subList(10, 30)) {
            ops.add("-" + name);
        }
        for (int i = 54; i >= 35; i--) {
            ops.add("-" + sorted.get(i));
        }
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "drop3", List.of(),
                ops, small);
        assertTrue(tree.rootLevel() >= 2, "levels: " + tree.rootLevel());
    }

    @Test
    void aDroppedMiddleNodesNeighboursAreWrittenRelinked() throws IOException {
        // h5py writes the names; Quire removes m24..m27, the whole of one leaf whose left
        // neighbour (same parent) and right neighbour (next parent) change no other way: only
        // their relinking (and the right one's first key) reaches the file
        BTreeV1Ranks small = new BTreeV1Ranks(2, 2, BTreeV1Ranks.DEFAULT.chunkNodeK());
        List<String> names = OldStyleGroupFixture.names("m", 40);
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted);
        assertEquals(List.of("m24", "m25", "m26", "m27"), sorted.subList(17, 21));
        List<String> ops = new ArrayList<>();
        for (String name : sorted.subList(17, 21)) {
            ops.add("-" + name);
        }
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "middle", names, ops,
                small);
        assertTrue(tree.rootLevel() >= 2, "levels: " + tree.rootLevel());
    }

    @Test
    void aRightKeyReachingASiblingIsCopiedIntoItsFirstKey() throws IOException {
        List<String> inserts = SymbolTableInsertTest.plus(OldStyleGroupFixture.names("n", 150));
        // n80 is the last name under the first leaf: its node's new right key climbs to the
        // root and goes into the first key of the second leaf
        OldStyleGroupFixture base = OldStyleGroupFixture.write(dir, "sibling-base", List.of(),
                inserts);
        OldStyleGroupFixture.Tree before = OldStyleGroupFixture.Tree.read(base.twin());
        String leaf = before.lines().get(1);
        String keys = leaf.substring(leaf.indexOf('[') + 1, leaf.indexOf(']'));
        assertEquals("n80", before.name(Long.parseLong(keys.substring(keys.lastIndexOf(' ')
                + 1))));
        List<String> ops = new ArrayList<>(inserts);
        ops.addAll(List.of("-n80", "-n79"));
        OldStyleGroupFixture.check(dir, "sibling", List.of(), ops);
    }
}
