package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;

/**
 * {@link InSituReader} against a live SWMR writer of diagnostics rows (raw rows, so that they can
 * be wrong): a clean series, the energy rising, and a row holding another step.
 */
class InSituReaderTest {

    @TempDir
    Path directory;

    /** Writes rows {@code (step, energy)} as an SWMR writer, runs the reader to step 4 beside it. */
    private InSituReader follow(long[] steps, double[] energies) throws Exception {
        Path file = directory.resolve("d.h5");
        InSituReader reader = new InSituReader(file, steps.length);
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Dataset rows = hdf5.root().createDataset(HeatDiagnostics.DATASET, DatasetSpec.builder(HeatDiagnostics.ROW,
                    steps.length).maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            ByteBuffer all = ByteBuffer.allocate(steps.length * HeatDiagnostics.ROW_BYTES)
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < steps.length; i++) {
                all.putLong(steps[i]).putDouble(i).putDouble(energies[i]).putDouble(1).putDouble(0);
            }
            rows.write(new long[] {0}, new long[] {steps.length}, all.flip());
            hdf5.startSwmrWrite();
            reader.giveUpAfter(30_000);
            Thread thread = new Thread(reader);
            thread.start();
            thread.join();
        }
        return reader;
    }

    @Test
    void aNonIncreasingEnergyIsClean() throws Exception {
        InSituReader reader = follow(new long[] {1, 2, 3, 4}, new double[] {4, 3, 3, 1});
        assertTrue(reader.clean(), reader.report());
        assertTrue(reader.report().endsWith("; energy non-increasing: 4.00000000 -> 1.00000000"), reader.report());
    }

    @Test
    void aRisingEnergyIsAViolation() throws Exception {
        InSituReader reader = follow(new long[] {1, 2, 3, 4}, new double[] {4, 3, 3.5, 1});
        assertFalse(reader.clean());
        assertTrue(reader.report().endsWith("; FAILED: energy increased at step 3: 3.00000000000 -> 3.50000000000"),
                reader.report());
    }

    @Test
    void aRowOfAnotherStepIsAViolation() throws Exception {
        InSituReader reader = follow(new long[] {1, 2, 4, 4}, new double[] {4, 3, 2, 1});
        assertFalse(reader.clean());
        assertTrue(reader.report().endsWith("; FAILED: row 2 holds step 4, expected 3"), reader.report());
    }

    @Test
    void rowsNeverWrittenAreCountedApart() throws Exception {
        InSituReader reader = follow(new long[] {0, 0, 3, 4}, new double[] {0, 0, 2, 1});
        assertTrue(reader.clean(), reader.report());
        assertTrue(reader.report().contains(": 2 rows (steps 3..4) in "), reader.report());
        assertTrue(reader.report().contains(", 2 rows never written; "), reader.report());
        assertEquals(1, reader.report().lines().count());
    }
}
