package org.quire.launcher.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.launcher.QuireCommand;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What quire run says about bad arguments, and what it passes through to the application. */
class RunArgumentsIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "-n 0 org.quire.runtime.check.CommunicatorContract | -n must be at least 1, got 0",
        "-n -3 org.quire.runtime.check.CommunicatorContract | -n must be at least 1, got -3",
        "-n 2 no.such.Main | main class 'no.such.Main' not found in Quire or on the class path '.'",
        "-n 2 org.quire.runtime.Quire | class org.quire.runtime.Quire has no 'public static void main(String[])'",
        "--bogus -n 2 org.quire.runtime.check.CommunicatorContract | Unknown option: '--bogus'",
        "-n 2 --transport pvm X | Invalid value for option '--transport': --transport is 'pvm'; expected one of"
                + " mpj, hazelcast",
        "-n 2 --heap 12q X | --heap is '12q'; expected a size of at least 1 MiB such as 512m or 2g",
        "-n two X | Invalid value for option '--ranks': 'two' is not an int",
        "org.quire.runtime.check.CommunicatorContract | Missing required option: '--ranks=N'"})
    void badArgumentsGetOneLineAndAPointerToHelpAndStatus2(String arguments, String error) throws Exception {
        String[] args = ("run " + arguments).split(" ");
        QuireCommand.Result result = QuireCommand.run(LIMIT, args);
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire run: " + error, "see quire run --help"), result.stderr().lines().toList());
        assertEquals("", result.stdout());
    }

    @Test
    void everythingAfterTheMainClassBelongsToTheApplication() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "run", "-n", "2", "-cp", QuireCommand.testWorkers(),
                "org.quire.launcher.workers.PrintArguments", "-n", "5", "--transport", "x y");
        assertEquals(0, result.exitCode(), result.toString());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(result.stdoutLines().contains("[" + rank + "] args=-n|5|--transport|x y"), result.toString());
            // A last line without a newline is still printed whole, with its prefix.
            assertTrue(result.stderr().lines().toList().contains("[" + rank + "] no newline at the end"),
                    result.toString());
        }
    }

    @Test
    void quireWithoutACommandSaysSo() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT);
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire: missing command: one of run, sion, h5, watch, versions, completion, help", "see quire --help"),
                result.stderr().lines().toList());
    }
}
