package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Opens real files and remembers which of them are still open, so that a test can check that
 * every path through an operation, failed ones included, closes every file it opened. It also
 * counts, per file, the positional reads and writes made through it and the bytes written,
 * and sorts the writes by the signature their first four bytes spell (HDF5 metadata blocks
 * start with one), so a test can assert, and a measurement report, what an operation costs.
 * Safe for the thread ranks of one test.
 */
public final class TrackingOpener implements StorageOpener {

    /** What a write whose first bytes spell no 4-letter signature counts under (chunks, pages). */
    public static final String UNSIGNED = "(unsigned)";

    /** The I/O made on one file since the last {@link #resetCounts()}. */
    public static final class Counts {
        private long reads;
        private long writes;
        private long bytesWritten;
        private final Map<String, Long> writesBySignature = new TreeMap<>();

        public synchronized long reads() {
            return reads;
        }

        public synchronized long writes() {
            return writes;
        }

        public synchronized long bytesWritten() {
            return bytesWritten;
        }

        /** Writes by the signature their first four bytes spell, or {@link #UNSIGNED}. */
        public synchronized Map<String, Long> writesBySignature() {
            return Collections.unmodifiableMap(new TreeMap<>(writesBySignature));
        }

        synchronized void read() {
            reads++;
        }

        synchronized void wrote(ByteBuffer source) {
            writes++;
            bytesWritten += source.remaining();
            writesBySignature.merge(signature(source), 1L, Long::sum);
        }
    }

    private final List<Path> open = new ArrayList<>();
    private final Map<Path, Counts> counts = new HashMap<>();

    @Override
    public Storage open(Path path, OpenMode mode) throws IOException {
        Storage storage = FileStorage.open(path, mode);
        synchronized (open) {
            open.add(path);
        }
        return new Tracked(storage);
    }

    /** The files opened and not yet closed, one entry per open storage. */
    public List<Path> stillOpen() {
        synchronized (open) {
            return List.copyOf(open);
        }
    }

    /** The I/O made on {@code path} since creation or the last {@link #resetCounts()}. */
    public Counts counts(Path path) {
        synchronized (counts) {
            return counts.computeIfAbsent(path, p -> new Counts());
        }
    }

    public void resetCounts() {
        synchronized (counts) {
            counts.clear();
        }
    }

    private static String signature(ByteBuffer source) {
        if (source.remaining() < 4) {
            return UNSIGNED;
        }
        StringBuilder letters = new StringBuilder(4);
        for (int i = 0; i < 4; i++) {
            int b = source.get(source.position() + i) & 0xff;
            if (b < 'A' || b > 'Z') {
                return UNSIGNED;
            }
            letters.append((char) b);
        }
        return letters.toString();
    }

    private final class Tracked extends ForwardingStorage {
        private boolean closed;

        Tracked(Storage storage) {
            super(storage);
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
            counts(delegate.path()).read();
            return delegate.read(target, position);
        }

        @Override
        public void write(ByteBuffer source, long position) throws IOException {
            counts(delegate.path()).wrote(source);
            delegate.write(source, position);
        }

        @Override
        public void close() throws IOException {
            delegate.close();
            synchronized (open) {
                if (!closed) {
                    open.remove(delegate.path());
                    closed = true;
                }
            }
        }
    }
}
