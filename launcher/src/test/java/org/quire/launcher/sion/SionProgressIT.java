package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.SionTestVectors;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

import java.io.File;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long operations report progress on stderr when it is a terminal. util-linux {@code script}
 * runs the command on a pseudo-terminal and copies what it shows; every other test of the sion
 * tools checks that stderr stays empty when it is a pipe.
 */
class SionProgressIT {

    @TempDir
    Path directory;

    @Test
    void catSplitVerifyAndDefragShowProgressOnATerminalOnly() throws Exception {
        Path script = RequiredTool.require("script", "util-linux");
        String quire = QuireCommand.repositoryRoot().resolve("quire").toString();
        Path mixed = SionTestVectors.directory().resolve("serial_4tasks_mixed.sion");
        Path catOutput = directory.resolve("task100");
        String[][] commands = {
            {"cat", "-t 100 " + mixed + " > " + catOutput},
            {"split", mixed + " " + directory.resolve("split-")},
            {"verify", "--data " + mixed},
            {"defrag", mixed + " " + directory.resolve("defrag.sion")}};
        for (String[] command : commands) {
            ProcessBuilder onTerminal = new ProcessBuilder(script.toString(), "-q", "-e", "-c",
                    quire + " sion " + command[0] + " " + command[1], "/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            QuireCommand.Result result = QuireCommand.runProcess(onTerminal, SionTool.LIMIT);
            assertEquals(0, result.exitCode(), result.toString());
            String dataSize = command[0].equals("cat") ? "9.3 KiB" : "13.4 KiB";
            assertTrue(result.stdout().contains("\rquire sion " + command[0] + ": " + dataSize + " of " + dataSize
                    + " (100%)\u001b[K\r\n"), "final progress line of " + command[0] + " on a terminal: " + result);
        }
        assertEquals(ExpectedSionSet.named("serial_4tasks_mixed.sion").tasks().get(0).streamSha256(),
                SionCatSplitIT.sha256(catOutput), "cat's output with progress on the terminal");
    }
}
