package org.quire.format.hdf5.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.LittleEndianWriter;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.FullDisk;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The writer node for node, on trees of K 2 (4 children a node) written into the file by hand:
 * the keys are plain numbers (a child holds the values above its left key up to its right key,
 * as in a group tree), the level-0 children are made-up addresses (1000 + v for the child whose
 * right key is v, 2000 + v for one an insertion of v adds), and each insertion adds one child
 * (right of the one holding it, or after the last) unless the test says otherwise. Every
 * expectation is what libhdf5's H5B.c does as the writer's javadoc states it: split ratios 0.1
 * (no left sibling), 0.5 and 0.9 (no right sibling), new nodes at the end of the file linked
 * between the node and its right sibling, the root kept at its address, and for removals the
 * emptied nodes unlinked and the keys patched.
 */
class BTreeV1WriterMutationGapsTest {

    private static final int K = 2;
    private static final int SIZE = BTreeV1Node.size(K, BTreeV1Node.GROUP_KEYS.keySize());
    private static final long U = Addresses.UNDEFINED;

    @TempDir
    Path dir;

    private Path path;
    private FullDisk disk;
    private Storage storage;
    private BlockFile file;

    @BeforeEach
    void open() throws IOException {
        path = dir.resolve("tree.h5");
        disk = new FullDisk(FileStorage.OPENER);
        storage = disk.open(path, OpenMode.CREATE_NEW);
        file = new BlockFile(storage);
        file.allocate(96); // a superblock's place
    }

    @AfterEach
    void close() throws IOException {
        storage.close();
    }

    /** Space for a node, written later with {@link #write}. */
    private long allocate() {
        return file.allocate(SIZE);
    }

    private void write(long address, int level, List<Long> keys, List<Long> children, long left,
                       long right) throws IOException {
        file.write(address, node(address, level, keys, children, left, right)
                .encode(BTreeV1Node.GROUP_KEYS, K));
    }

    private static BTreeV1Node<Long> node(long address, int level, List<Long> keys,
                                          List<Long> children, long left, long right) {
        return new BTreeV1Node<>(address, level, keys,
                children.stream().mapToLong(Long::longValue).toArray(), left, right);
    }

    /** A leaf whose children are 1000 + each right key. */
    private void leaf(long address, List<Long> keys, long left, long right) throws IOException {
        write(address, 0, keys, keys.subList(1, keys.size()).stream().map(v -> 1000 + v).toList(),
                left, right);
    }

    private BTreeV1Writer<Long> writer(MetadataCache cache, long root) {
        return new BTreeV1Writer<>(file, cache, BTreeV1Node.GROUP_KEYS, K, root);
    }

    private MetadataCache cache() {
        return new MetadataCache(storage, 1 << 20, Durability.NONE);
    }

    /** Fails unless the node at {@code address} in the file is this one. */
    private void expect(long address, int level, List<Long> keys, List<Long> children,
                        long left, long right) throws IOException {
        assertEquals(text(node(address, level, keys, children, left, right)),
                text(BTreeV1Node.read(file, address, BTreeV1Node.GROUP_KEYS, K)));
    }

    private static String text(BTreeV1Node<Long> node) {
        return "node at " + node.address() + ": level " + node.level() + ", keys " + node.keys()
                + ", children " + Arrays.toString(node.children()) + ", left "
                + node.leftSibling() + ", right " + node.rightSibling();
    }

    /** Children 1000 + v for each v. */
    private static List<Long> old(long... values) {
        return Arrays.stream(values).map(v -> 1000 + v).boxed().toList();
    }

    /**
     * Inserting the value {@code v}: the child holding it gets a new child 2000 + v right of it
     * (middle key v), after the last key the last child gets it (its right key becomes v, the
     * old one the middle), before the first key the first child's left key becomes v - 1, an
     * empty tree gets child 2000 + v between v - 1 and v. Records what the writer offered.
     */
    private static class Put implements BTreeV1Writer.Item<Long> {
        final long v;
        final List<String> offered = new ArrayList<>();

        Put(long v) {
            this.v = v;
        }

        @Override
        public int compare(Long left, Long right) {
            return v <= left ? -1 : v > right ? 1 : 0;
        }

        @Override
        public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                    BTreeV1Writer.Edge edge) throws IOException {
            offered.add(edge + " " + left + " " + child + " " + right);
            return switch (edge) {
                case EMPTY -> new BTreeV1Writer.LeafChange<>(v - 1, 2000 + v, v, null, U);
                case BEFORE_FIRST -> new BTreeV1Writer.LeafChange<>(v - 1, U, null, null, U);
                case WITHIN -> BTreeV1Writer.LeafChange.right(v, 2000 + v);
                case AFTER_LAST -> new BTreeV1Writer.LeafChange<>(null, U, v, right, 2000 + v);
            };
        }
    }

    @Test
    void anEmptyRootTakesTheFirstChildItsItemGives() throws IOException {
        long root = allocate();
        write(root, 0, List.of(0L), List.of(), U, U);
        MetadataCache cache = cache();
        Put put = new Put(20);
        writer(cache, root).insert(put);
        cache.flush();
        assertEquals(List.of("EMPTY null -1 null"), put.offered);
        expect(root, 0, List.of(19L, 20L), List.of(2020L), U, U);
    }

    @Test
    void aFullLeafRootSplitsNineToOneAndStaysWhereItWas() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L, 40L, 50L), U, U);
        long split = file.endOfAllocation();
        long moved = split + SIZE;
        MetadataCache cache = cache();
        Put put = new Put(60);
        writer(cache, root).insert(put);
        cache.flush();
        assertEquals(List.of("AFTER_LAST 40 1050 50"), put.offered);
        expect(root, 1, List.of(10L, 40L, 60L), List.of(moved, split), U, U);
        expect(moved, 0, List.of(10L, 20L, 30L, 40L), old(20, 30, 40), U, split);
        expect(split, 0, List.of(40L, 50L, 60L), List.of(1050L, 2060L), moved, U);
    }

    /** A root of level 1 over leaves a, b, c: their keys, each leaf's children 1000 + key. */
    private record ThreeLeaves(long root, long a, long b, long c) {
    }

    private ThreeLeaves threeLeaves(List<Long> a, List<Long> b, List<Long> c) throws IOException {
        ThreeLeaves tree = new ThreeLeaves(allocate(), allocate(), allocate(), allocate());
        write(tree.root(), 1, List.of(a.get(0), b.get(0), c.get(0), c.get(c.size() - 1)),
                List.of(tree.a(), tree.b(), tree.c()), U, U);
        leaf(tree.a(), a, U, tree.b());
        leaf(tree.b(), b, tree.a(), tree.c());
        leaf(tree.c(), c, tree.b(), U);
        return tree;
    }

    /**
     * A root of level 2 over m1 and m2 (level 1, the first {@code underM1} leaves under m1, the
     * others under m2) over leaves of these keys, each leaf's children 1000 + key; allocated in
     * that order.
     */
    private record TwoLevels(long root, long m1, long m2, long[] leaves) {
    }

    private TwoLevels twoLevels(int underM1, List<List<Long>> leafKeys) throws IOException {
        TwoLevels tree = new TwoLevels(allocate(), allocate(), allocate(),
                leafKeys.stream().mapToLong(keys -> allocate()).toArray());
        List<Long> leaves = Arrays.stream(tree.leaves()).boxed().toList();
        int last = leaves.size() - 1;
        List<Long> lastKeys = leafKeys.get(last);
        write(tree.root(), 2, List.of(leafKeys.get(0).get(0), leafKeys.get(underM1).get(0),
                lastKeys.get(lastKeys.size() - 1)), List.of(tree.m1(), tree.m2()), U, U);
        write(tree.m1(), 1, boundaries(leafKeys.subList(0, underM1)), leaves.subList(0, underM1),
                U, tree.m2());
        write(tree.m2(), 1, boundaries(leafKeys.subList(underM1, leaves.size())),
                leaves.subList(underM1, leaves.size()), tree.m1(), U);
        for (int i = 0; i <= last; i++) {
            leaf(leaves.get(i), leafKeys.get(i), i == 0 ? U : leaves.get(i - 1),
                    i == last ? U : leaves.get(i + 1));
        }
        return tree;
    }

    /** The keys of a node over leaves of {@code leafKeys}: each first key, the last one's last. */
    private static List<Long> boundaries(List<List<Long>> leafKeys) {
        List<Long> keys = new ArrayList<>();
        for (List<Long> leaf : leafKeys) {
            keys.add(leaf.get(0));
        }
        List<Long> last = leafKeys.get(leafKeys.size() - 1);
        keys.add(last.get(last.size() - 1));
        return keys;
    }

    /** Child 1 (value 25) goes to the node split off, child 0 (value 15) stays. */
    static List<Arguments> firstLeafSplits() {
        return List.of(
                Arguments.of(25, "WITHIN 20 1030 30", List.of(10L, 20L), List.of(1020L),
                        List.of(20L, 25L, 30L, 40L, 50L), List.of(1030L, 2025L, 1040L, 1050L)),
                Arguments.of(15, "WITHIN 10 1020 20", List.of(10L, 15L, 20L),
                        List.of(1020L, 2015L), List.of(20L, 30L, 40L, 50L),
                        List.of(1030L, 1040L, 1050L)));
    }

    @ParameterizedTest
    @MethodSource("firstLeafSplits")
    void aFullFirstLeafKeepsOneChildAndItsSiblingIsRelinked(long v, String offered,
            List<Long> aKeys, List<Long> aChildren, List<Long> splitKeys, List<Long> splitChildren)
            throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 20L, 30L, 40L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        long split = file.endOfAllocation();
        MetadataCache cache = cache();
        Put put = new Put(v);
        writer(cache, tree.root()).insert(put);
        cache.flush();
        assertEquals(List.of(offered), put.offered);
        expect(tree.root(), 1, List.of(10L, 20L, 50L, 90L, 130L),
                List.of(tree.a(), split, tree.b(), tree.c()), U, U);
        expect(tree.a(), 0, aKeys, aChildren, U, split);
        expect(split, 0, splitKeys, splitChildren, tree.a(), tree.b());
        expect(tree.b(), 0, List.of(50L, 90L), old(90), split, tree.c());
    }

    @Test
    void everyNodeAChangeTouchesIsCheckedFirst() throws IOException {
        ThreeLeaves full = threeLeaves(List.of(10L, 20L, 30L, 40L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        ThreeLeaves lone = threeLeaves(List.of(10L, 50L), List.of(50L, 90L), List.of(90L, 130L));
        List<String> checked = new ArrayList<>();
        BTreeV1Writer.NodeCheck<Long> check = (parent, i, node) -> checked.add(
                (parent == null ? "-" : parent.address() + "/" + i) + " " + node.address());
        MetadataCache cache = cache();
        new BTreeV1Writer<>(file, cache, BTreeV1Node.GROUP_KEYS, K, full.root(), check)
                .insert(new Put(25));
        // the path, then the right sibling the split relinks
        assertEquals(List.of("- " + full.root(), full.root() + "/0 " + full.a(),
                "- " + full.b()), checked);
        checked.clear();
        new BTreeV1Writer<>(file, cache, BTreeV1Node.GROUP_KEYS, K, lone.root(), check)
                .removeChild(at(70));
        // the path, then the neighbours of the leaf dropped
        assertEquals(List.of("- " + lone.root(), lone.root() + "/1 " + lone.b(),
                "- " + lone.a(), "- " + lone.c()), checked);
    }

    /** Inside the first child (20) and inside the last (40): the leaf's keys stay. */
    @ParameterizedTest
    @ValueSource(longs = {20, 40})
    void aChildAddedInsideALeafLeavesItsParentClean(long v) throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 30L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        MetadataCache cache = cache();
        writer(cache, tree.root()).insert(new Put(v));
        assertEquals(List.of(true, false), List.of(cache.isDirty(tree.a()),
                cache.isDirty(tree.root())));
    }

    @Test
    void everyNodeReadIsReleasedForEviction() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L), U, U);
        long other = allocate();
        leaf(other, List.of(10L, 20L), U, U);
        // room for one node: the next node read evicts the last one once it is released
        MetadataCache cache = new MetadataCache(storage,
                SIZE + MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY, Durability.NONE);
        BTreeV1Writer<Long> writer = writer(cache, root);
        writer.insert(new Put(25));
        cache.flush();
        writer.node(other);
        assertEquals(List.of(false, true), List.of(cache.contains(root), cache.contains(other)));
        writer.node(root);
        assertEquals(List.of(true, false), List.of(cache.contains(root), cache.contains(other)));
    }

    @Test
    void aFullMiddleLeafSplitsInHalvesAndKeepsTheNewChild() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 50L), List.of(50L, 60L, 70L, 80L, 90L),
                List.of(90L, 130L));
        long split = file.endOfAllocation();
        MetadataCache cache = cache();
        writer(cache, tree.root()).insert(new Put(65));
        cache.flush();
        expect(tree.root(), 1, List.of(10L, 50L, 70L, 90L, 130L),
                List.of(tree.a(), tree.b(), split, tree.c()), U, U);
        expect(tree.b(), 0, List.of(50L, 60L, 65L, 70L), List.of(1060L, 1070L, 2065L),
                tree.a(), split);
        expect(split, 0, List.of(70L, 80L, 90L), old(80, 90), tree.b(), tree.c());
        expect(tree.c(), 0, List.of(90L, 130L), old(130), split, U);
        expect(tree.a(), 0, List.of(10L, 50L), old(50), U, tree.b());
    }

    @Test
    void aFullLastLeafKeepsThreeAndItsNewLastKeyClimbs() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 50L), List.of(50L, 90L),
                List.of(90L, 100L, 110L, 120L, 130L));
        long split = file.endOfAllocation();
        MetadataCache cache = cache();
        writer(cache, tree.root()).insert(new Put(140));
        cache.flush();
        expect(tree.root(), 1, List.of(10L, 50L, 90L, 120L, 140L),
                List.of(tree.a(), tree.b(), tree.c(), split), U, U);
        expect(tree.c(), 0, List.of(90L, 100L, 110L, 120L), old(100, 110, 120), tree.b(), split);
        expect(split, 0, List.of(120L, 130L, 140L), List.of(1130L, 2140L), tree.c(), U);
    }

    @Test
    void aFullRootOverAFullLeafSplitsBothAndGrowsALevelInPlace() throws IOException {
        long root = allocate();
        long[] leaves = {allocate(), allocate(), allocate(), allocate()};
        write(root, 1, List.of(10L, 50L, 90L, 130L, 170L),
                Arrays.stream(leaves).boxed().toList(), U, U);
        leaf(leaves[0], List.of(10L, 50L), U, leaves[1]);
        leaf(leaves[1], List.of(50L, 90L), leaves[0], leaves[2]);
        leaf(leaves[2], List.of(90L, 130L), leaves[1], leaves[3]);
        leaf(leaves[3], List.of(130L, 140L, 150L, 160L, 170L), leaves[2], U);
        long leafSplit = file.endOfAllocation();
        long rootSplit = leafSplit + SIZE;
        long moved = rootSplit + SIZE;
        MetadataCache cache = cache();
        BTreeV1Writer<Long> writer = writer(cache, root);
        writer.node(leaves[0]); // in the cache: the root's copy is written after it
        writer.insert(new Put(180));
        List<String> dependencies = new ArrayList<>();
        long[] nodes = {root, moved, rootSplit, leafSplit, leaves[0], leaves[3]};
        for (long parent : nodes) {
            for (long child : nodes) {
                if (cache.dependsOn(parent, child)) {
                    dependencies.add(parent + ">" + child);
                }
            }
        }
        // (the root also keeps its dependencies on the leaves it pointed at before: harmless)
        List<String> pointers = List.of(root + ">" + moved, root + ">" + rootSplit,
                moved + ">" + leaves[0], rootSplit + ">" + leafSplit, rootSplit + ">" + leaves[3]);
        assertTrue(dependencies.containsAll(pointers), dependencies + " lacks some of " + pointers);
        cache.flush();
        expect(root, 2, List.of(10L, 130L, 180L), List.of(moved, rootSplit), U, U);
        expect(moved, 1, List.of(10L, 50L, 90L, 130L),
                List.of(leaves[0], leaves[1], leaves[2]), U, rootSplit);
        expect(rootSplit, 1, List.of(130L, 160L, 180L), List.of(leaves[3], leafSplit), moved, U);
        expect(leaves[3], 0, List.of(130L, 140L, 150L, 160L), old(140, 150, 160), leaves[2],
                leafSplit);
        expect(leafSplit, 0, List.of(160L, 170L, 180L), List.of(1170L, 2180L), leaves[3], U);
    }

    @Test
    void aNewFirstKeyClimbsIntoTheRoot() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 30L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        MetadataCache cache = cache();
        Put put = new Put(5);
        writer(cache, tree.root()).insert(put);
        cache.flush();
        assertEquals(List.of("BEFORE_FIRST 10 1030 30"), put.offered);
        expect(tree.root(), 1, List.of(4L, 50L, 90L, 130L), List.of(tree.a(), tree.b(), tree.c()),
                U, U);
        expect(tree.a(), 0, List.of(4L, 30L, 50L), old(30, 50), U, tree.b());
    }

    @Test
    void aChildRewrittenElsewhereGetsItsNewAddress() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L), U, U);
        MetadataCache cache = cache();
        writer(cache, root).insert(new Put(15) {
            @Override
            public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                        BTreeV1Writer.Edge edge) {
                return new BTreeV1Writer.LeafChange<>(null, 777, null, null, U);
            }
        });
        cache.flush();
        expect(root, 0, List.of(10L, 20L, 30L), List.of(777L, 1030L), U, U);
    }

    /** Removing the value {@code v}: the child whose keys hold it. */
    private static BTreeV1Writer.Search<Long> at(long v) {
        return new Put(v);
    }

    @Test
    void aLeafLosingItsOnlyChildIsUnlinkedAndItsRightNeighbourTakesItsFirstKey()
            throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 30L, 50L), List.of(50L, 90L),
                List.of(90L, 110L, 130L));
        MetadataCache cache = cache();
        writer(cache, tree.root()).removeChild(at(70));
        cache.flush();
        expect(tree.root(), 1, List.of(10L, 50L, 130L), List.of(tree.a(), tree.c()), U, U);
        expect(tree.a(), 0, List.of(10L, 30L, 50L), old(30, 50), U, tree.c());
        expect(tree.c(), 0, List.of(50L, 110L, 130L), old(110, 130), tree.a(), U);
    }

    @Test
    void aLeafLosingItsLastChildPassesItsNewLastKeyToItsNeighbourAndParent()
            throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 30L, 50L), List.of(50L, 70L, 90L),
                List.of(90L, 130L));
        MetadataCache cache = cache();
        writer(cache, tree.root()).removeChild(at(80));
        cache.flush();
        expect(tree.root(), 1, List.of(10L, 50L, 70L, 130L), List.of(tree.a(), tree.b(),
                tree.c()), U, U);
        expect(tree.b(), 0, List.of(50L, 70L), old(70), tree.a(), tree.c());
        expect(tree.c(), 0, List.of(70L, 130L), old(130), tree.b(), U);
        expect(tree.a(), 0, List.of(10L, 30L, 50L), old(30, 50), U, tree.b());
    }

    @Test
    void theLastChildOfTheTreeTakesItsKeyUpToTheRootOnly() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 50L), List.of(50L, 90L),
                List.of(90L, 110L, 130L));
        MetadataCache cache = cache();
        writer(cache, tree.root()).removeChild(at(120));
        cache.flush();
        expect(tree.root(), 1, List.of(10L, 50L, 90L, 110L), List.of(tree.a(), tree.b(),
                tree.c()), U, U);
        expect(tree.c(), 0, List.of(90L, 110L), old(110), tree.b(), U);
    }

    @Test
    void aMiddleChildLeavesWithTheKeyRightOfItAndNothingClimbs() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 20L, 30L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        MetadataCache cache = cache();
        writer(cache, tree.root()).removeChild(at(25));
        cache.flush();
        expect(tree.a(), 0, List.of(10L, 20L, 50L), old(20, 50), U, tree.b());
        expect(tree.root(), 1, List.of(10L, 50L, 90L, 130L), List.of(tree.a(), tree.b(),
                tree.c()), U, U);
        expect(tree.b(), 0, List.of(50L, 90L), old(90), tree.a(), tree.c());
    }

    @Test
    void aTwoLevelTreeEmptiedIsALevel0RootKeepingKey0() throws IOException {
        long root = allocate();
        long leaf = allocate();
        write(root, 1, List.of(10L, 50L), List.of(leaf), U, U);
        leaf(leaf, List.of(10L, 50L), U, U);
        MetadataCache cache = cache();
        BTreeV1Writer<Long> writer = writer(cache, root);
        writer.removeChild(at(30));
        cache.flush();
        expect(root, 0, List.of(10L), List.of(), U, U);
        Put put = new Put(40);
        writer.insert(put);
        assertEquals(List.of("EMPTY null -1 null"), put.offered);
    }

    @Test
    void removalsAreRefusedForChunkTreesAndItemsNoChildHolds() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L), U, U);
        BTreeV1Node.KeyFormat<Long> chunkType = new BTreeV1Node.KeyFormat<>() {
            @Override
            public int nodeType() {
                return 1;
            }

            @Override
            public int keySize() {
                return BTreeV1Node.GROUP_KEYS.keySize();
            }

            @Override
            public Long decode(LittleEndianReader in)
                    throws CorruptFileException {
                return BTreeV1Node.GROUP_KEYS.decode(in);
            }

            @Override
            public void encode(Long key, LittleEndianWriter out) {
                BTreeV1Node.GROUP_KEYS.encode(key, out);
            }
        };
        UnsupportedOperationException chunks = assertThrows(UnsupportedOperationException.class,
                () -> new BTreeV1Writer<>(file, cache(), chunkType, K, root).removeChild(at(15)));
        assertEquals(path + ": the version 1 B-tree at " + root + " is of node type 1; children "
                + "are removed from group trees (type 0) only", chunks.getMessage());
        BTreeV1Writer<Long> writer = writer(cache(), root);
        for (long v : new long[] {5, 35}) {
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                    () -> writer.removeChild(at(v)));
            assertEquals(path + ": no child of the version 1 B-tree at " + root + " holds the "
                    + "item to remove", none.getMessage(), "value " + v);
        }
    }

    @Test
    void aFailureAfterTheFirstChangeLeavesAWriterThatRefusesEveryCall() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L, 40L, 50L), U, U);
        long early = file.allocate(16);
        // room for the early entry and the root only: the node split off the root evicts the
        // early entry, whose write fails on the full disk after the root's last key changed
        MetadataCache cache = new MetadataCache(storage,
                16 + SIZE + 2L * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY, Durability.NONE);
        cache.insert(BlockEntry.metadata(early, 16, "early", value -> new byte[16]));
        BTreeV1Writer<Long> writer = writer(cache, root);
        disk.fillAfter(0);
        IOException full = assertThrows(IOException.class, () -> writer.insert(new Put(60)));
        disk.free();
        String refusal = path + ": the version 1 B-tree at " + root + " is half changed by a "
                + "change that failed (" + full + "); nothing more is read or written through it";
        List<Executable> calls = List.of(() -> writer.node(root),
                () -> writer.insert(new Put(5)), () -> writer.removeChild(at(15)));
        for (Executable call : calls) {
            assertEquals(refusal, assertThrows(IllegalStateException.class, call).getMessage());
        }
    }

    @Test
    void aFailureBeforeTheFirstChangeLeavesTheWriterUsable() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L), U, U);
        MetadataCache cache = cache();
        BTreeV1Writer<Long> writer = writer(cache, root);
        IOException refused = new IOException("the symbol table node is damaged");
        assertEquals(refused, assertThrows(IOException.class, () -> writer.insert(new Put(15) {
            @Override
            public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                        BTreeV1Writer.Edge edge)
                    throws IOException {
                throw refused;
            }
        })));
        writer.insert(new Put(40));
        cache.flush();
        expect(root, 0, List.of(10L, 20L, 30L, 40L), List.of(1020L, 1030L, 2040L), U, U);
    }

    @Test
    void anInternalNodeWithoutChildrenIsCorrupt() throws IOException {
        long root = allocate();
        write(root, 1, List.of(10L), List.of(), U, U);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> writer(cache(), root).insert(new Put(20)));
        assertEquals(root + BTreeV1Node.ENTRIES_USED_OFFSET, e.offset());
        assertEquals(new CorruptFileException(path, root + BTreeV1Node.ENTRIES_USED_OFFSET,
                "version 1 B-tree node", "entries used", "children below level 1", "0")
                .getMessage(), e.getMessage());
    }

    @Test
    void anItemPastOneKeyAndBeforeTheNextIsCorrupt() throws IOException {
        long root = allocate();
        leaf(root, List.of(10L, 20L, 30L), U, U);
        // after the keys of child 0, before those of child 1: the keys are out of order
        BTreeV1Writer.Item<Long> between = new Put(25) {
            @Override
            public int compare(Long left, Long right) {
                return left == 10 ? 1 : -1;
            }
        };
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> writer(cache(), root).insert(between));
        assertEquals(new CorruptFileException(path, root, "version 1 B-tree node", "keys",
                "keys in order around child 0", "an item after key 0 and before key 1")
                .getMessage(), e.getMessage());
    }

    @Test
    void aKeyClimbsNoHigherThanTheFirstNodeThatIsNotALastChild() throws IOException {
        TwoLevels tree = twoLevels(2, List.of(List.of(10L, 30L, 50L), List.of(50L, 90L),
                List.of(90L, 130L)));
        long a = tree.leaves()[0];
        long b = tree.leaves()[1];
        long c = tree.leaves()[2];
        MetadataCache cache = cache();
        writer(cache, tree.root()).removeChild(at(40));
        cache.flush();
        expect(a, 0, List.of(10L, 30L), old(30), U, b);
        expect(b, 0, List.of(30L, 90L), old(90), a, c);
        expect(tree.m1(), 1, List.of(10L, 30L, 90L), List.of(a, b), U, tree.m2());
        expect(tree.m2(), 1, List.of(90L, 130L), List.of(c), tree.m1(), U);
        expect(tree.root(), 2, List.of(10L, 90L, 130L), List.of(tree.m1(), tree.m2()), U, U);
    }

    @Test
    void aSplitsRightSiblingOfAnotherLevelIsCorrupt() throws IOException {
        ThreeLeaves tree = threeLeaves(List.of(10L, 20L, 30L, 40L, 50L), List.of(50L, 90L),
                List.of(90L, 130L));
        file.write(tree.b() + BTreeV1Node.LEVEL_OFFSET, new byte[] {1});
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> writer(cache(), tree.root()).insert(new Put(25)));
        assertEquals(new CorruptFileException(path, tree.b() + BTreeV1Node.LEVEL_OFFSET,
                "version 1 B-tree node", "node level", "0 (the level of its left sibling at "
                + tree.a() + ")", "1").getMessage(), e.getMessage());
    }

    @Test
    void aSplitInternalNodeIsWrittenAfterTheChildrenItTakes() throws IOException {
        TwoLevels tree = twoLevels(1, List.of(List.of(10L, 90L),
                List.of(90L, 100L, 110L, 120L, 130L), List.of(130L, 170L), List.of(170L, 210L),
                List.of(210L, 250L)));
        long[] c = Arrays.copyOfRange(tree.leaves(), 1, 5);
        long leafSplit = file.endOfAllocation();
        long split = leafSplit + SIZE;
        MetadataCache cache = cache();
        BTreeV1Writer<Long> writer = writer(cache, tree.root());
        writer.node(c[3]); // in the cache: the node it moves to is written after it
        writer.insert(new Put(105));
        // the new child stays left: the node split off takes c[3] and nothing else changes it
        assertTrue(cache.dependsOn(split, c[3]), "the node split off is written after c[3]");
        cache.flush();
        expect(tree.root(), 2, List.of(10L, 90L, 210L, 250L), List.of(tree.m1(), tree.m2(), split),
                U, U);
        expect(tree.m2(), 1, List.of(90L, 110L, 130L, 170L, 210L),
                List.of(c[0], leafSplit, c[1], c[2]), tree.m1(), split);
        expect(split, 1, List.of(210L, 250L), List.of(c[3]), tree.m2(), U);
    }
}
