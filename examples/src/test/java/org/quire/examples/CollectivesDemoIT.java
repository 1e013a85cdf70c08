package org.quire.examples;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.launcher.QuireCommand;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The main job of README's first command: the demo on several ranks, on both engines. */
class CollectivesDemoIT {

    private static final Pattern RESULT = Pattern.compile(
            "^\\[0] pi = (\\d\\.\\d{15}) \\(error .*\\) from 1000000 intervals on (\\d) ranks; ring token (\\d+) = .*$",
            Pattern.MULTILINE);

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"mpj,4", "hazelcast,3"})
    void rankZeroPrintsPiFromEveryRanksShare(String transport, int ranks) throws Exception {
        String examples = QuireCommand.repositoryRoot().resolve("examples/target/quire-examples.jar").toString();
        QuireCommand.Result result = QuireCommand.run(Duration.ofMinutes(2), "run", "-n", Integer.toString(ranks),
                "--transport", transport, "-cp", examples, "org.quire.examples.CollectivesDemo", "1000000");
        assertEquals(0, result.exitCode(), result.toString());
        Matcher m = RESULT.matcher(result.stdout());
        assertTrue(m.find(), result.toString());
        assertEquals(Math.PI, Double.parseDouble(m.group(1)), 1e-11);
        assertEquals(ranks, Integer.parseInt(m.group(2)));
        assertEquals(ranks * (ranks - 1) / 2, Integer.parseInt(m.group(3)), "ring token = 0 + 1 + ... + (N-1)");
        // Every rank reported its share to rank 0, and the shares tile [0, 1000000).
        for (int r = 0; r < ranks; r++) {
            String share = "[0] rank " + r + " (pid ";
            assertTrue(result.stdout().contains(share), result.toString());
        }
        List<String> partials = result.stdoutLines().stream().filter(l -> l.contains("partial sum")).toList();
        assertEquals(ranks, partials.size(), result.toString());
    }
}
