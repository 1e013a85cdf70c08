package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;

/**
 * Version-1 B-tree node, specification section III.A.1: type 0 (an old-style group's symbol
 * table nodes, keyed by name offsets in its local heap) or type 1 (a version-3 layout's chunks,
 * keyed by {@link BTreeV1ChunkKey}). A node with {@code n} children holds {@code n + 1} keys;
 * child {@code i} lies between keys {@code i} and {@code i + 1}. Nodes are stored at their full
 * capacity of 2K children; no checksum.
 *
 * <pre>
 * +--------+-----------+------------+------------------+------------------+-------------------+
 * | "TREE" | node type | node level | entries used (2) | left sibling (8) | right sibling (8) |
 * |        | (0 or 1)  | (0: leaf)  |                  |                  |                   |
 * +--------+-----------+------------+------------------+------------------+-------------------+
 * | key 0 | child 0 (8) | key 1 | child 1 (8) | ... | key 2K      (keys of the type's size)   |
 * +-------+-------------+-------+-------------+-----+-------------------------------------------+
 * children of a level-0 node: symbol table nodes (type 0) or chunks (type 1);
 * of a higher level: nodes of the level below. Unused key and child slots are zeros.
 * </pre>
 *
 * @param leftSibling the node left of this one at its level, or undefined
 * @param rightSibling the node right of this one at its level, or undefined
 * @param <K> the key of the node type
 */
public record BTreeV1Node<K>(long address, int level, List<K> keys, long[] children,
                             long leftSibling, long rightSibling) {

    static final BlockIdentity IDENTITY = new BlockIdentity("version 1 B-tree node",
            "TREE".getBytes(StandardCharsets.US_ASCII), BlockIdentity.NO_VERSION);
    /** Offsets in a node of the "node level" and "entries used" fields. */
    public static final int LEVEL_OFFSET = 5;
    public static final int ENTRIES_USED_OFFSET = 6;
    private static final int PREFIX_SIZE = 8 + 2 * Addresses.SIZE_OF_OFFSETS;

    /** Offset in a node of the address of child {@code i}, with keys of {@code keySize}. */
    public static int childFieldOffset(int i, int keySize) {
        return PREFIX_SIZE + (i + 1) * keySize + i * Addresses.SIZE_OF_OFFSETS;
    }

    /** The key of one node type. */
    public interface KeyFormat<K> {
        /** The node type this key belongs to (0 groups, 1 chunks). */
        int nodeType();

        int keySize();

        K decode(LittleEndianReader in) throws CorruptFileException;

        /** Writes {@code key} in exactly {@link #keySize} bytes. */
        void encode(K key, LittleEndianWriter out);
    }

    /** Type 0 keys: the offset in the group's local heap of a member name. */
    public static final KeyFormat<Long> GROUP_KEYS = new KeyFormat<>() {
        @Override
        public int nodeType() {
            return 0;
        }

        @Override
        public int keySize() {
            return Addresses.SIZE_OF_LENGTHS;
        }

        @Override
        public Long decode(LittleEndianReader in) throws CorruptFileException {
            return in.getLength("name offset key");
        }

        @Override
        public void encode(Long key, LittleEndianWriter out) {
            out.putLength(key);
        }
    };

    /** Bytes of a node of 2 x {@code k} children with keys of {@code keySize} bytes. */
    public static int size(int k, int keySize) {
        return PREFIX_SIZE + 2 * k * Addresses.SIZE_OF_OFFSETS + (2 * k + 1) * keySize;
    }

    public int entries() {
        return children.length;
    }

    /**
     * Reads the node at {@code address}, whose type must be {@code format}'s and which holds at
     * most 2 x {@code k} children.
     */
    public static <K> BTreeV1Node<K> read(BlockFile file, long address, KeyFormat<K> format,
                                          int k) throws IOException {
        byte[] block = file.read(address, size(k, format.keySize()), IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, block, IDENTITY);
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), block);
        in.skip(IDENTITY.prefixLength());
        int type = in.getUnsignedByte("node type");
        if (type != format.nodeType()) {
            throw in.corrupt(address + IDENTITY.prefixLength(), "node type", Integer.toString(format.nodeType()),
                    Integer.toString(type));
        }
        int level = in.getUnsignedByte("node level");
        int entries = in.getCount(2, 2 * k, "entries used");
        long left = in.getAddress("left sibling address");
        long right = in.getAddress("right sibling address");
        List<K> keys = new ArrayList<>(entries + 1);
        long[] children = new long[entries];
        for (int i = 0; i < entries; i++) {
            keys.add(format.decode(in));
            children[i] = in.getAddress("child address");
        }
        keys.add(format.decode(in));
        file.countChecked(IDENTITY.structure());
        return new BTreeV1Node<>(address, level, keys, children, left, right);
    }

    /**
     * The node's image: {@link #size} bytes for 2 x {@code k} children, unused slots zero (as
     * libhdf5 writes them, so a node read and encoded again is the same bytes).
     */
    public byte[] encode(KeyFormat<K> format, int k) {
        if (children.length > 2 * k || keys.size() != children.length + 1) {
            throw new IllegalStateException("a node of " + children.length + " children and "
                    + keys.size() + " keys in nodes of at most " + 2 * k);
        }
        int size = size(k, format.keySize());
        LittleEndianWriter out = new LittleEndianWriter(size);
        out.putBytes(IDENTITY.signature()).putByte(format.nodeType()).putByte(level)
                .putShort(children.length).putAddress(leftSibling).putAddress(rightSibling);
        for (int i = 0; i < children.length; i++) {
            format.encode(keys.get(i), out);
            out.putAddress(children[i]);
        }
        format.encode(keys.get(children.length), out);
        out.putZeros(size - out.position());
        return out.toByteArray();
    }

    /**
     * Fails unless this node, reached from {@code parent}, is one level below it: anything else
     * is a damaged tree (and could loop).
     */
    public void requireChildOf(BTreeV1Node<?> parent, Path file)
            throws CorruptFileException {
        if (level != parent.level - 1) {
            throw new CorruptFileException(file, address + LEVEL_OFFSET, IDENTITY.structure(),
                    "node level",
                    (parent.level - 1) + " (one below its parent at " + parent.address + ")",
                    Integer.toString(level));
        }
    }
}
