package org.quire.benchmarks;

import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionWriteOptions;
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
 * SionWriteProbe DIRECTORY RANKS MIB_PER_RANK WRITE_KIB LAYOUT     # LAYOUT: shared, perrank or own
 * </pre>
 *
 * Every rank (a thread named {@code rank-R}, {@link LocalWorld}) writes MIB_PER_RANK in writes of
 * WRITE_KIB from one buffer: {@code shared} into one SION container (fileCount 1), {@code perrank}
 * into a SION set of one physical file per rank (fileCount = RANKS, SIONlib's multi-file mode),
 * {@code own} into a plain file of its own. Requested chunk 16 MiB, the default alignment. Prints
 * the slowest rank's seconds from open to close and in each phase (open, writes, close), and the
 * largest CPU time (user + system) a rank spent in its writes; deletes the files.
 */
public final class SionWriteProbe {

    private static final long CHUNK_SIZE = 16L << 20;

    private SionWriteProbe() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: SionWriteProbe DIRECTORY RANKS MIB_PER_RANK WRITE_KIB"
                    + " shared|perrank|own");
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
            long writes = bytesPerRank / writeSize;
            world.barrier();
            long start = System.nanoTime();
            long opened;
            long closing;
            long cpuStart;
            long cpu;
            if (layout.equals("own")) {
                try (FileChannel out = FileChannel.open(directory.resolve("write-probe.own." + world.rank()),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
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
                        SionWriteOptions.defaults().withFsyncOnClose(false))) {
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
        });
        long[] slowest = new long[5];
        for (long[] rank : nanos) {
            for (int i = 0; i < slowest.length; i++) {
                slowest[i] = Math.max(slowest[i], rank[i]);
            }
        }
        System.out.printf("result layout=%s ranks=%d write_size=%d bytes=%d seconds=%.6f open=%.6f data=%.6f close=%.6f"
                + " data_cpu=%.6f%n",
                layout, ranks, writeSize, bytesPerRank * ranks, slowest[0] / 1e9, slowest[1] / 1e9, slowest[2] / 1e9,
                slowest[3] / 1e9, slowest[4] / 1e9);
        for (int rank = 0; rank < ranks; rank++) {
            Files.deleteIfExists(SionFileNames.physicalFile(container, rank));
            Files.deleteIfExists(directory.resolve("write-probe.own." + rank));
        }
    }
}
