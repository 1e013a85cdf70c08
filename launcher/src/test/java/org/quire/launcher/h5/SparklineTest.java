package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SparklineTest {

    @Test
    void theLowestValueIsTheShortestBarAndTheHighestTheFullBlock() {
        assertEquals("\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588",
                Sparkline.of(new double[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertEquals("\u2588\u2581\u2585", Sparkline.of(new double[] {-1e300, -3e300, -2e300}));
        assertEquals("\u2581\u2585\u2588\u2587", Sparkline.of(new double[] {-1e308, 0, 1e308, 5e307}),
                "a range beyond the largest double");
    }

    @Test
    void aFlatSeriesIsDrawnAtHalfHeightAndWhatIsNoNumberAsASpace() {
        assertEquals("\u2584\u2584\u2584", Sparkline.of(new double[] {2.5, 2.5, 2.5}));
        assertEquals("\u2581 \u2588 ", Sparkline.of(new double[] {1, Double.NaN, 2,
            Double.POSITIVE_INFINITY}));
        assertEquals("  ", Sparkline.of(new double[] {Double.NaN, Double.NaN}));
        assertEquals("", Sparkline.of(new double[0]));
    }
}
