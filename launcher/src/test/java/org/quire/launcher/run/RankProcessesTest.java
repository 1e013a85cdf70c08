package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real rank processes (shell commands) and what the launcher says when one fails. */
class RankProcessesTest {

    /**
     * A rank prints the JVM's out-of-memory line; the launcher says it ran out of memory only when
     * it also exited with the JVM's out-of-memory status 3.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "3 | quire run: rank 0 ran out of memory (java.lang.OutOfMemoryError: Java heap space) and exited with status 3;"
            + " give the ranks more with --heap",
        "1 | quire run: rank 0 exited with status 1",
    })
    void reportsAnOutOfMemoryErrorOnlyWithTheJvmsStatus(int status, String expected) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ProcessBuilder rank = new ProcessBuilder("/bin/sh", "-c",
                "echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; exit " + status);
        int exit = new RankProcesses(List.of(rank), Duration.ofSeconds(5),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false)
                .run();
        assertEquals(status, exit);
        assertEquals("[0] Terminating due to java.lang.OutOfMemoryError: Java heap space\n",
                out.toString(StandardCharsets.UTF_8));
        assertEquals(expected + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * After a rank fails, the others are killed at once, not asked to stop and given the grace
     * period: rank 1 ignores SIGTERM, and the job still ends well within the 20 s grace, without a
     * grace-period line.
     */
    @Test
    void aRankFailureKillsTheOthersAtOnce() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ProcessBuilder failing = new ProcessBuilder("/bin/sh", "-c", "sleep 1; exit 4");
        ProcessBuilder ignoringTerm = new ProcessBuilder("/bin/sh", "-c", "trap '' TERM; while :; do sleep 1; done");
        long started = System.nanoTime();
        int exit = new RankProcesses(List.of(failing, ignoringTerm), Duration.ofSeconds(20),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false).run();
        assertEquals(4, exit);
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("quire run: rank 0 exited with status 4; stopping the other rank" + System.lineSeparator()), said);
        assertTrue(!said.contains("grace period"), said);
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "ended before the grace period");
    }
}
