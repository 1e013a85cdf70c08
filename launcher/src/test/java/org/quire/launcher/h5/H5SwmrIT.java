package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.H5pySwmrWriter;
import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * {@code quire h5 ls/dump/verify} on a file h5py's (libhdf5's) SWMR writer is appending to or
 * died appending to, and {@code quire h5 clear} of such a file, run as real processes.
 */
class H5SwmrIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static QuireCommand.Result quire(String... args) throws Exception {
        return QuireCommand.run(LIMIT, args);
    }

    private static void assertOneNote(QuireCommand.Result result, String command, Path file) {
        List<String> errors = result.stderr().lines().toList();
        assertEquals(1, errors.size(), result.toString());
        assertTrue(errors.get(0).startsWith("quire h5 " + command + ": " + file + ": an SWMR "
                + "writer has it open") && errors.get(0).endsWith("; read as of its last commit "
                + "(SWMR reader)"), errors.get(0));
    }

    @Test
    void lsDumpAndVerifyReadAFileAnSwmrWriterIsAppendingTo() throws Exception {
        Path file = dir.resolve("live.h5");
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(file, "lockstep")) {
            writer.append(100);
            QuireCommand.Result ls = quire("h5", "ls", file.toString(), "/records");
            assertEquals(0, ls.exitCode(), ls.toString());
            assertTrue(ls.stdoutLines().contains("    shape:       [100]"), ls.stdout());
            assertOneNote(ls, "ls", file);

            QuireCommand.Result dump = quire("h5", "dump", file.toString(), "/plain",
                    "--slice", "98:100");
            assertEquals(0, dump.exitCode(), dump.toString());
            assertEquals(List.of("[98]: 295, 298"), dump.stdoutLines());
            assertOneNote(dump, "dump", file);

            writer.append(1000);
            QuireCommand.Result verify = quire("h5", "verify", file.toString());
            assertEquals(0, verify.exitCode(), verify.toString());
            assertEquals(file + ": valid", verify.stdoutLines().get(0));
            assertOneNote(verify, "verify", file);

            writer.closeFile();
        }
        QuireCommand.Result closed = quire("h5", "ls", file.toString(), "/plain");
        assertEquals(0, closed.exitCode(), closed.toString());
        assertEquals("", closed.stderr(), "a closed file needs no note");
    }

    @Test
    void clearKeepsEveryFlushedRecordOfAKilledSwmrWriter() throws Exception {
        Path file = dir.resolve("killed.h5");
        long flushed;
        try (H5pySwmrWriter writer = H5pySwmrWriter.start(file, "run", "100000000", "9")) {
            while (writer.expect("flushed") < 2000) {
                // appending
            }
            writer.kill();
            flushed = writer.flushed();
        }
        long size = Files.size(file);
        QuireCommand.Result before = quire("h5", "ls", file.toString(), "/records");
        assertEquals(0, before.exitCode(), "an SWMR reader reads a dead writer's file: " + before);
        assertOneNote(before, "ls", file);

        QuireCommand.Result clear = quire("h5", "clear", file.toString());
        assertEquals(0, clear.exitCode(), clear.toString());
        assertEquals("", clear.stderr());
        String line = clear.stdout().trim();
        assertTrue(line.startsWith(file + ": cleared (superblock flags 0x05 -> 0x00, end of file "
                + "address ") && line.endsWith(" -> " + size + ", flush journal blocks replayed 0)"),
                line);
        assertEquals(size, Files.size(file), "never cut");

        Path h5dump = RequiredTool.require("h5dump", "hdf5-tools");
        QuireCommand.Result dump = QuireCommand.runProcess(new ProcessBuilder(h5dump.toString(),
                "-H", file.toString()), LIMIT);
        assertEquals(0, dump.exitCode(), dump.toString());
        Path python = RequiredTool.requireWorking(Path.of("/usr/bin/python3"), "python3-h5py",
                "-c", "import h5py");
        QuireCommand.Result h5py = QuireCommand.runProcess(new ProcessBuilder(python.toString(),
                "-c", String.join("\n", "import sys, h5py",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    r = f['records'][:]",
                        "    print(len(r), all(int(x['seq']) == i for i, x in enumerate(r)))"),
                file.toString()), LIMIT);
        assertEquals(0, h5py.exitCode(), h5py.toString());
        String[] seen = h5py.stdout().trim().split(" ");
        assertTrue(Long.parseLong(seen[0]) >= flushed, h5py.stdout() + " flushed " + flushed);
        assertEquals("True", seen[1]);

        QuireCommand.Result again = quire("h5", "clear", file.toString());
        assertEquals(0, again.exitCode(), again.toString());
        assertTrue(again.stdout().startsWith(file + ": nothing to clear"), again.stdout());
    }

    @Test
    void clearAndLsRefuseAFileAQuireWriterHasOpen() throws Exception {
        Path file = dir.resolve("held.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            writer.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            writer.flush();
            String pid = "writer, pid " + ProcessHandle.current().pid() + " on ";
            QuireCommand.Result clear = quire("h5", "clear", file.toString());
            assertEquals(1, clear.exitCode(), clear.toString());
            assertTrue(clear.stderr().startsWith("quire h5 clear: " + file + ": writer alive ("
                    + pid) && clear.stderr().contains("not cleared"), clear.stderr());
            assertEquals(1, clear.stderr().lines().count());

            QuireCommand.Result ls = quire("h5", "ls", file.toString());
            assertEquals(1, ls.exitCode(), ls.toString());
            assertTrue(ls.stderr().startsWith("quire h5 ls: " + file + ": file is open for "
                    + "writing, locked by another writer (" + pid), ls.stderr());
        }
    }
}
