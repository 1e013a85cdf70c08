package org.quire.format.hdf5;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;

import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;

/**
 * The open rules of an HDF5 file, enforced with two one-byte advisory locks far past any real
 * data (docs/swmr.md, "Open rules and locks"), which never meet libhdf5's own {@code flock}:
 *
 * <pre>
 *                 writer byte (2^63 - 3)   SWMR reader byte (2^63 - 2)
 * plain writer    exclusive                exclusive
 * SWMR writer     exclusive                -           (released by enterSwmr)
 * plain reader    shared                   -
 * SWMR reader     -                        shared
 * </pre>
 *
 * So many readers open together; a plain reader never meets a writer; a writer never opens
 * under readers; one writer at a time; SWMR readers open beside an SWMR writer (once it has
 * switched: before, its reader byte keeps them out) and never beside a plain one. A writer
 * finding the writer byte locked shared tries again for {@link #PROBE_PATIENCE_NANOS}, so
 * that a momentary {@link #writerHolds} probe is waited out while a plain reader, holding it
 * all along, is still refused. A refusal says who holds the file, from the holder's
 * {@link WriterRecord} when a writer does.
 */
final class OpenLocks implements AutoCloseable {

    static final long WRITER_BYTE = Long.MAX_VALUE - 2;
    static final long SWMR_READER_BYTE = Long.MAX_VALUE - 1;

    /**
     * How long a writer refused by a shared lock on the writer byte tries again before it says
     * readers hold the file: a {@link #writerHolds} probe (a job's in-situ reader, {@code quire
     * watch}) holds that lock for microseconds, a plain reader for as long as it has the file
     * open. So a status probe never makes an open for writing fail. A second, because a probe
     * descheduled on a loaded machine holds the lock that long: 200 ms let a brief SWMR look
     * refuse a writer at load average 27 on 2 cores.
     */
    static final long PROBE_PATIENCE_NANOS = 1_000_000_000L;

    /** How a file is opened, as the locks see it. */
    enum Role { WRITER, SWMR_READER, READER }

    private StorageLock writerByte;
    private StorageLock readerByte;

    private OpenLocks(StorageLock writerByte, StorageLock readerByte) {
        this.writerByte = writerByte;
        this.readerByte = readerByte;
    }

    /**
     * Takes the locks of {@code role} on {@code storage}, the file {@code path}.
     *
     * @throws FileLockedException a writer holds the file
     * @throws FileHeldByReadersException a writer was refused: readers hold the file
     */
    static OpenLocks take(Storage storage, Path path, Role role) throws IOException {
        return switch (role) {
            case READER -> new OpenLocks(shared(storage, path, WRITER_BYTE,
                    "open it when that writer has closed it, or follow an SWMR writer with "
                            + "Hdf5File.openSwmr",
                    "read it when that writer has closed it (an SWMR writer's file is read as "
                            + "of its last commit)"), null);
            case SWMR_READER -> new OpenLocks(null, shared(storage, path, SWMR_READER_BYTE,
                    "a writer that has not switched to SWMR writing keeps SWMR readers out; "
                            + "open it once it has, or when it has closed the file",
                    "a writer that has not switched to SWMR writing keeps SWMR readers out; "
                            + "read it once it has, or when it has closed the file"));
            case WRITER -> writer(storage, path);
        };
    }

    private static StorageLock shared(Storage storage, Path path, long at, String advice,
                                      String commandAdvice) throws IOException {
        StorageLock lock = storage.tryLock(at, 1, true);
        if (lock == null) {
            throw new FileLockedException(path, writerNamed(path), advice, commandAdvice);
        }
        return lock;
    }

    private static OpenLocks writer(Storage storage, Path path) throws IOException {
        StorageLock writer = exclusiveWaitingOutProbes(storage, WRITER_BYTE);
        if (writer == null) {
            if (heldShared(storage, WRITER_BYTE)) {
                throw new FileHeldByReadersException(path, "plain readers (they share its "
                        + "writer byte's lock)");
            }
            throw new FileLockedException(path, writerNamed(path),
                    "open it when that writer has closed it",
                    "open it when that writer has closed it");
        }
        StorageLock reader;
        try {
            // A reader that looks briefly while no writer is alive (quire watch) may hold it now.
            reader = exclusiveWaitingOutProbes(storage, SWMR_READER_BYTE);
        } catch (IOException | RuntimeException e) {
            writer.close();
            throw e;
        }
        if (reader == null) {
            writer.close();
            throw new FileHeldByReadersException(path, "SWMR readers (they share its SWMR "
                    + "reader byte's lock)");
        }
        return new OpenLocks(writer, reader);
    }

    /**
     * The exclusive lock of the byte at {@code at}, tried again for {@link #PROBE_PATIENCE_NANOS}
     * while it is held shared (by a probe or a brief look, which ends soon); null when it is
     * still held then, or held exclusively.
     */
    private static StorageLock exclusiveWaitingOutProbes(Storage storage, long at) throws IOException {
        StorageLock lock = storage.tryLock(at, 1, false);
        long giveUpAt = System.nanoTime() + PROBE_PATIENCE_NANOS;
        while (lock == null && heldShared(storage, at) && System.nanoTime() - giveUpAt < 0) {
            pauseForProbe();
            lock = storage.tryLock(at, 1, false);
        }
        return lock;
    }

    /** Sleeps a millisecond between the tries of a writer waiting out a probe. */
    private static void pauseForProbe() throws IOException {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a writer byte's lock");
        }
    }

    /** Whether the byte at {@code at} is locked shared (a shared probe gets it). */
    private static boolean heldShared(Storage storage, long at) throws IOException {
        StorageLock probe = storage.tryLock(at, 1, true);
        if (probe == null) {
            return false;
        }
        probe.close();
        return true;
    }

    /** The writer holding {@code path} as its record tells, or why it cannot be named. */
    private static String writerNamed(Path path) {
        try {
            WriterRecord record = WriterRecord.read(path);
            return record != null ? record.describe(System.currentTimeMillis())
                    : "no writer record " + WriterRecord.pathOf(path).getFileName()
                            + " beside it yet: a Quire writer that has not written it, or not "
                            + "a Quire writer";
        } catch (IOException e) {
            return "its writer record cannot be read: " + e.getMessage();
        }
    }

    /**
     * Whether some process (or another open file of this one) holds the writer byte: a live
     * writer. Probed through {@code storage} with a shared lock, released at once.
     */
    static boolean writerHolds(Storage storage) throws IOException {
        StorageLock probe = storage.tryLock(WRITER_BYTE, 1, true);
        if (probe == null) {
            return true;
        }
        probe.close();
        return false;
    }

    /**
     * A writer switching to SWMR writing: releases the SWMR reader byte so that SWMR readers
     * may open beside it; the writer byte keeps every other writer and plain reader out.
     */
    void enterSwmr() throws IOException {
        if (readerByte != null) {
            readerByte.close();
            readerByte = null;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (readerByte != null) {
                readerByte.close();
            }
        } finally {
            readerByte = null;
            if (writerByte != null) {
                writerByte.close();
            }
            writerByte = null;
        }
    }
}
