package org.quire.examples;

import org.quire.format.sion.SionParallelReader;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The checkpoint-before-the-time-limit pattern, small: each rank counts steps (adding rank + 1 to
 * its total each step) until STEPS, and when asked to stop ({@link Job#stopRequested()}: Slurm's
 * {@code --signal=USR1@SECONDS} warning, {@code scancel}, {@code quire run} on SIGTERM or Ctrl-C)
 * the ranks agree on the step, write every rank's state to a SION checkpoint and return. A later
 * run in the same DIR, on the same number of ranks, resumes from the latest checkpoint; the last
 * one writes {@code DIR/finished}, which {@code slurm/quire-job.sbatch} looks for to decide
 * whether to submit the job again.
 *
 * <pre>
 * quire run -n 4 -cp examples/target/quire-examples.jar org.quire.examples.ResumableCount DIR STEPS [STEP_MS]
 * </pre>
 *
 * Checkpoints are {@code DIR/step-S.sion} (one task per rank: its step and total, two longs);
 * {@code DIR/latest} names the newest complete one and is replaced, by a rename, only after every
 * rank has closed it, so a run killed while writing resumes from the previous one.
 */
public final class ResumableCount {

    private ResumableCount() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        try (Job job = Quire.init(args)) {
            String[] arguments = job.arguments();
            if (arguments.length < 2) {
                throw new IllegalArgumentException("usage: ResumableCount DIR STEPS [STEP_MS]");
            }
            Path directory = Path.of(arguments[0]);
            long steps = Long.parseLong(arguments[1]);
            long stepMillis = arguments.length > 2 ? Long.parseLong(arguments[2]) : 100;
            Communicator world = job.world();
            int rank = world.rank();
            long[] state = resume(world, directory); // {step, total}
            if (rank == 0) {
                System.out.println(state[0] == 0 ? "starting at step 0" : "resuming at step " + state[0]);
            }
            // Every rank leaves the loop after the same step: the flags of all ranks are combined each step.
            while (state[0] < steps
                    && world.allreduce(new long[] {job.stopRequested() ? 1 : 0}, ReduceOp.MAX)[0] == 0) {
                state[0]++;
                state[1] += rank + 1;
                Thread.sleep(stepMillis);
            }
            checkpoint(world, directory, state);
            long total = world.allreduce(new long[] {state[1]}, ReduceOp.SUM)[0];
            if (rank == 0) {
                if (state[0] == steps) {
                    long expected = steps * world.size() * (world.size() + 1L) / 2;
                    Files.writeString(directory.resolve("finished"), total + "\n");
                    System.out.println("finished at step " + steps + ": total " + total + " (expected " + expected + ")");
                } else {
                    System.out.println("stopped at step " + state[0] + ": checkpoint " + directory.resolve(name(state[0])));
                }
            }
        }
    }

    /** The state of this rank from DIR/latest, or step 0. */
    private static long[] resume(Communicator world, Path directory) throws IOException {
        Path latest = directory.resolve("latest");
        if (!Files.exists(latest)) {
            return new long[] {0, 0};
        }
        Path checkpoint = directory.resolve(Files.readString(latest, StandardCharsets.UTF_8).strip());
        try (SionParallelReader reader = SionParallelReader.openOwnTask(checkpoint, world)) {
            SionTask task = reader.tasks().get(0);
            ByteBuffer bytes = ByteBuffer.wrap(reader.readFully(task));
            return new long[] {bytes.getLong(), bytes.getLong()};
        }
    }

    private static void checkpoint(Communicator world, Path directory, long[] state) throws IOException {
        Path checkpoint = directory.resolve(name(state[0]));
        try (SionParallelWriter writer = SionParallelWriter.open(checkpoint, world, CheckpointStream.CHUNK_SIZE, 1,
                CheckpointStream.FS_BLOCK_SIZE, SionWriteOptions.defaults())) {
            writer.write(ByteBuffer.allocate(2 * Long.BYTES).putLong(state[0]).putLong(state[1]).flip());
        }
        world.barrier(); // every rank has closed its part before DIR/latest names it
        if (world.rank() == 0) {
            Path next = directory.resolve("latest.next");
            Files.writeString(next, checkpoint.getFileName() + "\n");
            Files.move(next, directory.resolve("latest"), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static String name(long step) {
        return "step-" + step + ".sion";
    }
}
