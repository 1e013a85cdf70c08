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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

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
    void aClosedFileIsAlreadyClosedNothingToRecoverAndStatusZero() throws Exception {
        Path crash = directory.resolve("crash");
        Path name = directory.resolve("closed.sion");
        writeAndCrash(name, crash);
        byte[] before = Files.readAllBytes(name);

        Outcome refused = quire("sion", "recover", name.toString());

        assertEquals(0, refused.exitCode(), refused.err());
        assertEquals(name + ": already closed, nothing to recover\n", refused.out());
        assertEquals("", refused.err());
        assertArrayEquals(before, Files.readAllBytes(name));
    }

    /** {@code quire sion dump} prints to System.out (no second buffer for big dumps): captured here. */
    private static Outcome dump(Path file) {
        PrintStream systemOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Outcome outcome = quire("sion", "dump", file.toString());
            return new Outcome(outcome.exitCode(), printed.toString(StandardCharsets.UTF_8), outcome.err());
        } finally {
            System.setOut(systemOut);
        }
    }

    @Test
    void dumpOfACrashedFileShowsMeta1TheJournalAndHowToRecover() throws Exception {
        Path crash = directory.resolve("crash");
        writeAndCrash(directory.resolve("dumped.sion"), crash);
        Path crashed = crash.resolve("dumped.sion");

        Outcome withJournal = dump(crashed);
        assertEquals(0, withJournal.exitCode(), withJournal.err());
        assertEquals("", withJournal.err());
        List<String> lines = withJournal.out().lines().toList();
        assertEquals(crashed + ": SION file NOT CLOSED by its writer: no META2, so no task's data can be delimited",
                lines.get(0));
        assertTrue(lines.contains("  ntasks                1"), withJournal.out());
        assertTrue(lines.contains("  nfiles                2"), withJournal.out());
        assertTrue(lines.contains("  start_of_varheader    0"), withJournal.out());
        assertTrue(lines.contains("  file                  " + SionFileNames.journal(crashed)), withJournal.out());
        assertTrue(lines.contains("  state                 present, header valid"), withJournal.out());
        assertEquals("to recover: quire sion recover " + crashed, lines.get(lines.size() - 1));

        Files.delete(SionFileNames.journal(crashed));
        Outcome withoutJournal = dump(crashed);
        assertEquals(0, withoutJournal.exitCode(), withoutJournal.err());
        List<String> without = withoutJournal.out().lines().toList();
        assertTrue(without.contains("  state                 absent"), withoutJournal.out());
        assertEquals("not recoverable: there is no recovery journal beside it (written with the journal off, or by"
                + " another writer than Quire's parallel writer), so it cannot be recovered",
                without.get(without.size() - 1));
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
