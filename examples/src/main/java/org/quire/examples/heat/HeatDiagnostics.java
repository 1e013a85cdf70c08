package org.quire.examples.heat;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.FileLockedException;
import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.hdf5.Hdf5File;

/**
 * Rank 0's per-step diagnostics in an HDF5 file, written in SWMR mode so that other processes
 * (the {@code --in-situ} rank, h5py with {@code swmr=True}, {@code quire watch}) follow it while
 * the job runs: dataset {@value #DATASET}, rank 1, unlimited, one row per step, row {@code i}
 * for step {@code i + 1}, of the compound type {@link #ROW} (40 bytes, little-endian):
 * {@code step} (int64), {@code time} (float64, simulated), {@code energy} (float64),
 * {@code max_temperature} (float64), {@code wall_clock_s} (float64, seconds since the Unix epoch
 * when the step ended).
 *
 * <p>A restart continues the same file: it is reopened (after {@link Hdf5File#recover} when the
 * killed job's writer left it open) and the rows the killed run wrote past the checkpoint's step
 * are cut off ({@link Dataset#setExtent}) before SWMR writing starts, so that readers never see
 * them (nor fill rows in their place: shrinking is refused while SWMR writing); the restarted run
 * writes them again as it reaches their steps. Rows before the first step of the run that created
 * the file (diagnostics begun on a restart) hold the fill value, step 0.
 */
final class HeatDiagnostics implements Closeable {

    static final String DATASET = "diagnostics";
    private static final List<String> MEMBERS = List.of("step", "time", "energy", "max_temperature", "wall_clock_s");
    static final Datatype.CompoundType ROW = Datatype.CompoundType.packed(MEMBERS,
            List.of(Datatype.INT64, Datatype.FLOAT64, Datatype.FLOAT64, Datatype.FLOAT64, Datatype.FLOAT64));
    static final int ROW_BYTES = 40;
    private static final int CHUNK_ROWS = 256;

    private final Hdf5File file;
    private final Dataset rows;
    private final ByteBuffer row = ByteBuffer.allocate(ROW_BYTES).order(ByteOrder.LITTLE_ENDIAN);

    private HeatDiagnostics(Hdf5File file, Dataset rows) {
        this.file = file;
        this.rows = rows;
    }

    /**
     * Opens {@code path} for a run that starts after step {@code fromStep}: a new file for a run
     * from step 0 (an existing one is refused, {@link java.nio.file.FileAlreadyExistsException}),
     * the existing one otherwise. Switches to SWMR
     * writing before returning.
     *
     * @param notes where to say that a file left open by a killed job was recovered
     */
    static HeatDiagnostics open(Path path, long fromStep, StringBuilder notes) throws IOException {
        Hdf5File file;
        Dataset rows;
        if (fromStep == 0 || !Files.exists(path)) {
            file = Hdf5File.create(path);
            rows = file.root().createDataset(DATASET, DatasetSpec.builder(ROW, 0).maxShape(DatasetSpec.UNLIMITED)
                    .chunkShape(CHUNK_ROWS).build());
        } else {
            file = reopen(path, notes);
            rows = file.root().dataset(DATASET);
            if (!rows.type().equals(ROW) || rows.shape().length != 1) {
                file.close();
                throw new IOException(path + ": dataset /" + DATASET + " is not a rank-1 dataset of the diagnostics"
                        + " type " + ROW + " (type " + rows.type() + ")");
            }
            long extent = rows.shape()[0];
            if (extent > fromStep) {
                rows.setExtent(fromStep);
                notes.append("diagnostics: dropped the rows of steps ").append(fromStep + 1).append("..")
                        .append(extent).append(" that the earlier run wrote past its checkpoint\n");
            }
        }
        file.startSwmrWrite();
        return new HeatDiagnostics(file, rows);
    }

    private static Hdf5File reopen(Path path, StringBuilder notes) throws IOException {
        try {
            return Hdf5File.openForWriting(path);
        } catch (FileLockedException e) {
            throw e; // a live writer: not ours to take over
        } catch (FileOpenForWritingException e) {
            Hdf5File.recover(path);
            notes.append("diagnostics: ").append(path).append(" was left open by the killed job's writer;")
                    .append(" recovered it (as quire h5 clear) before continuing\n");
            return Hdf5File.openForWriting(path);
        }
    }

    /** Writes the row of {@code step} and flushes it, so that SWMR readers see it. */
    void append(long step, double time, double energy, double maxTemperature) throws IOException {
        long index = step - 1;
        if (rows.shape()[0] <= index) {
            rows.extend(index + 1);
        }
        row.clear();
        row.putLong(step).putDouble(time).putDouble(energy).putDouble(maxTemperature)
                .putDouble(System.currentTimeMillis() / 1000.0).flip();
        rows.write(new long[] {index}, new long[] {1}, row);
        file.flush();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    /** One row read back. */
    record Row(long step, double time, double energy, double maxTemperature, double wallClockSeconds) {

        static Row decode(ByteBuffer rows, int index) {
            ByteBuffer in = rows.slice(index * ROW_BYTES, ROW_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            return new Row(in.getLong(), in.getDouble(), in.getDouble(), in.getDouble(), in.getDouble());
        }
    }
}
