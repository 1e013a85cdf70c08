package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.launcher.QuireCommand;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quire run --warn-after}: a rank waiting in one receive longer than that says so, once,
 * through the launcher's rank prefix. Real launcher, real worker JVMs on both engines.
 */
class WaitWarningIT {

    private static final Duration HANG = Duration.ofSeconds(90);
    /** How long rank 0 keeps rank 1 waiting: four thresholds of 1 s, so a repeated warning would show. */
    private static final String LATE_MILLIS = "4000";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mpj", "hazelcast"})
    void aRankWaitingPastWarnAfterSaysSoOnce(String transport) throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "2", "--transport", transport,
                "--warn-after", "1s", "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateSender",
                LATE_MILLIS);
        assertEquals(0, result.exitCode(), result.toString());
        List<String> warnings = result.stderr().lines().filter(l -> l.contains("has waited")).toList();
        assertEquals(1, warnings.size(), result.toString());
        assertTrue(warnings.get(0).matches("\\[1] quire: rank 1 has waited [1-3] s in receive\\(source=0, tag=7\\)"
                + " on the world communicator"), result.toString());
        assertTrue(result.stdout().lines().toList().contains("[1] received 42"), result.toString());
    }

    @Test
    void zeroSwitchesTheWarningOff() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "2", "--warn-after", "0",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateSender", "2000");
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(List.of(), result.stderr().lines().filter(l -> l.contains("has waited")).toList(),
                result.toString());
    }

    @Test
    void aMalformedWarnAfterIsAUsageError() throws Exception {
        QuireCommand.Result result = QuireCommand.run(HANG, "run", "-n", "2", "--warn-after", "1.5s",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateSender", "0");
        assertEquals(2, result.exitCode(), result.toString());
        assertTrue(result.stderr().contains("--warn-after is '1.5s'; expected a whole number of ms, s, m or h"),
                result.toString());
    }
}
