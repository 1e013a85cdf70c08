package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Dataset#refresh()} when the writer flushed chunks without changing the extent: the
 * reader's next read must see them (its index view is dropped, as libhdf5's H5Drefresh drops
 * it), whether it asks for the elements or whether their chunk is written; and refresh outside
 * an SWMR reader is refused. Quire's writer and reader in one process.
 */
class SwmrRefreshMutationGapsTest {

    @TempDir
    Path dir;

    @Test
    void chunksFlushedUnderTheSameExtentAreSeenAfterARefresh() throws IOException {
        Path path = dir.resolve("same-extent.h5");
        try (Hdf5File writer = Hdf5File.create(path)) {
            Dataset written = writer.root().createDataset("d", DatasetSpec.builder(
                    Datatype.INT64, 8).maxShape(DatasetSpec.UNLIMITED).chunkShape(2).build());
            written.write(new long[] {0}, new long[] {2}, new long[] {1, 2});
            writer.startSwmrWrite();
            writer.flush();
            try (Hdf5File reader = Hdf5File.openSwmr(path)) {
                Dataset read = reader.root().dataset("d");
                assertArrayEquals(new long[] {1, 2, 0, 0, 0, 0, 0, 0},
                        read.readLongs(new long[] {0}, new long[] {8}));
                assertFalse(read.isChunkWritten(5));
                for (int round = 1; round <= 3; round++) {
                    written.write(new long[] {2L * round}, new long[] {2},
                            new long[] {10L * round, 10L * round + 1});
                    writer.flush();
                    read.refresh();
                    assertArrayEquals(new long[] {8}, read.shape());
                    assertTrue(read.isChunkWritten(2L * round + 1), "round " + round);
                    assertEquals(10L * round, read.readLongs(new long[] {2L * round},
                            new long[] {1})[0], "round " + round);
                }
                assertArrayEquals(new long[] {1, 2, 10, 11, 20, 21, 30, 31},
                        read.readLongs(new long[] {0}, new long[] {8}));
            }
        }
    }

    @Test
    void onlyAnSwmrReaderRefreshes() throws IOException {
        Path path = dir.resolve("plain.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 2)
                    .build());
            assertEquals(path + " was not opened with Hdf5File.openSwmr", assertThrows(
                    IllegalStateException.class, d::refresh).getMessage());
        }
    }
}
