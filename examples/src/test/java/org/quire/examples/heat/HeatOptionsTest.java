package org.quire.examples.heat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link HeatOptions}: defaults, every option, and one clear line for each bad command line. */
class HeatOptionsTest {

    @Test
    void defaultsAndEveryOption() {
        assertEquals(new HeatOptions(0, 200, 50, Path.of("heat-checkpoints"), false, false, null, false, false, null, "latest"),
                HeatOptions.parse(new String[0]));
        assertEquals(new HeatOptions(512, 10, 0, Path.of("d"), true, true, Path.of("x.h5"), true, false, null, "latest"),
                HeatOptions.parse(new String[] {"--grid", "512", "--steps", "10", "--checkpoint-every", "0", "--dir",
                        "d", "--restart", "--verify", "--diagnostics", "x.h5", "--in-situ"}));
        assertEquals(true, HeatOptions.parse(new String[] {"--steps", "3", "--help"}).help());
        HeatOptions fromCatalog = HeatOptions.parse(new String[] {"--catalog", "c.h5", "--restart", "~1", "--verify"});
        assertEquals(Path.of("c.h5"), fromCatalog.catalog());
        assertEquals("~1", fromCatalog.restartFrom());
        assertEquals(true, fromCatalog.verify());
        assertEquals("latest", HeatOptions.parse(new String[] {"--catalog", "c.h5", "--restart"}).restartFrom());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--grid|--grid needs a value",
        "--grid 1|--grid must be between 2 and 16383, got 1",
        "--grid 16384|--grid must be between 2 and 16383, got 16384",
        "--steps ten|--steps must be a whole number, got \"ten\"",
        "--checkpoint-every -5|--checkpoint-every must be between 0 and 9223372036854775807, got -5",
        "--restrat|unknown option --restrat",
        "--in-situ|--in-situ follows the diagnostics file: give --diagnostics FILE",
        "--restart step-20|--restart step-20 picks a checkpoint of the catalog: give --catalog FILE"})
    void aBadCommandLineIsOneLine(String arguments, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> HeatOptions.parse(arguments.split(" ")));
        assertEquals(message, refused.getMessage());
    }
}
