package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.MetadataValidator;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.StorageOpener;

/**
 * An SWMR reader's commit point: a refresh with nothing new is one read and no size query; an
 * extend is decoded from the one read of the block; a block whose checksum fails, or in which
 * anything besides the dataspace changed, is left to the full read of the header.
 */
class CommitPointTest {

    @TempDir
    Path dir;

    /** A writer's dataset extended to {@code first} and a reader watching its commit point. */
    private record Watched(Hdf5File writer, Dataset written, Hdf5File reader, CommitPoint point,
                           ObjectHeaderV2.StoredChunk block, HeaderMessage space) {
    }

    private Watched watch(Path path) throws IOException {
        Hdf5File writer = Hdf5File.create(path);
        Dataset written = writer.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
        writer.startSwmrWrite();
        Hdf5File reader = Hdf5File.openSwmr(path);
        ObjectHeaderV2.StoredHeader stored = reader.storedHeaderV2(written.address());
        CommitPoint point = CommitPoint.of(stored);
        for (ObjectHeaderV2.StoredChunk chunk : stored.chunks()) {
            for (HeaderMessage message : chunk.messages()) {
                if (message.type() == DataspaceMessage.TYPE) {
                    return new Watched(writer, written, reader, point, chunk, message);
                }
            }
        }
        throw new AssertionError("no dataspace message in " + path);
    }

    private static void append(Watched w, long to) throws IOException {
        long from = w.written().shape()[0];
        w.written().extend(to);
        w.written().write(new long[] {from}, new long[] {to - from}, new long[(int) (to - from)]);
        w.writer().flush();
    }

    /** Overwrites the watched block's byte at {@code offset}, then its checksum when asked. */
    private static void patch(Path path, Watched w, int offset, boolean checksum)
            throws IOException {
        byte[] block = w.reader().blocks().read(w.block().address(), w.block().image().length,
                "object header");
        block[offset] ^= 0x40;
        if (checksum) {
            int at = block.length - MetadataValidator.CHECKSUM_SIZE;
            ByteBuffer.wrap(block, at, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(JenkinsLookup3.checksum(block, 0, at));
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(block), w.block().address());
        }
    }

    private static int spaceOffset(Watched w) {
        return (int) (w.space().bodyAddress() - w.block().address());
    }

    @Test
    void anExtendIsDecodedFromTheOneRead() throws IOException {
        Path path = dir.resolve("extend.h5");
        Watched w = watch(path);
        try (Hdf5File writer = w.writer(); Hdf5File reader = w.reader()) {
            assertTrue(w.point().unchanged(reader.blocks()));
            append(w, 3);
            assertFalse(w.point().unchanged(reader.blocks()));
            assertArrayEquals(new long[] {3}, w.point().extendedSpace(path).dimensions());
            CommitPoint next = w.point().reread();
            assertTrue(next.unchanged(reader.blocks()));
        }
    }

    @Test
    void aDataspaceWhoseChecksumFailsIsNotTaken() throws IOException {
        Path path = dir.resolve("torn.h5");
        Watched w = watch(path);
        try (Hdf5File writer = w.writer(); Hdf5File reader = w.reader()) {
            append(w, 3);
            patch(path, w, spaceOffset(w) + 4, false); // the low byte of the size
            assertFalse(w.point().unchanged(reader.blocks()));
            assertNull(w.point().extendedSpace(path));
        }
    }

    @Test
    void aBlockChangedBeforeOrAfterTheDataspaceGoesToTheFullRead() throws IOException {
        for (int side = 0; side < 2; side++) {
            Path path = dir.resolve("other-" + side + ".h5");
            Watched w = watch(path);
            try (Hdf5File writer = w.writer(); Hdf5File reader = w.reader()) {
                append(w, 3);
                int offset = side == 0 ? spaceOffset(w) - 1
                        : spaceOffset(w) + w.space().body().length;
                patch(path, w, offset, true);
                assertFalse(w.point().unchanged(reader.blocks()));
                assertNull(w.point().extendedSpace(path), "byte " + offset + " changed");
            }
        }
    }

    @Test
    void aRefreshWithNothingNewIsOneReadAndNoSizeQuery() throws IOException {
        Path path = dir.resolve("quiet.h5");
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger sizes = new AtomicInteger();
        StorageOpener counting = (file, mode) -> new ForwardingStorage(FileStorage.open(file, mode)) {
            @Override
            public long size() throws IOException {
                sizes.incrementAndGet();
                return super.size();
            }

            @Override
            public int read(ByteBuffer target, long position) throws IOException {
                reads.incrementAndGet();
                return super.read(target, position);
            }
        };
        Watched w = watch(path);
        w.reader().close();
        try (Hdf5File writer = w.writer();
             Hdf5File reader = Hdf5File.openSwmr(path, counting, SwmrReadOptions.DEFAULT)) {
            append(w, 3);
            Dataset d = reader.root().dataset("d");
            d.refresh();
            reads.set(0);
            sizes.set(0);
            for (int i = 0; i < 10; i++) {
                d.refresh();
            }
            assertEquals(10, reads.get());
            assertEquals(0, sizes.get());
            assertArrayEquals(new long[] {3}, d.shape());
        }
    }
}
