package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2Reader;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.FractalHeapHeader;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.LosslessUtf8;

/**
 * Links of a group or attributes of an object stored densely (libhdf5's H5G_dense / H5A_dense):
 * each message in a fractal heap, indexed by a version-2 B-tree of name hashes (Jenkins lookup3
 * of the name's bytes, ties ordered by name) and, when the object indexes creation order, by a
 * second B-tree of creation order.
 *
 * @param <R> the index record
 * @param <M> the message: a link or an attribute
 */
final class DenseMessageStorage<R, M> {

    /** What differs between dense links and dense attributes. */
    interface Kind<R, M> {
        /** "link" or "attribute", for messages. */
        String what();

        BTreeV2RecordFormat<R> nameIndex();

        BTreeV2RecordFormat<R> creationOrderIndex();

        int heapIdLength();

        byte[] heapId(R record);

        /** The name hash of a name-index record, unsigned. */
        long nameHash(R record);

        /** The creation order of a creation-order-index record. */
        long creationOrder(R record);

        /** The message {@code record} points at, whose bytes {@code in} reads. */
        M decode(R record, LittleEndianReader in) throws IOException;

        String name(M message);
    }

    private final BlockFile file;
    private final Kind<R, M> kind;
    private final FractalHeap heap;
    private final BTreeV2Reader<R> names;
    /** Null when creation order is not indexed. */
    private final BTreeV2Reader<R> creationOrder;

    private DenseMessageStorage(BlockFile file, Kind<R, M> kind, FractalHeap heap,
                                BTreeV2Reader<R> names, BTreeV2Reader<R> creationOrder) {
        this.file = file;
        this.kind = kind;
        this.heap = heap;
        this.names = names;
        this.creationOrder = creationOrder;
    }

    /** Opens the heap and indexes an info message points at, reading and checking headers. */
    static <R, M> DenseMessageStorage<R, M> open(BlockFile file, Kind<R, M> kind, long heapAddress,
                                                 long nameIndexAddress,
                                                 long creationOrderIndexAddress)
            throws IOException {
        FractalHeap heap = FractalHeap.open(file, heapAddress);
        heap.requireHeapIdLength(kind.heapIdLength());
        BTreeV2Reader<R> names = BTreeV2Reader.open(file, nameIndexAddress,
                BTreeV2RecordFormat.exactly(kind.nameIndex()));
        BTreeV2Reader<R> creationOrder = Addresses.isDefined(creationOrderIndexAddress)
                ? BTreeV2Reader.open(file, creationOrderIndexAddress,
                        BTreeV2RecordFormat.exactly(kind.creationOrderIndex()))
                : null;
        return new DenseMessageStorage<>(file, kind, heap, names, creationOrder);
    }

    FractalHeap heap() {
        return heap;
    }

    BTreeV2Reader<R> nameIndex() {
        return names;
    }

    /** The creation order index, or null when there is none. */
    BTreeV2Reader<R> creationOrderIndex() {
        return creationOrder;
    }

    /**
     * Every message: in creation order when it is indexed, otherwise ordered by the bytes of
     * their UTF-8 names (libhdf5's and h5py's name order).
     */
    List<M> all() throws IOException {
        List<M> messages = new ArrayList<>();
        if (creationOrder != null) {
            creationOrder.forEach(Comparator.comparingLong(kind::creationOrder), true,
                    record -> messages.add(message(record)));
            return messages;
        }
        names.forEach((a, b) -> Long.compare(kind.nameHash(a), kind.nameHash(b)), false,
                record -> messages.add(namedMessage(record)));
        messages.sort((a, b) -> Arrays.compareUnsigned(storedBytes(kind.name(a)), storedBytes(kind.name(b))));
        return messages;
    }

    /** A message and the bytes the heap stores it as (a header message body, as it is). */
    record Stored<M>(M message, byte[] bytes) {
    }

    /** Every message with its stored bytes, ordered by the bytes of their UTF-8 names. */
    List<Stored<M>> allStored() throws IOException {
        List<Stored<M>> stored = new ArrayList<>();
        names.forEach((a, b) -> Long.compare(kind.nameHash(a), kind.nameHash(b)), false,
                record -> {
                    byte[] bytes = heap.read(kind.heapId(record));
                    stored.add(new Stored<>(decode(record, bytes), bytes));
                });
        stored.sort((a, b) -> Arrays.compareUnsigned(storedBytes(kind.name(a.message())),
                storedBytes(kind.name(b.message()))));
        return stored;
    }

    /** The message named {@code name}, found through the name index, or null. */
    M find(String name) throws IOException {
        byte[] key = storedBytes(name);
        long hash = hash(name);
        Object[] found = {null};
        R record = names.find(r -> {
            int order = Long.compare(kind.nameHash(r), hash);
            if (order != 0) {
                return order;
            }
            M message = namedMessage(r);
            found[0] = message;
            return Arrays.compareUnsigned(storedBytes(kind.name(message)), key);
        });
        @SuppressWarnings("unchecked")
        M message = record == null ? null : (M) found[0];
        return message;
    }

    /**
     * Reads and checks everything, for verification, each block once: every node of the name
     * index; every heap block, with the messages in it read while it is in memory, and every
     * node of the heap's huge-object index; each message's name must hash to its record's hash
     * ({@link #namedMessage}) and be unique; as many objects in the heap as messages; and, if
     * there is one, every node of the creation order index, with a message for every name.
     *
     * @return the messages, in name index order
     */
    List<M> verify() throws IOException {
        List<R> records = new ArrayList<>();
        names.forEach((a, b) -> Long.compare(kind.nameHash(a), kind.nameHash(b)), false,
                records::add);
        List<M> messages = readInHeapOrder(records);
        Set<String> seen = new HashSet<>();
        for (M message : messages) {
            String name = kind.name(message);
            if (!seen.add(name)) {
                throw corrupt(names, kind.what() + " name", "names used once",
                        "\"" + name + "\" twice");
            }
        }
        if (creationOrder != null) {
            Map<ByteBuffer, String> namesByHeapId = new HashMap<>();
            for (int i = 0; i < records.size(); i++) {
                namesByHeapId.put(ByteBuffer.wrap(kind.heapId(records.get(i))),
                        kind.name(messages.get(i)));
            }
            verifyCreationOrderIndex(namesByHeapId);
        }
        if (seen.size() != heap.header().objects()) {
            throw new CorruptFileException(file.path(), heap.address(),
                    FractalHeapHeader.IDENTITY.structure(), "managed, huge and tiny objects",
                    seen.size() + " (the " + kind.what() + "s indexed)",
                    Long.toUnsignedString(heap.header().objects()));
        }
        return messages;
    }

    /**
     * The messages of name index {@code records}, in their order, read block by block as
     * {@link FractalHeap#forEachBlock} verifies the heap, so no block is read twice.
     */
    private List<M> readInHeapOrder(List<R> records) throws IOException {
        List<M> messages = new ArrayList<>(Collections.nCopies(records.size(), null));
        Integer[] byOffset = new Integer[records.size()];
        long[] offsets = new long[records.size()];
        for (int i = 0; i < records.size(); i++) {
            byOffset[i] = i;
            offsets[i] = heap.managedOffset(kind.heapId(records.get(i)));
        }
        Arrays.sort(byOffset, Comparator.comparingLong(i -> offsets[i]));
        int[] next = {0};
        while (next[0] < byOffset.length && offsets[byOffset[next[0]]] < 0) {
            next[0]++; // huge and tiny objects: read after the walk
        }
        heap.forEachBlock((address, direct, blockOffset, size) -> {
            if (!direct) {
                return; // its size is its own, not that of the heap space below it
            }
            for (; next[0] < byOffset.length && offsets[byOffset[next[0]]] < blockOffset + size;
                 next[0]++) {
                int i = byOffset[next[0]];
                messages.set(i, namedMessage(records.get(i)));
            }
        });
        heap.verifyHugeObjectIndex();
        for (int i = 0; i < records.size(); i++) {
            if (messages.get(i) == null) {
                messages.set(i, namedMessage(records.get(i))); // huge, tiny, outside every block
            }
        }
        return messages;
    }

    /** Every creation order record must point at a message of the name index, once. */
    private void verifyCreationOrderIndex(Map<ByteBuffer, String> namesByHeapId)
            throws IOException {
        Set<ByteBuffer> seen = new HashSet<>();
        creationOrder.forEach(Comparator.comparingLong(kind::creationOrder), true, record -> {
            ByteBuffer heapId = ByteBuffer.wrap(kind.heapId(record));
            if (!namesByHeapId.containsKey(heapId) || !seen.add(heapId)) {
                throw corrupt(creationOrder, kind.what() + " heap ID", "one of a "
                        + kind.what() + " in the name index, used once", HexFormat.of()
                        .formatHex(heapId.array()) + (seen.contains(heapId) ? " again" : ""));
            }
        });
        if (seen.size() != namesByHeapId.size()) {
            throw corrupt(creationOrder, "records", namesByHeapId.size()
                    + " (as in the name index)", Integer.toString(seen.size()));
        }
    }

    private CorruptFileException corrupt(BTreeV2Reader<R> index, String field, String expected,
                                         String found) {
        return new CorruptFileException(file.path(), index.address(),
                BTreeV2Header.IDENTITY.structure(), field, expected, found);
    }

    private static long hash(String name) {
        byte[] key = storedBytes(name);
        return JenkinsLookup3.hashLittle(key, 0, key.length, 0) & 0xffffffffL;
    }

    /**
     * The message a name index record points at, whose name must hash to the record's hash:
     * otherwise a lookup by that name would not find the message that was listed.
     */
    private M namedMessage(R record) throws IOException {
        M message = message(record);
        String name = kind.name(message);
        if (hash(name) != kind.nameHash(record)) {
            throw corrupt(names, "name hash", "lookup3 of \"" + name + "\": " + hash(name),
                    Long.toString(kind.nameHash(record)));
        }
        return message;
    }

    private M message(R record) throws IOException {
        return decode(record, heap.read(kind.heapId(record)));
    }

    private M decode(R record, byte[] bytes) throws IOException {
        return kind.decode(record, new LittleEndianReader(file.path(), heap.address(),
                "dense " + kind.what() + " message in fractal heap", bytes));
    }

    private static byte[] storedBytes(String text) {
        return LosslessUtf8.encode(text);
    }
}
