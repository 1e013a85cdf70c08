package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.runtime.local.LocalWorld;

/**
 * {@link HeatCheckpoint#problem}: a checkpoint of two tasks (a 3 x 3 grid, rows 0..1 and 2) is
 * complete, and each way of not being one is rejected with its reason.
 */
class HeatCheckpointTest {

    private static final int N = 3;
    private static final long STEP = 40;
    /** A heat checkpoint header's first 4 bytes, "HEAT"; a test writes another to damage it. */
    private static final int MAGIC = 0x48454154;

    @TempDir
    Path directory;

    /** A task's stream: a header and {@code rows} rows of the grid, then {@code extra} bytes. */
    private static byte[] task(int magic, long step, int n, int firstRow, int rows, int extra) {
        ByteBuffer header = new HeatCheckpoint.Header(step, n, firstRow, rows).encode();
        header.putInt(0, magic);
        return ByteBuffer.allocate(header.remaining() + rows * n * Double.BYTES + extra).put(header).array();
    }

    private static byte[] good(int firstRow, int rows) {
        return task(MAGIC, STEP, N, firstRow, rows, 0);
    }

    /** The problem of a SION file whose task i holds {@code tasks.get(i)}, named for {@link #STEP}. */
    private Optional<String> problem(List<byte[]> tasks) throws Exception {
        Path file = HeatCheckpoint.series(directory).file(STEP);
        LocalWorld.run(tasks.size(), Duration.ofSeconds(60), world -> {
            byte[] mine = tasks.get(world.rank());
            try (SionParallelWriter writer = SionParallelWriter.open(file, world, Math.max(mine.length, 1), 1,
                    SionParallelWriter.FS_BLOCK_SIZE_FROM_FILE_STORE,
                    SionWriteOptions.defaults().withUserDataOrder(ByteOrder.LITTLE_ENDIAN))) {
                writer.write(ByteBuffer.wrap(mine));
            }
            return null;
        });
        try (SionFile sion = SionFile.open(file)) {
            return HeatCheckpoint.problem(sion, STEP);
        }
    }

    @Test
    void aWholeGridOfTheNamedStepIsComplete() throws Exception {
        assertEquals(Optional.empty(), problem(List.of(good(0, 2), good(2, 1))));
    }

    /** Each way of not being a complete checkpoint: what it is, the reason given, its tasks. */
    static Stream<Arguments> rejections() {
        return Stream.of(
                rejection("a task shorter than a header",
                        "task 1 holds 31 bytes, less than a header",
                        good(0, 2), new byte[31]),
                rejection("a task without the heat magic",
                        "task 0 does not start with a heat checkpoint header",
                        task(MAGIC + 1, STEP, N, 0, 2, 0), good(2, 1)),
                rejection("a step other than the name's",
                        "task 0 holds step 39, its name says 40",
                        task(MAGIC, 39, N, 0, 2, 0), task(MAGIC, 39, N, 2, 1, 0)),
                rejection("tasks of different grids",
                        "task 1 holds grid 4, rows from 2; expected grid 3, rows from 2",
                        good(0, 2), task(MAGIC, STEP, 4, 2, 1, 0)),
                rejection("a gap between the tasks' rows",
                        "task 1 holds grid 3, rows from 2; expected grid 3, rows from 1",
                        good(0, 1), good(2, 1)),
                rejection("a task longer than its header promises",
                        "task 1 holds 64 bytes, its header promises 56",
                        good(0, 2), task(MAGIC, STEP, N, 2, 1, 8)),
                rejection("a task without rows",
                        "task 1 holds grid 3 and a row count of 0; expected a grid of 2..16383 and at least 1 row",
                        good(0, 3), good(3, 0)),
                // A grid out of the limits in one row, which the row check lets by: the reason
                // is the grid limit's.
                rejection("an empty grid",
                        "task 0 holds grid 0 and a row count of 1; expected a grid of 2..16383 and at least 1 row",
                        task(MAGIC, STEP, 0, 0, 1, 0)),
                rejection("a grid larger than a run may have",
                        "task 0 holds grid 16384 and a row count of 1; expected a grid of 2..16383 and at least 1 row",
                        task(MAGIC, STEP, 16_384, 0, 1, 0)),
                rejection("tasks that stop short of the whole grid",
                        "its tasks hold 2 rows, not a whole grid",
                        good(0, 1), good(1, 1)));
    }

    private static Arguments rejection(String what, String reason, byte[]... tasks) {
        return Arguments.of(Named.of(what, List.of(tasks)), reason);
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("rejections")
    void eachWayOfNotBeingACheckpointIsRejectedWithItsReason(List<byte[]> tasks, String reason) throws Exception {
        assertEquals(Optional.of(reason), problem(tasks));
    }
}
