package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * A {@link StorageOpener} whose files live in memory and which records, in one log shared by
 * every file of a workload, each file creation, write, truncation, force and deletion. Any
 * prefix of the log can then be turned into the files as a crash at that moment could leave
 * them on disk, so a test can check its invariants at every crash point of a workload, not only
 * at the few a process kill happens to hit (the idea of Lucene's {@code MockDirectoryWrapper}).
 *
 * <p>Two kinds of crash:
 * <ul>
 *   <li>{@link #processCrash(int)}: the processes die, the machine keeps running: every write
 *       made so far is in the files (the page cache survives).</li>
 *   <li>{@link #crash(int, long)}: power fails or the operating system crashes. For each file,
 *       everything written before its last completed {@link Storage#force force} survives. Each
 *       512-byte sector written since then holds its contents of some moment between that force
 *       and the crash, chosen by a seeded {@link Random}: a later write may be kept, dropped, or
 *       torn (some of its sectors new, others old), but a sector never shows a write without the
 *       earlier writes to it (the page cache writes a sector back as it is then). The file size
 *       is that of some moment in the same interval (a write's data may reach the disk without
 *       the size that makes it visible, or the size without the data, which then reads as the
 *       old bytes or zeros). A file never forced since its creation may be missing altogether;
 *       its first force makes its directory entry durable too (directory syncs are not modelled,
 *       as on ext4 and XFS in practice). Deletions are durable at once.</li>
 * </ul>
 * The result is deterministic for a given log, crash point and seed. A new simulator can start
 * from a crash's files ({@link #CrashSimulator(Map)}), e.g. to run recovery on them and crash
 * that in turn.
 *
 * <p>Thread-safe: the ranks of a workload may write from several threads; the log then holds
 * the order in which the writes happened.
 */
public final class CrashSimulator implements StorageOpener {

    /** The unit a disk writes atomically. */
    public static final int SECTOR_SIZE = 512;

    /** One recorded operation. */
    public sealed interface Event {
        Path path();
    }

    /** The file came into existence (empty). */
    public record Created(Path path) implements Event {
    }

    public record Write(Path path, long position, byte[] bytes) implements Event {
        @Override
        public String toString() {
            return "Write[" + path + " at " + position + ", " + bytes.length + " bytes]";
        }
    }

    public record Truncate(Path path, long size) implements Event {
    }

    /** A force that returned: everything written to the file before it is durable. */
    public record Force(Path path) implements Event {
    }

    public record Delete(Path path) implements Event {
    }

    private final Map<Path, byte[]> initialFiles;
    private final Map<Path, GrowableBytes> liveFiles = new HashMap<>();
    private final List<Event> events = new ArrayList<>();
    /** Locked regions of each file: {position, size, shared ? 1 : 0}, one per holder. */
    private final Map<Path, List<long[]>> locks = new HashMap<>();

    /** A simulator with no files. */
    public CrashSimulator() {
        this(Map.of());
    }

    /** A simulator whose files are {@code durableFiles}, all of them on disk already. */
    public CrashSimulator(Map<Path, byte[]> durableFiles) {
        this.initialFiles = copy(durableFiles);
        initialFiles.forEach((path, bytes) -> liveFiles.put(path, new GrowableBytes(bytes)));
    }

    @Override
    public synchronized Storage open(Path path, OpenMode mode) throws IOException {
        boolean exists = liveFiles.containsKey(path);
        switch (mode) {
            case READ, READ_WRITE -> {
                if (!exists) {
                    throw new NoSuchFileException(path.toString());
                }
            }
            case CREATE_NEW -> {
                if (exists) {
                    throw new FileAlreadyExistsException(path.toString());
                }
            }
            case CREATE_OR_OPEN -> {
            }
        }
        if (!exists) {
            liveFiles.put(path, new GrowableBytes(new byte[0]));
            events.add(new Created(path));
        }
        return new SimulatedStorage(path, mode != OpenMode.READ);
    }

    @Override
    public synchronized boolean deleteIfExists(Path path) {
        if (liveFiles.remove(path) == null) {
            return false;
        }
        events.add(new Delete(path));
        return true;
    }

    /** Operations recorded so far; a crash point is a number of them, 0..eventCount(). */
    public synchronized int eventCount() {
        return events.size();
    }

    /** The recorded operations, in order. */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** The index of the first recorded event of {@code kind} on {@code path} from {@code from}. */
    public synchronized int firstEvent(int from, Class<? extends Event> kind, Path path) {
        for (int i = from; i < events.size(); i++) {
            if (kind.isInstance(events.get(i)) && events.get(i).path().equals(path)) {
                return i;
            }
        }
        throw new AssertionError("no " + kind.getSimpleName() + " of " + path + " from event "
                + from);
    }

    /** The files as they are now (every write kept). */
    public synchronized Map<Path, byte[]> files() {
        Map<Path, byte[]> files = new TreeMap<>();
        liveFiles.forEach((path, bytes) -> files.put(path, bytes.toArray()));
        return files;
    }

    /** The files after the first {@code eventCount} operations, every write kept: what a killed job leaves. */
    public synchronized Map<Path, byte[]> processCrash(int eventCount) {
        Map<Path, FileHistory> histories = replay(eventCount);
        Map<Path, byte[]> files = new TreeMap<>();
        histories.forEach((path, history) -> {
            if (history.exists) {
                files.put(path, history.live.toArray());
            }
        });
        return files;
    }

    /**
     * The files as a power failure after the first {@code eventCount} operations may leave them
     * on disk; {@code seed} picks which of the unforced writes survive, and how (see the class
     * comment).
     */
    public synchronized Map<Path, byte[]> crash(int eventCount, long seed) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + eventCount);
        Map<Path, byte[]> files = new TreeMap<>();
        for (Map.Entry<Path, FileHistory> entry : new TreeMap<>(replay(eventCount)).entrySet()) {
            FileHistory history = entry.getValue();
            if (!history.exists) {
                continue;
            }
            if (history.durable == null && random.nextBoolean()) {
                continue; // created but never forced: the directory entry did not reach the disk
            }
            byte[] base = history.durable == null ? new byte[0] : history.durable;
            files.put(entry.getKey(), afterCrash(base, history.pending, random));
        }
        return files;
    }

    /** A file's state after replaying a prefix of the log. */
    private static final class FileHistory {
        boolean exists;
        /** Contents at its last force (or as the simulator started); null if never durable. */
        byte[] durable;
        /** Writes and truncations since then. */
        final List<Event> pending = new ArrayList<>();
        GrowableBytes live = new GrowableBytes(new byte[0]);
    }

    private Map<Path, FileHistory> replay(int eventCount) {
        if (eventCount < 0 || eventCount > events.size()) {
            throw new IllegalArgumentException("crash point " + eventCount + " outside 0.." + events.size());
        }
        Map<Path, FileHistory> histories = new HashMap<>();
        initialFiles.forEach((path, bytes) -> {
            FileHistory history = new FileHistory();
            history.exists = true;
            history.durable = bytes;
            history.live = new GrowableBytes(bytes);
            histories.put(path, history);
        });
        for (Event event : events.subList(0, eventCount)) {
            FileHistory history = histories.computeIfAbsent(event.path(), path -> new FileHistory());
            if (event instanceof Created) {
                history.exists = true;
                history.durable = null;
                history.pending.clear();
                history.live = new GrowableBytes(new byte[0]);
            } else if (event instanceof Write write) {
                history.pending.add(write);
                history.live.write(write.position(), write.bytes());
            } else if (event instanceof Truncate truncate) {
                history.pending.add(truncate);
                history.live.truncate(truncate.size());
            } else if (event instanceof Force) {
                history.durable = history.live.toArray();
                history.pending.clear();
            } else if (event instanceof Delete) {
                history.exists = false;
                history.durable = null;
                history.pending.clear();
            }
        }
        return histories;
    }

    /**
     * {@code base} (durable) after {@code pending}: each sector as of a random moment since
     * {@code base}, the size as of another. Per file, one of three fates is drawn first: every
     * pending operation kept, every one dropped, or sectors and size each at their own moment.
     */
    private static byte[] afterCrash(byte[] base, List<Event> pending, Random random) {
        int fate = random.nextInt(3);
        if (fate == 0 || pending.isEmpty()) {
            GrowableBytes all = new GrowableBytes(base);
            for (Event event : pending) {
                apply(all, event);
            }
            return all.toArray();
        }
        if (fate == 1) {
            return base.clone();
        }
        // Sizes after 0, 1, .. n pending operations, and the sectors each operation touches.
        long[] sizes = new long[pending.size() + 1];
        sizes[0] = base.length;
        TreeMap<Long, List<Integer>> touching = new TreeMap<>();
        for (int i = 0; i < pending.size(); i++) {
            Event event = pending.get(i);
            long from;
            long to;
            if (event instanceof Write write) {
                from = write.position();
                to = write.position() + write.bytes().length;
                sizes[i + 1] = Math.max(sizes[i], to);
            } else {
                long size = ((Truncate) event).size();
                from = size;
                to = Math.max(size, sizes[i]);
                sizes[i + 1] = Math.min(sizes[i], size);
            }
            for (long sector = from / SECTOR_SIZE; sector * SECTOR_SIZE < to; sector++) {
                touching.computeIfAbsent(sector, s -> new ArrayList<>()).add(i);
            }
        }
        GrowableBytes result = new GrowableBytes(base);
        for (Map.Entry<Long, List<Integer>> entry : touching.entrySet()) {
            List<Integer> operations = entry.getValue();
            int kept = random.nextInt(operations.size() + 1);
            long sectorStart = entry.getKey() * SECTOR_SIZE;
            for (int i = 0; i < kept; i++) {
                applyWithin(result, pending.get(operations.get(i)), sectorStart, sectorStart + SECTOR_SIZE);
            }
        }
        long size = sizes[random.nextInt(sizes.length)];
        result.truncate(size);
        result.extend(size);
        return result.toArray();
    }

    private static void apply(GrowableBytes file, Event event) {
        if (event instanceof Write write) {
            file.write(write.position(), write.bytes());
        } else {
            file.truncate(((Truncate) event).size());
        }
    }

    /** The part of {@code event} inside [from, to): a write's bytes, or a truncation's zeros. */
    private static void applyWithin(GrowableBytes file, Event event, long from, long to) {
        if (event instanceof Write write) {
            long start = Math.max(from, write.position());
            long end = Math.min(to, write.position() + write.bytes().length);
            if (start < end) {
                file.write(start, Arrays.copyOfRange(write.bytes(), (int) (start - write.position()),
                        (int) (end - write.position())));
            }
        } else {
            long start = Math.max(from, ((Truncate) event).size());
            if (start < to && start < file.size()) {
                file.write(start, new byte[(int) (Math.min(to, file.size()) - start)]);
            }
        }
    }

    private static Map<Path, byte[]> copy(Map<Path, byte[]> files) {
        Map<Path, byte[]> copy = new HashMap<>();
        files.forEach((path, bytes) -> copy.put(path, bytes.clone()));
        return copy;
    }

    /** A file's bytes in memory. */
    private static final class GrowableBytes {
        private byte[] bytes;
        private int size;

        GrowableBytes(byte[] initial) {
            bytes = initial.clone();
            size = initial.length;
        }

        int size() {
            return size;
        }

        byte[] toArray() {
            return Arrays.copyOf(bytes, size);
        }

        void write(long position, byte[] source) {
            extend(position + source.length);
            System.arraycopy(source, 0, bytes, (int) position, source.length);
        }

        /** Grows to {@code newSize} with zeros (does nothing when not shorter). */
        void extend(long newSize) {
            if (newSize > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("a simulated file holds less than 2 GiB, asked for " + newSize);
            }
            if (newSize > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.max(newSize, 2L * bytes.length));
            }
            if (newSize > size) {
                Arrays.fill(bytes, size, (int) newSize, (byte) 0);
                size = (int) newSize;
            }
        }

        void truncate(long newSize) {
            if (newSize < size) {
                size = (int) newSize;
            }
        }

        int read(ByteBuffer target, long position) {
            if (position >= size) {
                return -1;
            }
            int length = (int) Math.min(target.remaining(), size - position);
            target.put(bytes, (int) position, length);
            return length;
        }
    }

    /** One open file: reads see every write made so far; writes, truncations and forces go to the log. */
    private final class SimulatedStorage implements Storage {

        private final Path path;
        private final boolean writable;
        private boolean open = true;
        private final List<StorageLock> openLocks = new ArrayList<>();

        SimulatedStorage(Path path, boolean writable) {
            this.path = path;
            this.writable = writable;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public long size() throws IOException {
            synchronized (CrashSimulator.this) {
                return file().size();
            }
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
            synchronized (CrashSimulator.this) {
                return file().read(target, position);
            }
        }

        @Override
        public void write(ByteBuffer source, long position) throws IOException {
            requireWritable();
            byte[] bytes = new byte[source.remaining()];
            source.get(bytes);
            synchronized (CrashSimulator.this) {
                file().write(position, bytes);
                events.add(new Write(path, position, bytes));
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            requireWritable();
            synchronized (CrashSimulator.this) {
                GrowableBytes file = file();
                if (size < file.size()) {
                    file.truncate(size);
                    events.add(new Truncate(path, size));
                }
            }
        }

        @Override
        public void force(boolean metadata) throws IOException {
            synchronized (CrashSimulator.this) {
                file();
                events.add(new Force(path));
            }
        }

        @Override
        public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
            synchronized (CrashSimulator.this) {
                file();
                List<long[]> held = locks.computeIfAbsent(path, p -> new ArrayList<>());
                for (long[] region : held) {
                    boolean overlaps = region[0] < position + size && position < region[0] + region[1];
                    if (overlaps && !(shared && region[2] == 1)) {
                        return null;
                    }
                }
                long[] region = {position, size, shared ? 1 : 0};
                held.add(region);
                StorageLock lock = new StorageLock() {
                    private boolean held = true;

                    @Override
                    public boolean shared() {
                        return shared;
                    }

                    @Override
                    public void close() {
                        synchronized (CrashSimulator.this) {
                            if (held) {
                                held = false;
                                locks.get(path).remove(region);
                                openLocks.remove(this);
                            }
                        }
                    }
                };
                openLocks.add(lock);
                return lock;
            }
        }

        @Override
        public void close() throws IOException {
            synchronized (CrashSimulator.this) {
                for (StorageLock lock : List.copyOf(openLocks)) {
                    lock.close();
                }
                open = false;
            }
        }

        /** The live bytes of this file; fails once it is closed or deleted. */
        private GrowableBytes file() throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            GrowableBytes file = liveFiles.get(path);
            if (file == null) {
                throw new NoSuchFileException(path.toString(), null, "deleted while open (not simulated)");
            }
            return file;
        }

        private void requireWritable() {
            if (!writable) {
                throw new NonWritableChannelException();
            }
        }
    }
}
