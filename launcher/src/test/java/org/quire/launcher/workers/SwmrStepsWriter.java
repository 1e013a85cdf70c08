package org.quire.launcher.workers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;

/**
 * Test worker, a job's writer as a restart runs it: {@code FILE KEEP ROWS}. Creates FILE with a
 * float64 dataset {@code /steps}, or opens it for writing and cuts {@code /steps} back to KEEP
 * rows (as a restart drops the rows past its checkpoint); then writes as an SWMR writer, says
 * {@code swmr writing} on standard output, and appends rows (row i holds i) up to ROWS, five per
 * flush, 150 ms apart, and closes the file.
 */
public final class SwmrStepsWriter {

    private SwmrStepsWriter() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path path = Path.of(args[0]);
        long keep = Long.parseLong(args[1]);
        long rows = Long.parseLong(args[2]);
        boolean exists = Files.exists(path);
        try (Hdf5File file = exists ? Hdf5File.openForWriting(path) : Hdf5File.create(path)) {
            Dataset steps = exists ? file.root().dataset("steps")
                    : file.root().createDataset("steps", DatasetSpec.builder(Datatype.FLOAT64, 0)
                            .maxShape(DatasetSpec.UNLIMITED).chunkShape(16).build());
            if (steps.shape()[0] > keep) {
                steps.setExtent(keep);
            }
            file.startSwmrWrite();
            System.out.println("swmr writing");
            System.out.flush();
            for (long row = steps.shape()[0]; row < rows; row += 5) {
                long count = Math.min(5, rows - row);
                double[] values = new double[(int) count];
                for (int i = 0; i < count; i++) {
                    values[i] = row + i;
                }
                steps.extend(row + count);
                steps.write(new long[] {row}, new long[] {count}, values);
                file.flush();
                Thread.sleep(150);
            }
        }
    }
}
