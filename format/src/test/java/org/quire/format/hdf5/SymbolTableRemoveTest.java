package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SymbolTable#remove} on old-style groups h5py wrote, against h5py deleting the same
 * links in a copy ({@link OldStyleGroupFixture#check}): entries leave their nodes, names and
 * soft link values their heap, a node's new last name becomes its right key and climbs to the
 * root; libhdf5 never merges or rebalances nodes. What needs a change of the tree's shape is
 * refused before anything changes.
 */
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
    void aNodesOnlyEntryIsRefusedAndNothingChanges() throws IOException {
        List<String> base = new ArrayList<>(OldStyleGroupFixture.names("v", 9));
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "only", base, List.of());
        // v0 v1 v2 v3 | v4 .. v8: the first node keeps v0 after three removals
        OldStyleGroupFixture.LayoutWriter quire = OldStyleGroupFixture.LayoutWriter.open(
                fixture.file());
        quire.remove("v1");
        quire.remove("v2");
        quire.remove("v3");
        quire.close();
        byte[] before = Files.readAllBytes(fixture.file());
        OldStyleGroupFixture.LayoutWriter again = OldStyleGroupFixture.LayoutWriter.open(
                fixture.file());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> again.remove("v0"));
        assertEquals(fixture.file() + ": cannot delete \"v0\" from group /g (old format): it is "
                + "the only link in its symbol table node, which libhdf5 would drop from the "
                + "group's B-tree; Quire does not change the shape of a group's version-1 B-tree "
                + "yet", e.getMessage());
        again.close();
        assertArrayEquals(before, Files.readAllBytes(fixture.file()), "nothing changed");
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
