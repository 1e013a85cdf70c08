package org.quire.benchmarks;

import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.Communicator;
import org.quire.runtime.local.LocalWorld;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/**
 * N writers into the page cache (no fsync) in one JVM, one layout per run, for counting the inode
 * lock waits of each layout under {@code perf} ({@code benchmarks/sion-write-lock.sh};
 * docs/benchmarks.md, "The write gap: one SION file per rank"):
 *
 * <pre>
 * SionWriteProbe DIRECTORY RANKS MIB_PER_RANK WRITE_KIB LAYOUT [nojournal]   # LAYOUT: shared, perrank or own
 * </pre>
 *
 * Every rank (a thread named {@code rank-R}, {@link LocalWorld}) writes MIB_PER_RANK in writes of
 * WRITE_KIB from one buffer: {@code shared} into one SION container (fileCount 1), {@code perrank}
 * into a SION set of one physical file per rank (fileCount = RANKS, SIONlib's multi-file mode),
 * {@code own} into a plain file of its own. Requested chunk 16 MiB, the default alignment. One
 * untimed write of one buffer in the same layout comes first (class loading). Prints
 * the slowest rank's seconds from open to close and in each phase (open, writes, close), and the
 * largest CPU time (user + system) a rank spent in its writes; deletes the files. {@code nojournal}
 * opens the SION layouts without the recovery journal (whose header open forces with META1).
 */
public final class SionWriteProbe {

    private static final long CHUNK_SIZE = 16L << 20;

    private SionWriteProbe() {
    }

    public static void main(String[] args) throws IOException {
        boolean journal = args.length == 5;
        if (!journal && !(args.length == 6 && args[5].equals("nojournal"))) {
            throw new IllegalArgumentException("usage: SionWriteProbe DIRECTORY RANKS MIB_PER_RANK WRITE_KIB"
                    + " shared|perrank|own [nojournal]");
        }
        Path directory = Path.of(args[0]);
        int ranks = Integer.parseInt(args[1]);
        long bytesPerRank = Long.parseLong(args[2]) << 20;
        int writeSize = Integer.parseInt(args[3]) << 10;
        String layout = args[4];
        if (!List.of("shared", "perrank", "own").contains(layout)) {
            throw new IllegalArgumentException("LAYOUT must be shared, perrank or own, not " + layout);
        }
        Path container = directory.resolve("write-probe.sion");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<long[]> nanos = LocalWorld.run(ranks, Duration.ofMinutes(10), world -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(writeSize);
            // One untimed write of one buffer first: a fresh JVM's first SION open loads and links the
            // format's classes, which would otherwise be timed as the open.
            write(world, directory, container, layout, journal, buffer, 1, threads);
            deleteFiles(world, directory, container);
            long[] timed = write(world, directory, container, layout, journal, buffer, bytesPerRank / writeSize,
                    threads);
            deleteFiles(world, directory, container);
            return timed;
        });
        long[] slowest = new long[5];
        for (long[] rank : nanos) {
            for (int i = 0; i < slowest.length; i++) {
                slowest[i] = Math.max(slowest[i], rank[i]);
            }
        }
        System.out.printf("result layout=%s%s ranks=%d write_size=%d bytes=%d seconds=%.6f open=%.6f data=%.6f close=%.6f"
                + " data_cpu=%.6f%n", layout, journal ? "" : "-nojournal", ranks, writeSize, bytesPerRank * ranks,
                slowest[0] / 1e9, slowest[1] / 1e9, slowest[2] / 1e9, slowest[3] / 1e9, slowest[4] / 1e9);
    }

    /**
     * Writes {@code writes} buffers on this rank in {@code layout} from a common barrier.
     *
     * @return nanoseconds from the barrier to the end, in the open, in the writes, in the close, and
     *         this thread's CPU time in the writes
     */
    private static long[] write(Communicator world, Path directory, Path container, String layout, boolean journal,
                                ByteBuffer buffer, long writes, ThreadMXBean threads) throws IOException {
        world.barrier();
        long start = System.nanoTime();
        long opened;
        long closing;
        long cpuStart;
        long cpu;
        if (layout.equals("own")) {
            try (FileChannel out = FileChannel.open(ownFile(directory, world.rank()), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                opened = System.nanoTime();
                cpuStart = threads.getCurrentThreadCpuTime();
                for (long i = 0; i < writes; i++) {
                    buffer.clear();
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
                cpu = threads.getCurrentThreadCpuTime() - cpuStart;
                closing = System.nanoTime();
            }
        } else {
            try (SionParallelWriter out = SionParallelWriter.open(container, world, CHUNK_SIZE,
                    layout.equals("shared") ? 1 : world.size(), SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE,
                    SionWriteOptions.defaults().withFsyncOnClose(false).withJournal(journal))) {
                opened = System.nanoTime();
                cpuStart = threads.getCurrentThreadCpuTime();
                for (long i = 0; i < writes; i++) {
                    out.write(buffer.clear());
                }
                cpu = threads.getCurrentThreadCpuTime() - cpuStart;
                closing = System.nanoTime();
            }
        }
        long end = System.nanoTime();
        return new long[] {end - start, opened - start, closing - opened, end - closing, cpu};
    }

    private static Path ownFile(Path directory, int rank) {
        return directory.resolve("write-probe.own." + rank);
    }

    /** Rank 0 deletes every layout's files once all ranks are done with them. */
    private static void deleteFiles(Communicator world, Path directory, Path container) throws IOException {
        world.barrier();
        if (world.rank() == 0) {
            for (int rank = 0; rank < world.size(); rank++) {
                Files.deleteIfExists(SionFileNames.physicalFile(container, rank));
                Files.deleteIfExists(ownFile(directory, rank));
            }
        }
        world.barrier();
    }
}
