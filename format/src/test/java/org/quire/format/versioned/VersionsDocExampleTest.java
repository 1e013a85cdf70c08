package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;

/** The example of docs/versions.md, run as it is printed there. */
class VersionsDocExampleTest {

    @TempDir
    Path dir;

    @Test
    void theDocumentedExampleRuns() throws IOException {
        Path path = dir.resolve("run.h5");
        // --- docs/versions.md example begins
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("step0", "", Instant.parse("2030-01-01T00:00:00Z"), v -> {
                StagedDataset t = v.createDataset("fields/t",
                        DatasetSpec.builder(Datatype.FLOAT64, 4, 6).chunkShape(2, 3).fillValue(-1.0).build(),
                        null);                                    // sparse: every chunk reads -1.0
                t.write(new long[] {0, 0}, new long[] {1, 6}, new double[] {1, 2, 3, 4, 5, 6});
                t.setAttribute(Attribute.of("units", "K"));
            });
            vf.commit("step1", v -> {                             // on the current version, now
                StagedDataset t = v.dataset("fields/t");
                t.write(new long[] {0, 4}, new long[] {1, 1}, new double[] {50});
                t.resize(5, 6);
            });
            Dataset before = vf.dataset("step0", "fields/t");   // a virtual dataset onto raw_data
            double[] row = before.readDoubles(new long[] {0, 0}, new long[] {1, 6});
            List<ChunkChange> changed = vf.diff("fields/t", "step0", "step1");
            VersionInfo parent = vf.version(1);                  // "step0": one step back
            VersionInfo then = vf.versionAt(Instant.parse("2030-06-01T00:00:00Z"));   // "step0"
            // --- docs/versions.md example ends
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, row);
            assertEquals(1, changed.size());
            assertArrayEquals(new long[] {0, 3}, changed.get(0).origin());
            byte[] newChunk = java.nio.ByteBuffer.allocate(48).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putDouble(4).putDouble(50).putDouble(6).putDouble(-1).putDouble(-1).putDouble(-1).array();
            assertArrayEquals(ChunkDigest.of(newChunk, new long[] {2, 3}), changed.get(0).after());
            assertEquals("step0", parent.name());
            assertEquals("step0", then.name());
            assertEquals(-1.0, vf.dataset("step1", "fields/t")
                    .readDoubles(new long[] {4, 0}, new long[] {1, 1})[0]);
        }
    }
}
