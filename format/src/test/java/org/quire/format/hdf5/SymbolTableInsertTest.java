package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;

/**
 * {@link SymbolTable#insert} on old-style groups h5py wrote, at the layout level (the file's
 * blocks and a metadata cache, as the writer uses them): Quire links names to {@code /d0} in
 * {@code /g} and h5py does the same in a copy. The two trees must agree node for node (levels,
 * keys as heap offsets, sibling links present or not, entries), the heaps byte for byte; h5py
 * lists the names in byte order and opens every one, h5debug reads every node of Quire's tree,
 * Quire's verifier passes. Only the addresses of new blocks may differ.
 */
@StartsOutsideProgram
class SymbolTableInsertTest {

    @TempDir
    Path dir;

    @Test
    void aNameGoesIntoTheOnlyNode() throws IOException {
        check("three", List.of("a1", "b22", "c333"), List.of("+b3", "+zz", "+a0"));
    }

    @Test
    void softLinksAndGroupsCachedInANodeKeepTheirScratchPads() throws IOException {
        check("cached", List.of("a1", "~soft", "x"), List.of("+b", "+c", "+d", "+e", "+f"));
    }

    @Test
    void theFirstLinkOfAnEmptyGroupMakesItsFirstNode() throws IOException {
        check("empty", List.of(), List.of("+only"));
    }

    @Test
    void nineNamesSplitTheFirstNode() throws IOException {
        check("nine", List.of(), plus(OldStyleGroupFixture.names("v", 9)));
    }

    @Test
    void namesOutOfByteOrderSplitNodesInHalves() throws IOException {
        List<String> names = OldStyleGroupFixture.names("v", 60);
        Collections.shuffle(names, new Random(11));
        check("shuffled", List.of("a", "w"), plus(names));
    }

    @Test
    void thirtyThreeNodesSplitTheRootWhichStaysWhereItWas() throws IOException {
        List<String> names = OldStyleGroupFixture.names("n", 150);
        OldStyleGroupFixture.Tree tree = check("root", List.of(), plus(names));
        assertEquals(1, tree.rootLevel(), "the root is one level up");
    }

    @Test
    void smallKValuesFromTheSuperblockGiveThreeLevels() throws IOException {
        // H5Pset_sym_k(2, 2): nodes of 4 entries, B-tree nodes of 4 children
        BTreeV1Ranks small = new BTreeV1Ranks(2, 2, BTreeV1Ranks.DEFAULT.chunkNodeK());
        List<String> names = OldStyleGroupFixture.names("k", 70);
        Collections.shuffle(names, new Random(5));
        OldStyleGroupFixture.Tree tree = OldStyleGroupFixture.check(dir, "small-k", List.of(),
                plus(names), small);
        assertEquals(small, OldStyleGroupFixture.ranks(dir.resolve("small-k.h5")));
        assertTrue(tree.rootLevel() >= 2, "levels: " + tree.rootLevel());
    }

    @Test
    void aNameLinkedAlreadyIsRefusedBeforeAnyChange() throws IOException {
        OldStyleGroupFixture fixture = OldStyleGroupFixture.write(dir, "twice", List.of("a1"),
                List.of());
        OldStyleGroupFixture.LayoutWriter quire = OldStyleGroupFixture.LayoutWriter.open(
                fixture.file());
        try (BlockFile file = quire.file()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> quire.insert("a1"));
            assertEquals("\"a1\" is linked in the symbol table already", e.getMessage());
        }
    }

    private OldStyleGroupFixture.Tree check(String name, List<String> base, List<String> ops)
            throws IOException {
        return OldStyleGroupFixture.check(dir, name, base, ops);
    }

    static List<String> plus(List<String> names) {
        List<String> ops = new ArrayList<>();
        for (String name : names) {
            ops.add("+" + name);
        }
        return ops;
    }
}
