package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;

/** {@link HeatDiagnostics}: one row per step, continued by a restart that drops the rows past its checkpoint. */
class HeatDiagnosticsTest {

    @TempDir
    Path directory;

    private static void append(HeatDiagnostics diagnostics, long from, long to) throws Exception {
        for (long step = from; step <= to; step++) {
            diagnostics.append(step, step * 0.5, 100.0 / step, 10.0 / step);
        }
    }

    /** The step of every row, read by a plain reader, or an SWMR reader beside the writer. */
    private List<Long> steps(Path file, boolean swmr) throws Exception {
        try (Hdf5File hdf5 = swmr ? Hdf5File.openSwmr(file) : Hdf5File.open(file)) {
            Dataset rows = hdf5.root().dataset(HeatDiagnostics.DATASET);
            ByteBuffer read = rows.read(new long[] {0}, new long[] {rows.shape()[0]});
            List<Long> steps = new ArrayList<>();
            for (int i = 0; i < rows.shape()[0]; i++) {
                steps.add(HeatDiagnostics.Row.decode(read, i).step());
            }
            return steps;
        }
    }

    @Test
    void aRestartDropsTheRowsPastItsCheckpointAndWritesThemAgain() throws Exception {
        Path file = directory.resolve("heat.h5");
        StringBuilder notes = new StringBuilder();
        try (HeatDiagnostics diagnostics = HeatDiagnostics.open(file, 0, notes)) {
            append(diagnostics, 1, 10);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L), steps(file, false));

        try (HeatDiagnostics diagnostics = HeatDiagnostics.open(file, 4, notes)) {
            assertEquals(List.of(1L, 2L, 3L, 4L), steps(file, true), "cut off before SWMR writing");
            append(diagnostics, 5, 6);
        }
        assertEquals("diagnostics: dropped the rows of steps 5..10 that the earlier run wrote past its checkpoint\n",
                notes.toString());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), steps(file, false));

        try (HeatDiagnostics diagnostics = HeatDiagnostics.open(file, 6, new StringBuilder())) {
            append(diagnostics, 7, 12);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L), steps(file, false));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            ByteBuffer row = hdf5.root().dataset(HeatDiagnostics.DATASET).read(new long[] {11}, new long[] {1});
            assertEquals(new HeatDiagnostics.Row(12, 6.0, 100.0 / 12, 10.0 / 12,
                    HeatDiagnostics.Row.decode(row, 0).wallClockSeconds()), HeatDiagnostics.Row.decode(row, 0));
        }
    }
}
