package org.quire.launcher.run;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.launcher.QuireCommand;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The communicator contract on every real engine, each rank a separate JVM started by quire run. */
class CommunicatorEnginesIT {

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"mpj,1", "mpj,2", "mpj,4", "mpj,8", "hazelcast,1", "hazelcast,2", "hazelcast,4", "hazelcast,8"})
    void everyEngineHoldsTheContractAcrossJvms(String transport, int ranks) throws Exception {
        QuireCommand.Result result = QuireCommand.run(Duration.ofMinutes(3), "run", "-n", Integer.toString(ranks),
                "--transport", transport, "org.quire.runtime.check.CommunicatorContract");
        assertEquals(0, result.exitCode(), result.toString());
        int checks = 9 * ranks + 54;
        for (int rank = 0; rank < ranks; rank++) {
            String line = "[" + rank + "] communicator contract holds: rank " + rank + " of " + ranks + ", " + checks
                    + " checks";
            assertTrue(result.stdoutLines().contains(line), "missing '" + line + "' in\n" + result);
        }
        assertEquals(ranks, result.stdoutLines().size(), result.toString());
        assertEquals("", result.stderr(), "engines must start silently");
    }
}
