package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;

/**
 * A {@link Storage} in memory that records the order of writes and forces, with the bytes of
 * each write, so a test can rebuild what a crash would leave on disk ({@link #imageWith}).
 * Bytes are kept in sparse pages, so addresses allocated but never written cost nothing.
 */
final class RecordingStorage implements Storage {

    /** One write (its address and length) or one force, in call order. */
    record Event(boolean force, long address, int length) {

        static Event write(long address, int length) {
            return new Event(false, address, length);
        }

        static final Event FORCE = new Event(true, -1, 0);

        @Override
        public String toString() {
            return force ? "force" : "write " + address + "+" + length;
        }
    }

    private static final int PAGE = 4096;

    private final Map<Long, byte[]> pages = new HashMap<>();
    private final List<Event> events = new ArrayList<>();
    /** The bytes of each event: a copy for a write, null for a force. */
    private final List<byte[]> contents = new ArrayList<>();
    private long size;

    /** Every write and force so far, oldest first. */
    List<Event> events() {
        return events;
    }

    /** Addresses written, in order, forces left out. */
    List<Long> writtenAddresses() {
        return events.stream().filter(event -> !event.force()).map(Event::address).toList();
    }

    void clearEvents() {
        events.clear();
        contents.clear();
    }

    /**
     * What a disk would hold had only some of the recorded writes reached it: a new storage
     * with the writes whose event index {@code survives} accepts applied in order.
     */
    RecordingStorage imageWith(IntPredicate survives) {
        RecordingStorage image = new RecordingStorage();
        for (int i = 0; i < events.size(); i++) {
            if (!events.get(i).force() && survives.test(i)) {
                image.write(ByteBuffer.wrap(contents.get(i)), events.get(i).address());
            }
        }
        return image;
    }

    @Override
    public Path path() {
        return Path.of("recording-storage");
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(ByteBuffer target, long position) {
        if (position >= size) {
            return -1;
        }
        int count = (int) Math.min(target.remaining(), size - position);
        long at = position;
        for (int left = count; left > 0; ) {
            int inPage = (int) (at % PAGE);
            int run = Math.min(left, PAGE - inPage);
            byte[] page = pages.get(at / PAGE);
            if (page == null) {
                target.put(new byte[run]);
            } else {
                target.put(page, inPage, run);
            }
            at += run;
            left -= run;
        }
        return count;
    }

    @Override
    public void write(ByteBuffer source, long position) {
        events.add(Event.write(position, source.remaining()));
        byte[] copy = new byte[source.remaining()];
        source.duplicate().get(copy);
        contents.add(copy);
        long at = position;
        while (source.hasRemaining()) {
            int inPage = (int) (at % PAGE);
            int run = Math.min(source.remaining(), PAGE - inPage);
            source.get(pages.computeIfAbsent(at / PAGE, page -> new byte[PAGE]), inPage, run);
            at += run;
        }
        size = Math.max(size, at);
    }

    @Override
    public void truncate(long newSize) {
        throw new UnsupportedOperationException("the metadata cache never truncates");
    }

    @Override
    public void force(boolean metadata) {
        events.add(Event.FORCE);
        contents.add(null);
    }

    @Override
    public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
        throw new UnsupportedOperationException("the metadata cache never locks");
    }

    @Override
    public void close() {
    }
}
