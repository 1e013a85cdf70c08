package org.quire.examples;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.runtime.local.LocalWorld;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The halo exchange split over N in-JVM ranks gives the serial smoothing of the whole field, bit for bit. */
class HaloExchangeTest {

    private static final int CELLS = 37;
    private static final int STEPS = 9;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void splitSmoothingEqualsSerialSmoothing(int ranks) {
        List<double[]> slices = LocalWorld.run(ranks, Duration.ofSeconds(60), world -> {
            HaloExchange.Slice slice = new HaloExchange.Slice(world, CELLS);
            for (int step = 0; step < STEPS; step++) {
                slice.smooth();
            }
            return slice.cells();
        });
        double[] joined = slices.stream().flatMapToDouble(Arrays::stream).toArray();
        assertArrayEquals(serial(), joined);
    }

    private static double[] serial() {
        double[] field = Stream.iterate(0, i -> i + 1).limit(CELLS).mapToDouble(HaloExchange::initial).toArray();
        for (int step = 0; step < STEPS; step++) {
            double[] next = new double[CELLS];
            for (int i = 0; i < CELLS; i++) {
                next[i] = (field[(i - 1 + CELLS) % CELLS] + field[i] + field[(i + 1) % CELLS]) / 3;
            }
            field = next;
        }
        return field;
    }
}
