package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.StorageOpener;

/**
 * Quire's SWMR reader ({@link Hdf5File#openSwmr}) following h5py's (libhdf5 1.10.8's) SWMR
 * writer, {@code swmr_writer.py}: new extents appear on refresh and only then, every visible
 * element holds its final value (never the fill value, never torn), caches are invalidated when
 * the writer commits, and a writer killed mid-append leaves every flushed record readable.
 */
class SwmrReaderTest {

    @TempDir
    Path dir;

    private static long[] at(long index) {
        return new long[] {index};
    }

    /** plain[i] = packed[i] = 3 i + 1, records per the record contract, for i in [from, to). */
    private static void verify(Hdf5File file, long from, long to) throws IOException {
        if (to == from) {
            return;
        }
        long[] start = at(from);
        long[] count = at(to - from);
        for (String name : List.of("plain", "packed")) {
            long[] values = file.root().dataset(name).readLongs(start, count);
            for (int j = 0; j < values.length; j++) {
                assertEquals(3 * (from + j) + 1, values[j], name + "[" + (from + j) + "]");
            }
        }
        ByteBuffer records = file.root().dataset("records").read(start, count);
        RecordContract.check(from, to - from, records);
    }

    private static long shape(Hdf5File file, String name) throws IOException {
        return file.root().dataset(name).shape()[0];
    }

    @Test
    @StartsOutsideProgram
    void newExtentsAppearOnRefreshAndCachedPartialChunksAreDropped() throws Exception {
        Path path = dir.resolve("lockstep.h5");
        AtomicInteger reads = new AtomicInteger();
        StorageOpener counting = (file, mode) -> new org.quire.format.storage.ForwardingStorage(
                FileStorage.open(file, mode)) {
            @Override
            public int read(ByteBuffer target, long position) throws IOException {
                reads.incrementAndGet();
                return super.read(target, position);
            }
        };
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(path, "lockstep");
             Hdf5File reader = Hdf5File.openSwmr(path, counting, SwmrReadOptions.DEFAULT)) {
            assertTrue(reader.isSwmrReader());
            assertEquals(0, shape(reader, "plain"));
            writer.append(10);
            assertEquals(0, shape(reader, "plain"), "nothing new before refresh");
            reader.refresh();
            assertEquals(10, shape(reader, "packed"));
            verify(reader, 0, 10); // caches packed's first chunk, 10 of its 64 elements written

            writer.append(10);
            reader.refresh();
            assertEquals(20, shape(reader, "packed"));
            verify(reader, 0, 20); // a stale cached chunk would give 0 for 10..19

            int before = reads.get();
            reader.refresh();
            assertEquals(3, reads.get() - before, "an unchanged refresh reads one block of "
                    + "each dataset's object header, the one holding its dataspace");

            writer.append(2000); // new chunks, new extensible array blocks
            reader.refresh();
            verify(reader, 0, 2020);
            assertEquals(2020, writer.closeFile());
            reader.refresh();
            assertEquals(2020, shape(reader, "records"));
            verify(reader, 0, 2020);
        }
        try (Hdf5File closed = Hdf5File.open(path)) {
            assertEquals(2020, shape(closed, "records"), "closed cleanly: a plain reader opens");
        }
    }

    /**
     * The writer flushes chunks under an extent the reader already saw: the grown extent first
     * (its data still the fill value), the data in a later flush, then a rewrite of a filtered
     * chunk the reader holds decoded. Each refresh finds the object header unchanged; the next
     * read must still see what was flushed, as libhdf5's H5Drefresh does.
     */
    @Test
    @StartsOutsideProgram
    void dataFlushedUnderAnExtentAlreadySeenIsReadAfterRefresh() throws Exception {
        Path path = dir.resolve("under-extent.h5");
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(path, "lockstep");
             Hdf5File reader = Hdf5File.openSwmr(path)) {
            writer.append(10);
            reader.refresh();
            verify(reader, 0, 10);
            assertEquals(100, writer.command("extend 90", "extended"));
            reader.refresh();
            assertEquals(100, shape(reader, "plain"));
            assertEquals(0, reader.root().dataset("plain").readLongs(new long[] {70},
                    new long[] {1})[0], "grown, not written yet: the fill value");
            assertEquals(100, writer.command("write", "flushed"));
            reader.refresh();
            verify(reader, 0, 100); // a kept index view or cached chunk gives 0 from 64 on

            writer.command("rewrite 5 777", "rewritten");
            reader.refresh();
            for (String name : new String[] {"plain", "packed"}) {
                assertEquals(777, reader.root().dataset(name).readLongs(new long[] {5},
                        new long[] {1})[0], name + ": the rewritten element");
            }
            writer.command("rewrite 5 16", "rewritten");
            reader.refresh();
            verify(reader, 0, 100);
            assertEquals(100, writer.closeFile());
        }
    }

    @Test
    @StartsOutsideProgram
    void followsAFlatOutWriterSeeingEveryRecordIntact() throws Exception {
        Path path = dir.resolve("flat-out.h5");
        long total = 30_000;
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(path, "run", Long.toString(total),
                "7");
             Hdf5File reader = Hdf5File.openSwmr(path)) {
            Thread drain = new Thread(() -> {
                try {
                    writer.awaitClosed();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            drain.start();
            long seen = 0;
            int growths = 0;
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (seen < total && System.nanoTime() < deadline) {
                reader.refresh();
                long now = Math.min(shape(reader, "plain"), Math.min(shape(reader, "packed"),
                        shape(reader, "records")));
                assertTrue(now >= seen, "an extent shrank: " + seen + " -> " + now);
                if (now > seen) {
                    verify(reader, seen, now);
                    seen = now;
                    growths++;
                }
            }
            drain.join(60_000);
            assertEquals(total, seen);
            assertTrue(growths > 5, "the reader saw the file grow while it was written: "
                    + growths + " growths");
            System.out.println("SWMR reader followed h5py: " + growths + " growths, "
                    + reader.metadataReadRetries() + " metadata reads retried "
                    + reader.metadataReadRetriesByStructure());
        }
    }

    @Test
    @StartsOutsideProgram
    void everyFlushedRecordOfAKilledWriterIsRead() throws Exception {
        Path path = dir.resolve("killed.h5");
        long flushed;
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(path, "run", "100000000", "5")) {
            while (writer.expect("flushed") < 3000) {
                // appending
            }
            writer.kill();
            flushed = writer.flushed();
        }
        long visible;
        try (Hdf5File reader = Hdf5File.openSwmr(path)) {
            for (String name : List.of("plain", "packed", "records")) {
                assertTrue(shape(reader, name) >= flushed, name + ": " + shape(reader, name)
                        + " visible, " + flushed + " flushed");
            }
            visible = shape(reader, "records");
            verify(reader, 0, Math.min(visible, Math.min(shape(reader, "plain"),
                    shape(reader, "packed"))));
        }
        FileOpenForWritingException plain = assertThrows(FileOpenForWritingException.class,
                () -> Hdf5File.open(path));
        assertTrue(plain.getMessage().contains("0x05"), plain.getMessage());

        Path copy = dir.resolve("h5clear-copy.h5");
        Files.copy(path, copy);
        ExternalTools.requireTool("h5clear");
        ExternalTools.Result cleared = ExternalTools.run(List.of("h5clear", "-s",
                copy.toString()), 60);
        assertEquals(0, cleared.exitCode(), cleared.output());
        assertTrue(Files.size(copy) < 4096, "libhdf5's h5clear -s cuts an SWMR writer's file "
                + "to its stale end of file address: " + Files.size(copy) + " bytes left of "
                + Files.size(path));

        long size = Files.size(path);
        Hdf5File.recover(path);
        assertEquals(size, Files.size(path), "recover never cuts");
        ExternalTools.Result h5py = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    r = f['records'][:]",
                        "    ok = all(int(x['seq']) == i for i, x in enumerate(r))",
                        "    print(len(r), ok, f['plain'].shape[0], int(f['plain'][-1]))"),
                path.toString()), 120);
        assertEquals(0, h5py.exitCode(), h5py.output());
        // Each dataset is flushed on its own: a kill between two leaves them a batch apart.
        String[] read = h5py.stdout().trim().split(" ");
        assertEquals(visible + " True", read[0] + " " + read[1], h5py.stdout());
        long plainLength = Long.parseLong(read[2]);
        assertTrue(plainLength >= flushed, h5py.stdout());
        assertEquals(3 * (plainLength - 1) + 1, Long.parseLong(read[3]), h5py.stdout());
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", "-H", path.toString()),
                60);
        assertEquals(0, dump.exitCode(), dump.output());
        try (Hdf5File reader = Hdf5File.open(path)) {
            verify(reader, 0, Math.min(visible, Math.min(shape(reader, "plain"),
                    shape(reader, "packed"))));
        }
    }

    @Test
    void aClosedFileOpensForSwmrReadingAndRefreshIsRequiredOnlyThere() throws IOException {
        Path path = quireFile("closed.h5", 100);
        try (Hdf5File reader = Hdf5File.openSwmr(path)) {
            Dataset d = reader.root().dataset("d");
            assertArrayEquals(at(100), d.shape());
            d.refresh();
            assertEquals(99, d.readLongs(at(99), at(1))[0]);
            assertEquals(0, reader.metadataReadRetries());
        }
        try (Hdf5File plain = Hdf5File.open(path)) {
            Dataset d = plain.root().dataset("d");
            assertThrows(IllegalStateException.class, d::refresh);
            assertThrows(IllegalStateException.class, plain::refresh);
        }
    }

    /** A Quire file, closed, with "d": int64, chunks of 1 (index blocks beyond the first). */
    private Path quireFile(String name, int elements) throws IOException {
        Path path = dir.resolve(name);
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(1).build());
            d.extend(elements);
            long[] values = new long[elements];
            for (int i = 0; i < elements; i++) {
                values[i] = i;
            }
            d.write(at(0), at(elements), values);
        }
        return path;
    }

    /** Storage whose next {@code torn} reads return one byte changed, as a torn read would. */
    private static final class TornReads {
        final AtomicInteger torn = new AtomicInteger();
        final AtomicInteger tornAt = new AtomicInteger(-1);
        long onlyAt = -1;

        StorageOpener opener() {
            return (file, mode) -> new org.quire.format.storage.ForwardingStorage(
                    FileStorage.open(file, mode)) {
                @Override
                public int read(ByteBuffer target, long position) throws IOException {
                    int start = target.position();
                    int read = super.read(target, position);
                    if (read > 8 && (onlyAt < 0 || position == onlyAt)
                            && torn.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0) {
                        int middle = start + read / 2;
                        target.put(middle, (byte) ~target.get(middle));
                    }
                    return read;
                }
            };
        }
    }

    @Test
    void aTornObjectHeaderIsReadAgainAndCounted() throws IOException {
        Path path = quireFile("torn.h5", 10);
        TornReads storage = new TornReads();
        try (Hdf5File reader = Hdf5File.openSwmr(path, storage.opener(),
                SwmrReadOptions.DEFAULT)) {
            Dataset d = reader.root().dataset("d");
            storage.onlyAt = d.address();
            storage.torn.set(3);
            d.refresh();
            assertEquals(3, reader.metadataReadRetries());
            assertEquals(3L, reader.metadataReadRetriesByStructure().values().stream()
                    .mapToLong(Long::longValue).sum());
            assertEquals(9, d.readLongs(at(9), at(1))[0]);
        }
    }

    @Test
    void aTornIndexBlockIsReadAgainThroughTheReopenedIndex() throws IOException {
        Path path = quireFile("torn-index.h5", 100);
        TornReads storage = new TornReads();
        try (Hdf5File reader = Hdf5File.openSwmr(path, storage.opener(),
                SwmrReadOptions.DEFAULT)) {
            Dataset d = reader.root().dataset("d");
            storage.torn.set(2); // the data block holding chunk 60, then the array's header
            assertEquals(60, d.readLongs(at(60), at(1))[0]);
            assertEquals(2, reader.metadataReadRetries(),
                    reader.metadataReadRetriesByStructure().toString());
        }
    }

    @Test
    void aBlockTornAtEveryReadFailsWithinTheBudgetNamingIt() throws IOException {
        Path path = quireFile("damaged.h5", 10);
        TornReads storage = new TornReads();
        try (Hdf5File reader = Hdf5File.openSwmr(path, storage.opener(),
                SwmrReadOptions.DEFAULT)) {
            Dataset d = reader.root().dataset("d");
            storage.onlyAt = d.address();
            storage.torn.set(Integer.MAX_VALUE);
            long start = System.nanoTime();
            MetadataRetriesExhaustedException e = assertThrows(
                    MetadataRetriesExhaustedException.class, d::refresh);
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 2, "gave up after " + seconds + " s");
            assertTrue(e.attempts() > 1 && e.attempts() <= 20, "attempts " + e.attempts());
            String message = e.getMessage();
            assertTrue(message.startsWith(path.toString() + ": corrupt object header"), message);
            assertTrue(message.contains("offset") && message.contains(e.attempts() + " reads in")
                    && message.contains("SWMR reader") && message.contains("of /d"), message);
        }
        try (Hdf5File reader = Hdf5File.openSwmr(path, storage.opener(), SwmrReadOptions
                .DEFAULT.withAttempts(1, java.time.Duration.ofSeconds(1)))) {
            storage.torn.set(0);
            Dataset d = reader.root().dataset("d");
            storage.torn.set(1);
            MetadataRetriesExhaustedException e = assertThrows(
                    MetadataRetriesExhaustedException.class, d::refresh);
            assertEquals(1, e.attempts());
            assertEquals(0, reader.metadataReadRetries());
        }
    }
}
