package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionFileNames;
import org.quire.format.sion.SionParallelWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.launcher.QuireCli;
import org.quire.runtime.local.LocalWorld;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quire sion recover} in this JVM, on files written by three in-JVM ranks: a crash is a
 * copy of the files taken while the ranks wait after a flush (what a killed job leaves behind).
 */
class SionRecoverCommandTest {

    @TempDir
    Path directory;

    private record Outcome(int exitCode, String out, String err) {
    }

    private static Outcome quire(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = QuireCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Outcome(exitCode, out.toString(), err.toString());
    }

    private static byte[] streamOf(int rank, int length) {
        byte[] data = new byte[length];
        Arrays.fill(data, (byte) (rank + 1));
        return data;
    }

    /** Three ranks write 300, 700 and 0 bytes in chunks of 512, flush, and the files are copied to {@code crash}. */
    private void writeAndCrash(Path name, Path crash) {
        writeAndCrash(name, crash, 0);
    }

    /** As {@link #writeAndCrash(Path, Path)}, but rank 1 writes {@code rankOneAfterFlush} more bytes, unflushed. */
    private void writeAndCrash(Path name, Path crash, int rankOneAfterFlush) {
        LocalWorld.run(3, Duration.ofSeconds(30), world -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, world, 512, 2, 512,
                    SionWriteOptions.defaults())) {
                int length = new int[] {300, 700, 0}[world.rank()];
                writer.write(streamOf(world.rank(), length));
                writer.flush();
                if (world.rank() == 1) {
                    writer.write(streamOf(1, rankOneAfterFlush));
                }
                world.barrier();
                if (world.rank() == 0) {
                    Files.createDirectories(crash);
                    for (int file = 0; file < 2; file++) {
                        Path physical = SionFileNames.physicalFile(name, file);
                        Files.copy(physical, crash.resolve(physical.getFileName()));
                        Path journal = SionFileNames.journal(physical);
                        Files.copy(journal, crash.resolve(journal.getFileName()));
                    }
                }
                world.barrier();
            }
            return null;
        });
    }

    @Test
    void recoversACrashedSetAndPrintsTheBytesOfEveryTask() throws Exception {
        Path crash = directory.resolve("crash");
        writeAndCrash(directory.resolve("job.sion"), crash);
        Path crashed = crash.resolve("job.sion");

        Outcome recovered = quire("sion", "recover", crashed.toString());

        assertEquals(0, recovered.exitCode(), recovered.toString());
        assertEquals("", recovered.err());
        assertTrue(recovered.out().contains("task 0 (globalrank 0, file 0): 300 bytes in 1 chunk from 1 journal record\n"),
                recovered.out());
        assertTrue(recovered.out().contains("task 1 (globalrank 1, file 1): 700 bytes in 2 chunks from 2 journal records\n"),
                recovered.out());
        assertTrue(recovered.out().contains("task 2 (globalrank 2, file 1): 0 bytes in 1 chunk from 1 journal record\n"),
                recovered.out());
        assertTrue(recovered.out().contains("recovered " + crashed + ": 1000 bytes of 3 tasks"), recovered.out());
        assertFalse(Files.exists(SionFileNames.journal(crashed)));
        try (SionFile sion = SionFile.open(crashed)) {
            assertArrayEquals(streamOf(1, 700), sion.readFully(1));
        }
    }

    @Test
    void flushedOnlyEndsEveryTaskAtItsLastFlush() throws Exception {
        // Rank 1 flushed at 700 bytes (chunk 1 holds 188), then wrote a 600-byte record, larger than
        // a chunk: it filled chunk 1 (an unforced chunk-end record of 512 bytes) and put 276 bytes in
        // chunk 2, never recorded.
        Path everyRecordCrash = directory.resolve("every");
        writeAndCrash(directory.resolve("every.sion"), everyRecordCrash, 600);
        Path flushedCrash = directory.resolve("flushed");
        writeAndCrash(directory.resolve("flushed.sion"), flushedCrash, 600);

        Outcome everyRecord = quire("sion", "recover", everyRecordCrash.resolve("every.sion").toString());
        Outcome flushedOnly = quire("sion", "recover", "--flushed-only", flushedCrash.resolve("flushed.sion").toString());

        assertEquals(0, everyRecord.exitCode(), everyRecord.toString());
        assertTrue(everyRecord.out().contains("task 1 (globalrank 1, file 1): 1024 bytes in 2 chunks from 3 journal records\n"),
                everyRecord.out());
        assertEquals(0, flushedOnly.exitCode(), flushedOnly.toString());
        assertTrue(flushedOnly.out().contains("task 1 (globalrank 1, file 1): 700 bytes in 2 chunks from 2 journal records\n"),
                flushedOnly.out());
        try (SionFile sion = SionFile.open(flushedCrash.resolve("flushed.sion"))) {
            assertArrayEquals(streamOf(1, 700), sion.readFully(1));
        }
    }

    @Test
    void refusesAClosedFileWithOneLineAndStatusOne() throws Exception {
        Path crash = directory.resolve("crash");
        Path name = directory.resolve("closed.sion");
        writeAndCrash(name, crash);
        byte[] before = Files.readAllBytes(name);

        Outcome refused = quire("sion", "recover", name.toString());

        assertEquals(1, refused.exitCode());
        assertEquals("", refused.out());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().startsWith("quire sion recover: " + name + ": every file of the set is already closed"),
                refused.err());
        assertArrayEquals(before, Files.readAllBytes(name));
    }

    @Test
    void aMissingFileIsAnErrorNotACrash() {
        Outcome missing = quire("sion", "recover", directory.resolve("nothing.sion").toString());
        assertEquals(2, missing.exitCode(), "a missing input file is a usage error, as for every quire sion tool");
        assertTrue(missing.err().lines().findFirst().orElse("").endsWith("nothing.sion: no such file"), missing.err());
    }

    @Test
    void withoutNameItIsAUsageError() {
        assertEquals(2, quire("sion", "recover").exitCode());
    }
}
