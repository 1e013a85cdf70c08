package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire h5 ls|dump|verify} on what h5py users write by default
 * ({@code make_h5py_compat_file.py}): text attributes and variable-length strings, bools and
 * enumerations, a committed datatype, a dataset never written, a user block, and references,
 * which Quire does not read: each is named with the reason and everything else reads.
 */
class H5CompatIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static Path file;
    private static Path userBlock;
    private static Path unwritten;

    @BeforeAll
    static void writeFiles() throws IOException, InterruptedException {
        RequiredTool.requireWorking(H5pyFixture.PYTHON, "python3-h5py (apt-get install python3-h5py)",
                "-c", "import h5py, numpy");
        Path script = dir.resolve("make_h5py_compat_file.py");
        try (InputStream in = H5CompatIT.class.getResourceAsStream("/h5/make_h5py_compat_file.py")) {
            Files.copy(in, script);
        }
        file = dir.resolve("compat.h5");
        userBlock = dir.resolve("userblock.h5");
        unwritten = dir.resolve("unwritten.h5");
        QuireCommand.Result result = QuireCommand.runProcess(new ProcessBuilder(
                H5pyFixture.PYTHON.toString(), script.toString(), file.toString(), userBlock.toString(),
                unwritten.toString()), LIMIT);
        assertEquals(0, result.exitCode(), result.toString());
    }

    private static QuireCommand.Result quire(String... arguments) throws Exception {
        return QuireCommand.run(LIMIT, arguments);
    }

    @Test
    void dumpPrintsStringsBoolsAndEnumerationsAsH5pyHoldsThemEscapingBytesThatAreNotText()
            throws Exception {
        assertDump("/text", "[0]: \"caf\u00e9\", \"\u03b2eta\", \"\"");
        // ASCII strings: a byte 0xe9 is not ASCII and is shown as \xe9, not replaced.
        assertDump("/ascii", "[0]: \"caf\\xe9\", \"q\\\"\\\\\"");
        // Fixed-length strings keep embedded NULs (trailing padding goes, as in h5py).
        assertDump("/raw", "[0]: \"a\\x00b\", \"\\xff\\xfe\", \"abc\"");
        assertDump("/bools", "[0]: TRUE, FALSE, TRUE");
        assertDump("/colours", "[0]: RED, BLUE, GREEN");
        assertDump("/scalar", "[]: \"only one\"");
        assertDump("/typed", "[0]: 0, 1, 2");
        QuireCommand.Result empty = quire("h5", "dump", file.toString(), "/empty");
        assertEquals(0, empty.exitCode(), empty.toString());
        assertEquals("", empty.stdout());
        QuireCommand.Result skipped = quire("h5", "dump", userBlock.toString(), "/data");
        assertEquals(List.of("[0]: 0, 1, 2, 3"), skipped.stdoutLines(), skipped.toString());
    }

    private static void assertDump(String dataset, String line) throws Exception {
        QuireCommand.Result result = quire("h5", "dump", file.toString(), dataset);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(List.of(line), result.stdoutLines(), result.toString());
    }

    @Test
    void lsListsEverythingAndNamesWhatItDoesNotReadWithTheReason() throws Exception {
        QuireCommand.Result result = quire("h5", "ls", file.toString());
        assertEquals(1, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        assertEquals("group /", lines.get(0));
        assertEquals("    @title: string[variable] nullterm utf8 = \"run 42\"", lines.get(1));
        assertEquals("    @flag: enum int8 {FALSE=0, TRUE=1} = TRUE", lines.get(2));
        assertTrue(lines.contains("datatype /int16"), lines.toString());
        assertTrue(lines.contains("    type:        enum uint8 {BLUE=2, GREEN=1, RED=0}")
                || lines.contains("    type:        enum uint8 {RED=0, GREEN=1, BLUE=2}"), lines.toString());
        int refs = lines.indexOf("group /refs");
        assertEquals("    @fine: int32 LE = 3", lines.get(refs + 1));
        // Each line names its part once, then structure, offset, what was found and what is supported.
        assertTrue(lines.get(refs + 2).matches("    @target: unsupported: attribute \"target\" \\(message at"
                + " offset \\d+\\): datatype message at offset \\d+: found reference datatype \\(class 7\\);"
                + " supported: .+"), lines.get(refs + 2));
        assertTrue(lines.get(refs + 3).matches("unsupported /refs/objects: datatype message at offset \\d+:"
                + " found reference datatype \\(class 7\\); supported: .+"), lines.get(refs + 3));
        assertEquals("dataset /refs/plain", lines.get(refs + 4));
        assertEquals("dataset /scalar", lines.get(lines.indexOf("dataset /refs/plain") + 7));
        assertEquals(List.of("quire h5 ls: 2 member(s) or attribute(s) not listed: Quire does not read"
                + " them yet (lines 'unsupported PATH: why' and '@NAME: unsupported: why' above)"),
                result.stderr().lines().toList());
        assertTrue(!result.stdout().contains("-1"), result.stdout());
    }

    @Test
    void chunkedDatasetsNeverWrittenListDumpAndVerifyAsTheFillValue() throws Exception {
        QuireCommand.Result list = quire("h5", "ls", unwritten.toString());
        assertEquals(0, list.exitCode(), list.toString());
        List<String> lines = list.stdoutLines();
        for (String dataset : List.of("/a_extensible", "/b_fixed", "/c_btree", "/d_written")) {
            assertTrue(lines.contains("dataset " + dataset), lines.toString());
        }
        assertTrue(lines.contains("    chunk index: extensible array"), lines.toString());
        assertTrue(lines.contains("    chunk index: v2 B-tree"), lines.toString());
        QuireCommand.Result empty = quire("h5", "dump", unwritten.toString(), "/a_extensible");
        assertEquals(0, empty.exitCode(), empty.toString());
        assertEquals("", empty.stdout());
        QuireCommand.Result fixed = quire("h5", "dump", unwritten.toString(), "/b_fixed");
        assertEquals(List.of("[0]: -9, -9, -9"), fixed.stdoutLines(), fixed.toString());
        QuireCommand.Result tree = quire("h5", "dump", unwritten.toString(), "/c_btree");
        assertEquals(List.of("[0, 0]: 4, 4", "[1, 0]: 4, 4"), tree.stdoutLines(), tree.toString());
        QuireCommand.Result verified = quire("h5", "verify", unwritten.toString());
        assertEquals(0, verified.exitCode(), verified.toString());
        assertEquals("  objects:         1 groups, 4 datasets, 0 attributes", verified.stdoutLines().get(1));
    }

    @Test
    void verifyChecksEverythingElseAndListsWhatItDoesNotRead() throws Exception {
        QuireCommand.Result result = quire("h5", "verify", file.toString());
        assertEquals(0, result.exitCode(), result.toString());
        List<String> lines = result.stdoutLines();
        assertEquals(file + ": valid", lines.get(0));
        assertEquals("  objects:         2 groups, 9 datasets, 1 committed datatypes, 3 attributes",
                lines.get(1));
        int unsupported = lines.indexOf("  unsupported:     2 objects or attributes Quire does not read,"
                + " not checked:");
        assertTrue(unsupported > 0, lines.toString());
        assertTrue(lines.get(unsupported + 1).startsWith("    /refs@target: attribute \"target\""),
                lines.toString());
        assertTrue(lines.get(unsupported + 2).startsWith("    /refs/objects: datatype"),
                lines.toString());
        QuireCommand.Result skipped = quire("h5", "verify", userBlock.toString());
        assertEquals(0, skipped.exitCode(), skipped.toString());
    }
}
