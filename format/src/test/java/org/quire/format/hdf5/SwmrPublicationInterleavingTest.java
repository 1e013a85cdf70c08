package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * The SWMR publication protocol's races, checked exhaustively and deterministically through the
 * storage seam (issue 10, item 7; docs/swmr.md, "Crash safety"). An SWMR writer's appends are
 * recorded by a {@link CrashSimulator}; for each flush, the writes between the previous flush
 * and this one (chunks, index blocks, object header, superblock) are replayed onto a copy of the
 * file as the previous flush left it, while an SWMR reader that has read that state refreshes
 * and reads the rows an append may change (the last two chunks' rows of the old extent and
 * every new one, through the index as it finds it). The writer's next writes land at every point of the reader's
 * refresh+read (before its first storage call, before its second, ...: each of its calls is a
 * point where the writer may run), and the writer gets through every prefix of its writes there,
 * with the next write also torn in half (its first or its second half landed). The reader must
 * find the old committed state or the new one (never a mix: no new extent over old data, no fill
 * value under it), or, when the view holds a torn write, fail with a corrupt-file error after
 * its bounded retries (whole writes must not make it fail: the writer may pause between any two
 * of them); once the
 * writer's flush is complete, the same reader's next refresh+read must find the new state. A
 * fresh reader opening each of these files must also find one of the two states or fail.
 *
 * <p>Workloads: appends of 3 elements into chunks of 4 (a partial chunk rewritten in place)
 * past the extensible array's index block into its data blocks; single-element chunks through
 * the index block's data blocks into its first super block (more than 164 chunks); a fixed
 * array; two unlimited dimensions with a v2 B-tree whose leaf splits and root grows; Quire's
 * skip list past its first supernode.
 */
class SwmrPublicationInterleavingTest {

    private static final Path FILE = Path.of("interleave.h5");
    /** Retries without pauses: a view that stays torn fails at once, on the third read. */
    private static final SwmrReadOptions READ = new SwmrReadOptions(3, Duration.ofSeconds(5),
            Duration.ZERO, Duration.ZERO, ChunkCacheSettings.DEFAULT);

    /**
     * A dataset grown row by row: {@code initial} rows written before the switch to SWMR
     * writing, then {@code sizes}, its first dimension after each SWMR flush; the index reaches
     * a block of structure {@code reaches} (its growth is among the SWMR flushes).
     */
    private record Workload(String name, DatasetSpec spec, long initial, long[] sizes,
                            String reaches) {
    }

    /**
     * The dataset as a reader finds it: its shape and the bytes of its rows from a given one
     * on (the rows an append may change: the last chunks of the old state and the new ones).
     */
    private record State(long[] shape, byte[] data) {
        @Override
        public boolean equals(Object other) {
            return other instanceof State state && Arrays.equals(shape, state.shape)
                    && Arrays.equals(data, state.data);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(shape) * 31 + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "shape " + Arrays.toString(shape) + ", data " + Arrays.toString(data);
        }
    }

    /** A flush: the simulator's event count when it returned and the shape it committed. */
    private record Flush(int events, long[] shape) {
    }

    /** Rows read back below the old extent: two chunks of the workloads' largest (4 rows). */
    private static final long ROWS_BEFORE = 8;

    private static DatasetSpec.Builder int8(long... shape) {
        return DatasetSpec.builder(Datatype.INT8, shape);
    }

    private static long[] steps(long from, long to, long step) {
        List<Long> sizes = new ArrayList<>();
        for (long size = from; size <= to; size += step) {
            sizes.add(size);
        }
        return sizes.stream().mapToLong(Long::longValue).toArray();
    }

    static List<Workload> workloads() {
        // The extensible array's index block holds 4 chunks and the data blocks of its first 4
        // super blocks (16 + 32 + 2 x 32 + 2 x 64 chunks): chunk 244 is the first in a super
        // block of its own. A 2048-byte v2 B-tree leaf holds about 80 records of 2 chunks a
        // row: it splits (an internal root above two leaves) near row 40.
        return List.of(
                new Workload("extensible array, 3 per flush into chunks of 4", int8(0)
                        .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build(), 0,
                        steps(3, 48, 3), "extensible array data block"),
                new Workload("extensible array into its first super block", int8(0)
                        .maxShape(DatasetSpec.UNLIMITED).chunkShape(1).build(), 234,
                        steps(237, 258, 3), "extensible array super block"),
                new Workload("fixed array", int8(0).maxShape(60).chunkShape(4).build(), 0,
                        steps(3, 36, 3), "fixed array data block"),
                new Workload("v2 B-tree, a leaf splits", int8(0, 2).maxShape(
                        DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED).chunkShape(1, 1).build(),
                        30, steps(33, 54, 3), "version 2 B-tree internal node"),
                new Workload("skip list, past its first supernode of 64", int8(0)
                        .maxShape(DatasetSpec.UNLIMITED).chunkShape(1)
                        .quireOnlySkipListIndex().build(), 54, steps(57, 78, 3),
                        "skip list supernode"));
    }

    /** Element {@code i}'s byte: differs between neighbours and is never the fill value 0. */
    private static byte value(long i) {
        return (byte) (1 + i % 251);
    }

    /** Runs the workload's SWMR writer on a simulator; the flushes it returned from. */
    private static List<Flush> write(Workload workload, CrashSimulator simulator)
            throws IOException {
        List<Flush> flushes = new ArrayList<>();
        long[] shape = workload.spec().shape().clone();
        try (Hdf5File file = Hdf5File.create(FILE, simulator,
                WriteOptions.DEFAULT.withDurability(Durability.NONE))) {
            Dataset d = file.root().createDataset("d", workload.spec());
            if (workload.initial() > 0) {
                append(d, shape, workload.initial());
            }
            file.startSwmrWrite();
            flushes.add(new Flush(simulator.eventCount(), shape.clone()));
            for (long size : workload.sizes()) {
                append(d, shape, size);
                file.flush();
                flushes.add(new Flush(simulator.eventCount(), shape.clone()));
            }
        }
        Map<String, Long> blocks = Hdf5Verifier.verify(FILE, simulator).metadataBlocks();
        assertTrue(blocks.containsKey(workload.reaches()), workload.name() + ": " + blocks);
        return flushes;
    }

    /** Extends the dataset to {@code size} rows ({@code shape} follows) and writes the new ones. */
    private static void append(Dataset d, long[] shape, long size) throws IOException {
        long from = shape[0];
        shape[0] = size;
        d.extend(shape);
        long[] start = new long[shape.length];
        start[0] = from;
        long[] count = shape.clone();
        count[0] = size - from;
        byte[] bytes = new byte[(int) (count[0] * columns(shape))];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = value(from * columns(shape) + i);
        }
        d.write(start, count, bytes);
    }

    private static long columns(long[] shape) {
        return shape.length > 1 ? shape[1] : 1;
    }

    /** What a reader must find of the state of {@code shape} from row {@code from} on. */
    private static State expected(long[] shape, long from) {
        long columns = columns(shape);
        byte[] data = new byte[(int) (Math.max(0, shape[0] - from) * columns)];
        for (int i = 0; i < data.length; i++) {
            data[i] = value(from * columns + i);
        }
        return new State(shape.clone(), data);
    }

    /** The reader's refresh, then a read of every row from {@code from} to the extent. */
    private static State refreshAndRead(Dataset d, long from) throws IOException {
        d.refresh();
        return read(d, from);
    }

    private static State read(Dataset d, long from) throws IOException {
        long[] shape = d.shape();
        long[] start = new long[shape.length];
        start[0] = from;
        long[] count = shape.clone();
        count[0] = shape[0] - from;
        boolean empty = Arrays.stream(count).anyMatch(extent -> extent <= 0);
        return new State(shape, empty ? new byte[0] : d.readBytes(start, count));
    }

    /**
     * The file a reader reads while the writer's writes of one flush land at one point: at the
     * {@code switchAt}-th storage call (read or size) counted from {@link #arm}, {@code pending}
     * is applied before the call proceeds.
     */
    private static final class Interleaving implements StorageOpener {
        private final CrashSimulator disk;
        private List<CrashSimulator.Event> pending = List.of();
        private int tornHalf;
        private int calls;
        private int switchAt = -1;

        Interleaving(byte[] before) {
            disk = new CrashSimulator(Map.of(FILE, before));
        }

        /**
         * From now on, the {@code at}-th storage call first applies {@code writes}: all of
         * them but the last whole, the last torn ({@code half} 1: its first half, 2: its
         * second) or whole ({@code half} 0).
         */
        void arm(List<CrashSimulator.Event> writes, int half, int at) {
            pending = writes;
            tornHalf = half;
            calls = 0;
            switchAt = at;
        }

        /** Whether the armed writes landed (the reader made at least {@code switchAt} calls). */
        boolean landed() {
            return switchAt < 0;
        }

        private void point() throws IOException {
            if (switchAt >= 0 && calls++ == switchAt) {
                switchAt = -1;
                apply(pending, tornHalf);
            }
        }

        void apply(List<CrashSimulator.Event> writes, int half) throws IOException {
            try (Storage writer = disk.open(FILE, OpenMode.READ_WRITE)) {
                for (int i = 0; i < writes.size(); i++) {
                    CrashSimulator.Event event = writes.get(i);
                    if (event instanceof CrashSimulator.Write write) {
                        byte[] bytes = write.bytes();
                        int from = 0;
                        int to = bytes.length;
                        if (i == writes.size() - 1 && half != 0) {
                            from = half == 1 ? 0 : bytes.length / 2;
                            to = half == 1 ? bytes.length / 2 : bytes.length;
                        }
                        writer.write(ByteBuffer.wrap(bytes, from, to - from),
                                write.position() + from);
                    } else if (event instanceof CrashSimulator.Truncate truncate) {
                        writer.truncate(truncate.size());
                    }
                }
            }
        }

        @Override
        public Storage open(Path path, OpenMode mode) throws IOException {
            return new ForwardingStorage(disk.open(path, mode)) {
                @Override
                public long size() throws IOException {
                    point();
                    return super.size();
                }

                @Override
                public int read(ByteBuffer target, long position) throws IOException {
                    point();
                    return super.read(target, position);
                }
            };
        }
    }

    /** Counts of what the readers found, over all views of a workload. */
    private static final class Outcomes {
        int old;
        int committed;
        int failed;
        int views;

        void count(State found, State before, State after, String where) {
            views++;
            if (found == null) {
                failed++;
            } else if (found.equals(before)) {
                old++;
            } else if (found.equals(after)) {
                committed++;
            } else {
                throw new AssertionError(where + ": found " + found + ", expected the old state "
                        + before + " or the new " + after);
            }
        }
    }

    @Test
    void aReaderRefreshingAnywhereInAFlushSeesTheOldOrTheNewStateOrRetries() throws IOException {
        for (Workload workload : workloads()) {
            CrashSimulator simulator = new CrashSimulator();
            List<Flush> flushes = write(workload, simulator);
            List<CrashSimulator.Event> events = simulator.events();
            Outcomes outcomes = new Outcomes();
            for (int f = 1; f < flushes.size(); f++) {
                long from = Math.max(0, flushes.get(f - 1).shape()[0] - ROWS_BEFORE);
                State before = expected(flushes.get(f - 1).shape(), from);
                State after = expected(flushes.get(f).shape(), from);
                byte[] old = simulator.processCrash(flushes.get(f - 1).events()).get(FILE);
                List<CrashSimulator.Event> writes = new ArrayList<>();
                for (CrashSimulator.Event event : events.subList(flushes.get(f - 1).events(),
                        flushes.get(f).events())) {
                    if (event.path().equals(FILE) && (event instanceof CrashSimulator.Write
                            || event instanceof CrashSimulator.Truncate)) {
                        writes.add(event);
                    }
                }
                for (int landed = 0; landed <= writes.size(); landed++) {
                    for (int half = 0; half <= 2; half++) {
                        if (half > 0 && !(landed > 0 && writes.get(landed - 1)
                                instanceof CrashSimulator.Write write
                                && write.bytes().length > 1)) {
                            continue; // only a write of two bytes or more can be torn
                        }
                        String where = workload.name() + ", flush " + f + " of "
                                + (flushes.size() - 1) + ", " + landed + " of " + writes.size()
                                + " writes landed" + (half == 0 ? "" : ", the last torn ("
                                + (half == 1 ? "first" : "second") + " half)");
                        checkView(old, writes, landed, half, from, before, after, where,
                                outcomes);
                    }
                }
            }
            System.out.printf("%s: %d flushes, %d reader views: old state %d, new state %d, "
                            + "retries exhausted %d%n", workload.name(), flushes.size() - 1,
                    outcomes.views, outcomes.old, outcomes.committed, outcomes.failed);
            assertTrue(outcomes.old > 0 && outcomes.committed > 0, workload.name()
                    + ": the views must show both states");
        }
    }

    /**
     * One view: the writer's first {@code landed} writes (the last torn by {@code half}) land at
     * every point of a warm reader's refresh+read in turn, then in a fresh reader's open.
     */
    private static void checkView(byte[] old, List<CrashSimulator.Event> writes, int landed,
                                  int half, long from, State before, State after, String where,
                                  Outcomes outcomes) throws IOException {
        List<CrashSimulator.Event> prefix = writes.subList(0, landed);
        for (int at = 0; ; at++) {
            Interleaving file = new Interleaving(old);
            try (Hdf5File reader = Hdf5File.openSwmr(FILE, file, READ)) {
                Dataset d = reader.root().dataset("d");
                assertEquals(before, read(d, from), where + ": the reader's start");
                file.arm(prefix, half, at);
                State found;
                try {
                    found = refreshAndRead(d, from);
                } catch (CorruptFileException e) {
                    found = null; // its bounded retries all saw a torn block: it may fail so
                }
                if (!file.landed()) {
                    break; // the reader made fewer calls: every point was tried
                }
                if (found == null && half == 0) {
                    // Whole writes leave a consistent file: a writer paused there for long
                    // must not make its readers fail.
                    throw new AssertionError(where + ", landing before the reader's storage "
                            + "call " + at + ": the reader failed on whole writes");
                }
                outcomes.count(found, before, after, where + ", landing before the reader's "
                        + "storage call " + at);
                file.apply(writes, 0); // the flush completes (a torn write written whole)
                assertEquals(after, refreshAndRead(d, from), where + ", landing before call " + at
                        + ": the reader's next refresh once the flush completed");
            }
        }
        Interleaving file = new Interleaving(old);
        file.apply(prefix, half);
        State fresh;
        try (Hdf5File reader = Hdf5File.openSwmr(FILE, file, READ)) {
            fresh = read(reader.root().dataset("d"), from);
        } catch (CorruptFileException e) {
            if (half == 0) {
                throw new AssertionError(where + ": a reader opening it failed on whole writes",
                        e);
            }
            fresh = null;
        }
        outcomes.count(fresh, before, after, where + ": a reader opening it");
    }
}
