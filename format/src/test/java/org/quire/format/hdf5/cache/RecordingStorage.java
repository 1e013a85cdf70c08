package org.quire.format.hdf5.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;

/**
 * A {@link Storage} in memory that records the order of writes and forces: enough to check
 * the order a flush puts on disk, not a crash simulator. Bytes are kept in sparse pages, so
 * addresses that are allocated but never written cost nothing.
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
    }

    @Override
    public StorageLock tryLock(boolean shared) throws IOException {
        throw new UnsupportedOperationException("the metadata cache never locks");
    }

    @Override
    public void close() {
    }
}
