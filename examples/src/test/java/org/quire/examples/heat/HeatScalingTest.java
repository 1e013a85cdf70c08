package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link RunTiming}'s line and {@link HeatScaling}'s table, weak grids and command line, without jobs. */
class HeatScalingTest {

    private static final RunTiming RUN = new RunTiming(4, 1024, 0, 100, 0.0642404, 2, 17432704, 0.389589, 0);

    @Test
    void theTimingLineRoundTripsAndIsFoundInRankPrefixedOutput() {
        String output = "[0] heat: done\n[0] " + RUN.line() + "\n[0] verify: ok\n";
        assertEquals(Optional.of(RUN), RunTiming.find(output));
        assertEquals(Optional.empty(), RunTiming.find("[0] heat: done\n"));
        assertEquals(17432704 / 0.389589, RUN.checkpointBytesPerSecond(), 1e-6);
    }

    @Test
    void aBrokenTimingLineNamesTheField() {
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
                () -> RunTiming.find("[0] timing: ranks=4 grid=x"));
        assertEquals("timing line \"ranks=4 grid=x\": grid must be a whole number, got \"x\"", broken.getMessage());
        broken = assertThrows(IllegalArgumentException.class, () -> RunTiming.find("timing: ranks=4"));
        assertEquals("timing line \"ranks=4\": no field grid", broken.getMessage());
    }

    @Test
    void weakScalingKeepsTheCellsPerRank() {
        assertEquals(512, HeatScaling.weakGrid(512, 1));
        assertEquals(724, HeatScaling.weakGrid(512, 2)); // 512 * 1.41421 = 724.08
        assertEquals(1024, HeatScaling.weakGrid(512, 4));
        assertEquals(1448, HeatScaling.weakGrid(512, 8));
    }

    @Test
    void theTableMarksRanksBeyondTheCoresOversubscribed() {
        RunTiming restart = new RunTiming(2, 1024, 100, 0, 0, 0, 0, 0, 0.25);
        List<HeatScaling.Row> rows = List.of(
                new HeatScaling.Row("strong", 1, 1, new RunTiming(1, 1024, 0, 100, 0.1, 2, 16_000_000, 0.5, 0),
                        restart, 1, 1),
                new HeatScaling.Row("strong", 2, 1, RUN, restart, 1.6, 0.8));
        assertEquals(String.join("\n",
                "mode   ranks  grid     step ms  speedup   eff.     ckpt MB/s       ckpt s  restart s ",
                "strong     1  1024     100.000     1.00   1.00          32.0        0.500      0.250 ",
                "strong     2  1024      64.240     1.60   0.80          44.7        0.390      0.250 oversubscribed",
                "oversubscribed: 2 ranks exceed the 1 cores of this machine; their ranks share cores, so their"
                        + " times measure that too", ""), HeatScaling.table(rows, 1));
        assertEquals("strong,2,1024,1,yes,100,0.0642404,1.6000,0.8000,2,17432704,0.389589,4.47464e+07,0.250000",
                rows.get(1).csv());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--ranks 1,0|--ranks must be rank counts 1..256 separated by commas, got \"1,0\"",
        "--steps 5|--steps must be even (a checkpoint after S/2 and S), got 5",
        "--grid 4 --ranks 8|a grid cannot be split over 8 ranks: it has fewer rows",
        "--grid 16384|--grid must be between 2 and 16383, got 16384",
        "--weak-grid 16384|--weak-grid must be between 2 and 16383, got 16384",
        "--weak-grid 8192 --ranks 1,4|the weak-scaling grid on 4 ranks, 8192 x sqrt(4) = 16384, is past"
                + " HeatDiffusion's largest, 16383: give a smaller --weak-grid or fewer --ranks",
        "--out|--out needs a value"})
    void aBadCommandLineIsOneLineAndStatus2(String arguments, String message) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = HeatScaling.run(arguments.split(" "), System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertEquals("HeatScaling: " + message + "\n" + HeatScaling.USAGE + "\n", err.toString(StandardCharsets.UTF_8));
    }
}
