package org.quire.launcher.h5;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.OptionalLong;

import org.quire.format.hdf5.FileLockedException;
import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriterStatus;
import org.quire.launcher.UsageException;

/**
 * The file {@code quire watch} follows, held open only while a writer may be writing it. A
 * writer opening the file is refused while SWMR readers hold it (docs/swmr.md, "Open rules and
 * locks"), so the look that finds the writer gone reads its last commit and releases the file;
 * while no writer is alive the file is opened for a moment only when it has changed since it was
 * last read. A restarted job's writer so opens it unhindered, and once that writer writes as an
 * SWMR writer the watch holds the file again and follows it.
 */
final class WatchedFile implements AutoCloseable {

    /**
     * What one look found.
     *
     * @param writer      the writer's state before the read
     * @param table       the dataset as last read
     * @param drawn       the column the sparkline draws
     * @param sample      the rows as last read
     * @param cutBackFrom the rows of the look before, when this look has fewer: a writer that
     *                    reopened the file cut them back (SWMR writing never shrinks a dataset)
     */
    record Look(WriterProbe writer, WatchedTable table, WatchedTable.Column drawn,
                WatchedTable.Sample sample, OptionalLong cutBackFrom) {
    }

    /**
     * The file holds no such dataset, or it is no table of numbers: the file's content, which
     * a writer may still change (status 1, not a usage error).
     */
    static final class NotFollowableException extends Exception {
        NotFollowableException(String message) {
            super(message);
        }
    }

    private final Path file;
    private final String datasetPath;
    private final String columnName;
    private final int drawnRows;
    /** Open as an SWMR reader while a writer may be writing; null otherwise. */
    private Hdf5File held;
    /** The dataset of {@link #held}, found at its first read. */
    private WatchedTable heldTable;
    private Look last;
    /** The last look found a Quire writer alive that has not switched to SWMR writing yet. */
    private boolean waitingForSwmr;
    /** The file when it was last read while released. */
    private Version readVersion;

    /**
     * @param columnName the column to draw, null for the last one
     * @param drawnRows  how many recent rows each look reads
     */
    WatchedFile(Path file, String datasetPath, String columnName, int drawnRows) {
        this.file = file;
        this.datasetPath = datasetPath;
        this.columnName = columnName;
        this.drawnRows = drawnRows;
    }

    /**
     * One look: the writer's state first, so that a writer seen gone has made its last commit
     * before the read.
     *
     * @throws FileOpenForWritingException at the first look, the file cannot be read: its writer
     *                                     is no SWMR writer (later looks wait for it to switch)
     */
    Look look() throws IOException, UsageException, NotFollowableException {
        WriterProbe writer = WriterProbe.of(file);
        Look look;
        waitingForSwmr = false;
        if (writer.mayStillWrite()) {
            if (held == null && !hold()) {
                waitingForSwmr = writer.state() == WriterProbe.State.ALIVE;
                look = new Look(new WriterProbe(writer.state(), writer.summary()
                        + "; not SWMR writing yet, so the rows are those last read"),
                        last.table(), last.drawn(), last.sample(), OptionalLong.empty());
            } else {
                heldTable = heldTable != null ? heldTable : table(held);
                heldTable.dataset().refresh();
                look = read(writer, heldTable);
            }
        } else if (held != null) {
            heldTable.dataset().refresh();
            look = read(writer, heldTable);
            release();
        } else if (last == null || !version().equals(readVersion)) {
            Version version = version();
            try (Hdf5File released = openReleased()) {
                look = read(writer, table(released));
            }
            readVersion = version;
        } else {
            look = new Look(writer, last.table(), last.drawn(), last.sample(), OptionalLong.empty());
        }
        last = look;
        return look;
    }

    /**
     * Whether waiting between looks should ask {@link #lookNow} often: while the file is held
     * for a Quire writer seen alive (so that it is released soon after that writer exits, before
     * a restarted one opens it), while it is released with no writer (so that a restarted writer
     * is followed from its start), and while a Quire writer has not switched to SWMR writing yet.
     */
    boolean watchesForWriterChange() {
        return held != null ? last.writer().state() == WriterProbe.State.ALIVE
                : !last.writer().mayStillWrite() || waitingForSwmr;
    }

    /**
     * Whether the next look should come now: a held file's Quire writer is gone, a released
     * file has a Quire writer alive (by a lock probe and the writer record only), or a writer is
     * awaited to switch to SWMR writing.
     */
    boolean lookNow() throws IOException {
        if (waitingForSwmr) {
            return true;
        }
        boolean alive = Hdf5File.writerStatus(file).state() == WriterStatus.State.ALIVE;
        return held != null ? !alive : alive;
    }

    /** Opens the file as an SWMR reader; false when its writer has not switched to SWMR yet. */
    private boolean hold() throws IOException {
        try {
            held = Hdf5File.openSwmr(file);
            return true;
        } catch (FileLockedException notSwmrWritingYet) {
            if (last == null) {
                throw notSwmrWritingYet;
            }
            return false;
        }
    }

    /** Opens the file for one read with no writer alive: plainly, or after a dead SWMR writer as an SWMR reader. */
    private Hdf5File openReleased() throws IOException {
        try {
            return Hdf5File.open(file);
        } catch (FileOpenForWritingException writing) {
            try {
                return Hdf5File.openSwmr(file);
            } catch (FileOpenForWritingException notAnSwmrWriter) {
                throw writing;
            }
        }
    }

    /** The dataset of an open file, found again at each open: a writer may have changed it. */
    private WatchedTable table(Hdf5File hdf5)
            throws IOException, UsageException, NotFollowableException {
        try {
            return WatchedTable.of(file, ObjectPaths.findDataset(hdf5, datasetPath));
        } catch (UsageException | WatchedTable.NotATableException e) {
            throw new NotFollowableException(e.getMessage());
        }
    }

    /** The look at {@code table}, opened (or refreshed, when held) after {@code writer} was asked. */
    private Look read(WriterProbe writer, WatchedTable table)
            throws IOException, UsageException {
        WatchedTable.Column drawn = columnName == null ? table.lastColumn()
                : table.column(columnName);
        WatchedTable.Sample sample = table.sample(drawnRows);
        OptionalLong cutBackFrom = last != null && sample.rows() < last.sample().rows()
                ? OptionalLong.of(last.sample().rows()) : OptionalLong.empty();
        return new Look(writer, table, drawn, sample, cutBackFrom);
    }

    private void release() throws IOException {
        Hdf5File open = held;
        held = null;
        heldTable = null;
        readVersion = version();
        open.close();
    }

    /** What changes when a writer writes the file or it is replaced. */
    private record Version(long size, FileTime modified, Object identity) {
    }

    private Version version() throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return new Version(attributes.size(), attributes.lastModifiedTime(), attributes.fileKey());
    }

    @Override
    public void close() throws IOException {
        if (held != null) {
            release();
        }
    }
}
