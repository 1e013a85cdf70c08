package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.launcher.QuireCommand;

/**
 * Names that could forge lines or drive a terminal (newline, carriage return, ESC sequences,
 * U+009B, a backslash, a byte that is not UTF-8) print escaped in every line of {@code quire h5
 * ls}, {@code dump} and {@code verify}, report and error lines alike (docs/hdf5.md, "Command
 * line"). The file is h5py's, committed with its generator: {@code
 * format/src/test/resources/hdf5/make_h5py_hostile_names.py}.
 */
class H5HostileNamesIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static Path file;

    @BeforeAll
    static void findFixture() {
        file = QuireCommand.repositoryRoot().resolve(
                "format/src/test/resources/hdf5/make_h5py_hostile_names/hostile_names.h5");
        assertTrue(Files.isRegularFile(file), "missing committed fixture " + file);
    }

    /** Each line holds printable characters only: no control character, no C1, no surrogate. */
    private static void assertPrintable(String output) {
        for (String line : output.split("\n", -1)) {
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                boolean control = c < 0x20 || c >= 0x7f && c <= 0x9f;
                assertTrue(!control && !Character.isSurrogate(c), "character U+"
                        + String.format("%04X", (int) c) + " at " + i + " of line: " + line);
            }
        }
    }

    @Test
    void lsPrintsEveryNameEscaped() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "ls", file.toString());
        assertPrintable(result.stdout());
        assertPrintable(result.stderr());
        List<String> lines = result.stdoutLines();
        assertTrue(lines.contains("group /evil\\nvalid: forged line"), result.toString());
        assertTrue(lines.contains("dataset /evil\\nvalid: forged line/\\x1b[31mred\\x1b[0m"),
                result.toString());
        assertTrue(lines.contains("dataset /evil\\nvalid: forged line/c1\\u009b31m"),
                result.toString());
        assertTrue(lines.contains("dataset /bad\\xff"), result.toString());
        assertTrue(lines.contains("    @at\\rtr: int32 LE = 1"), result.toString());
        assertTrue(lines.contains("    @back\\\\slash: string[variable] nullterm utf8 = \"text\""),
                result.toString());
        assertTrue(lines.stream().anyMatch(line -> line.startsWith(
                "    @ref\\x1b]0;title\\x07: unsupported: ")), result.toString());
        assertTrue(lines.contains("    type:        compound[12] {x\\ny: int32 LE @0,"
                + " z\\x1b[2J: float64 LE @4}"), result.toString());
        assertTrue(lines.contains("    type:        enum uint8 {A\\x1b[2J=0, B\\nforged=1}"),
                result.toString());
        assertTrue(lines.stream().anyMatch(line -> line.startsWith(
                "unsupported /arr\\nquire h5 dump: forged error: ")), result.toString());
        // The unsupported parts make the status 1; its error line is one line.
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals(1, result.stderr().lines().count(), result.toString());
    }

    @Test
    void dumpPrintsMemberNamesEscapedAndItsErrorLineNamesTheDatasetEscaped() throws Exception {
        QuireCommand.Result records = QuireCommand.run(LIMIT, "h5", "dump", file.toString(),
                "/records");
        assertEquals(0, records.exitCode(), records.toString());
        assertEquals(List.of("[0]: {x\\ny=1, z\\x1b[2J=0.5}, {x\\ny=2, z\\x1b[2J=1.5}"),
                records.stdoutLines());
        QuireCommand.Result colours = QuireCommand.run(LIMIT, "h5", "dump", file.toString(),
                "/colours");
        assertEquals(List.of("[0]: A\\x1b[2J, B\\nforged, B\\nforged"), colours.stdoutLines(),
                colours.toString());

        QuireCommand.Result array = QuireCommand.run(LIMIT, "h5", "dump", file.toString(),
                "/arr\nquire h5 dump: forged error");
        assertEquals(1, array.exitCode(), array.toString());
        assertPrintable(array.stderr());
        assertEquals(1, array.stderr().lines().count(), array.toString());
        assertTrue(array.stderr().startsWith("quire h5 dump: "), array.toString());
        assertTrue(array.stderr().contains("/arr\\nquire h5 dump: forged error"),
                array.toString());
    }

    @Test
    void verifyListsTheUnsupportedPartsEscaped() throws Exception {
        QuireCommand.Result result = QuireCommand.run(LIMIT, "h5", "verify", file.toString());
        assertEquals(0, result.exitCode(), result.toString());
        assertPrintable(result.stdout());
        assertTrue(result.stdoutLines().stream().anyMatch(line -> line.startsWith(
                "    /@ref\\x1b]0;title\\x07: ")), result.toString());
        assertTrue(result.stdoutLines().stream().anyMatch(line -> line.startsWith(
                "    /arr\\nquire h5 dump: forged error: ")), result.toString());
    }
}
