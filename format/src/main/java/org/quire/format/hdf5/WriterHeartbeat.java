package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a writer's {@link WriterRecord} beside its file alive: written at open, renewed every
 * second by one daemon thread shared by the JVM's writers, removed at close. A failed renewal
 * (a full disk, say) is left for the next beat: the record only goes stale, which readers
 * then report.
 */
final class WriterHeartbeat implements AutoCloseable {

    static final long PERIOD_MILLIS = 1_000;

    private static final ScheduledExecutorService BEATS =
            Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "quire-writer-heartbeat");
                thread.setDaemon(true);
                return thread;
            });

    private final Path file;
    private WriterRecord record;
    private final ScheduledFuture<?> beats;

    private WriterHeartbeat(Path file, WriterRecord record) {
        this.file = file;
        this.record = record;
        this.beats = BEATS.scheduleAtFixedRate(this::beat, PERIOD_MILLIS, PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Writes this process's record beside {@code file} and starts renewing it. */
    static WriterHeartbeat start(Path file, WriterRecord.Mode mode) throws IOException {
        WriterRecord first = WriterRecord.ofThisProcess(mode, System.currentTimeMillis());
        first.write(file);
        return new WriterHeartbeat(file, first);
    }

    /**
     * Records that the writer now writes in {@code mode}; when the record cannot be written
     * now (a full disk), the next beat writes it.
     */
    synchronized void mode(WriterRecord.Mode mode) {
        record = record.inMode(mode, System.currentTimeMillis());
        try {
            record.write(file);
        } catch (IOException e) {
            // the next beat writes the record in its new mode
        }
    }

    private synchronized void beat() {
        if (beats != null && beats.isCancelled()) {
            return;
        }
        try {
            record = record.nextBeat(System.currentTimeMillis());
            record.write(file);
        } catch (IOException e) {
            // the record goes stale; the next beat tries again
        }
    }

    /** Stops beating and removes the record. */
    @Override
    public synchronized void close() throws IOException {
        beats.cancel(false);
        WriterRecord.remove(file);
    }
}
