package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.DataLayout;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * The flush order of what groups and datasets point at (docs/hdf5.md, "Metadata cache and flush
 * order"): before the first flush, each object header is written only after what its messages
 * name — a dataset's after its chunk index (a new dataset, one of a reopened file whose index
 * header the opening read, a single chunk's layout after a write), a string or virtual dataset's after the global heap collection
 * holding its strings or mappings, a group's after each new member's header. A crash between the
 * two writes then leaves no header pointing at unwritten bytes.
 */
class FlushOrderMutationGapsTest {

    @TempDir
    Path dir;

    private static void assertWrittenAfter(MetadataCache cache, Hdf5Object parent, long child,
                                           String what) {
        assertTrue(Addresses.isDefined(child), what);
        assertTrue(cache.dependsOn(parent.address(), child), parent.path() + " after " + what);
    }

    @Test
    void aDatasetHeaderIsWrittenAfterItsChunkIndex() throws IOException {
        Path path = dir.resolve("index.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset fixed = file.root().createDataset("fixed", DatasetSpec.builder(
                    Datatype.INT64, 8).chunkShape(2).build());
            assertWrittenAfter(file.cache(), fixed, fixed.chunkIndex().address(),
                    "the fixed array");
            Dataset growing = file.root().createDataset("growing", DatasetSpec.builder(
                    Datatype.INT64, 8).maxShape(DatasetSpec.UNLIMITED).chunkShape(2).build());
            assertWrittenAfter(file.cache(), growing, growing.chunkIndex().address(),
                    "the extensible array");
            Dataset single = file.root().createDataset("single", DatasetSpec.builder(
                    Datatype.INT64, 4).build());
            single.write(new long[] {0}, new long[] {4}, new long[] {1, 2, 3, 4});
            assertWrittenAfter(file.cache(), single, single.chunkIndex().address(),
                    "the single chunk");
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            // Opening the dataset for writing reads the extensible array's header.
            Dataset growing = file.root().dataset("growing");
            assertWrittenAfter(file.cache(), growing, growing.chunkIndex().address(),
                    "the extensible array read again");
            Dataset single = file.root().dataset("single");
            single.write(new long[] {1}, new long[] {1}, new long[] {20});
            assertWrittenAfter(file.cache(), single, single.chunkIndex().address(),
                    "the single chunk rewritten");
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {1, 20, 3, 4}, file.root().dataset("single")
                    .readLongs(new long[] {0}, new long[] {4}));
        }
    }

    @Test
    void aGroupHeaderIsWrittenAfterItsNewMembersAndHeapDataAfterTheirHeaders()
            throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("members.h5"))) {
            Group root = file.root();
            Group g = root.createGroup("g");
            assertWrittenAfter(file.cache(), root, g.address(), "/g");
            Dataset s = g.createStringDataset("s", new long[] {2}, List.of("x", "yz"));
            assertWrittenAfter(file.cache(), g, s.address(), "/g/s");
            byte[] id = new byte[GlobalHeapId.SIZE];
            s.read(new long[] {0}, new long[] {1}).get(id);
            long strings = GlobalHeapId.decode(file.path(), Addresses.UNDEFINED, id, 0)
                    .collectionAddress();
            assertWrittenAfter(file.cache(), s, strings, "the strings' collection");
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {2}, null,
                    List.of(VirtualMapping.sameFile("/src", DataspaceSelection.all(),
                            DataspaceSelection.all())));
            int layout = v.header.handleOf(DataLayoutMessage.TYPE);
            DataLayout.Virtual mappings = (DataLayout.Virtual) DataLayout.decode(v.header
                    .messages().get(layout).reader(file.path(), "data layout message"));
            assertWrittenAfter(file.cache(), v, mappings.heapAddress(),
                    "the mappings' collection");
        }
    }

    /**
     * In an old-style group (a copy of legacy.h5's /nested, one symbol table node) a new link's
     * node is written after the local heap holding its name.
     */
    @Test
    void aSymbolTableNodeIsWrittenAfterTheHeapHoldingItsNames() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group nested = file.root().group("nested");
            nested.createGroup("a");
            SymbolTableMessage table = nested.symbolTable();
            BTreeV1Node<Long> root = BTreeV1Node.read(file.blocks(), table.bTreeAddress(),
                    BTreeV1Node.GROUP_KEYS, file.ranks().groupInternalNodeK());
            assertEquals(0, root.level());
            assertTrue(file.cache().dependsOn(root.children()[0], table.localHeapAddress()),
                    "the symbol table node after the local heap");
        }
    }
}
