package org.quire.benchmarks;

import org.quire.format.sion.SionParallelReader;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.format.sion.TaskStreamChannel;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The cheap check that {@code benchmarks/sion-bandwidth.sh} runs before timing Quire against
 * SIONlib's C library: both must write the same thing. Run by every rank of a {@code quire run}
 * job, between the C program's {@code --check-write} (which wrote SIONLIB_FILE) and its
 * {@code --check-read} (which reads QUIRE_FILE):
 *
 * <pre>
 * quire run -n N -cp benchmarks/target/quire-benchmarks.jar org.quire.benchmarks.SionInteropCheck \
 *     QUIRE_FILE SIONLIB_FILE BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE
 * </pre>
 *
 * Rank r writes BYTES_PER_RANK bytes of value r + 1 into QUIRE_FILE through
 * {@link SionParallelWriter} (writes of WRITE_SIZE bytes, requested chunk CHUNK_SIZE, the default
 * alignment), then reads its own task of SIONLIB_FILE through {@link SionParallelReader} and
 * requires exactly BYTES_PER_RANK bytes of value r + 1; any difference names the file and task.
 */
public final class SionInteropCheck {

    private SionInteropCheck() {
    }

    public static void main(String[] args) throws IOException {
        try (Job job = Quire.init(args)) {
            String[] arguments = job.arguments();
            if (arguments.length != 5) {
                throw new IllegalArgumentException("usage: SionInteropCheck QUIRE_FILE SIONLIB_FILE BYTES_PER_RANK"
                        + " WRITE_SIZE CHUNK_SIZE");
            }
            Communicator world = job.world();
            long bytesPerRank = Long.parseLong(arguments[2]);
            ByteBuffer buffer = ByteBuffer.allocateDirect(Integer.parseInt(arguments[3]));
            byte value = (byte) (world.rank() + 1);
            write(Path.of(arguments[0]), world, bytesPerRank, buffer, value, Long.parseLong(arguments[4]));
            long read = readExpecting(Path.of(arguments[1]), world, buffer, value);
            if (read != bytesPerRank) {
                throw new IOException(arguments[1] + ": task " + world.rank() + " holds " + read + " bytes, expected "
                        + bytesPerRank);
            }
            if (world.rank() == 0) {
                System.out.println("check Quire read " + world.size() + " tasks of " + bytesPerRank
                        + " bytes of value rank+1 from " + arguments[1]);
            }
        }
    }

    private static void write(Path file, Communicator world, long bytes, ByteBuffer buffer, byte value, long chunk)
            throws IOException {
        while (buffer.hasRemaining()) {
            buffer.put(value);
        }
        try (SionParallelWriter out = SionParallelWriter.open(file, world, chunk, 1,
                SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE, SionWriteOptions.defaults())) {
            for (long written = 0; written < bytes; written += buffer.capacity()) {
                out.write(buffer.clear());
            }
        }
    }

    private static long readExpecting(Path file, Communicator world, ByteBuffer buffer, byte value)
            throws IOException {
        long total = 0;
        try (SionParallelReader in = SionParallelReader.openOwnTask(file, world)) {
            SionTask task = in.tasks().get(0);
            try (TaskStreamChannel stream = in.openTaskStream(task)) {
                for (int n; (n = stream.read(buffer.clear())) >= 0; total += n) {
                    for (int i = 0; i < n; i++) {
                        if (buffer.get(i) != value) {
                            throw new IOException(file + ": task " + world.rank() + " holds byte " + buffer.get(i)
                                    + " at offset " + (total + i) + ", expected " + value);
                        }
                    }
                }
            }
        }
        return total;
    }
}
