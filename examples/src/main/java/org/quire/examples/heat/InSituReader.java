package org.quire.examples.heat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriterStatus;

/**
 * The {@code --in-situ} reader: on its own thread of the last rank, it follows rank 0's
 * diagnostics file as an SWMR reader while rank 0 writes it, with no message between the two
 * ranks, and checks that the total energy never increases from one step to the next (the
 * boundary is held at 0, so heat only leaves). Rows are read once, as they become visible.
 *
 * <p>It opens the file only while a live Quire writer holds it in SWMR mode ({@link
 * Hdf5File#writerStatus}), so that it never holds a file a killed run left behind, which rank 0
 * must recover first; it stops when the row of {@code lastStep} is visible or when the writer is
 * gone (after one last refresh), or at {@link #giveUpAfter}.
 */
final class InSituReader implements Runnable {

    /**
     * Relative increase of the energy from one row to the next that still counts as no increase:
     * runs on other rank counts sum the grid in another order, which moves the last bits (about
     * 1e-16 relative per addition), while a step removes about 3e-6 of the energy of a 1024 x 1024
     * grid (docs/heat.md).
     */
    static final double ROUNDING = 1e-10;

    private final Path file;
    private final long lastStep;
    private volatile long giveUpAt = Long.MAX_VALUE;

    private long rows;
    private long fillRows;
    private long refreshes;
    private long grew;
    private double firstEnergy = Double.NaN;
    private double lastEnergy = Double.NaN;
    private long firstStep;
    private long lastSeenStep;
    private String violation;
    private String error;

    InSituReader(Path file, long lastStep) {
        this.file = file;
        this.lastStep = lastStep;
    }

    /** From now on, give up after {@code millis} if not done. */
    void giveUpAfter(long millis) {
        giveUpAt = System.currentTimeMillis() + millis;
    }

    @Override
    public void run() {
        try (Hdf5File hdf5 = openWhenWritten()) {
            follow(hdf5, hdf5.root().dataset(HeatDiagnostics.DATASET));
        } catch (IOException | RuntimeException e) {
            error = String.valueOf(e.getMessage());
        }
    }

    private Hdf5File openWhenWritten() throws IOException {
        while (true) {
            if (Files.exists(file) && Files.size(file) > 0
                    && Hdf5File.writerStatus(file).state() == WriterStatus.State.ALIVE) {
                try {
                    return Hdf5File.openSwmr(file);
                } catch (IOException notYet) {
                    // the writer has not switched to SWMR writing yet
                }
            }
            giveUpIfLate("rank 0 never wrote " + file + " as an SWMR writer");
            pause();
        }
    }

    private void follow(Hdf5File hdf5, Dataset dataset) throws IOException {
        long seen = 0;
        while (true) {
            boolean lastLook = Hdf5File.writerStatus(file).state() != WriterStatus.State.ALIVE;
            dataset.refresh();
            refreshes++;
            long visible = dataset.shape()[0];
            if (visible > seen) {
                grew++;
                check(dataset.read(new long[] {seen}, new long[] {visible - seen}), seen, visible);
                seen = visible;
            } else {
                pause();
            }
            if (seen >= lastStep || lastLook || violation != null) {
                return;
            }
            giveUpIfLate("followed " + file + " to row " + seen + " of " + lastStep);
        }
    }

    private void check(ByteBuffer read, long from, long to) {
        for (int i = 0; i < to - from; i++) {
            HeatDiagnostics.Row row = HeatDiagnostics.Row.decode(read, i);
            long index = from + i;
            if (row.step() == 0) {
                fillRows++; // never written: the diagnostics began after a restart
                continue;
            }
            if (row.step() != index + 1) {
                violation = "row " + index + " holds step " + row.step() + ", expected " + (index + 1);
                return;
            }
            if (!Double.isNaN(lastEnergy) && row.energy() > lastEnergy * (1 + ROUNDING)) {
                violation = String.format(Locale.ROOT, "energy increased at step %d: %.12g -> %.12g", row.step(),
                        lastEnergy, row.energy());
                return;
            }
            if (rows == 0) {
                firstEnergy = row.energy();
                firstStep = row.step();
            }
            lastEnergy = row.energy();
            lastSeenStep = row.step();
            rows++;
        }
    }

    private void giveUpIfLate(String what) throws IOException {
        if (System.currentTimeMillis() > giveUpAt) {
            throw new IOException("gave up: " + what);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether every row read was consistent and nothing failed. */
    boolean clean() {
        return violation == null && error == null;
    }

    /** One line for the job's output. */
    String report() {
        if (error != null) {
            return "in-situ reader: FAILED: " + error;
        }
        String seen = String.format(Locale.ROOT, "followed %s while rank 0 wrote it: %d rows (steps %d..%d) in %d"
                        + " refreshes, %d of which showed new rows%s", file, rows, firstStep, lastSeenStep, refreshes,
                grew, fillRows > 0 ? ", " + fillRows + " rows never written" : "");
        if (violation != null) {
            return "in-situ reader: " + seen + "; FAILED: " + violation;
        }
        return String.format(Locale.ROOT, "in-situ reader: %s; energy non-increasing: %.9g -> %.9g", seen,
                firstEnergy, lastEnergy);
    }
}
