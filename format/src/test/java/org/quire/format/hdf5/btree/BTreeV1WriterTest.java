package org.quire.format.hdf5.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The writer on group (type 0) trees, with names and symbol table nodes kept in memory (the
 * local heap and the nodes themselves are {@code SymbolTable}'s; h5py checks those files): the
 * keys are heap offsets compared by name as libhdf5's H5Gnode.c does (key 0 the empty name, key
 * i the largest name under child i - 1, an item going to the child whose keys hold it, to the
 * last child when it is beyond every key), a symbol table node of 4 names splits in halves.
 * Nodes of 4 children (K 2) split as libhdf5's ratios say; the tree grows to four levels with
 * its root where it was, every node read back from the file after a flush through a cache small
 * enough to evict nodes while the tree grows.
 */
class BTreeV1WriterTest {

    private static final int K = 2;
    private static final int NODE_CAPACITY = 4;

    @TempDir
    Path dir;

    /** A group: its "local heap" (offset to name) and "symbol table nodes" (address to names). */
    private static final class Names {
        final Map<Long, String> heap = new HashMap<>();
        final Map<String, Long> offsets = new HashMap<>();
        final Map<Long, TreeSet<String>> nodes = new HashMap<>();
        final BlockFile file;

        Names(BlockFile file) {
            this.file = file;
            offset("");
        }

        long offset(String name) {
            return offsets.computeIfAbsent(name, n -> {
                long at = 8L * heap.size();
                heap.put(at, n);
                return at;
            });
        }

        String name(long offset) {
            return heap.get(offset);
        }

        /** A new symbol table node holding {@code names}: space at the end of the file. */
        long newNode(TreeSet<String> names) {
            long address = file.allocate(328);
            nodes.put(address, names);
            return address;
        }
    }

    /** Inserting one name (libhdf5's H5G__node_cmp3 and H5G__node_insert, in memory). */
    private record NameInsertion(Names names, String name)
            implements BTreeV1Writer.Item<Long> {

        @Override
        public int compare(Long left, Long right) {
            if (name.compareTo(names.name(left)) <= 0) {
                return -1;
            }
            return name.compareTo(names.name(right)) > 0 ? 1 : 0;
        }

        @Override
        public BTreeV1Writer.LeafChange<Long> insert(Long left, long child, Long right,
                                                    BTreeV1Writer.Edge edge) {
            long offset = names.offset(name);
            Long newRight = name.compareTo(names.name(right)) > 0 ? offset : null;
            TreeSet<String> node = names.nodes.get(child);
            if (node.size() < NODE_CAPACITY) {
                node.add(name);
                return new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED, newRight, null,
                        Addresses.UNDEFINED);
            }
            List<String> all = new ArrayList<>(node);
            TreeSet<String> upper = new TreeSet<>(all.subList(NODE_CAPACITY / 2, NODE_CAPACITY));
            node.removeAll(upper);
            (name.compareTo(node.last()) <= 0 ? node : upper).add(name);
            return new BTreeV1Writer.LeafChange<>(null, Addresses.UNDEFINED, newRight,
                    names.offset(node.last()), names.newNode(upper));
        }
    }

    private record Group(Storage storage, BlockFile file, MetadataCache cache, Names names,
                         long root) {
        BTreeV1Writer<Long> writer() {
            return new BTreeV1Writer<>(file, cache, BTreeV1Node.GROUP_KEYS, K, root);
        }

        BTreeV1Node<Long> read(long address) throws IOException {
            return BTreeV1Node.read(file, address, BTreeV1Node.GROUP_KEYS, K);
        }
    }

    /** A file holding a group tree of one leaf pointing at one symbol table node with "a". */
    private Group group(String fileName, long cacheBytes) throws IOException {
        Storage storage = FileStorage.open(dir.resolve(fileName), OpenMode.CREATE_NEW);
        BlockFile file = new BlockFile(storage);
        file.allocate(96); // a superblock's place: the root is not at address 0
        Names names = new Names(file);
        long root = file.allocate(BTreeV1Node.size(K, BTreeV1Node.GROUP_KEYS.keySize()));
        long first = names.newNode(new TreeSet<>(List.of("a")));
        BTreeV1Node<Long> leaf = new BTreeV1Node<>(root, 0, List.of(0L, names.offset("a")),
                new long[] {first}, Addresses.UNDEFINED, Addresses.UNDEFINED);
        file.write(root, leaf.encode(BTreeV1Node.GROUP_KEYS, K));
        return new Group(storage, file, new MetadataCache(storage, cacheBytes, Durability.NONE),
                names, root);
    }

    @Test
    void theFirstRootSplitKeepsThreeOfFourLikeLibhdf5() throws IOException {
        Group group = group("first-split.h5", 1 << 20);
        try (Storage ignored = group.storage()) {
            BTreeV1Writer<Long> writer = group.writer();
            // "b".."k" one by one: each full symbol table node splits, the B-tree gets a fifth
            // child and its root (no siblings: libhdf5's right ratio 0.9) keeps 3 of 4
            for (char c = 'b'; c <= 'k'; c++) {
                writer.insert(new NameInsertion(group.names(), Character.toString(c)));
            }
            group.cache().flush();
            BTreeV1Node<Long> root = group.read(group.root());
            assertEquals(1, root.level());
            BTreeV1Node<Long> left = group.read(root.children()[0]);
            BTreeV1Node<Long> right = group.read(root.children()[1]);
            assertEquals(3, left.entries());
            assertEquals(2, right.entries());
            assertEquals(right.address(), left.rightSibling());
            assertEquals(left.address(), right.leftSibling());
            assertTrue(left.address() > right.address(), "the root's copy is allocated after "
                    + "the node split off it, as libhdf5 does");
            assertEquals(left.keys().get(3), right.keys().get(0));
            assertEquals(List.of("", group.names().name(left.keys().get(3)), "k").toString(),
                    names(group, root.keys()).toString());
        }
    }

    @Test
    void shuffledNamesGrowATreeOfFourLevels() throws IOException {
        Group group = group("shuffled.h5", 4 << 10);
        List<String> inserted = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            inserted.add(String.format("n%03d", i));
        }
        Collections.shuffle(inserted, new Random(3));
        try (Storage ignored = group.storage()) {
            BTreeV1Writer<Long> writer = group.writer();
            for (String name : inserted) {
                writer.insert(new NameInsertion(group.names(), name));
            }
            group.cache().flush();
            List<String> found = new ArrayList<>();
            BTreeV1Node<Long> root = group.read(group.root());
            assertTrue(root.level() >= 3, "level " + root.level());
            assertEquals("", group.names().name(root.keys().get(0)));
            List<BTreeV1Node<Long>> level = List.of(root);
            while (!level.isEmpty()) {
                level = checkLevel(group, level, found);
            }
            inserted.add("a");
            Collections.sort(inserted);
            assertEquals(inserted, found);
        }
    }

    @Test
    void aNodeOfTheWrongLevelIsCorrupt() throws IOException {
        Group group = group("levels.h5", 1 << 20);
        try (Storage ignored = group.storage()) {
            for (char c = 'b'; c <= 'k'; c++) {
                group.writer().insert(new NameInsertion(group.names(), Character.toString(c)));
            }
            group.cache().flush();
            BTreeV1Node<Long> root = group.read(group.root());
            long child = root.children()[0];
            group.file().write(child + BTreeV1Node.LEVEL_OFFSET, new byte[] {1});
            MetadataCache fresh = new MetadataCache(group.storage(), 1 << 20, Durability.NONE);
            BTreeV1Writer<Long> writer = new BTreeV1Writer<>(group.file(), fresh,
                    BTreeV1Node.GROUP_KEYS, K, group.root());
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> writer.insert(new NameInsertion(group.names(), "b1")));
            assertEquals(child + BTreeV1Node.LEVEL_OFFSET, e.offset());
        }
    }

    @Test
    void aDamagedNeighbourFailsARemovalBeforeAnyChange() throws IOException {
        Group group = group("remove-checked.h5", 1 << 20);
        try (Storage ignored = group.storage()) {
            for (char c = 'b'; c <= 'k'; c++) {
                group.writer().insert(new NameInsertion(group.names(), Character.toString(c)));
            }
            group.cache().flush();
            BTreeV1Node<Long> root = group.read(group.root());
            BTreeV1Node<Long> left = group.read(root.children()[0]);
            long right = root.children()[1];
            // dropping the left leaf's last child puts its new right key into the right leaf
            group.file().write(right + BTreeV1Node.LEVEL_OFFSET, new byte[] {1});
            MetadataCache fresh = new MetadataCache(group.storage(), 1 << 20, Durability.NONE);
            BTreeV1Writer<Long> writer = new BTreeV1Writer<>(group.file(), fresh,
                    BTreeV1Node.GROUP_KEYS, K, group.root());
            String last = group.names().name(left.keys().get(left.entries()));
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> writer.removeChild(new NameInsertion(group.names(), last)));
            assertEquals(right + BTreeV1Node.LEVEL_OFFSET, e.offset());
            for (BTreeV1Node<Long> node : List.of(root, left)) {
                assertArrayEquals(node.encode(BTreeV1Node.GROUP_KEYS, K), writer.node(
                        node.address()).encode(BTreeV1Node.GROUP_KEYS, K), "changed nothing");
            }
        }
    }

    /**
     * Checks one level left to right: sibling links in order, keys ascending, each node's keys
     * equal to its parent's around it, at level 0 each symbol table node's names between its
     * keys, the last the right key; adds the names found and returns the level below.
     */
    private static List<BTreeV1Node<Long>> checkLevel(Group group, List<BTreeV1Node<Long>> level,
                                                      List<String> found) throws IOException {
        List<BTreeV1Node<Long>> below = new ArrayList<>();
        long previous = Addresses.UNDEFINED;
        for (int n = 0; n < level.size(); n++) {
            BTreeV1Node<Long> node = level.get(n);
            assertEquals(previous, node.leftSibling(), "left sibling of " + node.address());
            assertEquals(n + 1 < level.size() ? level.get(n + 1).address() : Addresses.UNDEFINED,
                    node.rightSibling(), "right sibling of " + node.address());
            previous = node.address();
            List<String> keys = names(group, node.keys());
            for (int i = 0; i < node.entries(); i++) {
                assertTrue(keys.get(i).compareTo(keys.get(i + 1)) < 0, keys.toString());
                if (node.level() > 0) {
                    BTreeV1Node<Long> child = group.read(node.children()[i]);
                    assertEquals(node.level() - 1, child.level());
                    assertEquals(node.keys().get(i), child.keys().get(0));
                    assertEquals(node.keys().get(i + 1), child.keys().get(child.entries()));
                    below.add(child);
                } else {
                    TreeSet<String> names = group.names().nodes.get(node.children()[i]);
                    assertEquals(keys.get(i + 1), names.last());
                    assertTrue(names.first().compareTo(keys.get(i)) > 0);
                    found.addAll(names);
                }
            }
        }
        return below;
    }

    private static List<String> names(Group group, List<Long> keys) {
        List<String> names = new ArrayList<>();
        for (long key : keys) {
            names.add(group.names().name(key));
        }
        return names;
    }
}
