package org.quire.runtime;

import org.junit.jupiter.api.Test;
import org.quire.runtime.local.LocalWorld;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** In-JVM ranks with tiny thresholds: what is warned about, how it is named, and how often. */
class WaitWatchdogTest {

    private static final Duration GENEROUS = Duration.ofSeconds(60);

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private WaitWatchdog watchdog(Duration warnAfter) {
        return new WaitWatchdog(warnAfter, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void aReceiveWaitingPastTheThresholdIsWarnedAboutOnce() {
        WaitWatchdog dog = watchdog(Duration.ofMillis(50));
        LocalWorld.run(2, GENEROUS, plain -> {
            Communicator world = dog.watch(plain);
            if (world.rank() == 0) {
                Thread.sleep(800); // 16 thresholds: a repeated warning would show
                world.send(new byte[] {1}, 1, 7);
            } else {
                world.receive(0, 7);
            }
            return null;
        });
        assertEquals(1, lines().size(), lines().toString());
        assertTrue(lines().get(0).matches("quire: rank 1 has waited \\d+ ms in receive\\(source=0, tag=7\\)"
                + " on the world communicator"), lines().toString());
    }

    @Test
    void callsThatCompleteBeforeTheThresholdAreNeverWarnedAbout() {
        WaitWatchdog dog = watchdog(Duration.ofMillis(300));
        LocalWorld.run(2, GENEROUS, plain -> {
            Communicator world = dog.watch(plain);
            long end = System.nanoTime() + Duration.ofSeconds(1).toNanos(); // the job outlives the threshold
            boolean more = true;
            while (more) {
                world.sendrecv(new long[] {world.rank()}, 1 - world.rank(), 0, 1 - world.rank(), 0);
                more = world.broadcast(new byte[] {(byte) (System.nanoTime() < end ? 1 : 0)}, 0)[0] == 1;
            }
            Thread.sleep(600); // outside any call: not waiting in the communicator
            return null;
        });
        assertEquals(List.of(), lines());
    }

    @Test
    void aCollectiveIsNamedWithItsRootAndItsCommunicator() {
        WaitWatchdog dog = watchdog(Duration.ofMillis(50));
        LocalWorld.run(3, GENEROUS, plain -> {
            Communicator world = dog.watch(plain);
            if (world.rank() == 2) {
                Thread.sleep(400);
            }
            world.barrier();
            Communicator pair = world.split(world.rank() == 0 ? Communicator.UNDEFINED : 0, -world.rank());
            if (pair != null) {
                if (world.rank() == 2) {
                    Thread.sleep(400);
                }
                pair.broadcast(new byte[] {1}, 0);
            }
            return null;
        });
        List<String> warnings = lines().stream().map(l -> l.replaceAll("\\d+ ms", "N ms")).sorted().toList();
        assertEquals(List.of(
                "quire: rank 0 has waited N ms in barrier on the world communicator",
                "quire: rank 1 has waited N ms in barrier on the world communicator",
                "quire: rank 1 has waited N ms in broadcast(root=0) on a sub-communicator of 2 ranks (rank 1 there)"),
                warnings);
    }

    @Test
    void zeroSwitchesWarningsOff() {
        Communicator self = LocalWorld.self();
        assertSame(self, watchdog(Duration.ZERO).watch(self));
    }

    @Test
    void thresholdsAreReadFromThePropertyThenTheVariable() {
        assertEquals(Duration.ofSeconds(60), WaitWatchdog.configured(null, null));
        assertEquals(Duration.ofMillis(500), WaitWatchdog.configured(null, "500ms"));
        assertEquals(Duration.ofMinutes(2), WaitWatchdog.configured("2m", "500ms"));
        assertEquals(Duration.ofSeconds(7), WaitWatchdog.configured("7", null));
        assertEquals(Duration.ZERO, WaitWatchdog.configured(null, "0"));
        LaunchContractException bad = assertThrows(LaunchContractException.class,
                () -> WaitWatchdog.configured(null, "1.5s"));
        assertEquals("QUIRE_WARN_AFTER is '1.5s'; expected a whole number of ms, s, m or h, e.g. 60s"
                + " (0: no warnings)", bad.getMessage());
    }

    @Test
    void waitsOfASecondOrMoreAreShownInWholeSeconds() {
        assertEquals("60 s", WaitWatchdog.describe(Duration.ofMillis(60_900)));
        assertEquals("999 ms", WaitWatchdog.describe(Duration.ofMillis(999)));
    }
}
