package org.quire.benchmarks;

import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionParallelReader;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Write and read bandwidth of one shared SION container against file-per-process, for
 * {@code benchmarks/sion-bandwidth.sh}. Run by every rank of a {@code quire run} job:
 *
 * <pre>
 * quire run -n N -cp benchmarks/target/quire-benchmarks.jar org.quire.benchmarks.SionBandwidth \
 *     DIRECTORY BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE REPEAT [multifile]
 * </pre>
 *
 * Every rank writes BYTES_PER_RANK bytes (zeros, as {@code dd if=/dev/zero}) in writes of
 * WRITE_SIZE bytes, once into {@code DIRECTORY/bandwidth.sion} (one task per rank, requested chunk
 * size CHUNK_SIZE, the default alignment: the file store's block size, at least 64 KiB) and once
 * into its own file {@code DIRECTORY/bandwidth.fpp.RANK}: first with fsync before close (SION: fsync at collective
 * close; file-per-process: {@code force} before close), then without. After the fsync'd writes
 * both are read back in reads of WRITE_SIZE bytes, once after dropping the page cache (cold) and
 * once more straight after (warm). Each step starts after a barrier and lasts, for the job, as
 * long as its slowest rank (SION: collective open to collective close; file-per-process: open to
 * close); rank 0 prints one line per step:
 *
 * <pre>
 * result method=sion op=write_fsync ranks=4 write_size=65536 bytes=1073741824 seconds=2.345
 * phases method=sion op=write_fsync ranks=4 write_size=65536 open=0.004 data=2.300 close=0.041
 * </pre>
 *
 * The phases line splits the step (each phase the slowest rank's): SION's collective open, the
 * writes or reads, and the collective close; file-per-process: open, writes or reads (with its
 * fsync), close.
 *
 * Dirty pages are written back (untimed) before every write step so that one step's write-back
 * does not land in the next. One small untimed write and read per method come first (class
 * loading). REPEAT only alternates which method goes first. Files are deleted at the end.
 *
 * <p>With {@code multifile} a third method, {@code sionmf}, writes the same data as a SION set of
 * one physical file per rank ({@code fileCount} = ranks, SIONlib's multi-file mode:
 * {@code DIRECTORY/bandwidth.mf.sion}, {@code .000001}, ...), read back the same way: one
 * container for the job, but no file shared by two writers.
 */
public final class SionBandwidth {

    private enum Method {
        SION("sion"), SION_FILE_PER_RANK("sionmf"), FILE_PER_PROCESS("fpp");

        final String label;

        Method(String label) {
            this.label = label;
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private final Communicator world;
    private final Path container;
    /** The multi-file set's name (its physical file 0). */
    private final Path multiFileContainer;
    private final List<Method> methods;
    private final Path ownFile;
    private final long bytesPerRank;
    private final ByteBuffer buffer;
    private final long chunkSize;
    /** System.nanoTime() when the current step's open returned and when its close began. */
    private long opened;
    private long closing;

    private SionBandwidth(Communicator world, Path directory, long bytesPerRank, int writeSize, long chunkSize,
                          boolean multiFile) {
        if (bytesPerRank <= 0 || writeSize <= 0 || bytesPerRank % writeSize != 0) {
            throw new IllegalArgumentException("BYTES_PER_RANK (" + bytesPerRank + ") must be a positive multiple of"
                    + " WRITE_SIZE (" + writeSize + ")");
        }
        this.world = world;
        this.container = directory.resolve("bandwidth.sion");
        this.multiFileContainer = directory.resolve("bandwidth.mf.sion");
        this.methods = multiFile ? List.of(Method.SION, Method.SION_FILE_PER_RANK, Method.FILE_PER_PROCESS)
                : List.of(Method.SION, Method.FILE_PER_PROCESS);
        this.ownFile = directory.resolve("bandwidth.fpp." + world.rank());
        this.bytesPerRank = bytesPerRank;
        this.buffer = ByteBuffer.allocateDirect(writeSize);
        this.chunkSize = chunkSize;
    }

    public static void main(String[] args) throws IOException {
        try (Job job = Quire.init(args)) {
            String[] arguments = job.arguments();
            boolean multiFile = arguments.length == 6 && arguments[5].equals("multifile");
            if (arguments.length != 5 && !multiFile) {
                throw new IllegalArgumentException("usage: SionBandwidth DIRECTORY BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE"
                        + " REPEAT [multifile]");
            }
            new SionBandwidth(job.world(), Path.of(arguments[0]), Long.parseLong(arguments[1]),
                    Integer.parseInt(arguments[2]), Long.parseLong(arguments[3]), multiFile)
                    .run(Integer.parseInt(arguments[4]));
        }
    }

    private void run(int repeat) throws IOException {
        warmUp();
        List<Method> order = new ArrayList<>(methods);
        if (repeat % 2 != 0) {
            Collections.reverse(order);
        }
        for (boolean fsync : new boolean[] {true, false}) {
            for (Method method : order) {
                onRankZeroThenBarrier(PageCache::flush);
                measure(method, fsync ? "write_fsync" : "write", () -> write(method, fsync, bytesPerRank));
            }
            if (fsync) {
                for (Method method : order) {
                    boolean dropped = dropPageCache();
                    if (dropped) {
                        measure(method, "read_cold", () -> read(method, bytesPerRank));
                    } else if (world.rank() == 0) {
                        System.out.println("note drop_caches refused: no cold read");
                    }
                    measure(method, "read_warm", () -> read(method, bytesPerRank));
                }
            }
            deleteFiles();
        }
        onRankZeroThenBarrier(PageCache::flush);
    }

    /** One small untimed write and read per method, so that class loading is not timed. */
    private void warmUp() throws IOException {
        for (Method method : methods) {
            write(method, false, buffer.capacity());
            read(method, buffer.capacity());
        }
        deleteFiles();
    }

    /** Deletes both files once every rank is done with them (a SION reader's close is local). */
    private void deleteFiles() throws IOException {
        world.barrier();
        if (world.rank() == 0) {
            Files.deleteIfExists(container);
            for (int file = 0; file < world.size(); file++) {
                Files.deleteIfExists(SionFileNames.physicalFile(multiFileContainer, file));
            }
        }
        Files.deleteIfExists(ownFile);
    }

    private void write(Method method, boolean fsync, long bytes) throws IOException {
        long writes = bytes / buffer.capacity();
        if (method != Method.FILE_PER_PROCESS) {
            boolean shared = method == Method.SION;
            try (SionParallelWriter out = SionParallelWriter.open(shared ? container : multiFileContainer, world,
                    chunkSize, shared ? 1 : world.size(),
                    SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults().withFsyncOnClose(fsync))) {
                opened = System.nanoTime();
                for (long i = 0; i < writes; i++) {
                    out.write(buffer.clear());
                }
                closing = System.nanoTime();
            }
        } else {
            try (FileChannel out = FileChannel.open(ownFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                opened = System.nanoTime();
                for (long i = 0; i < writes; i++) {
                    buffer.clear();
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
                if (fsync) {
                    out.force(true);
                }
                closing = System.nanoTime();
            }
        }
    }

    private void read(Method method, long bytes) throws IOException {
        long read;
        if (method != Method.FILE_PER_PROCESS) {
            try (SionParallelReader in = SionParallelReader.openOwnTask(
                    method == Method.SION ? container : multiFileContainer, world)) {
                SionTask task = in.tasks().get(0);
                try (TaskStreamChannel stream = in.openTaskStream(task)) {
                    opened = System.nanoTime();
                    read = drain(stream);
                }
                closing = System.nanoTime();
            }
        } else {
            try (FileChannel in = FileChannel.open(ownFile, StandardOpenOption.READ)) {
                opened = System.nanoTime();
                read = drain(in);
                closing = System.nanoTime();
            }
        }
        if (read != bytes) {
            throw new IOException("rank " + world.rank() + " read " + read + " bytes back with " + method.label
                    + ", wrote " + bytes);
        }
    }

    private long drain(ReadableByteChannel in) throws IOException {
        long total = 0;
        while (true) {
            int n = in.read(buffer.clear());
            if (n < 0) {
                return total;
            }
            total += n;
        }
    }

    /**
     * Times {@code step} on every rank from a common barrier; rank 0 prints the slowest rank's time
     * and the slowest rank's time in each phase.
     */
    private void measure(Method method, String op, Step step) throws IOException {
        world.barrier();
        long start = System.nanoTime();
        step.run();
        long end = System.nanoTime();
        long[] slowest = world.reduce(new long[] {end - start, opened - start, closing - opened, end - closing},
                ReduceOp.MAX, 0);
        if (world.rank() == 0) {
            System.out.printf("result method=%s op=%s ranks=%d write_size=%d bytes=%d seconds=%.6f%n", method.label, op,
                    world.size(), buffer.capacity(), bytesPerRank * world.size(), slowest[0] / 1e9);
            System.out.printf("phases method=%s op=%s ranks=%d write_size=%d open=%.6f data=%.6f close=%.6f%n",
                    method.label, op, world.size(), buffer.capacity(), slowest[1] / 1e9, slowest[2] / 1e9,
                    slowest[3] / 1e9);
        }
    }

    private boolean dropPageCache() throws IOException {
        byte[] dropped = world.broadcast(world.rank() == 0 ? new byte[] {(byte) (PageCache.drop() ? 1 : 0)} : null, 0);
        return dropped[0] == 1;
    }

    private void onRankZeroThenBarrier(Step step) throws IOException {
        if (world.rank() == 0) {
            step.run();
        }
        world.barrier();
    }
}
