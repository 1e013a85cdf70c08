package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * A change a writer refuses names the file and the object in its one line: a dataset extended
 * past its maximum or to another rank, a compact dataset written as a chunked one, an
 * attribute rewritten with another type (in a file h5py wrote in libhdf5's default format).
 */
class WritingRefusalMessagesTest {

    @TempDir
    Path dir;

    @Test
    void extendingPastTheMaximumOrToAnotherRankNamesTheFileAndTheDataset() throws IOException {
        Path path = dir.resolve("fixed.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset fixed = file.root().createGroup("g").createDataset("fixed",
                    DatasetSpec.builder(Datatype.INT64, 10).maxShape(10).chunkShape(5)
                            .build());
            assertEquals(path + ": cannot extend /g/fixed from [10] to [20] (maximum [10])",
                    assertThrows(IllegalArgumentException.class, () -> fixed.extend(20))
                            .getMessage());
            assertEquals(path + ": cannot resize /g/fixed from [10] to [11] (maximum [10])",
                    assertThrows(IllegalArgumentException.class, () -> fixed.setExtent(11))
                            .getMessage());
            assertEquals(path + ": /g/fixed: rank 2, dataset has 1",
                    assertThrows(IllegalArgumentException.class, () -> fixed.extend(10, 1))
                            .getMessage());
        }
    }

    @Test
    @StartsOutsideProgram
    void writingACompactDatasetOrRewritingAnAttributeWithAnotherTypeNamesTheFile()
            throws IOException {
        Path path = OldFormatReopenTest.h5pyOldFile(dir.resolve("compact.h5"), 0,
                "dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)",
                "dcpl.set_layout(h5py.h5d.COMPACT)",
                "space = h5py.h5s.create_simple((4,))",
                "h5py.h5d.create(f.create_group('g').id, b'cpt', h5py.h5t.STD_I64LE, space, "
                        + "dcpl=dcpl)");
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.flush();
            byte[] before = Files.readAllBytes(path);
            Dataset compact = file.root().group("g").dataset("cpt");
            assertEquals(path + ": /g/cpt is compact, not chunked",
                    assertThrows(IllegalStateException.class, () -> compact.write(
                            new long[] {0}, new long[] {1}, new long[] {7})).getMessage());
            assertEquals(path + ": cannot rewrite attribute \"n\" of /: "
                            + Datatype.INT64 + " [] in place with " + Datatype.FLOAT64 + " [] "
                            + "(same fixed-size type and shape, or variable-length strings of "
                            + "the same shape, only)",
                    assertThrows(IllegalArgumentException.class, () -> file.root()
                            .rewriteAttribute(Attribute.scalar("n", Datatype.FLOAT64, 1.5)))
                            .getMessage());
            file.flush();
            assertArrayEquals(before, Files.readAllBytes(path), "a refused change was written");
        }
    }
}
