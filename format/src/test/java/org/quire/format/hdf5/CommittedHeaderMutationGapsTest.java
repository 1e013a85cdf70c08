package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.StorageOpener;

/**
 * An SWMR reader's {@link CommittedHeader} following a writer that appends: each refresh
 * takes the writer's last commit, whether it changed the data layout message (the first
 * chunks) or only the dataspace (an extend decoded from the one read of the header block,
 * with the layout taken before), and reads every element written. CommitPointTest looks at
 * the commit point alone; the SWMR tests in the JVM did not count the reads of an extend.
 */
class CommittedHeaderMutationGapsTest {

    @TempDir
    Path dir;

    private static void append(Dataset written, Hdf5File writer, long to) throws IOException {
        long from = written.shape()[0];
        written.extend(to);
        written.write(new long[] {from}, new long[] {to - from},
                values(from, to));
        writer.flush();
    }

    /** The reader, counting its reads of the header block at {@code header[0]}. */
    private static StorageOpener counting(long[] header, AtomicInteger reads) {
        return (file, mode) -> new ForwardingStorage(FileStorage.open(file, mode)) {
            @Override
            public int read(ByteBuffer target, long position) throws IOException {
                if (position == header[0]) {
                    reads.incrementAndGet();
                }
                return super.read(target, position);
            }
        };
    }

    /**
     * Appends to an unlimited dataset (extensible array index, whose layout message never
     * changes): the first refresh reads the header as one reading of it does; each later one,
     * an extend, reads the header block once and takes the new extent from that read; every
     * element reads back each time.
     */
    @Test
    void eachExtendIsTakenFromOneReadOfTheHeaderBlock() throws IOException {
        Path path = dir.resolve("followed.h5");
        long[] header = new long[1];
        AtomicInteger reads = new AtomicInteger();
        try (Hdf5File writer = Hdf5File.create(path)) {
            Dataset written = writer.root().createDataset("d", DatasetSpec.builder(
                    Datatype.INT64, 0).maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            header[0] = written.address();
            writer.startSwmrWrite();
            try (Hdf5File reader = Hdf5File.openSwmr(path, counting(header, reads),
                    SwmrReadOptions.DEFAULT)) {
                Dataset d = reader.root().dataset("d");
                reads.set(0);
                reader.storedHeaderV2(header[0]);
                int oneHeaderRead = reads.get();
                for (long to : new long[] {4, 8, 12}) {
                    append(written, writer, to);
                    reads.set(0);
                    d.refresh();
                    assertEquals(to == 4 ? oneHeaderRead : 1, reads.get(), "refresh to " + to);
                    assertArrayEquals(new long[] {to}, d.shape());
                    assertArrayEquals(values(0, to), d.readLongs(new long[] {0},
                            new long[] {to}), "after " + to);
                }
            }
        }
    }

    /**
     * A dataset of one chunk (single-chunk index: the layout message holds the chunk's
     * address): its first write changes the data layout message and not the dataspace; the
     * reader takes the new layout and reads the chunk.
     */
    @Test
    void aLayoutChangeAloneIsTaken() throws IOException {
        Path path = dir.resolve("single.h5");
        try (Hdf5File writer = Hdf5File.create(path)) {
            Dataset written = writer.root().createDataset("f", DatasetSpec.builder(
                    Datatype.INT64, 4).chunkShape(4).build());
            writer.startSwmrWrite();
            try (Hdf5File reader = Hdf5File.openSwmr(path)) {
                Dataset d = reader.root().dataset("f");
                assertArrayEquals(new long[4], d.readLongs(new long[] {0}, new long[] {4}));
                written.write(new long[] {0}, new long[] {4}, values(0, 4));
                writer.flush();
                d.refresh();
                assertArrayEquals(values(0, 4), d.readLongs(new long[] {0}, new long[] {4}));
            }
        }
    }

    private static long[] values(long from, long to) {
        return LongStream.range(from, to).map(v -> v * 10 + 1).toArray();
    }
}
