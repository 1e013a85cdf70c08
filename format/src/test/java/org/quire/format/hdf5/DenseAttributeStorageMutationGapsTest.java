package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.BTreeV2AttributeRecord;
import org.quire.format.hdf5.layout.BTreeV2Header;
import org.quire.format.hdf5.layout.BTreeV2LeafNode;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Dense attribute storage h5py wrote (committed {@code dense.h5}) with a B-tree record changed
 * as a buggy writer would leave it, checksums right: what listing and {@link
 * DenseMessageStorage#verify} then report. /ordered's 10 attributes are indexed by name and
 * creation order, /with_attributes' 12 by name only; each index is one leaf.
 */
class DenseAttributeStorageMutationGapsTest {

    private static final Path INTACT = H5pyFixtures.committed(H5pyFixtures.DENSE, "dense.h5");

    @TempDir
    static Path dir;

    private static Hdf5Object object(Hdf5File file, String path) throws IOException {
        return path.equals("/ordered") ? file.root().group("ordered")
                : file.root().dataset(path.substring(1));
    }

    /**
     * A copy of dense.h5 whose attribute index (by creation order or by name) of {@code path}
     * holds the records {@code change} makes of its records; its header counts them.
     */
    private static Path damaged(String name, String path, boolean creationOrder,
                                UnaryOperator<List<BTreeV2AttributeRecord>> change)
            throws IOException {
        long treeAddress;
        try (Hdf5File file = Hdf5File.open(INTACT)) {
            DenseMessageStorage<BTreeV2AttributeRecord, ?> dense =
                    object(file, path).denseAttributes();
            treeAddress = (creationOrder ? dense.creationOrderIndex() : dense.nameIndex())
                    .address();
        }
        Path copy = dir.resolve(name);
        Files.copy(INTACT, copy);
        try (BlockFile blocks = new BlockFile(FileStorage.open(copy, OpenMode.READ_WRITE))) {
            BTreeV2Header<BTreeV2AttributeRecord> header = BTreeV2Header.read(blocks,
                    treeAddress, BTreeV2RecordFormat.exactly(creationOrder
                            ? BTreeV2AttributeRecord.CREATION_ORDER : BTreeV2AttributeRecord.NAME));
            assertEquals(0, header.depth());
            List<BTreeV2AttributeRecord> records = change.apply(new ArrayList<>(
                    BTreeV2LeafNode.read(blocks, header.rootAddress(), header.format(),
                            header.geometry(), header.rootRecords()).records()));
            blocks.write(header.rootAddress(), new BTreeV2LeafNode<>(records)
                    .encode(header.format(), header.geometry()));
            blocks.write(treeAddress, new BTreeV2Header<>(header.format(), header.nodeSize(),
                    0, header.splitPercent(), header.mergePercent(), header.rootAddress(),
                    records.size(), records.size()).encode());
        }
        return copy;
    }

    private static CorruptFileException verifyFails(Path file, String path) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Hdf5Object object = object(hdf5, path);
            return assertThrows(CorruptFileException.class,
                    () -> object.denseAttributes().verify());
        }
    }

    /** Verifying {@code path}'s dense attributes in {@code file} fails at {@code field}. */
    private static void assertVerifyFails(Path file, String path, String field, String expected,
                                          String found) throws IOException {
        CorruptFileException e = verifyFails(file, path);
        assertEquals(field, e.field(), e.getMessage());
        assertEquals(expected, e.expected());
        assertEquals(found, e.found());
    }

    /** The name of /with_attributes' first attribute in the name index of the intact file. */
    private static String firstIndexedName() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(INTACT)) {
            return ((Hdf5Object.StoredAttribute) hdf5.root().dataset("with_attributes")
                    .denseAttributes().verify().get(0)).name();
        }
    }

    private static String hex(BTreeV2AttributeRecord record) {
        return HexFormat.of().formatHex(record.heapId());
    }

    @Test
    void aCreationOrderRecordUsedTwiceIsCorrupt() throws IOException {
        List<BTreeV2AttributeRecord> kept = new ArrayList<>();
        Path file = damaged("order-twice.h5", "/ordered", true, records -> {
            BTreeV2AttributeRecord second = records.get(1);
            records.set(1, new BTreeV2AttributeRecord(records.get(0).heapId(),
                    second.messageFlags(), second.creationOrder(), second.nameHash()));
            kept.add(records.get(0));
            return records;
        });
        assertVerifyFails(file, "/ordered", "attribute heap ID",
                "one of a attribute in the name index, used once", hex(kept.get(0)) + " again");
    }

    @Test
    void aCreationOrderRecordOfNoIndexedAttributeIsCorrupt() throws IOException {
        List<BTreeV2AttributeRecord> stray = new ArrayList<>();
        Path file = damaged("order-stray.h5", "/ordered", true, records -> {
            BTreeV2AttributeRecord last = records.get(records.size() - 1);
            byte[] id = last.heapId();
            id[id.length - 1] ^= 0x40;
            records.set(records.size() - 1, new BTreeV2AttributeRecord(id,
                    last.messageFlags(), last.creationOrder(), last.nameHash()));
            stray.add(records.get(records.size() - 1));
            return records;
        });
        CorruptFileException e = verifyFails(file, "/ordered");
        assertEquals("attribute heap ID", e.field(), e.getMessage());
        assertEquals(hex(stray.get(0)), e.found());
    }

    /** One attribute missing from the creation order: listed without it, verification fails. */
    @Test
    void aCreationOrderIndexMissingARecordIsCorrupt() throws IOException {
        Path file = damaged("order-short.h5", "/ordered", true,
                records -> new ArrayList<>(records.subList(0, records.size() - 1)));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals(List.of("z", "y", "x", "a", "b", "c", "m", "n", "o"),
                    hdf5.root().group("ordered").attributeNames());
        }
        assertVerifyFails(file, "/ordered", "records", "10 (as in the name index)", "9");
    }

    /** The name index missing an attribute the heap holds: more heap objects than names. */
    @Test
    void aNameIndexMissingAnAttributeOfTheHeapIsCorrupt() throws IOException {
        Path file = damaged("name-short.h5", "/with_attributes", false,
                records -> new ArrayList<>(records.subList(1, records.size())));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals(11, hdf5.root().dataset("with_attributes").attributeNames().size());
        }
        assertVerifyFails(file, "/with_attributes", "managed, huge and tiny objects",
                "11 (the attributes indexed)", "12");
    }

    @Test
    void aNameIndexedTwiceIsCorrupt() throws IOException {
        Path file = damaged("name-twice.h5", "/with_attributes", false, records -> {
            records.set(1, records.get(0));
            return records;
        });
        assertVerifyFails(file, "/with_attributes", "attribute name", "names used once",
                "\"" + firstIndexedName() + "\" twice");
    }

    /** An attribute record marking its message shared (libhdf5's shared messages): refused. */
    @Test
    void aSharedAttributeMessageInTheHeapIsUnsupported() throws IOException {
        Path file = damaged("shared.h5", "/with_attributes", false, records -> {
            BTreeV2AttributeRecord first = records.get(0);
            records.set(0, new BTreeV2AttributeRecord(first.heapId(),
                    first.messageFlags() | HeaderMessage.FLAG_SHARED, first.creationOrder(),
                    first.nameHash()));
            return records;
        });
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset dataset = hdf5.root().dataset("with_attributes");
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    dataset::attributeNames);
            assertEquals("a shared message", e.found(), e.getMessage());
            assertEquals("attribute messages stored in the heap", e.supported());
        }
    }
    /**
     * A name record pointing at another attribute's message: listing, and looking up the name
     * it indexes, fail at the name hash naming the object.
     */
    @Test
    void aNameRecordPointingAtAnotherAttributeIsCorruptNamingTheObject() throws IOException {
        String first = firstIndexedName();
        Path file = damaged("misdirected.h5", "/with_attributes", false, records -> {
            BTreeV2AttributeRecord head = records.get(0);
            records.set(0, new BTreeV2AttributeRecord(records.get(1).heapId(),
                    head.messageFlags(), head.creationOrder(), head.nameHash()));
            return records;
        });
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset dataset = hdf5.root().dataset("with_attributes");
            for (org.junit.jupiter.api.function.Executable read : List.<
                    org.junit.jupiter.api.function.Executable>of(dataset::attributeNames,
                    () -> dataset.attribute(first))) {
                CorruptFileException e = assertThrows(CorruptFileException.class, read);
                assertEquals("name hash", e.field(), e.getMessage());
                assertEquals("/with_attributes", e.object(), e.getMessage());
            }
        }
    }
    /**
     * Name records out of hash order: listing (by name or, for verification and rewriting a
     * dense storage, with the stored bytes) fails at the record order.
     */
    @Test
    void nameRecordsOutOfHashOrderAreCorrupt() throws IOException {
        Path file = damaged("unordered.h5", "/with_attributes", false, records -> {
            records.add(0, records.remove(1));
            return records;
        });
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset dataset = hdf5.root().dataset("with_attributes");
            DenseMessageStorage<?, ?> dense = dataset.denseAttributes();
            for (org.junit.jupiter.api.function.Executable read : List.<
                    org.junit.jupiter.api.function.Executable>of(dataset::attributeNames,
                    dense::verify, dense::allStored)) {
                CorruptFileException e = assertThrows(CorruptFileException.class, read);
                assertEquals("record order", e.field(), e.getMessage());
            }
        }
    }

    /** Every attribute with the bytes the heap stores, in the order of their names' bytes. */
    @Test
    void allStoredGivesEachAttributeWithItsHeapBytesInNameOrder() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(INTACT)) {
            DenseMessageStorage<BTreeV2AttributeRecord, Hdf5Object.StoredAttribute> dense =
                    hdf5.root().dataset("with_attributes").denseAttributes();
            List<DenseMessageStorage.Stored<Hdf5Object.StoredAttribute>> stored =
                    dense.allStored();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                names.add(String.format("attr_%02d", i));
            }
            assertEquals(names, stored.stream().map(s -> s.message().name()).toList());
            for (DenseMessageStorage.Stored<Hdf5Object.StoredAttribute> one : stored) {
                Attribute decoded = AttributeMessages.decode(new org.quire.format.hdf5.layout
                        .LittleEndianReader(hdf5.path(), 0, "attribute", one.bytes()),
                        null);
                assertEquals(one.message().name(), decoded.name());
                assertEquals(HexFormat.of().formatHex(one.message().attribute().data()),
                        HexFormat.of().formatHex(decoded.data()));
            }
        }
    }
}
