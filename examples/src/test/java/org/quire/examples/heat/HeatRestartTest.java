package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.sion.RecordRange;
import org.quire.runtime.local.LocalWorld;

/**
 * The heat grid on N in-JVM ranks, checkpointed, restarted on M ranks and run on: the final grid
 * has the bits of a serial uninterrupted run, for N and M from 1 to 5.
 */
class HeatRestartTest {

    private static final int N = 23;
    private static final int BEFORE = 7;
    private static final int AFTER = 5;

    @TempDir
    Path directory;

    static List<Arguments> oldAndNewRankCounts() {
        List<Arguments> cases = new ArrayList<>();
        for (int before = 1; before <= 5; before++) {
            for (int after = 1; after <= 5; after++) {
                cases.add(Arguments.of(before, after));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} ranks, then {1}")
    @MethodSource("oldAndNewRankCounts")
    void restartOnAnotherRankCountEndsWithTheSerialRunsBits(int before, int after) throws Exception {
        Path file = HeatCheckpoint.series(directory).file(BEFORE);
        LocalWorld.run(before, Duration.ofSeconds(60), world -> {
            RowBlock block = RowBlock.initial(N, RecordRange.balanced(N, world.rank(), world.size()));
            for (int step = 0; step < BEFORE; step++) {
                block.exchangeHalos(world);
                block.step();
            }
            HeatCheckpoint.write(world, file, BEFORE, block);
            return null;
        });
        List<byte[]> blocks = LocalWorld.run(after, Duration.ofSeconds(60), world -> {
            HeatCheckpoint.Restored restored = HeatCheckpoint.read(world, file);
            assertEquals(BEFORE, restored.step());
            assertEquals(RecordRange.balanced(N, world.rank(), world.size()), restored.block().rows());
            for (int step = 0; step < AFTER; step++) {
                restored.block().exchangeHalos(world);
                restored.block().step();
            }
            return restored.block().interiorBytes().array();
        });
        ByteBuffer joined = ByteBuffer.allocate(N * N * Double.BYTES);
        blocks.forEach(joined::put);
        RowBlock serial = RowBlock.initial(N, new RecordRange(0, N));
        for (int step = 0; step < BEFORE + AFTER; step++) {
            serial.step();
        }
        assertArrayEquals(serial.interiorBytes().array(), joined.array());
    }
}
